// Normalisation and checks of the fields of an account, shared by registration and the admin CLI.
import { validationError } from '../shared/errors.js';

export const EMAIL_MAX_LENGTH = 254;
export const FULL_NAME_MAX_LENGTH = 200;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
// One @, no white space or control characters, a dot-free local part allowed, a non-empty domain.
const EMAIL_PATTERN = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;
const CONTROL_CHARACTERS = /\p{Cc}/u;

/** Trims and lower-cases an e-mail address; throws VALIDATION_ERROR when it is not one. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    throw validationError('email must be an e-mail address');
  }
  return email;
}

export function normalizeFullName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || name.length > FULL_NAME_MAX_LENGTH || CONTROL_CHARACTERS.test(name)) {
    throw validationError(`full_name must be 1 to ${FULL_NAME_MAX_LENGTH} characters without control characters`);
  }
  return name;
}

export function normalizeUsername(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const username = raw.trim();
  if (!USERNAME_PATTERN.test(username)) {
    throw validationError('username must be 3 to 32 letters, digits, dots, dashes or underscores');
  }
  return username;
}

/**
 * The login field takes an e-mail address or a username. Usernames cannot contain "@", so the
 * presence of one decides which it is. Both compare without regard to case.
 */
export function normalizeLoginIdentifier(raw: string): { kind: 'email' | 'username'; value: string } {
  const value = raw.trim().toLowerCase();
  return { kind: value.includes('@') ? 'email' : 'username', value };
}

// Normalisation and checks of the fields of an account, shared by registration and the admin CLI.
// Invisible and look-alike characters are refused or folded, so that two accounts cannot look the
// same (`ann@example.com` and the same with a zero-width space) and no name can reorder a table
// (bidi controls): docs/security.md, "Hostile input".
import { domainToASCII } from 'node:url';
import { validationError } from '../common/errors.js';

export const EMAIL_MAX_LENGTH = 254;
export const FULL_NAME_MAX_LENGTH = 200;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
// One @, no white space or control characters, a dot-free local part allowed, a non-empty domain.
const EMAIL_PATTERN = /^[^\s@\p{C}]+@[^\s@\p{C}]+$/u;
/** Control, format (zero-width, bidi), surrogate, private-use and unassigned characters, line and paragraph separators. */
const INVISIBLE_CHARACTERS = /[\p{C}\p{Zl}\p{Zp}]/u;

/**
 * The one form of an e-mail address: NFKC (fullwidth and other compatibility forms folded), trimmed,
 * lower-cased, the domain in its IDNA ASCII form. Undefined when the domain is not a valid IDNA name.
 */
function canonicalEmail(raw: string): string | undefined {
  const email = raw.normalize('NFKC').trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at <= 0 || INVISIBLE_CHARACTERS.test(email)) return undefined;
  const domain = domainToASCII(email.slice(at + 1));
  if (domain === '') return undefined;
  return `${email.slice(0, at)}@${domain}`;
}

/** The canonical e-mail address (see canonicalEmail); throws VALIDATION_ERROR when it is not one. */
export function normalizeEmail(raw: string): string {
  const email = canonicalEmail(raw);
  if (email === undefined || email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    throw validationError('email must be an e-mail address (with a valid domain, without invisible characters)', 'email');
  }
  return email;
}

/** NFC only: compatibility folding would change what people write their names with. */
export function normalizeFullName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (name.length === 0 || name.length > FULL_NAME_MAX_LENGTH || INVISIBLE_CHARACTERS.test(name)) {
    throw validationError(`full_name must be 1 to ${FULL_NAME_MAX_LENGTH} characters without control or invisible characters`, 'full_name');
  }
  return name;
}

export function normalizeUsername(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const username = raw.trim();
  if (!USERNAME_PATTERN.test(username)) {
    throw validationError('username must be 3 to 32 letters, digits, dots, dashes or underscores', 'username');
  }
  return username;
}

/**
 * The login field takes an e-mail address or a username. Usernames cannot contain "@", so the
 * presence of one decides which it is. Both compare without regard to case.
 */
export function normalizeLoginIdentifier(raw: string): { kind: 'email' | 'username'; value: string } {
  const value = raw.normalize('NFKC').trim().toLowerCase();
  if (!value.includes('@')) return { kind: 'username', value };
  return { kind: 'email', value: canonicalEmail(value) ?? value };
}

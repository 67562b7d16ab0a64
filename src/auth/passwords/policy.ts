// What a password must be (docs/api.md, Conventions): 8 to 256 Unicode code points, no composition rules,
// and not one of the commonly used passwords of zxcvbn's maintained list.
import { ServiceError, validationError } from '../../common/errors.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

let commonPasswords: Promise<Set<string>> | undefined;

// Loaded on first use: the list is large and most admin commands never need it.
function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then((module) => {
    // A CommonJS package: its exports arrive as named exports, or under `default` when bundled.
    const { dictionary } = ('dictionary' in module ? module : (module as { default: typeof module }).default) as typeof module;
    return new Set((dictionary.passwords as string[]).map((word) => word.toLowerCase()));
  });
  return commonPasswords;
}

export function checkPasswordLength(password: string, field = 'password'): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw validationError(`${field} must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`, field);
  }
}

/** Throws VALIDATION_ERROR for a bad length and WEAK_PASSWORD for a commonly used password. */
export async function checkNewPassword(password: string, field = 'password'): Promise<void> {
  checkPasswordLength(password, field);
  if ((await loadCommonPasswords()).has(password.toLowerCase())) {
    throw new ServiceError('WEAK_PASSWORD', `${field} is too common; choose one that is not on lists of common passwords`);
  }
}

// Every error the API answers, as a sentence a person understands (never the raw body).

export interface ApiFailure {
  status: number;
  code: string;
  retryAfterSeconds?: number | undefined;
}

function inMinutes(seconds: number | undefined): string {
  if (seconds === undefined) return 'in a few minutes';
  if (seconds < 60) return seconds <= 1 ? 'in a second' : `in ${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'in 1 minute' : `in ${minutes} minutes`;
}

const SENTENCES: Record<string, string> = {
  INVALID_CREDENTIALS: 'The e-mail, username or password is not right.',
  ACCOUNT_DISABLED: 'This account is disabled. Ask the administrator to enable it.',
  WEAK_PASSWORD: 'This password is too common. Choose a longer or less common one.',
  EMAIL_TAKEN: 'An account with this e-mail address already exists. Sign in or reset its password.',
  USERNAME_TAKEN: 'This username is taken. Choose another one.',
  REGISTRATION_CLOSED: 'Registration is closed on this server. Ask the administrator for an account.',
  INVALID_RESET_TOKEN: 'This reset link is invalid, expired or already used. Request a new one.',
  INVALID_PASSWORD: 'The current password is not right.',
  VALIDATION_ERROR: 'Some of what you entered is not valid. Check the fields and try again.',
  OVERLAP: 'This time overlaps another entry. Change the start or end so they do not overlap.',
  ALREADY_RUNNING: 'A timer is already running. Stop it first.',
  NOT_RUNNING: 'No timer is running.',
  ABSENCE_EXISTS: 'There is already an absence on this day.',
  NOT_FOUND: 'This item no longer exists. It may have been deleted.',
  USER_NOT_FOUND: 'This account no longer exists.',
  UNAUTHORIZED: 'Your session has ended. Sign in again.',
  PAYLOAD_TOO_LARGE: 'What you entered is too long.',
  NETWORK: 'The server cannot be reached. Check your connection and try again.',
};

export function errorMessage(failure: ApiFailure): string {
  switch (failure.code) {
    case 'ACCOUNT_LOCKED':
      return `Too many failed sign-ins: this account is locked. Try again ${inMinutes(failure.retryAfterSeconds)}.`;
    case 'RATE_LIMITED':
      return `Too many attempts from this address. Try again ${inMinutes(failure.retryAfterSeconds)}.`;
    case 'BUSY':
    case 'DATABASE_UNAVAILABLE':
      return 'The server is busy. Try again in a moment.';
  }
  const sentence = SENTENCES[failure.code];
  if (sentence) return sentence;
  if (failure.status === 429) return `Too many attempts. Try again ${inMinutes(failure.retryAfterSeconds)}.`;
  if (failure.status >= 500) return 'The server could not do this. Try again in a moment.';
  return 'This did not work. Check what you entered and try again.';
}

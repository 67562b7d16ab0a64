// Budgets per account for the changes to an account's credentials made by its owner (docs/security.md,
// "the audit trail grows with no-ops"): each is audited, and a token creation also verifies a password
// and mails a notice, so none may run unbounded. Counted per account and per process by the HTTP edge,
// like the export and statistics budgets; past one: 429 RATE_LIMITED with Retry-After.

/** API tokens an account may create an hour. */
export const API_TOKEN_CREATIONS_PER_HOUR = 10;
/** Revocations an hour, one budget for revoking an API token, one session, or every other session. */
export const REVOCATIONS_PER_HOUR = 60;

// Signing in from the pages before it: the password step, and what it leads to (signed in, or the
// second step of two-factor sign-in); focus goes where the person continues (docs/web-client.md).
import type { User } from '../http/contract.js';
import { api, keepSession } from './api.js';
import { focusOnArrival } from './focus.js';
import { navigate } from './router.js';

/** What the password step leads to: signed in, or a second step with its challenge. */
export type SecondStep = { kind: 'code' | 'setup'; challenge: string; setup?: { secret: string; otpauth_uri: string } } | undefined;

export function signedIn(token: string, user: User): void {
  keepSession(token, user);
  navigate('/', { replace: true });
  // Focus would fall to the page's body with the sign-in form: it goes to the heading of the section shown.
  focusOnArrival('#view-title');
}

export async function signIn(identifier: string, password: string): Promise<SecondStep> {
  const answer = await api('POST /api/auth/login', { body: { email: identifier, password } });
  if ('token' in answer) {
    signedIn(answer.token, answer.user);
    return undefined;
  }
  if ('two_factor_required' in answer) {
    focusOnArrival('.auth input[name="code"]');
    return { kind: 'code', challenge: answer.challenge };
  }
  // REQUIRE_2FA: set it up now, with the challenge instead of a session.
  const setup = await api('POST /api/auth/2fa/setup', { body: { challenge: answer.challenge } });
  focusOnArrival('.auth h1');
  return { kind: 'setup', challenge: answer.challenge, setup };
}

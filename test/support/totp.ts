// TOTP codes as an authenticator app makes them: computed from the secret with the real library
// (otpauth) at a given time (the test's clock, or the real one for a real `serve`).
import { Secret, TOTP } from 'otpauth';

export function totpCode(secret: string, at: Date | number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: typeof at === 'number' ? at : at.getTime() });
}

/** A 6-digit code that is not the right one for any step near `at` (drift of one step either way). */
export function wrongCode(secret: string, at: Date | number, seed = 0): string {
  const time = typeof at === 'number' ? at : at.getTime();
  const near = new Set([-30_000, 0, 30_000].map((offset) => totpCode(secret, time + offset)));
  for (let n = seed; ; n += 1) {
    const candidate = String((123_456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

// Session tokens are HS256 JWTs with sub, iat, exp and a random jti (docs/api.md, Authentication). The
// key is imported once; a verified signature is remembered (bounded, keyed by the token hash): it
// cannot change while the secret is the same, and the record and the expiry are still checked on every
// request, so logout and revoke take effect at once on every process.
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import type { OpenedDatabase } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';
import { hashToken, unauthorized, type SignedSession } from './records.js';

const VERIFIED_CACHE_SIZE = 10_000;

export interface SessionOptions {
  expirationSeconds: number;
  loadSecret: () => Uint8Array;
}

export interface SessionDeps {
  database: Pick<OpenedDatabase, 'db' | 'bestEffort'>;
  clock: Clock;
  options: SessionOptions;
}

/** The signing key (imported on first use) and the signatures verified so far, of one process. */
export interface SigningState {
  key: Promise<webcrypto.CryptoKey> | undefined;
  keyId: string | undefined;
  verified: Set<string>;
}

/** The dependencies of the session functions, with this process's signing state. */
export type SessionContext = SessionDeps & { signing: SigningState };

export function newSigningState(): SigningState {
  return { key: undefined, keyId: undefined, verified: new Set() };
}

// jose is loaded on first use: admin commands that never sign or verify do not pay for it.
let joseModule: Promise<typeof import('jose')> | undefined;
const loadJose = () => (joseModule ??= import('jose'));

/** A secret's key id: the first 8 bytes of its SHA-256, hex (names the secret, reveals nothing of it). */
function keyIdOf(secret: Uint8Array): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

// Imported once: jose costs ~3x more per call with raw bytes than with a CryptoKey.
function signingKey(context: SessionContext): Promise<webcrypto.CryptoKey> {
  const { signing } = context;
  signing.key ??= Promise.resolve().then(() => {
    const secret = context.options.loadSecret();
    signing.keyId = keyIdOf(secret);
    return webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  });
  return signing.key;
}

/** The key id of the configured secret (loads it on first use). */
export async function currentKeyId(context: SessionContext): Promise<string> {
  await signingKey(context);
  return context.signing.keyId as string;
}

/** Loads the key now, so a damaged secret file stops `serve` at start rather than at the first login. */
export async function warmUp(context: SessionContext): Promise<void> {
  await signingKey(context);
}

function rememberVerified(signing: SigningState, tokenHash: string): void {
  if (signing.verified.size >= VERIFIED_CACHE_SIZE) {
    // Sets iterate in insertion order: drop the oldest entry.
    const oldest = signing.verified.values().next().value;
    if (oldest !== undefined) signing.verified.delete(oldest);
  }
  signing.verified.add(tokenHash);
}

export async function signSession(context: SessionContext, userId: number): Promise<SignedSession> {
  const { SignJWT } = await loadJose();
  const now = context.clock.now();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAtSeconds = issuedAt + context.options.expirationSeconds;
  const signingKeyId = await currentKeyId(context);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signingKeyId })
    .setSubject(String(userId))
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAtSeconds)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(await signingKey(context));
  return { userId, token, tokenHash: hashToken(token), createdAt: now, expiresAt: new Date(expiresAtSeconds * 1000), keyId: signingKeyId };
}

/** Whether this token's signature was verified before (in this process, with this secret). */
export function isVerified(context: SessionContext, tokenHash: string): boolean {
  return context.signing.verified.has(tokenHash);
}

/** The three checks of the contract, for the account `userId`; every failure is UNAUTHORIZED, whatever its cause. */
export async function verifySignature(context: SessionContext, token: string, tokenHash: string, userId: number, now: Date): Promise<void> {
  try {
    const { jwtVerify } = await loadJose();
    const { payload } = await jwtVerify(token, await signingKey(context), {
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      currentDate: now,
    });
    if (payload.sub !== String(userId)) throw unauthorized();
  } catch {
    throw unauthorized();
  }
  rememberVerified(context.signing, tokenHash);
}

// Session tokens are HS256 JWTs with sub, iat, exp and a random jti (docs/api.md, Authentication),
// signed and verified here with node:crypto's HMAC on the calling thread (decision 0008: WebCrypto,
// and so jose, runs HMAC on libuv's pool, where it waits behind password hashes during a login
// flood). A verified signature is remembered (bounded, keyed by the token hash): it cannot change
// while the secret is the same, and the record and the expiry are still checked on every request, so
// logout and revoke take effect at once on every process.
import { createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { OpenedDatabase } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';
import { hashToken, unauthorized, type SignedSession } from './records.js';

const VERIFIED_CACHE_SIZE = 10_000;
/** The protected header of every token this server signs; `kid` names the secret. */
const HEADER_FIELDS = { alg: 'HS256', typ: 'JWT' } as const;

export interface SessionOptions {
  expirationSeconds: number;
  loadSecret: () => Uint8Array;
}

export interface SessionDeps {
  database: Pick<OpenedDatabase, 'db' | 'bestEffort'>;
  clock: Clock;
  options: SessionOptions;
}

/** The signing key (loaded on first use) and the signatures verified so far, of one process. */
export interface SigningState {
  key: { secret: KeyObject; keyId: string } | undefined;
  verified: Set<string>;
}

/** The dependencies of the session functions, with this process's signing state. */
export type SessionContext = SessionDeps & { signing: SigningState };

export function newSigningState(): SigningState {
  return { key: undefined, verified: new Set() };
}

/** A secret's key id: the first 8 bytes of its SHA-256, hex (names the secret, reveals nothing of it). */
function keyIdOf(secret: Uint8Array): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

function signingKey(context: SessionContext): { secret: KeyObject; keyId: string } {
  if (context.signing.key === undefined) {
    const secret = context.options.loadSecret();
    context.signing.key = { secret: createSecretKey(secret), keyId: keyIdOf(secret) };
  }
  return context.signing.key;
}

/** The key id of the configured secret (loads it on first use). */
export async function currentKeyId(context: SessionContext): Promise<string> {
  await Promise.resolve();
  return signingKey(context).keyId;
}

/** Loads the key now, so a damaged secret file stops `serve` at start rather than at the first login. */
export async function warmUp(context: SessionContext): Promise<void> {
  await currentKeyId(context);
}

function rememberVerified(signing: SigningState, tokenHash: string): void {
  if (signing.verified.size >= VERIFIED_CACHE_SIZE) {
    // Sets iterate in insertion order: drop the oldest entry.
    const oldest = signing.verified.values().next().value;
    if (oldest !== undefined) signing.verified.delete(oldest);
  }
  signing.verified.add(tokenHash);
}

const encodePart = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hmac = (secret: KeyObject, signingInput: string) => createHmac('sha256', secret).update(signingInput).digest();

export async function signSession(context: SessionContext, userId: number): Promise<SignedSession> {
  await Promise.resolve();
  const { secret, keyId } = signingKey(context);
  const now = context.clock.now();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAtSeconds = issuedAt + context.options.expirationSeconds;
  const payload = { sub: String(userId), iat: issuedAt, exp: expiresAtSeconds, jti: randomBytes(16).toString('base64url') };
  const signingInput = `${encodePart({ ...HEADER_FIELDS, kid: keyId })}.${encodePart(payload)}`;
  const token = `${signingInput}.${hmac(secret, signingInput).toString('base64url')}`;
  return { userId, token, tokenHash: hashToken(token), createdAt: now, expiresAt: new Date(expiresAtSeconds * 1000), keyId };
}

/** Whether this token's signature was verified before (in this process, with this secret). */
export function isVerified(context: SessionContext, tokenHash: string): boolean {
  return context.signing.verified.has(tokenHash);
}

/** A base64url part decoded as a JSON object, or undefined (not canonical base64url, not JSON, not an object). */
function decodeObject(part: string): Record<string, unknown> | undefined {
  const bytes = Buffer.from(part, 'base64url');
  if (bytes.toString('base64url') !== part) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The claims of a signed token when its header, signature and required claims hold at `now`; else undefined. */
function verifiedClaims(secret: KeyObject, token: string, now: Date): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeObject(headerPart);
  // Only HS256; a header with `crit` names extensions this verifier does not implement (RFC 7515 §4.1.11).
  if (header === undefined || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return undefined;
  const given = Buffer.from(signaturePart, 'base64url');
  const expected = hmac(secret, `${headerPart}.${payloadPart}`);
  if (given.toString('base64url') !== signaturePart || given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = decodeObject(payloadPart);
  if (claims === undefined) return undefined;
  const { sub, iat, exp, jti, nbf } = claims;
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof sub !== 'string' || typeof jti !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return undefined;
  if (!Number.isFinite(iat) || !Number.isFinite(exp) || exp <= seconds) return undefined;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > seconds)) return undefined;
  return claims;
}

/**
 * The three checks of the contract, for the account `userId`: synchronous, on the calling thread.
 * Every failure is UNAUTHORIZED, whatever its cause.
 */
export function verifySignature(context: SessionContext, token: string, tokenHash: string, userId: number, now: Date): void {
  const claims = verifiedClaims(signingKey(context).secret, token, now);
  if (claims === undefined || claims.sub !== String(userId)) throw unauthorized();
  rememberVerified(context.signing, tokenHash);
}

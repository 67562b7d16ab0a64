// Keys that are not in the database (docs/security.md, "Two-factor sign-in"). TOTP secrets are sealed
// with AES-256-GCM, the account id bound as associated data (a row copied to another account does
// not open), under the sealing key: HKDF-SHA-256 of SECRET_KEY (or the generated `<db>.secret-key`
// beside a SQLite database), independent of the session-signing secret. A stolen database file alone
// therefore gives no TOTP secret away.
//
// Before SECRET_KEY, secrets were sealed under a key derived from the session-signing secret
// (JWT_SECRET, or `<db>.jwt-secret`): those still open (the box tries the sealing key, then that
// one), and `serve` re-seals them under the sealing key at start (./two-factor/sealing.ts). On
// PostgreSQL without SECRET_KEY the sealing key is that old derivation (a warning at start).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
/** The HKDF purposes: of the sealing key (SECRET_KEY), and of the key derived from the session secret. */
const SEALING_PURPOSE = 'timetrack two-factor secrets sealing key';
const SESSION_SECRET_PURPOSE = 'timetrack two-factor secrets v1';

export class SealedSecretError extends Error {
  override name = 'SealedSecretError';
}

export interface SecretBoxKeys {
  /** SECRET_KEY, or the generated key file; undefined: none configured (PostgreSQL), the session secret's key seals. */
  sealingSecret: () => Uint8Array | undefined;
  /** The session-signing secret, whose derived key sealed before SECRET_KEY existed. */
  sessionSecret: () => Uint8Array;
}

/** What an open found: the plaintext, and whether it was sealed under the sealing key (else: the old key, to re-seal). */
export interface OpenedSecret {
  plaintext: string;
  underSealingKey: boolean;
}

function derive(secret: Uint8Array, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'timetrack', purpose, 32));
}

function tryOpen(key: Buffer, bytes: Buffer, associatedData: string): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

export function createSecretBox(keys: SecretBoxKeys) {
  let cached: { sealing: Buffer; old: Buffer } | undefined;
  function keysNow(): { sealing: Buffer; old: Buffer } {
    if (!cached) {
      const old = derive(keys.sessionSecret(), SESSION_SECRET_PURPOSE);
      const secret = keys.sealingSecret();
      cached = { sealing: secret === undefined ? old : derive(secret, SEALING_PURPOSE), old };
    }
    return cached;
  }

  /** `v1.` and base64url of a 12-byte IV, the ciphertext and the 16-byte tag, under the sealing key. */
  function seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keysNow().sealing, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /**
   * Opens under the sealing key, else under the key derived from the session secret (sealed before
   * SECRET_KEY); SealedSecretError when neither opens it (another key, another account, altered).
   */
  function openDetailed(sealed: string, associatedData: string): OpenedSecret {
    const [version, body] = sealed.split('.');
    const bytes = Buffer.from(body ?? '', 'base64url');
    if (version !== VERSION || bytes.length < 12 + 16 + 1) throw new SealedSecretError('not a sealed secret of this version');
    const { sealing, old } = keysNow();
    const plaintext = tryOpen(sealing, bytes, associatedData);
    if (plaintext !== undefined) return { plaintext, underSealingKey: true };
    const before = sealing.equals(old) ? undefined : tryOpen(old, bytes, associatedData);
    if (before !== undefined) return { plaintext: before, underSealingKey: false };
    throw new SealedSecretError('the sealed secret opens neither with the sealing key (SECRET_KEY) nor with the key of the session secret');
  }

  return { seal, openDetailed, open: (sealed: string, associatedData: string): string => openDetailed(sealed, associatedData).plaintext };
}

export type SecretBox = ReturnType<typeof createSecretBox>;

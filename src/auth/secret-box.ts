// Keys that are not in the database (docs/security.md, "Two-factor sign-in"): derived with HKDF-SHA-256
// from the server secret (JWT_SECRET, or the generated secret file beside a SQLite database), one key
// per purpose. TOTP secrets are sealed with AES-256-GCM under one of them, the account id bound as
// associated data (a row copied to another account does not open). A stolen database file alone
// therefore gives no TOTP secret away.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export class SealedSecretError extends Error {
  override name = 'SealedSecretError';
}

export function createSecretBox(loadSecret: () => Uint8Array) {
  const keys = new Map<string, Buffer>();
  function keyFor(purpose: string): Buffer {
    let key = keys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', loadSecret(), 'timetrack', `timetrack ${purpose}`, 32));
      keys.set(purpose, key);
    }
    return key;
  }

  /** `v1.` and base64url of a 12-byte IV, the ciphertext and the 16-byte tag. */
  function seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keyFor('two-factor secrets v1'), iv);
    cipher.setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The plaintext, or SealedSecretError when it was sealed under another key or for another account, or altered. */
  function open(sealed: string, associatedData: string): string {
    const [version, body] = sealed.split('.');
    const bytes = Buffer.from(body ?? '', 'base64url');
    if (version !== VERSION || bytes.length < 12 + 16 + 1) throw new SealedSecretError('not a sealed secret of this version');
    try {
      const decipher = createDecipheriv('aes-256-gcm', keyFor('two-factor secrets v1'), bytes.subarray(0, 12));
      decipher.setAAD(Buffer.from(associatedData));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      throw new SealedSecretError('the sealed secret does not open with this server secret');
    }
  }

  return { seal, open };
}

export type SecretBox = ReturnType<typeof createSecretBox>;

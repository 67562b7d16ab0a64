// `token revoke --token -` reads the token from standard input, so a live token never appears on a
// command line (ps, shell history) (docs/security.md, "Leaked secrets"). The real binary and server.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { startServer } from '../support/server.js';

describe('token revoke --token -', () => {
  it('revokes the token given on standard input', async () => {
    const db = path.join(makeTempDir(), 'timetrack.db');
    const server = await startServer(db);
    try {
      const json = { 'content-type': 'application/json' };
      await fetch(`${server.baseUrl}/api/auth/register`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' }),
      });
      const signIn = async () =>
        (
          (await (
            await fetch(`${server.baseUrl}/api/auth/login`, {
              method: 'POST',
              headers: json,
              body: JSON.stringify({ email: 'ann@example.com', password: PASSWORD }),
            })
          ).json()) as { token: string }
        ).token;
      const me = async (token: string) => (await fetch(`${server.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;
      const token = await signIn();
      const other = await signIn();
      const revoked = await runCli(['--db', db, '--json', 'token', 'revoke', '--token', '-'], { input: `${token}\n` });
      expect(revoked.exitCode).toBe(0);
      expect(JSON.parse(String(revoked.stdout))).toEqual({ revoked: 1 });
      expect(await me(token)).toBe(401);
      expect(await me(other)).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

// One `serve` with mail (a real SMTP server of its own) for the cases of a file or a `describe` that
// need no process, setting or database of their own (docs/testing.md, "How fast"): `sharedServer`, with
// the SMTP settings pointing at an SMTP server started just before it. Each case then uses accounts of
// its own (`uniqueEmail`) and reads the mail to its own address (`waitForMessageTo`).
import { afterAll } from 'vitest';
import { sharedServer, type SharedServer } from './server.js';
import { startSmtpServer, type TestSmtpServer } from './smtp.js';

export interface SharedMailingServer extends SharedServer {
  smtp: TestSmtpServer;
}

/** The settings of a server that mails through `smtp` (links to https://time.example.org). */
export function mailSettings(smtp: TestSmtpServer): Record<string, string> {
  return { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'timetrack@example.org', PUBLIC_URL: 'https://time.example.org' };
}

/**
 * Call it where `afterAll` may be called (a file's top level or a `describe` body): the server and its
 * SMTP server start at the first case that asks, and stop after the last (the server first).
 */
export function sharedMailingServer(env: Record<string, string> = {}, args: string[] = []): () => Promise<SharedMailingServer> {
  let smtp: TestSmtpServer | undefined;
  let started: Promise<TestSmtpServer> | undefined;
  // Registered before the server's own afterAll, so it runs after it (after-hooks run in reverse).
  afterAll(async () => {
    await smtp?.close();
  });
  const server = sharedServer(() => ({ ...mailSettings(smtp!), ...env }), args);
  return async () => {
    smtp = await (started ??= startSmtpServer());
    return { ...(await server()), smtp };
  };
}

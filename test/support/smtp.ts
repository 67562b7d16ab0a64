// A real SMTP server (smtp-server) on a free local port that keeps every message it receives.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  messages: ReceivedMail[];
  /** Resolves with the n-th message (1-based) once it has arrived. */
  waitForMessage: (n?: number, timeoutMs?: number) => Promise<ReceivedMail>;
  /** Resolves with the n-th message (1-based) to this address once it has arrived (for a server that mails several accounts). */
  waitForMessageTo: (to: string, n?: number, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

/** `refuseFirst`: the first this many messages are refused with a temporary error (451), as a server that is briefly unwell. */
export async function startSmtpServer(options: { refuseFirst?: number } = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let refused = 0;
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    // Plain SMTP on localhost: no certificate to set up, and nodemailer sends without STARTTLS.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        if (refused < (options.refuseFirst ?? 0)) {
          refused += 1;
          callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          return;
        }
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  async function waitForMessageTo(to: string | undefined, n = 1, timeoutMs = 20_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    const received = () => messages.filter((message) => to === undefined || message.to.includes(to));
    while (received().length < n) {
      if (Date.now() > deadline) throw new Error(`no mail #${n}${to === undefined ? '' : ` to ${to}`} within ${timeoutMs} ms (got ${received().length})`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return received()[n - 1]!;
  }

  return {
    port,
    messages,
    waitForMessage: (n, timeoutMs) => waitForMessageTo(undefined, n, timeoutMs),
    waitForMessageTo,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The reset link of a reset e-mail (quoted-printable soft line breaks undone). */
export function resetLinkOf(mail: ReceivedMail): URL {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /(https?:\/\/\S+\/password-reset\?token=[A-Za-z0-9_%-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no reset link in:\n${mail.raw}`);
  return new URL(match[1]);
}

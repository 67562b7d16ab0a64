// How a reset link reaches its reader. Production: an e-mail through SMTP, sent off the request path
// and retried with backoff for a bounded time. Production without SMTP settings: nothing can reach
// anyone, so no link is issued on request; a warning in the log points to `timetrack reset issue`. Dev mode: the link is
// printed to the terminal, outside the log.
import type { Logger } from 'pino';
import type { SmtpConfig } from '../config/index.js';
import type { BackgroundTasks } from '../common/background.js';
import type { IssuedReset, ResetLinkDelivery } from '../auth/passwords/resets.js';

export const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000, 30_000, 60_000];

export interface ResetDeliveryOptions {
  dev: boolean;
  smtp: SmtpConfig | undefined;
  logger: Logger;
  background: BackgroundTasks;
  /** Where dev mode prints reset links. */
  terminal: NodeJS.WritableStream;
  retryDelaysMs?: number[];
}

export function resetMailText(reset: IssuedReset): string {
  return [
    'Someone asked to reset the password of your timetrack account.',
    '',
    `To choose a new password, open this link before ${reset.expiresAt.toISOString()}:`,
    reset.url,
    '',
    'The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.',
  ].join('\n');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The SMTP transport of the settings; nodemailer is loaded only by a process that sends mail. */
export function smtpTransport(smtp: SmtpConfig): Promise<import('nodemailer').Transporter> {
  return import('nodemailer').then(({ default: nodemailer }) =>
    nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.port === 465,
      auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    }),
  );
}

export function createResetLinkDelivery(options: ResetDeliveryOptions): ResetLinkDelivery {
  const { logger } = options;
  if (options.dev) {
    return {
      mode: 'terminal',
      deliver(reset) {
        options.terminal.write(`\n[dev] password reset for ${reset.email}\n[dev]   token: ${reset.token}\n[dev]   link:  ${reset.url}\n\n`);
      },
    };
  }
  const smtp = options.smtp;
  if (!smtp) {
    return {
      mode: 'none',
      reportNotSent() {
        logger.warn('reset requested but no link issued: no SMTP settings (set SMTP_HOST and SMTP_FROM, or run `timetrack reset issue <email>`)');
      },
    };
  }
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const transport = smtpTransport(smtp);

  async function sendWithRetries(reset: IssuedReset): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await (
          await transport
        ).sendMail({
          from: smtp!.from,
          to: reset.email,
          subject: 'Reset your timetrack password',
          text: resetMailText(reset),
        });
        logger.info({ attempt: attempt + 1 }, 'reset e-mail sent');
        return;
      } catch (error) {
        const delay = retryDelaysMs[attempt];
        const reason = error instanceof Error ? error.message : String(error);
        if (delay === undefined) {
          logger.error({ attempts: attempt + 1, reason }, 'reset e-mail failed; giving up');
          return;
        }
        logger.warn({ attempt: attempt + 1, reason, retryInMs: delay }, 'reset e-mail failed; will retry');
        await sleep(delay);
      }
    }
  }

  return { mode: 'mail', deliver: (reset) => options.background.run('reset e-mail', () => sendWithRetries(reset)) };
}

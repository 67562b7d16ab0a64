// Account notices by e-mail (the new-device notice): sent off the request path through SMTP and
// retried with backoff like reset e-mails (src/mail/reset-delivery.ts), then given up and logged.
import type { Logger } from 'pino';
import type { SmtpConfig } from '../config/index.js';
import { DEFAULT_RETRY_DELAYS_MS, smtpTransport } from './reset-delivery.js';
import { createInvitationDelivery, type InvitationDeliveryOptions } from './invitation-delivery.js';

export interface Notice {
  to: string;
  subject: string;
  text: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** undefined without SMTP settings: nothing can be mailed. */
export function createNoticeMailer(smtp: SmtpConfig | undefined, logger: Logger, retryDelaysMs: number[] = DEFAULT_RETRY_DELAYS_MS) {
  if (!smtp) return undefined;
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  // Made at the first notice: a process that never sends one never loads nodemailer.
  const transporter = () => (transport ??= smtpTransport(smtp));

  /** Sends with retries; resolves when sent or given up (call it from a background task). */
  async function send(notice: Notice, label: string): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await (await transporter()).sendMail({ from: smtp!.from, to: notice.to, subject: notice.subject, text: notice.text });
        logger.info({ attempt: attempt + 1, notice: label }, 'notice e-mail sent');
        return;
      } catch (error) {
        const delay = retryDelaysMs[attempt];
        const reason = error instanceof Error ? error.message : String(error);
        if (delay === undefined) {
          logger.error({ attempts: attempt + 1, reason, notice: label }, 'notice e-mail failed; giving up');
          return;
        }
        logger.warn({ attempt: attempt + 1, reason, retryInMs: delay, notice: label }, 'notice e-mail failed; will retry');
        await sleep(delay);
      }
    }
  }

  return { send };
}

/** Each notice sent by a background task, off the request path; undefined without SMTP settings. */
export function createBackgroundNotices(
  smtp: SmtpConfig | undefined,
  logger: Logger,
  background: { run(label: string, task: () => Promise<unknown>): void },
  retryDelaysMs?: number[],
): ((notice: Notice, label: string) => void) | undefined {
  const mailer = createNoticeMailer(smtp, logger, retryDelaysMs);
  if (!mailer) return undefined;
  return (notice, label) => background.run(`${label} notice`, () => mailer.send(notice, label));
}

/** The mail after the first lock of a run of wrong two-factor codes that followed a right password. */
function codesLockedText(email: string, publicUrl: string): string {
  return [
    `Someone signed in to your timetrack account ${email} with its password, then entered several wrong two-factor codes:`,
    'two-factor codes are refused for a while now, longer after each further run of wrong codes.',
    '',
    'If this was you, there is nothing to do.',
    '',
    'If it was not you, someone knows your password: change it in timetrack (Settings → Security),',
    `and sign out the devices you do not know there: ${publicUrl}/`,
  ].join('\n');
}

/** The two-factor notices (src/auth/two-factor/deps.ts) by e-mail, off the request path; undefined without SMTP. */
export function createCodeLockNotices(
  { smtp, publicUrl }: { smtp: SmtpConfig | undefined; publicUrl: string },
  logger: Logger,
  background: { run(label: string, task: () => Promise<unknown>): void },
  retryDelaysMs?: number[],
) {
  const mailer = createNoticeMailer(smtp, logger, retryDelaysMs);
  if (!mailer) return undefined;
  return {
    codesLocked(user: { email: string }): void {
      const notice = { to: user.email, subject: 'Wrong two-factor codes on your timetrack account', text: codesLockedText(user.email, publicUrl) };
      background.run('two-factor lock notice', () => mailer.send(notice, 'two-factor-lock'));
    },
  };
}

/** What the invitation service needs of the settings: how links are delivered, how long they work, where they point. */
export function invitationLinks(options: InvitationDeliveryOptions) {
  const { config } = options;
  const send = createBackgroundNotices(config.smtp, options.logger, options.background, options.options.mailRetryDelaysMs);
  return { delivery: createInvitationDelivery(options, send), options: { ttlSeconds: config.inviteTtlSeconds, publicUrl: config.publicUrl } };
}

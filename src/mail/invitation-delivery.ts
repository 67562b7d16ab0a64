// How an invitation link reaches the invited person (docs/teams.md, "Invitations"): an e-mail through
// SMTP in production (off the request path, retried like reset e-mails), in English or German as the
// inviter asked; in dev mode printed on the terminal (and the API answers it too). Production without
// SMTP: nothing is sent; the link is then only shown by `timetrack user invite`.
import type { Logger } from 'pino';
import type { SmtpConfig } from '../config/index.js';
import type { InvitationDelivery, IssuedInvitation } from '../teams/index.js';

export interface InvitationDeliveryOptions {
  config: { dev: boolean; smtp: SmtpConfig | undefined; inviteTtlSeconds: number; publicUrl: string };
  logger: Logger;
  background: { run(label: string, task: () => Promise<unknown>): void };
  /** Where dev mode prints the links (default stdout). */
  options: { terminal?: NodeJS.WritableStream | undefined; mailRetryDelaysMs?: number[] | undefined };
}

/** Sends one e-mail off the request path (createBackgroundNotices of notices.ts); undefined without SMTP. */
type SendNotice = ((notice: { to: string; subject: string; text: string }, label: string) => void) | undefined;

/** The subject and text of the invitation e-mail in its language. */
export function invitationMail(invitation: IssuedInvitation): { subject: string; text: string } {
  const until = invitation.expiresAt.toISOString();
  if (invitation.language === 'de') {
    return {
      subject: `Einladung zu timetrack (Team ${invitation.teamName})`,
      text: [
        `Hallo ${invitation.fullName},`,
        '',
        `Sie wurden in das Team „${invitation.teamName}“ von timetrack eingeladen.`,
        `Um Ihr Konto anzulegen, öffnen Sie diesen Link vor ${until}:`,
        invitation.url,
        '',
        'Der Link funktioniert einmal. Wenn Sie keine Einladung erwartet haben, ignorieren Sie diese E-Mail.',
      ].join('\n'),
    };
  }
  return {
    subject: `Your invitation to timetrack (team ${invitation.teamName})`,
    text: [
      `Hello ${invitation.fullName},`,
      '',
      `You have been invited to the team "${invitation.teamName}" on timetrack.`,
      `To create your account, open this link before ${until}:`,
      invitation.url,
      '',
      'The link works once. If you did not expect an invitation, ignore this e-mail.',
    ].join('\n'),
  };
}

export function createInvitationDelivery({ config, logger, options }: InvitationDeliveryOptions, send: SendNotice): InvitationDelivery {
  if (config.dev) {
    const terminal = options.terminal ?? process.stdout;
    return {
      mode: 'terminal',
      deliver(invitation) {
        terminal.write(`\n[dev] invitation for ${invitation.email} (team ${invitation.teamName})\n[dev]   link:  ${invitation.url}\n\n`);
      },
    };
  }
  if (!send) {
    return {
      mode: 'none',
      deliver() {
        logger.warn('invitation made but not mailed: no SMTP settings (set SMTP_HOST and SMTP_FROM; `timetrack user invite` prints the link)');
      },
    };
  }
  return { mode: 'mail', deliver: (invitation) => send({ to: invitation.email, ...invitationMail(invitation) }, 'invitation') };
}

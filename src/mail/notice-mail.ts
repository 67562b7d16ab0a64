// The mail of a notice (docs/notices.md, "Mail"): its subject and text, in English and German (an
// account keeps no language, so each mail says it in both), and how it goes out: through SMTP in
// production, printed on the terminal in dev mode, nowhere without SMTP (the notice stays under the
// bell). One send is one attempt: the notice job retries a failed one (src/teams/notices-delivery.ts).
import type { SmtpConfig } from '../config/index.js';
import type { NoticeMail, NoticeMailer, PendingItem } from '../teams/index.js';
import { smtpTransport } from './reset-delivery.js';

interface Texts {
  subject: string;
  lines: string[];
}

type Language = 'en' | 'de';

const str = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

function hours(minutes: unknown): string {
  const total = typeof minutes === 'number' ? minutes : 0;
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

function itemLine(item: PendingItem): string {
  return `- ${[item.person, item.summary ?? `${item.kind} ${item.id}`].filter(Boolean).join(': ')}`;
}

/** A lead's decision of a leave request or of its cancellation (docs/teams.md, "Leave requests"). */
function requestDecided(data: Record<string, unknown>, language: Language, link: string): Texts {
  const dates = data.from === data.to ? str(data.from) : `${str(data.from)} – ${str(data.to)}`;
  const approved = data.approved === true;
  const cancellation = data.cancellation === true;
  const note = typeof data.note === 'string' && data.note !== '' ? data.note : undefined;
  if (language === 'de') {
    const what = cancellation ? `Die Stornierung Ihres Urlaubs ${dates}` : `Ihr Urlaub ${dates}`;
    return {
      subject: `timetrack: ${what} ${approved ? 'genehmigt' : 'nicht genehmigt'}`,
      lines: [`${what} wurde ${approved ? 'genehmigt' : 'nicht genehmigt'}.`, ...(note ? [`Hinweis: ${note}`] : []), link],
    };
  }
  const what = cancellation ? `The cancellation of your vacation ${dates}` : `Your vacation ${dates}`;
  return {
    subject: `timetrack: ${what} ${approved ? 'approved' : 'not approved'}`,
    lines: [`${what} was ${approved ? 'approved' : 'not approved'}.`, ...(note ? [`Note: ${note}`] : []), link],
  };
}

/** What each kind of notice says; a kind without texts here says that there is a notice under the bell. */
function textsOf(mail: NoticeMail, language: Language, publicUrl: string): Texts {
  const { data } = mail;
  const link = `${publicUrl}/`;
  if (mail.kind === 'missing-day') {
    const date = str(data.date);
    return language === 'de'
      ? {
          subject: `timetrack: nichts erfasst am ${date}`,
          lines: [
            `Für ${date} (Soll ${hours(data.target_minutes)}) ist weder Arbeitszeit noch eine Abwesenheit erfasst.`,
            `Bitte tragen Sie den Tag nach: ${link}`,
          ],
        }
      : {
          subject: `timetrack: nothing recorded on ${date}`,
          lines: [`${date} had a target of ${hours(data.target_minutes)} and has neither working time nor an absence.`, `Please fill in the day: ${link}`],
        };
  }
  if (mail.kind === 'lead-digest') {
    const items = Array.isArray(data.items) ? (data.items as PendingItem[]) : [];
    return language === 'de'
      ? { subject: `timetrack: ${items.length} offen für Sie`, lines: ['Das wartet auf Ihre Entscheidung:', ...items.map(itemLine), link] }
      : { subject: `timetrack: ${items.length} waiting for you`, lines: ['These wait for your decision:', ...items.map(itemLine), link] };
  }
  if (mail.kind === 'request-decided') return requestDecided(data, language, link);
  if (mail.kind === 'month-returned') {
    const month = str(data.month);
    return language === 'de'
      ? { subject: `timetrack: Monat ${month} zurückgegeben`, lines: [`Ihr Monat ${month} wurde an Sie zurückgegeben: ${str(data.comment)}`, link] }
      : { subject: `timetrack: month ${month} returned`, lines: [`Your month ${month} was returned to you: ${str(data.comment)}`, link] };
  }
  return language === 'de'
    ? { subject: 'timetrack: eine neue Mitteilung', lines: [`Eine neue Mitteilung (${mail.kind}) wartet in timetrack auf Sie: ${link}`] }
    : { subject: 'timetrack: a new notice', lines: [`A new notice (${mail.kind}) waits for you in timetrack: ${link}`] };
}

/** The subject (English / German) and the text (English, then German) of a notice's mail. */
export function noticeMail(mail: NoticeMail, publicUrl: string): { subject: string; text: string } {
  const en = textsOf(mail, 'en', publicUrl);
  const de = textsOf(mail, 'de', publicUrl);
  const text = [`Hello ${mail.to.fullName},`, '', ...en.lines, '', '---', '', `Hallo ${mail.to.fullName},`, '', ...de.lines].join('\n');
  return { subject: `${en.subject} / ${de.subject.replace(/^timetrack: /, '')}`, text };
}

export interface NoticeMailerOptions {
  dev: boolean;
  smtp: SmtpConfig | undefined;
  publicUrl: string;
  /** Where dev mode prints the mails (default stdout). */
  terminal?: NodeJS.WritableStream | undefined;
}

export function createNoticeMailSender({ dev, smtp, publicUrl, terminal }: NoticeMailerOptions): NoticeMailer {
  if (dev) {
    const out = terminal ?? process.stdout;
    return {
      mode: 'terminal',
      send(mail) {
        const { subject, text } = noticeMail(mail, publicUrl);
        out.write(`\n[dev] notice for ${mail.to.email}: ${subject}\n${text.replace(/^/gm, '[dev]   ')}\n\n`);
        return Promise.resolve();
      },
    };
  }
  if (!smtp) return { mode: 'none' };
  let transport: ReturnType<typeof smtpTransport> | undefined;
  return {
    mode: 'mail',
    async send(mail) {
      transport ??= smtpTransport(smtp);
      await (await transport).sendMail({ from: smtp.from, to: mail.to.email, ...noticeMail(mail, publicUrl) });
    },
  };
}

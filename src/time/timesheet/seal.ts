// The seal of an approved month as the timesheet prints it (docs/teams.md, "The seal"), and the
// identity a PDF carries in its metadata so that `timetrack report verify` can find the month again.
// Plain data: the team layer, which approves months, hands it in; time/ does not import teams/.
import { DateTime } from 'luxon';
import type { SheetLanguage } from './format.js';

/** Who submitted or approved: an account, or null for the operator at the shell. */
export interface SealPerson {
  id: number;
  name: string;
  email: string;
}

/** An approved month's seal: who submitted and approved it, when, and the digest of its figures. */
export interface SheetSeal {
  digest: string;
  submitted_at: string | null;
  submitted_by: SealPerson | null;
  approved_at: string;
  approved_by: SealPerson | null;
}

/** The key of the PDF's document information that holds the sheet's identity (JSON, ASCII only). */
export const IDENTITY_KEY = 'TimetrackSheet';

/** What a PDF says about itself: whose month, which month, in which language, and the digest it was drawn with (null: not sealed). */
export interface SheetIdentity {
  version: 1;
  account_id: number;
  email: string;
  month: string;
  lang: SheetLanguage;
  digest: string | null;
}

/** JSON with every character beyond ASCII escaped, so that the PDF stores it as a plain byte string. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const SEAL_WORDS = {
  en: {
    submitted: (who: string, when: string) => `Submitted by ${who} on ${when}`,
    approved: (who: string, when: string) => `Approved by ${who} on ${when}`,
    operator: 'the operator at the shell',
    digest: 'Seal (SHA-256 of the month’s figures):',
  },
  de: {
    submitted: (who: string, when: string) => `Eingereicht von ${who} am ${when}`,
    approved: (who: string, when: string) => `Genehmigt von ${who} am ${when}`,
    operator: 'dem Betrieb an der Kommandozeile',
    digest: 'Siegel (SHA-256 der Zahlen des Monats):',
  },
} as const;

/** An instant of the seal in the sheet's zone, with its offset: de 03.03.2026 10:15 (+01:00), en 03 Mar 2026 10:15 (+01:00). */
function sealStamp(instant: string, zone: string, language: SheetLanguage): string {
  const local = DateTime.fromISO(instant, { zone });
  const date = language === 'de' ? local.toFormat('dd.MM.yyyy') : local.setLocale('en-GB').toFormat('dd LLL yyyy');
  return `${date} ${local.toFormat('HH:mm')} (UTC${local.toFormat('ZZ')})`;
}

/** The seal's lines under the sheet's figures: submitted, approved, and the digest's label (the digest is a line of its own). */
export function sealLines(seal: SheetSeal, zone: string, language: SheetLanguage): { submitted: string; approved: string; label: string } {
  const words = SEAL_WORDS[language];
  const who = (person: SealPerson | null) => (person ? `${person.name} <${person.email}>` : words.operator);
  return {
    submitted: seal.submitted_at === null ? '' : words.submitted(who(seal.submitted_by), sealStamp(seal.submitted_at, zone, language)),
    approved: words.approved(who(seal.approved_by), sealStamp(seal.approved_at, zone, language)),
    label: words.digest,
  };
}

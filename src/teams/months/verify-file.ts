// `timetrack report verify <file.pdf|file.json>` (docs/teams.md, "The seal"; docs/cli.md): a saved
// month, a PDF of /api/stats/month.pdf or `report month`, or the JSON of /api/stats/month, checked
// against the database. The file names whose month it is, which month and the digest it claims (the
// PDF in its document information, the JSON in its `seal` block); the month is worked out again and
// the file's figures compared with it: a PDF by the texts its page shows against the sheet drawn
// again in the same language, a JSON by its fields (and, in English, against its own digest).
import type { MonthState } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import { timesheetPdf, type DrawnText, type MonthSheet, type SheetLanguage, type SheetSeal } from '../../time/timesheet/timesheet.js';
import { compareSheetTexts, readSheetPdf } from '../../time/timesheet/pdf-text.js';
import { OPERATOR } from '../access.js';
import { canonicalJson, digestOf, sealedPart } from './seal.js';
import { parseMonth, type MonthStatus } from './store.js';
import type { MonthService } from './service.js';

export interface VerifyFileDeps {
  users: { userById(id: number): Promise<{ id: number; email: string; full_name: string } | undefined> };
  months: Pick<MonthService, 'status' | 'verify' | 'sealOf'>;
  timesheet: { monthSheet(userId: number, month?: string, language?: SheetLanguage): Promise<MonthSheet> };
}

/** What verify found: `matches` only when nothing is in `problems` or `differences`. */
export interface FileVerdict {
  matches: boolean;
  format: 'pdf' | 'json';
  account: { id: number; email: string };
  month: string;
  state: MonthState;
  /** The digest the file claims (null: drawn or saved before the month was approved). */
  digest: string | null;
  /** The digest stored for the month now (null: it has no seal). */
  stored_digest: string | null;
  /** Sentences about the month and its seal: never approved, reopened since, approved again, the database changed. */
  problems: string[];
  /** Each figure of the file that differs from the database's: where, what the file says, what the database says. */
  differences: Array<{ where: string; file: string | null; database: string | null }>;
}

/** The year's vacation is printed on the sheet but not sealed (later months change it): not compared. */
const UNSEALED_ROWS: ReadonlySet<string> = new Set(['vacation']);

interface Claim {
  format: 'pdf' | 'json';
  account_id: number;
  month: string;
  lang: SheetLanguage;
  digest: string | null;
  /** The JSON's figures as sealed (without `vacation` and `seal`). */
  figures?: Record<string, unknown>;
}

const unreadable = (why: string) => new ServiceError('VALIDATION_ERROR', `this file is not a month saved by timetrack: ${why}`);

function claimOf(bytes: Buffer): Claim {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
    const identity = readSheetPdf(bytes).identity as Partial<Claim & { version: number }> | null;
    if (!identity || identity.version !== 1 || typeof identity.account_id !== 'number' || typeof identity.month !== 'string')
      throw unreadable('the PDF does not say whose month it is (a timesheet drawn before verify existed, or by another program)');
    return {
      format: 'pdf',
      account_id: identity.account_id,
      month: parseMonth(identity.month),
      lang: identity.lang === 'de' ? 'de' : 'en',
      digest: identity.digest ?? null,
    };
  }
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw unreadable('neither a PDF nor JSON');
  }
  const seal = answer.seal as { account_id?: unknown; digest?: unknown; lang?: unknown } | undefined;
  if (typeof answer.month !== 'string') throw unreadable('the JSON has no month (save the answer of /api/stats/month)');
  if (!seal || typeof seal.account_id !== 'number')
    throw unreadable(`the JSON of ${answer.month} has no seal block: its month was not approved when it was saved`);
  const lang = seal.lang === 'de' ? 'de' : 'en';
  return {
    format: 'json',
    account_id: seal.account_id,
    month: parseMonth(answer.month),
    lang,
    digest: typeof seal.digest === 'string' ? seal.digest : null,
    figures: sealedPart(answer),
  };
}

/** The month's state against the file's claim: never approved, reopened, approved again, drawn before the approval. */
function stateProblems(claim: Claim, email: string, status: MonthStatus, seal: SheetSeal | null): string[] {
  const name = `the month ${claim.month} of ${email}`;
  if (!seal) {
    if (status.state === 'open' && status.decided_at !== null)
      return [`${name} was reopened since (${status.decided_at}${status.comment ? `: ${status.comment}` : ''}): it has no seal now`];
    const how = status.state === 'locked' ? 'it is locked without an approval' : `it is ${status.state}`;
    return [`${name} was never approved (${how}): it has no seal`];
  }
  if (claim.digest === null) return [`the file was made before ${name} was approved: it carries no seal (stored: ${seal.digest})`];
  if (claim.digest !== seal.digest) return [`${name} was approved again since: the digest stored for it is ${seal.digest}, the file's ${claim.digest}`];
  return [];
}

const shown = (value: unknown) => (value === undefined ? null : canonicalJson(value));

/** The JSON's figures against the database's, by field: `totals.worked_minutes`, `days/2026-02-10.worked_minutes`. */
function figureDifferences(path: string, file: unknown, database: unknown, out: FileVerdict['differences']): void {
  if (canonicalJson(file ?? null) === canonicalJson(database ?? null)) return;
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (path === 'days' && Array.isArray(file) && Array.isArray(database)) {
    const byDate = (days: unknown[]) => new Map(days.map((day) => [String((day as { date?: unknown }).date), day]));
    const [before, after] = [byDate(file), byDate(database)];
    for (const date of [...new Set([...before.keys(), ...after.keys()])].sort()) figureDifferences(`days/${date}`, before.get(date), after.get(date), out);
  } else if (isObject(file) && isObject(database)) {
    for (const key of [...new Set([...Object.keys(file), ...Object.keys(database)])].sort()) {
      figureDifferences(path === '' ? key : `${path}.${key}`, file[key], database[key], out);
    }
  } else {
    out.push({ where: path, file: shown(file), database: shown(database) });
  }
}

async function pdfDifferences(
  deps: VerifyFileDeps,
  bytes: Buffer,
  claim: Claim,
  user: { id: number; email: string; full_name: string },
  seal: SheetSeal | null,
) {
  const sheet = await deps.timesheet.monthSheet(user.id, claim.month, claim.lang);
  const trace: DrawnText[] = [];
  const drawn = await timesheetPdf(sheet, { id: user.id, name: user.full_name, email: user.email }, claim.lang, seal, trace);
  return compareSheetTexts(readSheetPdf(bytes).texts, readSheetPdf(drawn).texts, trace, UNSEALED_ROWS);
}

/** Checks a saved month (the bytes of a PDF or a JSON file) against the database. */
export async function verifyFile(deps: VerifyFileDeps, bytes: Buffer): Promise<FileVerdict> {
  const claim = claimOf(bytes);
  const user = await deps.users.userById(claim.account_id);
  if (!user) throw new ServiceError('USER_NOT_FOUND', `the file is of account ${claim.account_id}, which no longer exists`);
  const status = await deps.months.status(user.id, claim.month);
  const seal = await deps.months.sealOf(user.id, claim.month);
  const problems = stateProblems(claim, user.email, status, seal);
  if (seal) {
    const check = await deps.months.verify(OPERATOR, user.id, claim.month);
    if (!check.matches) problems.push(`the database no longer adds up to the stored seal (now ${check.digest}): ${(check.differences ?? []).join(', ')}`);
  }
  const differences: FileVerdict['differences'] = [];
  if (claim.format === 'pdf') differences.push(...(await pdfDifferences(deps, bytes, claim, user, seal)));
  else {
    if (claim.lang === 'en' && claim.digest !== null && digestOf(canonicalJson(claim.figures)) !== claim.digest)
      problems.push(`the file's figures do not add up to the digest it carries (${claim.digest})`);
    figureDifferences('', claim.figures, sealedPart(await deps.timesheet.monthSheet(user.id, claim.month, claim.lang)), differences);
  }
  return {
    matches: problems.length === 0 && differences.length === 0,
    format: claim.format,
    account: { id: user.id, email: user.email },
    month: claim.month,
    state: status.state,
    digest: claim.digest,
    stored_digest: seal?.digest ?? null,
    problems,
    differences,
  };
}

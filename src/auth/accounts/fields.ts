// Normalisation and checks of the fields of an account, shared by registration and the admin CLI.
// Invisible and look-alike characters are refused or folded, so that two accounts cannot look the
// same (`ann@example.com` and the same with a zero-width space) and no name can reorder a table
// (bidi controls): docs/security.md, "Hostile input".
import { domainToASCII, domainToUnicode } from 'node:url';
import { validationError } from '../../common/errors.js';

export const EMAIL_MAX_LENGTH = 254;
export const FULL_NAME_MAX_LENGTH = 200;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
// One @, no white space or control characters, a dot-free local part allowed, a non-empty domain.
const EMAIL_PATTERN = /^[^\s@\p{C}]+@[^\s@\p{C}]+$/u;
/** Control, format (zero-width, bidi), surrogate, private-use and unassigned characters, line and paragraph separators. */
const INVISIBLE_CHARACTERS = /[\p{C}\p{Zl}\p{Zp}]/u;

/**
 * The one form of an e-mail address: NFKC (fullwidth and other compatibility forms folded), trimmed,
 * lower-cased, the domain in its IDNA ASCII form. Undefined when the domain is not a valid IDNA name.
 */
function canonicalEmail(raw: string): string | undefined {
  const email = raw.normalize('NFKC').trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at <= 0 || INVISIBLE_CHARACTERS.test(email)) return undefined;
  const domain = domainToASCII(email.slice(at + 1));
  if (domain === '') return undefined;
  return `${email.slice(0, at)}@${domain}`;
}

/**
 * Letters that render as blank space although Unicode calls them letters or symbols (so the checks
 * of invisible characters above let them through): the Hangul fillers, the blank Braille pattern and
 * the Khmer inherent vowels. A name made of them looks empty; an address with one looks like another.
 */
// eslint-disable-next-line no-misleading-character-class -- each of these is looked for alone, combining or not
const BLANK_CHARACTERS = /[\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0]/u;

/**
 * The scripts whose letters look alike across scripts, tested one by one (a letter of any other
 * script counts as its own). Digits, punctuation and marks belong to no script here.
 */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Thai',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`^\\p{Script=${script}}$`, 'u')] as const);
/** Scripts that are written together (Unicode's "highly restrictive" profile, UTS #39): Japanese, Chinese, Korean with Latin. */
const WRITTEN_TOGETHER: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The scripts of the letters of `text` (see SCRIPTS); letters shared by scripts (Common, Inherited: the Japanese ー) belong to none, as in UTS #39. */
function scriptsOf(text: string): Set<string> {
  const scripts = new Set<string>();
  for (const character of text) {
    if (!/\p{L}/u.test(character) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(character)) continue;
    scripts.add(SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(character))?.[0] ?? `U+${character.codePointAt(0)!.toString(16).toUpperCase()}`);
  }
  return scripts;
}

/** Whether the letters of `text` come from one script, or from scripts written together. */
function singleScript(scripts: Set<string>): boolean {
  return scripts.size <= 1 || WRITTEN_TOGETHER.some((together) => [...scripts].every((script) => together.has(script)));
}

/**
 * What makes an address a look-alike of another: letters of two scripts in its local part or in a
 * label of its domain (`аnn@example.com` with a Cyrillic а), a character that renders blank, an empty
 * domain label (`ann@example.com.` is the same mailbox as `ann@example.com` to a mail server, but
 * another account here). Undefined when none does.
 */
function lookAlikeProblem(raw: string): string | undefined {
  const address = raw.normalize('NFKC').trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const local = address.slice(0, at);
  // A domain given in its IDNA ASCII form (xn--…) is judged by what it shows.
  const domain = domainToUnicode(address.slice(at + 1)) || address.slice(at + 1);
  if (BLANK_CHARACTERS.test(address)) return 'email must not contain characters that render blank (such as U+3164 or U+2800)';
  if (domain.split('.').some((label) => label === '')) return 'email must not have an empty part in its domain (a leading, trailing or doubled dot)';
  for (const [part, text] of [['local part', local], ...domain.split('.').map((label) => ['domain', label])] as const) {
    const scripts = scriptsOf(text);
    if (!singleScript(scripts)) return `email must not mix scripts in its ${part} (${[...scripts].join(' and ')}): such addresses look like others`;
  }
  return undefined;
}

/**
 * The canonical e-mail address (see canonicalEmail); throws VALIDATION_ERROR naming the field when it
 * is not one, or (for a new address: registration, create, update, import) when it is a look-alike.
 */
export function normalizeEmail(raw: string, options: { refuseLookAlikes?: boolean } = {}): string {
  const email = canonicalEmail(raw);
  if (email === undefined || email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    throw validationError('email must be an e-mail address (with a valid domain, without invisible characters)', 'email');
  }
  const problem = options.refuseLookAlikes === false ? undefined : lookAlikeProblem(raw);
  if (problem !== undefined) throw validationError(problem, 'email');
  return email;
}

/**
 * The first word of a name whose letters come from two scripts not written together (UTS #39's
 * mixed-script check, word by word: `Аnna` with a Cyrillic А). Words are split at anything that is
 * not a letter or a mark (spaces, hyphens, apostrophes), so `Anna-Мария` (two words, two scripts) and
 * every name written wholly in one script pass.
 */
function mixedScriptWord(name: string): { word: string; scripts: string[] } | undefined {
  for (const word of name.split(/[^\p{L}\p{M}]+/u)) {
    const scripts = scriptsOf(word);
    if (!singleScript(scripts)) return { word, scripts: [...scripts] };
  }
  return undefined;
}

/** NFC only: compatibility folding would change what people write their names with. */
export function normalizeFullName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (name.length === 0 || name.length > FULL_NAME_MAX_LENGTH || INVISIBLE_CHARACTERS.test(name)) {
    throw validationError(`full_name must be 1 to ${FULL_NAME_MAX_LENGTH} characters without control or invisible characters`, 'full_name');
  }
  if (BLANK_CHARACTERS.test(name)) {
    throw validationError('full_name must not contain characters that render blank (such as U+3164, U+2800, U+115F, U+1160 or U+FFA0)', 'full_name');
  }
  const mixed = mixedScriptWord(name);
  if (mixed !== undefined) {
    throw validationError(
      `full_name must not mix scripts within one word ("${mixed.word}": ${mixed.scripts.join(' and ')}): such names look like others`,
      'full_name',
    );
  }
  return name;
}

export function normalizeUsername(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const username = raw.trim();
  if (!USERNAME_PATTERN.test(username)) {
    throw validationError('username must be 3 to 32 letters, digits, dots, dashes or underscores', 'username');
  }
  return username;
}

/**
 * The login field takes an e-mail address or a username. Usernames cannot contain "@", so the
 * presence of one decides which it is. Both compare without regard to case.
 */
export function normalizeLoginIdentifier(raw: string): { kind: 'email' | 'username'; value: string } {
  const value = raw.normalize('NFKC').trim().toLowerCase();
  if (!value.includes('@')) return { kind: 'username', value };
  return { kind: 'email', value: canonicalEmail(value) ?? value };
}

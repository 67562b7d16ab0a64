// Look-alike addresses and names are refused where accounts are made or changed (docs/security.md,
// "look-alike accounts and names"), against a real `serve` (registration) and the built binary
// (`user create`, `user update`): letters of two scripts in the local part or a domain label (a
// Cyrillic а among Latin letters), an empty domain label (a trailing dot), characters that render
// blank (Hangul fillers, the blank Braille pattern); each with a field error naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainToASCII } from 'node:url';
import { PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { expectError } from '../support/expectations.js';
import { request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

let db: string;
let server: RunningServer;
beforeAll(async () => {
  db = tempDb();
  await createAccountWithCli(db, 'ann@example.com');
  server = await startServer(db, { LOG_LEVEL: 'warn' });
});
afterAll(async () => {
  await server?.stop();
});

const registration = (email: string, full_name = 'New Person') =>
  request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name } });

describe('e-mail addresses at registration', () => {
  it.each([
    ['a Cyrillic а among Latin letters in the local part', '\u0430nn@example.com', /mix scripts in its local part \(Cyrillic and Latin\)/],
    ['a Greek ο among Latin letters', 'b\u03BFb@example.com', /mix scripts in its local part/],
    ['a Cyrillic а in a domain label', 'ann@ex\u0430mple.com', /mix scripts in its domain/],
    ['the same domain in its IDNA ASCII form', `ann@${domainToASCII('ex\u0430mple.com')}`, /mix scripts in its domain/],
    ['a trailing dot in the domain', 'ann@example.com.', /empty part in its domain/],
    ['a doubled dot in the domain', 'ann@example..com', /email must/],
    ['a Hangul filler in the local part', 'ann\u3164@example.com', /render blank/],
  ])('refuses %s, naming the field', async (_name, email, message) => {
    const body = expectError(await registration(email), 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual([{ field: 'email', message: expect.stringMatching(message) }]);
  });

  it.each([
    ['one script other than Latin', '\u0451\u043B\u043A\u0430@example.com'],
    ['Japanese with Latin letters', '\u5C71\u7530taro@example.jp'],
    ['an IDNA domain in one script', 'bob@ex\u00E4mple.com'],
  ])('accepts %s', async (_name, email) => {
    expect((await registration(email)).statusCode).toBe(201);
  });
});

describe('names at registration', () => {
  it.each([
    ['U+3164 HANGUL FILLER', '\u3164'],
    ['U+2800 BRAILLE PATTERN BLANK', '\u2800\u2800'],
    ['U+115F and U+1160, the Hangul choseong and jungseong fillers', '\u115F\u1160'],
    ['U+FFA0 HALFWIDTH HANGUL FILLER after a name', 'Ann\uFFA0'],
  ])('refuses %s, naming the field', async (_name, fullName) => {
    const body = expectError(await registration('blank@example.com', fullName), 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual([{ field: 'full_name', message: expect.stringMatching(/render blank/) }]);
  });
});

describe('names that mix scripts within one word', () => {
  it.each([
    ['a Cyrillic А starting a Latin name', '\u0410nna Schmidt', /"\u0410nna": Cyrillic and Latin/],
    ['a Greek ο inside a Latin surname', 'Anna Sch\u03BFlz', /Greek and Latin|Latin and Greek/],
    ['a Latin o inside a Cyrillic name', '\u0418\u0432o\u043D Petrov', /Cyrillic and Latin/],
  ])('refuses %s, naming the field and the word', async (_name, fullName, message) => {
    const body = expectError(await registration('mixed@example.com', fullName), 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual([{ field: 'full_name', message: expect.stringMatching(/full_name must not mix scripts within one word/) }]);
    expect(body.details[0].message).toMatch(message);
  });

  it.each([
    ['German', 'Jürgen Müller-Lüdenscheidt', 'de'],
    ['Turkish', 'Işıl Çağrı Öztürk-İnce', 'tr'],
    ['Polish', 'Zażółć Gęślą-Jaźń', 'pl'],
    ['Greek', 'Γιώργος Παπαδόπουλος', 'el'],
    ['Russian', 'Ёлка Мария-Ивановна Соловьёва', 'ru'],
    ['Chinese', '王小明', 'zh'],
    ['Japanese (kanji, hiragana, katakana, ー)', '山田 はなこ ルーシー', 'ja'],
    ['Arabic', 'محمد عبد الله', 'ar'],
    ['Hindi', 'अमित कुमार शर्मा', 'hi'],
    ['an apostrophe and a hyphen', "Seán O'Brien-D\u2019Arcy", 'ie'],
    ['two scripts in two words', 'Anna Мария', 'mix'],
    ['two scripts joined by a hyphen', 'Anna-Мария', 'hyphen'],
  ])('accepts a name in %s', async (_name, fullName, tag) => {
    const response = await registration(`name-${tag}@example.com`, fullName);
    expect(response.statusCode).toBe(201);
    expect(response.json().user.full_name).toBe(fullName.normalize('NFC'));
  });
});

describe('the admin commands', () => {
  it('user create refuses a look-alike address with one line naming it', async () => {
    const result = await cli(db, ['user', 'create', '--email', '\u0430nn@example.com', '--name', 'Mallory', '--password-stdin'], { input: `${PASSWORD}\n` });
    expectFailure(result, 1, /email must not mix scripts in its local part/);
  });

  it('user update refuses a trailing dot and a blank name, and changes nothing', async () => {
    expectFailure(await cli(db, ['user', 'update', 'ann@example.com', '--email', 'ann@example.com.']), 1, /email must not have an empty part in its domain/);
    expectFailure(
      await cliInProcess(db, ['user', 'update', 'ann@example.com', '--name', '\u3164']),
      1,
      /full_name must not contain characters that render blank/,
    );
    expectFailure(await cliInProcess(db, ['user', 'update', 'ann@example.com', '--name', 'P\u0430ul']), 1, /full_name must not mix scripts within one word/);
    const shown = await cliInProcess(db, ['--json', 'user', 'show', 'ann@example.com']);
    expect(JSON.parse(String(shown.stdout)).user).toMatchObject({ email: 'ann@example.com', full_name: 'Test Person' });
  });
});

// The month PDF as a load (docs/security.md, "one user's data as a load"), through a real
// `timetrack serve` and HTTP: sheets are drawn one at a time per process with a short queue (a burst
// is refused at once with 503 BUSY and Retry-After, and another account's requests are answered
// meanwhile), PDFs have a smaller budget per account than the other statistics (429), and a long
// name wraps in the header instead of running into the table's header row.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';
import { pdfWords } from '../support/timesheet.js';

const PASSWORD = 'correct horse battery staple';
let server: RunningServer;
let counter = 0;

beforeAll(async () => {
  // Statistics budget on (the PDF budget is at most it): RATE_LIMIT_STATS=120 a minute.
  server = await startServer(path.join(makeTempDir('timetrack-pdf-load-'), 'timetrack.db'), { RATE_LIMIT_STATS: '120' });
});
afterAll(async () => {
  await server?.stop();
});

async function tokenOf(fullName: string): Promise<string> {
  counter += 1;
  const email = `pdfload${process.pid}-${counter}@example.com`;
  const registered = await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: fullName } });
  expect(registered.statusCode, registered.body).toBe(201);
  return (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
}

const pdf = (token: string) => fetch(`${server.baseUrl}/api/stats/month.pdf?month=2026-01`, { headers: { authorization: `Bearer ${token}` } });

describe('the month PDF under a burst', () => {
  it('draws one sheet at a time with a short queue: a burst of 12 gets 503 BUSY with Retry-After past it, and another account is answered meanwhile', async () => {
    // Three accounts, four sheets each: within each one's budget of 6 a minute.
    const bursters = [await tokenOf('Burst Person'), await tokenOf('Burst Person'), await tokenOf('Burst Person')];
    const other = await tokenOf('Other Person');
    const order: string[] = [];
    const sheets = Array.from({ length: 12 }, (_, index) =>
      pdf(bursters[index % 3]!).then(async (response) => {
        order.push(`pdf${index}`);
        return { status: response.status, retryAfter: response.headers.get('retry-after'), body: Buffer.from(await response.arrayBuffer()) };
      }),
    );
    const health = fetch(`${server.baseUrl}/api/stats/today`, { headers: { authorization: `Bearer ${other}` } }).then((response) => {
      order.push('other');
      return response.status;
    });
    const answers = await Promise.all(sheets);
    console.log(
      order,
      answers.map((a) => a.status),
    );
    expect(await health).toBe(200);
    const drawn = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(drawn.length + refused.length).toBe(12);
    // One drawn and PDF_QUEUE_LENGTH (4) waiting at most when the burst arrives.
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.retryAfter).not.toBeNull();
      expect(JSON.parse(answer.body.toString()).code).toBe('BUSY');
    }
    for (const answer of drawn) expect(answer.body.subarray(0, 5).toString()).toBe('%PDF-');
    // The other account's request did not wait for the whole burst.
    expect(order.indexOf('other')).toBeLessThan(order.length - 1);
  });

  it('allows 6 PDFs a minute per account, then 429 RATE_LIMITED with Retry-After; another account still gets its sheet', async () => {
    const token = await tokenOf('Budget Person');
    for (let index = 0; index < 6; index += 1) expect((await pdf(token)).status).toBe(200);
    const refused = await pdf(token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');
    expect((await pdf(await tokenOf('Unhurried Person'))).status).toBe(200);
  });
});

describe('a long name in the PDF header', () => {
  it('wraps a 200-character name above the table: no word of it reaches the header row, and all of it is there', async () => {
    const words = ['Wolfgang', 'Amadeus', 'Theophilus', 'Gottlieb', 'Maximilian', 'Bartholomäus', 'Friedrich'];
    let name = '';
    for (let index = 0; name.length < 190; index += 1) name += `${words[index % words.length]} `;
    name = `${name}Zyxwend`.slice(0, 200).trimEnd();
    expect(name.length).toBeGreaterThan(190);
    const response = await pdf(await tokenOf(name));
    expect(response.status).toBe(200);
    const placed = pdfWords(Buffer.from(await response.arrayBuffer()));
    const headerRow = placed.find((word) => word.text === 'Date')!;
    expect(headerRow).toBeDefined();
    const above = placed.filter((word) => word.top < headerRow.top);
    // Every word of the name, the e-mail and the zone is above the row and does not reach into it.
    for (const word of above) expect(word.bottom, word.text).toBeLessThanOrEqual(headerRow.top);
    expect(above.some((word) => word.text === 'Zyxwend')).toBe(true);
    expect(above.some((word) => word.text.includes('@example.com'))).toBe(true);
    expect(above.some((word) => word.text === 'UTC')).toBe(true);
  });
});

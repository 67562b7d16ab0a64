// The permission test (docs/testing.md, "The permission test"; docs/teams.md, "Who may do what"): every
// route of the OpenAPI document that one real `serve` answers has a row with its rule in
// permission-table.ts, and a route without a row (or a row without a route) fails here. Each row is
// tried by a member M of team A, its lead L, the lead O of team B, an admin X, the API token of each,
// and no credentials; where the route names a person or a team, M is the target (or team A), and M
// also tries the one out of its reach (N of team B, team B). Each answer's status is checked, and the
// error code of a 401, 403 or 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTORS, ROWS, RULES, type Attempt, type Row } from './permission-table.js';
import { makeWorld, signIn, type Account, type World } from './permission-world.js';

let world: World;
beforeAll(async () => {
  world = await makeWorld();
}, 120_000);
afterAll(async () => {
  await world?.server.stop();
});

/** The routes of the document as the table spells them: `METHOD /path/:param`, without a trailing slash. */
function routesOf(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1').replace(/(.)\/$/, '$1')}`),
  );
}

interface Expected {
  status: number;
  code?: string;
}

function expectedOf(row: Row, cell: string): Expected {
  if (cell === 'ok') return { status: row.answer ?? 200, code: row.answerCode };
  if (cell === 'tok') return { status: 403, code: 'FORBIDDEN_FOR_API_TOKEN' };
  if (cell === '403') return { status: 403, code: 'FORBIDDEN' };
  if (cell === '404') return { status: 404, code: row.notFound ?? 'NOT_FOUND' };
  if (cell === '401') return { status: 401, code: 'UNAUTHORIZED' };
  throw new Error(`${row.route}: no such cell ${cell} in rule ${row.rule}`);
}

interface Try {
  attempt: Attempt;
  credential: string | undefined;
  expected: Expected;
}

/** The tries of a row, from its rule's line: the actors in ACTORS order, '.' left out; M on each of the others. */
function triesOf(row: Row): Try[] {
  const cells = RULES[row.rule].trim().split(/\s+/);
  // A person's row: M reads neither O's member N nor its own lead L; a team's row: team B.
  const others = row.route.includes('/api/users/:id') ? (['N', 'L'] as const) : (['N'] as const);
  return ACTORS.flatMap((who, index): Try[] => {
    const cell = cells[index]!;
    if (cell === '.') return [];
    const account: Account | undefined = who === '-' ? undefined : world[who[0]!.toUpperCase() as 'M' | 'L' | 'O' | 'X'];
    const credential = account === undefined ? undefined : who[0] === who[0]!.toUpperCase() ? account.session : account.token;
    return (who.endsWith('>') ? others : [undefined]).map((other) => ({
      attempt: { who: other ? `${who}${other}` : who, account, other, succeeds: cell === 'ok' },
      credential,
      expected: expectedOf(row, cell),
    }));
  });
}

/** One try: its failure as a line, or undefined. */
async function tryOnce(row: Row, { attempt, credential, expected }: Try): Promise<string | undefined> {
  const [method, path] = row.route.split(' ') as [string, string];
  if (attempt.succeeds) await row.before?.(world, attempt);
  const ids = (await row.ids?.(world, attempt)) ?? {};
  const url = path.replace(/:(\w+)/g, (_, name: string) => String(ids[name])) + (row.query ?? '');
  const body = await row.body?.(world, attempt);
  const sent = attempt.succeeds && row.freshSession ? await signIn(world, attempt.account!.email, attempt.account!.password) : credential;
  const answer = await world.send(method, url, body, sent);
  const code = typeof answer.body === 'object' ? (answer.body as { code?: string }).code : undefined;
  if (answer.status !== expected.status || (expected.code !== undefined && code !== expected.code)) {
    const got = typeof answer.body === 'object' ? JSON.stringify(answer.body) : `${String(answer.body).length} characters`;
    return `${attempt.who}: expected ${expected.status} ${expected.code ?? ''}, got ${answer.status} ${got.slice(0, 300)}`;
  }
  if (attempt.succeeds && attempt.account && row.mine && !row.mine(answer.body, attempt.account)) return `${attempt.who}: not its own answer`;
  if (attempt.succeeds) await row.after?.(world, attempt, answer.body);
  return undefined;
}

/** The refused tries first (so a target that an allowed try changes is still there for them), then the allowed ones. */
async function tryRow(row: Row): Promise<string[]> {
  const tries = triesOf(row);
  const failures: Array<string | undefined> = [];
  for (const wave of [tries.filter((t) => !t.attempt.succeeds), tries.filter((t) => t.attempt.succeeds)]) {
    const atOnce = row.atOnce ?? wave.length;
    for (let first = 0; first < wave.length; first += atOnce) {
      failures.push(...(await Promise.all(wave.slice(first, first + atOnce).map((one) => tryOnce(row, one)))));
    }
  }
  return failures.filter((failure): failure is string => failure !== undefined);
}

describe('the permission of every route', () => {
  it('every route of the OpenAPI document has one row in the table, and every row a route', async () => {
    const document = await world.send('GET', '/api/openapi.json');
    expect(document.status).toBe(200);
    const routes = routesOf(document.body);
    const rows = ROWS.map((row) => row.route);
    expect(routes.length).toBeGreaterThan(80);
    expect(
      routes.filter((route) => !rows.includes(route)),
      'routes without a row',
    ).toEqual([]);
    expect(
      rows.filter((route) => !routes.includes(route)),
      'rows without a route',
    ).toEqual([]);
    expect(rows.filter((route, index) => rows.indexOf(route) !== index)).toEqual([]);
  });

  // One test a row, in the table's order (the rows that end sessions and accounts are last).
  for (const row of ROWS) {
    it(`${row.route}: ${row.rule}`, async () => {
      expect(await tryRow(row)).toEqual([]);
    });
  }
});

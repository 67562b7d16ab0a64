// The months figures (docs/performance.md), on the team of ./team.ts (100 members × 1 year): a lead
// approving a month of a person with a year of data (the seal works the month out, its balance from the
// year before), one at a time; `timetrack report verify` of an approved month's PDF (the binary: a
// process, the month worked out again, the sheet drawn again and both PDFs read); and a lead's bulk
// approval of 100 submitted months over 4 connections while a second account asks /me (the bystander
// pattern of ./bystander.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../../src/composition-root.js';
import { OPERATOR } from '../../src/teams/index.js';
import { sleep, wallTimeMs, type Server } from './processes.js';

export const MONTH_APPROVE = 'months: approving a month of a person with a year of data, p95 in ms (one at a time)';
export const MONTH_VERIFY = '`timetrack report verify` of an approved month’s PDF, slowest of 3 in ms (the process included)';
export const MONTH_BYSTANDER = "months: p95 in ms of a second account's /me while a lead approves 100 submitted months over 4 connections";
const ONE_AT_A_TIME = 30;
const APPROVERS = 4;
const BYSTANDER_PAUSE_MS = 20;

const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? NaN;
const monthsBack = (count: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - count, 1)).toISOString().slice(0, 7);
};

export interface MonthResult {
  approveP95: number;
  approvals: number;
  verifyMs: number[];
  meP95: number;
  idleMeP95: number;
  asked: number;
  bulkSeconds: number;
}

/** Every member of the team submits last month and the month before (as the operator would, through the month service). */
async function submitMonths(env: Record<string, string>, teamId: number): Promise<number[]> {
  const ctx = await createContext({ env: { ...env, LOG_LEVEL: 'warn' }, migrate: true, logDestination: process.stderr });
  try {
    const rows = await ctx.db
      .selectFrom('team_members')
      .select('user_id')
      .where('team_id', '=', teamId)
      .where('role', '=', 'member')
      .orderBy('user_id')
      .execute();
    for (const { user_id: id } of rows) for (const month of [monthsBack(2), monthsBack(1)]) await ctx.services.months.submit(OPERATOR, id, month);
    return rows.map((row) => row.user_id);
  } finally {
    await ctx.close();
  }
}

async function timed(url: string, token: string, method = 'GET'): Promise<{ ms: number; status: number; body: Buffer }> {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: method === 'POST' ? '{}' : undefined,
  });
  const body = Buffer.from(await response.arrayBuffer());
  return { ms: performance.now() - started, status: response.status, body };
}

/** Measures the three figures on the seeded team; `cli` is the binary's command line (node args) and its settings. */
export async function monthFigures(
  server: Server,
  env: Record<string, string>,
  cli: string[],
  teamId: number,
  leadToken: string,
  meToken: string,
): Promise<MonthResult> {
  const members = await submitMonths(env, teamId);
  const approve = async (id: number, month: string) => {
    const answer = await timed(`${server.url}/api/users/${id}/months/${month}/approve`, leadToken, 'POST');
    if (answer.status !== 200) throw new Error(`approve ${id} ${month}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
    return answer.ms;
  };
  const single: number[] = [];
  for (const id of members.slice(0, ONE_AT_A_TIME)) single.push(await approve(id, monthsBack(2)));

  const pdf = await timed(`${server.url}/api/users/${members[0]}/stats/month.pdf?month=${monthsBack(2)}`, leadToken);
  if (pdf.status !== 200) throw new Error(`month.pdf: ${pdf.status}`);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-bench-verify-')), 'month.pdf');
  fs.writeFileSync(file, pdf.body);
  // wallTimeMs fails unless the binary exits 0: the untouched PDF matches.
  const verifyMs = [0, 1, 2].map(() => wallTimeMs([...cli, 'report', 'verify', file], env));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });

  const idle: number[] = [];
  for (let i = 0; i < 50; i++) idle.push((await timed(`${server.url}/api/auth/me`, meToken)).ms);
  const queue = [...members];
  const started = performance.now();
  const approvers = Array.from({ length: APPROVERS }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) await approve(id, monthsBack(1));
  });
  let done = false;
  void Promise.all(approvers).then(() => (done = true));
  const me: number[] = [];
  while (!done) {
    const answer = await timed(`${server.url}/api/auth/me`, meToken);
    if (answer.status !== 200) throw new Error(`bystander /me: ${answer.status}`);
    me.push(answer.ms);
    await sleep(BYSTANDER_PAUSE_MS);
  }
  await Promise.all(approvers);
  return {
    approveP95: percentile(single, 0.95),
    approvals: single.length,
    verifyMs,
    meP95: percentile(me, 0.95),
    idleMeP95: percentile(idle, 0.95),
    asked: me.length,
    bulkSeconds: (performance.now() - started) / 1000,
  };
}

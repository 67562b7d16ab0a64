// Which months a write of entries asks the month lock about (docs/teams.md, "Closed months"): every
// month an entry touches in the account's zone, and no other, in one question per run of consecutive
// months, so that an import of thousands of entries asks a handful of times inside its write lock
// instead of once per entry. The lock here records the questions; the real one, and MONTH_LOCKED at
// every route and command, are test/teams/teams-months-lock.process.test.ts. Compared with a reference that
// walks each entry's months with Luxon, on generated entries.
import { DateTime } from 'luxon';
import type { Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.js';
import { assertSpansOpen, type MonthLock } from '../../src/time/month-lock.js';

const HOUR = 3_600_000;
const TRX = {} as Transaction<Database>;

/** The questions assertSpansOpen asks, each [from, through]. */
async function questions(zone: string, spans: Array<[number, number]>): Promise<Array<[string, string]>> {
  const asked: Array<[string, string]> = [];
  const lock: MonthLock = {
    assertOpen: async (_trx, _userId, from, through) => {
      asked.push([from, through]);
    },
  };
  await assertSpansOpen(lock, TRX, 1, zone, spans);
  return asked;
}

/** Reference: the months of each entry's first and last minute, and those between, in the zone. */
function touchedMonths(zone: string, spans: Array<[number, number]>): string[] {
  const months = new Set<string>();
  for (const [start, end] of spans) {
    let month = DateTime.fromMillis(start, { zone }).startOf('month');
    const last = DateTime.fromMillis(Math.max(start, end - 1), { zone }).startOf('month');
    while (month <= last) {
      months.add(month.toFormat('yyyy-MM'));
      month = month.plus({ months: 1 });
    }
  }
  return [...months].sort();
}

/** The months the questions cover, each question from the first to the last day of a month. */
function coveredMonths(asked: Array<[string, string]>): string[] {
  const months: string[] = [];
  for (const [from, through] of asked) {
    expect(from.endsWith('-01'), from).toBe(true);
    const last = DateTime.fromISO(through, { zone: 'UTC' });
    expect(last.plus({ days: 1 }).day, through).toBe(1);
    for (let month = DateTime.fromISO(from, { zone: 'UTC' }); month <= last; month = month.plus({ months: 1 })) months.push(month.toFormat('yyyy-MM'));
  }
  return months;
}

describe('the months a write of entries asks about', () => {
  it('asks once for 20,000 entries over eleven years (one run of months)', async () => {
    const first = Date.UTC(2012, 0, 1, 8);
    const spans = Array.from({ length: 20_000 }, (_, i): [number, number] => [first + i * 5 * HOUR, first + i * 5 * HOUR + 2 * HOUR]);
    expect(await questions('UTC', spans)).toEqual([['2012-01-01', '2023-05-31']]);
  });

  it('never asks about a month between two that no entry touches', async () => {
    const spans: Array<[number, number]> = [
      [Date.UTC(2026, 2, 10, 8), Date.UTC(2026, 2, 10, 9)],
      [Date.UTC(2026, 0, 5, 8), Date.UTC(2026, 0, 5, 9)],
    ];
    expect(await questions('UTC', spans)).toEqual([
      ['2026-01-01', '2026-01-31'],
      ['2026-03-01', '2026-03-31'],
    ]);
  });

  it("takes the months in the account's zone: across midnight both, ending at midnight only the first", async () => {
    // 23:30–00:30 UTC on 31 January is 00:30–01:30 on 1 February in Berlin.
    const acrossUtcMidnight: [number, number] = [Date.UTC(2026, 0, 31, 23, 30), Date.UTC(2026, 1, 1, 0, 30)];
    expect(await questions('UTC', [acrossUtcMidnight])).toEqual([['2026-01-01', '2026-02-28']]);
    expect(await questions('Europe/Berlin', [acrossUtcMidnight])).toEqual([['2026-02-01', '2026-02-28']]);
    // 22:00–24:00 on 28 February in UTC ends at midnight: February only.
    expect(await questions('UTC', [[Date.UTC(2026, 1, 28, 22), Date.UTC(2026, 2, 1)]])).toEqual([['2026-02-01', '2026-02-28']]);
  });

  it('covers exactly the months the entries touch, on generated entries in zones far apart', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (const zone of ['UTC', 'Pacific/Kiritimati', 'America/Adak', 'Australia/Lord_Howe', 'Asia/Kathmandu']) {
      for (let round = 0; round < 40; round++) {
        const spans = Array.from({ length: 1 + Math.floor(random() * 30) }, (): [number, number] => {
          const start = Date.UTC(2024, 0, 1) + Math.floor(random() * 3 * 365 * 24) * HOUR + Math.floor(random() * 60) * 60_000;
          // Mostly a working day; now and then a long one over weeks (up to the longest entry, 31 days).
          const length = random() < 0.9 ? Math.floor(random() * 12 * 60) * 60_000 : Math.floor(random() * 31 * 24) * HOUR;
          return [start, start + Math.max(length, 60_000)];
        });
        const asked = await questions(zone, spans);
        expect(coveredMonths(asked), `${zone}, round ${round}`).toEqual(touchedMonths(zone, spans));
        // One question per run: consecutive questions always leave a month out between them.
        for (let i = 1; i < asked.length; i++) {
          expect(
            DateTime.fromISO(asked[i - 1]![1])
              .plus({ days: 1 })
              .toISODate(),
          ).not.toBe(asked[i]![0]);
        }
      }
    }
  });
});

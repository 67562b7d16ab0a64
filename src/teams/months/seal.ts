// The seal of an approved month (docs/teams.md, "The seal"): the SHA-256 of the month's canonical
// JSON, which is the answer of GET /api/stats/month for the person and the month at the moment of
// approval, without its `vacation` block, with the keys of every object sorted, no whitespace,
// encoded as UTF-8; the digest in lower-case hex. Verifying works the figures out again and names
// what differs: top-level fields by name, day rows by their date.
import { createHash } from 'node:crypto';

/** JSON with the keys of every object sorted (by UTF-16 code units, as Array.prototype.sort does) and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** The month's answer as it is sealed: without `vacation` (which belongs to the year, not the month) and the `seal` block itself. */
export function sealedPart(sheet: object): Record<string, unknown> {
  const { vacation: _vacation, seal: _seal, ...rest } = sheet as Record<string, unknown>;
  return rest;
}

export function digestOf(canonical: string): string {
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** What differs between the sealed figures and the figures now: top-level fields, and `days/<date>` for a day row. */
export function differencesOf(sealed: Record<string, unknown>, now: Record<string, unknown>): string[] {
  const differences: string[] = [];
  for (const key of [...new Set([...Object.keys(sealed), ...Object.keys(now)])].sort()) {
    if (key === 'days' && Array.isArray(sealed.days) && Array.isArray(now.days)) {
      const rows = (days: unknown[]) => new Map(days.map((day) => [String((day as { date: unknown }).date), canonicalJson(day)]));
      const before = rows(sealed.days);
      const after = rows(now.days);
      for (const date of [...new Set([...before.keys(), ...after.keys()])].sort()) {
        if (before.get(date) !== after.get(date)) differences.push(`days/${date}`);
      }
    } else if (canonicalJson(sealed[key]) !== canonicalJson(now[key])) {
      differences.push(key);
    }
  }
  return differences;
}

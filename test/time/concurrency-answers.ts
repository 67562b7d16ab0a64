// Shared by the concurrency tests (concurrency.test.ts, concurrency.process.test.ts).

/** How many answers had each status (and error code), e.g. {"201": 1, "409 OVERLAP": 15}. */
export function countBy(answers: Array<[number, string | undefined]>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [status, code] of answers) {
    const key = code ? `${status} ${code}` : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

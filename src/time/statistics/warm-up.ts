// What `serve` does once at its start, so that the first statistics requests after it do not pay
// for cold work (docs/performance.md): date-holidays loaded (a quarter of a second) and the holiday
// years around today of the regions in use worked out, in the calendar's paced turns; with no region
// in use, nothing (no figure needs the calendar until an account chooses a region).
import { warmHolidays } from '../calendar/holidays.js';
import type { StatisticsDeps } from './types.js';

/** The most regions warmed: those in use, in code order; a region past it is worked out on first use. */
export const WARM_REGIONS_LIMIT = 200;

export async function warmUp({ db, clock }: Pick<StatisticsDeps, 'db' | 'clock'>): Promise<void> {
  const rows = await db
    .selectFrom('user_settings')
    .select('holiday_region')
    .distinct()
    .where('holiday_region', 'is not', null)
    .orderBy('holiday_region')
    .limit(WARM_REGIONS_LIMIT)
    .execute();
  const year = clock.now().getUTCFullYear();
  // The previous year for January's weeks and balances, the next for December's.
  await warmHolidays(
    rows.flatMap(({ holiday_region }) => (holiday_region ? [holiday_region] : [])),
    [year - 1, year, year + 1],
  );
}

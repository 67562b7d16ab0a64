// The zone a new account starts in (docs/api.md, POST /api/auth/register and POST
// /api/invitations/accept): the browser sends its own. Checked before the account is made (an unknown
// zone is a 400 naming the field, and nothing is created); once it exists, the account's days are
// counted there from its tracking start on, the registration date in that zone.
import type { Services } from '../composition-root.js';
import { normalizeTimezone } from '../time/calendar/dates.js';

/** The zone sent, checked and in its canonical spelling; undefined when none was sent. */
export function checkedStartingZone(timezone: string | undefined): string | undefined {
  return timezone === undefined ? undefined : normalizeTimezone(timezone);
}

/** The new account starts in `zone` (UTC, the default, needs nothing). */
export async function startInZone(settings: Services['settings'], userId: number, zone: string | undefined): Promise<void> {
  if (zone !== undefined && zone !== 'UTC') await settings.updateSettings(userId, { timezone: zone, timezone_valid_from: '1970-01-01' });
}

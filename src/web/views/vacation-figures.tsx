// Absences → the vacation figures of the year, with how the allowance was worked out (a whole year's
// days pro rata from the tracking start, carried over, taken before tracking started), and the one
// question asked before a vacation booking that would exceed what remains (docs/time-model.md).
import type { VacationStats } from '../../http/contract.js';
import { api } from '../api.js';
import { language, t } from '../i18n/index.js';
import { announcement, fmt, useLoad, zone } from '../state.js';
import { todayIn } from '../week.js';

/** Days as the page writes them: "1 day", "2.5 days" ("2,5 Tage" in German). */
export function dayCount(value: number | null): string {
  if (value === null) return '–';
  return t()
    .absences.days(value)
    .replace(/(\d)\.(\d)/, language.value === 'de' ? '$1,$2' : '$1.$2');
}

/** How the allowance of the year was worked out, in words; none when it is not tracked. */
function allowanceBasis(v: VacationStats): string[] {
  const text = t().vacation;
  if (v.full_year_days === null || v.allowance_days === null) return [];
  const lines: string[] = [];
  if (v.months_counted === 0) lines.push(text.beforeTracking);
  else if (v.months_counted < 12 && v.prorated_from !== null)
    lines.push(
      text.proRata(dayCount(v.full_year_days), v.months_counted, `${fmt.day(v.prorated_from)} ${v.prorated_from.slice(0, 4)}`, dayCount(v.allowance_days)),
    );
  else lines.push(text.fullYear(dayCount(v.full_year_days)));
  if (v.carried_over_days !== null && v.carried_over_days > 0) lines.push(text.carriedFrom(dayCount(v.carried_over_days), v.year - 1));
  if (v.taken_before_tracking_days > 0) lines.push(text.takenBefore(dayCount(v.taken_before_tracking_days)));
  return lines;
}

function Figure(props: { label: string; value: number | null; id?: string }) {
  return (
    <div id={props.id}>
      <dt>{props.label}</dt>
      <dd>{dayCount(props.value)}</dd>
    </div>
  );
}

export function VacationFigures() {
  const text = t().absences;
  const year = Number(todayIn(zone()).slice(0, 4));
  const figures = useLoad(() => api('GET /api/stats/vacation', { query: { year } }), [year, announcement.value]);
  if (!figures.data) return null;
  const v = figures.data;
  const basis = allowanceBasis(v);
  return (
    <>
      <h3>{text.vacationTitle(v.year)}</h3>
      <dl class="vacation">
        {v.allowance_days !== null && <Figure label={text.allowance} value={v.allowance_days} id="vacation-allowance" />}
        {v.carried_over_days !== null && <Figure label={text.carriedOver} value={v.carried_over_days} />}
        {v.taken_before_tracking_days > 0 && <Figure label={t().vacation.takenBeforeLabel} value={v.taken_before_tracking_days} />}
        <Figure label={text.taken} value={v.taken_days} />
        <Figure label={text.planned} value={v.planned_days} />
        {v.requested_days > 0 && <Figure label={text.requested} value={v.requested_days} id="vacation-requested" />}
        {v.remaining_days !== null && <Figure label={text.remaining} value={v.remaining_days} />}
      </dl>
      {basis.length > 0 && (
        <ul class="quiet vacation-basis" aria-label={t().vacation.basisLabel}>
          {basis.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {v.allowance_days === null && <p class="quiet">{text.notTracked}</p>}
    </>
  );
}

export interface VacationRequest {
  from: string;
  to: string;
  portion: 'full' | 'half';
}

/**
 * Before a vacation booking: the warning to show when it would leave less than nothing in a year it
 * touches (the server counts its days: targets, public holidays, days already taken), else undefined.
 */
export async function vacationWarning(request: VacationRequest): Promise<string | undefined> {
  const years = [...new Set([request.from.slice(0, 4), request.to.slice(0, 4)])].map(Number);
  for (const year of years) {
    const answer = await api('GET /api/stats/vacation', { query: { year, ...request } });
    if ('exceeds_allowance' in answer && answer.exceeds_allowance === true) {
      return t().vacation.exceeds(dayCount(answer.booking_days ?? 0), dayCount(answer.remaining_days), year);
    }
  }
  return undefined;
}

// Previous, this and next week, for Week, Entries and Absences.
import { t } from '../i18n/index.js';
import { fmt, shownWeek, zone } from '../state.js';
import { addDays, shiftWeek, todayIn, weekStartOf } from '../week.js';

export function WeekNav() {
  const text = t().week;
  const monday = shownWeek.value as string;
  return (
    <div class="week-nav">
      <button type="button" aria-label={text.previous} onClick={() => (shownWeek.value = shiftWeek(monday, -1))}>
        ‹
      </button>
      <span aria-live="polite" class="week-label">
        {fmt.day(monday)} – {fmt.day(addDays(monday, 6))}
      </span>
      <button type="button" aria-label={text.next} onClick={() => (shownWeek.value = shiftWeek(monday, 1))}>
        ›
      </button>
      <button type="button" onClick={() => (shownWeek.value = weekStartOf(todayIn(zone())))}>
        {text.thisWeek}
      </button>
    </div>
  );
}

// One person's Week or Month as its lead or an admin sees it (docs/web-client.md, "Team"): the day rows
// as the person sees them, read-only, through /api/users/:id/stats/*; on Month, with a step to the month
// before and after, also where the month stands and the decision it waits for (./person-month-state.tsx).
import { useState } from 'preact/hooks';
import type { MonthStats, WeekStats } from '../../http/contract.js';
import { api } from '../api.js';
import { language, t } from '../i18n/index.js';
import { fmt, useLoad } from '../state.js';
import { shiftMonth } from '../week.js';
import { Notice } from '../ui.js';
import { MonthTable } from './month.js';
import { WeekTable } from './week.js';
import { PersonMonthState } from './person-month-state.js';

export interface Person {
  id: number;
  name: string;
  /** The person's date now, in the person's zone (the overview's `today`). */
  today: string;
  view: 'week' | 'month';
}

/** The person's week of `monday`, or the month `monday` is in (or `month`, when given); `ask` opens the month's return form at once. */
export function PersonFigures(props: { person: Person; monday: string; month?: string; ask?: 'return'; onDecided?: () => void }) {
  const { person, monday } = props;
  const [month, setMonth] = useState(props.month ?? monday.slice(0, 7));
  const loaded = useLoad<WeekStats | MonthStats>(
    () =>
      person.view === 'week'
        ? api('GET /api/users/:id/stats/week', { params: { id: person.id }, query: { date: monday, lang: language.value } })
        : api('GET /api/users/:id/stats/month', { params: { id: person.id }, query: { month, lang: language.value } }),
    [person.id, person.view, monday, month],
  );
  // The person's own Week and Month tables, with the person's today.
  const { today } = person;
  const label = fmt.month(month);
  return (
    <div class="person-figures">
      <h3 id="person-title" tabIndex={-1}>
        {person.name}: {person.view === 'month' ? label : t().tabs.week}
      </h3>
      {person.view === 'month' && (
        <div class="week-nav">
          <button type="button" aria-label={t().month.previous} onClick={() => setMonth(shiftMonth(month, -1))}>
            ‹
          </button>
          <span aria-live="polite" class="week-label">
            {label}
          </span>
          <button type="button" aria-label={t().month.next} onClick={() => setMonth(shiftMonth(month, 1))}>
            ›
          </button>
        </div>
      )}
      {person.view === 'month' && (
        <PersonMonthState
          key={`${person.id}-${month}`}
          person={{ id: person.id, name: person.name, month, label }}
          ask={props.ask}
          onDecided={props.onDecided}
        />
      )}
      <Notice error={loaded.error} />
      {loaded.data &&
        ('week_start' in loaded.data ? (
          <div class="scroll" tabIndex={0} role="region" aria-labelledby="person-title">
            <WeekTable days={loaded.data.days} totals={loaded.data.totals} today={today} />
          </div>
        ) : (
          <MonthTable sheet={loaded.data} today={today} title={`${person.name}: ${label}`} />
        ))}
    </div>
  );
}

// Team › Calendar (docs/web-client.md, "Team"; docs/teams.md, "Team calendar"): a month of a team as a
// grid, members × days, from GET /api/teams/:id/calendar. Days without a target (a weekend under the
// member's schedule) and public holidays are shaded, absences marked by kind with a letter and a text
// for screen readers (a half day half filled, a requested one hatched); a member sees the others'
// absences as "away". The grid scrolls sideways inside its box with the names kept in view.
import { DateTime } from 'luxon';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { Answer } from '../routes.js';
import { language, locale, t } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { fmt, useLoad, zone } from '../state.js';
import { Notice } from '../ui.js';
import { shiftMonth, todayIn } from '../week.js';

type Calendar = Answer<'GET /api/teams/:id/calendar'>;
type Day = Calendar['members'][number]['days'][number];
type Absence = NonNullable<Day['absence']>;

/** What a cell says to a screen reader and in its tooltip: holiday, no target, the absence with its portion and state. */
function cellText(day: Day): string {
  const text = tl().calendar;
  const parts: string[] = [];
  if (day.holiday !== null) parts.push(day.holiday);
  else if (!day.target && day.absence === null) parts.push(text.noTarget);
  if (day.absence !== null) parts.push(absenceText(day.absence));
  return parts.join(', ');
}

function absenceText(absence: Absence): string {
  const text = tl().calendar;
  const words = [text.kinds[absence.type]];
  if (absence.portion === 'half') words.push(text.half);
  if ('state' in absence && absence.state === 'requested') words.push(text.requested);
  return words.join(', ');
}

function cellClass(day: Day): string {
  const classes = [day.holiday !== null ? 'public-holiday' : !day.target && day.absence === null ? 'off' : ''];
  if (day.absence !== null) {
    classes.push(`absent kind-${day.absence.type}`);
    if (day.absence.portion === 'half') classes.push('half');
    if ('state' in day.absence && day.absence.state === 'requested') classes.push('requested');
  }
  return classes.filter(Boolean).join(' ');
}

function CalendarCell(props: { day: Day }) {
  const { day } = props;
  const said = cellText(day);
  return (
    <td class={cellClass(day)} title={said || undefined}>
      {day.absence !== null && <span aria-hidden="true">{tl().calendar.letters[day.absence.type]}</span>}
      {said && <span class="visually-hidden">{said}</span>}
    </td>
  );
}

/** The grid: a row a member, a column a day; the day headers say the weekday, weekends marked. */
function CalendarGrid(props: { calendar: Calendar; title: string }) {
  const { calendar, title } = props;
  const text = tl().calendar;
  return (
    <div class="scroll calendar-scroll" tabIndex={0} role="region" aria-label={title}>
      <table class="calendar">
        <caption class="visually-hidden">{title}</caption>
        <thead>
          <tr>
            <th scope="col" class="name">
              {text.name}
            </th>
            {calendar.days.map((date) => {
              const day = DateTime.fromISO(date, { zone: 'UTC' }).setLocale(locale());
              return (
                <th key={date} scope="col" class={day.weekday >= 6 ? 'weekend' : undefined}>
                  <abbr title={day.toLocaleString(DateTime.DATE_HUGE)}>
                    {day.day}
                    <br />
                    {day.toFormat('ccccc')}
                  </abbr>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {calendar.members.map((member) => (
            <tr key={member.user.id}>
              <th scope="row" class="name">
                {member.user.full_name}
              </th>
              {member.days.map((day) => (
                <CalendarCell key={day.date} day={day} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Legend() {
  const text = tl().calendar;
  const kinds = ['vacation', 'sick', 'holiday', 'away'] as const;
  return (
    <div class="calendar-legend">
      <h3>{text.legend}</h3>
      <ul>
        {kinds.map((kind) => (
          <li key={kind}>
            <span class={`swatch absent kind-${kind}`} aria-hidden="true">
              {text.letters[kind]}
            </span>
            {text.kinds[kind]}
          </li>
        ))}
        <li>
          <span class="swatch absent kind-vacation half" aria-hidden="true" />
          {text.legendHalf}
        </li>
        <li>
          <span class="swatch absent kind-vacation requested" aria-hidden="true" />
          {text.legendRequested}
        </li>
        <li>
          <span class="swatch public-holiday" aria-hidden="true" />
          {text.legendHoliday}
        </li>
        <li>
          <span class="swatch off" aria-hidden="true" />
          {text.legendOff}
        </li>
      </ul>
    </div>
  );
}

/**
 * The calendar of one of `teams` (a choice when there are several), a month at a time. In a team not
 * among `led` (those whose overview the account reads) it sees the others' absences as away, which the
 * page says.
 */
export function TeamCalendar(props: { teams: Array<{ id: number; name: string }>; led: Array<{ id: number }> }) {
  const { teams, led } = props;
  const text = tl().calendar;
  const [chosen, setChosen] = useState<number>();
  const [month, setMonth] = useState(() => todayIn(zone()).slice(0, 7));
  const teamId = chosen ?? teams[0]?.id;
  const team = teams.find((item) => item.id === teamId);
  const asMember = !led.some((item) => item.id === teamId);
  const calendar = useLoad(
    () =>
      teamId === undefined
        ? Promise.resolve(undefined)
        : api('GET /api/teams/:id/calendar', { params: { id: teamId }, query: { month, lang: language.value } }),
    [teamId, month, language.value],
  );
  const monthName = fmt.month(month);
  return (
    <div class="team-calendar">
      {teams.length > 1 && (
        <label class="field">
          {tl().team.team}
          <select value={String(teamId)} onChange={(event) => setChosen(Number((event.target as HTMLSelectElement).value))}>
            {teams.map((item) => (
              <option key={item.id} value={String(item.id)}>
                {item.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div class="week-nav">
        <button type="button" aria-label={t().month.previous} onClick={() => setMonth(shiftMonth(month, -1))}>
          ‹
        </button>
        <span aria-live="polite" class="week-label">
          {monthName}
        </span>
        <button type="button" aria-label={t().month.next} onClick={() => setMonth(shiftMonth(month, 1))}>
          ›
        </button>
        <button type="button" onClick={() => setMonth(todayIn(zone()).slice(0, 7))}>
          {t().month.thisMonth}
        </button>
      </div>
      {asMember && <p class="hint">{text.memberHint}</p>}
      <Notice error={calendar.error} />
      {calendar.data && team && <CalendarGrid calendar={calendar.data} title={text.title(team.name, monthName)} />}
      <Legend />
    </div>
  );
}

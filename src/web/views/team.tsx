// Team (docs/web-client.md, "Team"; docs/teams.md): the lead's view of a team's week: pick a team (if
// several), a week, and a table of the members' figures from GET /api/teams/:id/overview; each member's
// Week and Month one click away (read-only, through /api/users/:id/stats/*), and the month's PDF. Beside
// it the team's Calendar (./team-calendar.tsx), which is all a member of a team sees here.
import { useEffect, useState } from 'preact/hooks';
import type { Answer } from '../routes.js';
import { api, currentRole, currentTeams, downloadFile } from '../api.js';
import { language, t } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { askedTeamPart, fmt, ledTeams, shownWeek, useLoad } from '../state.js';
import { Notice, useDownload } from '../ui.js';
import { addDays, shiftWeek } from '../week.js';
import { PersonFigures, type Person } from './person-figures.js';
import { Invitations } from './admin-invitations.js';
import { TeamCalendar } from './team-calendar.js';
import { Approvals, loadWaiting } from './approvals.js';

/** The teams the account leads (an admin: every team), from its role and teams as /api/auth/me answered them. */
export async function loadLedTeams(me: {
  role: 'admin' | 'lead' | 'member';
  teams: Array<{ id: number; name: string; role: 'lead' | 'member' }>;
}): Promise<void> {
  if (me.role === 'member') ledTeams.value = [];
  else if (me.role === 'admin') ledTeams.value = (await api('GET /api/teams')).teams;
  else ledTeams.value = me.teams.filter((team) => team.role === 'lead');
}

type Part = NonNullable<typeof askedTeamPart.value>;

type TeamOverviewAnswer = Answer<'GET /api/teams/:id/overview'>;

/** The Team section: the week overview, the calendar and Approvals (a lead, an admin); a member of a team only the calendar. */
export function TeamView() {
  const text = tl().calendar;
  const leads = ledTeams.value.length > 0;
  const decides = currentRole.value === 'admin' || currentRole.value === 'lead';
  const parts = [
    ...(leads ? (['week', 'calendar'] as const) : currentTeams.value.length ? (['calendar'] as const) : []),
    ...(decides ? (['approvals'] as const) : []),
  ];
  const [part, setPart] = useState<Part>('week');
  // A link to a part (the bell's digest to Approvals): taken once, also while the section is shown.
  const asked = askedTeamPart.value;
  useEffect(() => {
    if (asked === undefined) return;
    setPart(asked);
    askedTeamPart.value = undefined;
  }, [asked]);
  const shown = parts.includes(part as never) ? part : parts[0];
  // What waits (Approvals, and the count beside it), loaded again after each decision.
  const waiting = useLoad(() => (decides ? loadWaiting() : Promise.resolve(undefined)), [decides]);
  const count = waiting.data && waiting.data.requests.length + waiting.data.months.length;
  // The calendar's teams: an admin's every team (those of the overview), anyone else's its own.
  const calendarTeams = currentRole.value === 'admin' ? ledTeams.value : currentTeams.value;
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.team}
      </h2>
      {parts.length > 1 && (
        <p class="view-switch" role="group" aria-label={text.parts}>
          {parts.map((name) => (
            <button key={name} type="button" class="link" aria-pressed={shown === name} onClick={() => setPart(name)}>
              {name === 'approvals' ? tl().approvals.part(count) : text[name]}
            </button>
          ))}
        </p>
      )}
      {shown === 'week' ? (
        <TeamWeek />
      ) : shown === 'approvals' ? (
        <Approvals waiting={waiting} />
      ) : (
        shown && <TeamCalendar teams={calendarTeams} led={ledTeams.value} />
      )}
    </section>
  );
}

function TeamWeek() {
  const text = tl().team;
  const teams = ledTeams.value;
  const [chosen, setChosen] = useState<number>();
  const [monday, setMonday] = useState(shownWeek.value as string);
  const [person, setPerson] = useState<Person>();
  const teamId = chosen ?? teams[0]?.id;
  // A lead invites into the team shown, as member, and resends or withdraws its invitations; an admin also invites leads (docs/teams.md, "Invitations").
  const team = teams.find((item) => item.id === teamId);
  const overview = useLoad(
    () => (teamId === undefined ? Promise.resolve(undefined) : api('GET /api/teams/:id/overview', { params: { id: teamId }, query: { week: monday } })),
    [teamId, monday],
  );
  const pdf = useDownload();
  const month = monday.slice(0, 7);
  return (
    <div class="team-week">
      {teams.length > 1 && (
        <label class="field">
          {text.team}
          <select value={String(teamId)} onChange={(event) => setChosen(Number((event.target as HTMLSelectElement).value))}>
            {teams.map((team) => (
              <option key={team.id} value={String(team.id)}>
                {team.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div class="week-nav">
        <button type="button" aria-label={t().week.previous} onClick={() => setMonday(shiftWeek(monday, -1))}>
          ‹
        </button>
        <span aria-live="polite" class="week-label">
          {fmt.day(monday)} – {fmt.day(addDays(monday, 6))}
        </span>
        <button type="button" aria-label={t().week.next} onClick={() => setMonday(shiftWeek(monday, 1))}>
          ›
        </button>
      </div>
      <Notice error={overview.error ?? pdf.error} />
      {overview.data && <MembersTable members={overview.data.members} month={month} onPick={setPerson} onPdf={pdf.fetchAndSave} />}
      {person && <PersonFigures key={`${person.id}-${person.view}-${monday}`} person={person} monday={monday} />}
      {team && (
        <Invitations
          key={team.id}
          teamId={team.id}
          teams={[team]}
          roles={currentRole.value === 'admin' ? ['member', 'lead'] : ['member']}
          hint={currentRole.value === 'lead' ? tl().invitations.leadHint : undefined}
        />
      )}
    </div>
  );
}

type Members = TeamOverviewAnswer['members'];

/** The members' figures, one row a member; the table scrolls inside its box on a narrow screen. */
function MembersTable(props: {
  members: Members;
  month: string;
  onPick: (person: Person) => void;
  onPdf: (fetchFile: () => Promise<{ url: string; name: string }>) => Promise<void>;
}) {
  const text = tl().team;
  const { month, onPick, onPdf } = props;
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label={text.members}>
      <table class="team">
        <thead>
          <tr>
            {[text.name, text.week, text.weekBalance, text.balance, text.vacationLeft, text.runningSince, text.absentToday, text.missingDays, text.figures].map(
              (title) => (
                <th key={title} scope="col">
                  {title}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {props.members.map((member) => (
            <tr key={member.user.id}>
              <th scope="row">{member.user.full_name}</th>
              <td>
                {fmt.minutes(member.week.worked_minutes)} / {fmt.minutes(member.week.target_minutes)}
              </td>
              <td>{fmt.balance(member.week.balance_minutes)}</td>
              <td>{fmt.balance(member.balance_minutes)}</td>
              <td>{member.vacation.remaining_days ?? '–'}</td>
              <td>{member.running_since ? fmt.dated(member.running_since) : '–'}</td>
              <td>{member.absence_today ? t().week[member.absence_today] : '–'}</td>
              <td>{member.missing_days.length ? member.missing_days.map(fmt.day).join(', ') : '–'}</td>
              <td class="actions">
                <button
                  type="button"
                  class="link"
                  onClick={() => onPick({ id: member.user.id, name: member.user.full_name, today: member.today, view: 'week' })}
                >
                  {t().tabs.week}
                </button>{' '}
                <button
                  type="button"
                  class="link"
                  onClick={() => onPick({ id: member.user.id, name: member.user.full_name, today: member.today, view: 'month' })}
                >
                  {t().tabs.month}
                </button>{' '}
                <button
                  type="button"
                  class="link"
                  onClick={() =>
                    void onPdf(() =>
                      downloadFile(
                        'GET /api/users/:id/stats/month.pdf',
                        { params: { id: member.user.id }, query: { month, lang: language.value } },
                        `timesheet-${month}.pdf`,
                      ),
                    )
                  }
                >
                  {text.pdf}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The role and teams of a session started on this page (a restored one came with /api/auth/me, so a
 * reload asks for it once), then the teams the account leads for the Team section.
 */
export function loadRoleAndTeams(): void {
  const known = currentRole.value;
  const access =
    known !== undefined
      ? Promise.resolve({ role: known, teams: currentTeams.value })
      : api('GET /api/auth/me').then((me) => {
          currentRole.value = me.role;
          currentTeams.value = me.teams;
          return me;
        });
  access.then(loadLedTeams).catch(() => undefined);
}

// The signed-in page "/": a header (name, one-row navigation, Sign out), a skip link, and one view per
// section (views/*). Loaded on demand by main.tsx, so that /login stays small.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { User } from '../http/contract.js';
import { currentRole, currentTeams, describe } from './api.js';
import { t } from './i18n/index.js';
import { tl } from './i18n/team-layer.js';
import { getOnce } from './prefetch.js';
import { ADMIN_TABS, announcement, focusSoon, ledTeams, NAV_TABS, settings, shownWeek, tab, tabOfHash, type Tab } from './state.js';
import { Notice } from './ui.js';
import { watchFreshness } from './freshness.js';
import { todayIn, weekStartOf } from './week.js';
import { AbsencesView } from './views/absences.js';
import { EntriesView } from './views/entries.js';
import { signOut } from './sign-out.js';
import { SettingsView } from './views/settings.js';
import { TodayView } from './views/today.js';
import { WeekView } from './views/week.js';
import { MonthView } from './views/month.js';
import { loadRoleAndTeams, TeamView } from './views/team.js';
import { AdminAccountsView } from './views/admin-accounts.js';
import { AdminAuditView } from './views/admin-audit.js';
import { AdminTeamsView } from './views/admin-teams.js';
import { AdminInvitationsView } from './views/admin-invitations.js';
import { Bell } from './bell.js';

const VIEWS: Record<Tab, () => preact.JSX.Element> = {
  today: TodayView,
  week: WeekView,
  month: MonthView,
  entries: EntriesView,
  absences: AbsencesView,
  settings: SettingsView,
  team: TeamView,
  accounts: AdminAccountsView,
  teams: AdminTeamsView,
  invitations: AdminInvitationsView,
  audit: AdminAuditView,
};

const isAdminTab = (name: Tab) => (ADMIN_TABS as readonly Tab[]).includes(name);

/** @public Loaded on demand by main.tsx (a separate chunk, so /login stays small). */
export function Tracker(props: { user: User }) {
  const [error, setError] = useState<string>();
  const text = t();
  const firstView = useRef(true);
  useEffect(() => {
    // Signing out and in again changes the path without a hashchange event: read the section anew.
    tab.value = tabOfHash();
    settings.value = undefined;
    announcement.value = '';
    getOnce('GET /api/settings').then(
      (value) => {
        settings.value = value;
        shownWeek.value = weekStartOf(todayIn(value.timezone));
      },
      (failure) => setError(describe(failure)),
    );
  }, []);
  useEffect(watchFreshness, []);
  useEffect(loadRoleAndTeams, []);
  // Administration for anyone but an admin, and Team for a member of no team (a lead made a member meanwhile, an
  // address kept from before), is no section: the address goes back to Today, as an unknown one does.
  const role = currentRole.value;
  const outOfRole =
    role !== undefined && ((role !== 'admin' && isAdminTab(tab.value)) || (role === 'member' && tab.value === 'team' && currentTeams.value.length === 0));
  useEffect(() => {
    if (outOfRole) {
      history.replaceState(null, '', '#today');
      tab.value = 'today';
    }
  }, [outOfRole]);
  useEffect(() => {
    document.title = `${text.tabs[tab.value]} · timetrack`;
    // After a change of section, focus goes to its heading (not on the first load: the page starts at its top).
    if (firstView.current) firstView.current = false;
    else focusSoon('#view-title');
  }, [tab.value]);
  const shown = outOfRole || (isAdminTab(tab.value) && role !== 'admin') ? 'today' : tab.value;
  const View = VIEWS[shown];
  return (
    <div class="tracker">
      <a class="skip" href="#content" onClick={(event) => (event.preventDefault(), document.getElementById('view-title')?.focus())}>
        {text.skipToContent}
      </a>
      <header>
        <p class="brand">{text.brand}</p>
        <p class="user">{props.user.full_name}</p>
        <Bell />
        <button type="button" class="link sign-out" onClick={signOut}>
          {text.signOut}
        </button>
        <nav aria-label={text.sections}>
          {[...NAV_TABS, ...(ledTeams.value.length || currentTeams.value.length || role === 'admin' || role === 'lead' ? (['team'] as const) : [])].map(
            (name) => (
              <a key={name} href={`#${name}`} aria-current={tab.value === name || (name === 'week' && tab.value === 'month') ? 'page' : undefined}>
                {text.tabs[name]}
              </a>
            ),
          )}
          {role === 'admin' && (
            <a href="#accounts" aria-current={isAdminTab(tab.value) ? 'page' : undefined}>
              {tl().admin.nav}
            </a>
          )}
        </nav>
      </header>
      <main id="content">
        <h1 class="visually-hidden">{text.appTitle}</h1>
        <Notice error={error} />
        <div class="visually-hidden" role="status" aria-live="polite">
          {announcement.value}
        </div>
        {settings.value && shownWeek.value ? <View key={shown} /> : !error && <Notice info={text.loading} />}
      </main>
    </div>
  );
}

// Administration → Accounts (docs/web-client.md; docs/teams.md): an admin's list of every account, a
// search in names and e-mail addresses, a page at a time (GET /api/users), and per account what an admin
// does to it (admin-account-row.tsx). Shown to admins only: the navigation has the item for them alone.
import { useState } from 'preact/hooks';
import { api, currentUser } from '../api.js';
import { t } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { ADMIN_TABS, focusSoon, tab, useLoad } from '../state.js';
import { Notice } from '../ui.js';
import { AccountRow } from './admin-account-row.js';
import { loadTeamDetails, teamsByAccount } from './admin-team-data.js';

const PAGE_SIZE = 20;

/** The two sections of Administration, as links; the current one marked. */
export function AdminNav() {
  const text = tl().admin;
  return (
    <nav aria-label={text.sections} class="sub-nav">
      {ADMIN_TABS.map((name) => (
        <a key={name} href={`#${name}`} aria-current={tab.value === name ? 'page' : undefined}>
          {t().tabs[name]}
        </a>
      ))}
    </nav>
  );
}

/** Pages by cursor: the cursors of the pages before, so that "Previous page" goes back. */
export function usePages() {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  return {
    cursor,
    hasPrevious: cursors.length > 0,
    next: (nextCursor: string) => setCursors([...cursors, nextCursor]),
    previous: () => setCursors(cursors.slice(0, -1)),
    reset: () => setCursors([]),
  };
}

export function PageButtons(props: { hasPrevious: boolean; next: string | null | undefined; onPrevious: () => void; onNext: (cursor: string) => void }) {
  const text = tl().admin;
  const next = props.next;
  if (!props.hasPrevious && !next) return null;
  return (
    <p class="actions pages">
      {props.hasPrevious && (
        <button type="button" onClick={props.onPrevious}>
          {text.previous}
        </button>
      )}
      {next && (
        <button type="button" onClick={() => props.onNext(next)}>
          {text.next}
        </button>
      )}
    </p>
  );
}

export function AdminAccountsView() {
  const text = tl().admin;
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const pages = usePages();
  const list = useLoad(() => api('GET /api/users', { query: { q: query || undefined, limit: PAGE_SIZE, cursor: pages.cursor } }), [query, pages.cursor]);
  // The teams of each account: the list of accounts carries none, every team's detail does.
  const teams = useLoad(loadTeamDetails, []);
  const teamsOf = teamsByAccount(teams.data ?? []);
  const search = (event: Event) => {
    event.preventDefault();
    pages.reset();
    setQuery(typed.trim());
  };
  const turn = (move: () => void) => {
    move();
    focusSoon('#accounts-list-title');
  };
  const users = list.data?.users ?? [];
  return (
    <section aria-labelledby="view-title" class="admin">
      <h2 id="view-title" tabIndex={-1}>
        {text.accounts}
      </h2>
      <AdminNav />
      <form role="search" class="admin-search" onSubmit={search}>
        <label for="account-search">{text.search}</label>
        <input id="account-search" type="search" value={typed} onInput={(event) => setTyped(event.currentTarget.value)} autocomplete="off" />
        <button type="submit">{text.searchButton}</button>
      </form>
      <h3 id="accounts-list-title" tabIndex={-1} class="visually-hidden">
        {text.accounts}
      </h3>
      <Notice error={list.error} />
      {list.data && users.length === 0 && <p>{text.none}</p>}
      <ul class="admin-accounts">
        {users.map((user) => (
          <AccountRow
            key={user.id}
            user={user}
            teams={teams.data ? (teamsOf.get(user.id) ?? []) : undefined}
            self={user.id === currentUser.value?.id}
            onChanged={list.reload}
          />
        ))}
      </ul>
      <PageButtons
        hasPrevious={pages.hasPrevious}
        next={list.data?.next_cursor}
        onPrevious={() => turn(pages.previous)}
        onNext={(cursor) => turn(() => pages.next(cursor))}
      />
    </section>
  );
}

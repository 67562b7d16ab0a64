// Administration → Audit trail (docs/web-client.md): what commands, admins and security events changed,
// newest first, a page at a time (GET /api/audit, the rows of `timetrack audit list`), filtered by
// account, actor, action and dates. Shown to admins only.
import { useState } from 'preact/hooks';
import type { Routes } from '../../http/routes-table.js';
import { api } from '../api.js';
import { language } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { focusSoon, useLoad } from '../state.js';
import { Field, Notice } from '../ui.js';
import { AdminNav, PageButtons, usePages } from './admin-accounts.js';

type Filter = { user: string; actor: string; action: string; from: string; to: string };
type AuditEvent = Routes['GET /api/audit']['response']['events'][number];
const EMPTY: Filter = { user: '', actor: '', action: '', from: '', to: '' };
const PAGE_SIZE = 25;

const dateTime = (iso: string) => new Intl.DateTimeFormat(language.value, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));

/** The filled fields only: an empty one filters nothing. */
function queryOf(filter: Filter, cursor: string | undefined) {
  const given = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return { ...Object.fromEntries(Object.entries(filter).map(([name, value]) => [name, given(value)])), limit: PAGE_SIZE, cursor };
}

function EventRow(props: { event: AuditEvent }) {
  const text = tl().admin;
  const { event } = props;
  const detail = Object.keys(event.detail).length > 0 ? JSON.stringify(event.detail) : '';
  return (
    <li class="audit-event">
      <strong>{event.action}</strong> <span>{text.by(event.actor)}</span>
      {event.user_email && <span> · {event.user_email}</span>}
      <br />
      <small>
        <time dateTime={event.at}>{dateTime(event.at)}</time>
        {detail && (
          <>
            {' '}
            · <code>{detail}</code>
          </>
        )}
      </small>
    </li>
  );
}

export function AdminAuditView() {
  const text = tl().admin;
  const [typed, setTyped] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const pages = usePages();
  const trail = useLoad(() => api('GET /api/audit', { query: queryOf(filter, pages.cursor) }), [filter, pages.cursor]);
  const field = (name: keyof Filter) => (value: string) => setTyped({ ...typed, [name]: value });
  const apply = (event: Event) => {
    event.preventDefault();
    pages.reset();
    setFilter(typed);
  };
  const turn = (move: () => void) => {
    move();
    focusSoon('#audit-list-title');
  };
  const events = trail.data?.events ?? [];
  return (
    <section aria-labelledby="view-title" class="admin">
      <h2 id="view-title" tabIndex={-1}>
        {text.audit}
      </h2>
      <AdminNav />
      <form class="audit-filter" onSubmit={apply} aria-label={text.filters}>
        <Field label={text.account} name="user" value={typed.user} onInput={field('user')} autocomplete="off" />
        <Field label={text.actor} name="actor" value={typed.actor} onInput={field('actor')} autocomplete="off" />
        <Field label={text.action} name="action" value={typed.action} onInput={field('action')} autocomplete="off" />
        <Field label={text.from} name="from" type="date" value={typed.from} onInput={field('from')} />
        <Field label={text.to} name="to" type="date" value={typed.to} onInput={field('to')} />
        <button type="submit" class="primary">
          {text.apply}
        </button>
      </form>
      <h3 id="audit-list-title" tabIndex={-1} class="visually-hidden">
        {text.audit}
      </h3>
      <Notice error={trail.error} />
      {trail.data && events.length === 0 && <p>{text.noEvents}</p>}
      <ul class="audit-events">
        {events.map((event) => (
          <EventRow key={event.id} event={event} />
        ))}
      </ul>
      <PageButtons
        hasPrevious={pages.hasPrevious}
        next={trail.data?.next_cursor}
        onPrevious={() => turn(pages.previous)}
        onNext={(cursor) => turn(() => pages.next(cursor))}
      />
    </section>
  );
}

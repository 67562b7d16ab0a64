// The bell in the header (docs/web-client.md, "The bell"; docs/notices.md): a button with the count of
// unread notices that opens the list of the account's own notices, newest first, each marked read on
// its own or all at once. A button and a region after it: reached with Tab, opened with Enter or
// Space, closed with Escape or the button again (focus goes back to the bell). The count is read once
// the first view has asked for its own figures, and again each time the list opens.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Routes } from '../http/routes-table.js';
import { api, describe } from './api.js';
import { locale } from './i18n/index.js';
import { tl } from './i18n/team-layer.js';
import { askedTeamPart, focusSoon, settings } from './state.js';
import { Notice, useEscape } from './ui.js';
import { shortDate } from './week.js';

type NoticeItem = Routes['GET /api/notices']['response']['notices'][number];

/** What a notice says, in the client's language. */
function sentenceOf(notice: NoticeItem): string {
  const text = tl().notices;
  const { data } = notice;
  if (notice.kind === 'missing-day' && typeof data.date === 'string') return text.missingDay(shortDate(data.date, locale()));
  if (notice.kind === 'lead-digest' && Array.isArray(data.items)) return text.leadDigest(data.items.length);
  if (notice.kind === 'request-decided' && typeof data.from === 'string' && typeof data.to === 'string') {
    const dates = data.from === data.to ? shortDate(data.from, locale()) : `${shortDate(data.from, locale())} – ${shortDate(data.to, locale())}`;
    return text.requestDecided(data.approved === true, data.cancellation === true, dates, typeof data.note === 'string' ? data.note : null);
  }
  if (notice.kind === 'month-returned' && typeof data.month === 'string')
    return text.monthReturned(data.month, typeof data.comment === 'string' ? data.comment : '');
  return text.other(notice.kind);
}

/** The notices, newest first; each unread one with its button. */
function NoticeList(props: { notices: NoticeItem[]; onRead: (id: number) => void; onApprovals: () => void }) {
  const text = tl().notices;
  return (
    <ul>
      {props.notices.map((notice) => (
        <li key={notice.id} class={notice.read_at === null ? 'unread' : undefined}>
          <p>
            {notice.read_at === null && <span class="visually-hidden">{text.unread}: </span>}
            {sentenceOf(notice)}
          </p>
          {notice.kind === 'lead-digest' && (
            <a href="#team" onClick={props.onApprovals}>
              {text.openApprovals}
            </a>
          )}{' '}
          {notice.read_at === null && (
            <button type="button" class="link" onClick={() => props.onRead(notice.id)}>
              {text.markRead}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

export function Bell() {
  const text = tl().notices;
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<Routes['GET /api/notices']['response']>();
  const [error, setError] = useState<string>();
  const button = useRef<HTMLButtonElement>(null);
  const load = () =>
    api('GET /api/notices').then(
      (answer) => (setList(answer), setError(undefined)),
      (failure) => setError(describe(failure)),
    );
  // After the first view's own requests (the settings are in, and that view asked for its figures in
  // the same commit): the bell never delays the first paint or the view's figures.
  const ready = settings.value !== undefined;
  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(() => void load(), 0);
    return () => clearTimeout(timer);
  }, [ready]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  useEscape(open, close);
  const toggle = () => {
    if (open) return close();
    setOpen(true);
    void load();
  };
  const markRead = async (id: number) => {
    await api('POST /api/notices/:id/read', { params: { id } }).catch((failure) => setError(describe(failure)));
    await load();
  };
  const markAll = async () => {
    await api('POST /api/notices/read-all').catch((failure) => setError(describe(failure)));
    await load();
  };
  const unread = list?.unread ?? 0;
  return (
    <div class="bell">
      <button type="button" ref={button} class="bell-button" aria-expanded={open} aria-controls="notices" aria-label={text.bell(unread)} onClick={toggle}>
        <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round">
          <path d="M12 3a5 5 0 0 0-5 5v4l-2 3h14l-2-3V8a5 5 0 0 0-5-5z" />
          <path d="M10 18a2 2 0 0 0 4 0" />
        </svg>
        {unread > 0 && (
          <span class="bell-count" aria-hidden="true">
            {unread}
          </span>
        )}
      </button>
      {open && (
        <section id="notices" class="notices" aria-labelledby="notices-title">
          <h2 id="notices-title">{text.title}</h2>
          <Notice error={error} />
          {list && list.notices.length === 0 && <p>{text.none}</p>}
          {list && list.notices.length > 0 && (
            <NoticeList
              notices={list.notices}
              onRead={(id) => void markRead(id)}
              onApprovals={() => ((askedTeamPart.value = 'approvals'), setOpen(false), focusSoon('#view-title'))}
            />
          )}
          <p class="notices-actions">
            {unread > 0 && (
              <button type="button" onClick={() => void markAll()}>
                {text.markAllRead}
              </button>
            )}
            <button type="button" class="link" onClick={close}>
              {text.close}
            </button>
          </p>
        </section>
      )}
    </div>
  );
}

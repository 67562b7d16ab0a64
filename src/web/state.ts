// What the views of the signed-in page share: the section in the address's fragment, the account's
// settings, the shown week, loading with reload, and the formatting helpers bound to the account's zone
// and the client's language.
import { signal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Settings } from '../http/contract.js';
import { describe } from './api.js';
import { freshness } from './freshness.js';
import { formatBalance, formatMinutes } from './duration.js';
import { locale, t } from './i18n/index.js';
import { datedTime, monthName, shortDate, spanLabel, timeOfDay } from './week.js';

export const TABS = ['today', 'week', 'month', 'entries', 'absences', 'settings', 'team', 'accounts', 'teams', 'invitations', 'audit'] as const;
export type Tab = (typeof TABS)[number];
/** The sections in the navigation: Month is reached from Week (and shows Week as the current section). */
export const NAV_TABS = ['today', 'week', 'entries', 'absences', 'settings'] as const satisfies readonly Tab[];

/** The sections of Administration (an admin's only; the navigation's one item leads to Accounts). */
export const ADMIN_TABS = ['accounts', 'teams', 'invitations', 'audit'] as const satisfies readonly Tab[];

export function tabOfHash(): Tab {
  const name = location.hash.slice(1);
  return (TABS as readonly string[]).includes(name) ? (name as Tab) : 'today';
}
export const tab = signal<Tab>(tabOfHash());
addEventListener('hashchange', () => (tab.value = tabOfHash()));

export const settings = signal<Settings | undefined>(undefined);
/** The teams whose week the account may read (views/team.tsx): every team for an admin, those it leads for a lead; empty for a member. */
export const ledTeams = signal<Array<{ id: number; name: string }>>([]);
/** The Monday of the week that Week, Entries and Absences show. */
export const shownWeek = signal<string | undefined>(undefined);
/** The part of the Team section a link asked for (the bell's digest: Approvals), taken once by that section. */
export const askedTeamPart = signal<'week' | 'calendar' | 'approvals' | undefined>(undefined);
/** The month (YYYY-MM) that Month shows; undefined: the month of the shown week. */
export const shownMonth = signal<string | undefined>(undefined);
/** Bumped when an action ended other sessions (two-factor sign-in on or off): the device list reloads. */
export const securityVersion = signal(0);
export const securityChanged = (): void => void (securityVersion.value += 1);
/** A quiet confirmation for the live region of the page (add, save, delete). */
export const announcement = signal<string>('');

export const zone = (): string => settings.value?.timezone ?? 'UTC';
export const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

export const fmt = {
  minutes: formatMinutes,
  balance: formatBalance,
  time: (instant: string) => timeOfDay(instant, zone(), locale()),
  dated: (instant: string, now?: Date) => datedTime(instant, zone(), locale(), t().days, now),
  day: (date: string) => shortDate(date, locale()),
  month: (month: string) => monthName(month, locale()),
  span: (start: string, end: string | null) => spanLabel(start, end, zone(), locale(), t().entries.running),
};

/** Loads with `load` whenever `key` changes; `reload` fetches again after a change. */
export function useLoad<T>(load: () => Promise<T>, key: unknown[]) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  // Only the newest load may show its answer: a reload and a change of key never race.
  const generation = useRef(0);
  const fetchNow = async (): Promise<void> => {
    const mine = ++generation.current;
    try {
      const value = await load();
      if (generation.current === mine) {
        setData(value);
        setError(undefined);
      }
    } catch (failure) {
      if (generation.current === mine) setError(describe(failure));
    }
  };
  useEffect(() => {
    void fetchNow();
    return () => {
      generation.current++;
    };
  }, key);
  // Loads again when the tab comes back or a minute passed (./freshness.ts): the newest fetchNow, so with the newest key.
  const latest = useRef(fetchNow);
  latest.current = fetchNow;
  useEffect(() => {
    let first = true;
    return freshness.subscribe(() => (first ? (first = false) : void latest.current()));
  }, []);
  /**
   * Loads again; resolves once the fresh data is shown (a failure is shown as the error, never thrown),
   * so an action can await it before its message: nothing is announced while the old list still shows.
   */
  return { data, error, reload: fetchNow };
}

/**
 * Whether focus is still where it was (`before`), or fell to the page's body because its element went
 * away: then a focus planned by the page may move it. Focus the person has put elsewhere meanwhile
 * (typing in the next field already) is theirs, and is never taken away.
 */
export function focusUntouched(before: Element | null): boolean {
  const now = document.activeElement;
  return now === before || now === null || now === document.body;
}

/** Focus for after an action: an element by selector, once the view has rendered it, unless the person moved focus meanwhile. */
export function focusSoon(selector: string): void {
  const before = document.activeElement;
  setTimeout(() => focusUntouched(before) && document.querySelector<HTMLElement>(selector)?.focus(), 0);
}

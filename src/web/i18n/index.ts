// The language of the client: English or German, from the browser's languages until the user picks one
// in Settings (kept in localStorage). Every sentence comes from the catalog of that language, and dates
// and numbers are formatted in the same language.
import { signal } from '@preact/signals';
import { de } from './de.js';
import { en, type Catalog } from './en.js';

export type Language = 'en' | 'de';
const LANGUAGE_KEY = 'timetrack.language';
const CATALOGS: Record<Language, Catalog> = { en, de };
export const LANGUAGES: Language[] = ['en', 'de'];

function initialLanguage(): Language {
  const chosen = localStorage.getItem(LANGUAGE_KEY);
  if (chosen === 'en' || chosen === 'de') return chosen;
  for (const tag of navigator.languages ?? [navigator.language]) {
    if (/^de\b/i.test(tag)) return 'de';
    if (/^en\b/i.test(tag)) return 'en';
  }
  return 'en';
}

export const language = signal<Language>(initialLanguage());

/** The catalog of the current language (read in render: a switch re-renders). */
export const t = (): Catalog => CATALOGS[language.value];

/** The locale for dates and numbers: the browser's own if it is of this language (en-US keeps 12-hour times), else the language. */
export function locale(): string {
  const own = navigator.language;
  return own.toLowerCase().startsWith(language.value) ? own : language.value === 'de' ? 'de-DE' : 'en-GB';
}

export function chooseLanguage(next: Language): void {
  localStorage.setItem(LANGUAGE_KEY, next);
  language.value = next;
}

const applyLang = () => (document.documentElement.lang = language.value);
applyLang();
language.subscribe(applyLang);

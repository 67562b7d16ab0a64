// Every error the API answers, as a sentence of the catalog (never the raw body).
import type { Catalog } from './i18n/en.js';

export interface ApiFailure {
  status: number;
  code: string;
  retryAfterSeconds?: number | undefined;
  /** VALIDATION_ERROR: the fields the API named. */
  details?: { field: string; message: string }[] | undefined;
  /** OVERLAP / ALREADY_RUNNING: the entry in the way; ENTRY_CHANGED: the whole entry as it is stored now. */
  entry?: { id: number; start_at: string; end_at: string | null; note?: string; updated_at?: string } | undefined;
}

export function errorMessage(failure: ApiFailure, catalog: Catalog): string {
  const known = (catalog.errors as Record<string, string | ((seconds: number | undefined) => string) | undefined>)[failure.code];
  if (typeof known === 'function') return known(failure.retryAfterSeconds);
  if (known) return known;
  if (failure.status === 429) return catalog.tooMany(failure.retryAfterSeconds);
  if (failure.status >= 500) return catalog.serverFailed;
  return catalog.failed;
}

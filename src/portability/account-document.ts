// One account as one JSON document, both ways: `timetrack user export|import` moves a person
// between instances, and GET /api/settings/export hands people their own data. The document holds
// the account's fields (never a password, hash or token), settings, schedules, entries, absences and
// bookings. It joins the two domains (accounts from auth/, the rest from time/), which never import
// each other.
//
// The export streams (./export.ts). The import (./import.ts) reads the whole document (at most
// MAX_ACCOUNT_DOCUMENT_BYTES), checks its shape by a schema (./schema.ts) and every value by the rules
// of the API (./check.ts) first, each problem naming its field (`entries[3].end_at`, 1-based like the
// lines of a CSV), and then writes the account, its settings, schedules, entries, absences, bookings
// and the audit record in one transaction: all of it, or nothing. Schedules and bookings are optional
// (documents written before them have none; their weekly targets then hold from the tracking start on).
import type { ExportOwner, ExportStream } from '../time/exports.js';
import { exportAccount, type ExportDeps } from './export.js';
import { importAccount, type AccountImportResult, type ImportDeps } from './import.js';

export { AccountImportError } from './check.js';
export { MAX_ACCOUNT_DOCUMENT_BYTES } from './schema.js';

/** What the export and the import of account documents need. */
export type AccountDataDeps = ExportDeps & ImportDeps;

export function createAccountDataService(deps: AccountDataDeps) {
  return {
    /**
     * The account as a document, streamed: refused before the first byte while another export of the
     * account runs (EXPORT_RUNNING); the owner's `client` is the key its export place counts under.
     */
    exportAccount: (owner: ExportOwner): Promise<ExportStream> => exportAccount(deps, owner),
    /**
     * Creates the account, or fills the one with exactly the document's e-mail address, in one
     * transaction; with `skipExisting`, what is there already is left out instead of refused.
     */
    importAccount: (document: unknown, options: { skipExisting: boolean; actor: string }): Promise<AccountImportResult> =>
      importAccount(deps, document, options),
  };
}

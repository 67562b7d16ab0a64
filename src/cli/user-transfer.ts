// `timetrack user export` and `user import`: one account as one JSON document (docs/cli.md), through
// the same service as the API's export and import.
import type { Command } from 'commander';
import { AccountImportError, MAX_ACCOUNT_DOCUMENT_BYTES } from '../portability/account-document.js';
import { jsonErrorPlace, readInputFile } from './input-file.js';
import { runAdminCommand, withCommandContext, type GlobalOptions } from './command-context.js';
import { ServiceError } from '../common/errors.js';
import { exportTo, firstProblems, terminalSafe, writeExport } from './output.js';
import { operatingSystemActor } from '../auth/audit.js';

/** The account document of `user import`: at most MAX_ACCOUNT_DOCUMENT_BYTES of JSON, or one line saying what is wrong and where. */
function readJsonDocument(file: string): unknown {
  const text = readInputFile(file, MAX_ACCOUNT_DOCUMENT_BYTES);
  try {
    return JSON.parse(text);
  } catch (error) {
    const { line, column } = jsonErrorPlace(text);
    const reason = (error as Error).message.split('\n')[0]?.slice(0, 120) ?? '';
    throw new ServiceError('VALIDATION_ERROR', `${file === '-' ? 'standard input' : file} is not valid JSON at line ${line}, column ${column} (${reason})`);
  }
}

/** `timetrack user export` */
export function exportCommand(user: Command): void {
  user
    .command('export')
    .description('print one account as a JSON document: fields (no password or token), settings, entries, absences')
    .argument('<email>', 'e-mail address of the account')
    .option('--output <file>', 'write to this new file, mode 0600 (the document holds personal data), instead of standard output')
    .addHelpText('after', '\nExample:\n  $ timetrack user export ann@example.com --output ann.json')
    .action(async (email: string, options: { output?: string }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      await withCommandContext(global, async (ctx) => {
        const user = await ctx.services.users.requireUser(email);
        // The destination first (a refused file name takes no export), then the export, streamed as it
        // is read (one entry a line), never the whole account in memory.
        await exportTo(options.output, async (to) => writeExport(await ctx.services.accountData.exportAccount({ userId: user.id }), undefined, to));
      });
    });
}

/** `timetrack user import` */
export function importCommand(user: Command): void {
  user
    .command('import')
    .description('create an account from a document of `user export`, or fill the account with its e-mail (settings, entries, absences)')
    .argument('<file>', 'the JSON document; - reads standard input')
    .option('--skip-existing', 'leave out entries and absences that are already there instead of refusing the import')
    .addHelpText(
      'after',
      `
A new account gets no usable password: issue a reset for its owner (timetrack reset issue <email>).

Example:
  $ timetrack user import ann.json --skip-existing`,
    )
    .action(async (file: string, options: { skipExisting?: boolean }, command: Command) => {
      const document = readJsonDocument(file);
      await runAdminCommand(command, async (ctx) => {
        let result;
        try {
          // One transaction: the account, its data and the audit record, or nothing.
          result = await ctx.services.accountData.importAccount(document, { skipExisting: Boolean(options.skipExisting), actor: operatingSystemActor() });
        } catch (error) {
          if (error instanceof AccountImportError) {
            // With --json, stderr carries one JSON error: the problems go into its message.
            const shown = firstProblems(error.problems.map((p) => p.message));
            if (command.optsWithGlobals<GlobalOptions>().json) throw new ServiceError('VALIDATION_ERROR', `${error.message}: ${shown.join('; ')}`);
            for (const line of shown) process.stderr.write(`timetrack: ${terminalSafe(line)}\n`);
          }
          throw error;
        }
        return {
          json: result,
          text: [
            `${result.created ? 'created' : 'filled'} ${result.user.email}: ${result.entries} entries (${result.skipped_entries} already there), ${result.absences} absences (${result.skipped_absences} already there${result.requested_absences_left_out ? `, ${result.requested_absences_left_out} days of vacation still waiting for approval left out` : ''}), ${result.bookings} bookings (${result.skipped_bookings} already there)`,
            ...(result.created ? [`the account has no usable password yet: timetrack reset issue ${result.user.email}`] : []),
          ],
        };
      });
    });
}

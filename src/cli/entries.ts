// `timetrack entries export|import`: time entries of one account as CSV (the format of
// GET /api/time-entries/export, built by the same service function).
import type { Command } from 'commander';
import { MAX_IMPORT_BYTES } from '../time/entries/csv-text.js';
import { ServiceError } from '../common/errors.js';
import { readInputFile } from './input-file.js';
import { recordAdminAction, withCommandContext, type GlobalOptions } from './command-context.js';
import { exportTo, firstProblems, printJson, printLines, terminalSafe, writeExport } from './output.js';

interface ExportOptions {
  user: string;
  from?: string;
  to?: string;
  output?: string;
}

interface ImportOptions {
  user: string;
  apply?: boolean;
  quiet?: boolean;
}

export function registerEntriesCommand(program: Command): void {
  const entries = program.command('entries').description('time entries of an account as CSV (export, and import all rows or none)');

  entries
    .command('export')
    .description('print the entries of an account as CSV: id, start_at, end_at (UTC), start_local, end_local, note')
    .requiredOption('--user <email>', 'the account')
    .option('--from <when>', 'entries overlapping from this instant, or this date (midnight in the user time zone)')
    .option('--to <when>', 'up to this instant or date (exclusive)')
    .option('--output <file>', 'write to this new file, mode 0600, instead of standard output')
    .action(async (options: ExportOptions, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      await withCommandContext(global, async (ctx) => {
        const user = await ctx.services.users.requireUser(options.user);
        // On a terminal, control characters of notes are shown escaped (they would act on the screen);
        // into a file or a pipe the CSV is written exactly, so that `entries import` reads it back.
        const shown = options.output === undefined && process.stdout.isTTY ? terminalSafe : (text: string) => text;
        await exportTo(options.output, async (to) =>
          writeExport(await ctx.services.entriesCsv.exportCsv({ userId: user.id }, { from: options.from, to: options.to }), shown, to),
        );
      });
    });

  entries
    .command('import')
    .description('read entries from a CSV file of `entries export` (new ids); a dry run unless --apply; all rows or none')
    .requiredOption('--user <email>', 'the account that gets the entries')
    .argument('<file>', 'CSV file with the columns start_at, end_at, note (others are ignored); - reads standard input')
    .option('--apply', 'write the entries (without it, only report what would be written)')
    .option('-q, --quiet', 'print only the summary line (no line per entry, no progress)')
    .addHelpText('after', '\nExample:\n  timetrack entries import --user ann@example.com entries.csv --apply')
    .action(async (file: string, options: ImportOptions, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const text = readInputFile(file, MAX_IMPORT_BYTES);
      const source = file === '-' ? 'standard input' : file;
      // Progress is for a person watching: only on a terminal, and never mixed into stdout.
      const showProgress = process.stderr.isTTY && !options.quiet;
      await withCommandContext(global, async (ctx) => {
        const user = await ctx.services.users.requireUser(options.user);
        const result = await ctx.services.entriesCsv.importCsv(user.id, text, {
          apply: Boolean(options.apply),
          onProgress: showProgress ? (step, done, total) => process.stderr.write(`\r${step} ${done}/${total} rows`) : undefined,
        });
        if (showProgress) process.stderr.write('\n');
        if (global.verbose && result.applied) process.stderr.write(`timetrack: write lock held for ${Math.round(result.writeLockMs)} ms\n`);
        if (result.problems.length > 0) {
          const lines = firstProblems(result.problems.map((problem) => `line ${problem.line}: ${problem.message}`));
          // With --json, stderr carries one JSON error: the rows go into its message.
          if (global.json) throw new ServiceError('VALIDATION_ERROR', `${lines.length} bad row(s) in ${source}; nothing was written: ${lines.join('; ')}`);
          for (const line of lines) process.stderr.write(`timetrack: ${terminalSafe(`${source}: ${line}`)}\n`);
          throw new ServiceError('VALIDATION_ERROR', `${result.problems.length} bad row(s) in ${source}; nothing was written`);
        }
        if (result.applied) await recordAdminAction(ctx, { action: 'entries_imported', user, detail: { entries: result.entries.length } });
        if (global.json)
          return printJson({ applied: result.applied, count: result.entries.length, write_lock_ms: Math.round(result.writeLockMs), entries: result.entries });
        // One line per entry: the note is quoted, so a line break in it stays visible as \n.
        printLines(
          ...(options.quiet ? [] : result.entries).map(
            (entry) => `line ${entry.line}: ${entry.start_at} – ${entry.end_at ?? 'running'}${entry.note ? `  ${JSON.stringify(entry.note)}` : ''}`,
          ),
          result.applied
            ? `imported ${result.entries.length} entr${result.entries.length === 1 ? 'y' : 'ies'} for ${user.email}`
            : `dry run: ${result.entries.length} entr${result.entries.length === 1 ? 'y' : 'ies'} would be imported for ${user.email}; add --apply to write them`,
        );
      });
    });
}

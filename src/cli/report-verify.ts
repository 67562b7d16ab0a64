// `timetrack report verify <file.pdf|file.json>` (docs/cli.md; docs/teams.md, "The seal"): a saved month
// checked against the database by the team layer's verifyFile; prints `matches` (exit 0) or what
// differs (exit 1).
import fs from 'node:fs';
import type { Command } from 'commander';
import { ServiceError } from '../common/errors.js';
import { verifyFile, type FileVerdict } from '../teams/index.js';
import { withCommandContext, type GlobalOptions } from './command-context.js';
import { CheckFailedError } from './errors.js';
import { printJson, printLines, terminalSafe } from './output.js';

/** A month's PDF is some hundred kilobytes; nothing verify reads is larger. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** The file's bytes, or one sentence saying why it cannot be read. */
function readFile(file: string): Buffer {
  try {
    if (fs.statSync(file).size > MAX_FILE_BYTES) throw new ServiceError('VALIDATION_ERROR', `${file} is larger than 16 MiB: not a month saved by timetrack`);
    return fs.readFileSync(file);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError('VALIDATION_ERROR', `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

const quoted = (text: string | null) => (text === null ? 'nothing' : `"${terminalSafe(text)}"`);

function verdictLines(verdict: FileVerdict): string[] {
  const whose = `${verdict.account.email} ${verdict.month}`;
  if (verdict.matches) return [`matches: ${whose}, digest ${verdict.digest}`];
  return [
    `does not match: ${whose} (the file's digest ${verdict.digest ?? 'none'}; stored ${verdict.stored_digest ?? 'none'})`,
    ...verdict.problems.map((problem) => terminalSafe(problem)),
    ...verdict.differences.map((difference) => `${difference.where}: the file says ${quoted(difference.file)}, the database ${quoted(difference.database)}`),
  ];
}

export function registerReportVerify(report: Command): void {
  report
    .command('verify')
    .description("check a saved month (its PDF, or the JSON of /api/stats/month) against the database and the month's seal")
    .argument('<file>', 'the PDF or JSON file')
    .addHelpText('after', '\nExamples:\n  $ timetrack report verify ann-2026-03.pdf\n  $ timetrack report verify ann-2026-03.json')
    .action(async (file: string, _options: object, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const bytes = readFile(file);
      const verdict = await withCommandContext(global, (ctx) =>
        verifyFile({ users: ctx.services.users, months: ctx.services.months, timesheet: ctx.services.timesheet }, bytes),
      );
      if (global.json) printJson(verdict);
      else printLines(...verdictLines(verdict));
      if (!verdict.matches)
        throw new CheckFailedError(`${file} does not match the database (${verdict.problems.length + verdict.differences.length} finding(s))`);
    });
}

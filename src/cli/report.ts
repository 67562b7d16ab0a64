// `timetrack report month`: an account's monthly timesheet (docs/time-model.md, Monthly timesheet) as
// PDF, CSV or JSON, written by the same functions as GET /api/stats/month(.pdf|.csv).
import fs from 'node:fs';
import type { Command } from 'commander';
import { narrowRedirectedOutput } from '../common/private-file.js';
import { timesheetCsv, timesheetPdf, type SheetLanguage } from '../time/timesheet/timesheet.js';
import { withCommandContext, type GlobalOptions } from './command-context.js';
import { UsageError } from './errors.js';
import { printJson } from './output.js';
import { registerReportVerify } from './report-verify.js';

interface MonthOptions {
  month?: string;
  format: string;
  output?: string;
  lang: string;
}

export function registerReportCommand(program: Command): void {
  const report = program.command('report').description("reports of an account's working-time account");
  registerReportVerify(report);

  report
    .command('month')
    .description(
      'the monthly timesheet of an account: per day first start, last end, breaks, worked, target, booked, balance, absences and holidays; totals, the balance carried in and out, vacation',
    )
    .argument('<account>', 'e-mail address or username of the account')
    .option('--month <YYYY-MM>', 'the month (default: this month in the account time zone)')
    .option('--format <format>', 'pdf, csv or json', 'pdf')
    .option('--output <file>', 'write to this file (mode 0600) instead of standard output; a PDF needs it on a terminal')
    .option('--lang <language>', 'language of the public holiday names, and of the PDF: en or de', 'en')
    .addHelpText(
      'after',
      '\nExamples:\n  $ timetrack report month ann@example.com --month 2026-03 --output ann-2026-03.pdf\n  $ timetrack report month ann@example.com --month 2026-03 --format csv > ann-2026-03.csv',
    )
    .action(async (account: string, options: MonthOptions, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      if (!['pdf', 'csv', 'json'].includes(options.format)) throw new UsageError(`--format: "${options.format}" is not pdf, csv or json`);
      if (!['en', 'de'].includes(options.lang)) throw new UsageError(`--lang: "${options.lang}" is not en or de`);
      if (options.month !== undefined && !/^\d{4}-\d{2}$/.test(options.month))
        throw new UsageError(`--month: "${options.month}" is not a month such as 2026-03`);
      if (options.format === 'pdf' && options.output === undefined && process.stdout.isTTY) {
        throw new UsageError('a PDF is not for a terminal: give --output <file>, or redirect standard output to a file');
      }
      const content = await withCommandContext(global, async (ctx) => {
        const user = await ctx.services.users.requireUser(account);
        const sheet = await ctx.services.timesheet.monthSheet(user.id, options.month, options.lang as SheetLanguage);
        if (options.format === 'csv') return timesheetCsv(sheet);
        // An approved month's seal: printed on its PDF, carried in its JSON (docs/teams.md, "The seal").
        const seal = await ctx.services.months.sealOf(user.id, sheet.month);
        if (options.format === 'json') return seal ? { ...sheet, seal: { account_id: user.id, email: user.email, lang: options.lang, ...seal } } : sheet;
        return timesheetPdf(sheet, { id: user.id, name: user.full_name, email: user.email }, options.lang as SheetLanguage, seal);
      });
      if (options.output !== undefined) {
        // The sheet holds personal data: the file is made readable by its owner alone.
        const body = typeof content === 'string' || Buffer.isBuffer(content) ? content : `${JSON.stringify(content, null, 2)}\n`;
        fs.writeFileSync(options.output, body, { mode: 0o600 });
        fs.chmodSync(options.output, 0o600);
        if (global.json) printJson({ written: options.output, bytes: Buffer.byteLength(body) });
        else process.stdout.write(`wrote ${options.output}\n`);
        return;
      }
      narrowRedirectedOutput();
      if (typeof content === 'string' || Buffer.isBuffer(content)) process.stdout.write(content);
      else printJson(content);
    });
}

// `timetrack request …` (docs/cli.md; docs/teams.md, "Leave requests"): the leave requests from the
// shell, through the same service as /api/requests, as the operator (who may decide every request:
// the shell is nobody's own account). Each decision is audited with `os:<login>`.
import { InvalidArgumentError, type Command } from 'commander';
import type { LeaveRequestState } from '../db/types.js';
import { OPERATOR } from '../teams/index.js';
import { LEAVE_REQUEST_STATES, type LeaveRequest } from '../teams/requests/index.js';
import { operatingSystemActor } from '../auth/audit.js';
import { runAdminCommand } from './command-context.js';
import { terminalSafe } from './output.js';

/** One request as a line: id, state, person, days, and what the lead sees. */
function requestLine(request: LeaveRequest): string {
  const dates = request.from === request.to ? request.from : `${request.from}..${request.to}`;
  const extra = [request.exceeds_allowance ? 'exceeds allowance' : '', request.note === null ? '' : `note: ${request.note}`].filter(Boolean);
  const cells = [String(request.id), request.state, request.person.email, dates, `${request.days} d`, ...extra];
  return terminalSafe(cells.join('\t'));
}

function parseState(value: string): LeaveRequestState {
  if (!(LEAVE_REQUEST_STATES as readonly string[]).includes(value)) throw new InvalidArgumentError(`one of ${LEAVE_REQUEST_STATES.join(', ')}`);
  return value as LeaveRequestState;
}

function parseId(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('the id of a leave request (a whole number)');
  return Number(value);
}

function listCommand(request: Command): void {
  request
    .command('list')
    .description('leave requests of every account, newest first (at most 500)')
    .option('--state <state>', `only those in this state: ${LEAVE_REQUEST_STATES.join(', ')}`, parseState)
    .option('--account <account>', "only this account's (e-mail address or username)")
    .addHelpText('after', '\nExample:\n  timetrack request list --state requested --account max@example.com')
    .action((options: { state?: LeaveRequestState; account?: string }, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const userId = options.account === undefined ? undefined : (await ctx.services.users.requireUser(options.account)).id;
        const requests = await ctx.services.requests.list(OPERATOR, { scope: 'team', state: options.state, userId });
        return { json: { requests }, text: requests.length ? requests.map(requestLine) : ['no leave requests'] };
      }),
    );
}

function decisionCommand(request: Command, step: 'approve' | 'reject'): void {
  request
    .command(step)
    .description(step === 'approve' ? 'approve a leave request, or the cancellation asked for' : 'reject a leave request, or the cancellation asked for')
    .argument('<id>', 'the id of the request (request list)', parseId)
    .option('--note <text>', 'a note the person sees with the decision')
    .addHelpText('after', `\nExample:\n  timetrack request ${step} 42 --note "See you in June"`)
    .action((id: number, options: { note?: string }, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const decided = await ctx.services.requests[step](OPERATOR, id, {
          auditActor: operatingSystemActor(),
          ...(options.note === undefined ? {} : { note: options.note }),
        });
        return { json: { request: decided }, text: [requestLine(decided)] };
      }),
    );
}

export function registerRequestCommand(program: Command): void {
  const request = program.command('request').description('leave requests: list, approve, reject (docs/teams.md, "Leave requests")');
  listCommand(request);
  decisionCommand(request, 'approve');
  decisionCommand(request, 'reject');
}

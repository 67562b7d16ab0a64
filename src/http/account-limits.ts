// Budgets per signed-in account for the routes whose work grows with the account's data: exports
// (RATE_LIMIT_EXPORT an hour) and statistics (RATE_LIMIT_STATS a minute). Past a budget: 429
// RATE_LIMITED with Retry-After. Counted in this process, per account whatever address or session
// asks (several sessions of one account share it). Requests without a session are not counted here
// (anonymous statistics cover one week of the calendar, no account's data).
import type { onResponseAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { ServiceError } from '../common/errors.js';
import { WindowCounter } from '../common/window-counter.js';

/** Accounts counted at once per budget (a live window is never dropped; see window-counter.ts). */
export const ACCOUNT_BUDGET_CAPACITY = 100_000;

export interface AccountBudget {
  /** What the budget is for, in the error sentence ("exports", "statistics requests"). */
  name: string;
  /** Requests per window; 0 turns the budget off. */
  max: number;
  windowMs: number;
}

/** A preHandler that counts the request against its account's budget and refuses it past the budget. */
export function accountBudget(budget: AccountBudget, now: () => number = Date.now): preHandlerAsyncHookHandler {
  return countedIn(new WindowCounter(ACCOUNT_BUDGET_CAPACITY), budget, now);
}

function countedIn(windows: WindowCounter, budget: AccountBudget, now: () => number): preHandlerAsyncHookHandler {
  return async (request) => {
    if (budget.max === 0 || !request.session) return;
    const hit = windows.hit(String(request.session.user.id), budget.windowMs, now());
    if (!hit || hit.count > budget.max) {
      const seconds = Math.max(1, Math.ceil((hit?.remainingMs ?? budget.windowMs) / 1000));
      throw new ServiceError('RATE_LIMITED', `Too many ${budget.name} for this account; try again in ${seconds} s`, seconds);
    }
  };
}

/**
 * The export budget's hooks for a route: counted before the export like accountBudget, and given back
 * when the export was refused after all (409 EXPORT_RUNNING, 503 BUSY): a refused try costs nothing.
 */
export function refundedBudget(
  budget: AccountBudget,
  now: () => number = Date.now,
): { preHandler: preHandlerAsyncHookHandler; onResponse: onResponseAsyncHookHandler } {
  const windows = new WindowCounter(ACCOUNT_BUDGET_CAPACITY);
  const preHandler = countedIn(windows, budget, now);
  const onResponse: onResponseAsyncHookHandler = async (request, reply) => {
    if (budget.max === 0 || !request.session || (reply.statusCode !== 409 && reply.statusCode !== 503)) return;
    windows.unhit(String(request.session.user.id), now());
  };
  return { preHandler, onResponse };
}

export type ExportBudget = ReturnType<typeof refundedBudget>;

// The rules of one day, as pure functions shared by every statistic (docs/time-model.md): a day's
// target from the schedule in force, its absence and a public holiday.
import type { AbsencePortion } from '../db/types.js';

/**
 * A day's target: the schedule's minutes for its weekday; 0 before the tracking start, on a public
 * holiday and on a day of full absence; half of them (rounded down to a minute) on a half day.
 */
export function targetOfDay(scheduled: number, counted: boolean, holiday: boolean, absence: AbsencePortion | null): number {
  if (!counted || holiday || absence === 'full') return 0;
  return absence === 'half' ? Math.floor(scheduled / 2) : scheduled;
}

/**
 * The longest break (docs/time-model.md, Break rules): a gap between a day's entries longer than this
 * splits the shift (work in the morning and again in the evening) and is no break.
 */
export const MAX_BREAK_MINUTES = 180;

/** Whether a gap between two of a day's entries counts as a break: at least the shortest break, at most the longest. */
export function isBreak(gapMs: number, minBreakMinutes: number): boolean {
  return gapMs >= minBreakMinutes * 60_000 && gapMs <= MAX_BREAK_MINUTES * 60_000;
}

export interface BreakRuleOf {
  worked_over_minutes: number;
  break_minutes: number;
}

/** The rule of the highest threshold that `worked` minutes exceed (rules sorted by threshold), if any. */
export function ruleFor(worked: number, rules: readonly BreakRuleOf[]): BreakRuleOf | undefined {
  let found: BreakRuleOf | undefined;
  for (const rule of rules) if (worked > rule.worked_over_minutes) found = rule;
  return found;
}

/**
 * The minutes a day's worked time loses for a break not taken: the required break (of the highest
 * rule whose threshold the worked minutes exceed) less the breaks taken, if positive, but never so
 * much that the day falls below the threshold that required it.
 */
export function breakDeduction(worked: number, taken: number, rules: readonly BreakRuleOf[]): number {
  const rule = ruleFor(worked, rules);
  if (!rule) return 0;
  const shortfall = rule.break_minutes - taken;
  return shortfall <= 0 ? 0 : Math.min(shortfall, worked - rule.worked_over_minutes);
}

/**
 * The whole minutes a day must have worked, without a further break, for its worked minutes after
 * the deduction to reach `target` (the deducted worked time never falls as more is worked, so the
 * first such count is found by bisection between the target and the target plus the longest break).
 */
export function workNeededFor(target: number, taken: number, rules: readonly BreakRuleOf[]): number {
  const counted = (raw: number) => raw - breakDeduction(raw, taken, rules);
  let low = target;
  let high = target + Math.max(0, ...rules.map((rule) => rule.break_minutes)) + 1;
  if (counted(low) >= target) return low;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (counted(middle) >= target) high = middle;
    else low = middle;
  }
  return high;
}

// Today's two guards against a forgotten timer (docs/web-client.md): a warning once the timer has run
// 4 hours past the day's target (also in the tab's title), and, for an account made before the timer
// limit was on by default, a one-time offer to turn it on (dismissed for good in the account's settings).
import type { Entry } from '../../http/contract.js';
import { api } from '../api.js';
import { formatMinutes } from '../duration.js';
import { t } from '../i18n/index.js';
import { settings } from '../state.js';
import { Notice, useAction } from '../ui.js';

/** How far past the day's target a running timer is taken for forgotten. */
const PAST_TARGET_MINUTES = 4 * 60;

/** The minutes the timer has run when it has run past the target plus 4 hours, else undefined. */
export function forgottenFor(running: Entry | null, targetMinutes: number | undefined, nowMs: number): number | undefined {
  if (!running || targetMinutes === undefined) return undefined;
  const minutes = Math.floor((nowMs - Date.parse(running.start_at)) / 60_000);
  return minutes > targetMinutes + PAST_TARGET_MINUTES ? minutes : undefined;
}

/** The warning under a timer that has run far past the target. */
export function RunningLong(props: { minutes: number | undefined }) {
  if (props.minutes === undefined) return null;
  return (
    <p class="notice warning running-long" role="status">
      {t().guard.runningLong(formatMinutes(props.minutes))}
    </p>
  );
}

/** The offer to turn the timer limit on (12 hours), shown until it is on or dismissed. */
export function LimitSuggestion() {
  const text = t().guard;
  const action = useAction();
  const current = settings.value;
  if (!current) return null;
  if (!current.suggest_timer_limit || current.timer_limit_minutes !== null) return action.info ? <Notice info={action.info} /> : null;
  const answer = (turnOn: boolean) =>
    action.run(async () => {
      settings.value = await api('PATCH /api/settings', { body: turnOn ? { timer_limit_minutes: 720 } : { suggest_timer_limit: false } });
      return turnOn ? text.limitOn : undefined;
    });
  return (
    <div class="notice info limit-suggestion">
      <p>{text.limitSuggestion}</p>
      <Notice error={action.error} errorRef={action.errorRef} />
      <button type="button" class="primary" disabled={action.busy} onClick={() => void answer(true)}>
        {text.limitTurnOn}
      </button>{' '}
      <button type="button" disabled={action.busy} onClick={() => void answer(false)}>
        {text.limitDismiss}
      </button>
    </div>
  );
}

// Settings → the target schedules so far, each with its first day; every one but the earliest can be
// removed, after a question (../guard.tsx). The earliest counts for every day before its first too, so it
// says "from the tracking start", not the day it was stored (a registration date after the days typed in).
import { useState } from 'preact/hooks';
import type { Schedule } from '../../http/contract.js';
import { api } from '../api.js';
import { ConfirmBar } from '../guard.js';
import { t } from '../i18n/index.js';
import { announcement, fmt, focusSoon, settings } from '../state.js';
import { Notice, useAction } from '../ui.js';

export function ScheduleList(props: { schedules: Schedule[]; onChange: () => void }) {
  const text = t().settings;
  const action = useAction();
  const [confirming, setConfirming] = useState<number>();
  if (props.schedules.length === 0) return null;
  const weekly = (schedule: Schedule) => fmt.minutes(Object.values(schedule.weekly_target_minutes).reduce((sum, minutes) => sum + minutes, 0));
  const remove = (schedule: Schedule) =>
    action.run(async () => {
      await api('DELETE /api/settings/schedules/:id', { params: { id: schedule.id } });
      setConfirming(undefined);
      settings.value = await api('GET /api/settings');
      props.onChange();
      announcement.value = text.scheduleRemoved;
      focusSoon('#schedules-title');
    });
  return (
    <>
      <h3 id="schedules-title" tabIndex={-1}>
        {text.schedules}
      </h3>
      <Notice error={action.error} errorRef={action.errorRef} />
      <ul class="entries">
        {props.schedules.map((schedule, index) => (
          <li key={schedule.id} id={`schedule-${schedule.id}`}>
            <span class="entry-text">
              {index === 0
                ? text.scheduleEarliest(weekly(schedule))
                : text.scheduleLine(fmt.day(schedule.valid_from) + ' ' + schedule.valid_from.slice(0, 4), weekly(schedule))}
            </span>
            {index > 0 &&
              (confirming === schedule.id ? (
                <ConfirmBar
                  question={t().guard.removeSchedule}
                  yes={t().guard.yesRemove}
                  busy={action.busy}
                  onYes={() => void remove(schedule)}
                  onKeep={() => (setConfirming(undefined), focusSoon(`#schedule-${schedule.id} .remove`))}
                />
              ) : (
                <button
                  type="button"
                  class="remove"
                  disabled={action.busy}
                  aria-label={text.removeSchedule(schedule.valid_from)}
                  onClick={() => (setConfirming(schedule.id), focusSoon(`#schedule-${schedule.id} .keep`))}
                >
                  {t().absences.remove}
                </button>
              ))}
          </li>
        ))}
      </ul>
    </>
  );
}

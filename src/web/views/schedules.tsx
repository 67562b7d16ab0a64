// Settings → the target schedules so far, each with its first day; every one but the earliest can be removed.
import type { Schedule } from '../../http/contract.js';
import { api } from '../api.js';
import { t } from '../i18n/index.js';
import { announcement, fmt, settings } from '../state.js';
import { Notice, useAction } from '../ui.js';

export function ScheduleList(props: { schedules: Schedule[]; onChange: () => void }) {
  const text = t().settings;
  const action = useAction();
  if (props.schedules.length === 0) return null;
  const weekly = (schedule: Schedule) => fmt.minutes(Object.values(schedule.weekly_target_minutes).reduce((sum, minutes) => sum + minutes, 0));
  return (
    <>
      <h3>{text.schedules}</h3>
      <Notice error={action.error} errorRef={action.errorRef} />
      <ul class="entries">
        {props.schedules.map((schedule, index) => (
          <li key={schedule.id}>
            <span class="entry-text">{text.scheduleLine(fmt.day(schedule.valid_from) + ' ' + schedule.valid_from.slice(0, 4), weekly(schedule))}</span>
            {index > 0 && (
              <button
                type="button"
                disabled={action.busy}
                aria-label={text.removeSchedule(schedule.valid_from)}
                onClick={() =>
                  action.run(async () => {
                    await api('DELETE /api/settings/schedules/:id', { params: { id: schedule.id } });
                    settings.value = await api('GET /api/settings');
                    props.onChange();
                    announcement.value = text.scheduleRemoved;
                  })
                }
              >
                {t().absences.remove}
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

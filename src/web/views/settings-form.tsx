// Settings → the working-time account: time zone (a search over the zone list), weekly targets in hours
// (decimals too) from a date on, holiday region, overtime carried over, tracking start, break rules,
// vacation days, the timer limit, the missing-day reminder. Checked here first (the field at fault is marked), then saved in one PATCH.
import { useMemo, useState } from 'preact/hooks';
import type { Settings, Weekday } from '../../http/contract.js';
import type { Routes } from '../../http/routes-table.js';
import { api } from '../api.js';
import { formatHours, formatMinutes, parseDuration } from '../duration.js';
import { language, t } from '../i18n/index.js';
import { announcement, browserZone, settings, useLoad } from '../state.js';
import { todayIn, WEEKDAYS } from '../week.js';
import { Field, Notice, useAction, type Action } from '../ui.js';
import { Confirmation } from '../confirmation.js';
import { BreakRules, RegionSelect, RemindersCheck, TargetsFieldset, type RuleText } from './settings-fields.js';
import { zoneChange, ZoneConfirmation, ZoneFromChoice, type ZoneFrom } from './zone-choice.js';

type SettingsPatch = Routes['PATCH /api/settings']['body'];
/** A field's sentence and name, for the first value that cannot be sent. */
type Fault = { message: string; field: string };

/** A number of days as typed ("27,5" too); '' is null. */
const daysOf = (value: string): number | null | undefined =>
  value.trim() === '' ? null : /^\d{1,3}([.,]\d)?$/.test(value.trim()) ? Number(value.trim().replace(',', '.')) : undefined;
const daysText = (value: number | null, separator: string) => (value === null ? '' : String(value).replace('.', separator));

/** The form's fields as typed, starting from the saved settings. */
function useSettingsFields(current: Settings) {
  const separator = language.value === 'de' ? ',' : '.';
  const suggestZone = current.timezone === 'UTC' && browserZone && browserZone !== 'UTC';
  const [timezone, setTimezone] = useState(suggestZone ? browserZone : current.timezone);
  const [zoneFrom, setZoneFrom] = useState<ZoneFrom>('today');
  const [targets, setTargets] = useState(() => Object.fromEntries(WEEKDAYS.map((d) => [d, formatHours(current.weekly_target_minutes[d], separator)])));
  const [region, setRegion] = useState(current.holiday_region ?? '');
  const [offset, setOffset] = useState(formatMinutes(current.overtime_offset_minutes));
  const [trackingStart, setTrackingStart] = useState(current.tracking_start);
  const [targetsFrom, setTargetsFrom] = useState(todayIn(current.timezone));
  const [rules, setRules] = useState<RuleText[]>(() =>
    current.break_rules.map((rule) => ({ over: formatHours(rule.worked_over_minutes, separator), minutes: String(rule.break_minutes) })),
  );
  const [minBreak, setMinBreak] = useState(String(current.min_break_minutes));
  const [vacationDays, setVacationDays] = useState(daysText(current.vacation_days_per_year, separator));
  const [carryOver, setCarryOver] = useState(daysText(current.vacation_carry_over_max_days, separator));
  const [takenBefore, setTakenBefore] = useState(daysText(current.vacation_taken_before_tracking_days, separator));
  const [timerLimit, setTimerLimit] = useState(current.timer_limit_minutes === null ? '' : formatHours(current.timer_limit_minutes, separator));
  const [reminders, setReminders] = useState(current.reminders_enabled);
  return {
    suggestZone,
    timezone,
    setTimezone,
    zoneFrom,
    setZoneFrom,
    targets,
    setTargets,
    region,
    setRegion,
    offset,
    setOffset,
    trackingStart,
    setTrackingStart,
    targetsFrom,
    setTargetsFrom,
    rules,
    setRules,
    minBreak,
    setMinBreak,
    vacationDays,
    setVacationDays,
    carryOver,
    setCarryOver,
    takenBefore,
    setTakenBefore,
    timerLimit,
    setTimerLimit,
    reminders,
    setReminders,
  };
}
type Fields = ReturnType<typeof useSettingsFields>;

/** The weekly targets as typed, in minutes; or the first day at fault. */
function readTargets(fields: Fields): Record<Weekday, number> | Fault {
  const text = t().settings;
  const weekly: Partial<Record<Weekday, number>> = {};
  for (const d of WEEKDAYS) {
    const minutes = parseDuration(fields.targets[d] ?? '');
    if (minutes === undefined || minutes < 0 || minutes > 24 * 60)
      return { message: text.targetInvalid(text.weekdays[d]), field: `weekly_target_minutes.${d}` };
    weekly[d] = minutes;
  }
  return weekly as Record<Weekday, number>;
}

/** The break rules as typed; or the first field at fault. */
function readRules(fields: Fields): Array<{ worked_over_minutes: number; break_minutes: number }> | Fault {
  const breakRules: Array<{ worked_over_minutes: number; break_minutes: number }> = [];
  for (const [index, rule] of fields.rules.entries()) {
    const over = parseDuration(rule.over);
    if (over === undefined || over < 0) return { message: t().fields.break_rules, field: `break_rules.${index}.worked_over_minutes` };
    if (!/^\d{1,3}$/.test(rule.minutes.trim())) return { message: t().fields.break_rules, field: `break_rules.${index}.break_minutes` };
    breakRules.push({ worked_over_minutes: over, break_minutes: Number(rule.minutes.trim()) });
  }
  return breakRules;
}
const isFault = (value: object): value is Fault => 'message' in value && 'field' in value;

/** The body of the PATCH from the typed fields, in the order the checks run; or the first field at fault. */
function readSettings(fields: Fields, current: Settings, zones: string[]): SettingsPatch | Fault {
  const { timezone } = fields;
  if (!zones.includes(timezone) && timezone !== 'UTC') return { message: t().fields.timezone, field: 'timezone' };
  const weekly = readTargets(fields);
  if (isFault(weekly)) return weekly;
  const offsetMinutes = parseDuration(fields.offset);
  if (offsetMinutes === undefined) return { message: t().settings.offsetInvalid, field: 'overtime_offset_minutes' };
  const breakRules = readRules(fields);
  if (isFault(breakRules)) return breakRules;
  if (!/^\d{1,3}$/.test(fields.minBreak.trim())) return { message: t().fields.min_break_minutes, field: 'min_break_minutes' };
  const vacation = daysOf(fields.vacationDays);
  if (vacation === undefined) return { message: t().fields.vacation_days_per_year, field: 'vacation_days_per_year' };
  const carry = daysOf(fields.carryOver);
  if (carry === undefined) return { message: t().fields.vacation_carry_over_max_days, field: 'vacation_carry_over_max_days' };
  const takenBefore = daysOf(fields.takenBefore);
  if (takenBefore === undefined) return { message: t().fields.vacation_taken_before_tracking_days, field: 'vacation_taken_before_tracking_days' };
  const limit = fields.timerLimit.trim() === '' ? null : parseDuration(fields.timerLimit);
  if (limit === undefined || (limit !== null && limit < 1)) return { message: t().fields.timer_limit_minutes, field: 'timer_limit_minutes' };
  // Targets are sent only when they change: they then start at the chosen date (a new schedule).
  const targetsChanged = WEEKDAYS.some((d) => weekly[d] !== current.weekly_target_minutes[d]);
  return {
    ...zoneChange(timezone, fields.zoneFrom, fields.trackingStart),
    ...(targetsChanged ? { weekly_target_minutes: weekly, targets_valid_from: fields.targetsFrom } : {}),
    holiday_region: fields.region || null,
    overtime_offset_minutes: offsetMinutes,
    tracking_start: fields.trackingStart,
    break_rules: breakRules,
    min_break_minutes: Number(fields.minBreak.trim()),
    vacation_days_per_year: vacation,
    vacation_carry_over_max_days: carry,
    vacation_taken_before_tracking_days: takenBefore,
    timer_limit_minutes: limit,
    reminders_enabled: fields.reminders,
  };
}

/** The zone the account has from its latest change on (a change from today may start at the next midnight). */
const zoneOf = (current: Settings) => current.zones.at(-1)?.timezone ?? current.timezone;

/** The time zone, typed with the zone list as suggestions; a new one asks from when. */
function TimezoneField(props: { action: Action; fields: Fields; zones: string[]; current: Settings }) {
  const text = t().settings;
  const { action, fields, zones } = props;
  return (
    <>
      <Field
        label={text.timezone}
        name="timezone"
        type="search"
        value={fields.timezone}
        onInput={fields.setTimezone}
        list="time-zones"
        required
        error={action.fieldErrors.timezone}
        hint={fields.suggestZone ? text.timezoneSuggested : text.timezoneHint}
      />
      {fields.timezone !== zoneOf(props.current) && <ZoneFromChoice name="timezone_from" value={fields.zoneFrom} onChange={fields.setZoneFrom} />}
      <datalist id="time-zones">
        {zones.map((name) => (
          <option key={name} value={name}>
            {name.replace(/_/g, ' ')}
          </option>
        ))}
      </datalist>
    </>
  );
}

/** Vacation days a year, the days carried over at most, and the timer limit. */
function VacationAndTimerFields(props: { action: Action; fields: Fields }) {
  const text = t().settings;
  const { action, fields } = props;
  return (
    <>
      <Field
        label={text.vacationDays}
        name="vacation_days_per_year"
        value={fields.vacationDays}
        inputMode="decimal"
        onInput={fields.setVacationDays}
        error={action.fieldErrors.vacation_days_per_year}
        hint={text.vacationHint}
      />
      <Field
        label={text.carryOver}
        name="vacation_carry_over_max_days"
        value={fields.carryOver}
        inputMode="decimal"
        onInput={fields.setCarryOver}
        error={action.fieldErrors.vacation_carry_over_max_days}
        hint={text.carryHint}
      />
      <Field
        label={t().vacation.takenBeforeField}
        name="vacation_taken_before_tracking_days"
        value={fields.takenBefore}
        inputMode="decimal"
        onInput={fields.setTakenBefore}
        error={action.fieldErrors.vacation_taken_before_tracking_days}
        hint={t().vacation.takenBeforeHint}
      />
      <Field
        label={text.timerLimit}
        name="timer_limit_minutes"
        value={fields.timerLimit}
        inputMode="decimal"
        onInput={fields.setTimerLimit}
        error={action.fieldErrors.timer_limit_minutes}
        hint={text.timerHint}
      />
    </>
  );
}

export function SettingsForm(props: { current: Settings }) {
  const text = t().settings;
  const fields = useSettingsFields(props.current);
  const schedules = useLoad(() => api('GET /api/settings/schedules'), []);
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  const regions = useLoad(() => api('GET /api/settings/holiday-regions', { query: { lang: language.value } }), [language.value]);
  const action = useAction();
  const [zoneSaved, setZoneSaved] = useState<string>();
  const submit = (event: Event) => {
    event.preventDefault();
    const body = readSettings(fields, props.current, zones);
    if (isFault(body)) return action.fail(body.message, body.field);
    setZoneSaved(undefined);
    void action.run(async () => {
      const zoneChanged = fields.timezone !== zoneOf(props.current);
      settings.value = await api('PATCH /api/settings', { body });
      if (zoneChanged) setZoneSaved(t().zoneFrom.saved(fields.timezone));
      await schedules.reload();
      announcement.value = text.saved;
      return text.saved;
    });
  };
  return (
    <form ref={action.formRef} onSubmit={submit}>
      <Notice error={action.error} errorRef={action.errorRef} />
      <TimezoneField action={action} fields={fields} zones={zones} current={props.current} />
      <ZoneConfirmation message={zoneSaved} />
      <TargetsFieldset
        action={action}
        targets={fields.targets}
        setTargets={fields.setTargets}
        targetsFrom={fields.targetsFrom}
        setTargetsFrom={fields.setTargetsFrom}
        schedules={schedules.data?.schedules ?? []}
        onSchedulesChange={schedules.reload}
      />
      <RegionSelect action={action} region={fields.region} setRegion={fields.setRegion} regions={regions.data?.regions} />
      <Field
        label={text.offset}
        name="overtime_offset_minutes"
        value={fields.offset}
        onInput={fields.setOffset}
        error={action.fieldErrors.overtime_offset_minutes}
        hint={text.offsetHint}
      />
      <Field
        label={text.trackingStart}
        name="tracking_start"
        type="date"
        value={fields.trackingStart}
        onInput={fields.setTrackingStart}
        error={action.fieldErrors.tracking_start}
        required
      />
      <BreakRules action={action} rules={fields.rules} setRules={fields.setRules} minBreak={fields.minBreak} setMinBreak={fields.setMinBreak} />
      <VacationAndTimerFields action={action} fields={fields} />
      <RemindersCheck checked={fields.reminders} onChange={fields.setReminders} />
      <button type="submit" class="primary" disabled={action.busy}>
        {text.save}
      </button>
      <Confirmation id="settings-saved" text={action.info} />
    </form>
  );
}

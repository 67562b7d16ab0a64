// Settings: language, time zone (a search over the zone list), weekly targets in hours (decimals too)
// from a date on, the schedules so far, holiday region (a list of the regions the calendar knows),
// overtime carried over, tracking start, break rules (with the German preset), vacation days, the timer
// limit; bookings on the balance; password change; two-factor sign-in; where the account is signed in;
// API tokens; the CSV export and the account document; sign-out; closing the account.
import { useMemo, useState } from 'preact/hooks';
import type { Booking, HolidayRegions, Schedule, Settings, Weekday } from '../../http/contract.js';
import { api, downloadAccountData, downloadExport, endSession } from '../api.js';
import { formatHours, formatMinutes, parseDuration } from '../duration.js';
import { chooseLanguage, language, LANGUAGES, t, type Language } from '../i18n/index.js';
import { en } from '../i18n/en.js';
import { de } from '../i18n/de.js';
import { announcement, browserZone, fmt, settings, useLoad, zone } from '../state.js';
import { todayIn } from '../week.js';
import { Field, Notice, useAction, useDownload } from '../ui.js';
import { ApiTokens } from './api-tokens.js';
import { CloseAccount } from './close-account.js';
import { SessionList } from './security.js';
import { TwoFactorSettings } from './two-factor-settings.js';

const WEEKDAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const LANGUAGE_NAMES: Record<Language, string> = { en: en.language, de: de.language };
const GERMAN_RULES = [
  { over: '6', minutes: '30' },
  { over: '9', minutes: '45' },
];
/** A number of days as typed ("27,5" too); '' is null. */
const daysOf = (value: string): number | null | undefined => (value.trim() === '' ? null : /^\d{1,3}([.,]\d)?$/.test(value.trim()) ? Number(value.trim().replace(',', '.')) : undefined);
const daysText = (value: number | null, separator: string) => (value === null ? '' : String(value).replace('.', separator));

function SettingsForm(props: { current: Settings }) {
  const text = t().settings;
  const separator = language.value === 'de' ? ',' : '.';
  const suggestZone = props.current.timezone === 'UTC' && browserZone && browserZone !== 'UTC';
  const [timezone, setTimezone] = useState(suggestZone ? browserZone : props.current.timezone);
  const [targets, setTargets] = useState(() => Object.fromEntries(WEEKDAYS.map((d) => [d, formatHours(props.current.weekly_target_minutes[d], separator)])));
  const [region, setRegion] = useState(props.current.holiday_region ?? '');
  const [offset, setOffset] = useState(formatMinutes(props.current.overtime_offset_minutes));
  const [trackingStart, setTrackingStart] = useState(props.current.tracking_start);
  const [targetsFrom, setTargetsFrom] = useState(todayIn(props.current.timezone));
  const [rules, setRules] = useState(() => props.current.break_rules.map((rule) => ({ over: formatHours(rule.worked_over_minutes, separator), minutes: String(rule.break_minutes) })));
  const [minBreak, setMinBreak] = useState(String(props.current.min_break_minutes));
  const [vacationDays, setVacationDays] = useState(daysText(props.current.vacation_days_per_year, separator));
  const [carryOver, setCarryOver] = useState(daysText(props.current.vacation_carry_over_max_days, separator));
  const [timerLimit, setTimerLimit] = useState(props.current.timer_limit_minutes === null ? '' : formatHours(props.current.timer_limit_minutes, separator));
  const schedules = useLoad(() => api<{ schedules: Schedule[] }>('GET', '/api/settings/schedules'), []);
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  const regions = useLoad(() => api<HolidayRegions>('GET', `/api/settings/holiday-regions?lang=${language.value}`), [language.value]);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    if (!zones.includes(timezone) && timezone !== 'UTC') return action.fail(t().fields.timezone, 'timezone');
    const weekly: Partial<Record<Weekday, number>> = {};
    for (const d of WEEKDAYS) {
      const minutes = parseDuration(targets[d] ?? '');
      if (minutes === undefined || minutes < 0 || minutes > 24 * 60) return action.fail(text.targetInvalid(text.weekdays[d]), `weekly_target_minutes.${d}`);
      weekly[d] = minutes;
    }
    const offsetMinutes = parseDuration(offset);
    if (offsetMinutes === undefined) return action.fail(text.offsetInvalid, 'overtime_offset_minutes');
    const breakRules: Array<{ worked_over_minutes: number; break_minutes: number }> = [];
    for (const [index, rule] of rules.entries()) {
      const over = parseDuration(rule.over);
      if (over === undefined || over < 0) return action.fail(t().fields.break_rules, `break_rules.${index}.worked_over_minutes`);
      if (!/^\d{1,3}$/.test(rule.minutes.trim())) return action.fail(t().fields.break_rules, `break_rules.${index}.break_minutes`);
      breakRules.push({ worked_over_minutes: over, break_minutes: Number(rule.minutes.trim()) });
    }
    if (!/^\d{1,3}$/.test(minBreak.trim())) return action.fail(t().fields.min_break_minutes, 'min_break_minutes');
    const vacation = daysOf(vacationDays);
    if (vacation === undefined) return action.fail(t().fields.vacation_days_per_year, 'vacation_days_per_year');
    const carry = daysOf(carryOver);
    if (carry === undefined) return action.fail(t().fields.vacation_carry_over_max_days, 'vacation_carry_over_max_days');
    const limit = timerLimit.trim() === '' ? null : parseDuration(timerLimit);
    if (limit === undefined || (limit !== null && limit < 1)) return action.fail(t().fields.timer_limit_minutes, 'timer_limit_minutes');
    // Targets are sent only when they change: they then start at the chosen date (a new schedule).
    const targetsChanged = WEEKDAYS.some((d) => weekly[d] !== props.current.weekly_target_minutes[d]);
    void action.run(async () => {
      settings.value = await api<Settings>('PATCH', '/api/settings', {
        timezone,
        ...(targetsChanged ? { weekly_target_minutes: weekly, targets_valid_from: targetsFrom } : {}),
        holiday_region: region || null,
        overtime_offset_minutes: offsetMinutes,
        tracking_start: trackingStart,
        break_rules: breakRules,
        min_break_minutes: Number(minBreak.trim()),
        vacation_days_per_year: vacation,
        vacation_carry_over_max_days: carry,
        timer_limit_minutes: limit,
      });
      await schedules.reload();
      announcement.value = text.saved;
      return text.saved;
    });
  };
  return (
    <form ref={action.formRef} onSubmit={submit}>
      <Notice error={action.error} info={action.info} errorRef={action.errorRef} />
      <Field
        label={text.timezone}
        name="timezone"
        type="search"
        value={timezone}
        onInput={setTimezone}
        list="time-zones"
        required
        error={action.fieldErrors.timezone}
        hint={suggestZone ? text.timezoneSuggested : text.timezoneHint}
      />
      <datalist id="time-zones">{zones.map((name) => <option key={name} value={name}>{name.replace(/_/g, ' ')}</option>)}</datalist>
      <fieldset>
        <legend>{text.targets}</legend>
        <p class="quiet">{text.targetsEveryWeek}</p>
        <div class="targets">
          {WEEKDAYS.map((d) => (
            <Field
              key={d}
              name={`weekly_target_minutes.${d}`}
              label={text.weekdays[d]}
              value={targets[d] ?? ''}
              inputMode="decimal"
              error={action.fieldErrors[`weekly_target_minutes.${d}`]}
              onInput={(value) => setTargets({ ...targets, [d]: value })}
              required
            />
          ))}
        </div>
        <Field label={text.targetsFrom} name="targets_valid_from" type="date" value={targetsFrom} onInput={setTargetsFrom} error={action.fieldErrors.targets_valid_from} required />
        <ScheduleList schedules={schedules.data?.schedules ?? []} onChange={schedules.reload} />
      </fieldset>
      <div class={action.fieldErrors.holiday_region ? 'field invalid' : 'field'}>
        <label for="holiday-region">{text.region}</label>
        <select
          id="holiday-region"
          name="holiday_region"
          value={region}
          aria-invalid={action.fieldErrors.holiday_region ? 'true' : undefined}
          onChange={(event) => setRegion(event.currentTarget.value)}
        >
          <option value="">{text.regionNone}</option>
          {region && !regions.data?.regions.some((known) => known.code === region) && <option value={region}>{region}</option>}
          {regions.data?.regions.map((known) => <option key={known.code} value={known.code}>{known.name} ({known.code})</option>)}
        </select>
        {action.fieldErrors.holiday_region && <p class="field-error">{action.fieldErrors.holiday_region}</p>}
      </div>
      <Field label={text.offset} name="overtime_offset_minutes" value={offset} onInput={setOffset} error={action.fieldErrors.overtime_offset_minutes} hint={text.offsetHint} />
      <Field label={text.trackingStart} name="tracking_start" type="date" value={trackingStart} onInput={setTrackingStart} error={action.fieldErrors.tracking_start} required />
      <fieldset>
        <legend>{text.breaks}</legend>
        <p class="quiet">{text.breaksHint}</p>
        {rules.map((rule, index) => (
          <div class="rule" key={index}>
            <Field label={text.ruleOver(index + 1)} name={`break_rules.${index}.worked_over_minutes`} value={rule.over} inputMode="decimal" error={action.fieldErrors[`break_rules.${index}.worked_over_minutes`]} onInput={(value) => setRules(rules.map((r, i) => (i === index ? { ...r, over: value } : r)))} required />
            <Field label={text.ruleBreak(index + 1)} name={`break_rules.${index}.break_minutes`} value={rule.minutes} inputMode="decimal" error={action.fieldErrors[`break_rules.${index}.break_minutes`]} onInput={(value) => setRules(rules.map((r, i) => (i === index ? { ...r, minutes: value } : r)))} required />
            <button type="button" onClick={() => setRules(rules.filter((_, i) => i !== index))}>{text.removeRule(index + 1)}</button>
          </div>
        ))}
        <p>
          <button type="button" onClick={() => setRules([...rules, { over: '', minutes: '' }])}>{text.addRule}</button>{' '}
          <button type="button" onClick={() => setRules(GERMAN_RULES.map((rule) => ({ ...rule })))}>{text.germanPreset}</button>
        </p>
        <Field label={text.minBreak} name="min_break_minutes" value={minBreak} inputMode="decimal" onInput={setMinBreak} error={action.fieldErrors.min_break_minutes} required />
      </fieldset>
      <Field label={text.vacationDays} name="vacation_days_per_year" value={vacationDays} inputMode="decimal" onInput={setVacationDays} error={action.fieldErrors.vacation_days_per_year} hint={text.vacationHint} />
      <Field label={text.carryOver} name="vacation_carry_over_max_days" value={carryOver} inputMode="decimal" onInput={setCarryOver} error={action.fieldErrors.vacation_carry_over_max_days} hint={text.carryHint} />
      <Field label={text.timerLimit} name="timer_limit_minutes" value={timerLimit} inputMode="decimal" onInput={setTimerLimit} error={action.fieldErrors.timer_limit_minutes} hint={text.timerHint} />
      <button type="submit" class="primary" disabled={action.busy}>{text.save}</button>
    </form>
  );
}

/** The target schedules so far, each with its first day; every one but the earliest can be removed. */
function ScheduleList(props: { schedules: Schedule[]; onChange: () => void }) {
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
                    await api('DELETE', `/api/settings/schedules/${schedule.id}`);
                    settings.value = await api<Settings>('GET', '/api/settings');
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

/** Bookings on the balance: payouts and corrections, by date. */
function Bookings() {
  const text = t().settings;
  const list = useLoad(() => api<{ bookings: Booking[] }>('GET', '/api/time-entries/bookings'), []);
  const [date, setDate] = useState(todayIn(zone()));
  const [amount, setAmount] = useState('');
  const [kind, setKind] = useState<Booking['kind']>('payout');
  const [note, setNote] = useState('');
  const action = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    const typed = parseDuration(amount);
    if (typed === undefined || typed === 0) return action.fail(t().fields.minutes, 'minutes');
    // A payout takes time off the balance, whichever sign was typed.
    const minutes = kind === 'payout' ? -Math.abs(typed) : typed;
    void action.run(async () => {
      await api('POST', '/api/time-entries/bookings', { date, minutes, kind, note });
      setAmount('');
      setNote('');
      await list.reload();
      announcement.value = text.bookingAdded;
      return text.bookingAdded;
    });
  };
  const remove = (booking: Booking) =>
    action.run(async () => {
      await api('DELETE', `/api/time-entries/bookings/${booking.id}`);
      await list.reload();
      announcement.value = text.bookingRemoved;
    });
  return (
    <>
      <h3>{text.bookings}</h3>
      <p class="quiet">{text.bookingsHint}</p>
      <form ref={action.formRef} onSubmit={add}>
        <Notice error={action.error ?? list.error} info={action.info} errorRef={action.errorRef} />
        <Field label={text.bookingDate} name="date" type="date" value={date} onInput={setDate} error={action.fieldErrors.date} required />
        <Field label={text.bookingMinutes} name="minutes" value={amount} inputMode="decimal" onInput={setAmount} error={action.fieldErrors.minutes} required />
        <div class="field">
          <label for="booking-kind">{text.bookingKind}</label>
          <select id="booking-kind" name="kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as Booking['kind'])}>
            <option value="payout">{text.payout}</option>
            <option value="correction">{text.correction}</option>
          </select>
        </div>
        <Field label={text.bookingNote} name="note" value={note} onInput={setNote} error={action.fieldErrors.note} />
        <button type="submit" class="primary" disabled={action.busy}>{text.addBooking}</button>
      </form>
      <ul class="entries">
        {list.data?.bookings.length === 0 && <li>{text.noBookings}</li>}
        {list.data?.bookings.map((booking) => (
          <li key={booking.id}>
            <span class="entry-text">{fmt.day(booking.date)} {booking.date.slice(0, 4)} · {booking.kind === 'payout' ? text.payout : text.correction} {fmt.balance(booking.minutes)}{booking.note && ` · ${booking.note}`}</span>
            <button type="button" disabled={action.busy} aria-label={text.removeBooking(booking.date)} onClick={() => remove(booking)}>{t().absences.remove}</button>
          </li>
        ))}
      </ul>
    </>
  );
}

function PasswordChange() {
  const text = t().settings;
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    if (newPassword !== repeat) return action.fail(text.notSame, 'repeat');
    void action.run(async () => {
      await api('POST', '/api/auth/change-password', { old_password: oldPassword, new_password: newPassword });
      setOldPassword('');
      setNewPassword('');
      setRepeat('');
      return text.passwordChanged;
    });
  };
  return (
    <form ref={action.formRef} onSubmit={submit}>
      <Notice error={action.error} info={action.info} errorRef={action.errorRef} />
      <Field label={text.currentPassword} name="old_password" type="password" value={oldPassword} onInput={setOldPassword} autocomplete="current-password" required />
      <Field label={t().auth.newPassword} name="new_password" error={action.fieldErrors.new_password} type="password" value={newPassword} onInput={setNewPassword} autocomplete="new-password" required minLength={8} />
      <Field label={t().auth.newPasswordAgain} name="repeat" error={action.fieldErrors.repeat} type="password" value={repeat} onInput={setRepeat} autocomplete="new-password" required minLength={8} />
      <button type="submit" class="primary" disabled={action.busy}>{text.changePassword}</button>
    </form>
  );
}

export async function signOut(): Promise<void> {
  try {
    await api('POST', '/api/auth/logout');
  } catch {
    // Signed out locally whatever the server says: the token is deleted below.
  }
  endSession(t().auth.signedOut);
}

export function SettingsView() {
  const text = t().settings;
  const download = useDownload();
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>{t().tabs.settings}</h2>
      <div class="field">
        <label for="language">{text.language}</label>
        <select id="language" value={language.value} onChange={(event) => chooseLanguage(event.currentTarget.value as Language)}>
          {LANGUAGES.map((code) => <option key={code} value={code} lang={code}>{LANGUAGE_NAMES[code]}</option>)}
        </select>
      </div>
      {settings.value && <SettingsForm key={language.value} current={settings.value} />}
      <Bookings />
      <h3>{text.changePassword}</h3>
      <PasswordChange />
      <TwoFactorSettings />
      <h3>{t().security.sessions}</h3>
      <SessionList />
      <ApiTokens />
      <h3>{text.yourData}</h3>
      <Notice error={download.error} />
      <p class="actions">
        <button type="button" onClick={() => void download.fetchAndSave(downloadExport)}>{text.downloadCsv}</button>
        <button type="button" onClick={() => void download.fetchAndSave(downloadAccountData)}>{text.downloadAll}</button>
        {download.file && <a href={download.file.url} download={download.file.name}>{text.saveAgain(download.file.name)}</a>}
      </p>
      <h3>{text.session}</h3>
      <button type="button" onClick={signOut}>{t().signOut}</button>
      <CloseAccount />
    </section>
  );
}

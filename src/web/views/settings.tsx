// Settings: language, time zone (a search over the zone list), weekly targets in hours (decimals too),
// holiday region (a list of the regions the calendar knows), overtime carried over, tracking start;
// password change; two-factor sign-in; where the account is signed in; API tokens; the CSV export and
// the account document; sign-out; closing the account.
import { useMemo, useState } from 'preact/hooks';
import type { HolidayRegions, Settings, Weekday } from '../../http/contract.js';
import { api, describe, downloadAccountData, downloadExport, endSession } from '../api.js';
import { formatHours, formatMinutes, parseDuration } from '../duration.js';
import { chooseLanguage, language, LANGUAGES, t, type Language } from '../i18n/index.js';
import { en } from '../i18n/en.js';
import { de } from '../i18n/de.js';
import { announcement, browserZone, settings, useLoad } from '../state.js';
import { Field, Notice, useAction } from '../ui.js';
import { ApiTokens } from './api-tokens.js';
import { CloseAccount } from './close-account.js';
import { SessionList } from './security.js';
import { TwoFactorSettings } from './two-factor-settings.js';

const WEEKDAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const LANGUAGE_NAMES: Record<Language, string> = { en: en.language, de: de.language };

function SettingsForm(props: { current: Settings }) {
  const text = t().settings;
  const separator = language.value === 'de' ? ',' : '.';
  const suggestZone = props.current.timezone === 'UTC' && browserZone && browserZone !== 'UTC';
  const [timezone, setTimezone] = useState(suggestZone ? browserZone : props.current.timezone);
  const [targets, setTargets] = useState(() => Object.fromEntries(WEEKDAYS.map((d) => [d, formatHours(props.current.weekly_target_minutes[d], separator)])));
  const [region, setRegion] = useState(props.current.holiday_region ?? '');
  const [offset, setOffset] = useState(formatMinutes(props.current.overtime_offset_minutes));
  const [trackingStart, setTrackingStart] = useState(props.current.tracking_start);
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
    void action.run(async () => {
      settings.value = await api<Settings>('PATCH', '/api/settings', {
        timezone,
        weekly_target_minutes: weekly,
        holiday_region: region || null,
        overtime_offset_minutes: offsetMinutes,
        tracking_start: trackingStart,
      });
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
      <button type="submit" class="primary" disabled={action.busy}>{text.save}</button>
    </form>
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
  const [download, setDownload] = useState<{ url: string; name: string }>();
  const [error, setError] = useState<string>();
  const saveFile = async (fetchFile: () => Promise<{ url: string; name: string }>) => {
    setError(undefined);
    try {
      const file = await fetchFile();
      setDownload(file);
      const link = document.createElement('a');
      link.href = file.url;
      link.download = file.name;
      link.click();
    } catch (failure) {
      setError(describe(failure));
    }
  };
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
      <h3>{text.changePassword}</h3>
      <PasswordChange />
      <TwoFactorSettings />
      <h3>{t().security.sessions}</h3>
      <SessionList />
      <ApiTokens />
      <h3>{text.yourData}</h3>
      <Notice error={error} />
      <p class="actions">
        <button type="button" onClick={() => void saveFile(downloadExport)}>{text.downloadCsv}</button>
        <button type="button" onClick={() => void saveFile(downloadAccountData)}>{text.downloadAll}</button>
        {download && <a href={download.url} download={download.name}>{text.saveAgain(download.name)}</a>}
      </p>
      <h3>{text.session}</h3>
      <button type="button" onClick={signOut}>{t().signOut}</button>
      <CloseAccount />
    </section>
  );
}

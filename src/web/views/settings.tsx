// Settings: language; the working-time account (settings-form.tsx); bookings on the balance; password
// change; two-factor sign-in; where the account is signed in; API tokens; the CSV export and the account
// document; sign-out; closing the account.
import { downloadAccountData, downloadExport } from '../api.js';
import { chooseLanguage, language, LANGUAGES, t, type Language } from '../i18n/index.js';
import { en } from '../i18n/en.js';
import { de } from '../i18n/de.js';
import { signOut } from '../sign-out.js';
import { settings } from '../state.js';
import { Notice, useDownload } from '../ui.js';
import { ApiTokens } from './api-tokens.js';
import { Bookings } from './bookings.js';
import { CloseAccount } from './close-account.js';
import { PasswordChange } from './password-change.js';
import { SessionList } from './security.js';
import { SettingsForm } from './settings-form.js';
import { TwoFactorSettings } from './two-factor-settings.js';

const LANGUAGE_NAMES: Record<Language, string> = { en: en.language, de: de.language };

export function SettingsView() {
  const text = t().settings;
  const download = useDownload();
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.settings}
      </h2>
      <div class="field">
        <label for="language">{text.language}</label>
        <select id="language" value={language.value} onChange={(event) => chooseLanguage(event.currentTarget.value as Language)}>
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
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
        <button type="button" onClick={() => void download.fetchAndSave(downloadExport)}>
          {text.downloadCsv}
        </button>
        <button type="button" onClick={() => void download.fetchAndSave(downloadAccountData)}>
          {text.downloadAll}
        </button>
        {download.file && (
          <a href={download.file.url} download={download.file.name}>
            {text.saveAgain(download.file.name)}
          </a>
        )}
      </p>
      <h3>{text.session}</h3>
      <button type="button" onClick={signOut}>
        {t().signOut}
      </button>
      <CloseAccount />
    </section>
  );
}

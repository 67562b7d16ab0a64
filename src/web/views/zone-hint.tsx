// Today's hint when the device is in another zone than the account: "Use <zone>" asks from when
// (./zone-choice.tsx), then saves, and the confirmation takes the focus where the hint was.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { t } from '../i18n/index.js';
import { browserZone, settings, zone } from '../state.js';
import { Notice, useAction } from '../ui.js';
import { zoneChange, ZoneConfirmation, ZoneFromChoice, type ZoneFrom } from './zone-choice.js';

export function ZoneHint(props: { onSwitched: () => Promise<void> }) {
  const text = t().today;
  const zoneAction = useAction();
  const [asking, setAsking] = useState(false);
  const [from, setFrom] = useState<ZoneFrom>('today');
  const [confirmed, setConfirmed] = useState<string>();
  // The latest zone counts: a change from today in a zone east of the account's starts at its next midnight.
  const latest = settings.value?.zones.at(-1)?.timezone ?? zone();
  const save = () =>
    zoneAction.run(async () => {
      settings.value = await api('PATCH /api/settings', { body: zoneChange(browserZone, from, settings.value?.tracking_start ?? '1970-01-01') });
      setAsking(false);
      await props.onSwitched();
      setConfirmed(from === 'all' ? text.zoneSwitchedAll(browserZone) : text.zoneSwitched(browserZone));
      return undefined;
    });
  return (
    <>
      {browserZone && browserZone !== latest && (
        <div class="quiet">
          <p>
            {text.zoneDiffers(browserZone, zone())}{' '}
            {!asking && (
              <button type="button" class="link" onClick={() => (setConfirmed(undefined), setAsking(true))}>
                {text.useZone(browserZone)}
              </button>
            )}
          </p>
          {asking && (
            <>
              <ZoneFromChoice name="zone-from" value={from} onChange={setFrom} />
              <button type="button" class="primary" disabled={zoneAction.busy} onClick={save}>
                {text.useZone(browserZone)}
              </button>{' '}
              <button type="button" class="link" onClick={() => setAsking(false)}>
                {text.keepZone}
              </button>
            </>
          )}
        </div>
      )}
      <ZoneConfirmation message={confirmed} />
      <Notice error={zoneAction.error} errorRef={zoneAction.errorRef} />
    </>
  );
}

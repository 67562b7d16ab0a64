// Settings → Two-factor sign-in (docs/web-client.md): set it up (the password, then the QR code and the
// key as text, a code to confirm, the recovery codes once with "I have saved the codes"), turn it off
// (password and a code), make new recovery codes (password and a code; shown once). Focus goes to the
// heading of each new step, and back to the section's heading with the result announced.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TwoFactorSetup as SetupAnswer, TwoFactorStatus } from '../../http/contract.js';
import { api, currentUser } from '../api.js';
import { t } from '../i18n/index.js';
import { focusSoon, securityChanged, useLoad } from '../state.js';
import { RecoveryCodes, TwoFactorSetup } from '../two-factor.js';
import { ReauthenticationFields, useReauthentication } from '../password-fields.js';
import { Field, Notice, useAction, type Action } from '../ui.js';

type Step =
  | { kind: 'idle' }
  | { kind: 'password' }
  | { kind: 'scan'; setup: SetupAnswer }
  | { kind: 'disable' }
  | { kind: 'regenerate' }
  | { kind: 'codes'; codes: string[] };

/** Fewer recovery codes than this left: the section suggests new ones. */
const FEW_CODES = 3;

/** A heading for a step that takes focus when it appears (keyboard and screen-reader users land on it). */
function StepHeading(props: { children: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h4 tabIndex={-1} ref={heading}>
      {props.children}
    </h4>
  );
}

/** The password and a code, for turning it off or making new recovery codes. */
function PasswordAndCode(props: {
  title: string;
  note: string;
  submitLabel: string;
  danger?: boolean;
  send: (proof: { password: string; code: string }) => Promise<string | void>;
  onCancel: () => void;
}) {
  const text = t().twoFactor;
  const reauthentication = useReauthentication(true);
  const action = useAction();
  return (
    <div class="step">
      <StepHeading>{props.title}</StepHeading>
      <p>{props.note}</p>
      <Notice error={action.error} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={(event) => (event.preventDefault(), action.run(() => props.send({ code: '', ...reauthentication.proof() })))}>
        <ReauthenticationFields state={reauthentication} errors={action.fieldErrors} />
        <p class="actions">
          <button type="submit" class={props.danger ? 'danger' : 'primary'} disabled={action.busy}>
            {props.submitLabel}
          </button>
          <button type="button" onClick={props.onCancel}>
            {text.cancel}
          </button>
        </p>
      </form>
    </div>
  );
}

/** Whether it is on, how many recovery codes are left, and the buttons to change it. */
function StatusPanel(props: { status: TwoFactorStatus; done: string | undefined; open: (step: Step) => void }) {
  const text = t().twoFactor;
  const { status, open } = props;
  const enabled = status.enabled;
  return (
    <>
      <p>{enabled ? text.isOn(status.recovery_codes_remaining) : text.isOff}</p>
      <Notice info={props.done} />
      {enabled && status.recovery_codes_remaining < FEW_CODES && <p class="notice info">{text.fewCodesLeft}</p>}
      {enabled && status.required && <p>{text.requiredByServer}</p>}
      <p class="actions">
        {enabled ? (
          <>
            <button type="button" onClick={() => open({ kind: 'regenerate' })}>
              {text.newCodes}
            </button>
            {!status.required && (
              <button type="button" class="danger" onClick={() => open({ kind: 'disable' })}>
                {text.turnOff}
              </button>
            )}
          </>
        ) : (
          <button type="button" class="primary" onClick={() => open({ kind: 'password' })}>
            {text.setUp}
          </button>
        )}
      </p>
    </>
  );
}

/** Setting it up begins with the current password; the answer is the key to scan. */
function PasswordStep(props: {
  action: Action;
  password: string;
  setPassword: (password: string) => void;
  onSetup: (setup: SetupAnswer) => void;
  onCancel: () => void;
}) {
  const text = t().twoFactor;
  const { action: start, password } = props;
  return (
    <div class="step">
      <StepHeading>{text.setUp}</StepHeading>
      <p>{text.passwordToBegin}</p>
      <Notice error={start.error} errorRef={start.errorRef} />
      <form
        ref={start.formRef}
        onSubmit={(event) => (event.preventDefault(), start.run(async () => props.onSetup(await api('POST /api/auth/2fa/setup', { body: { password } }))))}
      >
        <Field
          label={t().settings.currentPassword}
          name="password"
          type="password"
          value={password}
          onInput={props.setPassword}
          autocomplete="current-password"
          required
          error={start.fieldErrors.password}
        />
        <p class="actions">
          <button type="submit" class="primary" disabled={start.busy}>
            {text.continue}
          </button>
          <button type="button" onClick={props.onCancel}>
            {text.cancel}
          </button>
        </p>
      </form>
    </div>
  );
}

/** The key as a QR code and as text, a code to confirm, then the recovery codes once. */
function ScanStep(props: { setup: SetupAnswer; email: string; onDone: () => void; onCancel: () => void }) {
  return (
    <div class="step">
      <StepHeading>{t().twoFactor.setUp}</StepHeading>
      <TwoFactorSetup
        setup={props.setup}
        email={props.email}
        level={4}
        finish={async (code) => {
          const { recovery_codes } = await api('POST /api/auth/2fa/enable', { body: { code } });
          // Every other session ended: the list of devices says so.
          securityChanged();
          return recovery_codes;
        }}
        onDone={props.onDone}
        onCancel={props.onCancel}
      />
    </div>
  );
}

export function TwoFactorSettings() {
  const text = t().twoFactor;
  const status = useLoad(() => api('GET /api/auth/2fa'), []);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [done, setDone] = useState<string>();
  const [password, setPassword] = useState('');
  const start = useAction();
  const email = currentUser.value?.email ?? '';

  /** Back to the section with the result said, focus on the section's heading. */
  const finish = (message?: string) => {
    setStep({ kind: 'idle' });
    setDone(message);
    setPassword('');
    void status.reload();
    focusSoon('#two-factor-title');
  };
  const open = (next: Step) => {
    setDone(undefined);
    setStep(next);
  };

  return (
    <section aria-labelledby="two-factor-title" class="account-section">
      <h3 id="two-factor-title" tabIndex={-1}>
        {text.settingsTitle}
      </h3>
      <Notice error={status.error} />
      {status.data && step.kind === 'idle' && <StatusPanel status={status.data} done={done} open={open} />}
      {step.kind === 'password' && (
        <PasswordStep
          action={start}
          password={password}
          setPassword={setPassword}
          onSetup={(setup) => setStep({ kind: 'scan', setup })}
          onCancel={() => finish()}
        />
      )}
      {step.kind === 'scan' && <ScanStep setup={step.setup} email={email} onDone={() => finish(text.turnedOn)} onCancel={() => finish()} />}
      {step.kind === 'disable' && (
        <PasswordAndCode
          title={text.turnOff}
          note={text.turnOffNote}
          submitLabel={text.turnOff}
          danger
          onCancel={() => finish()}
          send={async (proof) => {
            await api('POST /api/auth/2fa/disable', { body: proof });
            securityChanged();
            finish(text.turnedOff);
          }}
        />
      )}
      {step.kind === 'regenerate' && (
        <PasswordAndCode
          title={text.newCodes}
          note={text.newCodesNote}
          submitLabel={text.makeCodes}
          onCancel={() => finish()}
          send={async (proof) => {
            const { recovery_codes } = await api('POST /api/auth/2fa/recovery-codes', { body: proof });
            setStep({ kind: 'codes', codes: recovery_codes });
          }}
        />
      )}
      {step.kind === 'codes' && (
        <div class="step">
          <p role="status" class="notice info">
            {text.newCodesMade}
          </p>
          <RecoveryCodes codes={step.codes} email={email} level={4} />
          <button type="button" class="primary" onClick={() => finish(text.newCodesMade)}>
            {text.savedCodes}
          </button>
        </div>
      )}
    </section>
  );
}

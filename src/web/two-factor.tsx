// Two-factor sign-in in the client (docs/web-client.md): the QR code (drawn here from the otpauth URI by
// uqr, as SVG: no outside service ever sees the secret), the set-up steps, the recovery codes with a
// download as a text file, and the code step of sign-in (one field, autocomplete="one-time-code", a
// link to use a recovery code instead).
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { encode } from 'uqr';
import { t } from './i18n/index.js';
import { Field, Notice, useAction } from './ui.js';

/** The QR code of an otpauth URI as one SVG path, with the URI's purpose as its accessible name. */
export function QrCode(props: { value: string; label: string }) {
  const path = useMemo(() => {
    const { data } = encode(props.value, { ecc: 'M', border: 2 });
    let d = '';
    data.forEach((row, y) => row.forEach((dark, x) => dark && (d += `M${x},${y}h1v1h-1z`)));
    return { d, size: data.length };
  }, [props.value]);
  return (
    <svg class="qr" role="img" aria-label={props.label} viewBox={`0 0 ${path.size} ${path.size}`} width="200" height="200" shape-rendering="crispEdges">
      <rect width={path.size} height={path.size} fill="#fff" />
      <path d={path.d} fill="#000" />
    </svg>
  );
}

/** The recovery codes, shown once, with a download as a text file; focus goes to their heading. */
export function RecoveryCodes(props: { codes: string[]; email: string; level?: 2 | 4 }) {
  const text = t().twoFactor;
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const Heading = props.level === 4 ? 'h4' : 'h2';
  const download = () => {
    const body = `${text.codesFileTitle(props.email)}\n\n${props.codes.join('\n')}\n\n${text.codesFileNote}\n`;
    const url = URL.createObjectURL(new Blob([body], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'timetrack-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <section aria-labelledby={id} class="recovery-codes">
      <Heading id={id} tabIndex={-1} ref={heading}>
        {text.recoveryCodesTitle}
      </Heading>
      <p>{text.recoveryCodesNote}</p>
      <ul class="codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" onClick={download}>
        {text.downloadCodes}
      </button>
    </section>
  );
}

/** The set-up: QR code and secret, then a code; `finish` answers the recovery codes. */
export function TwoFactorSetup(props: {
  setup: { secret: string; otpauth_uri: string };
  email: string;
  finish: (code: string) => Promise<string[]>;
  onDone: () => void;
  /** Settings: a way back, and the codes' heading one level below the section's. */
  onCancel?: () => void;
  level?: 2 | 4;
}) {
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[]>();
  const action = useAction();
  const text = t().twoFactor;
  if (codes) {
    return (
      <div>
        <p role="status" class="notice info">
          {text.enabled}
        </p>
        <RecoveryCodes codes={codes} email={props.email} level={props.level} />
        <button type="button" class="primary" onClick={props.onDone}>
          {text.savedCodes}
        </button>
      </div>
    );
  }
  return (
    <div class="two-factor-setup">
      <p>{text.scan}</p>
      <QrCode value={props.setup.otpauth_uri} label={text.qrLabel} />
      <p>{text.orType}</p>
      {/* Groups of four that never break inside: easier to read out and to type. */}
      <p>
        <code class="secret">{props.setup.secret.match(/.{1,4}/g)?.flatMap((group, index) => [index > 0 ? ' ' : '', <span key={index}>{group}</span>])}</code>
      </p>
      <Notice error={action.error} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={(event) => (event.preventDefault(), action.run(async () => setCodes(await props.finish(code.trim()))))}>
        <Field label={text.codeFromApp} name="code" value={code} onInput={setCode} autocomplete="one-time-code" inputMode="numeric" required />
        <p class="actions">
          <button type="submit" class="primary" disabled={action.busy}>
            {text.turnOn}
          </button>
          {props.onCancel && (
            <button type="button" onClick={props.onCancel}>
              {text.cancel}
            </button>
          )}
        </p>
      </form>
    </div>
  );
}

/** The code step of sign-in: one field; a link switches it to a recovery code. */
export function CodeStep(props: { submit: (code: string) => Promise<void>; back: () => void }) {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const action = useAction();
  const text = t().twoFactor;
  return (
    <>
      <p>{recovery ? text.enterRecoveryCode : text.enterCode}</p>
      <Notice error={action.error} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={(event) => (event.preventDefault(), action.run(() => props.submit(code.trim())))}>
        {recovery ? (
          <Field key="recovery" label={text.recoveryCode} name="code" value={code} onInput={setCode} autocomplete="off" required />
        ) : (
          <Field key="code" label={text.codeFromApp} name="code" value={code} onInput={setCode} autocomplete="one-time-code" inputMode="numeric" required />
        )}
        <button type="submit" class="primary" disabled={action.busy}>
          {text.verify}
        </button>
      </form>
      <p>
        <button type="button" class="link" onClick={() => (setRecovery(!recovery), setCode(''))}>
          {recovery ? text.useApp : text.useRecoveryCode}
        </button>
        {' · '}
        <button type="button" class="link" onClick={props.back}>
          {t().auth.backToSignIn}
        </button>
      </p>
    </>
  );
}

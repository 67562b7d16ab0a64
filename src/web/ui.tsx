// Shared pieces: labelled fields (with the error beside them), status messages, the page frame, and
// useAction, the one way a button sends a request (busy while it runs, one request per click, the
// error beside its field or in the alert, focused).
import type { ComponentChildren, RefObject } from 'preact';
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, describe, saveFile } from './api.js';
import type { FieldName } from './i18n/en.js';
import { t } from './i18n/index.js';
import { focusUntouched } from './state.js';

export function Field(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'date' | 'time' | 'search';
  autocomplete?: string;
  required?: boolean;
  list?: string;
  hint?: string;
  minLength?: number;
  error?: string | undefined;
  inputMode?: 'decimal' | 'numeric' | 'text';
  /** Marks the input so that a failed action can focus it (useAction's `fields`). */
  name?: string;
}) {
  const id = useId();
  const described = [props.error ? `${id}-error` : '', props.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div class={props.error ? 'field invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required}
        list={props.list}
        minLength={props.minLength}
        inputMode={props.inputMode}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      {props.error && (
        <p class="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      )}
      {props.hint && <small id={`${id}-hint`}>{props.hint}</small>}
    </div>
  );
}

/** A message that screen readers announce: an error (alert) or a plain status. */
export function Notice(props: { error?: string | undefined; info?: string | undefined; errorRef?: RefObject<HTMLDivElement | null> }) {
  return (
    <>
      <div role="alert" tabIndex={-1} ref={props.errorRef} class={props.error ? 'notice error' : 'notice-empty'}>
        {props.error}
      </div>
      <div role="status" class={props.info ? 'notice info' : 'notice-empty'}>
        {props.info}
      </div>
    </>
  );
}

export function AuthFrame(props: { title: string; children: ComponentChildren }) {
  return (
    <main class="auth" id="content">
      <p class="brand">{t().brand}</p>
      <h1 tabIndex={-1}>{props.title}</h1>
      {props.children}
    </main>
  );
}

/** An in-app link that does not reload the page. */
export function Link(props: { href: string; children: ComponentChildren; onNavigate: (href: string) => void }) {
  return (
    <a
      href={props.href}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        props.onNavigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}

/** The form field an API field name belongs to ("weekly_target_minutes.mon" → "weekly_target_minutes.mon" input, sentence "weekly_target"). */
function sentenceOf(field: string): string {
  const fields = t().fields as Record<FieldName, string>;
  const base = field.startsWith('weekly_target_minutes') ? 'weekly_target' : (field.split('.')[0] ?? field);
  return (fields as Record<string, string | undefined>)[base] ?? t().errors.VALIDATION_ERROR;
}

interface RunOptions {
  /** A sentence of the action's own for a failure (shown in the alert); undefined: the catalog's. */
  describeFailure?: (error: unknown) => string | undefined;
  /** A failure that belongs to one field (a name or an address that is taken): its sentence beside that field, focused. */
  fieldFailure?: (error: unknown) => { field: string; message: string } | undefined;
}

export interface Action {
  busy: boolean;
  error: string | undefined;
  info: string | undefined;
  /** Error sentences by field name (the input's `name`). */
  fieldErrors: Record<string, string>;
  errorRef: RefObject<HTMLDivElement | null>;
  formRef: RefObject<HTMLFormElement | null>;
  /** Runs `work` unless a request of this action is still running; the failure shows beside its field or in the alert, focused. */
  run: (work: () => Promise<string | void>, options?: RunOptions) => Promise<boolean>;
  /** A failure found before any request (the client's own check): beside `field`, or in the alert. */
  fail: (message: string, field?: string) => void;
  setInfo: (info: string | undefined) => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const running = useRef(false);
  const errorRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // The failure is focused in the same commit that shows its sentence (a layout effect), not a frame
  // later: whoever sees the sentence, a person or a test, finds focus already on it.
  const pendingFocus = useRef<{ before: Element | null; field: string | undefined } | undefined>(undefined);
  const [failures, setFailures] = useState(0);
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending) return;
    pendingFocus.current = undefined;
    if (!focusUntouched(pending.before)) return;
    const input = pending.field ? formRef.current?.querySelector<HTMLElement>(`[name="${CSS.escape(pending.field)}"]`) : null;
    (input ?? errorRef.current)?.focus();
  }, [failures]);

  const focusFailure = (field?: string) => {
    pendingFocus.current = { before: document.activeElement, field };
    setFailures((count) => count + 1);
  };

  const fail = (message: string, field?: string) => {
    const hasInput = field !== undefined && formRef.current?.querySelector(`[name="${CSS.escape(field)}"]`) != null;
    setFieldErrors(hasInput ? { [field]: message } : {});
    setError(hasInput ? undefined : message);
    setInfo(undefined);
    focusFailure(hasInput ? field : undefined);
  };

  const run: Action['run'] = async (work, options = {}) => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    setInfo(undefined);
    try {
      const done = await work();
      if (done) setInfo(done);
      return true;
    } catch (failure) {
      const onField = options.fieldFailure?.(failure);
      if (onField) {
        fail(onField.message, onField.field);
        return false;
      }
      const special = options.describeFailure?.(failure);
      const field = failure instanceof ApiError ? failure.failure.details?.[0]?.field : undefined;
      if (!special && field !== undefined) fail(sentenceOf(field), field);
      else fail(special ?? describe(failure));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  return { busy, error, info, fieldErrors, errorRef, formRef, run, fail, setInfo };
}

/**
 * A file fetched and saved at once (Settings' exports, the export before closing the account): the
 * last one is kept for "save again", a failure is its sentence.
 */
export function useDownload() {
  const [file, setFile] = useState<{ url: string; name: string }>();
  const [error, setError] = useState<string>();
  const fetchAndSave = async (fetchFile: () => Promise<{ url: string; name: string }>): Promise<void> => {
    setError(undefined);
    try {
      const fetched = await fetchFile();
      setFile(fetched);
      saveFile(fetched);
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return { file, error, fetchAndSave };
}

/**
 * Calls `onEscape` when Escape is pressed anywhere while `open` holds (a confirmation that Escape
 * closes). The listener is added as the confirmation renders (a layout effect), not after the next
 * paint as useEffect would: an Escape pressed the moment the confirmation shows is never lost.
 */
export function useEscape(open: boolean, onEscape: () => void): void {
  const latest = useRef(onEscape);
  latest.current = onEscape;
  useLayoutEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent) => event.key === 'Escape' && latest.current();
    addEventListener('keydown', close);
    return () => removeEventListener('keydown', close);
  }, [open]);
}

/**
 * Copy a secret shown once (a new API token, an invitation's link): on the clipboard, or where there is
 * none (a page over plain HTTP on another machine) the shown text selected for Ctrl+C. `value` is the
 * element that shows it; `copied` the sentence to show (an error when it could only be selected).
 */
export function useCopy(text: string, sentences: { copied: string; copyFailed: string }) {
  const value = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<{ ok: boolean; message: string }>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied({ ok: true, message: sentences.copied });
    } catch {
      const range = document.createRange();
      if (value.current) range.selectNodeContents(value.current);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      setCopied({ ok: false, message: sentences.copyFailed });
    }
  };
  return { value, copied, copy };
}

// Shared pieces: labelled fields, status messages, the page frame.
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export function Field(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'date' | 'datetime-local';
  autocomplete?: string;
  required?: boolean;
  list?: string;
  hint?: string;
  minLength?: number;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required}
        list={props.list}
        minLength={props.minLength}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      {props.hint && <small id={`${id}-hint`}>{props.hint}</small>}
    </div>
  );
}

/** A message that screen readers announce: an error (alert) or a plain status. */
export function Notice(props: { error?: string | undefined; info?: string | undefined }) {
  return (
    <>
      <div role="alert" class={props.error ? 'notice error' : 'notice-empty'}>{props.error}</div>
      <div role="status" class={props.info ? 'notice info' : 'notice-empty'}>{props.info}</div>
    </>
  );
}

export function AuthFrame(props: { title: string; children: ComponentChildren }) {
  return (
    <main class="auth">
      <p class="brand">timetrack</p>
      <h1>{props.title}</h1>
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

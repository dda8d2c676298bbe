// Small shared components. Every input has a visible label; notices use role="status" (polite)
// or role="alert" (errors); dialogs are native <dialog> elements (focus trap, Escape, inert page).
import { useEffect, useRef, useState, useId } from 'preact/hooks';
import { html } from './html.js';

export { html };

export function Button({ kind = 'secondary', type = 'button', busy = false, disabled, children, class: extra = '', ...rest }) {
  return html`<button type=${type} class=${`btn btn-${kind} ${extra}`} disabled=${disabled || busy} aria-busy=${busy ? 'true' : undefined} ...${rest}>${children}</button>`;
}

/** A labelled input. hint is read with the field (aria-describedby); error marks it invalid. */
export function Field({ label, hint, error, id: givenId, children, ...input }) {
  const autoId = useId();
  const id = givenId ?? `f${autoId}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    ${children ? children({ id, describedBy }) : html`<input id=${id} aria-describedby=${describedBy} aria-invalid=${error ? 'true' : undefined} ...${input} />`}
    ${hint && html`<p class="hint" id=${hintId}>${hint}</p>`}
    ${error && html`<p class="field-error" id=${errorId}>${error}</p>`}
  </div>`;
}

export function SelectField({ label, hint, value, onChange, options, ...rest }) {
  return html`<${Field} label=${label} hint=${hint}>${({ id, describedBy }) => html`
    <select id=${id} aria-describedby=${describedBy} value=${value} onChange=${(event) => onChange(event.currentTarget.value)} ...${rest}>
      ${options.map((option) => html`<option value=${option.value} selected=${option.value === value}>${option.label}</option>`)}
    </select>`}<//>`;
}

/** An on/off setting: a checkbox with role="switch", its label and a description. */
export function Switch({ label, description, checked, onChange, disabled }) {
  const id = `s${useId()}`;
  return html`<div class="switch-row">
    <input type="checkbox" role="switch" id=${id} checked=${checked} disabled=${disabled}
      aria-describedby=${description ? `${id}-d` : undefined} onChange=${(event) => onChange(event.currentTarget.checked)} />
    <label for=${id}>${label}</label>
    ${description && html`<p class="hint" id=${`${id}-d`}>${description}</p>`}
  </div>`;
}

/** kind: info | success | error | warning. Errors are announced at once (role=alert). */
export function Notice({ kind = 'info', children, class: extra = '' }) {
  if (!children) return null;
  return html`<div class=${`notice notice-${kind} ${extra}`} role=${kind === 'error' ? 'alert' : 'status'}>${children}</div>`;
}

export function ErrorNotice({ error }) {
  if (!error) return null;
  return html`<${Notice} kind="error">${messageOf(error)}<//>`;
}

export function messageOf(error) {
  if (!error) return '';
  if (typeof error === 'string') return error;
  const detail = error.details?.field ? ` (${error.details.field})` : '';
  return `${error.message}${detail}`;
}

export function Loading({ label = 'Loading…' }) {
  return html`<p class="loading" role="status"><span class="spinner" aria-hidden="true"></span>${label}</p>`;
}

export function Section({ title, description, actions, children, id }) {
  const headingId = id ?? `h${useId()}`;
  return html`<section class="card" aria-labelledby=${headingId}>
    <div class="card-head">
      <div><h2 id=${headingId}>${title}</h2>${description && html`<p class="muted">${description}</p>`}</div>
      ${actions && html`<div class="card-actions">${actions}</div>`}
    </div>
    ${children}
  </section>`;
}

export function PageHeader({ title, children }) {
  return html`<div class="page-head"><h1 tabindex="-1" data-page-title>${title}</h1>${children && html`<div class="page-actions">${children}</div>`}</div>`;
}

/** A table with a caption (visually hidden unless shown) and scroll on narrow screens. */
export function Table({ caption, showCaption = false, columns, rows, rowKey, empty = 'Nothing here yet.' }) {
  return html`<div class="table-wrap" role="region" aria-label=${caption} tabindex="0">
    <table>
      <caption class=${showCaption ? '' : 'visually-hidden'}>${caption}</caption>
      <thead><tr>${columns.map((column) => html`<th scope="col" class=${column.numeric ? 'num' : ''}>${column.label}</th>`)}</tr></thead>
      <tbody>
        ${rows.length === 0 && html`<tr><td colspan=${columns.length} class="empty">${empty}</td></tr>`}
        ${rows.map((row, index) => html`<tr key=${rowKey ? rowKey(row) : index}>
          ${columns.map((column) => html`<td class=${column.numeric ? 'num' : ''} data-label=${column.label}>${column.render ? column.render(row) : row[column.key]}</td>`)}
        </tr>`)}
      </tbody>
    </table>
  </div>`;
}

/**
 * A modal dialog (native <dialog>): open it by rendering it with open=true. onClose runs on
 * Escape, the close button or a cancel. Focus returns to what had it before.
 */
export function Dialog({ open, title, onClose, children, footer }) {
  const ref = useRef(null);
  const headingId = `d${useId()}`;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    if (open && !dialog.open) {
      const previous = document.activeElement;
      dialog.showModal();
      return () => previous?.focus?.();
    }
    if (!open && dialog.open) dialog.close();
    return undefined;
  }, [open]);
  return html`<dialog ref=${ref} class="dialog" aria-labelledby=${headingId} onCancel=${(event) => { event.preventDefault(); onClose?.(); }}>
    ${open && html`<div class="dialog-body">
      <h2 id=${headingId}>${title}</h2>
      ${children}
      ${footer && html`<div class="dialog-actions">${footer}</div>`}
    </div>`}
  </dialog>`;
}

/** Asks before a destructive action. */
export function ConfirmDialog({ open, title, message, confirmLabel = 'Confirm', onConfirm, onClose }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return html`<${Dialog} open=${open} title=${title} onClose=${onClose} footer=${html`
      <${Button} onClick=${onClose}>Cancel<//>
      <${Button} kind="danger" busy=${busy} onClick=${confirm}>${confirmLabel}<//>`}>
    <p>${message}</p>
    <${ErrorNotice} error=${error} />
  <//>`;
}

/** Copies text to the clipboard and says so (politely, for screen readers too). */
export function CopyButton({ text, label = 'Copy' }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return html`<${Button} kind="secondary" class="btn-small" onClick=${copy}>${copied ? 'Copied' : label}<span class="visually-hidden" role="status">${copied ? 'Copied to the clipboard' : ''}</span><//>`;
}

/** A block of code or a secret with a copy button. */
export function CodeBlock({ code, label }) {
  return html`<div class="code-block">
    <pre tabindex="0" aria-label=${label}><code>${code}</code></pre>
    <${CopyButton} text=${code} label=${label ? `Copy ${label.toLowerCase()}` : 'Copy'} />
  </div>`;
}

/** A secret shown once, right after it was created. */
export function OneTimeSecret({ label, secret, onDone }) {
  return html`<div class="one-time" role="group" aria-label=${label}>
    <${Notice} kind="warning">Copy ${label.toLowerCase()} now: it is shown only once and cannot be retrieved later.<//>
    <div class="secret-row">
      <input readonly class="mono" aria-label=${label} value=${secret} onFocus=${(event) => event.currentTarget.select()} />
      <${CopyButton} text=${secret} />
    </div>
    ${onDone && html`<${Button} onClick=${onDone}>Done<//>`}
  </div>`;
}

/** Runs an async action with busy/error state, for forms. */
export function useAction(action) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = async (...args) => {
    setBusy(true);
    setError(null);
    try {
      return await action(...args);
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, setError };
}

/** Sets document.title and moves focus to the page heading after navigation. */
export function useTitle(title) {
  useEffect(() => {
    document.title = title ? `${title} · Sightline` : 'Sightline';
  }, [title]);
}

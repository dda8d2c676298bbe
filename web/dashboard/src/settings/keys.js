// SDK keys (public, for the tracking script and browser SDK) and private API keys (secret, for
// servers and the CLI): list (SDK keys whole: they are public), create with a one-time display
// of a private key, revoke with confirmation. Both use the same shapes
// (list_/create_/revoke_sdk_key and …_private_api_key).
import { useState } from 'preact/hooks';
import { html, Button, Field, Section, Table, Dialog, ConfirmDialog, ErrorNotice, Loading, OneTimeSecret, CopyButton, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { operation, useOperations } from '../data.js';
import { useProjectScope } from '../context.js';
import { formatDate } from '../format.js';

const kinds = {
  sdk: {
    list: (scope) => operation('list_sdk_keys', scope, { select: (body) => body.keys }),
    create: (scope, body) => api.call('create_sdk_key', { ...scope, ...body }),
    revoke: (scope, keyId) => api.call('revoke_sdk_key', { ...scope, keyId }),
    title: 'SDK keys',
    singular: 'SDK key',
    description: 'Public keys for the tracking script and the browser SDK. They only send events, so they can appear in your pages.',
  },
  private: {
    list: (scope) => operation('list_private_api_keys', scope, { select: (body) => body.keys }),
    create: (scope, body) => api.call('create_private_api_key', { ...scope, ...body }),
    revoke: (scope, keyId) => api.call('revoke_private_api_key', { ...scope, keyId }),
    title: 'Private API keys',
    singular: 'private API key',
    description: 'Secret keys for servers, log drains and the command line: they read reports and send server-side events. Keep them out of browsers.',
  },
};

export function KeysSection({ kind, onCreated }) {
  const spec = kinds[kind];
  const scope = useProjectScope();
  const { keys } = useOperations({ keys: spec.list(scope) });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState(null);
  const active = (keys.data ?? []).filter((key) => !key.revokedAt);

  const columns = [
    { key: 'name', label: 'Name', render: (key) => key.name || '—' },
    // An SDK key is public and given whole (but by an earlier release's); a private key never.
    { key: 'displayPrefix', label: 'Key', render: (key) => (key.key
      ? html`<span class="row"><code class="break">${key.key}</code><${CopyButton} text=${key.key} label=${`Copy ${key.name || 'key'}`} /></span>`
      : html`<code>${key.displayPrefix}…</code>`) },
    { key: 'createdAt', label: 'Created', render: (key) => formatDate(key.createdAt) },
    { key: 'actions', label: 'Actions', render: (key) => html`<${Button} kind="secondary" class="btn-small" onClick=${() => setRevoking(key)} aria-label=${`Revoke ${spec.singular} ${key.name || key.displayPrefix}`}>Revoke<//>` },
  ];
  return html`<${Section} title=${spec.title} description=${spec.description}
      actions=${html`<${Button} kind="primary" onClick=${() => setCreating(true)}>Create ${spec.singular}<//>`}>
    ${keys.loading && !keys.data ? html`<${Loading} />` : html`<${Table} caption=${spec.title} columns=${columns} rows=${active} rowKey=${(key) => key.id} empty=${`No ${spec.title.toLowerCase()} yet.`} />`}
    <${ErrorNotice} error=${keys.error} />
    <${CreateKeyDialog} open=${creating} spec=${spec} scope=${scope}
      onCreated=${(key) => { keys.reload(); onCreated?.(key); }} onClose=${() => setCreating(false)} />
    <${ConfirmDialog} open=${Boolean(revoking)} title=${`Revoke ${spec.singular}?`} confirmLabel="Revoke"
      message=${revoking && `“${revoking.name || revoking.displayPrefix}” (${revoking.displayPrefix}…) stops working at once. Anything still using it will be refused. This cannot be undone.`}
      onConfirm=${async () => { await spec.revoke(scope, revoking.id); keys.reload(); }}
      onClose=${() => setRevoking(null)} />
  <//>`;
}

/** Asks for a name, creates the key, then shows it once. */
function CreateKeyDialog({ open, spec, scope, onCreated, onClose }) {
  const [name, setName] = useState('');
  const [created, setCreated] = useState(null);
  const close = () => { setName(''); setCreated(null); onClose(); };
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    const key = await spec.create(scope, name.trim() ? { name: name.trim() } : {});
    setCreated(key);
    onCreated(key);
  });
  const label = spec.singular[0].toUpperCase() + spec.singular.slice(1);
  return html`<${Dialog} open=${open} title=${created ? `${label} created` : `Create ${spec.singular}`} onClose=${close}>
    ${created
      ? html`<${OneTimeSecret} label=${`New ${spec.singular}`} secret=${created.key} onDone=${close} />`
      : html`<form class="stack" onSubmit=${run}>
          <${Field} label="Key name" hint="So you recognise it later, e.g. “Marketing site” or “Billing server”." maxlength="100" value=${name} onInput=${(event) => setName(event.currentTarget.value)} />
          <${ErrorNotice} error=${error} />
          <div class="dialog-actions">
            <${Button} onClick=${close}>Cancel<//>
            <${Button} kind="primary" type="submit" busy=${busy}>Create<//>
          </div>
        </form>`}
  <//>`;
}

// Passkeys on /account: list, add (navigator.credentials.create with the server's options),
// rename and delete.
import { useState } from 'preact/hooks';
import { html, Button, Field, Section, Table, Dialog, ConfirmDialog, ErrorNotice, Notice, Loading, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { formatDate } from '../format.js';
import { createCredential, passkeyErrorMessage, passkeysSupported } from '../ui/webauthn.js';

export function PasskeysSection() {
  const passkeys = useOperation('list_passkeys', {}, { select: (body) => body.passkeys });
  const [label, setLabel] = useState('');
  const [renaming, setRenaming] = useState(null);
  const [deleting, setDeleting] = useState(null);
  const [added, setAdded] = useState(null);
  const add = useAction(async (event) => {
    event.preventDefault();
    setAdded(null);
    const options = await api.call('create_passkey_registration_options');
    let credential;
    try {
      credential = await createCredential(options.publicKey);
    } catch (error) {
      throw new Error(passkeyErrorMessage(error));
    }
    const passkey = await api.call('register_passkey', { challengeId: options.challengeId, label: label.trim() || undefined, credential });
    setLabel('');
    setAdded(passkey.label);
    passkeys.reload();
  });
  const columns = [
    { key: 'label', label: 'Name' },
    { key: 'algorithm', label: 'Key type' },
    { key: 'createdAt', label: 'Added', render: (passkey) => formatDate(passkey.createdAt) },
    { key: 'lastUsedAt', label: 'Last used', render: (passkey) => passkey.lastUsedAt ? formatDate(passkey.lastUsedAt) : 'Never' },
    { key: 'actions', label: 'Actions', render: (passkey) => html`<div class="row">
      <${Button} class="btn-small" onClick=${() => setRenaming(passkey)} aria-label=${`Rename passkey ${passkey.label}`}>Rename<//>
      <${Button} class="btn-small" onClick=${() => setDeleting(passkey)} aria-label=${`Delete passkey ${passkey.label}`}>Delete<//>
    </div>` },
  ];
  return html`<${Section} title="Passkeys" description="Sign in with your device's screen lock or a security key instead of a password. Passkeys cannot be phished.">
    <${ErrorNotice} error=${passkeys.error} />
    ${passkeys.data ? html`<${Table} caption="Passkeys" columns=${columns} rows=${passkeys.data} rowKey=${(passkey) => passkey.id} empty="No passkeys yet." />` : !passkeys.error && html`<${Loading} />`}
    ${passkeysSupported()
      ? html`<form class="row add-passkey" onSubmit=${add.run}>
          <${Field} label="Name for the new passkey" placeholder="e.g. Work laptop" maxlength="100" value=${label} onInput=${(event) => setLabel(event.currentTarget.value)} />
          <${Button} kind="primary" type="submit" busy=${add.busy}>Add a passkey<//>
        </form>`
      : html`<${Notice} kind="info">This browser does not support passkeys.<//>`}
    <${ErrorNotice} error=${add.error} />
    ${added && html`<${Notice} kind="success">Passkey “${added}” added.<//>`}
    <${RenameDialog} passkey=${renaming} onClose=${() => setRenaming(null)} onRenamed=${() => { setRenaming(null); passkeys.reload(); }} />
    <${ConfirmDialog} open=${Boolean(deleting)} title="Delete passkey?" confirmLabel="Delete"
      message=${deleting && `“${deleting.label}” will no longer sign you in. Remove it from the device too.`}
      onConfirm=${async () => { await api.call('delete_passkey', { passkeyId: deleting.id }); passkeys.reload(); }} onClose=${() => setDeleting(null)} />
  <//>`;
}

function RenameDialog({ passkey, onClose, onRenamed }) {
  const [label, setLabel] = useState('');
  const [forId, setForId] = useState(null);
  if (passkey && forId !== passkey.id) { setForId(passkey.id); setLabel(passkey.label); }
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    await api.call('rename_passkey', { passkeyId: passkey.id, label: label.trim() });
    setForId(null);
    onRenamed();
  });
  return html`<${Dialog} open=${Boolean(passkey)} title="Rename passkey" onClose=${() => { setForId(null); onClose(); }}>
    <form class="stack" onSubmit=${run}>
      <${Field} label="Passkey name" required maxlength="100" value=${label} onInput=${(event) => setLabel(event.currentTarget.value)} />
      <${ErrorNotice} error=${error} />
      <div class="dialog-actions">
        <${Button} onClick=${() => { setForId(null); onClose(); }}>Cancel<//>
        <${Button} kind="primary" type="submit" busy=${busy}>Save<//>
      </div>
    </form>
  <//>`;
}

// Two-factor authentication on /account: status, setup (QR code, key, backup codes shown once,
// enable with a code), new backup codes (shown once), and turning it off (password + code).
import { useState } from 'preact/hooks';
import { html, Button, Field, Section, Notice, ErrorNotice, Loading, CodeBlock, Dialog, useAction } from '../ui/index.js';
import { TwoFactorSetupForm } from '../auth/second-factor.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { formatDate, formatNumber } from '../format.js';

export function TwoFactorSection() {
  const status = useOperation('get_two_factor_status');
  const [settingUp, setSettingUp] = useState(false);
  const [codes, setCodes] = useState(null);
  const [disabling, setDisabling] = useState(false);
  const [message, setMessage] = useState(null);
  const regenerate = useAction(async () => {
    const body = await api.call('regenerate_backup_codes');
    setCodes(body.backupCodes);
    status.reload();
  });

  const data = status.data;
  return html`<${Section} title="Two-factor authentication" description="A six-digit code from an authenticator app, asked after your password.">
    <${ErrorNotice} error=${status.error} />
    ${message && html`<${Notice} kind="success">${message}<//>`}
    ${!data && !status.error && html`<${Loading} />`}
    ${data && !data.enabled && !settingUp && html`<div class="stack">
      <p><span class="badge">Off</span></p>
      ${data.requiredByOrganizations?.length > 0 && html`<${Notice} kind="warning">Required by ${data.requiredByOrganizations.map((org) => org.name).join(', ')}.<//>`}
      <div><${Button} kind="primary" onClick=${() => { setMessage(null); setSettingUp(true); }}>Set up two-factor authentication<//></div>
    </div>`}
    ${data && !data.enabled && settingUp && html`<${TwoFactorSetupForm}
      onEnabled=${() => { setSettingUp(false); setMessage('Two-factor authentication is on.'); status.reload(); }}
      onCancel=${() => setSettingUp(false)} />`}
    ${data?.enabled && html`<div class="stack">
      <p><span class="badge badge-success">On</span> since ${formatDate(data.enabledAt)} · ${formatNumber(data.backupCodesRemaining)} backup codes left</p>
      <div class="row">
        <${Button} busy=${regenerate.busy} onClick=${regenerate.run}>New backup codes<//>
        <${Button} onClick=${() => { setMessage(null); setDisabling(true); }}>Turn off<//>
      </div>
      <${ErrorNotice} error=${regenerate.error} />
      ${codes && html`<div class="stack">
        <${Notice} kind="warning">Your new backup codes. Save them now: they are shown only once, and the old ones no longer work.<//>
        <${CodeBlock} code=${codes.join('\n')} label="Backup codes" />
        <div><${Button} onClick=${() => setCodes(null)}>I have saved them<//></div>
      </div>`}
    </div>`}
    <${DisableDialog} open=${disabling} onClose=${() => setDisabling(false)} onDisabled=${() => { setDisabling(false); setMessage('Two-factor authentication is off.'); status.reload(); }} />
  <//>`;
}

function DisableDialog({ open, onClose, onDisabled }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const close = () => { setPassword(''); setCode(''); onClose(); };
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    await api.call('disable_two_factor', { password, code: code.trim() });
    setPassword(''); setCode('');
    onDisabled();
  });
  return html`<${Dialog} open=${open} title="Turn off two-factor authentication" onClose=${close}>
    <form class="stack" onSubmit=${run}>
      <p>Confirm with your password and a code from your app (or a backup code).</p>
      <${Field} label="Password" type="password" autocomplete="current-password" required value=${password} onInput=${(event) => setPassword(event.currentTarget.value)} />
      <${Field} label="Code" autocomplete="one-time-code" required value=${code} onInput=${(event) => setCode(event.currentTarget.value)} />
      <${ErrorNotice} error=${error} />
      <div class="dialog-actions">
        <${Button} onClick=${close}>Cancel<//>
        <${Button} kind="danger" type="submit" busy=${busy}>Turn off<//>
      </div>
    </form>
  <//>`;
}

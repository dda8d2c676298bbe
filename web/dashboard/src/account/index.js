// /account: the signed-in user's own settings. Operations: get_current_user /
// update_current_user (name), change_password (POST /users/me/password — see
// docs/dashboard.md), get_two_factor_status / setup_two_factor / enable_two_factor /
// regenerate_backup_codes / disable_two_factor, list_passkeys /
// create_passkey_registration_options / register_passkey / rename_passkey / delete_passkey,
// list_mcp_clients / revoke_mcp_client, list_cli_sessions / revoke_cli_session, logout.
import { useState } from 'preact/hooks';
import { html, Button, Field, Section, PageHeader, Notice, ErrorNotice, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { setCurrentUser, signOut } from '../session.js';
import { navigate } from '../router.js';
import { useUser } from '../context.js';
import { TwoFactorSection } from './two-factor.js';
import { PasskeysSection } from './passkeys.js';
import { McpClientsSection } from './mcp-clients.js';
import { CliSessionsSection } from './cli-sessions.js';

export function AccountPage() {
  const user = useUser();
  return html`<div class="account">
    <${PageHeader} title="Account" />
    <${ProfileSection} user=${user} />
    <${PasswordSection} />
    <${TwoFactorSection} />
    <${PasskeysSection} />
    <${McpClientsSection} />
    <${CliSessionsSection} />
    <${Section} title="Sign out" description="Ends this session on the server; other devices stay signed in.">
      <${Button} onClick=${async () => { await signOut(); navigate('/login', { replace: true }); }}>Sign out<//>
    <//>
  </div>`;
}

function ProfileSection({ user }) {
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [saved, setSaved] = useState(false);
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    setSaved(false);
    const updated = await api.call('update_current_user', { firstName: firstName.trim(), lastName: lastName.trim() });
    setCurrentUser({ ...user, ...updated });
    setSaved(true);
  });
  return html`<${Section} title="Profile">
    <form class="stack narrow" onSubmit=${run}>
      <${Field} label="Email" type="email" value=${user.email} readonly hint="Your email is your sign-in name; it cannot be changed here." />
      <div class="grid-2">
        <${Field} label="First name" autocomplete="given-name" maxlength="100" value=${firstName} onInput=${(event) => { setSaved(false); setFirstName(event.currentTarget.value); }} />
        <${Field} label="Last name" autocomplete="family-name" maxlength="100" value=${lastName} onInput=${(event) => { setSaved(false); setLastName(event.currentTarget.value); }} />
      </div>
      <${ErrorNotice} error=${error} />
      ${saved && html`<${Notice} kind="success">Your name is saved.<//>`}
      <div><${Button} kind="primary" type="submit" busy=${busy}>Save name<//></div>
    </form>
  <//>`;
}

function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [saved, setSaved] = useState(false);
  const mismatch = repeat.length > 0 && next !== repeat;
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    setSaved(false);
    if (next !== repeat) throw new Error('The new passwords do not match.');
    await api.call('change_password', { currentPassword: current, newPassword: next });
    setCurrent(''); setNext(''); setRepeat('');
    setSaved(true);
  });
  return html`<${Section} title="Password">
    <form class="stack narrow" onSubmit=${run}>
      <input type="text" autocomplete="username" class="visually-hidden" tabindex="-1" aria-hidden="true" readonly />
      <${Field} label="Current password" type="password" autocomplete="current-password" required value=${current} onInput=${(event) => setCurrent(event.currentTarget.value)} />
      <${Field} label="New password" type="password" autocomplete="new-password" required minlength="8" hint="At least 8 characters." value=${next} onInput=${(event) => setNext(event.currentTarget.value)} />
      <${Field} label="Repeat new password" type="password" autocomplete="new-password" required minlength="8" value=${repeat} error=${mismatch ? 'Does not match the new password.' : null} onInput=${(event) => setRepeat(event.currentTarget.value)} />
      <${ErrorNotice} error=${error} />
      ${saved && html`<${Notice} kind="success">Your password is changed.<//>`}
      <div><${Button} kind="primary" type="submit" busy=${busy}>Change password<//></div>
    </form>
  <//>`;
}


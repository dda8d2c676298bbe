// The steps after a password that the server may ask for:
//   twoFactorRequired      → SecondFactorForm: a code from the app, a backup code, or the user's
//                            passkey (as `twoFactorMethods` says)
//   twoFactorSetupRequired → TwoFactorSetupForm: an organization requires 2FA; set it up with
//                            the setup token (X-2FA-Setup-Token), then sign in again with a code
import { useEffect, useState } from 'preact/hooks';
import { html, Button, Field, ErrorNotice, Notice, Loading, CodeBlock, useAction } from '../ui/index.js';
import { QrCode } from '../ui/qr.js';
import { api } from '../api.js';
import { getAssertion, passkeyErrorMessage, passkeysSupported } from '../ui/webauthn.js';

/** The second step with the user's passkey: a WebAuthn assertion instead of a code. */
function PasskeyStep({ twoFactorToken, onAuth, onCancel, canUseCode, onUseCode }) {
  const { run, busy, error } = useAction(async () => {
    const options = await api.call('create_passkey_sign_in_options', {}, { auth: false });
    let credential;
    try {
      credential = await getAssertion(options.publicKey);
    } catch (failure) {
      throw new Error(passkeyErrorMessage(failure));
    }
    onAuth(await api.call('login_two_factor', { twoFactorToken, challengeId: options.challengeId, credential }, { auth: false }));
  });
  return html`<div class="stack" aria-labelledby="second-factor-title">
    <h2 id="second-factor-title">Two-factor authentication</h2>
    <p class="muted">Confirm it is you with your passkey.</p>
    ${!passkeysSupported() && html`<${Notice} kind="info">This browser cannot use passkeys.<//>`}
    <${ErrorNotice} error=${error} />
    <${Button} kind="primary" onClick=${run} busy=${busy} disabled=${!passkeysSupported()}>Use your passkey<//>
    <div class="row">
      ${canUseCode && html`<${Button} kind="link" onClick=${onUseCode}>Use a code instead<//>`}
      ${onCancel && html`<${Button} kind="link" onClick=${onCancel}>Start over<//>`}
    </div>
  </div>`;
}

/**
 * Completes the sign-in with login_two_factor; onAuth gets the AuthResponse. `methods` is the
 * answer's twoFactorMethods: a code (`totp`, backup codes included), the passkey, or both.
 */
export function SecondFactorForm({ twoFactorToken, methods = ['totp'], onAuth, onCancel }) {
  const [code, setCode] = useState('');
  const [useBackup, setUseBackup] = useState(false);
  const canUseCode = methods.includes('totp');
  const [usePasskey, setUsePasskey] = useState(!canUseCode && methods.includes('passkey'));
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    const auth = await api.call('login_two_factor', { twoFactorToken, code: code.trim() }, { auth: false });
    onAuth(auth);
  });
  if (usePasskey) {
    return html`<${PasskeyStep} twoFactorToken=${twoFactorToken} onAuth=${onAuth} onCancel=${onCancel}
      canUseCode=${canUseCode} onUseCode=${() => setUsePasskey(false)} />`;
  }
  return html`<form class="stack" onSubmit=${run} aria-labelledby="second-factor-title">
    <h2 id="second-factor-title">Two-factor authentication</h2>
    <p class="muted">${useBackup ? 'Enter one of your backup codes. Each works once.' : 'Enter the six-digit code from your authenticator app.'}</p>
    ${useBackup
      ? html`<${Field} key="backup" label="Backup code" autocomplete="one-time-code" autocapitalize="none" spellcheck=${false} required value=${code} onInput=${(event) => setCode(event.currentTarget.value)} autofocus />`
      : html`<${Field} key="totp" label="Authentication code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required value=${code} onInput=${(event) => setCode(event.currentTarget.value)} autofocus />`}
    <${ErrorNotice} error=${error} />
    <${Button} kind="primary" type="submit" busy=${busy}>Verify<//>
    <div class="row">
      <${Button} kind="link" onClick=${() => { setUseBackup(!useBackup); setCode(''); }}>${useBackup ? 'Use the authenticator app instead' : 'Use a backup code instead'}<//>
      ${methods.includes('passkey') && html`<${Button} kind="link" onClick=${() => setUsePasskey(true)}>Use your passkey instead<//>`}
      ${onCancel && html`<${Button} kind="link" onClick=${onCancel}>Start over<//>`}
    </div>
  </form>`;
}

/**
 * Sets up TOTP: shows the QR code, the key and the backup codes, and enables it with a code.
 * headers: {'X-2FA-Setup-Token': …} during a sign-in that requires it; none on /account.
 */
export function TwoFactorSetupForm({ headers, onEnabled, onCancel, intro }) {
  const [setup, setSetup] = useState(null);
  const [loadError, setLoadError] = useState(null);
  const [code, setCode] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    api.call('setup_two_factor', {}, { headers, auth: !headers }).then(setSetup, setLoadError);
  }, []);
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    await api.call('enable_two_factor', { code: code.trim() }, { headers, auth: !headers });
    onEnabled();
  });
  if (loadError) return html`<${ErrorNotice} error=${loadError} />`;
  if (!setup) return html`<${Loading} label="Preparing two-factor authentication…" />`;
  return html`<form class="stack" onSubmit=${run} aria-labelledby="setup-2fa-title">
    <h2 id="setup-2fa-title">Set up two-factor authentication</h2>
    ${intro && html`<p>${intro}</p>`}
    <ol class="steps">
      <li>
        <p>Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy, Aegis…).</p>
        <${QrCode} text=${setup.otpauthUri} label="QR code for your authenticator app" />
        <p>Or type this key: <code class="mono secret" data-testid="totp-secret">${setup.secret}</code></p>
      </li>
      <li>
        <p>Save these backup codes somewhere safe. Each signs you in once if you lose your phone. They are shown only now.</p>
        <${CodeBlock} code=${setup.backupCodes.join('\n')} label="Backup codes" />
        <label class="check"><input type="checkbox" checked=${saved} onChange=${(event) => setSaved(event.currentTarget.checked)} /> I have saved my backup codes</label>
      </li>
      <li>
        <${Field} label="Code from the app" inputmode="numeric" autocomplete="one-time-code" required value=${code} onInput=${(event) => setCode(event.currentTarget.value)} />
      </li>
    </ol>
    <${ErrorNotice} error=${error} />
    <div class="row">
      <${Button} kind="primary" type="submit" busy=${busy} disabled=${!saved}>Turn on two-factor authentication<//>
      ${onCancel && html`<${Button} onClick=${onCancel}>Cancel<//>`}
    </div>
    ${!saved && html`<${Notice} kind="info">Confirm that you saved the backup codes to continue.<//>`}
  </form>`;
}

// /login: email and password, then a second factor when the server asks for one, or a passkey.
// On success the session starts and the user goes to ?next= (a same-origin path) or "/".
import { useState } from 'preact/hooks';
import { html, Button, Field, ErrorNotice, Notice, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { startSession } from '../session.js';
import { navigate, useRoute } from '../router.js';
import { getAssertion, passkeyErrorMessage, passkeysSupported } from '../ui/webauthn.js';
import { SecondFactorForm, TwoFactorSetupForm } from './second-factor.js';

/** Only same-origin paths: ?next= must not send the user elsewhere after signing in. */
export function safeNext(next) {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  if (next.startsWith('/login')) return '/';
  return next;
}

/**
 * Handles every answer a sign-in can give: a session, twoFactorRequired or
 * twoFactorSetupRequired. Returns the next step for the caller's state.
 */
export function stepFor(auth) {
  if (auth.twoFactorRequired) {
    return { name: 'code', twoFactorToken: auth.twoFactorToken, methods: auth.twoFactorMethods ?? ['totp'] };
  }
  if (auth.twoFactorSetupRequired) return { name: 'setup', setupToken: auth.setupToken };
  startSession(auth);
  return { name: 'done' };
}

export function LoginPage() {
  const { query } = useRoute();
  const next = safeNext(query.next);
  const [step, setStep] = useState({ name: 'password' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState(null);
  const finish = () => navigate(next, { replace: true });
  const advance = (auth) => {
    const nextStep = stepFor(auth);
    if (nextStep.name === 'done') finish();
    else setStep(nextStep);
  };

  const passwordSignIn = useAction(async (event) => {
    event?.preventDefault();
    setMessage(null);
    advance(await api.call('login', { email: email.trim(), password }, { auth: false }));
  });

  const passkeySignIn = useAction(async () => {
    setMessage(null);
    const options = await api.call('create_passkey_sign_in_options', {}, { auth: false });
    let credential;
    try {
      credential = await getAssertion(options.publicKey);
    } catch (error) {
      throw new Error(passkeyErrorMessage(error));
    }
    advance(await api.call('sign_in_with_passkey', { challengeId: options.challengeId, credential }, { auth: false }));
  });

  useTitleOnce('Sign in');
  return html`<div class="auth-page">
    <main class="auth-card" id="main">
      <p class="brand"><span class="brand-mark" aria-hidden="true"></span><span class="brand-name">Sightline</span></p>
      ${step.name === 'password' && html`
        <h1>Sign in</h1>
        <${Notice} kind="info">${message}<//>
        ${query.reason === 'expired' && html`<${Notice} kind="info">Your session ended. Sign in again.<//>`}
        <form class="stack" onSubmit=${passwordSignIn.run}>
          <${Field} label="Email" type="email" autocomplete="username webauthn" required value=${email} onInput=${(event) => setEmail(event.currentTarget.value)} />
          <${Field} label="Password" type="password" autocomplete="current-password" required value=${password} onInput=${(event) => setPassword(event.currentTarget.value)} />
          <${ErrorNotice} error=${passwordSignIn.error} />
          <${Button} kind="primary" type="submit" busy=${passwordSignIn.busy}>Sign in<//>
        </form>
        ${passkeysSupported() && html`<div class="divider" role="separator"><span>or</span></div>
          <${ErrorNotice} error=${passkeySignIn.error} />
          <${Button} onClick=${passkeySignIn.run} busy=${passkeySignIn.busy}>Sign in with a passkey<//>`}
        <p class="muted small">No account? Accounts are created by invitation from an organization's owner or admin.</p>`}
      ${step.name === 'code' && html`<h1 class="visually-hidden">Sign in</h1>
        <${SecondFactorForm} twoFactorToken=${step.twoFactorToken} methods=${step.methods} onAuth=${advance} onCancel=${() => { setStep({ name: 'password' }); setPassword(''); }} />`}
      ${step.name === 'setup' && html`<h1 class="visually-hidden">Sign in</h1>
        <${TwoFactorSetupForm} headers=${{ 'X-2FA-Setup-Token': step.setupToken }}
          intro="An organization you belong to requires two-factor authentication. Set it up to continue."
          onEnabled=${() => { setStep({ name: 'password' }); setMessage('Two-factor authentication is on. Sign in again with a code from your app.'); }}
          onCancel=${() => setStep({ name: 'password' })} />`}
    </main>
  </div>`;
}

function useTitleOnce(title) {
  if (document.title !== `${title} · Sightline`) document.title = `${title} · Sightline`;
}

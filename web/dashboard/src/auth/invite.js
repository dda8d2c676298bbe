// /invite?token=…: accept an invitation (accept_invitation). Without an account for the invited
// email, one is created with the password given here; with one, its password signs in. A
// second factor or a required 2FA setup follows as on /login.
import { useState } from 'preact/hooks';
import { html, Button, Field, ErrorNotice, Notice, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { SecondFactorForm, TwoFactorSetupForm } from './second-factor.js';
import { stepFor } from './login.js';
import { clear, currentUser } from '../session.js';
import { navigate, useRoute } from '../router.js';

export function InvitePage() {
  const { query } = useRoute();
  const token = query.token ?? '';
  const [step, setStep] = useState({ name: 'form' });
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const [existing, setExisting] = useState(false);
  const [message, setMessage] = useState(null);

  const goIn = (auth) => {
    const org = auth?.user?.currentOrganization ?? auth?.user?.organizations?.at(-1);
    navigate(org ? `/${encodeURIComponent(org.slug)}` : '/', { replace: true });
  };
  const advance = (auth) => {
    const next = stepFor(auth);
    if (next.name === 'done') goIn(auth);
    else setStep(next);
  };

  const accept = useAction(async (event) => {
    event.preventDefault();
    setMessage(null);
    // The invitation signs in as the invited person: end any other session in this browser.
    if (currentUser()) clear();
    const body = { token, password };
    if (!existing) {
      if (firstName.trim()) body.firstName = firstName.trim();
      if (lastName.trim()) body.lastName = lastName.trim();
    }
    try {
      advance(await api.call('accept_invitation', body, { auth: false }));
    } catch (error) {
      if (error.code === 'AUTH_006') {
        setExisting(true);
        throw new Error('An account already exists for the invited email. Enter its password to join.');
      }
      if (error.code === 'ORG_005') throw new Error('This invitation was already used, revoked, or has expired. Ask for a new one.');
      if (error.code === 'REQ_004') throw new Error('This invitation link is not valid. Check that you copied all of it.');
      throw error;
    }
  });

  if (typeof document !== 'undefined') document.title = 'Accept invitation · Sightline';
  return html`<div class="auth-page">
    <main class="auth-card" id="main">
      <p class="brand"><span class="brand-mark" aria-hidden="true"></span><span class="brand-name">Sightline</span></p>
      <h1>Join your team on Sightline</h1>
      ${!token && html`<${Notice} kind="error">This link has no invitation token. Open the link from your invitation again.<//>`}
      ${token && step.name === 'form' && html`<form class="stack" onSubmit=${accept.run}>
        <${Notice} kind="info">${message}<//>
        ${existing
          ? html`<p>Sign in with the password of your existing account to accept.</p>`
          : html`<p>Choose a password for your new account. Already have one for the invited email? Enter its password instead.</p>
            <div class="grid-2">
              <${Field} label="First name" autocomplete="given-name" maxlength="100" value=${firstName} onInput=${(event) => setFirstName(event.currentTarget.value)} />
              <${Field} label="Last name" autocomplete="family-name" maxlength="100" value=${lastName} onInput=${(event) => setLastName(event.currentTarget.value)} />
            </div>`}
        <${Field} label="Password" type="password" autocomplete=${existing ? 'current-password' : 'new-password'} minlength="8" required hint=${existing ? null : 'At least 8 characters.'} value=${password} onInput=${(event) => setPassword(event.currentTarget.value)} />
        <${ErrorNotice} error=${accept.error} />
        <${Button} kind="primary" type="submit" busy=${accept.busy}>Accept invitation<//>
      </form>`}
      ${step.name === 'code' && html`<${SecondFactorForm} twoFactorToken=${step.twoFactorToken} methods=${step.methods} onAuth=${advance} onCancel=${() => setStep({ name: 'form' })} />`}
      ${step.name === 'setup' && html`<${TwoFactorSetupForm} headers=${{ 'X-2FA-Setup-Token': step.setupToken }}
        intro="This organization requires two-factor authentication. Set it up, then accept again."
        onEnabled=${() => { setStep({ name: 'form' }); setMessage('Two-factor authentication is on. Accept the invitation again; you will be asked for a code.'); }} onCancel=${() => setStep({ name: 'form' })} />`}
    </main>
  </div>`;
}

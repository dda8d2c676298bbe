#include "api/account_page.h"

#include "api/consent_page.h"

namespace sightline::api {
namespace {

constexpr std::string_view kBody = R"html(
<h1>Account security</h1>
<p class="alert" role="alert" id="message" hidden></p>
<section id="signed-out">
<form id="sign-in" aria-label="Sign in">
<label for="email">Email</label><input id="email" type="email" autocomplete="username webauthn" required>
<label for="password">Password</label><input id="password" type="password" autocomplete="current-password" required>
<label for="code">Code from your authenticator app (if you use one)</label><input id="code" inputmode="numeric" autocomplete="one-time-code">
<div class="actions"><button class="primary" type="submit">Sign in</button>
<button type="button" id="passkey-sign-in">Sign in with a passkey</button></div>
</form>
</section>
<section id="signed-in" hidden>
<h2>Passkeys</h2>
<ul id="passkeys"></ul>
<form id="add-passkey" aria-label="Add a passkey">
<label for="label">Name for the new passkey</label><input id="label" maxlength="100" value="Passkey">
<div class="actions"><button class="primary" type="submit">Add a passkey</button>
<button type="button" id="sign-out">Sign out</button></div>
</form>
</section>
)html";

// Binary WebAuthn fields travel as base64url; the script converts them itself rather than rely
// on the newest browsers' JSON helpers.
constexpr std::string_view kScript = R"js(
'use strict';
const base = location.pathname.replace(/\/account\/?$/, '');
const b64u = {
  enc(buffer) {
    let text = '';
    for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
    return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  },
  dec(text) {
    text = text.replace(/-/g, '+').replace(/_/g, '/');
    while (text.length % 4) text += '=';
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0)).buffer;
  },
};
let token = null;
const $ = (id) => document.getElementById(id);
function say(text) { $('message').textContent = text || ''; $('message').hidden = !text; }

async function api(method, path, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const response = await fetch(base + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    throw Object.assign(new Error(data?.error?.message || response.statusText),
                        { status: response.status, code: data?.error?.code });
  }
  return data;
}

async function render() {
  $('signed-out').hidden = !!token;
  $('signed-in').hidden = !token;
  if (!token) return;
  const { passkeys } = await api('GET', '/users/me/passkeys');
  const list = $('passkeys');
  list.replaceChildren();
  for (const passkey of passkeys) {
    const item = document.createElement('li');
    item.textContent = passkey.label + ' (' + passkey.algorithm + ', added ' +
        passkey.createdAt.slice(0, 10) + (passkey.lastUsedAt ? ', last used ' +
        passkey.lastUsedAt.slice(0, 10) : '') + ') ';
    const rename = document.createElement('button');
    rename.textContent = 'Rename';
    rename.addEventListener('click', () => run(async () => {
      const label = prompt('New name', passkey.label);
      if (label) await renamePasskey(passkey.id, label);
    }));
    const remove = document.createElement('button');
    remove.textContent = 'Remove';
    remove.addEventListener('click', () => run(() => removePasskey(passkey.id)));
    item.append(rename, remove);
    list.append(item);
  }
}

async function signIn(email, password, code) {
  const answer = await api('POST', '/auth/login',
                           { email, password, ...(code ? { twoFactorCode: code } : {}) });
  if (answer.twoFactorRequired) {
    throw Object.assign(new Error('Enter the code from your authenticator app.'),
                        { code: 'TWO_FACTOR_REQUIRED' });
  }
  if (answer.twoFactorSetupRequired) {
    throw Object.assign(new Error('Your organization requires two-factor authentication: set it up first.'),
                        { code: 'TWO_FACTOR_SETUP_REQUIRED' });
  }
  token = answer.accessToken;
  await render();
  return answer;
}

async function addPasskey(label) {
  const { challengeId, publicKey: o } = await api('POST', '/users/me/passkeys/options');
  const created = await navigator.credentials.create({ publicKey: {
    ...o,
    challenge: b64u.dec(o.challenge),
    user: { ...o.user, id: b64u.dec(o.user.id) },
    excludeCredentials: o.excludeCredentials.map((c) => ({ ...c, id: b64u.dec(c.id) })),
  } });
  const credential = {
    id: created.id, rawId: b64u.enc(created.rawId), type: created.type,
    response: {
      clientDataJSON: b64u.enc(created.response.clientDataJSON),
      attestationObject: b64u.enc(created.response.attestationObject),
      transports: created.response.getTransports ? created.response.getTransports() : [],
    },
  };
  const passkey = await api('POST', '/users/me/passkeys', { challengeId, label, credential });
  await render();
  return passkey;
}

async function signInWithPasskey() {
  const { challengeId, publicKey: o } = await api('POST', '/auth/passkeys/options');
  const asserted = await navigator.credentials.get({ publicKey: {
    ...o, challenge: b64u.dec(o.challenge), allowCredentials: [] } });
  const r = asserted.response;
  const credential = {
    id: asserted.id, rawId: b64u.enc(asserted.rawId), type: asserted.type,
    response: {
      clientDataJSON: b64u.enc(r.clientDataJSON),
      authenticatorData: b64u.enc(r.authenticatorData),
      signature: b64u.enc(r.signature),
      userHandle: r.userHandle ? b64u.enc(r.userHandle) : null,
    },
  };
  const answer = await api('POST', '/auth/passkeys/login', { challengeId, credential });
  if (!answer.accessToken) {
    throw Object.assign(new Error('Your organization requires two-factor authentication: set it up first.'),
                        { code: 'TWO_FACTOR_SETUP_REQUIRED' });
  }
  token = answer.accessToken;
  await render();
  return answer;
}

async function renamePasskey(id, label) {
  const passkey = await api('PATCH', '/users/me/passkeys/' + encodeURIComponent(id), { label });
  await render();
  return passkey;
}

async function removePasskey(id) {
  await api('DELETE', '/users/me/passkeys/' + encodeURIComponent(id));
  await render();
}

async function run(action) {
  say('');
  try { await action(); } catch (error) { say(error.message); }
}

$('sign-in').addEventListener('submit', (event) => {
  event.preventDefault();
  run(() => signIn($('email').value, $('password').value, $('code').value.trim()));
});
$('passkey-sign-in').addEventListener('click', () => run(signInWithPasskey));
$('add-passkey').addEventListener('submit', (event) => {
  event.preventDefault();
  run(() => addPasskey($('label').value.trim() || 'Passkey'));
});
$('sign-out').addEventListener('click', () => { token = null; render(); });
window.sightline = { api, signIn, addPasskey, signInWithPasskey, renamePasskey, removePasskey,
                     get token() { return token; } };
)js";

}  // namespace

core::HttpResponse AccountPage(std::string_view nonce) {
  std::string html = PageHead(nonce, "Account security - Sightline");
  html += kBody;
  html += "<script nonce=\"" + HtmlEscape(nonce) + "\">";
  html += kScript;
  html += "</script></main></body></html>";
  // The script calls this server's API; no form posts anywhere.
  return HtmlPage(200, std::move(html), nonce, "connect-src 'self'; form-action 'none'");
}

}  // namespace sightline::api

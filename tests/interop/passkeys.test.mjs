// Passkeys in headless Chromium with the DevTools virtual authenticator (an emulated CTAP2
// authenticator with a resident-key store and user verification): registration and sign-in
// through the account page the server serves, then the REST management operations, a
// tampered answer, and the authenticator losing its user verification. Run by
// passkeys_interop.sh with SIGHTLINE_URL (http://localhost:<port>), SIGHTLINE_EMAIL and
// SIGHTLINE_PASSWORD.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const base = process.env.SIGHTLINE_URL;
const email = process.env.SIGHTLINE_EMAIL;
const password = process.env.SIGHTLINE_PASSWORD;

let browser;
let page;
let devtools;
let authenticatorId;

async function rest(method, path, token, body) {
  const response = await fetch(base + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

before(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage();
  devtools = await page.context().newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  ({ authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true,
               hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  }));
  await page.goto(`${base}/account`);
});

after(async () => { await browser?.close(); });

test('a passkey is registered through the account page and signs in without a password', async () => {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Name for the new passkey').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByText(/Work laptop \((ES256|EdDSA)/).waitFor();
  const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0].isResidentCredential, true);
  assert.equal(credentials[0].rpId, 'localhost');

  // A fresh page: sign in with the passkey alone.
  await page.goto(`${base}/account`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('button', { name: 'Add a passkey' }).waitFor();
  const token = await page.evaluate(() => window.sightline.token);
  const me = await rest('GET', '/users/me', token);
  assert.equal(me.status, 200);
  assert.equal(me.body.email, email);

  const listed = await rest('GET', '/users/me/passkeys', token);
  assert.equal(listed.body.passkeys.length, 1);
  assert.ok(listed.body.passkeys[0].lastUsedAt, 'the sign-in is recorded');
  const { credentials: after } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
  assert.ok(after[0].signCount >= 1, 'the authenticator counted the signature');
});

test('a second sign-in works, a replayed answer does not', async () => {
  await page.goto(`${base}/account`);
  // Capture the answer the page sends, then send it again.
  let sent;
  page.on('request', (request) => {
    if (request.url().endsWith('/auth/passkeys/login')) sent = request.postData();
  });
  await page.evaluate(() => window.sightline.signInWithPasskey());
  assert.ok(sent);
  const replay = await fetch(`${base}/auth/passkeys/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: sent,
  });
  assert.equal(replay.status, 400);
  assert.equal((await replay.json()).error.code, 'AUTH_013');
});

test('passkeys are renamed and removed over REST; unknown ids are 404', async () => {
  const login = await rest('POST', '/auth/login', null, { email, password });
  const token = login.body.accessToken;
  const [passkey] = (await rest('GET', '/users/me/passkeys', token)).body.passkeys;
  const renamed = await rest('PATCH', `/users/me/passkeys/${passkey.id}`, token, { label: 'Desk' });
  assert.equal(renamed.status, 200);
  assert.equal(renamed.body.label, 'Desk');
  assert.equal((await rest('PATCH', '/users/me/passkeys/nope', token, { label: 'x' })).status, 404);
  assert.equal((await rest('DELETE', '/users/me/passkeys/nope', token)).status, 404);
  assert.equal((await rest('DELETE', `/users/me/passkeys/${passkey.id}`, token)).status, 204);
  assert.equal((await rest('GET', '/users/me/passkeys', token)).body.passkeys.length, 0);
  // The authenticator still holds the credential, but the server no longer knows it.
  await page.goto(`${base}/account`);
  const refused = await page.evaluate(() => window.sightline.signInWithPasskey().then(
    () => 'signed in', (error) => error.code));
  assert.equal(refused, 'AUTH_013');
});

test('an authenticator that cannot verify the user adds no passkey', async () => {
  const login = await rest('POST', '/auth/login', null, { email, password });
  await page.goto(`${base}/account`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Add a passkey' }).waitFor();
  await devtools.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
  const outcome = await page.evaluate(() => window.sightline.addPasskey('Unverified').then(
    () => 'registered', (error) => error.name || error.code));
  assert.notEqual(outcome, 'registered');
  const listed = await rest('GET', '/users/me/passkeys', login.body.accessToken);
  assert.equal(listed.body.passkeys.length, 0);
});

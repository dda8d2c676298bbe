// Signing in to the dashboard in Chromium: accepting an invitation; password + TOTP (codes from
// otplib) set up on /account, and a backup code; a passkey registered on /account with the
// DevTools virtual authenticator, then signing in with it alone (a replayed assertion is
// refused, rename/delete over REST, unknown ids 404, an authenticator without user verification
// adds nothing); a passkey as the second step an organization requiring it asks for, on /login
// and on the MCP consent page, where the passkey alone also signs in; the session surviving a
// reload; signing out. Elements are found by label and role. Run by
// dashboard_interop.sh (node --test), one CTest entry per store.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { start, screenshot, totp } from './harness.mjs';

let ctx;
let ownerToken;

before(async () => {
  ctx = await start({ name: 'dashboard-auth' });
  ownerToken = (await ctx.api('POST', '/auth/login', { body: ctx.owner })).body.accessToken;
});
after(async () => { await ctx?.stop(); });

test('the shell is served with a CSP nonce and hashed, precompressed assets', async () => {
  const response = await fetch(`${ctx.base}/some/deep/link?x=1`);
  assert.equal(response.status, 200);
  const csp = response.headers.get('content-security-policy');
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  assert.ok(nonce, csp);
  const shell = await response.text();
  assert.ok(!shell.includes('__CSP_NONCE__'));
  for (const [, tagNonce] of shell.matchAll(/nonce="([^"]+)"/g)) assert.equal(tagNonce, nonce);
  const script = /src="(\/assets\/app-[^"]+\.js)"/.exec(shell)?.[1];
  assert.ok(script, 'the entry script is a hashed asset');
  const asset = await fetch(`${ctx.base}${script}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
});

test('an invitation is accepted in the browser and the new member lands in the organization', async () => {
  const email = `invitee-${ctx.unique}@acme.test`;
  const invitation = await ctx.api('POST', `/${ctx.orgSlug}/invitations`, { token: ownerToken, body: { email, role: 'analyst' } });
  assert.equal(invitation.status, 201, JSON.stringify(invitation.body));
  const page = await ctx.newPage();
  await page.goto(`${ctx.base}/invite?token=${encodeURIComponent(invitation.body.token)}`);
  await page.getByRole('heading', { name: 'Join your team on Sightline' }).waitFor();
  await screenshot(page, 'invite');
  await page.getByLabel('First name').fill('Ivy');
  await page.getByLabel('Last name').fill('Invitee');
  await page.getByLabel('Password').fill('another good password');
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  await page.waitForURL(new RegExp(`/${ctx.orgSlug}/${ctx.projectId}/web`));
  const members = await ctx.api('GET', `/${ctx.orgSlug}/members`, { token: ownerToken });
  const member = members.body.members.find((item) => item.email === email);
  assert.equal(member?.role, 'analyst');
  assert.equal(member.firstName, 'Ivy');
  // The link works once.
  await page.goto(`${ctx.base}/invite?token=${encodeURIComponent(invitation.body.token)}`);
  await page.getByLabel('Password').fill('another good password');
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.getByRole('alert').filter({ hasText: /already used|expired/ }).waitFor();
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('password and TOTP: set up on /account, then sign in with a code and with a backup code', async () => {
  const page = await ctx.newPage();
  await page.goto(`${ctx.base}/`);
  await page.waitForURL(/\/login/);
  await screenshot(page, 'login');
  await ctx.signIn(page);
  await page.getByRole('link', { name: 'Account' }).click();
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  const secret = (await page.getByTestId('totp-secret').textContent()).trim();
  const backupCodes = (await page.getByLabel('Backup codes', { exact: true }).textContent()).trim().split('\n');
  assert.equal(backupCodes.length, 10);
  await screenshot(page, 'account-2fa-setup');
  await page.getByLabel('I have saved my backup codes').check();
  await page.getByLabel('Code from the app').fill(await totp(secret));
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await page.getByRole('status').filter({ hasText: 'Two-factor authentication is on.' }).waitFor();
  await screenshot(page, 'account');

  // Sign out, then sign in: password, then a code. A code of the next step is accepted (the
  // step used to enable is not, codes work once).
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login/);
  await page.getByLabel('Email').fill(ctx.owner.email);
  await page.getByLabel('Password').fill(ctx.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('alert').waitFor();
  await screenshot(page, 'login-second-factor');
  await page.getByLabel('Authentication code').fill(await totp(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();

  // A reload keeps the session (refresh token in localStorage, a new access token).
  await page.reload();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  assert.ok(await page.evaluate(() => localStorage.getItem('sightline.refreshToken')));

  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login/);
  assert.equal(await page.evaluate(() => localStorage.getItem('sightline.refreshToken')), null);
  await page.getByLabel('Email').fill(ctx.owner.email);
  await page.getByLabel('Password').fill(ctx.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Use a backup code instead' }).click();
  await page.getByLabel('Backup code').fill(backupCodes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  const status = await ctx.api('GET', '/users/me/2fa/status', { token: ownerToken });
  assert.equal(status.body.enabled, true);
  assert.equal(status.body.backupCodesRemaining, 9);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('passkeys: registered on /account, then signing in with the passkey alone', async () => {
  const page = await ctx.newPage();
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
      isUserVerified: true, automaticPresenceSimulation: true },
  });
  // The owner has TOTP on by now (the test before): password and a backup code.
  await signInWithBackupCode(page);
  await page.goto(`${ctx.base}/account`);
  await page.getByLabel('Name for the new passkey').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('status').filter({ hasText: 'Passkey “Work laptop” added.' }).waitFor();
  await page.getByRole('cell', { name: 'Work laptop', exact: true }).waitFor();
  const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0].isResidentCredential, true);
  assert.equal(credentials[0].rpId, 'localhost');
  await screenshot(page, 'account-passkeys');

  // Signed out, the passkey alone signs in (it is two factors in one).
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login/);
  let sent;
  page.on('request', (request) => { if (request.url().endsWith('/api/auth/passkeys/login')) sent = request.postData(); });
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  const listed = await ctx.api('GET', '/users/me/passkeys', { token: ownerToken });
  assert.equal(listed.body.passkeys.length, 1);
  assert.ok(listed.body.passkeys[0].lastUsedAt, 'the sign-in is recorded');

  // The same answer sent again is refused.
  assert.ok(sent);
  const replay = await fetch(`${ctx.base}/api/auth/passkeys/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: sent });
  assert.equal(replay.status, 400);
  assert.equal((await replay.json()).error.code, 'AUTH_013');

  // Rename and delete over REST; unknown ids are 404.
  const [passkey] = listed.body.passkeys;
  const renamed = await ctx.api('PATCH', `/users/me/passkeys/${passkey.id}`, { token: ownerToken, body: { label: 'Desk' } });
  assert.equal(renamed.status, 200);
  assert.equal(renamed.body.label, 'Desk');
  assert.equal((await ctx.api('PATCH', '/users/me/passkeys/nope', { token: ownerToken, body: { label: 'x' } })).status, 404);
  assert.equal((await ctx.api('DELETE', '/users/me/passkeys/nope', { token: ownerToken })).status, 404);
  await page.goto(`${ctx.base}/account`);
  await page.getByRole('cell', { name: 'Desk', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Delete passkey Desk' }).click();
  await page.getByRole('dialog', { name: 'Delete passkey?' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByText('No passkeys yet.').waitFor();
  assert.equal((await ctx.api('GET', '/users/me/passkeys', { token: ownerToken })).body.passkeys.length, 0);

  // The authenticator still holds the credential, but the server no longer knows it.
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login/);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('alert').waitFor();
  assert.match(page.url(), /\/login/);

  // An authenticator that cannot verify the user adds no passkey.
  await signInWithBackupCode(page);
  await page.goto(`${ctx.base}/account`);
  await devtools.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
  await page.getByLabel('Name for the new passkey').fill('Unverified');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('alert').waitFor();
  assert.equal((await ctx.api('GET', '/users/me/passkeys', { token: ownerToken })).body.passkeys.length, 0);
  await page.close();
});

test('an organization requiring two-factor authentication takes a passkey as the second step', async () => {
  // A member whose only second factor is a passkey.
  const email = `passkey-member-${ctx.unique}@acme.test`;
  const password = 'a passkey member password';
  const invitation = await ctx.api('POST', `/${ctx.orgSlug}/invitations`, { token: ownerToken, body: { email, role: 'analyst' } });
  assert.equal(invitation.status, 201, JSON.stringify(invitation.body));
  const joined = await ctx.api('POST', '/invitations/accept', { body: { token: invitation.body.token, password, firstName: 'Pat' } });
  assert.equal(joined.status, 200, JSON.stringify(joined.body));
  const page = await ctx.newPage();
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
      isUserVerified: true, automaticPresenceSimulation: true },
  });
  const signInWithPassword = async () => {
    await page.goto(`${ctx.base}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  };
  await signInWithPassword();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  await page.goto(`${ctx.base}/account`);
  await page.getByLabel('Name for the new passkey').fill('Phone');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('status').filter({ hasText: 'Passkey “Phone” added.' }).waitFor();
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login/);

  // The organization now requires a second factor: the password asks for the passkey, with no
  // code form the member could not fill and no authenticator-app setup.
  const required = await ctx.api('PATCH', `/${ctx.orgSlug}`, { token: ownerToken, body: { requireTwoFactor: true } });
  assert.equal(required.status, 200, JSON.stringify(required.body));
  try {
    await signInWithPassword();
    await page.getByRole('button', { name: 'Use your passkey' }).waitFor();
    assert.equal(await page.getByLabel('Authentication code').count(), 0);
    await screenshot(page, 'second-factor-passkey');
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    // The MCP consent page asks the same: the password, then the passkey, then the consent.
    const connect = await startConnection(page);
    await page.goto(connect.authorizationUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Use your passkey' }).waitFor();
    assert.equal(await page.getByLabel(/Code from your authenticator app/).count(), 0);
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await connect.exchanged();

    // Signed out there, the passkey alone signs in to the consent page.
    const again = await startConnection(page);
    await page.goto(again.authorizationUrl);
    await page.getByRole('button', { name: 'Use another account' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await again.exchanged();
    assert.deepEqual(page.problems, []);
  } finally {
    await ctx.api('PATCH', `/${ctx.orgSlug}`, { token: ownerToken, body: { requireTwoFactor: false } });
    await page.close();
  }
});

// An MCP client's connection through the consent page: a public client registered
// dynamically, PKCE, and its loopback redirect answered inside `page`. `exchanged()` waits for
// the redirect and trades its code for tokens.
async function startConnection(page) {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const registered = await ctx.api('POST', '/oauth/register', { body: {
    client_name: 'Passkey Assistant', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' } });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  const clientId = registered.body.client_id;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorizationUrl = `${ctx.base}/api/oauth/authorize?${new URLSearchParams({
    response_type: 'code', client_id: clientId, redirect_uri: redirectUri, state: 'passkey-state',
    code_challenge: challenge, code_challenge_method: 'S256', resource: `${ctx.base}/api/mcp` })}`;
  await page.route(`${redirectUri}**`, (route) => route.fulfill({ contentType: 'text/plain', body: 'Connected.' }));
  async function exchanged() {
    await page.waitForURL(`${redirectUri}**`);
    await page.unroute(`${redirectUri}**`);
    const answer = new URL(page.url()).searchParams;
    assert.equal(answer.get('state'), 'passkey-state');
    const token = await fetch(`${ctx.base}/api/oauth/token`, { method: 'POST', body: new URLSearchParams({
      grant_type: 'authorization_code', code: answer.get('code'), redirect_uri: redirectUri,
      client_id: clientId, code_verifier: verifier }) });
    assert.equal(token.status, 200, await token.clone().text());
    assert.match((await token.json()).access_token, /^mcp_at_/);
  }
  return { authorizationUrl, exchanged };
}

// Signs the owner in on /login with a new set of backup codes (the TOTP steps may be used up).
async function signInWithBackupCode(page) {
  const codes = await ctx.api('POST', '/users/me/2fa/backup-codes', { token: ownerToken, body: {} });
  assert.equal(codes.status, 200);
  await page.goto(`${ctx.base}/login`);
  await page.getByLabel('Email').fill(ctx.owner.email);
  await page.getByLabel('Password').fill(ctx.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Use a backup code instead' }).click();
  await page.getByLabel('Backup code').fill(codes.body.backupCodes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

// The command-line sign-in in Chromium against the real server (the RFC 8628 device flow):
// a login started over REST as the CLI does, its verificationUriComplete opened in the signed-in
// browser, the code confirmed, the permissions narrowed, approved — then the CLI's poll gets a
// token with exactly those permissions, which works within them; the session is listed on
// /account and revoked there (then the token is refused). A second login typed by hand and
// denied (the poll gets OAUTH_014); an unknown code; a signed-out browser signing in first; a
// phone in the dark theme; axe-core on the page, light and dark. Screenshots of every step go to
// $SIGHTLINE_SCREENSHOT_DIR.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { start, screenshot } from './harness.mjs';

let ctx;
let page;
let ownerToken;

before(async () => {
  ctx = await start({ name: 'dashboard-cli' });
  ownerToken = (await ctx.api('POST', '/auth/login', { body: ctx.owner })).body.accessToken;
  page = await ctx.newPage();
  await ctx.signIn(page);
});
after(async () => { await ctx?.stop(); });

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const codeField = (on) => on.getByLabel('Code shown in your terminal');
// The focused element's text, once focus has landed on `expected`: the page moves focus to its
// new heading after rendering it, so right after the heading appears focus may still be on
// <body>. After 5 s, whatever has focus.
async function focusedText(on, expected) {
  await on.waitForFunction((text) => document.activeElement?.textContent === text, expected, { timeout: 5000 })
    .catch(() => {});
  return on.evaluate(() => document.activeElement?.textContent ?? '');
}

/** start_cli_login, anonymous, as the CLI calls it. */
async function startLogin(body = {}) {
  const started = await ctx.api('POST', '/auth/cli/sessions', {
    body: { clientName: 'sightline-cli', hostname: 'build-box', os: 'linux/amd64', ...body },
  });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  return { ...started.body, lastPoll: 0 };
}

/** poll_cli_login, no faster than the login's interval (faster gets OAUTH_013, slow down). */
async function poll(login) {
  const wait = login.lastPoll + login.interval * 1000 + 250 - Date.now();
  if (wait > 0) await sleep(wait);
  login.lastPoll = Date.now();
  return ctx.api('POST', `/auth/cli/sessions/${login.id}/token`, { body: { deviceCode: login.deviceCode } });
}

test('a login is confirmed, narrowed and approved; the token holds exactly the chosen permissions', async () => {
  const login = await startLogin({ permissions: ['analytics.view', 'bots.view', 'project.view'] });
  assert.match(login.userCode, /^[A-Z]{4}-[A-Z]{4}$/);
  assert.equal(login.verificationUri, `${ctx.base}/cli`);
  assert.equal(login.verificationUriComplete, `${ctx.base}/cli?code=${login.userCode}`);
  const pending = await poll(login);
  assert.equal(pending.status, 400);
  assert.equal(pending.body.error.code, 'OAUTH_012');

  // The code from the link is filled in, but nothing happens before "Continue" (RFC 8628 §5.4).
  await page.goto(login.verificationUriComplete);
  await page.getByRole('heading', { name: 'Confirm the code from your terminal' }).waitFor();
  assert.equal(await codeField(page).inputValue(), login.userCode);
  assert.equal(await page.getByRole('heading', { name: 'Review the sign-in' }).count(), 0);
  await screenshot(page, 'cli-code');
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByRole('heading', { name: 'Review the sign-in' }).waitFor();
  assert.equal(await focusedText(page, 'Review the sign-in'), 'Review the sign-in');
  const details = page.locator('dl.details-list');
  for (const text of ['sightline-cli', 'build-box', 'linux/amd64', '127.0.0.1', login.userCode]) {
    assert.ok((await page.getByRole('main').textContent()).includes(text), text);
  }
  assert.match(await details.textContent(), /Code expires/);
  // Ticked: what was requested and the owner's role allows; the rest of the role unticked.
  const box = (name) => page.getByRole('checkbox', { name: new RegExp(`\\(${name.replace('.', '\\.')}\\)`) });
  const permissions = page.getByRole('group', { name: 'Permissions' }); // a fieldset with its legend
  for (const name of ['analytics.view', 'bots.view', 'project.view']) assert.ok(await box(name).isChecked(), name);
  assert.equal(await permissions.getByRole('checkbox', { checked: true }).count(), 3);
  assert.ok(await permissions.getByRole('checkbox', { checked: false }).count() > 0, 'the rest of the role is offered');
  const organization = page.getByRole('main').getByLabel('Organization', { exact: true });
  assert.equal(await organization.inputValue(), ctx.orgSlug);
  assert.equal(await page.getByRole('main').getByLabel('Project', { exact: true }).inputValue(), ctx.projectId);
  await box('bots.view').uncheck();
  await screenshot(page, 'cli-review');
  await page.getByRole('button', { name: 'Approve' }).click();

  await page.getByRole('heading', { name: 'Signed in — return to your terminal' }).waitFor();
  assert.equal(await focusedText(page, 'Signed in — return to your terminal'), 'Signed in — return to your terminal');
  assert.equal(new URL(page.url()).search, '', 'the used code leaves the URL');
  await screenshot(page, 'cli-approved');

  const token = await poll(login);
  assert.equal(token.status, 200, JSON.stringify(token.body));
  assert.deepEqual([...token.body.permissions].sort(), ['analytics.view', 'project.view']);
  assert.equal(token.body.organization.slug, ctx.orgSlug);
  assert.equal(token.body.projectId, ctx.projectId);
  assert.ok(token.body.accessToken && token.body.refreshToken);
  // The token works within the chosen permissions, and only within them.
  const accessToken = token.body.accessToken;
  assert.equal((await ctx.api('GET', `/web-analytics?projectId=${ctx.projectId}`, { token: accessToken })).status, 200);
  const crawlers = await ctx.api('GET', `/bots/analytics/top?projectId=${ctx.projectId}`, { token: accessToken });
  assert.equal(crawlers.status, 403, JSON.stringify(crawlers.body));
  assert.equal(crawlers.body.error.code, 'PERM_001');

  // Listed on /account, and revoked there.
  await page.getByRole('link', { name: 'Account → Command-line sessions' }).click();
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  const table = page.getByRole('table', { name: 'Signed-in command-line clients' });
  const row = table.getByRole('row').filter({ hasText: 'build-box' });
  await row.waitFor();
  const rowText = await row.textContent();
  for (const text of ['sightline-cli', 'linux/amd64', '127.0.0.1', 'Shop', 'analytics.view', 'project.view']) assert.ok(rowText.includes(text), text);
  assert.ok(!rowText.includes('bots.view'));
  const listed = await ctx.api('GET', '/users/me/cli-sessions', { token: ownerToken });
  assert.equal(listed.status, 200);
  const session = listed.body.sessions.find((item) => item.id === login.id);
  assert.ok(session, JSON.stringify(listed.body));
  assert.deepEqual([...session.permissions].sort(), ['analytics.view', 'project.view']);
  await page.getByRole('heading', { name: 'Command-line sessions', exact: true }).scrollIntoViewIfNeeded();
  await screenshot(page, 'account-cli-sessions');

  await row.getByRole('button', { name: 'Revoke sightline-cli on build-box' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke command-line session?' });
  await screenshot(page, 'account-cli-session-revoke');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('status').filter({ hasText: 'sightline-cli on build-box is signed out.' }).waitFor();
  await table.getByText('No command-line sessions.').waitFor();
  // Focus moves to the list once the dialog has closed (the revoked row's button is gone).
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Signed-in command-line clients');
  const after = await ctx.api('GET', '/users/me/cli-sessions', { token: ownerToken });
  assert.ok(!after.body.sessions.some((item) => item.id === login.id));
  assert.equal((await ctx.api('GET', `/web-analytics?projectId=${ctx.projectId}`, { token: accessToken })).status, 401);
  assert.deepEqual(page.problems, []);
});

test('a login typed by hand and denied: the poll gets OAUTH_014 and the code is used up', async () => {
  const login = await startLogin({ clientName: 'deploy-script', hostname: 'ci-runner-7', os: 'darwin/arm64' });
  await page.goto(`${ctx.base}/cli`);
  await page.getByRole('heading', { name: 'Enter the code from your terminal' }).waitFor();
  // Case and dash do not matter.
  await codeField(page).fill(login.userCode.toLowerCase().replace('-', ''));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Review the sign-in' }).waitFor();
  assert.ok((await page.getByRole('main').textContent()).includes('ci-runner-7'));
  // Nothing requested: everything the role allows is ticked.
  const boxes = page.getByRole('group', { name: 'Permissions' }).getByRole('checkbox');
  assert.ok(await boxes.count() > 5);
  assert.equal(await page.getByRole('group', { name: 'Permissions' }).getByRole('checkbox', { checked: false }).count(), 0);
  await page.getByRole('button', { name: 'Deny' }).click();
  await page.getByRole('heading', { name: 'Denied', exact: true }).waitFor();
  assert.equal(await focusedText(page, 'Denied'), 'Denied');
  await screenshot(page, 'cli-denied');

  const denied = await poll(login);
  assert.equal(denied.status, 403, JSON.stringify(denied.body));
  assert.equal(denied.body.error.code, 'OAUTH_014');
  const again = await ctx.api('GET', `/auth/cli/sessions/lookup?userCode=${login.userCode}`, { token: ownerToken });
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, 'CLI_001');
  assert.deepEqual(page.problems, []);
});

test('an unknown code typed by hand is refused with an explanation', async () => {
  await page.goto(`${ctx.base}/cli`);
  await page.getByRole('heading', { name: 'Enter the code from your terminal' }).waitFor();
  // Not a code at all: said at once, without asking the server.
  await codeField(page).fill('ABC');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').filter({ hasText: 'A code has 8 letters' }).waitFor();
  await codeField(page).fill('ZZZZ-ZZZZ');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').filter({ hasText: 'This code is unknown, expired or already used' }).waitFor();
  assert.equal(await codeField(page).getAttribute('aria-invalid'), 'true');
  await page.waitForFunction(() => document.activeElement?.id === 'cli-user-code'); // back to the field
  assert.equal(await page.getByRole('heading', { name: 'Review the sign-in' }).count(), 0);
  await screenshot(page, 'cli-unknown-code');
  assert.deepEqual(page.problems, []);
});

test('a signed-out browser signs in first and comes back to the code; a phone in the dark theme', async () => {
  const login = await startLogin({ clientName: 'sightline-cli', hostname: 'a-very-long-hostname-of-a-build-machine.internal.example.com', permissions: ['analytics.view'] });
  const phone = await ctx.newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
  try {
    await phone.goto(login.verificationUriComplete);
    await phone.waitForURL(/\/login\?next=/);
    await phone.getByLabel('Email').fill(ctx.owner.email);
    await phone.getByLabel('Password').fill(ctx.owner.password);
    await phone.getByRole('button', { name: 'Sign in', exact: true }).click();
    await phone.getByRole('heading', { name: 'Confirm the code from your terminal' }).waitFor();
    assert.equal(new URL(phone.url()).pathname, '/cli');
    assert.equal(await codeField(phone).inputValue(), login.userCode);
    await screenshot(phone, 'cli-code-phone-dark');
    await phone.getByRole('button', { name: 'Continue' }).click();
    await phone.getByRole('heading', { name: 'Review the sign-in' }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    await screenshot(phone, 'cli-review-phone-dark');
    await phone.getByRole('button', { name: 'Deny' }).click();
    await phone.getByRole('heading', { name: 'Denied', exact: true }).waitFor();
    assert.deepEqual(phone.problems, []);
  } finally {
    await phone.close();
  }
});

test('axe-core finds no accessibility violations in the sign-in page, light and dark', async () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  for (const colorScheme of ['light', 'dark']) {
    // axe is injected as a script, which the CSP would refuse: this page bypasses it.
    const checked = await ctx.newPage({ locale: 'en-US', colorScheme, bypassCSP: true });
    try {
      await ctx.signIn(checked);
      const login = await startLogin({ permissions: ['analytics.view', 'member.invite'] });
      const check = async (step) => {
        await checked.addScriptTag({ content: axeSource });
        const violations = await checked.evaluate(async () => {
          const result = await window.axe.run({ include: [['main']] }, { resultTypes: ['violations'] });
          return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        });
        assert.deepEqual(violations, [], `${colorScheme} ${step}`);
      };
      await checked.goto(login.verificationUriComplete);
      await checked.getByRole('heading', { name: 'Confirm the code from your terminal' }).waitFor();
      await check('code');
      await checked.getByRole('button', { name: 'Continue' }).click();
      await checked.getByRole('heading', { name: 'Review the sign-in' }).waitFor();
      await check('review');
      await checked.getByRole('button', { name: 'Approve' }).click();
      await checked.getByRole('heading', { name: 'Signed in — return to your terminal' }).waitFor();
      await check('approved');
    } finally {
      await checked.close();
    }
  }
});

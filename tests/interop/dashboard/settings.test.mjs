// Settings in Chromium against the real server: a private API key created with a one-time
// display (it works over REST) and revoked with a confirmation (then it does not); a member
// invited from the members page (the link accepts); the reporting timezone changed; a project
// without data saying so on its reports, with snippets that work when pasted into a page, and
// turning live when the first event arrives; usage, audit log, a phone-sized screen and the
// dark theme. A screenshot of every page goes to $SIGHTLINE_SCREENSHOT_DIR.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { start, screenshot } from './harness.mjs';

let ctx;
let page;
let ownerToken;

before(async () => {
  ctx = await start({ name: 'dashboard-settings' });
  ownerToken = (await ctx.api('POST', '/auth/login', { body: ctx.owner })).body.accessToken;
  page = await ctx.newPage();
  await ctx.signIn(page);
});
after(async () => { await ctx?.stop(); });

const projectUrl = (view) => `${ctx.base}/${ctx.orgSlug}/${ctx.projectId}/${view}`;

test('a private API key is created with a one-time display and revoked with a confirmation', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Project settings', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Create private API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create private API key' });
  await dialog.getByLabel('Key name').fill('Billing server');
  await dialog.getByRole('button', { name: 'Create' }).click();
  const shown = page.getByRole('dialog', { name: 'Private API key created' });
  await shown.getByText(/shown only once/).waitFor();
  const key = await shown.getByRole('textbox', { name: 'New private API key' }).inputValue();
  assert.match(key, /^sk_/);
  await screenshot(page, 'settings-key-created');
  await shown.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('cell', { name: 'Billing server', exact: true }).waitFor();
  // Shown once: the list has the prefix only, and the page no longer holds the secret.
  assert.equal(await page.getByText(key).count(), 0);
  const listed = await ctx.api('GET', `/${ctx.orgSlug}/projects/${ctx.projectId}/private-api-keys`, { token: ownerToken });
  assert.ok(listed.body.keys.every((item) => item.key === undefined));

  // The key works, until it is revoked.
  const reportPath = `/web-analytics?projectId=${ctx.projectId}`;
  assert.equal((await ctx.api('GET', reportPath, { token: key })).status, 200);
  await page.getByRole('button', { name: 'Revoke private API key Billing server' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke private API key?' });
  await screenshot(page, 'settings-key-revoke');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('cell', { name: 'Billing server', exact: true }).waitFor({ state: 'detached' });
  assert.equal((await ctx.api('GET', reportPath, { token: key })).status, 401);
  assert.deepEqual(page.problems, []);
});

test('the reporting timezone, the own domains and a switch are changed and saved', async () => {
  await page.goto(projectUrl('settings'));
  await page.getByLabel('Reporting timezone').selectOption('Europe/Berlin');
  await page.getByLabel('Own domains, one per line').fill('shop.example\nhttps://www.Blog.example/');
  await page.getByRole('switch', { name: 'IP logging' }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Project settings saved.' }).waitFor();
  const project = await ctx.api('GET', `/${ctx.orgSlug}/projects/${ctx.projectId}`, { token: ownerToken });
  assert.equal(project.body.reportingTimezone, 'Europe/Berlin');
  assert.equal(project.body.ipLogging, true);
  assert.deepEqual(project.body.domains, ['shop.example', 'blog.example']);
  // A reload shows the saved values.
  await page.reload();
  assert.equal(await page.getByLabel('Reporting timezone').inputValue(), 'Europe/Berlin');
  assert.equal(await page.getByLabel('Own domains, one per line').inputValue(), 'shop.example\nblog.example');
  await screenshot(page, 'settings');
});

test('a member is invited from the members page and the link accepts', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Invite a member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  const email = `new-${ctx.unique}@acme.test`;
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByLabel('Role').selectOption('developer');
  await dialog.getByRole('button', { name: 'Create invitation' }).click();
  const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  assert.match(link, new RegExp(`^${ctx.base}/invite\\?token=`));
  await screenshot(page, 'members-invited');
  await page.getByRole('dialog', { name: 'Invitation created' }).getByRole('button', { name: 'Done' }).click();
  await page.getByRole('cell', { name: email, exact: true }).waitFor();
  await screenshot(page, 'members');

  const token = new URL(link).searchParams.get('token');
  const accepted = await ctx.api('POST', '/invitations/accept', { body: { token, password: 'a new member password' } });
  assert.equal(accepted.status, 200);
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: email });
  assert.equal(await row.getByRole('combobox', { name: `Role of ${email}` }).inputValue(), 'developer');
  // The owner changes the new member's role.
  await row.getByRole('combobox', { name: `Role of ${email}` }).selectOption('analyst');
  await page.getByRole('status').filter({ hasText: 'is now analyst' }).waitFor();
  const members = await ctx.api('GET', `/${ctx.orgSlug}/members`, { token: ownerToken });
  assert.equal(members.body.members.find((member) => member.email === email).role, 'analyst');
});

test('the audit log lists what was done', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
  await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Audit log entries' }).getByRole('row').nth(1).waitFor();
  assert.ok(await page.getByRole('cell', { name: /member\.invite|invitation/ }).count() > 0);
  await screenshot(page, 'audit-log');
});

const desktopChrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

test('a project without data says so on its reports; each snippet, pasted into a page, sends a pageview', async () => {
  await page.goto(projectUrl('web'));
  const waiting = page.getByRole('heading', { name: 'Waiting for the first event' });
  await waiting.waitFor();
  // SDK keys are public: the snippets carry the whole key (the bootstrap's), ready to paste.
  await page.getByLabel('Tracking snippet', { exact: true }).filter({ hasText: ctx.boot.sdkKey }).waitFor();
  const script = await page.getByLabel('Tracking snippet', { exact: true }).textContent();
  assert.equal(/sdkKey: "([^"]+)"/.exec(script)?.[1], ctx.boot.sdkKey);
  assert.ok(script.includes(`${ctx.base}/api/sdk/v1/script.js`));
  const module = await page.getByLabel('Module snippet', { exact: true }).textContent();
  assert.ok(module.includes(`import { createSightline } from "${ctx.base}/api/sdk/v1/sightline.esm.js"`), module);
  await screenshot(page, 'web-waiting-for-data');

  // Each snippet in the <head> of a page of another site (another origin, on loopback).
  const site = createServer((request, response) => {
    const code = request.url === '/from-module' ? module : script;
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><title>A site</title>${code}</head><body><p>Hello</p></body></html>`);
  });
  await new Promise((done) => site.listen(0, '127.0.0.1', done));
  try {
    for (const path of ['/from-script', '/from-module']) {
      // A desktop Chrome's User-Agent: headless Chromium's own names itself and is counted as a bot.
      const visitor = await ctx.newPage({ userAgent: desktopChrome });
      await visitor.goto(`http://127.0.0.1:${site.address().port}${path}`);
      const arrived = async () => {
        const pages = await ctx.api('GET', `/web-analytics/breakdown?dimension=top_page&projectId=${ctx.projectId}`,
          { headers: { Authorization: `Bearer ${ctx.boot.privateApiKey}` } });
        return (pages.body.rows ?? []).some((row) => row.value === path);
      };
      for (let tries = 0; !(await arrived()); tries += 1) {
        assert.ok(tries < 50, `no pageview of ${path} arrived`);
        await new Promise((done) => setTimeout(done, 200));
      }
      assert.deepEqual(visitor.problems, [], path);
      await visitor.close();
    }
  } finally {
    site.close();
  }
  // The report turned live by itself, asked again when the first pageview came.
  await waiting.waitFor({ state: 'detached', timeout: 15_000 });
  await page.getByRole('table', { name: 'Page by pageviews' }).getByRole('button', { name: '/from-script', exact: true }).waitFor();
  // Two visitors now: the report's header says so, and the Live page shows the last 30 minutes.
  await page.goto(projectUrl('web'));
  await page.locator('.visitors-now [data-realtime="visitorsNow"]').filter({ hasText: /^2$/ }).waitFor();
  await page.getByRole('link', { name: /2 visitors now/ }).click();
  await page.getByRole('heading', { name: 'Last 30 minutes' }).waitFor();
  await page.locator('.realtime [data-realtime="visitorsNow"]').filter({ hasText: /^2$/ }).waitFor();
  assert.equal(await page.getByRole('table', { name: 'Pages of the last 30 minutes' }).locator('tbody tr').count(), 2);
  await screenshot(page, 'live-realtime');
  await page.goto(projectUrl('setup'));
  await page.getByRole('heading', { name: 'Live' }).waitFor({ timeout: 15_000 });
  await page.getByRole('status').filter({ hasText: 'screen_view' }).waitFor();
  await screenshot(page, 'setup-live');
  assert.deepEqual(page.problems, []);
});

test('usage, a phone-sized screen and the dark theme', async () => {
  await page.goto(projectUrl('usage'));
  await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Events per month' }).waitFor();
  await screenshot(page, 'usage');

  const phone = await ctx.newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
  await ctx.signIn(phone);
  await phone.goto(projectUrl('settings'));
  await phone.getByRole('heading', { name: 'Project settings', level: 1 }).waitFor();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const background = await phone.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(15, 18, 24)', 'dark theme from prefers-color-scheme');
  await screenshot(phone, 'settings-phone-dark');
  await phone.getByRole('button', { name: 'Menu' }).click();
  await phone.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await phone.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
  await screenshot(phone, 'members-phone-dark');
  assert.deepEqual(phone.problems, []);
  await phone.close();
  assert.deepEqual(page.problems, []);
});

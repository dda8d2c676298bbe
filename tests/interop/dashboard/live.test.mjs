// The Live view in a real browser against the real server: a page on another origin loads the
// real tracking script and sends an event with notify: true; the Live view shows it in the
// feed and announces it in its polite live region. Events without notify arrive by the poll;
// pause and resume work; older events load with "Load more".
// Run: node --test tests/interop/dashboard/live.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { start, screenshot } from './harness.mjs';

const desktopChrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let context;
let page;
let site;
let siteUrl;

before(async () => {
  context = await start({ name: 'live' });
  // 60 older events, so that the feed has a second page.
  const anonymous = randomUUID();
  const now = Date.now();
  const events = Array.from({ length: 60 }, (_, i) => ({
    event: `older_${i}`, channel: 'history', anonymous_id: anonymous, timestamp: now - 3_600_000 - i * 1000,
  }));
  const seeded = await context.api('POST', '/sdk/v1/logs/batch', { body: { events }, headers: { 'x-sdk-key': context.boot.sdkKey } });
  assert.equal(seeded.status, 202, JSON.stringify(seeded.body));
  // Another origin (127.0.0.1, the dashboard is on localhost) serving a page with the script.
  site = createServer((req, res) => {
    const settings = JSON.stringify({ sdkKey: context.boot.sdkKey, baseUrl: `${context.base}/api` });
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><html><head><title>Shop</title></head>
<body><h1>Shop</h1><script>window.SightlineConfig = ${settings};</script>
<script src="${context.base}/api/sdk/v1/script.js"></script></body></html>`);
  });
  await new Promise((done) => site.listen(0, '127.0.0.1', done));
  siteUrl = `http://127.0.0.1:${site.address().port}`;
  page = await context.newPage({ locale: 'en-US' });
  await context.signIn(page);
});

after(async () => {
  site?.close();
  await context?.stop();
});

const feed = () => page.getByRole('list', { name: 'Events, newest first' });
const items = () => feed().locator(':scope > li');
const notifications = () => page.getByRole('log', { name: 'Notifications' });

test('the feed lists the newest events and loads older ones', async () => {
  await page.goto(`${context.base}/${context.orgSlug}/${context.projectId}/live`);
  await page.getByRole('heading', { level: 1, name: 'Live' }).waitFor();
  await feed().getByText('older_0', { exact: true }).waitFor();
  assert.equal(await items().count(), 50);
  await page.getByRole('button', { name: 'Load more' }).click();
  await feed().getByText('older_59', { exact: true }).waitFor();
  assert.equal(await items().count(), 60);
  assert.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0);
  // The notification region is there from the start (empty), so additions are announced.
  assert.equal(await notifications().getAttribute('aria-live'), 'polite');
});

test('a tracked event with notify: true appears in the feed and is announced', async () => {
  await page.getByRole('status').filter({ hasText: 'Live' }).first().waitFor();
  // A desktop Chrome's User-Agent: HeadlessChrome is automation, and bots raise no notifications.
  const shop = await context.browser.newPage({ userAgent: desktopChrome });
  try {
    await shop.goto(siteUrl);
    await shop.waitForFunction(() => window.sightline);
    await shop.evaluate(() => window.sightline.track('purchase', {
      channel: 'payments', icon: '💰', notify: true, description: 'Order #42 paid', tags: { plan: 'pro' },
    }));
  } finally {
    await shop.close();
  }
  await notifications().getByText('purchase').waitFor({ timeout: 15_000 });
  assert.match(await notifications().textContent(), /purchase.*payments.*Order #42 paid/s);
  const item = items().filter({ hasText: 'purchase' });
  await item.waitFor();
  const text = await item.textContent();
  assert.match(text, /payments/);
  assert.match(text, /Order #42 paid/);
  assert.match(text, /plan pro/);
  assert.match(text, /💰/);
  assert.match(text, /Anonymous [0-9a-f]{8}/);
  // Newest first: the arrival is on top.
  assert.match(await items().first().textContent(), /purchase/);
  await screenshot(page, 'live');
});

test('events without notify arrive too, and pause holds the feed until resumed', async () => {
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('status').filter({ hasText: 'Paused' }).first().waitFor();
  const sent = await context.api('POST', '/sdk/v1/logs', {
    body: { event: 'signup', channel: 'growth', anonymous_id: randomUUID() }, headers: { 'x-sdk-key': context.boot.sdkKey },
  });
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
  await page.waitForTimeout(6000); // longer than the poll
  assert.equal(await feed().getByText('signup', { exact: true }).count(), 0, 'paused: nothing new');
  await page.getByRole('button', { name: 'Resume' }).click();
  await feed().getByText('signup', { exact: true }).waitFor({ timeout: 10_000 });
  await page.getByRole('status').filter({ hasText: 'Live' }).first().waitFor();
  assert.deepEqual(page.problems, []);
});

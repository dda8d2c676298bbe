// The report pages in a real browser against the real server: the figures the dashboard shows
// are the REST reports' figures, the period and comparison live in the URL, a row drills into
// its value, the crawler filters work, and every view marks 'sightline:view-ready'.
// Run: node --test tests/interop/dashboard/reports.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { start, screenshot } from './harness.mjs';

let context;
let page;
const day = 86_400_000;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
const today = () => isoDay(Date.now()); // the bootstrap project's reporting timezone is UTC
const number = (value) => new Intl.NumberFormat('en-US').format(value);
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot';

async function seed() {
  const now = Date.now();
  const pages = ['/', '/pricing', '/docs', '/blog/launch'];
  const events = [];
  for (let d = 0; d < 20; d += 1) {
    for (let v = 0; v <= d % 4; v += 1) {
      const anonymous = randomUUID();
      const at = now - d * day - v * 120_000 - 600_000;
      for (let p = 0; p <= (d + v) % 3; p += 1) {
        events.push({ event: 'screen_view', channel: 'web', anonymous_id: anonymous, timestamp: at + p * 20_000,
          tags: { $url: `https://shop.example${pages[(d + v + p) % pages.length]}`, $referrer: p === 0 && v % 2 ? 'https://news.ycombinator.com/' : '' } });
      }
      if (v === 0) events.push({ event: 'signup', channel: 'growth', anonymous_id: anonymous, timestamp: at + 90_000 });
    }
  }
  const web = await context.api('POST', '/sdk/v1/logs/batch', { body: { events }, headers: { 'x-sdk-key': context.boot.sdkKey } });
  assert.equal(web.status, 202, JSON.stringify(web.body));
  // GPTBot's user agent from addresses that are not OpenAI's: spoofed or suspected, never verified.
  const agents = [GPTBOT, 'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'curl/8.5.0'];
  const items = [];
  for (let d = 0; d < 20; d += 1) {
    for (let k = 0; k < 3 + (d % 3); k += 1) {
      items.push({ user_agent: agents[(d + k) % agents.length], ip_address: ['203.0.113.7', '81.2.69.142', '8.8.8.8'][k % 3],
        path: pages[k % pages.length], client_timestamp: now - d * day - k * 60_000 - 600_000 });
    }
  }
  const bots = await context.api('POST', '/ingest/v1/server', { body: { events: items }, headers: { Authorization: `Bearer ${context.boot.privateApiKey}` } });
  assert.equal(bots.status, 202, JSON.stringify(bots.body));
}

/** A REST report with the bootstrap private API key (its project implied). */
async function report(path, query) {
  const response = await context.api('GET', `${path}?${new URLSearchParams(query)}`, { headers: { Authorization: `Bearer ${context.boot.privateApiKey}` } });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

/** Forgets the last view's mark, before an action that starts a new view load. */
async function resetReady() {
  await page.evaluate(() => performance.clearMarks('sightline:view-ready'));
}

async function viewReady() {
  await page.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length === 1, null, { timeout: 15_000 });
}

const projectUrl = (view, search = '') => `${context.base}/${context.orgSlug}/${context.projectId}/${view}${search}`;

before(async () => {
  context = await start({ name: 'reports' });
  await seed();
  page = await context.newPage({ locale: 'en-US' });
  await context.signIn(page);
});
after(async () => { await context?.stop(); });

test('web analytics shows the REST figures, and the comparison mode is in the URL', async () => {
  const from = isoDay(Date.now() - 6 * day);
  await page.goto(projectUrl('web', '?period=7d'));
  await viewReady();
  const rest = await report('/web-analytics', { from, to: today() });
  for (const key of ['visitors', 'visits', 'pageviews', 'events']) {
    assert.equal(await page.locator(`[data-metric="${key}"]`).textContent(), number(rest.metrics[key].value), key);
    assert.equal(await page.locator(`[data-previous="${key}"]`).textContent(), number(rest.metrics[key].previous), `previous ${key}`);
  }
  const pages = await report('/web-analytics/breakdown', { from, to: today(), dimension: 'top_page', limit: 10 });
  const table = page.getByRole('table', { name: 'Page by pageviews' });
  const firstRow = table.getByRole('row').nth(1);
  assert.equal(await firstRow.getByRole('rowheader').textContent(), pages.rows[0].value);
  assert.equal(await firstRow.getByRole('cell').first().textContent(), number(pages.rows[0].count));
  await screenshot(page, 'reports-web');

  await resetReady();
  await page.getByLabel('Compare with').selectOption('previous_week');
  await page.waitForURL(/compare=previous_week/);
  await viewReady();
  const weekBefore = await report('/web-analytics', { from, to: today(), comparePreset: 'previous_week' });
  assert.equal(await page.locator('[data-previous="pageviews"]').textContent(), number(weekBefore.metrics.pageviews.previous));

  await page.getByLabel('Compare with').selectOption('off');
  await page.waitForURL(/compare=off/);
  assert.equal(await page.locator('[data-previous="pageviews"]').count(), 0);

  // Drill into the top page: its series with the comparison, in the URL.
  await resetReady();
  await page.getByLabel('Compare with').selectOption('previous_period');
  await viewReady();
  await table.getByRole('button', { name: pages.rows[0].value, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('drill') === `top_page:${pages.rows[0].value}`);
  await page.getByRole('heading', { name: `Page: ${pages.rows[0].value}` }).waitFor();
  await page.locator('[data-drill-total]').waitFor();
  assert.equal(await page.locator('[data-drill-total]').textContent(), number(pages.rows[0].count));
  await screenshot(page, 'reports-web-drill');

  // A custom range from the URL, reloadable.
  await page.goto(projectUrl('web', `?period=custom&from=${isoDay(Date.now() - 13 * day)}&to=${isoDay(Date.now() - 7 * day)}`));
  await viewReady();
  const custom = await report('/web-analytics', { from: isoDay(Date.now() - 13 * day), to: isoDay(Date.now() - 7 * day) });
  assert.equal(await page.locator('[data-metric="visitors"]').textContent(), number(custom.metrics.visitors.value));
  assert.deepEqual(page.problems, []);
});

test('crawler analytics: totals, the verification split and the AI filter match REST', async () => {
  const from = isoDay(Date.now() - 29 * day);
  await page.goto(projectUrl('crawlers', '?period=30d'));
  await viewReady();
  const top = await report('/bots/analytics/top', { from, to: today(), limit: 25 });
  const cards = page.getByRole('list', { name: 'Requests by verification' });
  assert.equal(await cards.locator('[data-metric="total"]').textContent(), number(top.totalRequests));
  for (const actorType of ['verified_bot', 'spoofed_bot', 'suspected_bot']) {
    const split = await report('/bots/analytics/top', { from, to: today(), actorType, limit: 1 });
    assert.equal(await cards.locator(`[data-metric="${actorType}"]`).textContent(), number(split.totalRequests), actorType);
  }
  const verified = await report('/bots/analytics/top', { from, to: today(), actorType: 'verified_bot', limit: 1 });
  assert.equal(verified.totalRequests, 0, 'GPTBot from a non-OpenAI address must not be verified');
  const bots = page.getByRole('table', { name: 'Crawlers by requests' });
  assert.equal(await bots.getByRole('row').count(), top.rows.length + 1);
  await screenshot(page, 'reports-crawlers');

  await resetReady();
  await page.getByRole('switch', { name: 'AI agents only' }).check();
  await page.waitForURL(/[?&]ai=1/);
  await viewReady();
  const ai = await report('/bots/analytics/top', { from, to: today(), isAi: 'true', limit: 25 });
  assert.equal(await cards.locator('[data-metric="total"]').textContent(), number(ai.totalRequests));
  await resetReady();
  await page.getByLabel('Verification', { exact: true }).selectOption('spoofed_bot');
  await page.waitForURL(/actorType=spoofed_bot/);
  await viewReady();
  const spoofedAi = await report('/bots/analytics/top', { from, to: today(), isAi: 'true', actorType: 'spoofed_bot', limit: 25 });
  assert.equal(await cards.locator('[data-metric="total"]').textContent(), number(spoofedAi.totalRequests));
  await screenshot(page, 'reports-crawlers-ai-spoofed');
  assert.deepEqual(page.problems, []);
});

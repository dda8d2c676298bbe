// The demo project `sightline admin demo` makes (script/server's), seen as a new user sees it:
// the web report has traffic and no first-run panel; the crawler list shows each crawler's
// robots.txt access on the sample site with the requests robots.txt disallows, and the visits
// back from its vendor's AI assistant, equal to get_crawler_access; the site audit shows the
// sample site's crawl; the pages fit 1280×800 and log no error.
// Run (from tests/interop): node --test dashboard/demo.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { layoutProblems, start, screenshot } from './harness.mjs';

let context;
let page;
let demo;
const number = (value) => new Intl.NumberFormat('en-US').format(value);
const demoUrl = (view, search = '') => `${context.base}/${demo.orgSlug}/${demo.projectId}/${view}${search}`;

async function viewReady() {
  await page.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length === 1, null, { timeout: 30_000 });
}

async function report(path, query) {
  const response = await context.api('GET', `${path}?${new URLSearchParams(query)}`, { headers: { Authorization: `Bearer ${demo.privateApiKey}` } });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

before(async () => {
  context = await start({ name: 'demo' });
  // Made while the server runs, as a second process on the same store.
  demo = JSON.parse(execFileSync(process.env.SIGHTLINE_BINARY, ['admin', 'demo', ...context.storeArgs,
    '--email', context.owner.email, '--org', context.orgName, '--days', '14'], { encoding: 'utf8' }));
  assert.equal(demo.generated, true);
  assert.equal(demo.orgSlug, context.orgSlug);
  page = await context.newPage({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  await context.signIn(page);
});
after(async () => { await context?.stop(); });

test('the demo project opens on traffic, not on the first-run panel', async () => {
  await page.goto(demoUrl('web', '?period=7d'));
  await viewReady();
  assert.equal(await page.getByText('Waiting for the first event').count(), 0);
  const visitors = await page.getByRole('list', { name: 'Summary' }).locator('[data-metric="visitors"]').textContent();
  assert.notEqual(visitors.trim(), '0');
  assert.deepEqual(await layoutProblems(page), []);
  await screenshot(page, 'demo-web');
});

test('each crawler row shows its robots.txt access, what it fetched against it, and the visits back', async () => {
  await page.goto(demoUrl('crawlers', '?period=7d'));
  await viewReady();
  const day = 86_400_000;
  const access = await report('/bots/analytics/access', { from: new Date(Date.now() - 6 * day).toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) });
  assert.equal(access.site.origin, 'https://outfitters.example');
  const bots = page.getByRole('table', { name: 'Crawlers by requests' });
  const cell = (crawler, label) => bots.getByRole('row').filter({ has: page.getByRole('button', { name: crawler, exact: true }) })
    .locator(`td[data-label="${label}"]`);
  const gptbot = access.crawlers.find((row) => row.name === 'GPTBot');
  assert.equal(gptbot.access, 'disallowed');
  assert.ok(gptbot.current.disallowedRequests.total > 0);
  assert.equal((await cell('GPTBot', 'robots.txt').textContent()).trim(), `Blocked, ${number(gptbot.current.disallowedRequests.total)} disallowed`);
  assert.equal(await cell('GPTBot', 'robots.txt').locator('[title]').getAttribute('title'), gptbot.statement);
  const openai = access.vendors.find((row) => row.vendor === 'OpenAI');
  assert.ok(openai.referralVisits > 0);
  assert.equal((await cell('ChatGPT-User', 'Visits back').textContent()).trim(), `${number(openai.referralVisits)} from ChatGPT`);
  const bingbot = access.crawlers.find((row) => row.name === 'Bingbot');
  assert.equal((await cell('Bingbot', 'robots.txt').textContent()).trim(), bingbot.current.disallowedRequests.total > 0
    ? `Partly allowed, ${number(bingbot.current.disallowedRequests.total)} disallowed` : 'Partly allowed');
  assert.deepEqual(await layoutProblems(page), []);
  await screenshot(page, 'demo-crawlers');
});

test('AI visibility shows the demo runs\' answers, with a notice that its scripted engine makes no new runs', async () => {
  await page.goto(demoUrl('ai-visibility', '?period=30d'));
  await page.getByRole('heading', { name: 'Brand visibility' }).waitFor();
  assert.equal(await page.getByRole('heading', { name: 'Set up AI visibility' }).count(), 0);
  await page.getByText('Every engine is turned off, so no new runs are made').waitFor();
  const byEngine = page.getByRole('region', { name: 'Visibility by engine' });
  await byEngine.locator('tbody tr[data-group]').first().waitFor();
  const answers = await byEngine.locator('tbody tr[data-group] td.num').allTextContents();
  assert.ok(answers.some((text) => Number(text.replace(/,/g, '')) > 0), `answers per engine: ${answers}`);
  assert.deepEqual(await layoutProblems(page), []);
  await screenshot(page, 'demo-ai-visibility');
  // On a phone too, each brand's row names it (a class shared with the header's hidden wordmark
  // once hid them).
  await page.setViewportSize({ width: 390, height: 844 });
  for (const name of ['Ridgeline Gear', 'Trailhead Co-op']) {
    const box = await page.getByRole('rowheader', { name, exact: true }).first().boundingBox();
    assert.ok(box && box.width > 40 && box.height > 10, `${name} at ${JSON.stringify(box)}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('the site audit shows the crawl of the sample site', async () => {
  await page.goto(demoUrl('site-audit'));
  await page.getByText('https://outfitters.example').first().waitFor();
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'demo-site-audit');
});

// Every report page of a project with data of every kind, as the layout rule asks.
const layoutViews = ['web?period=30d', 'crawlers?period=30d', 'ai-visibility?period=30d', 'ai-visibility?period=30d&tab=loop',
  'ai-visibility?tab=answers', 'site-audit?tab=crawls', 'site-audit?tab=issues', 'site-audit?tab=pages', 'site-audit?tab=robots&period=30d'];

// (reports.test.mjs checks the web and crawler pages in both themes at both sizes; the theme
// changes colours, not sizes, so here each size is seen in one.)
test('at 1280×800 and 390×844 no report page overflows, cuts or spills text', async () => {
  const found = [];
  for (const [width, height, colorScheme] of [[1280, 800, 'light'], [390, 844, 'dark']]) {
    const checked = await context.newPage({ locale: 'en-US', viewport: { width, height }, colorScheme });
    try {
      await context.signIn(checked);
      for (const view of layoutViews) {
        const [path, search] = view.split('?');
        await checked.goto(demoUrl(path, `?${search}`));
        await checked.waitForLoadState('networkidle');
        await checked.locator('[aria-busy="true"], .loading').first().waitFor({ state: 'detached', timeout: 30_000 }).catch(() => {});
        const name = `${path}-${new URLSearchParams(search).get('tab') ?? 'main'}-${width}x${height}-${colorScheme}`;
        await screenshot(checked, `demo-layout-${name}`);
        for (const problem of await layoutProblems(checked)) found.push(`${name}: ${problem}`);
      }
      assert.deepEqual(checked.problems, []);
    } finally {
      await checked.close();
    }
  }
  assert.deepEqual([...new Set(found)], []);
});

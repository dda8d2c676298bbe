// The report pages in a real browser against the real server: the figures the dashboard shows
// are the REST reports' figures, the period and comparison live in the URL, a row filters
// its value, the crawler filters work, the reporting timezone decides the days, the pages fit a
// phone in the dark theme, axe-core finds nothing, and every view marks 'sightline:view-ready'.
// Run (from tests/interop): node --test dashboard/reports.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { layoutProblems, start, screenshot } from './harness.mjs';

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
  // At 1280 px beside the menu the seven metric cards are one row, not five and two.
  const tops = await page.getByRole('list', { name: 'Summary' }).locator(':scope > li').evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
  assert.equal(tops.length, 7);
  assert.equal(new Set(tops).size, 1, `metric card rows at ${JSON.stringify(tops)}`);
  const pages = await report('/web-analytics/breakdown', { from, to: today(), dimension: 'top_page', limit: 10 });
  const table = page.getByRole('table', { name: 'Page by pageviews' });
  const firstRow = table.getByRole('row').nth(1);
  assert.equal(await firstRow.getByRole('rowheader').textContent(), pages.rows[0].value);
  assert.equal(await firstRow.getByRole('cell').first().textContent(), number(pages.rows[0].count));
  // The change column only; the previous value and the absolute change are in its tooltip.
  const absolute = pages.rows[0].absoluteChange;
  assert.equal(await firstRow.getByRole('cell').last().getAttribute('title'),
    `Previous: ${number(pages.rows[0].previousCount)} (${absolute === 0 ? '±0' : `${absolute > 0 ? '+' : '-'}${number(Math.abs(absolute))}`})`);
  assert.equal(await table.getByRole('columnheader').allTextContents().then((heads) => heads.join('|')), 'Page|Pageviews|Visitors|Change');
  // The timeline's tooltip: the hovered day's figure, as the REST timeline gives it.
  const timeline = await report('/web-analytics/timeline', { from, to: today(), interval: 'day' });
  const plot = page.locator('.timeline .u-over').first();
  const box = await plot.boundingBox();
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2); // the last bucket: today
  const tip = page.locator('.timeline-tip');
  await tip.waitFor();
  // Today is still going: its figure is the dotted, incomplete piece of the line.
  assert.match(await tip.textContent(), new RegExp(`Visitors \\(incomplete\\): ${number(timeline.points.at(-1).visitors)}(?!\\d)`));
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

  // Clicking a row filters the whole view to the visits with that value, in the URL; the figures
  // are the filtered REST reports'.
  await resetReady();
  await page.getByLabel('Compare with').selectOption('previous_period');
  await viewReady();
  const topPage = pages.rows[0].value;
  const countries = await report('/web-analytics/breakdown', { from, to: today(), dimension: 'country', limit: 50 });
  await resetReady();
  await table.getByRole('button', { name: topPage, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('f') === `is,event:page,${topPage}`);
  await page.getByRole('button', { name: `Edit filter: Page is ${topPage}` }).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'filter-heading'); // moved up to it
  await viewReady();
  const filtered = await report('/web-analytics', { from, to: today(), filter: `top_page:${topPage}` });
  assert.ok(filtered.metrics.pageviews.value < rest.metrics.pageviews.value, 'the filter keeps fewer pageviews');
  for (const key of ['visitors', 'visits', 'pageviews', 'events']) {
    assert.equal(await page.locator(`[data-metric="${key}"]`).textContent(), number(filtered.metrics[key].value), `filtered ${key}`);
  }
  const filteredCountries = await report('/web-analytics/breakdown',
    { from, to: today(), dimension: 'country', limit: 50, filter: `top_page:${topPage}` });
  assert.notDeepEqual(filteredCountries.rows, countries.rows);
  const countryTable = page.getByRole('table', { name: 'Country by visitors' });
  assert.equal(await countryTable.getByRole('row').count(), filteredCountries.rows.length + 1);
  await screenshot(page, 'reports-web-filter');
  await resetReady();
  await page.reload();
  await viewReady();
  assert.equal(await page.locator('[data-metric="visits"]').textContent(), number(filtered.metrics.visits.value));

  // A breakdown tab is in the URL too.
  await page.getByRole('tab', { name: 'Referrers' }).click();
  await page.waitForURL((url) => url.searchParams.get('sources') === 'referrer');
  const referrers = await report('/web-analytics/breakdown', { from, to: today(), dimension: 'referrer', limit: 10 });
  const referrerTable = page.getByRole('table', { name: 'Referrer by visitors' });
  await referrerTable.waitFor();
  assert.equal(await referrerTable.getByRole('row').count(), referrers.rows.length + 1);
  await resetReady();
  await page.reload();
  await viewReady();
  assert.equal(await page.getByRole('tab', { name: 'Referrers' }).getAttribute('aria-selected'), 'true');
  await page.getByRole('tab', { name: 'Channels', exact: true }).click();
  await page.waitForURL((url) => !url.searchParams.has('sources'));
  // Channels are acquisition channels now, counted in visitors (the event's own channel is
  // the Events card's "Event channels" tab).
  await page.getByRole('table', { name: 'Channel by visitors' }).waitFor();

  // A custom comparison window, typed into the picker.
  await page.getByRole('button', { name: /^Remove filter/ }).click();
  await page.waitForURL((url) => !url.searchParams.has('f'));
  await page.waitForFunction(() => document.activeElement?.id === 'filter-heading'); // stays in the bar
  const compareFrom = isoDay(Date.now() - 20 * day);
  const compareTo = isoDay(Date.now() - 14 * day);
  await page.getByLabel('Compare with').selectOption('custom');
  await page.getByLabel('Compare from').fill(compareFrom);
  await page.getByLabel('Compare to').fill(compareTo);
  await page.waitForURL((url) => url.searchParams.get('compareFrom') === compareFrom && url.searchParams.get('compareTo') === compareTo);
  await resetReady();
  await page.reload();
  await viewReady();
  const customCompare = await report('/web-analytics', { from, to: today(), compareFrom, compareTo });
  assert.equal(await page.locator('[data-previous="visitors"]').textContent(), number(customCompare.metrics.visitors.previous));
  assert.equal(await page.locator('[data-previous="pageviews"]').textContent(), number(customCompare.metrics.pageviews.previous));

  // A preset chosen in the picker.
  await resetReady();
  await page.getByLabel('Period', { exact: true }).selectOption('yesterday');
  await page.waitForURL(/period=yesterday/);
  await viewReady();
  const yesterday = isoDay(Date.now() - day);
  const oneDay = await report('/web-analytics', { from: yesterday, to: yesterday, compareFrom, compareTo });
  assert.equal(await page.locator('[data-metric="pageviews"]').textContent(), number(oneDay.metrics.pageviews.value));

  // A custom range from the URL, reloadable.
  await page.goto(projectUrl('web', `?period=custom&from=${isoDay(Date.now() - 13 * day)}&to=${isoDay(Date.now() - 7 * day)}`));
  await viewReady();
  const custom = await report('/web-analytics', { from: isoDay(Date.now() - 13 * day), to: isoDay(Date.now() - 7 * day) });
  assert.equal(await page.locator('[data-metric="visitors"]').textContent(), number(custom.metrics.visitors.value));

  // A comparison window out of the server's reach: its error, once, with the code.
  await resetReady();
  await page.goto(projectUrl('web', '?compare=custom&compareFrom=2020-01-01&compareTo=2020-01-31'));
  await viewReady();
  const refused = await context.api('GET', `/web-analytics?compareFrom=2020-01-01&compareTo=2020-01-31`, { headers: { Authorization: `Bearer ${context.boot.privateApiKey}` } });
  assert.equal(refused.status, 400);
  await page.getByRole('alert').waitFor();
  assert.equal(await page.getByRole('alert').count(), 1);
  assert.equal(await page.getByRole('alert').textContent(), `${refused.body.error.message} (${refused.body.error.code})`);
  await screenshot(page, 'reports-web-error');
  assert.deepEqual(page.problems, []);
});

test('the reporting timezone decides what "today" and every figure are', async () => {
  // A zone whose date differs from UTC's right now: +14 once UTC is past 10:00, else −11.
  const hour = new Date().getUTCHours();
  const timeZone = hour >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  const zoneToday = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  assert.notEqual(zoneToday, today());
  const login = await context.api('POST', '/auth/login', { body: { email: context.owner.email, password: context.owner.password } });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const changed = await context.api('PATCH', `/${context.orgSlug}/projects/${context.projectId}`,
    { token: login.body.accessToken, body: { reportingTimezone: timeZone } });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  try {
    await resetReady();
    await page.goto(projectUrl('web', '?period=today'));
    await viewReady();
    const rest = await report('/web-analytics', {});
    const restToday = await report('/web-analytics', { from: zoneToday, to: zoneToday });
    assert.equal(restToday.timezone, timeZone);
    const dayText = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${zoneToday}T00:00:00Z`));
    assert.equal(await page.locator('[data-period-range]').textContent(), dayText);
    for (const key of ['visitors', 'pageviews', 'events']) {
      assert.equal(await page.locator(`[data-metric="${key}"]`).textContent(), number(restToday.metrics[key].value), key);
    }
    // Seven days in the new zone against the REST report of the same local dates.
    await resetReady();
    await page.getByLabel('Period', { exact: true }).selectOption('7d');
    await viewReady();
    const shifted = (n) => new Date(Date.parse(`${zoneToday}T00:00:00Z`) + n * day).toISOString().slice(0, 10);
    const week = await report('/web-analytics', { from: shifted(-6), to: zoneToday });
    assert.equal(await page.locator('[data-metric="pageviews"]').textContent(), number(week.metrics.pageviews.value));
    assert.equal(await page.locator('[data-previous="pageviews"]').textContent(), number(week.metrics.pageviews.previous));
    assert.ok(rest.from <= zoneToday && rest.to === zoneToday, 'the default period ends today in the zone');
    await screenshot(page, 'reports-web-timezone');
  } finally {
    await context.api('PATCH', `/${context.orgSlug}/projects/${context.projectId}`, { token: login.body.accessToken, body: { reportingTimezone: 'UTC' } });
  }
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
  // The timeline stacks the vendors (the rest as Other) under one comparison line of all
  // crawlers: per day, the stacked values add up to the day's requests.
  const timeline = await report('/bots/analytics/timeline', { from, to: today(), interval: 'day', limit: 8 });
  const chart = page.locator('figure.timeline .visually-hidden table');
  const heads = await chart.locator('thead th').allTextContents();
  assert.equal(heads.at(-1), 'All crawlers (previous period)');
  assert.equal(heads.length, 1 + timeline.series.length + (timeline.totals.some((total, index) => total > timeline.series.reduce((sum, line) => sum + line.data[index], 0)) ? 1 : 0) + 1, heads.join('|'));
  const days = await chart.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.cells].slice(1, -1)
    .reduce((sum, cell) => sum + (Number(cell.textContent.replace(/[^0-9]/g, '')) || 0), 0)));
  assert.deepEqual(days, timeline.totals);
  // The map, loaded when scrolled to: the countries REST names are drawn (GB and US by GeoIP).
  const countries = await report('/bots/analytics/countries', { from, to: today(), limit: 50 });
  const map = page.getByRole('img', { name: 'Crawler requests by country' });
  await page.getByRole('heading', { name: 'Countries' }).scrollIntoViewIfNeeded();
  await map.waitFor();
  const drawn = await map.locator('path[data-country]').evaluateAll((paths) => paths.map((path) => path.dataset.country).sort());
  const named = countries.rows.map((row) => row.country).filter(Boolean).sort();
  assert.ok(named.length > 0, 'GeoIP should place some test addresses');
  assert.deepEqual(drawn, named);
  await screenshot(page, 'reports-crawlers');

  // A crawler's row filters the page to that crawler, not its vendor.
  await resetReady();
  await bots.getByRole('button', { name: 'GPTBot', exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('bot') === 'GPTBot');
  await viewReady();
  const gptbot = await report('/bots/analytics/top', { from, to: today(), botName: 'GPTBot', limit: 25 });
  assert.equal(await cards.locator('[data-metric="total"]').textContent(), number(gptbot.totalRequests));
  assert.deepEqual(gptbot.rows.map((row) => row.botName), ['GPTBot']);
  assert.equal(await bots.getByRole('row').count(), 2);
  await resetReady();
  await page.getByRole('button', { name: 'Show all crawlers' }).click();
  await page.waitForURL((url) => !url.searchParams.has('bot'));
  await viewReady();
  assert.equal(await cards.locator('[data-metric="total"]').textContent(), number(top.totalRequests));

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

test('the report pages fit a 360 px phone, in the dark theme too', async () => {
  const phone = await context.newPage({ locale: 'en-US', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, colorScheme: 'dark' });
  try {
    await context.signIn(phone);
    for (const view of ['web', 'crawlers']) {
      await phone.goto(projectUrl(view, '?period=30d'));
      await phone.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length === 1, null, { timeout: 15_000 });
      // Wide tables scroll inside their own region; the page itself never scrolls sideways.
      assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${view} is wider than the phone`);
      // The header is one row, and the first chart starts on the first screen.
      const header = await phone.locator('header.topbar').boundingBox();
      assert.ok(header.height <= 56, `the header is ${header.height}px high`);
      const chart = await phone.locator('figure.timeline').first().boundingBox();
      assert.ok(chart.y < 740, `${view}'s first chart starts at ${chart.y}px`);
      await phone.getByRole('heading', { name: view === 'web' ? 'Locations' : 'Countries' }).scrollIntoViewIfNeeded();
      await phone.locator('.world-map svg').first().waitFor();
      await screenshot(phone, `reports-${view}-phone-dark`);
    }
    assert.deepEqual(phone.problems, []);
  } finally {
    await phone.close();
  }
});

test('at 1280×800 and 390×844, light and dark, nothing overflows and no text is cut without a tooltip', async () => {
  for (const [width, height, colorScheme] of [[1280, 800, 'light'], [1280, 800, 'dark'], [390, 844, 'light'], [390, 844, 'dark']]) {
    const checked = await context.newPage({ locale: 'en-US', viewport: { width, height }, colorScheme });
    try {
      await context.signIn(checked);
      for (const view of ['web', 'crawlers']) {
        await checked.goto(projectUrl(view, '?period=30d'));
        await checked.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length === 1, null, { timeout: 15_000 });
        await screenshot(checked, `layout-${view}-${width}x${height}-${colorScheme}`);
        assert.deepEqual(await layoutProblems(checked), [], `${view} at ${width}×${height} ${colorScheme}`);
      }
      // Above the fold at 1280×800: the metric cards in one row and the whole chart.
      if (width === 1280) {
        await checked.goto(projectUrl('web', '?period=30d'));
        await checked.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length === 1, null, { timeout: 15_000 });
        const chart = await checked.locator('figure.timeline').first().boundingBox();
        assert.ok(chart.y + chart.height <= height, `the chart ends at ${chart.y + chart.height}px`);
      }
      assert.deepEqual(checked.problems, []);
    } finally {
      await checked.close();
    }
  }
});

test('axe-core finds no accessibility violations in the report pages, light and dark', async () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  for (const colorScheme of ['light', 'dark']) {
    // axe is injected as a script, which the dashboard's CSP would refuse: this page bypasses it
    // (the other tests keep the CSP and assert it reports nothing).
    const checked = await context.newPage({ locale: 'en-US', colorScheme, bypassCSP: true });
    try {
      await context.signIn(checked);
      for (const view of ['web?filter=top_page:/docs', 'crawlers?ai=1']) {
        await checked.goto(projectUrl(view.split('?')[0], `?${view.split('?')[1]}`));
        await checked.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length === 1, null, { timeout: 15_000 });
        await checked.getByRole('heading', { name: view.startsWith('web') ? 'Locations' : 'Countries' }).scrollIntoViewIfNeeded();
        await checked.locator('.world-map svg').first().waitFor();
        await checked.addScriptTag({ content: axeSource });
        // The page's own content (main); the shell's header and navigation are the shell's tests'.
        const violations = await checked.evaluate(async () => {
          const result = await window.axe.run({ include: [['main']] }, { resultTypes: ['violations'] });
          return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        });
        assert.deepEqual(violations, [], `${colorScheme} ${view}`);
      }
    } finally {
      await checked.close();
    }
  }
});

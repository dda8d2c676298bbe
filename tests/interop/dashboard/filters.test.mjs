// Stacked filters on the web report, in a real browser against the real server: rows clicked in
// two cards stack two filters (both in the URL), every card shows the hand-counted figures of
// the visits both keep, a chip's operator is edited, a chip removed, a custom-property filter
// added through the key and value suggestions, the URL reloaded to the same state; one filter
// asked of `query` shows the reports' figures for it; referrers are the domains of other sites
// and one domain drills down to its URLs; axe-core finds nothing in the bar and the editor; no
// console errors.
// Run (from tests/interop): node --test dashboard/filters.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { start, screenshot } from './harness.mjs';

let context;
let page;
const minute = 60_000;

// Six visits, one visitor each, an hour to two hours ago (inside "Last 7 days" whatever the time
// of day): [referrer, pages, the signup's plan or none]. A visit's later pages have the page
// before as their referrer, as browsers send it: the site itself, never a referrer.
const visits = [
  ['https://www.google.com/', ['/', '/pricing'], 'pro'], // A
  ['https://www.google.com/', ['/docs'], null], // B
  ['https://news.ycombinator.com/', ['/', '/pricing'], 'free'], // C
  ['', ['/pricing'], null], // D
  ['https://www.google.com/', ['/pricing', '/docs'], 'pro'], // E
  ['', ['/'], null], // F
];

async function seed() {
  const start = Date.now() - 2 * 60 * minute;
  const events = [];
  visits.forEach(([referrer, pages, plan], index) => {
    const anonymous = randomUUID();
    const at = start + index * 10 * minute;
    pages.forEach((path, step) => events.push({ event: 'screen_view', channel: 'web', anonymous_id: anonymous,
      timestamp: at + step * minute,
      tags: { $url: `https://shop.example${path}`, $referrer: step === 0 ? referrer : `https://shop.example${pages[step - 1]}` } }));
    if (plan) {
      events.push({ event: 'signup', channel: 'growth', anonymous_id: anonymous, timestamp: at + 5 * minute,
        tags: { $url: `https://shop.example${pages.at(-1)}`, plan } });
    }
  });
  const sent = await context.api('POST', '/sdk/v1/logs/batch', { body: { events }, headers: { 'x-sdk-key': context.boot.sdkKey } });
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
}

const bearer = () => ({ Authorization: `Bearer ${context.boot.privateApiKey}` });
const projectUrl = (search = '') => `${context.base}/${context.orgSlug}/${context.projectId}/web${search}`;

async function resetReady() {
  await page.evaluate(() => performance.clearMarks('sightline:view-ready'));
}

async function viewReady() {
  await page.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length === 1, null, { timeout: 15_000 });
}

/** The headline figures shown: { visitors, visits, pageviews, events } as text. */
async function figures() {
  const out = {};
  for (const key of ['visitors', 'visits', 'pageviews', 'events']) out[key] = await page.locator(`[data-metric="${key}"]`).textContent();
  return out;
}

/** Waits until the cards show these counts (the view reloads after each change). */
async function expectFigures(expected, what) {
  const wanted = Object.fromEntries(Object.entries(expected).map(([key, value]) => [key, String(value)]));
  await page.waitForFunction((keys) => Object.entries(keys)
    .every(([key, value]) => document.querySelector(`[data-metric="${key}"]`)?.textContent === value), wanted, { timeout: 15_000 })
    .catch(() => {});
  assert.deepEqual(await figures(), wanted, what);
}

/** A breakdown table's rows as "name=count". */
async function tableRows(name) {
  const table = page.getByRole('table', { name });
  await table.waitFor();
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => `${row.querySelector('th').textContent.trim()}=${row.querySelector('td').textContent.trim()}`));
}

const filtersInUrl = () => new URL(page.url()).searchParams.getAll('f');

before(async () => {
  context = await start({ name: 'filters' });
  await seed();
  page = await context.newPage({ locale: 'en-US' });
  await context.signIn(page);
});
after(async () => { await context?.stop(); });

test('rows stack filters; chips edit, remove and add a property filter; the URL holds them all', async () => {
  await page.goto(projectUrl('?period=7d'));
  await viewReady();
  await expectFigures({ visitors: 6, visits: 6, pageviews: 9, events: 12 }, 'all visits');
  const sources = await context.api('GET', `/web-analytics/breakdown?dimension=source`, { headers: bearer() });
  const google = sources.body.rows.find((row) => row.count === 3)?.value;
  assert.ok(google, JSON.stringify(sources.body.rows));

  // A row of the Sources card (its Sources tab), then a row of the Pages card: two filters.
  await page.getByRole('tab', { name: 'Sources', exact: true }).click();
  await resetReady();
  await page.getByRole('table', { name: 'Source by visitors' }).getByRole('button', { name: google, exact: true }).click();
  await page.waitForURL(() => filtersInUrl().length === 1);
  await page.waitForFunction(() => document.activeElement?.id === 'filter-heading');
  await viewReady();
  await expectFigures({ visitors: 3, visits: 3, pageviews: 5, events: 7 }, `source ${google}: A, B, E`);
  await resetReady();
  await page.getByRole('table', { name: 'Page by pageviews' }).getByRole('button', { name: '/pricing', exact: true }).click();
  await page.waitForURL(() => filtersInUrl().length === 2);
  assert.deepEqual(filtersInUrl(), [`is,visit:source,${google}`, 'is,event:page,/pricing']);
  await viewReady();
  // A and E: 2 + 2 pageviews, each with a signup.
  await expectFigures({ visitors: 2, visits: 2, pageviews: 4, events: 6 }, 'source and /pricing: A, E');
  assert.deepEqual(await tableRows('Page by pageviews'), ['/pricing=2', '/=1', '/docs=1']);
  assert.equal(await page.getByRole('table', { name: 'Event by events' }).getByRole('row', { name: /signup/ }).getByRole('cell').first().textContent(), '2');
  // The timeline (its table for screen readers): a row per day, the two visitors in all, and
  // the previous period's line beside it, empty.
  const days = await page.locator('figure.timeline .visually-hidden table').evaluate((table) => [...table.tBodies[0].rows]
    .map((row) => [...row.cells].slice(1).map((cell) => cell.textContent)));
  assert.equal(days.length, 7);
  assert.equal(days.reduce((sum, [visitors]) => sum + Number(visitors), 0), 2);
  assert.ok(days.every((row) => row.length === 2 && row[1] === '0'), JSON.stringify(days));
  const chips = page.getByRole('list', { name: 'Active filters' }).getByRole('listitem');
  assert.equal(await chips.count(), 2);
  await screenshot(page, 'filters-stacked');

  // The page chip's operator: "is not" keeps B (the Google visit without /pricing).
  await page.getByRole('button', { name: 'Edit filter: Page is /pricing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit filter' });
  await dialog.getByLabel('Operator').selectOption('is_not');
  await resetReady();
  await dialog.getByRole('button', { name: 'Apply filter' }).click();
  await page.waitForURL(() => filtersInUrl()[1] === 'is_not,event:page,/pricing');
  await viewReady();
  await expectFigures({ visitors: 1, visits: 1, pageviews: 1, events: 1 }, 'source and not /pricing: B');
  await page.getByRole('button', { name: 'Edit filter: Page is not /pricing' }).waitFor();

  // Removing it leaves the source filter (the reports answer that one again).
  await resetReady();
  await page.getByRole('button', { name: 'Remove filter Page is not /pricing' }).click();
  await page.waitForURL(() => filtersInUrl().length === 1);
  await page.waitForFunction(() => document.activeElement?.id === 'filter-heading');
  await viewReady();
  await expectFigures({ visitors: 3, visits: 3, pageviews: 5, events: 7 }, 'source alone again');

  // A custom property: its key from the period's keys, its value from the values the source's
  // visits have (only "pro": C's "free" came from elsewhere).
  await page.getByRole('button', { name: '+ Filter' }).click();
  const adding = page.getByRole('dialog', { name: 'Add filter' });
  await adding.getByLabel('Dimension').selectOption('property');
  const key = adding.getByRole('combobox', { name: 'Property key' });
  await key.fill('pl');
  await adding.getByRole('option', { name: 'plan' }).click();
  assert.equal(await key.inputValue(), 'plan');
  const value = adding.getByRole('combobox', { name: 'Value' });
  await value.focus();
  const options = adding.getByRole('listbox', { name: 'Value suggestions' }).getByRole('option');
  await options.first().waitFor();
  assert.deepEqual(await options.allTextContents(), ['pro']);
  await value.press('ArrowDown');
  await value.press('Enter');
  await adding.getByRole('list', { name: 'Values' }).getByRole('listitem').filter({ hasText: 'pro' }).waitFor();
  await resetReady();
  await adding.getByRole('button', { name: 'Apply filter' }).click();
  await page.waitForURL(() => filtersInUrl().length === 2);
  assert.deepEqual(filtersInUrl(), [`is,visit:source,${google}`, 'is,event:props:plan,pro']);
  await viewReady();
  await expectFigures({ visitors: 2, visits: 2, pageviews: 4, events: 6 }, 'source and plan pro: A, E');

  // Back and forward move between the filters; the URL alone gives the same view.
  await resetReady();
  await page.goBack();
  await page.waitForURL(() => filtersInUrl().length === 1);
  await viewReady();
  await expectFigures({ visitors: 3, visits: 3, pageviews: 5, events: 7 }, 'back');
  await resetReady();
  await page.goForward();
  await page.waitForURL(() => filtersInUrl().length === 2);
  await viewReady();
  await expectFigures({ visitors: 2, visits: 2, pageviews: 4, events: 6 }, 'forward');
  await resetReady();
  await page.reload();
  await viewReady();
  await expectFigures({ visitors: 2, visits: 2, pageviews: 4, events: 6 }, 'reloaded');
  assert.equal(await chips.count(), 2);
  await page.getByRole('button', { name: `Edit filter: Source is ${google}` }).waitFor();
  await page.getByRole('button', { name: 'Edit filter: Property plan is pro' }).waitFor();

  // Clear all.
  await resetReady();
  await page.getByRole('button', { name: 'Clear all filters' }).click();
  await page.waitForURL(() => filtersInUrl().length === 0);
  await viewReady();
  await expectFigures({ visitors: 6, visits: 6, pageviews: 9, events: 12 }, 'cleared');
  assert.deepEqual(page.problems, []);
});

test('one filter asked of query shows the reports\' figures for it', async () => {
  // The same filter twice cannot go to the reports (they take one): `query` answers it.
  const sources = await context.api('GET', `/web-analytics/breakdown?dimension=source`, { headers: bearer() });
  const google = sources.body.rows.find((row) => row.count === 3).value;
  const cards = [];
  const once = `f=${encodeURIComponent(`is,visit:source,${google}`)}`;
  for (const search of [`?period=7d&${once}`, `?period=7d&${once}&${once}`]) {
    await page.goto(projectUrl(search));
    await viewReady();
    cards.push(await page.locator('[data-metric]').evaluateAll((items) => items.map((item) => `${item.dataset.metric}=${item.textContent}`)));
    cards.push(await page.locator('[data-previous]').evaluateAll((items) => items.map((item) => `${item.dataset.previous}=${item.textContent}`)));
    // Rows of equal counts may come in another order.
    cards.push((await tableRows('Page by pageviews')).sort());
    await page.getByRole('tab', { name: 'Time on page' }).click();
    await page.getByRole('table', { name: 'Average time on page' }).waitFor();
    // Until its answer comes, the card shows the last one, marked busy.
    await page.waitForFunction(() => !document.querySelector('.request-body[aria-busy="true"]'));
    cards.push((await tableRows('Average time on page')).sort());
  }
  assert.deepEqual(cards.slice(4), cards.slice(0, 4));
  assert.equal(cards[0].length, 7);
  // And the old single-filter link is read as that filter.
  await page.goto(projectUrl(`?period=7d&filter=${encodeURIComponent(`source:${google}`)}`));
  await viewReady();
  await page.getByRole('button', { name: `Edit filter: Source is ${google}` }).waitFor();
  assert.deepEqual(await page.locator('[data-metric]').evaluateAll((items) => items.map((item) => `${item.dataset.metric}=${item.textContent}`)), cards[0]);
  assert.deepEqual(page.problems, []);
});

test('referrers are the domains of other sites; one domain drills down to its URLs', async () => {
  await page.goto(projectUrl('?period=7d&sources=referrer'));
  await viewReady();
  assert.deepEqual((await tableRows('Referrer by visitors')).sort(), ['Direct / none=2', 'google.com=3', 'news.ycombinator.com=1']);
  await resetReady();
  await page.getByRole('table', { name: 'Referrer by visitors' }).getByRole('button', { name: 'google.com', exact: true }).click();
  await page.waitForURL(() => filtersInUrl().length === 1);
  assert.deepEqual(filtersInUrl(), ['is,visit:referrer,google.com']);
  await viewReady();
  await expectFigures({ visitors: 3, visits: 3, pageviews: 5, events: 7 }, 'referred by google.com: A, B, E');
  assert.deepEqual(await tableRows('Referrer URL by visitors'), ['https://www.google.com/=3']);
  // The URLs are the drill-down's end: not filters.
  assert.equal(await page.getByRole('table', { name: 'Referrer URL by visitors' }).getByRole('button').count(), 0);
  assert.deepEqual(page.problems, []);
});

test('a card\'s Details lists every value, sorted, searched and paged, with its CSV; the view exports as a zip', async () => {
  await page.goto(projectUrl('?period=7d'));
  await viewReady();
  await page.getByRole('button', { name: 'Details: Pages, Top pages' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pages: Top pages' });
  const rows = async (expected) => {
    const read = () => dialog.locator('tbody tr').evaluateAll((all) => all.map((row) => [...row.children].map((cell) => cell.textContent.trim()).join('|')));
    await page.waitForFunction(() => document.querySelector('dialog[open] .details-table[aria-busy="false"]')).catch(() => {});
    for (let tries = 0; tries < 50 && JSON.stringify(await read()) !== JSON.stringify(expected); tries += 1) await new Promise((done) => setTimeout(done, 100));
    return read();
  };
  // Pageviews, then visitors: every page of the six visits.
  assert.deepEqual(await rows(['/pricing|4|4', '/|3|3', '/docs|2|2']), ['/pricing|4|4', '/|3|3', '/docs|2|2']);
  assert.equal(await dialog.getByRole('navigation', { name: 'Pages' }).locator('[aria-live]').textContent(), '1–3 of 3');
  await dialog.getByRole('button', { name: 'Page', exact: true }).click();
  assert.deepEqual(await rows(['/|3|3', '/docs|2|2', '/pricing|4|4']), ['/|3|3', '/docs|2|2', '/pricing|4|4']);
  assert.equal(await dialog.getByRole('columnheader', { name: /Page/ }).first().getAttribute('aria-sort'), 'ascending');
  await dialog.getByRole('searchbox').fill('doc');
  assert.deepEqual(await rows(['/docs|2|2']), ['/docs|2|2']);
  const [csv] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download CSV' }).click()]);
  assert.equal(readFileSync(await csv.path(), 'utf8'), '\ufeffPage,Pageviews,Visitors\r\n/docs,2,2\r\n');
  await screenshot(page, 'details-dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();

  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  assert.match(zip.suggestedFilename(), /^shop-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.zip$/);
  const listing = execFileSync('python3', ['-c', `import zipfile, sys
z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None
print(' '.join(sorted(z.namelist())))
print(z.read('summary.csv').decode('utf-8-sig').splitlines()[1])
print(z.read('source.csv').decode('utf-8-sig').splitlines()[0])`, await zip.path()], { encoding: 'utf8' }).split('\n');
  assert.equal(listing[0].split(' ').length, 22, listing[0]);
  assert.ok(listing[0].includes('timeline.csv') && listing[0].includes('referrer.csv') && listing[0].includes('durations.csv'), listing[0]);
  // visitors, visits, pageviews, views per visit, bounce rate, visit duration, events
  assert.match(listing[1], /^6,6,9,1\.5,/);
  assert.equal(listing[2], 'Source,Visitors');
  assert.deepEqual(page.problems, []);
});

test('axe-core finds no accessibility violations in the filter bar and its editor, light and dark', async () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  for (const colorScheme of ['light', 'dark']) {
    // axe is injected as a script, which the CSP would refuse: this page bypasses it.
    const checked = await context.newPage({ locale: 'en-US', colorScheme, bypassCSP: true });
    try {
      await context.signIn(checked);
      // The visits with a referrer (A, B, C, E) never on /blog, with plan pro: "free" is left to suggest.
      const search = ['is_not,visit:referrer,', 'contains_not,event:page,/blog', 'is,event:props:plan,pro']
        .map((text) => `f=${encodeURIComponent(text)}`).join('&');
      await checked.goto(projectUrl(`?period=7d&${search}`));
      await checked.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length === 1, null, { timeout: 15_000 });
      await checked.getByRole('button', { name: 'Edit filter: Referrer is not (none)' }).waitFor();
      await checked.addScriptTag({ content: axeSource });
      const run = (include) => checked.evaluate(async (selector) => {
        const result = await window.axe.run({ include: [[selector]] }, { resultTypes: ['violations'] });
        return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      }, include);
      assert.deepEqual(await run('.filter-bar'), [], `${colorScheme} bar`);
      // The editor with its suggestions open, and the keyboard in the list.
      await checked.getByRole('button', { name: 'Edit filter: Property plan is pro' }).click();
      const dialog = checked.getByRole('dialog', { name: 'Edit filter' });
      const value = dialog.getByRole('combobox', { name: 'Another value' });
      await value.focus();
      await value.press('ArrowDown');
      await dialog.getByRole('option', { name: 'free' }).waitFor();
      assert.deepEqual(await run('dialog[open]'), [], `${colorScheme} editor`);
      // Escape closes the list first, then the dialog, and the focus goes back to the chip.
      await value.press('Escape');
      assert.equal(await dialog.isVisible(), true);
      await value.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await checked.waitForFunction(() => document.activeElement?.classList.contains('filter-chip-edit'));
      assert.deepEqual(checked.problems, []);
    } finally {
      await checked.close();
    }
  }
});

// The AI-visibility page in a real browser against the real server and a scripted AI engine
// (tests/interop/scripted_engine_server.mjs, OpenAI's wire format on loopback): the empty state
// explains the setup; brands, prompts (pasted one per line), an engine (its key never shown
// again) and the settings are set up in the page; "Run now" runs and the runs list follows it
// live; the overview, breakdown, sources, gaps and loop show exactly the REST reports' figures;
// an answer shows its mentions highlighted at the server's offsets and its citations; an analyst
// sees no management controls; a phone in the dark theme; axe-core finds nothing.
// Run (from tests/interop): node --test dashboard/ai_visibility.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { start, screenshot } from './harness.mjs';

const here = new URL('.', import.meta.url).pathname;
let context;
let page;
let token;
let engine;
let enginePort;
const secretKey = 'sk-test-never-shown-0123456789-k9Zq';
const percent = (value) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(value);
const interval = (range) => `${percent(range.low)} – ${percent(range.high)}`;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

// Three answers per prompt and run (repetitions 3): the variants cycle.
const rocket = '🚀 Für Teams: Fathom ist einfach; ACME Analytics auch.';
const script = {
  answers: {
    'best analytics tool': [
      { text: 'I recommend Acme Analytics first. Plausible is also good. See https://acme.example/pricing',
        citations: [{ url: 'https://acme.example/docs', title: 'Acme docs' }] },
      { text: 'Plausible is the best, then Acme Analytics.', citations: [{ url: 'https://plausible.io/', title: 'Plausible' }] },
      { text: rocket },
    ],
    'privacy friendly analytics': [
      { text: 'Plausible and Fathom are privacy friendly.', citations: [{ url: 'https://plausible.io/privacy', title: 'Plausible privacy' }] },
    ],
  },
};

async function startEngine() {
  const child = spawn(process.execPath, [join(here, '../scripted_engine_server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((done, fail) => {
    createInterface({ input: child.stdout }).once('line', done);
    child.once('exit', (code) => fail(new Error(`the scripted engine exited (${code})`)));
  });
  const { port } = JSON.parse(line);
  const response = await fetch(`http://127.0.0.1:${port}/__script`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(script) });
  assert.equal(response.status, 200);
  return { child, port };
}

before(async () => {
  const scripted = await startEngine();
  engine = scripted.child;
  enginePort = scripted.port;
  try {
    context = await start({ name: 'dashboard-ai-visibility', serveArgs: ['--ai-engines-private-urls', '--ai-visibility-interval', '1'] });
  } catch (error) {
    engine.kill('SIGTERM');
    throw error;
  }
  token = (await context.api('POST', '/auth/login', { body: context.owner })).body.accessToken;
  page = await context.newPage({ locale: 'en-US' });
  await context.signIn(page);
});
after(async () => {
  await context?.stop();
  if (engine && engine.exitCode === null) {
    engine.kill('SIGTERM');
    await new Promise((done) => { engine.once('exit', done); setTimeout(done, 3000); });
  }
});

const pageUrl = (search = '') => `${context.base}/${context.orgSlug}/${context.projectId}/ai-visibility${search}`;
const configPath = (what) => `/${context.orgSlug}/projects/${context.projectId}/ai-visibility/${what}`;
const get = async (path) => {
  const response = await context.api('GET', path, { token });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
};
/** The page's default period: the last 30 days of the project's timezone (UTC), previous period. */
const reportQuery = () => `projectId=${context.projectId}&from=${isoDay(Date.now() - 29 * 86_400_000)}&to=${isoDay(Date.now())}&comparePreset=previous_period`;

test('the empty state explains the setup, which is done in the page; the engine key is never shown again', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'AI visibility' }).click();
  await page.getByRole('heading', { name: 'AI visibility', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Set up AI visibility' }).waitFor();
  await screenshot(page, 'ai-visibility-empty');
  await page.getByRole('link', { name: 'Go to setup' }).click();
  assert.match(page.url(), /[?&]tab=setup/);

  // Brands: ours and two competitors.
  for (const brand of [{ name: 'Acme Analytics', aliases: 'Acme', domains: 'acme.example', own: true },
    { name: 'Plausible', domains: 'plausible.io' }, { name: 'Fathom' }]) {
    await page.getByRole('button', { name: 'Add brand' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add brand' });
    await dialog.getByLabel('Name').fill(brand.name);
    if (brand.aliases) await dialog.getByLabel('Aliases').fill(brand.aliases);
    if (brand.domains) await dialog.getByLabel('Domains').fill(brand.domains);
    if (brand.own) await dialog.getByRole('switch', { name: 'This is your brand' }).check();
    await dialog.getByRole('button', { name: 'Save brand' }).click();
    await page.getByRole('region', { name: 'Tracked brands' }).getByRole('cell', { name: new RegExp(`^${brand.name}`) }).waitFor();
  }

  // Prompts pasted one per line (a blank line and a repeat are left out).
  await page.getByRole('button', { name: 'Paste prompts' }).click();
  const bulk = page.getByRole('dialog', { name: 'Paste prompts' });
  await bulk.getByLabel('Prompts, one per line').fill('best analytics tool\n\nprivacy friendly analytics\nbest analytics tool\n');
  await bulk.getByLabel('Topic for all of them').fill('analytics');
  await bulk.getByRole('button', { name: 'Add 2 prompts' }).click();
  await page.getByRole('region', { name: 'Tracked prompts' }).getByRole('cell', { name: 'privacy friendly analytics', exact: true }).waitFor();

  // The engine, with a key that is write-only.
  await page.getByRole('button', { name: 'Add engine' }).click();
  const add = page.getByRole('dialog', { name: 'Add engine' });
  await add.getByLabel('Provider').selectOption('openai');
  await add.getByLabel('Model').fill('gpt-scripted');
  await add.getByLabel('Name', { exact: true }).fill('Scripted GPT');
  await add.getByLabel('Base URL').fill(`http://127.0.0.1:${enginePort}/v1`);
  await add.getByLabel('API key').fill(secretKey);
  await add.getByRole('button', { name: 'Save engine' }).click();
  await add.waitFor({ state: 'hidden' });
  const hint = page.locator('[data-key-hint]');
  await hint.waitFor();
  assert.match(await hint.textContent(), new RegExp(`${secretKey.slice(-4)}$`));
  assert.ok(!(await page.content()).includes(secretKey), 'the key is still in the page');
  const engines = await get(configPath('engines'));
  assert.equal(engines.engines.length, 1);
  assert.equal(engines.engines[0].hasApiKey, true);
  assert.ok(!JSON.stringify(engines).includes(secretKey));
  // Editing the engine offers no key field; "Replace key" asks for a new one without the old.
  await page.getByRole('button', { name: 'Replace key of Scripted GPT' }).click();
  const replace = page.getByRole('dialog', { name: 'Replace the API key of Scripted GPT' });
  assert.equal(await replace.getByLabel('New API key').inputValue(), '');
  assert.equal(await replace.getByLabel('New API key').getAttribute('type'), 'password');
  await replace.getByRole('button', { name: 'Cancel' }).click();

  // Settings: three repetitions, no judge.
  await page.getByLabel('Repetitions').fill('3');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
  assert.equal((await get(configPath('settings'))).repetitions, 3);
  await screenshot(page, 'ai-visibility-setup');
  assert.deepEqual(page.problems, []);
});

test('"Run now" starts a run, the runs list follows it until it completes, and a spent budget is explained', async () => {
  await page.getByRole('navigation', { name: 'AI visibility sections' }).getByRole('link', { name: 'Runs' }).click();
  await page.getByRole('heading', { name: 'Runs', level: 2 }).waitFor();
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByRole('status').filter({ hasText: 'Run started: 6 answers to ask.' }).waitFor();
  // No reload: the list is read again while the run is queued or running.
  await page.locator('[data-run-status]').filter({ hasText: 'Completed' }).waitFor({ timeout: 30_000 });
  await page.getByText('6 of 6 answered').waitFor();
  const runs = await get(configPath('runs'));
  assert.equal(runs.runs.length, 1);
  assert.equal(runs.runs[0].status, 'completed');
  assert.equal(runs.runs[0].progress.done, 6);
  await screenshot(page, 'ai-visibility-runs');

  // The daily budget spent: the refusal says so, with its code and what was used.
  const patched = await context.api('PATCH', configPath('settings'), { token, body: { maxRunsPerDay: 1 } });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  await page.getByRole('button', { name: 'Run now' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'AIV_002' });
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /1 of 1 runs used today/);
  assert.equal((await get(configPath('runs'))).runs.length, 1);
  await context.api('PATCH', configPath('settings'), { token, body: { maxRunsPerDay: 4 } });
  // The console reports the refused request (429) as a failed resource load only.
  assert.deepEqual(page.problems, []);
});

test('the overview shows the REST report: visibility with its interval, share of voice, breakdowns, sources and gaps', async () => {
  await page.goto(pageUrl());
  await page.getByRole('heading', { name: 'Brand visibility' }).waitFor();
  const report = await get(`/ai-visibility?${reportQuery()}&groupBy=engine`);
  assert.equal(report.answers.answers, 6);
  await page.locator('[data-metric="answers"]').filter({ hasText: '6' }).waitFor();
  assert.equal(await page.locator('[data-metric="citationRate"]').textContent(), percent(report.answers.citationRate));
  assert.equal(await page.locator('[data-interval="citationRate"]').textContent(), interval(report.answers.citationInterval));
  assert.equal(await page.locator('[data-metric="ownedCitationRate"]').textContent(), percent(report.answers.ownedCitationRate));
  assert.equal(report.brands.length, 3);
  for (const brand of report.brands) {
    const row = page.locator(`.brand-table [data-brand="${brand.brandId}"]`);
    assert.equal(await row.locator(`[data-rate="${brand.brandId}"]`).textContent(), percent(brand.visibility), brand.name);
    assert.equal(await row.locator(`[data-interval="${brand.brandId}"]`).textContent(), interval(brand.interval), brand.name);
    assert.equal(await row.locator(`[data-sov="${brand.brandId}"]`).textContent(), percent(brand.shareOfVoice), brand.name);
    // Nothing to compare with: no change is flagged.
    assert.equal(await row.locator('[data-significant="true"]').count(), 0);
  }
  // Acme: 3 of 6 answers (3 of 3 for one prompt, 0 of 3 for the other) → 50%.
  const own = report.brands.find((brand) => brand.own);
  assert.equal(own.mentioned, 3);

  // By topic: one topic, the same figures.
  await page.getByRole('tab', { name: 'By topic' }).click();
  assert.match(page.url(), /groupBy=topic/);
  const byTopic = await get(`/ai-visibility?${reportQuery()}&groupBy=topic`);
  assert.equal(byTopic.groups.length, 1);
  const group = byTopic.groups[0];
  await page.locator(`[data-group="${group.key}"]`).waitFor();
  for (const brand of group.brands) {
    assert.equal(await page.locator(`[data-rate="${group.key}:${brand.brandId}"]`).textContent(), percent(brand.visibility));
  }

  // Sources: our domain is marked as ours.
  const sources = await get(`/ai-visibility/sources?${reportQuery()}&by=domain&limit=20`);
  const ownDomain = sources.sources.find((source) => source.owned);
  assert.equal(ownDomain.value, 'acme.example');
  const sourceTable = page.getByRole('region', { name: 'Cited domains' });
  for (const source of sources.sources) await sourceTable.getByRole('rowheader', { name: source.value }).waitFor();
  assert.equal(await page.locator('[data-source-owner="acme.example"]').textContent(), 'yours');

  // Gaps: the privacy prompt names both competitors and never us.
  const gaps = await get(`/ai-visibility/gaps?${reportQuery()}`);
  assert.equal(gaps.gaps.length, 1);
  const gap = page.locator(`[data-gap="${gaps.gaps[0].promptId}"]`);
  await gap.getByText('privacy friendly analytics').waitFor();
  for (const competitor of gaps.gaps[0].competitors) {
    await gap.getByText(`${competitor.name} ${percent(competitor.visibility)} (${interval(competitor.interval)})`).waitFor();
  }
  await page.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length >= 1);
  await screenshot(page, 'ai-visibility-overview');
  assert.deepEqual(page.problems, []);
});

test('an answer shows its mentions highlighted at the server\'s offsets, and its citations', async () => {
  const brands = (await get(configPath('brands'))).brands;
  const acme = brands.find((brand) => brand.own);
  const prompts = (await get(configPath('prompts'))).prompts;
  const best = prompts.find((prompt) => prompt.text === 'best analytics tool');
  await page.goto(pageUrl(`?tab=answers&promptId=${best.id}&brandId=${acme.id}`));
  await page.getByRole('heading', { name: 'Answers', level: 2 }).waitFor();
  const listed = (await get(`${configPath('answers')}?promptId=${best.id}&brandId=${acme.id}&limit=20`)).answers;
  // Every variant of this prompt names us (one in capitals, after an emoji).
  assert.equal(listed.length, 3);
  await page.locator('[data-answer]').nth(2).waitFor();
  assert.equal(await page.locator('[data-answer]').count(), 3);

  // The answer with an emoji before the mention: offsets are UTF-16 indexes.
  const withRocket = listed.find((answer) => answer.answer === rocket);
  await page.getByRole('link', { name: /Open answer/ }).and(page.locator(`[href*="answer=${withRocket.id}"]`)).click();
  const view = page.locator('[data-answer-text]');
  await view.waitFor();
  const mention = withRocket.mentions.find((item) => item.brandId === acme.id);
  assert.equal(mention.offset, rocket.indexOf('ACME Analytics'));
  const mark = view.locator(`mark[data-brand="${acme.id}"][data-first="true"]`);
  assert.equal(await mark.textContent(), 'ACME Analytics');
  // Everything before the mark is the answer up to the offset.
  const before = await view.evaluate((element, brandId) => {
    let text = '';
    for (const node of element.childNodes) {
      if (node.nodeName === 'MARK' && node.dataset.brand === brandId && node.dataset.first === 'true') break;
      text += node.textContent;
    }
    return text;
  }, acme.id);
  assert.equal(before, rocket.slice(0, mention.offset));
  await view.locator('mark[data-brand]').filter({ hasText: 'Fathom' }).waitFor();
  await page.getByRole('region', { name: 'Mentions' }).getByRole('cell', { name: 'Fathom', exact: true }).waitFor();

  // The first answer: owned citations from the provider and from a link in the text.
  await page.getByRole('button', { name: 'Back to the answers' }).click();
  const first = listed.find((answer) => answer.answer.startsWith('I recommend'));
  await page.locator(`[href*="answer=${first.id}"]`).click();
  await page.locator(`mark[data-brand="${acme.id}"][data-first="true"]`).filter({ hasText: 'Acme Analytics' }).waitFor();
  // "acme" in https://acme.example/pricing is a link, not a mention: as many marks as occurrences.
  const counted = first.mentions.find((item) => item.brandId === acme.id).occurrences;
  assert.equal(await page.locator(`[data-answer-text] mark[data-brand="${acme.id}"]`).count(), counted);
  assert.equal(first.citations.length, 2);
  for (const citation of first.citations) {
    const item = page.locator(`[data-citation="${citation.url}"]`);
    await item.waitFor();
    assert.equal(await item.locator('.badge-own').count(), citation.owned ? 1 : 0);
  }
  await page.getByText('Raw response').waitFor();
  await screenshot(page, 'ai-visibility-answer');
  assert.deepEqual(page.problems, []);
});

/** AI crawlers fetching /docs (OpenAI's user agents from other addresses) and visits from AI assistants. */
async function seedLoop() {
  const now = Date.now() - 60_000;
  const crawlers = await context.api('POST', '/ingest/v1/server', { headers: { Authorization: `Bearer ${context.boot.privateApiKey}` }, body: { events: [
    { user_agent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot', ip_address: '203.0.113.7', path: '/docs', client_timestamp: now },
    { user_agent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', ip_address: '203.0.113.8', path: '/docs', client_timestamp: now },
  ] } });
  assert.equal(crawlers.status, 202, JSON.stringify(crawlers.body));
  const visit = (path, referrer) => ({ event: 'screen_view', channel: 'web', anonymous_id: randomUUID(), timestamp: now,
    tags: { $url: `https://acme.example${path}`, $referrer: referrer } });
  const visits = await context.api('POST', '/sdk/v1/logs/batch', { body: { events: [visit('/docs', 'https://chatgpt.com/'), visit('/pricing', 'https://www.perplexity.ai/')] },
    headers: { 'x-sdk-key': context.boot.sdkKey, 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' } });
  assert.equal(visits.status, 202, JSON.stringify(visits.body));
  // Ingestion is asynchronous: wait until the loop report sees both.
  for (let i = 0; i < 50; i += 1) {
    const loop = await get(`/ai-visibility/loop?${reportQuery()}&interval=day&limit=50`);
    const docs = loop.pages.find((item) => item.path === '/docs');
    if (docs?.fetches >= 2 && docs.visits >= 1) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  assert.fail('the loop report never saw the seeded fetches and visits');
}

test('the loop shows the REST loop report per owned page (citations, AI fetches, AI visits), and a page filters the chart', async () => {
  await seedLoop();
  await page.goto(pageUrl('?tab=loop'));
  await page.getByRole('heading', { name: 'Your pages' }).waitFor();
  const loop = await get(`/ai-visibility/loop?${reportQuery()}&interval=day&limit=50`);
  assert.deepEqual(loop.pages.map((item) => item.path).sort(), ['/docs', '/pricing']);
  const table = page.getByRole('region', { name: 'The loop: owned pages cited, fetched and visited' });
  await table.locator('[data-fetches="/docs"]').filter({ hasText: String(loop.pages.find((item) => item.path === '/docs').fetches) }).waitFor();
  for (const item of loop.pages) {
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: item.path }) });
    assert.equal(await row.getByRole('cell').first().textContent(), String(item.citations));
    assert.equal(await table.locator(`[data-fetches="${item.path}"]`).textContent(), String(item.fetches));
    assert.equal(await table.locator(`[data-verified="${item.path}"]`).textContent(), String(item.verifiedFetches));
    assert.equal(await table.locator(`[data-visits="${item.path}"]`).textContent(), String(item.visits));
  }
  const docs = loop.pages.find((item) => item.path === '/docs');
  assert.deepEqual(docs.fetchesByVendor, { OpenAI: 2 });
  await table.getByText('OpenAI 2').waitFor();
  await table.getByText('ChatGPT 1').waitFor();
  await page.locator('.timeline-plot canvas').first().waitFor();
  await table.getByRole('button', { name: '/docs' }).click();
  assert.match(page.url(), /path=%2Fdocs/);
  await page.getByRole('heading', { name: 'Citations, fetches and visits of /docs' }).waitFor();
  await screenshot(page, 'ai-visibility-loop');
  assert.deepEqual(page.problems, []);
});

test('an analyst reads everything but sees no management controls', async () => {
  const invitation = await context.api('POST', `/${context.orgSlug}/invitations`, { token, body: { email: `analyst-${context.unique}@acme.test`, role: 'analyst' } });
  assert.equal(invitation.status, 201, JSON.stringify(invitation.body));
  const analyst = { email: `analyst-${context.unique}@acme.test`, password: 'analyst password 123' };
  const accepted = await context.api('POST', '/invitations/accept', { body: { token: invitation.body.token, password: analyst.password } });
  assert.ok(accepted.status === 200 || accepted.status === 201, JSON.stringify(accepted.body));
  const other = await context.newPage({ locale: 'en-US' });
  try {
    await context.signIn(other, analyst);
    await other.goto(pageUrl('?tab=runs'));
    await other.locator('[data-run-status]').first().waitFor();
    assert.equal(await other.getByRole('button', { name: 'Run now' }).count(), 0);
    await other.goto(pageUrl('?tab=setup'));
    await other.getByRole('region', { name: 'Configured engines' }).waitFor();
    await other.getByText('Your role can read this setup but not change it').waitFor();
    for (const name of ['Add brand', 'Add prompt', 'Paste prompts', 'Add engine', 'Save settings']) {
      assert.equal(await other.getByRole('button', { name }).count(), 0, name);
    }
    assert.ok(await other.getByLabel('Repetitions').isDisabled());
    assert.deepEqual(other.problems, []);
  } finally {
    await other.close();
  }
});

test('the page fits a 360 px phone in the dark theme', async () => {
  const phone = await context.newPage({ locale: 'en-US', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, colorScheme: 'dark' });
  try {
    await context.signIn(phone);
    for (const tab of ['overview', 'loop', 'answers', 'runs', 'setup']) {
      await phone.goto(pageUrl(tab === 'overview' ? '' : `?tab=${tab}`));
      await phone.getByRole('heading', { name: 'AI visibility', level: 1 }).waitFor();
      await phone.locator('.loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => {});
      await phone.waitForTimeout(300);
      assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${tab} is wider than the phone`);
      await screenshot(phone, `ai-visibility-${tab}-phone-dark`);
    }
    assert.deepEqual(phone.problems, []);
  } finally {
    await phone.close();
  }
});

test('axe-core finds no accessibility violations in the AI-visibility page, light and dark', async () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const answers = (await get(`${configPath('answers')}?limit=1`)).answers;
  for (const colorScheme of ['light', 'dark']) {
    // axe is injected as a script, which the CSP would refuse: this page bypasses it.
    const checked = await context.newPage({ locale: 'en-US', colorScheme, bypassCSP: true });
    try {
      await context.signIn(checked);
      for (const [search, ready] of [['', '[data-rate]'], ['?tab=loop', '.timeline-plot canvas'], ['?tab=answers', '[data-answer]'],
        [`?tab=answers&answer=${answers[0].id}`, '[data-answer-text]'], ['?tab=runs', '[data-run-status]'], ['?tab=setup', '[data-key-hint]']]) {
        await checked.goto(pageUrl(search));
        await checked.locator(ready).first().waitFor();
        await checked.locator('main .loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => {});
        await checked.addScriptTag({ content: axeSource });
        const violations = await checked.evaluate(async () => {
          const result = await window.axe.run({ include: [['main']] }, { resultTypes: ['violations'] });
          return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        });
        assert.deepEqual(violations, [], `${colorScheme} ${search || 'overview'}`);
      }
    } finally {
      await checked.close();
    }
  }
});

// The site-audit page in a real browser against the real server, whose ServiceAuditBot crawls a
// tiny website served by this test on loopback (the server runs with --audit-private-addresses
// --audit-interval=1): the empty state; a site added by URL shows its three ownership proofs with
// copy buttons; "Verify" before the proof is published shows AUDIT_001's message, and after the
// file is served proves the site; a crawl started from the page is followed live to "Completed";
// the issues by severity equal the REST summary, a check lists its issues with evidence and the
// state filter narrows them; a page's detail shows its status, title, issues and links; the
// robots-vs-traffic report shows the server's statements and figures for seeded crawler traffic;
// a slow crawl is cancelled from the page; the MCP App view draws get_site_audit_summary; a
// phone in the dark theme; axe-core finds nothing.
// Run (from tests/interop): node --test dashboard/site_audit.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { start, screenshot } from './harness.mjs';
import { mcpSession, openHost } from './mcp_app_host.mjs';

let context;
let page;
let token;
let site; // the loopback website: { server, origin, token (published when set), requests }
let siteId;
let crawlId;
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot';
const CLAUDEBOT = 'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const number = (value) => new Intl.NumberFormat('en-US').format(value);

/** The tiny website ServiceAuditBot audits: a home page, a few linked pages, a broken link, a redirect. */
function startSite() {
  const state = { token: null, requests: [] };
  const page = (title, body, { description = true } = {}) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${title}</title>${description ? `<meta name="description" content="${title}: a page of the test site for the audit.">` : ''}
</head><body><h1>${title}</h1>${body}</body></html>`;
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    state.requests.push({ path: url.pathname, userAgent: request.headers['user-agent'] ?? '' });
    const origin = `http://127.0.0.1:${server.address().port}`;
    const send = (status, type, body, headers = {}) => {
      response.writeHead(status, { 'content-type': type, ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    switch (url.pathname) {
      case '/':
        return send(200, 'text/html; charset=utf-8', page('Test shop', `<p>Welcome.</p>
          <a href="/about">About us</a> <a href="/products">Products</a> <a href="/gone">Old offer</a>
          <a href="/old-about">About (old link)</a> <img src="/logo.png">`));
      case '/about':
        return send(200, 'text/html; charset=utf-8', page('About us', '<p>Who we are.</p><a href="/">Home</a>'));
      case '/products':
        return send(200, 'text/html; charset=utf-8', page('Products', '<p>What we sell.</p><a href="/">Home</a> <a href="/about">About</a>', { description: false }));
      case '/old-about':
        return send(301, 'text/html', 'moved', { location: `${origin}/about` });
      case '/logo.png':
        return send(200, 'image/png', Buffer.from('89504e470d0a1a0a', 'hex'));
      case '/robots.txt':
        return send(200, 'text/plain', `User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n\nSitemap: ${origin}/sitemap.xml\n`);
      case '/sitemap.xml':
        return send(200, 'application/xml', `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url><url><loc>${origin}/about</loc></url>
<url><loc>${origin}/products</loc></url></urlset>`);
      case '/.well-known/sightline-verification.txt':
        return state.token ? send(200, 'text/plain', `${state.token}\n`) : send(404, 'text/plain', 'not found');
      default:
        return send(404, 'text/html', page('Not found', '<p>Nothing here.</p>'));
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, state, origin: `http://127.0.0.1:${server.address().port}` })));
}

before(async () => {
  site = await startSite();
  try {
    context = await start({ name: 'dashboard-site-audit', serveArgs: ['--audit-private-addresses', '--audit-interval=1'] });
  } catch (error) {
    site.server.close();
    throw error;
  }
  token = (await context.api('POST', '/auth/login', { body: context.owner })).body.accessToken;
  page = await context.newPage({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] });
  await context.signIn(page);
});
after(async () => {
  await context?.stop();
  site?.server.closeAllConnections?.();
  await new Promise((done) => (site ? site.server.close(done) : done()));
});

const base = () => `/${context.orgSlug}/projects/${context.projectId}/site-audit`;
const pageUrl = (search = '') => `${context.base}/${context.orgSlug}/${context.projectId}/site-audit${search}`;
const get = async (path, query) => {
  const response = await context.api('GET', `${path}${query ? `?${new URLSearchParams(query)}` : ''}`, { token });
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
  return response.body;
};

test('the empty state says what to do first', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site audit' }).click();
  await page.getByRole('heading', { name: 'Site audit', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Add your site, then prove ownership' }).waitFor();
  // Every other section says the same until there is a site.
  await page.getByRole('navigation', { name: 'Site audit sections' }).getByRole('link', { name: 'Issues' }).click();
  await page.getByRole('heading', { name: 'Add your site, then prove ownership' }).waitFor();
  assert.match(page.url(), /[?&]tab=issues/);
  await page.getByRole('link', { name: 'Go to Sites' }).click();
  await page.getByLabel('Site URL').waitFor();
  await screenshot(page, 'site-audit-empty');
  assert.deepEqual(page.problems, []);
});

test('a site added by URL shows its three proofs with copy buttons', async () => {
  await page.getByLabel('Site URL').fill(`${site.origin}/some/page?x=1`);
  await page.getByRole('button', { name: 'Add site' }).click();
  await page.getByRole('heading', { name: site.origin, level: 2 }).waitFor();
  const sites = (await get(`${base()}/sites`)).sites;
  assert.equal(sites.length, 1);
  assert.equal(sites[0].origin, site.origin);
  siteId = sites[0].id;
  const { proofs } = sites[0];
  const card = page.locator(`[data-site="${siteId}"]`);
  assert.equal(await card.locator('[data-site-status]').textContent(), 'Not verified');
  assert.equal(await card.getByLabel('File URL').inputValue(), `${site.origin}/.well-known/sightline-verification.txt`);
  assert.equal(await card.getByLabel('File URL').inputValue(), proofs.file.url);
  assert.equal(await card.getByLabel('File content').inputValue(), sites[0].token);
  assert.equal(await card.getByLabel('Meta tag').inputValue(), proofs.meta.tag);
  assert.match(proofs.meta.tag, new RegExp(sites[0].token));
  assert.equal(await card.getByLabel('Record name').inputValue(), proofs.dns.name);
  assert.equal(await card.getByLabel('Record value').inputValue(), `sightline-site-verification=${sites[0].token}`);
  await card.getByRole('button', { name: 'Copy file content' }).click();
  await card.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), sites[0].token);
  await card.getByRole('button', { name: 'Copy record value' }).click();
  await page.waitForFunction((value) => navigator.clipboard.readText().then((text) => text === value), proofs.dns.value);
  assert.match(page.url(), new RegExp(`[?&]site=${siteId}`));
  // The same site again is refused, with a link to it.
  await page.getByLabel('Site URL').fill(`${site.origin}/`);
  await page.getByRole('button', { name: 'Add site' }).click();
  await page.getByRole('alert').filter({ hasText: 'AUDIT_003' }).waitFor();
  await screenshot(page, 'site-audit-proofs');
  assert.deepEqual(page.problems, []);
});

test('"Verify" before the proof is published shows what the server found (AUDIT_001); once the file is served it proves the site', async () => {
  const card = page.locator(`[data-site="${siteId}"]`);
  await card.getByRole('button', { name: /^Verify/ }).click();
  const alert = card.getByRole('alert');
  await alert.waitFor({ timeout: 30_000 });
  const text = await alert.textContent();
  assert.match(text, /is not proven/);
  assert.match(text, /file: the file answered 404/);
  assert.match(text, /\(AUDIT_001\)/);
  // The REST answer is the same error.
  const refused = await context.api('POST', `${base()}/sites/${siteId}/verify`, { token, body: { method: 'file' } });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'AUDIT_001');
  await screenshot(page, 'site-audit-verify-failed');

  site.state.token = (await get(`${base()}/sites/${siteId}`)).token;
  await card.getByLabel('Proof to check').selectOption({ label: 'The file' });
  await card.getByRole('button', { name: /^Verify/ }).click();
  await card.locator('[data-site-status]').filter({ hasText: 'Verified by a file' }).waitFor({ timeout: 30_000 });
  await card.getByRole('status').filter({ hasText: 'Ownership proven by a file' }).waitFor();
  const verified = await get(`${base()}/sites/${siteId}`);
  assert.equal(verified.verified, true);
  assert.equal(verified.verifiedMethod, 'file');
  assert.ok(site.state.requests.some((request) => request.path === '/.well-known/sightline-verification.txt' && /ServiceAuditBot/.test(request.userAgent)),
    'the server fetched the file as ServiceAuditBot');
  assert.deepEqual(page.problems, []);
});

test('a crawl started from the page is followed live to "Completed"', async () => {
  await page.getByRole('link', { name: 'Crawls of this site' }).click();
  await page.getByRole('heading', { name: 'Start a crawl' }).waitFor();
  await page.getByLabel('Most pages', { exact: true }).fill('50');
  await page.getByLabel('Pause between requests (ms)').fill('0');
  await page.getByLabel('Requests at once').fill('2');
  // An out-of-range limit is explained beside its field and nothing is sent.
  await page.getByLabel('Most clicks from the start page').fill('500');
  await page.getByRole('button', { name: 'Start crawl' }).click();
  await page.getByText('A whole number from 0 to 100.').waitFor();
  assert.equal((await get(`${base()}/crawls`)).crawls.length, 0);
  await page.getByLabel('Most clicks from the start page').fill('5');
  await page.getByRole('button', { name: 'Start crawl' }).click();
  const progress = page.locator('[data-progress]');
  await progress.waitFor();
  crawlId = await progress.getAttribute('data-progress');
  assert.match(page.url(), new RegExp(`[?&]crawl=${crawlId}`));
  const started = await get(`${base()}/crawls/${crawlId}`);
  assert.deepEqual({ maxPages: started.limits.maxPages, maxDepth: started.limits.maxDepth, concurrency: started.limits.concurrency, delayMs: started.limits.delayMs },
    { maxPages: 50, maxDepth: 5, concurrency: 2, delayMs: 0 });
  const status = progress.locator(`[data-crawl-status="${crawlId}"]`);
  // The page polls get_site_crawl: no reload is needed to see it finish.
  await status.filter({ hasText: 'Completed' }).waitFor({ timeout: 90_000 });
  const done = await get(`${base()}/crawls/${crawlId}`);
  assert.equal(done.status, 'completed');
  assert.equal(await progress.locator('[data-figure="done"]').textContent(), number(done.progress.done));
  assert.equal(await progress.locator('[data-figure="blocked"]').textContent(), number(done.progress.blocked));
  assert.equal(await progress.locator('[data-figure="error"]').textContent(), number(done.progress.error));
  assert.ok(done.progress.done >= 3, JSON.stringify(done.progress));
  await progress.getByRole('status').filter({ hasText: `Found ${number(done.counts.issues)} issues` }).waitFor();
  // The list shows it too, with its counts.
  await page.locator('table').locator(`[data-crawl-status="${crawlId}"]`).filter({ hasText: 'Completed' }).first().waitFor();
  assert.ok(site.state.requests.some((request) => request.path === '/about' && /ServiceAuditBot/.test(request.userAgent)));
  await screenshot(page, 'site-audit-crawl-completed');
  assert.deepEqual(page.problems, []);
});

test('the issues by severity equal the REST summary; a check lists its issues with evidence; the state filter narrows them', async () => {
  await page.locator('[data-progress]').getByRole('link', { name: 'See the issues' }).click();
  await page.getByRole('heading', { name: 'Issues by severity' }).waitFor();
  assert.match(page.url(), /[?&]tab=issues/);
  const summary = await get(`${base()}/crawls/${crawlId}/summary`);
  const counts = summary.crawl.counts;
  for (const severity of ['error', 'warning', 'notice']) {
    assert.equal(await page.locator(`[data-severity-count="${severity}"]`).textContent(), number(counts.bySeverity[severity]), severity);
  }
  assert.ok(summary.rules.length > 0, 'the test site has issues');
  for (const rule of summary.rules) {
    const row = page.locator(`[data-severity="${rule.severity}"] [data-rule="${rule.ruleId}"]`);
    assert.equal(await row.locator(`[data-rule-count="${rule.ruleId}"]`).textContent(), number(rule.count), rule.ruleId);
  }
  for (const label of ['Errors', 'Warnings', 'Notices']) await page.getByRole('heading', { name: new RegExp(`^${label}`), level: 3 }).waitFor();
  // The first crawl has nothing to compare with: no New/Fixed columns.
  assert.equal(await page.getByRole('columnheader', { name: 'Fixed' }).count(), 0);

  // A check with issues on the home page: its issues, then that page's detail.
  const issues = (await get(`${base()}/crawls/${crawlId}/issues`, { limit: 500 })).issues;
  const onHome = issues.find((issue) => issue.url === `${site.origin}/`) ?? issues[0];
  const rule = summary.rules.find((line) => line.ruleId === onHome.ruleId);
  await page.locator(`[data-rule="${rule.ruleId}"]`).getByRole('link').click();
  const list = page.locator(`[data-rule-issues="${rule.ruleId}"]`);
  await list.getByRole('heading', { name: rule.title, level: 2 }).waitFor();
  assert.match(page.url(), new RegExp(`[?&]rule=${encodeURIComponent(rule.ruleId)}`));
  const ofRule = issues.filter((issue) => issue.ruleId === rule.ruleId);
  await list.locator('[data-issue-url]').first().waitFor();
  assert.deepEqual(await list.locator('[data-issue-url]').evaluateAll((rows) => rows.map((row) => row.dataset.issueUrl)), ofRule.map((issue) => issue.url));
  const firstEvidence = Object.keys(ofRule[0].evidence ?? {});
  if (firstEvidence.length > 0) assert.ok((await list.locator('.evidence').first().textContent()).length > 0);
  await screenshot(page, 'site-audit-issues');

  // State filter: the first crawl's issues are all new; none is fixed.
  await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Fixed since the previous crawl' });
  assert.match(page.url(), /[?&]state=fixed/);
  await list.getByText('No fixed issues of this check.').waitFor();
  await page.getByText('No errors in this selection.').waitFor();
  await page.getByLabel('Show', { exact: true }).selectOption({ label: 'New since the previous crawl' });
  await list.locator('[data-issue-url]').first().waitFor();
  assert.equal(await list.locator('[data-issue-url]').count(), ofRule.length);
  assert.equal(await list.locator('.badge.issue-new').count(), ofRule.length);

  // The URL of an issue opens the page's detail.
  await list.locator(`[data-issue-url="${onHome.url}"]`).getByRole('link').first().click();
  const detail = await get(`${base()}/crawls/${crawlId}/page`, { url: onHome.url });
  await page.locator(`[data-page-url="${detail.url}"]`).waitFor();
  assert.match(page.url(), /[?&]page=/);
  assert.equal(await page.locator('[data-page-fact="status"]').textContent(), String(detail.httpStatus));
  assert.equal(await page.locator('[data-page-fact="title"]').textContent(), detail.title || '—');
  assert.equal(await page.locator('[data-page-issue]').count(), detail.issues.length);
  await page.locator(`[data-page-issue="${rule.ruleId}"]`).first().waitFor();
  const outlinks = page.getByRole('region', { name: 'Links from this page', exact: true });
  for (const link of detail.outlinks) await outlinks.getByText(link.to, { exact: true }).first().waitFor();
  if (onHome.url === `${site.origin}/`) {
    assert.equal(detail.title, 'Test shop');
    await outlinks.getByRole('link', { name: `${site.origin}/about`, exact: true }).first().click();
    await page.locator(`[data-page-url="${site.origin}/about"]`).waitFor();
    await page.getByRole('region', { name: 'Links to this page', exact: true }).getByRole('link', { name: `${site.origin}/`, exact: true }).first().waitFor();
  }
  await screenshot(page, 'site-audit-page-detail');
  await page.getByRole('link', { name: '← Back to the issues' }).click();
  await list.waitFor();
  assert.doesNotMatch(page.url(), /[?&]page=/);
  assert.deepEqual(page.problems, []);
});

test('the pages section lists the crawl\'s pages and opens one', async () => {
  await page.getByRole('navigation', { name: 'Site audit sections' }).getByRole('link', { name: 'Pages' }).click();
  const region = page.getByRole('region', { name: 'Pages of the crawl', exact: true });
  const pages = (await get(`${base()}/crawls/${crawlId}/pages`, { limit: 51 })).pages;
  await region.getByRole('link', { name: pages[0].url, exact: true }).waitFor();
  assert.equal(await region.locator('tbody tr').count(), pages.length);
  await region.getByRole('link', { name: `${site.origin}/products`, exact: true }).click();
  await page.locator(`[data-page-url="${site.origin}/products"]`).waitFor();
  assert.equal(await page.locator('[data-page-fact="title"]').textContent(), 'Products');
  assert.deepEqual(page.problems, []);
});

/** GPTBot (disallowed from /private/ by the test site's robots.txt) and ClaudeBot requests to the site's host (the report counts that host's only). */
async function seedCrawlerTraffic() {
  const now = Date.now();
  const host = new URL(site.origin).host;
  const items = [];
  for (let d = 0; d < 10; d += 1) {
    items.push({ user_agent: GPTBOT, ip_address: '203.0.113.7', host, path: d % 2 ? '/private/report' : '/about', client_timestamp: now - d * 86_400_000 - 600_000 });
    items.push({ user_agent: CLAUDEBOT, ip_address: '81.2.69.142', host, path: '/', client_timestamp: now - d * 86_400_000 - 900_000 });
  }
  const bots = await context.api('POST', '/ingest/v1/server', { body: { events: items }, headers: { Authorization: `Bearer ${context.boot.privateApiKey}` } });
  assert.equal(bots.status, 202, JSON.stringify(bots.body));
}

test('robots vs traffic: the statements and each crawler\'s figures equal the REST report, with the comparison', async () => {
  await seedCrawlerTraffic();
  await page.getByRole('navigation', { name: 'Site audit sections' }).getByRole('link', { name: 'Robots vs traffic' }).click();
  await page.getByLabel('Period', { exact: true }).selectOption({ label: 'Last 7 days' });
  assert.match(page.url(), /[?&]tab=robots/);
  assert.match(page.url(), /[?&]period=7d/);
  await page.getByRole('heading', { name: 'What robots.txt says, and what the crawlers did' }).waitFor();
  const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
  const report = await get(`${base()}/sites/${siteId}/robots-traffic`, { from: isoDay(Date.now() - 6 * 86_400_000), to: isoDay(Date.now()), comparePreset: 'previous_period' });
  assert.ok(Array.isArray(report.crawlers) && report.crawlers.length > 0, JSON.stringify(report).slice(0, 400));
  // The verdicts come from the robots.txt the crawl read.
  assert.equal(report.robotsSource?.crawlId, crawlId, JSON.stringify(report.robotsSource));
  await page.locator(`[data-robots-source="${crawlId}"]`).waitFor();
  for (const crawler of report.crawlers) {
    if (crawler.statement) {
      assert.match(await page.locator(`[data-statement="${crawler.name}"]`).textContent(), new RegExp(crawler.statement.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    }
    const total = crawler.current?.requests?.total ?? 0;
    assert.equal(await page.locator(`[data-requests="${crawler.name}"]`).textContent(), number(total), crawler.name);
    assert.equal(await page.locator(`[data-access="${crawler.name}"]`).first().getAttribute('class'), `badge access-${crawler.access}`);
    if (crawler.previous) {
      assert.equal(await page.locator(`[data-previous-requests="${crawler.name}"]`).textContent(), number(crawler.previous.requests.total), crawler.name);
    }
  }
  const gpt = report.crawlers.find((crawler) => crawler.name === 'GPTBot');
  assert.ok(gpt, 'GPTBot is in the report');
  assert.equal(gpt.access, 'partial');
  assert.ok(gpt.current.disallowedRequests.total > 0, JSON.stringify(gpt));
  assert.equal(await page.locator('[data-disallowed="GPTBot"]').textContent(), number(gpt.current.disallowedRequests.total));
  await page.locator('[data-blocked-path="/private/report"]').waitFor();
  // The crawlers that never came and that no group of robots.txt names are folded into one line,
  // shown on request.
  const quiet = report.crawlers.find((crawler) => (crawler.access === 'allowed' || (crawler.access === 'partial' && crawler.root?.group === '*'))
    && !crawler.current.requests.total && !crawler.previous?.requests?.total);
  if (quiet) {
    assert.equal(await page.locator(`[data-statement="${quiet.name}"]`).isVisible(), false);
    await page.getByRole('button', { name: /^Show the \d+ crawlers? that never came, under the rules for every crawler$/ }).click();
    await page.locator(`[data-statement="${quiet.name}"]`).waitFor();
    await page.getByRole('button', { name: /^Hide the \d+ crawlers? that/ }).waitFor();
  }
  await screenshot(page, 'site-audit-robots-traffic');
  // No comparison hides the previous figures.
  await page.getByLabel('Compare with', { exact: true }).selectOption({ label: 'No comparison' });
  await page.locator('[data-previous-requests]').first().waitFor({ state: 'detached' });
  assert.deepEqual(page.problems, []);
});

test('a slow crawl shows its progress and is cancelled from the page', async () => {
  await page.goto(pageUrl(`?tab=crawls&site=${siteId}`));
  await page.getByRole('heading', { name: 'Start a crawl' }).waitFor();
  await page.getByLabel('Pause between requests (ms)').fill('20000');
  await page.getByLabel('Requests at once').fill('1');
  await page.getByRole('button', { name: 'Start crawl' }).click();
  const progress = page.locator('[data-progress]');
  await progress.getByRole('heading', { name: 'Crawl in progress' }).waitFor();
  const slowId = await progress.getAttribute('data-progress');
  assert.notEqual(slowId, crawlId);
  // A second crawl of the site while this one runs is refused, with a link to it.
  await page.getByRole('button', { name: 'Start crawl' }).click();
  await page.getByRole('alert').filter({ hasText: 'AUDIT_002' }).waitFor();
  await page.getByRole('link', { name: 'Show the crawl in progress' }).waitFor();
  await screenshot(page, 'site-audit-crawl-running');
  await progress.getByRole('button', { name: 'Cancel crawl' }).click();
  await progress.locator(`[data-crawl-status="${slowId}"]`).filter({ hasText: 'Cancelled' }).waitFor({ timeout: 60_000 });
  assert.equal((await get(`${base()}/crawls/${slowId}`)).status, 'cancelled');
  await progress.getByRole('button', { name: 'Cancel crawl' }).waitFor({ state: 'detached' });
  // Without a crawl in the URL, Issues opens the newest completed crawl, not the cancelled one.
  await page.goto(pageUrl('?tab=issues'));
  await page.getByRole('heading', { name: 'Issues by severity' }).waitFor();
  assert.equal(await page.getByLabel('Crawl', { exact: true }).inputValue(), crawlId);
  assert.deepEqual(page.problems, []);
});

test('the MCP App view draws a get_site_audit_summary result', async () => {
  const mcp = await mcpSession(context.base, context.boot.privateApiKey);
  const listed = await mcp.send('resources/list', {});
  const resource = listed.resources.find((item) => /^ui:\/\/sightline\/reports-[0-9a-f]{12}\.html$/.test(item.uri));
  assert.ok(resource, JSON.stringify(listed));
  const tools = await mcp.listTools();
  assert.equal(tools.find((item) => item.name === 'get_site_audit_summary')?._meta?.ui?.resourceUri, resource.uri);
  const view = (await mcp.send('resources/read', { uri: resource.uri })).contents[0];
  const result = await mcp.send('tools/call', { name: 'get_site_audit_summary', arguments: { crawlId } });
  const summary = result.structuredContent;
  assert.ok(summary?.crawl && Array.isArray(summary.rules), JSON.stringify(result).slice(0, 300));
  const { page: host } = await openHost(context, mcp, view.text);
  try {
    await host.evaluate(async (call) => {
      await window.bridge.sendToolInput({ arguments: { crawlId: call.crawlId } });
      await window.bridge.sendToolResult(call.result);
    }, { crawlId, result });
    const frame = host.frameLocator('iframe[title="Sightline report"]');
    await frame.locator('[data-severity-count="error"]').waitFor();
    for (const severity of ['error', 'warning', 'notice']) {
      assert.equal(await frame.locator(`[data-severity-count="${severity}"]`).textContent(), number(summary.crawl.counts.bySeverity[severity]));
    }
    for (const rule of summary.rules) {
      assert.equal(await frame.locator(`[data-rule-count="${rule.ruleId}"]`).textContent(), number(rule.count), rule.ruleId);
    }
    await frame.locator('.mcp-range').filter({ hasText: `Site audit of ${site.origin}` }).waitFor();
    assert.equal(await frame.getByLabel('Period', { exact: true }).count(), 0, 'a crawl\'s summary has no period');
    await frame.locator('[data-access="GPTBot"]').waitFor();
    await screenshot(host, 'mcp-app-site-audit');
    assert.deepEqual(host.problems, []);
  } finally {
    await host.close();
  }
});

test('an analyst reads the audit but sees no add, verify, remove, start or cancel control', async () => {
  const email = `analyst-${context.unique}@acme.test`;
  const invitation = await context.api('POST', `/${context.orgSlug}/invitations`, { token, body: { email, role: 'analyst' } });
  assert.equal(invitation.status, 201, JSON.stringify(invitation.body));
  const analyst = { email, password: 'analyst password 123' };
  const accepted = await context.api('POST', '/invitations/accept', { body: { token: invitation.body.token, password: analyst.password } });
  assert.ok(accepted.status === 200 || accepted.status === 201, JSON.stringify(accepted.body));
  const other = await context.newPage({ locale: 'en-US' });
  try {
    await context.signIn(other, analyst);
    await other.goto(pageUrl());
    await other.locator(`[data-site="${siteId}"]`).waitFor();
    for (const name of ['Add site', /^Verify/, /^Remove/]) assert.equal(await other.getByRole('button', { name }).count(), 0, String(name));
    await other.goto(pageUrl(`?tab=crawls&crawl=${crawlId}`));
    await other.locator('[data-progress]').waitFor();
    assert.equal(await other.getByRole('heading', { name: 'Start a crawl' }).count(), 0);
    await other.goto(pageUrl(`?tab=issues&crawl=${crawlId}`));
    await other.getByRole('heading', { name: 'Issues by severity' }).waitFor();
    await other.goto(pageUrl('?tab=robots'));
    await other.locator('[data-crawler]').first().waitFor();
    assert.deepEqual(other.problems, []);
  } finally {
    await other.close();
  }
});

test('every section fits a 360 px phone in the dark theme', async () => {
  const phone = await context.newPage({ locale: 'en-US', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, colorScheme: 'dark' });
  try {
    await context.signIn(phone);
    for (const [name, search, ready] of [['sites', '', '[data-site]'], ['crawls', `?tab=crawls&crawl=${crawlId}`, '[data-progress]'],
      ['issues', `?tab=issues&crawl=${crawlId}`, '[data-severity-count]'], ['pages', `?tab=pages&crawl=${crawlId}`, '.page-table'],
      ['page', `?tab=pages&crawl=${crawlId}&page=${encodeURIComponent(`${site.origin}/`)}`, '[data-page-url]'], ['robots', '?tab=robots', '[data-crawler]']]) {
      await phone.goto(pageUrl(search));
      await phone.locator(ready).first().waitFor();
      await phone.locator('main .loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => {});
      await phone.waitForTimeout(200);
      assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name} is wider than the phone`);
      await screenshot(phone, `site-audit-${name}-phone-dark`);
    }
    assert.deepEqual(phone.problems, []);
  } finally {
    await phone.close();
  }
});

test('axe-core finds no accessibility violations in the site-audit sections, light and dark', async () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const summary = await get(`${base()}/crawls/${crawlId}/summary`);
  for (const colorScheme of ['light', 'dark']) {
    // axe is injected as a script, which the CSP would refuse: this page bypasses it.
    const checked = await context.newPage({ locale: 'en-US', colorScheme, bypassCSP: true });
    try {
      await context.signIn(checked);
      for (const [search, ready] of [['', '[data-site]'], [`?tab=crawls&crawl=${crawlId}`, '[data-progress]'],
        [`?tab=issues&crawl=${crawlId}&rule=${encodeURIComponent(summary.rules[0].ruleId)}`, '[data-rule-issues] table'],
        [`?tab=pages&crawl=${crawlId}`, '.page-table'], [`?tab=issues&crawl=${crawlId}&page=${encodeURIComponent(`${site.origin}/`)}`, '[data-page-url]'],
        ['?tab=robots', '[data-crawler]']]) {
        await checked.goto(pageUrl(search));
        await checked.locator(ready).first().waitFor();
        await checked.locator('main .loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => {});
        await checked.addScriptTag({ content: axeSource });
        const violations = await checked.evaluate(async () => {
          const result = await window.axe.run({ include: [['main']] }, { resultTypes: ['violations'] });
          return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        });
        assert.deepEqual(violations, [], `${colorScheme} ${search || 'sites'}`);
      }
    } finally {
      await checked.close();
    }
  }
});

// The site-audit pages' data rules (src/site-audit/model.js): progress, counts, the summary's
// rules grouped by severity and filtered by state, evidence, the crawl form's limits, and the
// robots-vs-traffic report read defensively (nested figures, flat figures, missing fields).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aiCrawlerVerdicts, crawlCounts, crawlProgress, crawlRequest, defaultCrawl, evidenceEntries, groupRules, humanize,
  isActive, notableCrawler, percentChange, robotsTrafficReport, ruleHasState, ruleLine, siteFacts, summaryTotals, trafficCrawler,
} from '../src/site-audit/model.js';

test('a crawl\'s progress counts every finished page against what is known so far', () => {
  const progress = crawlProgress({ progress: { total: 10, queued: 4, done: 4, blocked: 1, error: 1, skipped: 0 } });
  assert.equal(progress.finished, 6);
  assert.equal(progress.fraction, 0.6);
  assert.equal(crawlProgress({}).fraction, 0);
  assert.equal(crawlProgress({ progress: { total: 0, done: 0 } }).total, 0);
  assert.equal(crawlProgress({ progress: { total: 3, done: 5 } }).fraction, 1); // never above 1
  assert.ok(isActive({ status: 'queued' }) && isActive({ status: 'running' }));
  assert.ok(!isActive({ status: 'completed' }) && !isActive(null));
});

test('counts are read from a finished crawl, and unknown before it finishes', () => {
  assert.equal(crawlCounts({ counts: null }).known, false);
  const counts = crawlCounts({ counts: { issues: 7, bySeverity: { error: 2, warning: 4, notice: 1 }, new: 3, open: 4, fixed: 5 } });
  assert.deepEqual(counts, { known: true, issues: 7, error: 2, warning: 4, notice: 1, new: 3, open: 4, fixed: 5 });
});

const rules = [
  { ruleId: 'title-missing', title: 'Missing title', severity: 'warning', category: 'on-page', count: 3, new: 1, fixed: 0 },
  { ruleId: 'broken-link', title: 'Broken internal link', severity: 'error', category: 'links', count: 2, new: 2, fixed: 1 },
  { ruleId: 'redirect-chain', title: 'Redirect chain', severity: 'error', category: 'crawl', count: 5, new: 0, fixed: 0 },
  { ruleId: 'llms-missing', title: 'No llms.txt', severity: 'notice', category: 'ai', count: 0, new: 0, fixed: 1 },
  { ruleId: 'odd', severity: 'fatal', count: 1 }, // an unknown severity counts as a notice
];

test('the summary\'s rules are grouped by severity, worst first, most issues first', () => {
  const groups = groupRules(rules);
  assert.deepEqual(groups.map((group) => group.severity), ['error', 'warning', 'notice']);
  assert.deepEqual(groups[0].rules.map((rule) => rule.ruleId), ['redirect-chain', 'broken-link']);
  assert.equal(groups[0].count, 7);
  assert.equal(groups[0].new, 2);
  assert.equal(groups[0].fixed, 1);
  assert.deepEqual(groups[2].rules.map((rule) => rule.ruleId), ['odd', 'llms-missing']);
  assert.equal(ruleLine({ ruleId: 'x' }).title, 'x');
  assert.deepEqual(groupRules(undefined).map((group) => group.rules.length), [0, 0, 0]);
});

test('the state filter keeps the rules with issues in that state', () => {
  const ids = (state) => groupRules(rules, state).flatMap((group) => group.rules.map((rule) => rule.ruleId));
  assert.deepEqual(ids('new'), ['broken-link', 'title-missing']);
  assert.deepEqual(ids('fixed'), ['broken-link', 'llms-missing']);
  assert.deepEqual(ids('open'), ['redirect-chain', 'title-missing', 'odd']);
  assert.equal(ruleHasState(ruleLine(rules[3]), ''), true); // fixed only: still listed under "all"
});

test('totals come from the crawl\'s counts, or from the rules when the crawl has none', () => {
  const fromRules = summaryTotals({ crawl: { counts: null, progress: { done: 12 } }, rules });
  assert.deepEqual(fromRules, { error: 7, warning: 3, notice: 1, issues: 11, new: 3, fixed: 2, pages: 12 });
  const fromCounts = summaryTotals({ crawl: { counts: { issues: 4, bySeverity: { error: 1, warning: 2, notice: 1 }, new: 0, fixed: 0, pages: { done: 9 } } }, rules });
  assert.equal(fromCounts.error, 1);
  assert.equal(fromCounts.pages, 9);
});

test('what the crawl read of the site becomes short facts; AI crawlers keep their verdicts', () => {
  const site = {
    robots: { status: 503, policy: 'disallow_all', aiCrawlers: [{ name: 'GPTBot', purpose: 'training', access: 'disallowed', rule: 'Disallow: /', line: 3 }, { purpose: 'x' }] },
    sitemaps: { files: [{ url: 'a' }, { url: 'b' }], urls: 40, truncated: false },
    llmsTxt: { present: true, wellFormed: false },
    https: { startUrlHttps: true, httpRedirectsToHttps: true },
  };
  const facts = Object.fromEntries(siteFacts(site).map((fact) => [fact.key, fact]));
  assert.match(facts.robots.value, /503: everything disallowed/);
  assert.equal(facts.robots.ok, false);
  assert.equal(facts.sitemaps.value, '2 files, 40 URLs');
  assert.equal(facts.llmsTxt.value, 'present, not well-formed');
  assert.equal(facts.https.ok, true);
  assert.deepEqual(siteFacts(undefined), []);
  assert.deepEqual(aiCrawlerVerdicts(site).map((row) => [row.name, row.access, row.line]), [['GPTBot', 'disallowed', 3]]);
});

test('evidence is shown as labelled text, long values cut', () => {
  const entries = evidenceEntries({ httpStatus: 404, chain: ['a', 'b'], target: { url: 'x' }, longText: 'y'.repeat(400), empty: null });
  assert.deepEqual(entries.slice(0, 3), [['HTTP status', '404'], ['Chain', 'a, b'], ['Target', '{"url":"x"}']]);
  assert.equal(entries[3][1].length, 300);
  assert.equal(entries[4][1], '—');
  assert.deepEqual(evidenceEntries('not an object'), []);
  assert.equal(humanize('max_depth'), 'Max depth');
  assert.equal(humanize('jsonLdType'), 'JSON-LD type');
});

test('the crawl form sends only the limits given, within the API\'s bounds, the duration in seconds', () => {
  assert.deepEqual(crawlRequest({}), { body: {}, problems: {} });
  assert.deepEqual(crawlRequest({ startUrl: ' https://a.test/x ', maxPages: '20', maxDurationMinutes: '2', delayMs: '0' }).body,
    { startUrl: 'https://a.test/x', maxPages: 20, maxDurationSeconds: 120, delayMs: 0 });
  const refused = crawlRequest({ maxPages: '0', concurrency: '9', maxDepth: '1.5' });
  assert.deepEqual(Object.keys(refused.problems).sort(), ['concurrency', 'maxDepth', 'maxPages']);
  assert.deepEqual(refused.body, {});
});

test('the default crawl is the newest completed one', () => {
  assert.equal(defaultCrawl([{ id: 'a', status: 'running' }, { id: 'b', status: 'cancelled' }, { id: 'c', status: 'completed' }]).id, 'c');
  assert.equal(defaultCrawl([{ id: 'a', status: 'running' }, { id: 'b', status: 'cancelled' }]).id, 'b');
  assert.equal(defaultCrawl([{ id: 'a', status: 'queued' }]).id, 'a');
  assert.equal(defaultCrawl([]), null);
});

test('the robots-vs-traffic report: the server\'s nested figures', () => {
  const counts = (total, verified = 0, spoofed = 0, suspected = 0) => ({ total, verified, spoofed, suspected });
  const report = robotsTrafficReport({
    from: '2026-03-01', to: '2026-03-07', comparisonWindow: { from: '2026-02-22T00:00:00Z', to: '2026-03-01T00:00:00Z' },
    crawlers: [
      { name: 'GPTBot', purpose: 'training', listed: true, access: 'disallowed', root: { rule: 'Disallow: /' },
        statement: 'GPTBot is disallowed and still fetched 412 pages (380 verified, 32 spoofed).',
        current: { requests: counts(412, 380, 32), disallowedRequests: counts(412, 380, 32), uncheckedRequests: 0,
          topDisallowedPaths: [{ path: '/private/a', requests: counts(300, 290, 10), rule: 'Disallow: /', line: 2 }] },
        previous: { requests: counts(200, 200), disallowedRequests: counts(200, 200), uncheckedRequests: 0, topDisallowedPaths: [] },
        change: { requests: { absoluteChange: 212, percentageChange: 106 }, disallowedRequests: { absoluteChange: 212, percentageChange: 106 } } },
      { name: 'PerplexityBot', purpose: 'search', access: 'allowed', statement: 'PerplexityBot is allowed and never came.',
        current: { requests: counts(0), disallowedRequests: counts(0), topDisallowedPaths: [] }, previous: null, change: null },
    ],
    blockedPaths: [{ path: '/private/a', requests: counts(300, 290, 10), crawlers: ['GPTBot'] }],
    totals: { requests: counts(412, 380, 32), disallowedRequests: counts(412, 380, 32), previousRequests: counts(200, 200), previousDisallowedRequests: counts(200, 200) },
  });
  assert.equal(report.crawlers.length, 2);
  const [gpt, perplexity] = report.crawlers;
  assert.equal(gpt.access, 'disallowed');
  assert.equal(gpt.current.requests.spoofed, 32);
  assert.equal(gpt.previous.requests.total, 200);
  assert.equal(gpt.percentageChange, 106);
  assert.deepEqual(gpt.current.topPaths.map((hit) => [hit.path, hit.requests.total, hit.rule]), [['/private/a', 300, 'Disallow: /']]);
  assert.equal(perplexity.previous, null);
  assert.equal(report.statements.length, 2);
  // GPTBot came (and is restricted); PerplexityBot is allowed and never came: folded by the page.
  assert.deepEqual(report.statements.map((item) => item.notable), [true, false]);
  assert.equal(notableCrawler(trafficCrawler({ name: 'X', access: 'disallowed' })), true);
  assert.equal(notableCrawler(trafficCrawler({ name: 'X', access: 'allowed', previous: { requests: { total: 2 } } })), true);
  assert.equal(notableCrawler(trafficCrawler({ name: 'X', access: 'allowed' })), false);
  // "Partly" only by the rules for every crawler (a site with any Disallow line): folded; a
  // group naming the crawler: a line of its own.
  assert.equal(notableCrawler(trafficCrawler({ name: 'X', access: 'partial', root: { allowed: true, group: '*' } })), false);
  assert.equal(notableCrawler(trafficCrawler({ name: 'X', access: 'partial', root: { allowed: true, group: 'x' } })), true);
  assert.equal(report.totals.previousRequests.total, 200);
  assert.equal(report.blockedPaths[0].crawlers[0], 'GPTBot');
  assert.equal(report.comparisonWindow.from, '2026-02-22T00:00:00Z');
});

test('the robots-vs-traffic report: flat or missing fields still render', () => {
  const flat = trafficCrawler({ botName: 'ClaudeBot', access: 'weird', requests: 12, requestsToDisallowedPaths: 5, previousRequests: 6,
    disallowedPaths: ['/a', { path: '/b', requests: 2 }] });
  assert.equal(flat.name, 'ClaudeBot');
  assert.equal(flat.access, 'allowed');
  assert.equal(flat.current.requests.total, 12);
  assert.equal(flat.current.disallowed.total, 5);
  assert.equal(flat.previous.requests.total, 6);
  assert.equal(flat.percentageChange, 100);
  assert.deepEqual(flat.current.topPaths.map((hit) => hit.path), ['/a', '/b']);
  const empty = robotsTrafficReport(null);
  assert.deepEqual(empty.crawlers, []);
  assert.equal(empty.totals.requests.total, 0);
  assert.equal(empty.totals.previousRequests, null);
  const noTotals = robotsTrafficReport({ crawlers: [{ name: 'A', current: { requests: { total: 3 } }, previous: { requests: { total: 1 } } }] });
  assert.equal(noTotals.totals.requests.total, 3);
  assert.equal(noTotals.totals.previousRequests.total, 1);
  assert.equal(trafficCrawler(undefined).name, 'Unnamed crawler');
  assert.equal(percentChange(3, 0), null);
  assert.equal(percentChange(3, 2), 50);
});

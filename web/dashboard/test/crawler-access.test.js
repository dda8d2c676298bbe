// The crawler list's join with get_crawler_access (src/reports/crawler-access.js): a crawler's
// robots.txt cells by its name (as stored, case aside), a vendor's visits back by its name, and
// nothing invented where the report has no row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlerAccess } from '../src/reports/crawler-access.js';

const report = {
  site: { siteId: 's1', origin: 'https://example.com' },
  crawlers: [
    { name: 'GPTBot', access: 'disallowed', statement: 'GPTBot is disallowed and still fetched 3 pages.',
      current: { disallowedRequests: { total: 3 } } },
    { name: 'bingbot', access: 'partial', statement: 'Bingbot is partly disallowed.', current: {} },
  ],
  vendors: [{ vendor: 'OpenAI', assistant: 'ChatGPT', referralVisits: 12, previousReferralVisits: null }],
};

test('a crawler row finds its robots.txt verdict by name, case aside', () => {
  const joined = crawlerAccess(report);
  assert.equal(joined.audited, true);
  assert.deepEqual(joined.robots('GPTBot'), { label: 'Blocked', title: report.crawlers[0].statement, disallowed: 3 });
  assert.deepEqual(joined.robots('Bingbot'), { label: 'Partly allowed', title: 'Bingbot is partly disallowed.', disallowed: 0 });
  assert.equal(joined.robots('ClaudeBot'), null);
  assert.equal(joined.robots(null), null);
});

test('a vendor row finds the visits back from its assistant', () => {
  const joined = crawlerAccess(report);
  assert.deepEqual(joined.visits('OpenAI'), { assistant: 'ChatGPT', visits: 12 });
  assert.equal(joined.visits('Common Crawl'), null);
});

test('before any audit, or while the report loads, nothing is joined', () => {
  for (const access of [undefined, { site: null, crawlers: [], vendors: [] }]) {
    const joined = crawlerAccess(access);
    assert.equal(joined.audited, false);
    assert.equal(joined.robots('GPTBot'), null);
    assert.equal(joined.visits('OpenAI'), null);
  }
});

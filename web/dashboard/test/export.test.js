// The files the report pages download (src/reports/export.js), and the Details requests
// (src/reports/filter-queries.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, csvOf, zipOf } from '../src/reports/export.js';

test('CSV quotes what needs quoting and defuses formulas', () => {
  const csv = csvOf(['Page', 'Visitors'], [['/a,b', 3], ['say "hi"', 1], ['=HYPERLINK("x")', 0], ['', null], ['-3', -3]]);
  assert.equal(csv, '\ufeffPage,Visitors\r\n"/a,b",3\r\n"say ""hi""",1\r\n"\'=HYPERLINK(""x"")",0\r\n,\r\n\'-3,-3\r\n');
});

test('CRC-32 is the zip format\'s', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
  assert.equal(crc32(new Uint8Array()), 0);
});

test('a zip of CSV files opens with unzip, each file intact', () => {
  const files = [{ name: 'pages.csv', text: csvOf(['Page'], [['/é']]) }, { name: 'sources.csv', text: 'Source\r\nGoogle\r\n' }];
  const dir = mkdtempSync(join(tmpdir(), 'zip-'));
  try {
    writeFileSync(join(dir, 'a.zip'), zipOf(files, new Date(2026, 10, 29, 12, 30, 10)));
    // Python's zipfile checks every CRC and reads the UTF-8 names.
    const listed = execFileSync('python3', ['-c', `import zipfile,sys
z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None
for i in z.infolist(): print(i.filename, i.date_time, z.read(i).decode('utf-8-sig').replace(chr(13)+chr(10), '|'))`, join(dir, 'a.zip')], { encoding: 'utf8' });
    assert.equal(listed, 'pages.csv (2026, 11, 29, 12, 30, 10) Page|/é|\nsources.csv (2026, 11, 29, 12, 30, 10) Source|Google|\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Details list is the view\'s query, searched and sorted; the search keeps the matching values', async () => {
  const { detailsMatching, detailsQuery, detailsShape } = await import('../src/reports/filter-queries.js');
  const scope = { orgSlug: 'acme', projectId: 'p1' };
  const params = { from: '2026-11-01', to: '2026-11-07' };
  const filters = [{ op: 'is', dimension: 'visit:country', values: ['DE'] }];
  assert.deepEqual(detailsQuery({ scope, params, filters, dimension: 'top_page', search: ' /Docs ' }), {
    orgSlug: 'acme', projectId: 'p1', date_range: ['2026-11-01', '2026-11-07'],
    filters: [['is', 'visit:country', ['DE']], ['contains', 'event:page', ['/Docs'], { case_sensitive: false }]],
    metrics: ['pageviews', 'visitors'], dimensions: ['event:page'], order_by: [['pageviews', 'desc']],
    pagination: { limit: 10000, offset: 0 }, include: { total_rows: true } });
  const durations = detailsQuery({ scope, params, filters: [], dimension: 'durations', sort: { key: 'time_on_page', direction: 'asc' } });
  assert.deepEqual([durations.metrics, durations.dimensions, durations.order_by], [['pageviews', 'time_on_page'], ['event:page'], [['time_on_page', 'asc']]]);
  assert.deepEqual(detailsShape('referrer_url'), { dimension: 'visit:referrer_url', metrics: ['visitors'] });
  // The visits with a /docs page also viewed /pricing: only /docs is a match.
  const results = [{ dimensions: ['/docs'], metrics: [2] }, { dimensions: ['/pricing'], metrics: [1] }, { dimensions: ['/DOCS/api'], metrics: [1] }];
  assert.deepEqual(detailsMatching(results, ' docs').map((row) => row.dimensions[0]), ['/docs', '/DOCS/api']);
  assert.equal(detailsMatching(results, '').length, 3);
});

test('a whole Details list is searched here: the rows, and their figures, that asking query with the search gives', async () => {
  const { detailsMatching, detailsWhole } = await import('../src/reports/filter-queries.js');
  assert.equal(detailsWhole({ results: [{}, {}], meta: { total_rows: 2 } }), true);
  assert.equal(detailsWhole({ results: Array(10_000), meta: { total_rows: 10_001 } }), false, 'cut at the limit');
  assert.equal(detailsWhole({ results: [] }), false, 'no total: asked again');
  // Visits and their pages. A `contains` filter on event:page keeps the visits with a matching
  // page, whole (docs/query.md); ASCII letters compare without case, nothing else does
  // (query/matching.cpp). The list counts pageviews per page.
  // /pricing is viewed in a visit without /docs too: asked with 'doc', query counts it in part,
  // and detailsMatching drops it.
  const visits = [['/docs', '/pricing'], ['/DOCS/api', '/'], ['/pricing', '/', '/docs'], ['/pricing'], ['/café', '/CAFÉ'], ['/Straße'], ['/ΑΣ', '/ΑΣΒ'], ['/\u212Aelvin']];
  const fold = (text) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  const listOf = (kept) => {
    const counts = new Map();
    for (const pages of kept) for (const page of pages) counts.set(page, (counts.get(page) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([page, views]) => ({ dimensions: [page], metrics: [views] }));
  };
  const whole = listOf(visits);
  for (const search of ['doc', ' DOCS ', 'é', 'É', 'café', 'ss', 'ß', 'ας', 'ΑΣ', 'σ', 'k', 'K', 'pricing', 'none']) {
    const text = fold(search.trim());
    const server = detailsMatching(listOf(visits.filter((pages) => pages.some((page) => fold(page).includes(text)))), search);
    assert.deepEqual(detailsMatching(whole, search), server, search);
  }
  assert.deepEqual(detailsMatching(whole, 'doc').map((row) => row.dimensions[0]), ['/docs', '/DOCS/api']);
  assert.equal(detailsMatching(whole, '  '), whole);
  // As query compares: é is not É, the Kelvin sign not k.
  assert.deepEqual(detailsMatching(whole, 'É').map((row) => row.dimensions[0]), ['/CAFÉ']);
  assert.deepEqual(detailsMatching(whole, 'k').map((row) => row.dimensions[0]), []);
});

// The web report's stacked filters (src/reports/filters.js): the URL encoding; and the mapping
// of a view to `query` requests and back to the reports' answer shapes (filter-queries.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addValueFilter, decodeFilter, dimensionLabel, encodeFilter, filtersFromSearch, filtersPatch, legacyFilter, needsQuery,
  propertyKey, referrerDrill, removeFilter, removeValueFilter, replaceFilter, reportFilterFor, takesValue } from '../src/reports/filters.js';
import { breakdownFromQuery, breakdownQuery, comparisonDaysOf, durationsQuery, suggestionsQuery, summaryFromQuery,
  summaryQuery, timelineFromQuery, timelineQuery } from '../src/reports/filter-queries.js';

const scope = { orgSlug: 'acme', projectId: 'p1' };
const params = { projectId: 'p1', from: '2026-11-01', to: '2026-11-07', comparePreset: 'previous_period' };
const searchOf = (filters) => {
  const search = new URLSearchParams();
  for (const text of filtersPatch(filters).f) search.append('f', text);
  return `?${search}`;
};

test('a filter is written op,dimension,values and read back', () => {
  const filter = { op: 'is', dimension: 'visit:country', values: ['DE', 'AT'] };
  assert.equal(encodeFilter(filter), 'is,visit:country,DE,AT');
  assert.deepEqual(decodeFilter('is,visit:country,DE,AT'), filter);
  assert.deepEqual(decodeFilter('contains_not,event:page,/blog'), { op: 'contains_not', dimension: 'event:page', values: ['/blog'] });
});

test('commas and backslashes in values and property keys round-trip', () => {
  const filters = [
    { op: 'matches', dimension: 'event:props:a,b\\c', values: ['^x,y$', 'back\\slash', ''] },
    { op: 'is', dimension: 'visit:referrer', values: [''] },
    { op: 'is_not', dimension: 'visit:city', values: ['São Paulo', 'a&b=c'] },
  ];
  assert.equal(encodeFilter(filters[0]), 'matches,event:props:a\\,b\\\\c,^x\\,y$,back\\\\slash,');
  assert.deepEqual(filtersFromSearch(searchOf(filters)), filters);
});

test('the URL keeps the filters in order; invalid ones are skipped', () => {
  const search = '?f=is,visit:source,Google&f=bogus,visit:source,x&f=is,visit:nothing,x&f=is,visit:os&f=contains,event:page,/docs';
  assert.deepEqual(filtersFromSearch(search), [
    { op: 'is', dimension: 'visit:source', values: ['Google'] },
    { op: 'contains', dimension: 'event:page', values: ['/docs'] },
  ]);
  assert.deepEqual(filtersPatch([]), { f: [], filter: null });
});

test('an old filter= link is one is filter', () => {
  assert.deepEqual(filtersFromSearch('?filter=top_page:/pricing'), [{ op: 'is', dimension: 'event:page', values: ['/pricing'] }]);
  assert.deepEqual(legacyFilter('country:'), { op: 'is', dimension: 'visit:country', values: [''] });
  assert.equal(legacyFilter('durations:/x'), null);
  assert.equal(legacyFilter('nonsense'), null);
  // f= wins when both are present (a link edited by hand).
  assert.deepEqual(filtersFromSearch('?filter=country:DE&f=is,visit:os,Linux'), [{ op: 'is', dimension: 'visit:os', values: ['Linux'] }]);
});

test('property keys are 1 to 100 bytes', () => {
  assert.equal(propertyKey('event:props:plan'), 'plan');
  assert.equal(propertyKey('event:props:'), null);
  assert.equal(propertyKey(`event:props:${'é'.repeat(51)}`), null);
  assert.equal(dimensionLabel('event:props:plan'), 'Property plan');
  assert.equal(dimensionLabel('visit:os'), 'Operating system');
});

test('clicking rows stacks is filters; the same dimension takes another value', () => {
  let filters = addValueFilter([], 'visit:country', 'DE');
  filters = addValueFilter(filters, 'event:page', '/pricing');
  assert.equal(filters.length, 2);
  filters = addValueFilter(filters, 'visit:country', 'AT');
  assert.deepEqual(filters[0], { op: 'is', dimension: 'visit:country', values: ['DE', 'AT'] });
  assert.equal(addValueFilter(filters, 'visit:country', 'DE'), filters);
  assert.deepEqual(removeFilter(filters, 0), [filters[1]]);
  const edited = replaceFilter(filters, 1, { op: 'is_not', dimension: 'event:page', values: ['/pricing'] });
  assert.equal(edited[1].op, 'is_not');
  // Editing a filter into one already there leaves one of them.
  assert.deepEqual(replaceFilter(edited, 1, filters[0]), [filters[0]]);
});

test('clicking a chosen row takes its value away, and the filter with its last value', () => {
  const filters = [{ op: 'is', dimension: 'visit:country', values: ['DE', 'AT'] }, { op: 'is_not', dimension: 'event:page', values: ['/x'] }];
  assert.equal(takesValue(filters, 'visit:country', 'AT'), true);
  assert.equal(takesValue(filters, 'event:page', '/x'), false, 'an is_not filter does not choose its row');
  const fewer = removeValueFilter(filters, 'visit:country', 'DE');
  assert.deepEqual(fewer[0].values, ['AT']);
  assert.deepEqual(removeValueFilter(fewer, 'visit:country', 'AT'), [filters[1]]);
  assert.deepEqual(removeValueFilter(filters, 'event:page', '/x'), filters);
});

test('the reports answer none or one simple is filter; query the rest', () => {
  assert.equal(needsQuery([]), false);
  const one = [{ op: 'is', dimension: 'event:page', values: ['/pricing'] }];
  assert.equal(reportFilterFor(one), 'top_page:/pricing');
  assert.equal(needsQuery(one), false);
  assert.equal(reportFilterFor([{ op: 'is', dimension: 'visit:country', values: [''] }]), 'country:');
  assert.equal(needsQuery([{ op: 'is', dimension: 'visit:country', values: ['DE', 'AT'] }]), true);
  assert.equal(needsQuery([{ op: 'is_not', dimension: 'visit:country', values: ['DE'] }]), true);
  assert.equal(needsQuery([{ op: 'is', dimension: 'event:props:plan', values: ['pro'] }]), true);
  assert.equal(needsQuery([...one, { op: 'is', dimension: 'visit:os', values: ['Linux'] }]), true);
});

const filters = [{ op: 'is', dimension: 'visit:source', values: ['Google'] }, { op: 'contains', dimension: 'event:page', values: ['/docs'] }];

test('the summary and breakdowns ask query with the filters and the comparison', () => {
  assert.deepEqual(summaryQuery(scope, params, filters), {
    orgSlug: 'acme', projectId: 'p1', date_range: ['2026-11-01', '2026-11-07'],
    filters: [['is', 'visit:source', ['Google']], ['contains', 'event:page', ['/docs']]],
    include: { comparisons: { mode: 'previous_period' } },
    metrics: ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration', 'events'],
  });
  const custom = { projectId: 'p1', from: '2026-11-01', to: '2026-11-07', compareFrom: '2026-10-01', compareTo: '2026-10-07' };
  assert.deepEqual(summaryQuery(scope, custom, filters).include, { comparisons: { mode: 'custom', date_range: ['2026-10-01', '2026-10-07'] } });
  assert.equal(summaryQuery(scope, { projectId: 'p1', from: '2026-11-01', to: '2026-11-07' }, filters).include, undefined);

  const pages = breakdownQuery(scope, params, filters, 'top_page', 10);
  assert.deepEqual([pages.metrics, pages.dimensions, pages.order_by, pages.pagination],
    [['pageviews', 'visitors'], ['event:page'], [['pageviews', 'desc']], { limit: 10 }]);
  assert.deepEqual(breakdownQuery(scope, params, filters, 'entry_page', 10).metrics, ['visits', 'visitors']);
  assert.deepEqual(breakdownQuery(scope, params, filters, 'event', 10).dimensions, ['event:name']);
  assert.deepEqual(breakdownQuery(scope, params, filters, 'country', 50).metrics, ['visitors']);
  assert.deepEqual(durationsQuery(scope, params, filters, 10).metrics, ['pageviews', 'time_on_page']);
});

test('the timeline buckets by the interval and compares with its own request', () => {
  const request = timelineQuery(scope, params, filters, 'day');
  assert.deepEqual(request.dimensions, ['time:day']);
  assert.deepEqual(request.include, { time_labels: true });
});

test('value suggestions leave out the filters on their own dimension', () => {
  const request = suggestionsQuery(scope, params, filters, 'visit:source', 20);
  assert.deepEqual(request.filters, [['contains', 'event:page', ['/docs']]]);
  assert.deepEqual(request.dimensions, ['visit:source']);
  assert.equal(request.include, undefined);
});

test('a summary answer becomes the report cards\' metrics', () => {
  const answer = {
    results: [{ dimensions: [], metrics: [3, 4, 6, 1.5, 66.66666666666667, 12.5, 7],
      comparison: { dimensions: [], metrics: [1, 2, 2, 1, 50, 0, 2], change: [200, 100, 200, 50, 16.666666666666671, null, 250] } }],
    query: { comparison_date_range: ['2026-10-25T00:00:00+01:00', '2026-10-31T23:59:59+01:00'] },
  };
  const summary = summaryFromQuery(answer);
  assert.deepEqual(summary.metrics.visitors, { value: 3, previous: 1, change: 200 });
  assert.deepEqual(summary.metrics.bounceRate, { value: 66.67, previous: 50, change: 16.67 });
  assert.deepEqual(summary.metrics.visitDuration, { value: 12500, previous: 0, change: null });
  assert.deepEqual(summary.comparisonWindow, { from: '2026-10-24T23:00:00.000Z', to: '2026-10-31T23:00:00.000Z' });
  assert.deepEqual(comparisonDaysOf(answer), ['2026-10-25', '2026-10-31']);
  // No visits: zeros and no rates; no comparison asked: no previous figures.
  const empty = summaryFromQuery({ results: [], query: {} });
  assert.deepEqual(empty.metrics.visits, { value: 0 });
  assert.deepEqual(empty.metrics.bounceRate, { value: null });
  assert.equal(empty.comparisonWindow, null);
});

test('a timeline answer has every bucket, zeros where nothing happened', () => {
  const answer = { results: [{ dimensions: ['2026-11-02'], metrics: [2, 2, 3, 1.5, 50, 30, 4] }],
    meta: { time_labels: ['2026-11-01', '2026-11-02', '2026-11-03'] } };
  const timeline = timelineFromQuery(answer, 'day');
  assert.deepEqual(timeline.buckets, ['2026-11-01', '2026-11-02', '2026-11-03']);
  assert.deepEqual(timeline.points[0], { visitors: 0, visits: 0, pageviews: 0, viewsPerVisit: null, bounceRate: null, visitDuration: null, events: 0 });
  assert.deepEqual(timeline.points[1], { visitors: 2, visits: 2, pageviews: 3, viewsPerVisit: 1.5, bounceRate: 50, visitDuration: 30000, events: 4 });
});

test('a breakdown answer becomes report rows, "" as the none row', () => {
  const answer = { results: [
    { dimensions: ['/docs'], metrics: [5, 2], comparison: { metrics: [1, 1], absoluteChange: [4, 1], percentageChange: [400, 100] } },
    { dimensions: [''], metrics: [1, 1], comparison: { metrics: [0, 0], absoluteChange: [1, 1], percentageChange: [null, null] } },
  ], query: { comparison_date_range: ['2026-10-25T00:00:00Z', '2026-10-31T23:59:59Z'] } };
  const { rows } = breakdownFromQuery(answer, 'top_page');
  assert.deepEqual(rows[0], { value: '/docs', count: 5, visitors: 2, previousCount: 1, absoluteChange: 4, percentageChange: 400 });
  assert.equal(rows[1].value, null);
  assert.equal(rows[1].percentageChange, null);
});

test('one referrer domain drills down to its URLs', () => {
  const drill = [{ op: 'is', dimension: 'visit:referrer', values: ['google.com'] }];
  assert.equal(referrerDrill(drill), 'google.com');
  assert.equal(referrerDrill([{ op: 'is', dimension: 'visit:referrer', values: ['a.com', 'b.com'] }]), null);
  assert.equal(referrerDrill([{ op: 'is', dimension: 'visit:referrer', values: [''] }]), null);
  assert.equal(referrerDrill([{ op: 'is_not', dimension: 'visit:referrer', values: ['a.com'] }]), null);
  assert.equal(referrerDrill([]), null);
  const request = breakdownQuery(scope, params, drill, 'referrer_url', 10);
  assert.deepEqual(request.dimensions, ['visit:referrer_url']);
  assert.deepEqual(request.metrics, ['visitors']);
  assert.deepEqual(request.filters, [['is', 'visit:referrer', ['google.com']]]);
});

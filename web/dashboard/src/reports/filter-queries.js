// How a web report view with stacked filters is asked of `query` (docs/query.md), and how its
// answers are reshaped like the reports' answers, so the cards draw them unchanged. Loaded only
// when a view has filters the reports cannot answer (the first view stays within its budget).
// Pure functions, unit-tested in web/dashboard/test/filters.test.js.
import { queryDimensionOf } from './filters.js';

/** `query`'s filters: [["is", "visit:country", ["DE"]], …]. */
export const queryFilters = (filters) => filters.map(({ op, dimension, values }) => [op, dimension, values]);

/** The report cards' metric names, and `query`'s. */
export const summaryMetrics = [
  ['visitors', 'visitors'], ['visits', 'visits'], ['pageviews', 'pageviews'], ['viewsPerVisit', 'views_per_visit'],
  ['bounceRate', 'bounce_rate'], ['visitDuration', 'visit_duration'], ['events', 'events'],
];

/** `query`'s comparison for the reports' comparison params, or null (none asked). */
export function queryComparison(params) {
  if (params.compareFrom && params.compareTo) return { mode: 'custom', date_range: [params.compareFrom, params.compareTo] };
  return params.comparePreset ? { mode: params.comparePreset } : null;
}

/** The common part of every request of a view: scope, period, filters, comparison. */
function baseQuery(scope, params, filters, { compare = true } = {}) {
  const request = { ...scope, date_range: [params.from, params.to], filters: queryFilters(filters) };
  const comparison = compare ? queryComparison(params) : null;
  if (comparison) request.include = { comparisons: comparison };
  return request;
}

/** The headline figures' request. scope: { orgSlug, projectId }; params: reportParams(…). */
export function summaryQuery(scope, params, filters) {
  return { ...baseQuery(scope, params, filters), metrics: summaryMetrics.map(([, metric]) => metric) };
}

/**
 * The timeline's request: every metric per time bucket. `query` has rows only for buckets with
 * visits, and compares bucket by bucket only those, so the comparison line is its own request
 * over the comparison window (previousTimelineQuery), not `include.comparisons`.
 */
export function timelineQuery(scope, params, filters, interval) {
  return { ...baseQuery(scope, params, filters, { compare: false }), metrics: summaryMetrics.map(([, metric]) => metric),
    dimensions: [`time:${interval}`], include: { time_labels: true } };
}

/** The comparison window's timeline, once the summary's answer has named the window. */
export function previousTimelineQuery(scope, params, filters, interval, window) {
  return timelineQuery(scope, { ...params, from: window[0], to: window[1] }, filters, interval);
}

/**
 * What a breakdown counts, as the reports do (docs/metrics.md): top_page pageviews (and its
 * visitors), entry and exit pages visits, events and event channels events, the rest visitors.
 */
export function breakdownMetrics(reportDimension) {
  if (reportDimension === 'top_page') return ['pageviews', 'visitors'];
  if (reportDimension === 'entry_page' || reportDimension === 'exit_page') return ['visits', 'visitors'];
  if (reportDimension === 'event' || reportDimension === 'event_channel') return ['events', 'visitors'];
  return ['visitors'];
}

/**
 * A breakdown tab's request: its top `limit` values by its count. `referrer_url` (the drill-down
 * of one referrer domain, filters.js referrerDrill) is `query`'s visit:referrer_url.
 */
export function breakdownQuery(scope, params, filters, reportDimension, limit) {
  const metrics = breakdownMetrics(reportDimension);
  const dimension = reportDimension === 'referrer_url' ? 'visit:referrer_url' : queryDimensionOf(reportDimension);
  return { ...baseQuery(scope, params, filters), metrics, dimensions: [dimension],
    order_by: [[metrics[0], 'desc']], pagination: { limit } };
}

export const detailsPageSize = 50;
// A Details list reads at most this many values (`query`'s largest page).
export const detailsLimit = 10_000;

/** What a tab's Details list: its `query` dimension and metrics (time on page for durations). */
export function detailsShape(reportDimension) {
  if (reportDimension === 'durations') return { dimension: 'event:page', metrics: ['pageviews', 'time_on_page'] };
  const dimension = reportDimension === 'referrer_url' ? 'visit:referrer_url' : queryDimensionOf(reportDimension);
  return { dimension, metrics: breakdownMetrics(reportDimension) };
}

/**
 * A tab's Details list: the view's period and filters, and the search as one more `contains`
 * filter (case-insensitive) on the listed dimension, sorted by `sort` (default its count,
 * descending). On an event dimension that filter keeps the visits with a matching value, and
 * their other values too: detailsMatching keeps the values that match.
 */
export function detailsQuery({ scope, params, filters, dimension, search = '', sort, limit = detailsLimit }) {
  const shape = detailsShape(dimension);
  const text = search.trim();
  const order = sort ?? { key: shape.metrics[0], direction: 'desc' };
  const searched = text ? [['contains', shape.dimension, [text], { case_sensitive: false }]] : [];
  return { ...scope, date_range: [params.from, params.to], filters: [...queryFilters(filters), ...searched], metrics: shape.metrics,
    dimensions: [shape.dimension], order_by: [[order.key, order.direction]], pagination: { limit, offset: 0 }, include: { total_rows: true } };
}

/** ASCII letters in lower case, the rest as it is: how `query` compares with case_sensitive: false (query/matching.cpp). */
const foldAscii = (text) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * The rows of a Details answer whose value holds the search as detailsQuery's `contains` filter
 * tests it (ASCII letters in any case). On an answer asked with the search, the values that
 * match: the others are those of the visits kept. On the list asked without it, and whole
 * (detailsWhole), the same rows with the same figures: every event of a matching value is in a
 * visit that filter keeps, so the search can filter that list here instead of asking again.
 */
export function detailsMatching(results, search = '') {
  const text = foldAscii(search.trim());
  return text ? results.filter((row) => foldAscii(row.dimensions[0]).includes(text)) : results;
}

/** Whether a Details answer holds every row its request had (none cut at detailsLimit). */
export function detailsWhole(answer) {
  const total = answer?.meta?.total_rows;
  return typeof total === 'number' && total <= (answer.results?.length ?? 0);
}

/** The time-on-page tab's request: the most viewed pages with their mean time on page. */
export function durationsQuery(scope, params, filters, limit) {
  return { ...baseQuery(scope, params, filters), metrics: ['pageviews', 'time_on_page'], dimensions: ['event:page'],
    order_by: [['pageviews', 'desc']], pagination: { limit } };
}

/**
 * The value suggestions of a dimension: its most common values in the period among the visits
 * the other filters keep (a filter on the same dimension would hide the alternatives).
 */
export function suggestionsQuery(scope, params, filters, dimension, limit = 20) {
  const others = filters.filter((filter) => filter.dimension !== dimension);
  return { ...baseQuery(scope, params, others, { compare: false }), metrics: ['visitors'], dimensions: [dimension],
    order_by: [['visitors', 'desc']], pagination: { limit } };
}

const toMs = (seconds) => (seconds === null || seconds === undefined ? null : Math.round(seconds * 1000));
// The reports round these two to 2 decimals; `query` does not (docs/query.md).
const round2 = (value) => (value === null || value === undefined ? null : Math.round(value * 100) / 100);

/** A `query` row's metrics (in summaryMetrics order) as a report point. */
function pointOf(values) {
  const point = {};
  summaryMetrics.forEach(([key], index) => { point[key] = values?.[index] ?? null; });
  for (const key of ['visitors', 'visits', 'pageviews', 'events']) point[key] ??= 0;
  point.viewsPerVisit = round2(point.viewsPerVisit);
  point.bounceRate = round2(point.bounceRate);
  point.visitDuration = toMs(point.visitDuration);
  return point;
}

/** The echo's comparison range (local first and last second) as the reports' UTC window. */
export function comparisonWindowOf(answer) {
  const range = answer?.query?.comparison_date_range;
  if (!range) return null;
  return { from: new Date(range[0]).toISOString(), to: new Date(Date.parse(range[1]) + 1000).toISOString() };
}

/** The local days of the echo's comparison range, for previousTimelineQuery. */
export function comparisonDaysOf(answer) {
  const range = answer?.query?.comparison_date_range;
  return range ? [range[0].slice(0, 10), range[1].slice(0, 10)] : null;
}

/**
 * A summary `query` answer as get_web_analytics' { comparisonWindow, metrics }, with
 * comparisonDays for previousTimelineQuery.
 */
export function summaryFromQuery(answer) {
  const row = answer.results[0];
  const current = pointOf(row?.metrics);
  const compared = answer.query?.comparison_date_range ? row?.comparison ?? { metrics: [] } : null;
  const previous = compared ? pointOf(compared.metrics) : null;
  const metrics = {};
  summaryMetrics.forEach(([key], index) => {
    metrics[key] = { value: current[key] };
    if (!previous) return;
    metrics[key].previous = previous[key];
    const change = compared.change?.[index];
    metrics[key].change = change === undefined || change === null ? null : round2(change);
  });
  return { comparisonWindow: comparisonWindowOf(answer), comparisonDays: comparisonDaysOf(answer), metrics };
}

/** A timeline `query` answer as get_web_timeline's { interval, buckets, points }. */
export function timelineFromQuery(answer, interval) {
  const byLabel = new Map(answer.results.map((row) => [row.dimensions[0], row.metrics]));
  const buckets = answer.meta?.time_labels ?? answer.results.map((row) => row.dimensions[0]);
  return { interval, buckets, points: buckets.map((label) => pointOf(byLabel.get(label))) };
}

/** A breakdown `query` answer as get_web_breakdown's rows ("" is the reports' null value). */
export function breakdownFromQuery(answer, reportDimension) {
  const compared = Boolean(answer.query?.comparison_date_range);
  const rows = answer.results.map((row) => {
    const [count, visitors] = row.metrics;
    const out = { value: row.dimensions[0] === '' ? null : row.dimensions[0], count, visitors: visitors ?? count };
    if (compared && row.comparison) {
      out.previousCount = row.comparison.metrics[0] ?? 0;
      out.absoluteChange = row.comparison.absoluteChange[0];
      out.percentageChange = row.comparison.percentageChange[0];
    }
    return out;
  });
  return { dimension: reportDimension, comparisonWindow: comparisonWindowOf(answer), rows };
}

/** A time-on-page `query` answer as get_page_durations' rows (milliseconds). */
export function durationsFromQuery(answer) {
  const compared = Boolean(answer.query?.comparison_date_range);
  const rows = answer.results.map((row) => {
    const out = { path: row.dimensions[0], pageviews: row.metrics[0], avgDurationMs: toMs(row.metrics[1]) };
    if (compared && row.comparison) {
      out.previousAvgDurationMs = toMs(row.comparison.metrics[1]);
      out.absoluteChange = toMs(row.comparison.absoluteChange[1]);
      out.percentageChange = row.comparison.percentageChange[1];
    }
    return out;
  });
  return { comparisonWindow: comparisonWindowOf(answer), rows };
}

// The web report's stacked filters: how they are written in the URL, added, edited and removed,
// and whether the reports can answer them (else filter-queries.js asks `query`). Pure functions
// (no DOM), unit-tested in web/dashboard/test/filters.test.js.
//
// A filter is { op, dimension, values }: op one of filterOperators, dimension a `query` web
// dimension (visit:source, event:page, event:props:<key>), values one or more strings ("" is a
// visit without the value, the reports' "(none)" row).
//
// In the URL each filter is one `f` parameter, repeated, in the order they were added:
//   f=is,visit:country,DE,AT      f=contains_not,event:page,/blog      f=is,visit:referrer,
// op, dimension and values are separated by commas; a comma or backslash inside the dimension
// (a property key) or a value is written with a backslash before it (`\,`, `\\`). This reads
// like the filter it is, survives any value, and decodes to exactly what was encoded. The
// reports' older single `filter=<report dimension>:<value>` links are read as one `is` filter.

/** The operators a chip offers, in `query`'s names. */
export const filterOperators = [
  { op: 'is', label: 'is' },
  { op: 'is_not', label: 'is not' },
  { op: 'contains', label: 'contains' },
  { op: 'contains_not', label: 'does not contain' },
  { op: 'matches', label: 'matches (regex)' },
  { op: 'matches_not', label: 'does not match' },
];

/**
 * The dimensions a filter can be on: `query`'s name, its label, and the report dimension (the
 * breakdown tab, the reports' `filter` argument) it is the same as, when there is one.
 */
export const filterDimensions = [
  { dimension: 'event:page', label: 'Page', report: 'top_page' },
  { dimension: 'visit:entry_page', label: 'Entry page', report: 'entry_page' },
  { dimension: 'visit:exit_page', label: 'Exit page', report: 'exit_page' },
  { dimension: 'visit:channel', label: 'Channel', report: 'channel' },
  { dimension: 'visit:source', label: 'Source', report: 'source' },
  { dimension: 'visit:referrer', label: 'Referrer', report: 'referrer' },
  { dimension: 'visit:utm_source', label: 'UTM source', report: 'utm_source' },
  { dimension: 'visit:utm_medium', label: 'UTM medium', report: 'utm_medium' },
  { dimension: 'visit:utm_campaign', label: 'UTM campaign', report: 'utm_campaign' },
  { dimension: 'visit:utm_term', label: 'UTM term', report: 'utm_term' },
  { dimension: 'visit:utm_content', label: 'UTM content', report: 'utm_content' },
  { dimension: 'visit:country', label: 'Country', report: 'country' },
  { dimension: 'visit:region', label: 'Region', report: 'region' },
  { dimension: 'visit:city', label: 'City', report: 'city' },
  { dimension: 'visit:browser', label: 'Browser', report: 'browser' },
  { dimension: 'visit:os', label: 'Operating system', report: 'os' },
  { dimension: 'visit:device', label: 'Device', report: 'device' },
  { dimension: 'event:name', label: 'Event', report: 'event' },
  { dimension: 'event:channel', label: 'Event channel', report: 'event_channel' },
];

export const propertyPrefix = 'event:props:';
const maxPropertyKeyBytes = 100;

const byDimension = new Map(filterDimensions.map((item) => [item.dimension, item]));
const byReport = new Map(filterDimensions.map((item) => [item.report, item]));
const operatorNames = new Set(filterOperators.map((item) => item.op));

/** The custom property key of a dimension (event:props:plan → plan), else null. */
export function propertyKey(dimension) {
  if (typeof dimension !== 'string' || !dimension.startsWith(propertyPrefix)) return null;
  const key = dimension.slice(propertyPrefix.length);
  const bytes = new TextEncoder().encode(key).length;
  return bytes >= 1 && bytes <= maxPropertyKeyBytes ? key : null;
}

export const isFilterDimension = (dimension) => byDimension.has(dimension) || propertyKey(dimension) !== null;

/** How a dimension is named on a chip: "Country", "Property plan". */
export function dimensionLabel(dimension) {
  const key = propertyKey(dimension);
  return key === null ? byDimension.get(dimension)?.label ?? dimension : `Property ${key}`;
}

export const operatorLabel = (op) => filterOperators.find((item) => item.op === op)?.label ?? op;

/** The `query` dimension of a report dimension (top_page → event:page), else null. */
export const queryDimensionOf = (reportDimension) => byReport.get(reportDimension)?.dimension ?? null;

/** The report dimension of a `query` dimension (event:page → top_page), else null. */
export const reportDimensionOf = (dimension) => byDimension.get(dimension)?.report ?? null;

const escapePart = (text) => text.replace(/[\\,]/g, (character) => `\\${character}`);

/** One filter as the text of its `f` parameter. */
export function encodeFilter({ op, dimension, values }) {
  return [op, dimension, ...values].map(escapePart).join(',');
}

/** Splits on the commas that are not escaped, removing the escapes. */
function splitParts(text) {
  const parts = [''];
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\' && index + 1 < text.length) parts[parts.length - 1] += text[++index];
    else if (character === ',') parts.push('');
    else parts[parts.length - 1] += character;
  }
  return parts;
}

/** An `f` parameter's filter, or null when it is not one (an unknown operator or dimension). */
export function decodeFilter(text) {
  if (typeof text !== 'string') return null;
  const [op, dimension, ...values] = splitParts(text);
  if (!operatorNames.has(op) || !isFilterDimension(dimension) || values.length === 0) return null;
  return { op, dimension, values };
}

/**
 * The reports' old `filter=<report dimension>:<value>` as an `is` filter, else null (an empty
 * value is the visits without one, as the reports read it).
 */
export function legacyFilter(text) {
  if (typeof text !== 'string') return null;
  const colon = text.indexOf(':');
  if (colon < 1) return null;
  const dimension = queryDimensionOf(text.slice(0, colon));
  return dimension ? { op: 'is', dimension, values: [text.slice(colon + 1)] } : null;
}

/** The filters of a URL's search string ("?f=…&f=…", or the old "?filter=…"). */
export function filtersFromSearch(search) {
  const params = new URLSearchParams(search);
  const filters = params.getAll('f').map(decodeFilter).filter(Boolean);
  if (filters.length > 0) return filters;
  const legacy = legacyFilter(params.get('filter'));
  return legacy ? [legacy] : [];
}

/** The URL patch (for setQuery) that writes these filters, dropping an old `filter=`. */
export function filtersPatch(filters) {
  return { f: filters.map(encodeFilter), filter: null };
}

const sameFilter = (a, b) => a.op === b.op && a.dimension === b.dimension
  && a.values.length === b.values.length && a.values.every((value, index) => value === b.values[index]);

/**
 * The filters after clicking a row: the visits must also have this value. An `is` filter on
 * the same dimension takes it as one more accepted value (two `is` filters on one visit
 * dimension would keep nothing); otherwise a new `is` filter is stacked.
 */
export function addValueFilter(filters, dimension, value) {
  const index = filters.findIndex((filter) => filter.op === 'is' && filter.dimension === dimension);
  if (index === -1) return [...filters, { op: 'is', dimension, values: [value] }];
  if (filters[index].values.includes(value)) return filters;
  return filters.map((filter, at) => (at === index ? { ...filter, values: [...filter.values, value] } : filter));
}

/**
 * The filters after clicking a row whose value an `is` filter already takes: without that value
 * (and without the filter when it was its last value).
 */
export function removeValueFilter(filters, dimension, value) {
  return filters.flatMap((filter) => {
    if (filter.op !== 'is' || filter.dimension !== dimension || !filter.values.includes(value)) return [filter];
    const values = filter.values.filter((other) => other !== value);
    return values.length ? [{ ...filter, values }] : [];
  });
}

/** Whether an `is` filter takes this value of the dimension (its row shows as chosen). */
export const takesValue = (filters, dimension, value) =>
  filters.some((filter) => filter.op === 'is' && filter.dimension === dimension && filter.values.includes(value));

/** The filters with the one at index replaced (or appended when index is past the end). */
export function replaceFilter(filters, index, filter) {
  if (filters.some((other, at) => at !== index && sameFilter(other, filter))) return filters.filter((_, at) => at !== index);
  const next = [...filters];
  next[index] = filter;
  return next;
}

export const removeFilter = (filters, index) => filters.filter((_, at) => at !== index);

/**
 * The reports' `filter` argument for these filters when the reports can answer them (none, or
 * one `is` filter with one value on a report dimension), else null: then `query` answers.
 */
export function reportFilterFor(filters) {
  if (filters.length !== 1) return null;
  const [filter] = filters;
  const report = reportDimensionOf(filter.dimension);
  if (filter.op !== 'is' || filter.values.length !== 1 || !report) return null;
  return `${report}:${filter.values[0]}`;
}

/**
 * The referrer domain the view drills into (one `is` filter on visit:referrer with one domain),
 * else null: the Referrers tab then lists that domain's full referrer URLs.
 */
export function referrerDrill(filters) {
  const filter = filters.find((item) => item.dimension === 'visit:referrer' && item.op === 'is');
  return filter && filter.values.length === 1 && filter.values[0] !== '' ? filter.values[0] : null;
}

/** Whether the view must ask `query`: filters the reports' single `filter` cannot express. */
export const needsQuery = (filters) => filters.length > 0 && reportFilterFor(filters) === null;

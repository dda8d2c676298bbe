// The selected period and comparison, read from and written to the URL. Pure functions (no DOM),
// unit-tested in web/dashboard/test/period.test.js. Dates are calendar days "YYYY-MM-DD" in the
// project's reporting timezone: "today" is today there, not in the browser's zone.

export const periodPresets = [
  { value: 'today', label: 'Today' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'mtd', label: 'Month to date' },
  { value: 'last_month', label: 'Last month' },
  { value: '12mo', label: 'Last 12 months' },
  { value: 'custom', label: 'Custom range' },
];

export const comparePresets = [
  { value: 'previous_period', label: 'Previous period' },
  { value: 'previous_week', label: 'Previous week' },
  { value: 'previous_month', label: 'Previous month' },
  { value: 'previous_quarter', label: 'Previous quarter' },
  { value: 'previous_year', label: 'Previous year' },
  { value: 'custom', label: 'Custom range' },
  { value: 'off', label: 'No comparison' },
];

export const defaultPeriod = '30d';
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** Whether s is a real calendar day ("2026-02-30" is not). */
export function isDay(value) {
  if (typeof value !== 'string' || !isoDay.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Today's date in a timezone (IANA name), as YYYY-MM-DD. */
export function todayIn(timeZone, now = new Date()) {
  let parts;
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: timeZone || 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  }
  const part = (type) => parts.find((item) => item.type === type).value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const toDate = (day) => new Date(`${day}T00:00:00Z`);
const toDay = (date) => date.toISOString().slice(0, 10);

/** day plus n days (n may be negative). */
export function addDays(day, n) {
  const date = toDate(day);
  date.setUTCDate(date.getUTCDate() + n);
  return toDay(date);
}

/** The first day of day's month moved by n months. */
export function monthStart(day, n = 0) {
  const date = toDate(day);
  return toDay(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + n, 1)));
}

/** Days from 'from' to 'to', both included. */
export function dayCount(from, to) {
  return Math.round((toDate(to) - toDate(from)) / 86_400_000) + 1;
}

/** A preset's from/to, given today in the reporting timezone. */
export function presetRange(preset, today) {
  switch (preset) {
    case 'today': return { from: today, to: today };
    case 'yesterday': return { from: addDays(today, -1), to: addDays(today, -1) };
    case '7d': return { from: addDays(today, -6), to: today };
    case 'mtd': return { from: monthStart(today), to: today };
    case 'last_month': return { from: monthStart(today, -1), to: addDays(monthStart(today), -1) };
    case '12mo': return { from: monthStart(today, -11), to: today };
    case '30d':
    default: return { from: addDays(today, -29), to: today };
  }
}

/**
 * The period a URL asks for: { period, from, to, custom }. A custom period needs valid from/to
 * (swapped when reversed); anything else falls back to the default preset.
 */
export function resolvePeriod(query, timeZone, now = new Date()) {
  const today = todayIn(timeZone, now);
  const wanted = query.period ?? (query.from || query.to ? 'custom' : defaultPeriod);
  if (wanted === 'custom' && isDay(query.from) && isDay(query.to)) {
    const [from, to] = query.from <= query.to ? [query.from, query.to] : [query.to, query.from];
    return { period: 'custom', from, to };
  }
  const period = periodPresets.some((preset) => preset.value === wanted && wanted !== 'custom') ? wanted : defaultPeriod;
  return { period, ...presetRange(period, today) };
}

/** How the compared window is named beside a figure: "previous week", "comparison range". */
export function comparisonName(mode) {
  if (mode === 'custom') return 'comparison range';
  return (comparePresets.find((preset) => preset.value === mode) ?? comparePresets[0]).label.toLowerCase();
}

/** The comparison a URL asks for: { mode, compareFrom, compareTo }; default previous_period. */
export function resolveComparison(query) {
  const mode = query.compare ?? 'previous_period';
  if (mode === 'off') return { mode: 'off' };
  if (mode === 'custom') {
    if (isDay(query.compareFrom) && isDay(query.compareTo) && query.compareFrom <= query.compareTo) {
      return { mode: 'custom', compareFrom: query.compareFrom, compareTo: query.compareTo };
    }
    return { mode: 'custom', incomplete: true };
  }
  return { mode: comparePresets.some((preset) => preset.value === mode) ? mode : 'previous_period' };
}

/**
 * The query parameters of a report request for this URL: projectId, from, to and the
 * comparison. "off" still lets the server compare with its default (the API always does when
 * it can); the page just does not show it.
 */
export function reportParams(projectId, query, timeZone, now = new Date()) {
  const { from, to } = resolvePeriod(query, timeZone, now);
  const comparison = resolveComparison(query);
  const params = { projectId, from, to };
  if (comparison.mode === 'custom' && !comparison.incomplete) {
    params.compareFrom = comparison.compareFrom;
    params.compareTo = comparison.compareTo;
  } else if (comparison.mode === 'previous_period' && dayCount(from, to) > 365) {
    // Asked for explicitly, a previous period out of reach (over a year back) is a 400; left to
    // the server's default, the report comes back without a comparison (comparisonWindow null).
  } else if (comparison.mode !== 'off' && comparison.mode !== 'custom') {
    params.comparePreset = comparison.mode;
  }
  return params;
}

/** The bucket size for a range: hours for one day, days up to a quarter, then weeks, then months. */
export function intervalFor(from, to) {
  const days = dayCount(from, to);
  if (days <= 1) return 'hour';
  if (days <= 92) return 'day';
  if (days <= 200) return 'week';
  return 'month';
}

/** The URL patch for choosing a period preset (custom keeps from/to so the inputs show them). */
export function periodPatch(period, current) {
  if (period === 'custom') return { period: 'custom', from: current.from, to: current.to };
  return { period, from: null, to: null };
}

/** The URL patch for choosing a comparison mode. */
export function comparePatch(mode, current = {}) {
  if (mode === 'custom') return { compare: 'custom', compareFrom: current.compareFrom ?? null, compareTo: current.compareTo ?? null };
  return { compare: mode, compareFrom: null, compareTo: null };
}

/** A string that changes whenever the data a view shows changes (for performance marks). */
export function viewKey(params) {
  return JSON.stringify(Object.keys(params).sort().map((key) => [key, params[key]]));
}

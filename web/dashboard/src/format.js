// Numbers, percentages, durations and dates in the browser's locale (Intl). Formatters are
// cached: constructing Intl objects is far slower than using them.
const cache = new Map();
function formatter(kind, options) {
  const key = kind + JSON.stringify(options);
  let value = cache.get(key);
  if (!value) {
    value = kind === 'number' ? new Intl.NumberFormat(undefined, options)
      : kind === 'date' ? new Intl.DateTimeFormat(undefined, options)
        : new Intl.RelativeTimeFormat(undefined, options);
    cache.set(key, value);
  }
  return value;
}

const dash = '—';
const isMissing = (value) => value === null || value === undefined || Number.isNaN(value);

/** 12345 → "12,345"; {compact: true} → "12K". */
export function formatNumber(n, { compact = false, maximumFractionDigits } = {}) {
  if (isMissing(n)) return dash;
  const options = compact && Math.abs(n) >= 10_000
    ? { notation: 'compact', maximumFractionDigits: 1 }
    : { maximumFractionDigits: maximumFractionDigits ?? (Number.isInteger(n) ? 0 : 2) };
  return formatter('number', options).format(n);
}

/** 0.4567 → "45.7%" (a fraction of one). */
export function formatPercent(fraction, { maximumFractionDigits = 1 } = {}) {
  if (isMissing(fraction)) return dash;
  return formatter('number', { style: 'percent', maximumFractionDigits }).format(fraction);
}

/** 83_000 → "1m 23s"; below a second "850 ms"; hours "2h 5m". */
export function formatDuration(ms) {
  if (isMissing(ms)) return dash;
  const unit = (value, name) => formatter('number', { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);
  if (Math.abs(ms) < 1000) return unit(Math.round(ms), 'millisecond');
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours) return `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
  if (minutes) return `${unit(minutes, 'minute')} ${unit(seconds, 'second')}`;
  return unit(seconds, 'second');
}

/**
 * A date or date-time. opts are Intl.DateTimeFormat options (timeZone: the project's reporting
 * timezone where it matters); the default shows date and time. A bare "YYYY-MM-DD" is a calendar
 * day and is shown as that day whatever the timezone.
 */
export function formatDate(isoOrDate, opts) {
  if (isoOrDate === null || isoOrDate === undefined || isoOrDate === '') return dash;
  let date = isoOrDate;
  let options = opts ?? { dateStyle: 'medium', timeStyle: 'short' };
  if (typeof isoOrDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(isoOrDate)) {
    date = new Date(`${isoOrDate}T12:00:00Z`);
    options = { ...(opts ?? { dateStyle: 'medium' }), timeZone: 'UTC' };
  } else if (!(isoOrDate instanceof Date)) {
    date = new Date(isoOrDate);
  }
  if (Number.isNaN(date.getTime())) return String(isoOrDate);
  return formatter('date', options).format(date);
}

/** "3 minutes ago" for a date-time. */
export function formatRelative(isoOrDate) {
  if (!isoOrDate) return dash;
  const seconds = (new Date(isoOrDate).getTime() - Date.now()) / 1000;
  const units = [['year', 31_536_000], ['month', 2_592_000], ['day', 86_400], ['hour', 3600], ['minute', 60], ['second', 1]];
  for (const [name, size] of units) {
    if (Math.abs(seconds) >= size || name === 'second') {
      return formatter('relative', { numeric: 'auto' }).format(Math.round(seconds / size), name);
    }
  }
  return dash;
}

/** A percentage change as the API gives it (12.5 means +12.5%) → "+12.5%"; null → "—". */
export function formatChange(pct, { maximumFractionDigits = 1 } = {}) {
  if (isMissing(pct)) return dash;
  return formatter('number', { style: 'percent', maximumFractionDigits, signDisplay: 'exceptZero' }).format(pct / 100);
}

/** A difference in percentage points (bounce rate's change): 2.5 → "+2.5 pp". */
export function formatPoints(points) {
  if (isMissing(points)) return dash;
  return `${formatter('number', { maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(points)} pp`;
}

/** Bytes in B/kB/MB ("18 B", "1.2 MB"; Intl's short unit for a byte is "byte"). */
export function formatBytes(bytes) {
  if (isMissing(bytes)) return dash;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let index = 0;
  while (Math.abs(value) >= 1000 && index < units.length - 1) { value /= 1000; index += 1; }
  return `${formatter('number', { maximumFractionDigits: index === 0 ? 0 : 1 }).format(value)} ${units[index]}`;
}

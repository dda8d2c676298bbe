// Where "now" falls among a timeline's buckets: a bucket is complete, partial (now is inside it:
// its figures are still growing) or future (nothing can have happened yet). A timeline draws a
// partial bucket dashed and marked incomplete, and no future bucket at all, so a day in progress
// never looks like a collapse to zero. Pure (no DOM), unit-tested in test/periods.test.js.

/** The local date ("2026-11-29") of an instant in a time zone (the browser's without one). */
export function localDate(ms, timeZone) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(ms));
  const get = (type) => parts.find((part) => part.type === type).value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The date `count` days or months after an ISO date, as an ISO date. */
function addToDate(date, { days = 0, months = 0 }) {
  const [year, month, day] = date.split('-').map(Number);
  const next = new Date(Date.UTC(year, month - 1 + months, months ? 1 : day + days));
  return next.toISOString().slice(0, 10);
}

const hourMs = 3_600_000;

/**
 * The state of each bucket ('complete' | 'partial' | 'future') at `now`. Buckets are the
 * reports' local starts with their offset, or `query`'s labels (dates, or hours with offsets).
 * Hours compare as instants; days, weeks and months as local dates of `timeZone`, the
 * project's reporting timezone. A bucket ends where the next starts; the last one after its
 * interval.
 */
export function bucketStates(buckets, interval, { now = Date.now(), timeZone } = {}) {
  if (interval === 'hour') {
    return buckets.map((bucket, index) => {
      const start = Date.parse(bucket);
      const end = index + 1 < buckets.length ? Date.parse(buckets[index + 1]) : start + hourMs;
      if (!(now >= start)) return 'future';
      return now >= end ? 'complete' : 'partial';
    });
  }
  const today = localDate(now, timeZone);
  const step = interval === 'month' ? { months: 1 } : { days: interval === 'week' ? 7 : 1 };
  return buckets.map((bucket, index) => {
    const start = bucket.slice(0, 10);
    const end = index + 1 < buckets.length ? buckets[index + 1].slice(0, 10) : addToDate(start, step);
    if (today < start) return 'future';
    return today >= end ? 'complete' : 'partial';
  });
}

/**
 * A line's data split for drawing: `complete` has the complete buckets' values (null
 * elsewhere); `partial` the partial bucket's and the complete one before it, so the dashed piece
 * continues the line (null elsewhere; all null without a partial bucket).
 */
export function splitAtNow(data, states) {
  const partialAt = states.indexOf('partial');
  const complete = data.map((value, index) => (states[index] === 'complete' ? value : null));
  const partial = data.map((value, index) => (partialAt >= 0 && (index === partialAt || (index === partialAt - 1 && states[index] === 'complete')) ? value : null));
  return { complete, partial, hasPartial: partialAt >= 0 };
}

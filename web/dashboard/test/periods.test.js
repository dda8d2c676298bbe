// Where "now" falls among a timeline's buckets (src/charts/periods.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketStates, localDate, splitAtNow } from '../src/charts/periods.js';

test('today by hour: past hours complete, the current one partial, later ones future', () => {
  const buckets = ['2026-11-29T00:00:00+01:00', '2026-11-29T01:00:00+01:00', '2026-11-29T02:00:00+01:00', '2026-11-29T03:00:00+01:00'];
  const now = Date.parse('2026-11-29T01:30:00+01:00');
  assert.deepEqual(bucketStates(buckets, 'hour', { now }), ['complete', 'partial', 'future', 'future']);
  // The last bucket ends an hour after it starts.
  assert.deepEqual(bucketStates(buckets, 'hour', { now: Date.parse('2026-11-29T03:59:59+01:00') }).at(-1), 'partial');
  assert.deepEqual(bucketStates(buckets, 'hour', { now: Date.parse('2026-11-29T04:00:00+01:00') }).at(-1), 'complete');
});

test('days, weeks and months compare as local dates of the reporting timezone', () => {
  const days = ['2026-11-27T00:00:00-05:00', '2026-11-28T00:00:00-05:00', '2026-11-29T00:00:00-05:00'];
  // 02:00 UTC on the 29th is still the 28th in New York.
  const now = Date.parse('2026-11-29T02:00:00Z');
  assert.equal(localDate(now, 'America/New_York'), '2026-11-28');
  assert.deepEqual(bucketStates(days, 'day', { now, timeZone: 'America/New_York' }), ['complete', 'partial', 'future']);
  assert.deepEqual(bucketStates(['2026-11-27', '2026-11-28', '2026-11-29'], 'day', { now, timeZone: 'Asia/Tokyo' }), ['complete', 'complete', 'partial']);
  assert.deepEqual(bucketStates(['2026-10-01', '2026-11-01'], 'month', { now, timeZone: 'UTC' }), ['complete', 'partial']);
  assert.deepEqual(bucketStates(['2026-11-01'], 'month', { now: Date.parse('2026-12-01T00:00:00Z'), timeZone: 'UTC' }), ['complete']);
  assert.deepEqual(bucketStates(['2026-11-16', '2026-11-23'], 'week', { now, timeZone: 'UTC' }), ['complete', 'partial']);
  // A window wholly in the past has no partial bucket.
  assert.deepEqual(bucketStates(['2026-11-01', '2026-11-02'], 'day', { now, timeZone: 'UTC' }), ['complete', 'complete']);
});

test('a line splits into its complete part and a dashed piece into the partial bucket', () => {
  const { complete, partial, hasPartial } = splitAtNow([4, 7, 2, 0, 0], ['complete', 'complete', 'partial', 'future', 'future']);
  assert.equal(hasPartial, true);
  assert.deepEqual(complete, [4, 7, null, null, null]);
  assert.deepEqual(partial, [null, 7, 2, null, null]);
  const first = splitAtNow([3, 0], ['partial', 'future']);
  assert.deepEqual(first.partial, [3, null]);
  assert.equal(splitAtNow([1, 2], ['complete', 'complete']).hasPartial, false);
});

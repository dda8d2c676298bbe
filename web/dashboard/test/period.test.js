// The period and comparison rules of the report pages (src/reports/period.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDays, comparePatch, dayCount, intervalFor, isDay, monthStart, periodPatch, presetRange,
  reportParams, resolveComparison, resolvePeriod, todayIn } from '../src/reports/period.js';

test('today is the reporting timezone\'s date, not the browser\'s', () => {
  const instant = new Date('2026-11-23T23:30:00Z');
  assert.equal(todayIn('UTC', instant), '2026-11-23');
  assert.equal(todayIn('Asia/Kolkata', instant), '2026-11-24'); // +05:30
  assert.equal(todayIn('America/Los_Angeles', instant), '2026-11-23');
  assert.equal(todayIn('Pacific/Kiritimati', new Date('2026-11-23T10:30:00Z')), '2026-11-24'); // +14
  assert.equal(todayIn('Not/AZone', instant), '2026-11-23'); // falls back to UTC
});

test('calendar arithmetic crosses months, years and leap days', () => {
  assert.equal(addDays('2024-03-01', -1), '2024-02-29');
  assert.equal(addDays('2025-12-31', 1), '2026-01-01');
  assert.equal(monthStart('2026-01-15', -1), '2025-12-01');
  assert.equal(dayCount('2024-02-01', '2024-02-29'), 29);
  assert.ok(isDay('2024-02-29'));
  assert.ok(!isDay('2026-02-30'));
  assert.ok(!isDay('2026-2-3'));
});

test('presets', () => {
  const today = '2026-03-10';
  assert.deepEqual(presetRange('today', today), { from: today, to: today });
  assert.deepEqual(presetRange('yesterday', today), { from: '2026-03-09', to: '2026-03-09' });
  assert.deepEqual(presetRange('7d', today), { from: '2026-03-04', to: today });
  assert.deepEqual(presetRange('30d', today), { from: '2026-02-09', to: today });
  assert.deepEqual(presetRange('mtd', today), { from: '2026-03-01', to: today });
  assert.deepEqual(presetRange('last_month', today), { from: '2026-02-01', to: '2026-02-28' });
  assert.deepEqual(presetRange('last_month', '2024-03-31'), { from: '2024-02-01', to: '2024-02-29' });
  assert.deepEqual(presetRange('12mo', today), { from: '2025-04-01', to: today });
  assert.deepEqual(presetRange('last_month', '2026-01-05'), { from: '2025-12-01', to: '2025-12-31' });
});

test('the URL resolves to a period; invalid custom ranges fall back to 30 days', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  assert.deepEqual(resolvePeriod({}, 'UTC', now), { period: '30d', from: '2026-02-09', to: '2026-03-10' });
  assert.deepEqual(resolvePeriod({ period: 'custom', from: '2026-01-05', to: '2026-01-01' }, 'UTC', now),
    { period: 'custom', from: '2026-01-01', to: '2026-01-05' });
  assert.deepEqual(resolvePeriod({ from: '2026-01-01', to: '2026-01-31' }, 'UTC', now), { period: 'custom', from: '2026-01-01', to: '2026-01-31' });
  assert.equal(resolvePeriod({ period: 'custom', from: '2026-02-30', to: '2026-03-01' }, 'UTC', now).period, '30d');
  assert.equal(resolvePeriod({ period: 'bogus' }, 'UTC', now).period, '30d');
});

test('comparison modes become API parameters', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  assert.deepEqual(reportParams('p1', { period: '7d' }, 'UTC', now), { projectId: 'p1', from: '2026-03-04', to: '2026-03-10', comparePreset: 'previous_period' });
  assert.equal(reportParams('p1', { compare: 'previous_year' }, 'UTC', now).comparePreset, 'previous_year');
  assert.deepEqual(reportParams('p1', { period: 'today', compare: 'custom', compareFrom: '2026-03-01', compareTo: '2026-03-01' }, 'UTC', now),
    { projectId: 'p1', from: '2026-03-10', to: '2026-03-10', compareFrom: '2026-03-01', compareTo: '2026-03-01' });
  assert.deepEqual(reportParams('p1', { period: 'today', compare: 'off' }, 'UTC', now), { projectId: 'p1', from: '2026-03-10', to: '2026-03-10' });
  assert.deepEqual(resolveComparison({ compare: 'custom', compareFrom: '2026-03-05', compareTo: '2026-03-01' }), { mode: 'custom', incomplete: true });
  assert.deepEqual(resolveComparison({ compare: 'nonsense' }), { mode: 'previous_period' });
});

test('URL patches', () => {
  assert.deepEqual(periodPatch('7d', { from: 'a', to: 'b' }), { period: '7d', from: null, to: null });
  assert.deepEqual(periodPatch('custom', { from: '2026-01-01', to: '2026-01-02' }), { period: 'custom', from: '2026-01-01', to: '2026-01-02' });
  assert.deepEqual(comparePatch('off'), { compare: 'off', compareFrom: null, compareTo: null });
  assert.deepEqual(comparePatch('custom', { compareFrom: '2026-01-01' }), { compare: 'custom', compareFrom: '2026-01-01', compareTo: null });
});

test('bucket sizes', () => {
  assert.equal(intervalFor('2026-03-10', '2026-03-10'), 'hour');
  assert.equal(intervalFor('2026-03-01', '2026-03-10'), 'day');
  assert.equal(intervalFor('2026-01-01', '2026-05-01'), 'week');
  assert.equal(intervalFor('2025-04-01', '2026-03-10'), 'month');
});

// The data cache's keys (src/cache-key.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheKey } from '../src/cache-key.js';

test('the order params are written in does not matter, at any depth', () => {
  assert.equal(cacheKey('get_web_summary', { projectId: 'p', orgSlug: 'o' }),
    cacheKey('get_web_summary', { orgSlug: 'o', projectId: 'p' }));
  assert.equal(cacheKey('q', { filter: { a: 1, b: [{ y: 2, x: 1 }] } }),
    cacheKey('q', { filter: { b: [{ x: 1, y: 2 }], a: 1 } }));
});

test('params that differ anywhere give different keys', () => {
  assert.notEqual(cacheKey('q', { filter: { page: '/a' } }), cacheKey('q', { filter: { page: '/b' } }));
  assert.notEqual(cacheKey('q', { list: [1, 2] }), cacheKey('q', { list: [2, 1] }));
  assert.notEqual(cacheKey('q', {}), cacheKey('r', {}));
  assert.equal(cacheKey('q'), cacheKey('q', {}));
});

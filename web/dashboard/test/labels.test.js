// The one vocabulary of the API's snake-case values (src/labels.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { categoryLabel } from '../src/labels.js';

test('every crawler category of the spec has its label, and an unknown one reads as words', () => {
  const spec = ['ai_training', 'ai_search', 'ai_user_fetch', 'search_engine', 'social_preview', 'seo', 'monitoring',
    'security_scanner', 'archiver', 'feed_fetcher', 'automation'];
  for (const category of spec) assert.doesNotMatch(categoryLabel(category), /_|^[a-z]/, category);
  assert.equal(categoryLabel('ai_user_fetch'), 'AI user fetch');
  assert.equal(categoryLabel('new_kind'), 'New kind');
  assert.equal(categoryLabel(null), null);
});

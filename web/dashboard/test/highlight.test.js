// The AI-visibility answer view's highlighting (src/ai-visibility/highlight.js): the server's
// offsets are UTF-16 indexes; every other occurrence of a name or alias is found at word
// boundaries, in any case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { highlight } from '../src/ai-visibility/highlight.js';

const brands = new Map([
  ['acme', { id: 'acme', name: 'Acme Analytics', aliases: ['Acme'] }],
  ['plausible', { id: 'plausible', name: 'Plausible', aliases: [] }],
]);
const marks = (parts) => parts.filter((part) => part.brandId).map((part) => [part.text, part.brandId, Boolean(part.first)]);

test('the first mention is marked at the server\'s UTF-16 offset, after an emoji too', () => {
  const answer = '🚀 Für Teams: ACME Analytics, then Plausible.';
  const parts = highlight(answer, [{ brandId: 'acme', offset: answer.indexOf('ACME') }, { brandId: 'plausible', offset: answer.indexOf('Plausible') }], brands);
  assert.equal(parts.map((part) => part.text).join(''), answer);
  assert.deepEqual(marks(parts), [['ACME Analytics', 'acme', true], ['Plausible', 'plausible', true]]);
});

test('other occurrences of a name or alias are marked at word boundaries only', () => {
  const answer = 'Acme Analytics is good. acme again, but not Acmeish or AcmeCorp.';
  const parts = highlight(answer, [{ brandId: 'acme', offset: 0 }], brands);
  assert.deepEqual(marks(parts), [['Acme Analytics', 'acme', true], ['acme', 'acme', false]]);
  assert.equal(parts.map((part) => part.text).join(''), answer);
});

test('a brand unknown to the page still gets its word at the offset; no mention, no mark', () => {
  const answer = 'Try Fathom today.';
  assert.deepEqual(marks(highlight(answer, [{ brandId: 'fathom', offset: 4 }], brands)), [['Fathom', 'fathom', true]]);
  assert.deepEqual(highlight(answer, [], brands), [{ text: answer }]);
});

test('a name inside a link is not marked, and no more marks than the server counted', () => {
  const answer = 'Acme Analytics first. See https://acme.example/pricing or www.acme.example. Acme, Acme.';
  const parts = highlight(answer, [{ brandId: 'acme', offset: 0, occurrences: 2 }], brands);
  assert.deepEqual(marks(parts), [['Acme Analytics', 'acme', true], ['Acme', 'acme', false]]);
  assert.equal(parts.map((part) => part.text).join(''), answer);
});

// ISO alpha-2 → the world atlas's numeric ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { numericCountryCode } from '../src/charts/country-codes.js';

test('every country of the atlas with an id has an alpha-2 code that maps to it', () => {
  assert.equal(numericCountryCode('FR'), '250');
  assert.equal(numericCountryCode('us'), '840');
  assert.equal(numericCountryCode('XX'), undefined);
  const atlas = JSON.parse(readFileSync(new URL('../node_modules/world-atlas/countries-110m.json', import.meta.url), 'utf8'));
  const ids = new Set(atlas.objects.countries.geometries.map((country) => country.id).filter(Boolean));
  const mapped = new Set();
  for (let first = 65; first <= 90; first += 1) {
    for (let second = 65; second <= 90; second += 1) {
      const numeric = numericCountryCode(String.fromCharCode(first, second));
      if (numeric) mapped.add(numeric);
    }
  }
  const missing = [...ids].filter((id) => !mapped.has(id));
  assert.deepEqual(missing, []);
});

// A choropleth world map of a per-country figure. Loaded by dynamic import only when shown: it
// brings d3-geo, topojson-client and the Natural Earth 1:110m atlas (world-atlas). In the
// dashboard the atlas JSON is a hashed file under /assets (esbuild's file loader gives its URL);
// in the MCP App it is inlined (json loader gives the object). Both are handled.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { geoEqualEarth, geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import atlasSource from 'world-atlas/countries-110m.json';
import { html } from '../ui/html.js';
import { formatNumber } from '../format.js';
import { numericCountryCode } from './country-codes.js';

const width = 960;
const height = 470;
let countriesPromise = null;

function loadCountries() {
  countriesPromise ??= (typeof atlasSource === 'string'
    ? fetch(atlasSource).then((response) => {
      if (!response.ok) throw new Error(`atlas: HTTP ${response.status}`);
      return response.json();
    })
    : Promise.resolve(atlasSource)
  ).then((topology) => feature(topology, topology.objects.countries).features
    .filter((country) => country.properties?.name !== 'Antarctica'));
  return countriesPromise;
}

let regionNames = null;
function nameOf(alpha2, fallback) {
  try {
    regionNames ??= new Intl.DisplayNames(undefined, { type: 'region' });
    return regionNames.of(alpha2) ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * rows: [{ country: 'FR', value }]; label: the map's accessible name; format: value formatter;
 * onSelect(alpha2): a click on a country with data (the list beside the map is the keyboard
 * path to the same action).
 */
export function WorldMap({ rows, label, format = formatNumber, onSelect }) {
  const [countries, setCountries] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => { loadCountries().then(setCountries, setError); }, []);

  const byNumeric = useMemo(() => {
    const map = new Map();
    for (const row of rows) {
      const numeric = numericCountryCode(row.country);
      if (numeric) map.set(numeric, row);
    }
    return map;
  }, [rows]);
  const max = rows.reduce((top, row) => Math.max(top, row.value ?? 0), 0) || 1;

  const paths = useMemo(() => {
    if (!countries) return [];
    const projection = geoEqualEarth().fitSize([width, height], { type: 'FeatureCollection', features: countries });
    const path = geoPath(projection);
    return countries.map((country) => ({ id: String(country.id ?? ''), name: country.properties?.name ?? '', d: path(country) }));
  }, [countries]);

  if (error) return html`<p class="muted">The map could not be loaded.</p>`;
  if (!countries) return html`<p class="loading" role="status">Loading the map…</p>`;
  return html`<figure class="world-map">
    <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${label}>
      ${paths.map((country) => {
        const row = byNumeric.get(country.id.padStart(3, '0'));
        if (!row) return html`<path key=${country.id || country.name} class="no-data" d=${country.d}><title>${country.name}</title></path>`;
        const share = Math.round(15 + 85 * ((row.value ?? 0) / max));
        return html`<path key=${country.id} d=${country.d} data-country=${row.country}
          style=${{ fill: `color-mix(in srgb, var(--chart-1) ${share}%, var(--surface-2))`, cursor: onSelect ? 'pointer' : 'default' }}
          onClick=${onSelect ? () => onSelect(row.country) : undefined}>
          <title>${nameOf(row.country, country.name)}: ${format(row.value)}</title></path>`;
      })}
    </svg>
    <figcaption class="map-legend" aria-hidden="true">
      <span>${format(0)}</span><span class="scale map-scale"></span><span>${format(max)}</span>
    </figcaption>
  </figure>`;
}

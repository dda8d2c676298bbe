// A change between two periods, shown as "+12.5%" (or "+2.1 pp" for rates) with an arrow and a
// colour, and read by screen readers as a sentence ("up 12.5% from 1,204").
import { html } from '../ui/html.js';
import { formatChange, formatPoints } from '../format.js';

/**
 * Whether a change is good, bad or neither. inverse: a metric where lower is better (bounce
 * rate), so a rise is bad.
 */
export function changeTone(value, { inverse = false } = {}) {
  if (value === null || value === undefined || Number.isNaN(value) || value === 0) return 'neutral';
  const up = value > 0;
  return up !== inverse ? 'positive' : 'negative';
}

/** The words for a change: "up 12.5% from 1,204", "no change", "no previous data". */
export function describeChange(value, { points = false, previousText } = {}) {
  if (value === null || value === undefined || Number.isNaN(value)) {
    return previousText ? `no comparable change (previous ${previousText})` : 'no comparable change';
  }
  const magnitude = points ? formatPoints(Math.abs(value)) : formatChange(Math.abs(value)).replace(/^\+/, '');
  const from = previousText ? ` from ${previousText}` : '';
  if (value === 0) return `no change${from}`;
  return `${value > 0 ? 'up' : 'down'} ${magnitude}${from}`;
}

/**
 * props: value (API percentage, or percentage points when points=true), inverse, previousText
 * (the formatted previous figure, for the accessible label).
 */
export function Change({ value, points = false, inverse = false, previousText }) {
  const tone = changeTone(value, { inverse });
  const missing = value === null || value === undefined || Number.isNaN(value);
  const text = missing ? '—' : points ? formatPoints(value) : formatChange(value);
  const arrow = missing || value === 0 ? '' : value > 0 ? '▲' : '▼';
  // aria-label is not allowed on a plain span: the sentence is visually hidden text instead.
  return html`<span class=${`change change-${tone}`}>
    ${arrow && html`<span class="change-arrow" aria-hidden="true">${arrow}</span>`}<span aria-hidden="true">${text}</span>
    <span class="visually-hidden">${describeChange(value, { points, previousText })}</span>
  </span>`;
}

// The period and comparison controls of the report pages. Everything lives in the URL
// (period, from, to, compare, compareFrom, compareTo), so a view can be shared and reloaded.
import { html } from '../ui/html.js';
import { formatDate } from '../format.js';
import { comparePatch, comparePresets, periodPatch, periodPresets } from './period.js';

/** The last local day a UTC window covers ('to' is exclusive), formatted in the timezone. */
export function describeWindow(window, timeZone) {
  if (!window) return '';
  const options = { timeZone: timeZone || 'UTC', dateStyle: 'medium' };
  const first = formatDate(window.from, options);
  const last = formatDate(new Date(Date.parse(window.to) - 1), options);
  return first === last ? first : `${first} – ${last}`;
}

/**
 * props: range {period, from, to}, comparison {mode, compareFrom, compareTo}, setQuery,
 * comparisonWindow (the server's, to say what the figures are compared with), timeZone.
 */
export function PeriodPicker({ range, comparison, setQuery, comparisonWindow, timeZone }) {
  const setRange = (patch) => setQuery({ period: 'custom', from: range.from, to: range.to, ...patch });
  const setCompareRange = (patch) => setQuery({
    compare: 'custom', compareFrom: comparison.compareFrom ?? range.from, compareTo: comparison.compareTo ?? range.to, ...patch,
  });
  return html`<form class="period-picker" aria-label="Report period" onSubmit=${(event) => event.preventDefault()}>
    <div class="field">
      <label for="period-select">Period</label>
      <select id="period-select" value=${range.period} onChange=${(event) => setQuery(periodPatch(event.currentTarget.value, range))}>
        ${periodPresets.map((preset) => html`<option value=${preset.value} selected=${preset.value === range.period}>${preset.label}</option>`)}
      </select>
    </div>
    ${range.period === 'custom' && html`
      <div class="field"><label for="period-from">From</label>
        <input id="period-from" type="date" value=${range.from} max=${range.to} required
          onChange=${(event) => event.currentTarget.value && setRange({ from: event.currentTarget.value })} /></div>
      <div class="field"><label for="period-to">To</label>
        <input id="period-to" type="date" value=${range.to} min=${range.from} required
          onChange=${(event) => event.currentTarget.value && setRange({ to: event.currentTarget.value })} /></div>`}
    <div class="field">
      <label for="compare-select">Compare with</label>
      <select id="compare-select" value=${comparison.mode} onChange=${(event) => setQuery(comparePatch(event.currentTarget.value, comparison))}>
        ${comparePresets.map((preset) => html`<option value=${preset.value} selected=${preset.value === comparison.mode}>${preset.label}</option>`)}
      </select>
    </div>
    ${comparison.mode === 'custom' && html`
      <div class="field"><label for="compare-from">Compare from</label>
        <input id="compare-from" type="date" value=${comparison.compareFrom ?? ''} required
          onChange=${(event) => event.currentTarget.value && setCompareRange({ compareFrom: event.currentTarget.value })} /></div>
      <div class="field"><label for="compare-to">Compare to</label>
        <input id="compare-to" type="date" value=${comparison.compareTo ?? ''} required
          onChange=${(event) => event.currentTarget.value && setCompareRange({ compareTo: event.currentTarget.value })} /></div>`}
    <p class="period-summary muted" aria-live="polite">
      <span data-period-range>${range.from === range.to ? formatDate(range.from) : `${formatDate(range.from)} – ${formatDate(range.to)}`}</span>
      ${comparison.mode !== 'off' && comparisonWindow && html` · compared with <span data-compare-range>${describeWindow(comparisonWindow, timeZone)}</span>`}
      ${comparison.mode !== 'off' && !comparisonWindow && html` · no comparison available for this period`}
    </p>
  </form>`;
}

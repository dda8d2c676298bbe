// The headline figures of a report: one card per metric with its value, the previous period's
// value and the change. A card can be a toggle that picks the metric the timeline shows.
import { html } from '../ui/html.js';
import { Change } from './change.js';

/**
 * metrics: [{ key, label, value, previous, change, format(v), points (change in percentage
 * points), inverse (lower is better) }]. showComparison hides the previous figures when off.
 * selected/onSelect: the card whose metric the chart shows (aria-pressed buttons).
 */
export function MetricCards({ metrics, showComparison = true, selected, onSelect, label = 'Summary' }) {
  return html`<ul class="metric-cards" aria-label=${label}>
    ${metrics.map((metric) => html`<li key=${metric.key}>
      <${MetricCard} metric=${metric} showComparison=${showComparison}
        pressed=${onSelect ? selected === metric.key : undefined} onSelect=${onSelect} />
    </li>`)}
  </ul>`;
}

function MetricCard({ metric, showComparison, pressed, onSelect }) {
  const format = metric.format ?? String;
  const previousText = metric.previous === null || metric.previous === undefined ? '—' : format(metric.previous);
  const body = html`
    <span class="metric-label">${metric.label}</span>
    <span class="metric-value" data-metric=${metric.key}>${metric.value === null || metric.value === undefined ? '—' : format(metric.value)}</span>
    ${showComparison && html`<span class="metric-compare">
      <${Change} value=${metric.change} points=${metric.points} inverse=${metric.inverse} previousText=${previousText} />
      <span class="metric-previous muted">Previous: <span data-previous=${metric.key}>${previousText}</span></span>
    </span>`}`;
  if (!onSelect) return html`<div class="metric-card">${body}</div>`;
  return html`<button type="button" class="metric-card metric-card-button" aria-pressed=${pressed ? 'true' : 'false'}
    onClick=${() => onSelect(metric.key)}>${body}</button>`;
}

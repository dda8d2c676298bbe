// A ranked list as a table: each row's name over a bar proportional to its value, the value,
// and with a comparison the previous period's value and the change. Rows can be activated
// (a button in the name cell, so keyboard users get it too) to drill into that value.
import { html } from '../ui/html.js';
import { formatNumber } from '../format.js';
import { Change } from './change.js';

/**
 * props:
 *  caption       the table's accessible name (also its visible heading when showCaption)
 *  nameLabel     header of the name column ("Page", "Country"…)
 *  valueLabel    header of the value column ("Visitors", "Requests"…)
 *  rows          [{ key, name, value, previous, change, extra: {columnKey: text} }]
 *  extraColumns  [{ key, label }] more numeric columns after the value (rendered from row.extra)
 *  format        formats value and previous (default formatNumber)
 *  showComparison, inverse (lower is better), points (change in percentage points)
 *  onSelect(row) makes the names buttons; selectedKey marks the active one (aria-pressed)
 *  renderName(row) the text (or node) for a name; default row.name, or "(none)" for null
 */
export function BarList({ caption, showCaption = false, nameLabel = 'Name', valueLabel = 'Value', rows, extraColumns = [],
  format = formatNumber, showComparison = true, inverse = false, points = false, onSelect, selectedKey,
  renderName, empty = 'No data for this period.' }) {
  const max = rows.reduce((top, row) => Math.max(top, row.value ?? 0), 0) || 1;
  const columnCount = 2 + extraColumns.length + (showComparison ? 2 : 0);
  const nameOf = (row) => (renderName ? renderName(row) : row.name ?? html`<span class="muted">(none)</span>`);
  return html`<div class="table-wrap bar-list" role="region" aria-label=${caption} tabindex="0">
    <table>
      <caption class=${showCaption ? '' : 'visually-hidden'}>${caption}</caption>
      <thead><tr>
        <th scope="col">${nameLabel}</th>
        <th scope="col" class="num">${valueLabel}</th>
        ${extraColumns.map((column) => html`<th scope="col" class="num">${column.label}</th>`)}
        ${showComparison && html`<th scope="col" class="num">Previous</th><th scope="col" class="num">Change</th>`}
      </tr></thead>
      <tbody>
        ${rows.length === 0 && html`<tr><td colspan=${columnCount} class="empty">${empty}</td></tr>`}
        ${rows.map((row) => {
          const share = Math.max(0, Math.min(100, ((row.value ?? 0) / max) * 100));
          const previousText = row.previous === null || row.previous === undefined ? '—' : format(row.previous);
          return html`<tr key=${row.key} class=${selectedKey !== undefined && selectedKey === row.key ? 'selected' : ''}>
            <th scope="row" class="bar-cell">
              <span class="bar" aria-hidden="true" style=${{ width: `${share}%` }}></span>
              ${onSelect
                ? html`<button type="button" class="bar-name link-button" aria-pressed=${selectedKey === row.key ? 'true' : 'false'}
                    onClick=${() => onSelect(row)}>${nameOf(row)}</button>`
                : html`<span class="bar-name">${nameOf(row)}</span>`}
            </th>
            <td class="num" data-label=${valueLabel}>${row.value === null || row.value === undefined ? '—' : format(row.value)}</td>
            ${extraColumns.map((column) => html`<td class="num" data-label=${column.label}>${row.extra?.[column.key] ?? '—'}</td>`)}
            ${showComparison && html`<td class="num" data-label="Previous">${previousText}</td>
              <td class="num" data-label="Change"><${Change} value=${row.change} inverse=${inverse} points=${points} previousText=${previousText} /></td>`}
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

// A ranked list as a table: each row's name over a bar proportional to its value, the value,
// and with a comparison the change (the previous value and the absolute change in its tooltip
// and its accessible text; as columns of their own only when asked), so the name gets most of
// the width. Rows can be activated
// (a button in the name cell, so keyboard users get it too) to filter the view by that value.
import { html } from '../ui/html.js';
import { formatNumber } from '../format.js';
import { Change } from './change.js';

/**
 * props:
 *  caption       the table's accessible name (also its visible heading when showCaption)
 *  nameLabel     header of the name column ("Page", "Country"…)
 *  valueLabel    header of the value column ("Visitors", "Requests"…)
 *  rows          [{ key, name, value, previous, change, absoluteChange, extra: {columnKey: text} }]
 *                change is the API's percentage; absoluteChange (current − previous), when
 *                given, is shown under it
 *  extraColumns  [{ key, label, text }] more columns after the value (rendered from row.extra):
 *                numeric, or with `text` words that wrap inside a column of their own width
 *  format        formats value and previous (default formatNumber)
 *  showComparison, inverse (lower is better), points (change in percentage points)
 *  showPrevious  the previous value as a column, and the absolute change under the percentage
 *  onSelect(row) makes the names buttons (not for a row with selectable: false); selectedKey,
 *                or isSelected(row), marks the active ones (aria-pressed)
 *  renderName(row) the text (or node) for a name; default row.name, or "(none)" for null
 */
/** +3, -1,204, ±0: an absolute change in the list's own format. */
export function signed(value, format) {
  if (value === 0) return `±${format(0)}`;
  return `${value > 0 ? '+' : '-'}${format(Math.abs(value))}`;
}

/** The change cell's tooltip: "Previous: 1,204 (−12)". */
function changeTitle(row, previousText, format) {
  const absolute = row.absoluteChange === null || row.absoluteChange === undefined ? '' : ` (${signed(row.absoluteChange, format)})`;
  return `Previous: ${previousText}${absolute}`;
}

const extraClass = (column) => (column.text ? 'col-extra col-text' : 'num col-extra');

export function BarList({ caption, showCaption = false, nameLabel = 'Name', valueLabel = 'Value', rows, extraColumns = [],
  format = formatNumber, showComparison = true, showPrevious = false, inverse = false, points = false, onSelect, selectedKey, isSelected,
  renderName, empty = 'No data for this period.' }) {
  const max = rows.reduce((top, row) => Math.max(top, row.value ?? 0), 0) || 1;
  const withPrevious = showComparison && showPrevious;
  const columnCount = 2 + extraColumns.length + (showComparison ? 1 : 0) + (withPrevious ? 1 : 0);
  const nameOf = (row) => (renderName ? renderName(row) : row.name ?? html`<span class="muted">(none)</span>`);
  // The numeric columns' count sets the table's narrowest width (charts.css).
  return html`<div class="table-wrap bar-list" role="region" aria-label=${caption} tabindex="0">
    <table style=${{ '--numeric-columns': String(columnCount - 1) }}>
      <caption class=${showCaption ? '' : 'visually-hidden'}>${caption}</caption>
      <thead><tr>
        <th scope="col">${nameLabel}</th>
        <th scope="col" class="num">${valueLabel}</th>
        ${extraColumns.map((column) => html`<th scope="col" class=${extraClass(column)}>${column.label}</th>`)}
        ${withPrevious && html`<th scope="col" class="num col-previous">Previous</th>`}
        ${showComparison && html`<th scope="col" class="num col-change">Change</th>`}
      </tr></thead>
      <tbody>
        ${rows.length === 0 && html`<tr><td colspan=${columnCount} class="empty">${empty}</td></tr>`}
        ${rows.map((row) => {
          const share = Math.max(0, Math.min(100, ((row.value ?? 0) / max) * 100));
          const previousText = row.previous === null || row.previous === undefined ? '—' : format(row.previous);
          const selected = isSelected ? isSelected(row) : selectedKey !== undefined && selectedKey === row.key;
          return html`<tr key=${row.key} class=${selected ? 'selected' : ''}>
            <th scope="row" class="bar-cell">
              <span class="bar" aria-hidden="true" style=${{ width: `${share}%` }}></span>
              ${onSelect && row.selectable !== false
                ? html`<button type="button" class="bar-name link-button" aria-pressed=${selected ? 'true' : 'false'}
                    title=${typeof row.name === 'string' ? row.name : undefined} onClick=${() => onSelect(row)}>${nameOf(row)}</button>`
                : html`<span class="bar-name" title=${typeof row.name === 'string' ? row.name : undefined}>${nameOf(row)}</span>`}
            </th>
            <td class="num" data-label=${valueLabel}>${row.value === null || row.value === undefined ? '—' : format(row.value)}</td>
            ${extraColumns.map((column) => html`<td class=${extraClass(column)} data-label=${column.label}>${row.extra?.[column.key] ?? '—'}</td>`)}
            ${withPrevious && html`<td class="num col-previous" data-label="Previous">${previousText}</td>`}
            ${showComparison && html`<td class="num" data-label="Change" title=${changeTitle(row, previousText, format)}>
              <${Change} value=${row.change} inverse=${inverse} points=${points} previousText=${previousText} />
                ${withPrevious && row.absoluteChange !== null && row.absoluteChange !== undefined
                  && html`<span class="change-absolute">${signed(row.absoluteChange, format)}</span>`}</td>`}
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

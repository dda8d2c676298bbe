// The web report's filter bar: every filter as a chip (edit it by activating it, remove it with
// its × button), "Clear all", and "+ Filter". The editor is its own chunk (filter-editor.js),
// imported the first time it is opened, so the first view does not carry it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { dimensionLabel, operatorLabel, replaceFilter } from './filters.js';
import { countryName } from './sections.js';

const loadEditor = () => import('./filter-editor.js');

/** A value as a chip shows it: a country's name, "(none)" for the visits without one. */
export function valueText(dimension, value) {
  if (value === '') return '(none)';
  return dimension === 'visit:country' ? countryName(value) ?? value : value;
}

/** "Country is Germany or Austria". */
export function filterText({ op, dimension, values }) {
  return `${dimensionLabel(dimension)} ${operatorLabel(op)} ${values.map((value) => valueText(dimension, value)).join(' or ')}`;
}

/**
 * props: filters; onChange(next filters); chosen (a ref set when a row was just clicked: the
 * bar then takes the focus, as it announces what changed); editorProps (what the editor needs
 * to suggest values: scope, params).
 */
export function FilterBar({ filters, onChange, chosen, editorProps }) {
  const heading = useRef(null);
  const addButton = useRef(null);
  // { index }: the filter being edited (index === filters.length: a new one).
  const [editing, setEditing] = useState(null);
  const [Editor, setEditor] = useState(null);
  const signature = filters.map((filter) => JSON.stringify(filter)).join('\n');
  useEffect(() => {
    if (!chosen.current || !heading.current) return;
    chosen.current = false;
    heading.current.focus();
    heading.current.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  }, [signature]);

  const open = (index) => {
    setEditing({ index });
    if (!Editor) loadEditor().then((module) => setEditor(() => module.FilterEditor), () => setEditing(null));
  };
  const remove = (index) => {
    onChange(filters.filter((_, at) => at !== index));
    // The chip goes away: keep the keyboard user in the bar.
    requestAnimationFrame(() => heading.current?.focus());
  };

  return html`<section class="card filter-bar" aria-labelledby="filter-heading">
    <div class="card-head">
      <h2 id="filter-heading" tabindex="-1" ref=${heading}>${filters.length ? `Filters (${filters.length})` : 'Filters'}</h2>
      <div class="filter-actions">
        <button type="button" class="btn btn-secondary btn-small" ref=${addButton} onClick=${() => open(filters.length)}>+ Filter</button>
        ${filters.length > 0 && html`<button type="button" class="btn btn-secondary btn-small" onClick=${() => {
          onChange([]);
          requestAnimationFrame(() => addButton.current?.focus());
        }}>Clear all<span class="visually-hidden"> filters</span></button>`}
      </div>
    </div>
    ${filters.length === 0
      ? html`<p class="muted">Every figure counts all visits. Choose a row of a table, or "+ Filter", to keep only some.</p>`
      : html`<ul class="filter-chips" aria-label="Active filters">
        ${filters.map((filter, index) => html`<li key=${index} class="filter-chip-item" data-filter=${index}>
          <button type="button" class="filter-chip-edit" onClick=${() => open(index)}>
            <span class="visually-hidden">Edit filter: </span>${filterText(filter)}
          </button>
          <button type="button" class="filter-chip-remove" onClick=${() => remove(index)}
            aria-label=${`Remove filter ${filterText(filter)}`}><span aria-hidden="true">×</span></button>
        </li>`)}
      </ul>`}
    ${editing && Editor && html`<${Editor} ...${editorProps} filters=${filters}
      filter=${filters[editing.index] ?? null}
      onApply=${(filter) => {
        setEditing(null);
        onChange(replaceFilter(filters, editing.index, filter));
      }}
      onClose=${() => setEditing(null)} />`}
  </section>`;
}

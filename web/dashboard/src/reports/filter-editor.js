// The filter editor of the web report (loaded on first use by filter-bar.js): a dialog to choose
// the dimension (a custom property by its key), the operator and the values, with suggestions —
// the property keys seen in the period (get_property_keys) and the dimension's most common
// values among the visits the other filters keep (`query`), narrowed as the user types.
import { useEffect, useId, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Dialog } from '../ui/index.js';
import { useOperation } from '../data.js';
import { filterDimensions, filterOperators, isFilterDimension, propertyKey, propertyPrefix } from './filters.js';
import { suggestionsQuery } from './filter-queries.js';
import { valueText } from './filter-bar.js';

const propertyChoice = 'property';
const shownSuggestions = 10;
const typingPauseMs = 300;

/** value once it has not changed for ms (each `query` for suggestions reads the whole period). */
function useSettled(value, ms) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The suggestions that contain what was typed (any case), the typed text itself left out. */
export function narrow(suggestions, typed, taken = []) {
  const wanted = typed.trim().toLowerCase();
  return suggestions.filter((value) => !taken.includes(value) && (wanted === '' || value.toLowerCase().includes(wanted)))
    .slice(0, shownSuggestions);
}

/**
 * props: filter (the one edited, or null for a new one), filters (all, for the suggestions),
 * scope { orgSlug, projectId }, params (the view's reportParams), onApply(filter), onClose().
 */
export function FilterEditor({ filter, filters, scope, params, onApply, onClose }) {
  const id = `fe${useId()}`;
  const editedKey = propertyKey(filter?.dimension);
  const [choice, setChoice] = useState(editedKey !== null ? propertyChoice : filter?.dimension ?? filterDimensions[0].dimension);
  const [key, setKey] = useState(editedKey ?? '');
  const [op, setOp] = useState(filter?.op ?? 'is');
  const [values, setValues] = useState(filter?.values ?? []);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState(null);
  const dimension = choice === propertyChoice ? `${propertyPrefix}${key.trim()}` : choice;
  const dimensionValid = isFilterDimension(dimension);

  const keys = useOperation('get_property_keys', { ...scope, from: params.from, to: params.to },
    { skip: choice !== propertyChoice, select: (answer) => answer.keys.map((item) => item.key) });
  // A property key being typed asks for its values once the typing pauses.
  const asked = useSettled(dimension, typingPauseMs);
  const suggestions = useOperation('query', suggestionsQuery(scope, params, filters, asked, 50),
    { skip: !isFilterDimension(asked), select: (answer) => answer.results.map((row) => row.dimensions[0]) });

  const addValue = (value) => {
    if (!values.includes(value)) setValues([...values, value]);
    setTyped('');
  };
  const submit = (event) => {
    event.preventDefault();
    const chosen = typed.trim() === '' ? values : [...new Set([...values, typed.trim()])];
    if (!dimensionValid) { setError('Give the property key (1 to 100 bytes).'); return; }
    if (chosen.length === 0) { setError('Give at least one value.'); return; }
    onApply({ op, dimension, values: chosen });
  };

  return html`<${Dialog} open title=${filter ? 'Edit filter' : 'Add filter'} onClose=${onClose}>
    <form class="filter-editor stack" onSubmit=${submit} noValidate>
      <div class="field">
        <label for=${`${id}-dimension`}>Dimension</label>
        <select id=${`${id}-dimension`} value=${choice} onChange=${(event) => { setChoice(event.currentTarget.value); setValues([]); }}>
          ${filterDimensions.map((item) => html`<option value=${item.dimension} selected=${choice === item.dimension}>${item.label}</option>`)}
          <option value=${propertyChoice} selected=${choice === propertyChoice}>Custom property…</option>
        </select>
      </div>
      ${choice === propertyChoice && html`<${Suggest} id=${`${id}-key`} label="Property key" value=${key}
        onInput=${(text) => { setKey(text); setValues([]); }} onChoose=${(text) => { setKey(text); setValues([]); }}
        suggestions=${narrow(keys.data ?? [], key)} loading=${keys.loading} />`}
      <div class="field">
        <label for=${`${id}-op`}>Operator</label>
        <select id=${`${id}-op`} value=${op} onChange=${(event) => setOp(event.currentTarget.value)}>
          ${filterOperators.map((item) => html`<option value=${item.op} selected=${op === item.op}>${item.label}</option>`)}
        </select>
      </div>
      ${values.length > 0 && html`<ul class="filter-values" aria-label="Values">
        ${values.map((value) => html`<li key=${value}>${valueText(dimension, value)}
          <button type="button" class="filter-chip-remove" aria-label=${`Remove value ${valueText(dimension, value)}`}
            onClick=${() => setValues(values.filter((other) => other !== value))}><span aria-hidden="true">×</span></button></li>`)}
      </ul>`}
      <${Suggest} id=${`${id}-value`} label=${values.length ? 'Another value' : 'Value'} value=${typed}
        hint=${op.startsWith('matches') ? 'A regular expression (RE2): ^ and $ anchor.' : 'Enter adds it; any one of the values is enough.'}
        onInput=${setTyped} onChoose=${addValue} onEnter=${() => typed.trim() && addValue(typed.trim())}
        suggestions=${dimensionValid && asked === dimension && !suggestions.loading ? narrow(suggestions.data ?? [], typed, values) : []}
        loading=${suggestions.loading || asked !== dimension}
        describe=${(value) => valueText(dimension, value)} />
      ${error && html`<p class="field-error" role="alert">${error}</p>`}
      <div class="dialog-actions">
        <button type="button" class="btn btn-secondary" onClick=${onClose}>Cancel</button>
        <button type="submit" class="btn btn-primary">Apply filter</button>
      </div>
    </form>
  <//>`;
}

/**
 * A text input with a list of suggestions (the ARIA 1.2 combobox pattern): the arrow keys move
 * through them, Enter or a click chooses one, Escape closes the list (not the dialog).
 */
function Suggest({ id, label, hint, value, onInput, onChoose, onEnter, suggestions, loading, describe = (text) => text }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => setActive(-1), [suggestions.join('\n')]);
  const listId = `${id}-list`;
  const expanded = open && suggestions.length > 0;
  const choose = (text) => { onChoose(text); setOpen(false); };
  const onKeyDown = (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (suggestions.length ? (index + step + suggestions.length) % suggestions.length : -1));
    } else if (event.key === 'Enter') {
      if (expanded && active >= 0) { event.preventDefault(); choose(suggestions[active]); }
      else if (onEnter && value.trim()) { event.preventDefault(); onEnter(); }
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };
  return html`<div class="field suggest">
    <label for=${id}>${label}</label>
    <input id=${id} type="text" role="combobox" autocomplete="off" aria-autocomplete="list" aria-controls=${listId}
      aria-expanded=${expanded ? 'true' : 'false'} aria-activedescendant=${expanded && active >= 0 ? `${listId}-${active}` : undefined}
      aria-describedby=${hint ? `${id}-hint` : undefined} aria-busy=${loading ? 'true' : undefined}
      value=${value} onInput=${(event) => { onInput(event.currentTarget.value); setOpen(true); }}
      onFocus=${() => setOpen(true)} onBlur=${() => setOpen(false)} onKeyDown=${onKeyDown} />
    ${hint && html`<p class="hint" id=${`${id}-hint`}>${hint}</p>`}
    <ul id=${listId} role="listbox" aria-label=${`${label} suggestions`} class="suggestions" hidden=${!expanded}>
      ${suggestions.map((text, index) => html`<li key=${text} id=${`${listId}-${index}`} role="option"
        aria-selected=${index === active ? 'true' : 'false'}
        onMouseDown=${(event) => { event.preventDefault(); choose(text); }}>${describe(text)}</li>`)}
    </ul>
  </div>`;
}

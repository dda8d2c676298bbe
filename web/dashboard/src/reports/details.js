// A breakdown card's Details: every value of the active tab (up to 10,000), not just its top ten,
// asked of `query` once per sort, shown 50 a page, with a search, sorting by any column; and its
// CSV, the whole list as shown. The search filters that list here when it came whole; a list cut
// at 10,000 is asked again per search (a `contains` filter on the dimension, and the values that
// hold it). The whole view's export (a zip of CSV files) too. Loaded only when a Details or
// Export button is first used.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Button, Dialog, ErrorNotice, Loading } from '../ui/index.js';
import { api } from '../api.js';
import { formatDuration, formatNumber } from '../format.js';
import { detailsLimit, detailsMatching, detailsPageSize as pageSize, detailsQuery, detailsShape, detailsWhole,
  queryFilters as detailsFilters } from './filter-queries.js';
import { csvOf, downloadFile, zipOf } from './export.js';

const labels = { visitors: 'Visitors', visits: 'Visits', pageviews: 'Pageviews', events: 'Events', time_on_page: 'Time on page' };
const formats = { time_on_page: (seconds) => formatDuration(seconds === null ? null : seconds * 1000) };

/** A tab's Details columns: its value (named `name`), then its metrics. */
export function detailsColumns(dimension, name) {
  const shape = detailsShape(dimension);
  return [{ key: shape.dimension, label: name, text: true },
    ...shape.metrics.map((metric) => ({ key: metric, label: labels[metric], format: formats[metric] ?? formatNumber }))];
}

/** The header cell of a sortable column: a button that sorts by it, its state in aria-sort. */
function SortHeader({ column, sort, onSort }) {
  const active = sort.key === column.key;
  const next = active && sort.direction === 'desc' ? 'asc' : 'desc';
  return html`<th scope="col" class=${column.text ? '' : 'num'} aria-sort=${active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
    <button type="button" class="link-button sort-button" onClick=${() => onSort({ key: column.key, direction: column.text && !active ? 'asc' : next })}>
      ${column.label}${active ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</button>
  </th>`;
}

/** props: open, onClose, title (the card's tab label), name (its value column), and the view. */
export function DetailsDialog({ open, onClose, title, name, scope, params, filters, dimension }) {
  const columns = useMemo(() => detailsColumns(dimension, name), [dimension, name]);
  const metricKeys = columns.filter((column) => !column.text).map((column) => column.key);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState({ key: metricKeys[0], direction: 'desc' });
  const [offset, setOffset] = useState(0);
  const [state, setState] = useState({ loading: true, answer: null, error: null });
  // What the view's list without a search told: { view, whole } (whole: the search filters it
  // here). Until it has answered, and once it came whole, `query` is asked without the search.
  const view = JSON.stringify([dimension, params, filters]);
  const [listed, setListed] = useState(null);
  const asked = listed?.view === view && !listed.whole ? search.trim() : '';
  // (A new tab mounts a new dialog: view-actions.js keys it by the dimension.)
  useEffect(() => { setOffset(0); }, [search, sort]);
  const matching = useMemo(() => detailsMatching(state.answer?.results ?? [], search), [state.answer, search]);
  useEffect(() => {
    if (!open) return undefined;
    let stopped = false;
    // Typing settles before the page is asked for.
    const timer = setTimeout(() => {
      setState((previous) => ({ ...previous, loading: true, error: null }));
      api.call('query', detailsQuery({ scope, params, filters, dimension, search: asked, sort })).then(
        (answer) => {
          if (stopped) return;
          setState({ loading: false, answer, error: null });
          if (!asked) setListed({ view, whole: detailsWhole(answer) });
        },
        (error) => {
          if (stopped) return;
          setState({ loading: false, answer: null, error });
          // Searching asks again, as for a cut list.
          if (!asked) setListed({ view, whole: false });
        },
      );
    }, 200);
    return () => { stopped = true; clearTimeout(timer); };
  }, [open, asked, sort, view]);

  const download = () => {
    downloadFile(`${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.csv`, csvOf(columns.map((column) => column.label),
      matching.map((row) => [...row.dimensions, ...row.metrics])), 'text/csv');
  };

  const total = matching.length;
  const cut = (state.answer?.meta?.total_rows ?? 0) > detailsLimit;
  const rows = matching.slice(offset, offset + pageSize);
  return html`<${Dialog} open=${open} title=${title} onClose=${onClose}
    footer=${html`<${Button} onClick=${download} disabled=${!state.answer}>Download CSV<//><${Button} kind="primary" onClick=${onClose}>Close<//>`}>
    <div class="details">
      <label class="details-search"><span class="visually-hidden">Search ${name}</span>
        <input type="search" placeholder=${`Search ${name.toLowerCase()}`} value=${search} onInput=${(event) => setSearch(event.currentTarget.value)} /></label>
      <${ErrorNotice} error=${state.error} />
      ${cut && html`<p class="small muted">The first ${formatNumber(detailsLimit)} values only: search to narrow the list.</p>`}
      ${state.loading && !state.answer ? html`<${Loading} />` : html`<div class="table-wrap details-table" role="region" aria-label=${`${title}: every value`} tabindex="0" aria-busy=${state.loading ? 'true' : 'false'}>
        <table>
          <caption class="visually-hidden">${title}</caption>
          <thead><tr>${columns.map((column) => html`<${SortHeader} column=${column} sort=${sort} onSort=${setSort} />`)}</tr></thead>
          <tbody>
            ${rows.length === 0 && html`<tr><td colspan=${columns.length} class="empty">Nothing matches.</td></tr>`}
            ${rows.map((row) => html`<tr key=${row.dimensions[0]}>
              <th scope="row" class="details-name">${row.dimensions[0] === '' ? html`<span class="muted">(none)</span>` : row.dimensions[0]}</th>
              ${columns.slice(1).map((column, index) => html`<td class="num">${row.metrics[index] === null ? '—' : column.format(row.metrics[index])}</td>`)}
            </tr>`)}
          </tbody>
        </table>
      </div>`}
      <div class="pager" role="navigation" aria-label="Pages">
        <span aria-live="polite">${total === 0 ? 'No values' : `${formatNumber(offset + 1)}–${formatNumber(Math.min(offset + pageSize, total))} of ${formatNumber(total)}`}</span>
        <${Button} class="btn-small" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - pageSize))}>Previous<//>
        <${Button} class="btn-small" disabled=${offset + pageSize >= total} onClick=${() => setOffset(offset + pageSize)}>Next<//>
      </div>
    </div>
  <//>`;
}

/**
 * The whole view as a zip of CSV files, each from `query` like the Details: the headline figures,
 * the timeline, and every tab of every card (`tabs`: [{ value, label, name }]).
 */
export async function exportView({ scope, params, filters, interval, tabs, projectName }) {
  const base = { ...scope, date_range: [params.from, params.to], filters: detailsFilters(filters) };
  const metrics = ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration', 'events'];
  const [summary, timeline, ...lists] = await Promise.all([
    api.call('query', { ...base, metrics }),
    api.call('query', { ...base, metrics, dimensions: [`time:${interval}`], include: { time_labels: true } }),
    ...tabs.map((tab) => api.call('query', detailsQuery({ scope, params, filters, dimension: tab.value, limit: 10_000 }))),
  ]);
  const files = [
    { name: 'summary.csv', text: csvOf(metrics, summary.results.map((row) => row.metrics)) },
    { name: 'timeline.csv', text: csvOf(['time', ...metrics], timeline.results.map((row) => [...row.dimensions, ...row.metrics])) },
    ...tabs.map((tab, index) => ({
      name: `${tab.value}.csv`,
      text: csvOf(detailsColumns(tab.value, tab.name).map((column) => column.label), lists[index].results.map((row) => [...row.dimensions, ...row.metrics])),
    })),
  ];
  const slug = projectName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'project';
  downloadFile(`${slug}-${params.from}-${params.to}.zip`, zipOf(files), 'application/zip');
}

// Web analytics: headline figures, the timeline with the comparison period dashed, breakdowns
// (pages, sources, locations, devices, events) with comparison columns. Filters stack in the
// filter bar (URL f=…, filters.js): clicking a row adds one, "+ Filter" any other. With none, or
// the one simple filter the reports take (`filter`), the reports answer from their rollups;
// otherwise every card asks `query` (filter-queries.js, loaded then). All requests of a view
// start together (useOperations).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { invalidate, operation, useOperations } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { useProject, useProjectScope } from '../context.js';
import { PageHeader, useTitle } from '../ui/index.js';
import { formatDuration, formatNumber, formatPercent } from '../format.js';
import { MetricCards } from '../charts/metric-cards.js';
import { Timeline } from '../charts/timeline.js';
import { BarList } from '../charts/bar-list.js';
import { comparisonName, intervalFor, reportParams, resolveComparison, resolvePeriod, viewKey } from './period.js';
import { PeriodPicker } from './period-picker.js';
import { useViewReady } from './view-ready.js';
import { FirstRun, LazyWorldMap, RequestError, RequestState, TabbedSection, countryName, shareErrors } from './sections.js';
import { addValueFilter, filtersFromSearch, filtersPatch, needsQuery, queryDimensionOf, referrerDrill, removeValueFilter, reportDimensionOf,
  reportFilterFor, takesValue } from './filters.js';

const formatDecimal = (value) => formatNumber(value, { maximumFractionDigits: 2 });
const formatRate = (value) => formatPercent(value / 100);

export const webMetrics = [
  { key: 'visitors', label: 'Visitors', format: formatNumber },
  { key: 'visits', label: 'Visits', format: formatNumber },
  { key: 'pageviews', label: 'Pageviews', format: formatNumber },
  { key: 'viewsPerVisit', label: 'Views per visit', format: formatDecimal },
  { key: 'bounceRate', label: 'Bounce rate', format: formatRate, points: true, inverse: true },
  { key: 'visitDuration', label: 'Visit duration', format: formatDuration },
  { key: 'events', label: 'Events', format: formatNumber },
];

/** The breakdown groups: each a card with a tab per dimension. */
export const breakdownGroups = [
  { key: 'pages', title: 'Pages', tabs: [
    { value: 'top_page', label: 'Top pages', name: 'Page' },
    { value: 'entry_page', label: 'Entry pages', name: 'Entry page' },
    { value: 'exit_page', label: 'Exit pages', name: 'Exit page' },
    { value: 'durations', label: 'Time on page', name: 'Page' },
  ] },
  { key: 'sources', title: 'Sources', tabs: [
    { value: 'channel', label: 'Channels', name: 'Channel' },
    { value: 'source', label: 'Sources', name: 'Source' },
    { value: 'referrer', label: 'Referrers', name: 'Referrer' },
    { value: 'utm_source', label: 'UTM source', name: 'Source' },
    { value: 'utm_medium', label: 'UTM medium', name: 'Medium' },
    { value: 'utm_campaign', label: 'UTM campaign', name: 'Campaign' },
    { value: 'utm_term', label: 'UTM term', name: 'Term' },
    { value: 'utm_content', label: 'UTM content', name: 'Content' },
  ] },
  { key: 'locations', title: 'Locations', tabs: [
    { value: 'country', label: 'Countries', name: 'Country' },
    { value: 'region', label: 'Regions', name: 'Region' },
    { value: 'city', label: 'Cities', name: 'City' },
  ] },
  { key: 'devices', title: 'Devices', tabs: [
    { value: 'browser', label: 'Browsers', name: 'Browser' },
    { value: 'os', label: 'Operating systems', name: 'Operating system' },
    { value: 'device', label: 'Devices', name: 'Device' },
  ] },
  { key: 'events', title: 'Events', tabs: [
    { value: 'event', label: 'Events', name: 'Event' },
    { value: 'event_channel', label: 'Event channels', name: 'Event channel' },
  ] },
];

/**
 * The events the SDK and the tracking script send by themselves (docs/sdk.md): the Events tab
 * lists the project's own events first and these apart, so a signup is not buried under clicks.
 */
export const automaticEvents = new Set(['screen_view', 'session_start', 'click', 'outbound_link', 'scroll_depth', 'element_visible']);
// The Events tab asks for this many rows, to show ten of each kind.
const eventRows = 50;
const tabLimit = (dimension) => (dimension === 'country' ? 50 : dimension === 'event' ? eventRows : 10);

/** What a breakdown's count means, per dimension (docs/metrics.md). */
export function countLabel(dimension) {
  if (dimension === 'top_page') return 'Pageviews';
  if (dimension === 'entry_page' || dimension === 'exit_page') return 'Visits';
  if (dimension === 'event_channel' || dimension === 'event') return 'Events';
  return 'Visitors';
}

const dimensionNames = { ...Object.fromEntries(breakdownGroups.flatMap((group) => group.tabs.map((tab) => [tab.value, tab.name]))),
  referrer_url: 'Referrer URL' };

/**
 * A breakdown card's tab, in the URL as ?<group>=<dimension> (pages=entry_page). Without it, the
 * tab of the newest filter on one of this card's dimensions (a shared filtered link opens on
 * it), else the first.
 */
export function activeTab(group, query, filters = []) {
  const wanted = query[group.key];
  if (group.tabs.some((tab) => tab.value === wanted)) return wanted;
  const filtered = filters.map((filter) => reportDimensionOf(filter.dimension)).reverse()
    .find((dimension) => group.tabs.some((tab) => tab.value === dimension));
  return filtered ?? group.tabs[0].value;
}

const displayValue = (dimension, value) => (dimension === 'country' ? countryName(value) : value);

const loadFilterQueries = () => import('./filter-queries.js');
const loadViewActions = () => import('./view-actions.js');

/**
 * The view's actions (view-actions.js: the Details buttons, Export CSV, "N visitors now"),
 * imported right after the first render so they stay out of the first view's budget.
 */
function useViewActions() {
  const [module, setModule] = useState(null);
  useEffect(() => { loadViewActions().then(setModule, () => {}); }, []);
  return module;
}
const loadFilterBar = () => import('./filter-bar.js');

/**
 * The filter bar, imported right after the first render (its chips and editor stay out of the
 * first view's budget); until then its heading holds the place.
 */
function LazyFilterBar(props) {
  const [module, setModule] = useState(null);
  useEffect(() => { loadFilterBar().then(setModule, () => {}); }, []);
  if (module) return html`<${module.FilterBar} ...${props} />`;
  return html`<section class="card filter-bar" aria-labelledby="filter-heading" aria-busy="true">
    <div class="card-head"><h2 id="filter-heading" tabindex="-1">Filters</h2></div>
  </section>`;
}

/** { module: filter-queries.js once `wanted` (imported the first time), error }. */
function useFilterQueries(wanted) {
  const [module, setModule] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (wanted && !module) loadFilterQueries().then(setModule, setError);
  }, [wanted]);
  return { module: wanted ? module : null, error: wanted && !module ? error : null };
}

/** The reports' requests of a view: its summary, timeline and each card's active tab. */
function reportRequests(params, interval, tabs) {
  const requests = { summary: operation('get_web_analytics', params),
    timeline: operation('get_web_timeline', { ...params, interval }) };
  for (const group of breakdownGroups) {
    const dimension = tabs[group.key];
    requests[group.key] = dimension === 'durations'
      ? operation('get_page_durations', { ...params, limit: 10 })
      : operation('get_web_breakdown', { ...params, dimension, limit: tabLimit(dimension) });
  }
  return requests;
}

const ask = (request, select) => operation('query', request, { select });

/** The same cards asked of `query` (q: filter-queries.js), answers reshaped like the reports'. */
function queryRequests(q, scope, params, filters, interval, tabs) {
  const requests = {
    summary: ask(q.summaryQuery(scope, params, filters), q.summaryFromQuery),
    timeline: ask(q.timelineQuery(scope, params, filters, interval), (answer) => q.timelineFromQuery(answer, interval)),
  };
  for (const group of breakdownGroups) {
    const dimension = tabs[group.key];
    requests[group.key] = dimension === 'durations'
      ? ask(q.durationsQuery(scope, params, filters, 10), q.durationsFromQuery)
      : ask(q.breakdownQuery(scope, params, filters, dimension, tabLimit(dimension)), (answer) => q.breakdownFromQuery(answer, dimension));
  }
  return requests;
}

/**
 * A view filtered to one referrer domain lists that domain's referrer URLs in the Referrers tab
 * (`query`'s visit:referrer_url: the reports keep domains only).
 */
function withReferrerDrill(requests, q, scope, params, filters, tabs) {
  if (tabs.sources !== 'referrer' || !referrerDrill(filters)) return requests;
  if (!q) return { ...requests, sources: null };
  return { ...requests, sources: ask(q.breakdownQuery(scope, params, filters, 'referrer_url', 10),
    (answer) => q.breakdownFromQuery(answer, 'referrer_url')) };
}

/** The tab a card's Details lists: the active one, or a referrer domain's URLs when drilled in. */
function detailsTab(group, active, filters) {
  if (active === 'referrer' && referrerDrill(filters)) return { value: 'referrer_url', label: 'Referrer URLs', name: 'Referrer URL' };
  return group.tabs.find((tab) => tab.value === active);
}

/** Every card's request null: the view waits for filter-queries.js. */
const waiting = () => Object.fromEntries(['summary', 'timeline', ...breakdownGroups.map((group) => group.key)].map((name) => [name, null]));

/** The timeline card's data: the reports' answer, or `query`'s with its comparison beside it. */
function timelineData(timeline, previous) {
  if (!timeline || !previous) return timeline;
  return { ...timeline, previousPeriod: { buckets: previous.buckets, points: previous.points } };
}

/**
 * Every card's answer for the view: the reports' when they can answer the filters, else
 * `query`'s. Returns { results, sharedError, loadError (filter-queries.js did not load) }.
 */
function useCards({ scope, params, filters, interval, tabs, loadKey }) {
  const viaQuery = needsQuery(filters);
  const drill = tabs.sources === 'referrer' && referrerDrill(filters) !== null;
  const { module: q, error: loadError } = useFilterQueries(viaQuery || drill);
  let requests;
  if (!viaQuery) requests = reportRequests(params, interval, tabs);
  else if (q) requests = queryRequests(q, scope, params, filters, interval, tabs);
  else requests = waiting();
  const answers = useOperations(withReferrerDrill(requests, q, scope, params, filters, tabs));
  // `query` compares time buckets only where the selection has visits: the timeline's
  // comparison line is the comparison window's own timeline, once the summary has named it.
  const previousDays = q && viaQuery && !answers.summary.loading ? answers.summary.data?.comparisonDays : null;
  const { previousTimeline } = useOperations({ previousTimeline: previousDays
    ? ask(q.previousTimelineQuery(scope, params, filters, interval, previousDays), (answer) => q.timelineFromQuery(answer, interval))
    : null });
  const pending = (viaQuery || drill) && !q && !loadError ? { module: { loading: true } } : {};
  const { results, shared } = shareErrors(useViewReady({ ...answers, previousTimeline, ...pending }, loadKey));
  const timeline = { ...results.timeline, data: timelineData(results.timeline.data, results.previousTimeline.data) };
  return { results: { ...results, timeline }, sharedError: shared, loadError };
}

export function WebAnalyticsPage() {
  const project = useProject();
  const scope = useProjectScope();
  const { query, search } = useRoute();
  useTitle(`Web analytics · ${project.name}`);
  const timeZone = project.reportingTimezone || 'UTC';
  const range = resolvePeriod(query, timeZone);
  const comparison = resolveComparison(query);
  const showComparison = comparison.mode !== 'off';
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const params = reportParams(project.id, query, timeZone);
  const reportFilter = reportFilterFor(filters);
  if (reportFilter) params.filter = reportFilter;
  const loadKey = `${viewKey(params)} ${JSON.stringify(filters)}`;
  const interval = intervalFor(params.from, params.to);
  const metric = webMetrics.some((item) => item.key === query.metric) ? query.metric : 'visitors';
  const tabs = Object.fromEntries(breakdownGroups.map((group) => [group.key, activeTab(group, query, filters)]));
  const setTab = (group, value) => setQuery({ [group.key]: value === group.tabs[0].value ? null : value }, { replace: true });

  const { results, sharedError, loadError } = useCards({ scope, params, filters, interval, tabs, loadKey });
  const comparisonWindow = results.summary.data?.comparisonWindow ?? null;
  // A filter chosen in a table further down is announced above the figures it changed: move
  // there (not on a reload).
  const filterChosen = useRef(false);
  const setFilters = (next) => setQuery(filtersPatch(next));
  // A row's value is added as a filter, or taken away when a filter already takes it.
  const toggleRow = (dimension, value) => {
    const queryDimension = queryDimensionOf(dimension);
    const shown = value ?? '';
    if (takesValue(filters, queryDimension, shown)) {
      setFilters(removeValueFilter(filters, queryDimension, shown));
      return;
    }
    filterChosen.current = true;
    setFilters(addValueFilter(filters, queryDimension, shown));
  };
  const isChosen = (dimension) => (row) => takesValue(filters, queryDimensionOf(dimension), row.raw ?? '');
  const view = { scope, params, filters };
  const actions = useViewActions();

  return html`<div class="report">
    <${PageHeader} title="Web analytics">${actions && html`<${actions.VisitorsNow} scope=${scope} />
      <${actions.ExportButton} view=${view} interval=${interval} projectName=${project.name} tabs=${breakdownGroups.flatMap((group) => group.tabs)} />`}<//>
    <${FirstRun} scope=${scope} onLive=${() => invalidate('get_web_analytics', 'get_web_timeline', 'get_web_breakdown', 'get_page_durations', 'query')} />
    <${PeriodPicker} range=${range} comparison=${comparison} setQuery=${setQuery} comparisonWindow=${comparisonWindow} timeZone=${timeZone} />
    <${RequestError} error=${sharedError ?? (loadError && { message: 'The filtered view could not be loaded: reload the page.' })} />
    <${LazyFilterBar} filters=${filters} chosen=${filterChosen} onChange=${setFilters} editorProps=${{ scope, params }} />
    <${RequestState} result=${results.summary} label="the summary">${(data) => html`<${MetricCards} label="Summary"
      showComparison=${showComparison && data.comparisonWindow !== null} selected=${metric}
      onSelect=${(key) => setQuery({ metric: key === 'visitors' ? null : key }, { replace: true })}
      metrics=${webMetrics.map((item) => ({ ...item, ...data.metrics[item.key] }))} />`}<//>
    <section class="card" aria-labelledby="timeline-heading">
      <div class="card-head"><h2 id="timeline-heading" tabindex="-1">${webMetrics.find((item) => item.key === metric).label} over time</h2></div>
      <${RequestState} result=${results.timeline} label="the timeline">${(data) => html`<${WebTimeline}
        data=${data} metric=${metric} showComparison=${showComparison} comparedName=${comparisonName(comparison.mode)} timeZone=${timeZone} />`}<//>
    </section>
    <div class="report-grid">
      ${breakdownGroups.map((group) => html`<${TabbedSection} key=${group.key} title=${group.title} tabs=${group.tabs}
        active=${tabs[group.key]} onChange=${(value) => setTab(group, value)}
        actions=${actions && html`<${actions.DetailsButton} group=${group} tab=${detailsTab(group, tabs[group.key], filters)} view=${view} />`}>
        ${(active) => html`<${RequestState} result=${results[group.key]} label=${group.title.toLowerCase()}>${(data) => (active === 'durations'
          ? html`<${DurationList} data=${data} showComparison=${showComparison} />`
          : data.dimension === 'referrer_url'
            ? html`<${BreakdownList} data=${data} dimension="referrer_url" showComparison=${showComparison} />`
            : html`<${BreakdownList} data=${data} dimension=${active} showComparison=${showComparison}
              isSelected=${isChosen(active)} onSelect=${(row) => toggleRow(active, row.name)} />`)}<//>`}
      <//>`)}
    </div>
  </div>`;
}

function WebTimeline({ data, metric, showComparison, comparedName, timeZone }) {
  const definition = webMetrics.find((item) => item.key === metric);
  const series = useMemo(() => [{ label: definition.label, data: data.points.map((point) => point[metric]) }], [data, metric]);
  const previous = useMemo(() => (showComparison && data.previousPeriod
    ? { buckets: data.previousPeriod.buckets, series: [{ label: `${definition.label} (${comparedName})`, data: data.previousPeriod.points.map((point) => point[metric]) }] }
    : null), [data, metric, showComparison, comparedName]);
  return html`<${Timeline} label=${`${definition.label} by ${data.interval}`} buckets=${data.buckets} series=${series}
    previous=${previous} interval=${data.interval} format=${definition.format} timeZone=${timeZone} height=${200} />`;
}

function BreakdownList({ data, dimension, showComparison, isSelected, onSelect }) {
  const rows = data.rows.map((row) => ({
    key: row.value ?? '', name: row.value === null && dimension === 'referrer' ? 'Direct / none' : displayValue(dimension, row.value), raw: row.value,
    value: row.count, previous: row.previousCount, change: row.percentageChange, absoluteChange: row.absoluteChange,
    extra: dimension === 'top_page' ? { visitors: formatNumber(row.visitors) } : undefined,
  }));
  const list = html`<${BarList} caption=${`${dimensionNames[dimension]} by ${countLabel(dimension).toLowerCase()}`}
    nameLabel=${dimensionNames[dimension]} valueLabel=${countLabel(dimension)} rows=${rows}
    extraColumns=${dimension === 'top_page' ? [{ key: 'visitors', label: 'Visitors' }] : []}
    showComparison=${showComparison && data.comparisonWindow !== null}
    isSelected=${isSelected}
    onSelect=${onSelect && ((row) => onSelect({ name: row.raw }))} />`;
  if (dimension === 'event') {
    const own = rows.filter((row) => !automaticEvents.has(row.raw)).slice(0, 10);
    const automatic = rows.filter((row) => automaticEvents.has(row.raw)).slice(0, 10);
    const listOf = (caption, nameLabel, items, empty) => html`<${BarList} caption=${caption} showCaption=${true}
      nameLabel=${nameLabel} valueLabel="Events" rows=${items} empty=${empty}
      extraColumns=${[]} showComparison=${showComparison && data.comparisonWindow !== null}
      isSelected=${isSelected} onSelect=${onSelect && ((row) => onSelect({ name: row.raw }))} />`;
    return html`<div class="stack">
      ${listOf('Event by events', 'Event', own, 'None of your own events in this period: send them with sightline.track().')}
      ${listOf('Automatic events by events', 'Automatic event', automatic, 'No automatic events in this period.')}
    </div>`;
  }
  if (dimension !== 'country') return list;
  return html`<div class="stack">
    <${LazyWorldMap} label="Visitors by country" rows=${data.rows.filter((row) => row.value).map((row) => ({ country: row.value, value: row.count }))}
      onSelect=${(country) => onSelect({ name: country })} />
    ${list}
  </div>`;
}

function DurationList({ data, showComparison }) {
  const rows = data.rows.map((row) => ({
    key: row.path ?? '', name: row.path, value: row.avgDurationMs, previous: row.previousAvgDurationMs,
    change: row.percentageChange, absoluteChange: row.absoluteChange, extra: { pageviews: formatNumber(row.pageviews) },
  }));
  return html`<${BarList} caption="Average time on page" nameLabel="Page" valueLabel="Time on page" rows=${rows}
    format=${formatDuration} extraColumns=${[{ key: 'pageviews', label: 'Pageviews' }]}
    showComparison=${showComparison && data.comparisonWindow !== null} />`;
}

export { RequestError };

// Web analytics: headline figures, the timeline with the comparison period dashed, breakdowns
// (pages, sources, locations, devices, events) with comparison columns. Clicking a row filters
// the whole view to the visits with that value (URL filter=<dimension>:<value>, the reports'
// `filter` argument). All requests of a view start together (useRequests).
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { html } from '../ui/html.js';
import { operation, useOperations } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { useProject } from '../context.js';
import { PageHeader, useTitle } from '../ui/index.js';
import { formatDuration, formatNumber, formatPercent } from '../format.js';
import { MetricCards } from '../charts/metric-cards.js';
import { Timeline } from '../charts/timeline.js';
import { BarList } from '../charts/bar-list.js';
import { comparisonName, intervalFor, reportParams, resolveComparison, resolvePeriod, viewKey } from './period.js';
import { PeriodPicker } from './period-picker.js';
import { useViewReady } from './view-ready.js';
import { LazyWorldMap, RequestError, RequestState, TabbedSection, countryName, shareErrors } from './sections.js';

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

/** What a breakdown's count means, per dimension (docs/metrics.md). */
export function countLabel(dimension) {
  if (dimension === 'top_page') return 'Pageviews';
  if (dimension === 'entry_page' || dimension === 'exit_page') return 'Visits';
  if (dimension === 'event_channel' || dimension === 'event') return 'Events';
  return 'Visitors';
}

const dimensionNames = Object.fromEntries(breakdownGroups.flatMap((group) => group.tabs.map((tab) => [tab.value, tab.name])));

/** filter=<dimension>:<value> → { dimension, value } (an empty value is the "(none)" row). */
export function parseFilter(filter) {
  if (!filter) return null;
  const colon = filter.indexOf(':');
  if (colon < 1) return null;
  const dimension = filter.slice(0, colon);
  if (!dimensionNames[dimension] || dimension === 'durations') return null;
  const value = filter.slice(colon + 1);
  return { dimension, value: value === '' ? null : value };
}

/**
 * A breakdown card's tab, in the URL as ?<group>=<dimension> (pages=entry_page). Without it, the
 * filtered dimension's tab when it is in this card (a shared filtered link opens on it), else
 * the first.
 */
export function activeTab(group, query, filter) {
  const wanted = query[group.key];
  if (group.tabs.some((tab) => tab.value === wanted)) return wanted;
  if (filter && group.tabs.some((tab) => tab.value === filter.dimension)) return filter.dimension;
  return group.tabs[0].value;
}

const displayValue = (dimension, value) => (dimension === 'country' ? countryName(value) : value);

export function WebAnalyticsPage() {
  const project = useProject();
  const { query } = useRoute();
  useTitle(`Web analytics · ${project.name}`);
  const timeZone = project.reportingTimezone || 'UTC';
  const range = resolvePeriod(query, timeZone);
  const comparison = resolveComparison(query);
  const showComparison = comparison.mode !== 'off';
  const filter = parseFilter(query.filter);
  const params = reportParams(project.id, query, timeZone);
  if (filter) params.filter = `${filter.dimension}:${filter.value ?? ''}`;
  const loadKey = viewKey(params);
  const interval = intervalFor(params.from, params.to);
  const metric = webMetrics.some((item) => item.key === query.metric) ? query.metric : 'visitors';
  const tabs = Object.fromEntries(breakdownGroups.map((group) => [group.key, activeTab(group, query, filter)]));
  const setTab = (group, value) => setQuery({ [group.key]: value === group.tabs[0].value ? null : value }, { replace: true });

  const requests = { summary: operation('get_web_analytics', params),
    timeline: operation('get_web_timeline', { ...params, interval }) };
  for (const group of breakdownGroups) {
    const dimension = tabs[group.key];
    requests[group.key] = dimension === 'durations'
      ? operation('get_page_durations', { ...params, limit: 10 })
      : operation('get_web_breakdown', { ...params, dimension, limit: dimension === 'country' ? 50 : 10 });
  }
  const { results, shared: sharedError } = shareErrors(useViewReady(useOperations(requests), loadKey));
  const comparisonWindow = results.summary.data?.comparisonWindow ?? null;
  // A filter chosen in a table further down is announced above the figures it changed: move
  // there (not on a reload).
  const filterChosen = useRef(false);
  const selectFilter = (dimension, value) => {
    filterChosen.current = true;
    setQuery({ filter: `${dimension}:${value ?? ''}` });
  };

  return html`<div class="report">
    <${PageHeader} title="Web analytics" />
    <${PeriodPicker} range=${range} comparison=${comparison} setQuery=${setQuery} comparisonWindow=${comparisonWindow} timeZone=${timeZone} />
    <${RequestError} error=${sharedError} />
    ${filter && html`<${FilterBar} filter=${filter} chosen=${filterChosen}
      onRemove=${() => {
        setQuery({ filter: null });
        // The button goes away with the bar: keep the keyboard user nearby.
        requestAnimationFrame(() => document.getElementById('timeline-heading')?.focus());
      }} />`}
    <${RequestState} result=${results.summary} label="the summary">${(data) => html`<${MetricCards} label="Summary"
      showComparison=${showComparison && data.comparisonWindow !== null} selected=${metric}
      onSelect=${(key) => setQuery({ metric: key === 'visitors' ? null : key }, { replace: true })}
      metrics=${webMetrics.map((item) => ({ ...item, ...data.metrics[item.key] }))} />`}<//>
    <section class="card" aria-labelledby="timeline-heading">
      <div class="card-head"><h2 id="timeline-heading" tabindex="-1">${webMetrics.find((item) => item.key === metric).label} over time</h2></div>
      <${RequestState} result=${results.timeline} label="the timeline">${(data) => html`<${WebTimeline}
        data=${data} metric=${metric} showComparison=${showComparison} comparedName=${comparisonName(comparison.mode)} />`}<//>
    </section>
    <div class="report-grid">
      ${breakdownGroups.map((group) => html`<${TabbedSection} key=${group.key} title=${group.title} tabs=${group.tabs}
        active=${tabs[group.key]} onChange=${(value) => setTab(group, value)}>
        ${(active) => html`<${RequestState} result=${results[group.key]} label=${group.title.toLowerCase()}>${(data) => (active === 'durations'
          ? html`<${DurationList} data=${data} showComparison=${showComparison} />`
          : html`<${BreakdownList} data=${data} dimension=${active} showComparison=${showComparison}
              filter=${filter} onSelect=${(row) => selectFilter(active, row.name)} />`)}<//>`}
      <//>`)}
    </div>
  </div>`;
}

function WebTimeline({ data, metric, showComparison, comparedName }) {
  const definition = webMetrics.find((item) => item.key === metric);
  const series = useMemo(() => [{ label: definition.label, data: data.points.map((point) => point[metric]) }], [data, metric]);
  const previous = useMemo(() => (showComparison && data.previousPeriod
    ? { buckets: data.previousPeriod.buckets, series: [{ label: `${definition.label} (${comparedName})`, data: data.previousPeriod.points.map((point) => point[metric]) }] }
    : null), [data, metric, showComparison, comparedName]);
  return html`<${Timeline} label=${`${definition.label} by ${data.interval}`} buckets=${data.buckets} series=${series}
    previous=${previous} interval=${data.interval} format=${definition.format} />`;
}

function BreakdownList({ data, dimension, showComparison, filter, onSelect }) {
  const rows = data.rows.map((row) => ({
    key: row.value ?? '', name: row.value === null && dimension === 'referrer' ? 'Direct / none' : displayValue(dimension, row.value), raw: row.value,
    value: row.count, previous: row.previousCount, change: row.percentageChange, absoluteChange: row.absoluteChange,
    extra: dimension === 'top_page' ? { visitors: formatNumber(row.visitors) } : undefined,
  }));
  const list = html`<${BarList} caption=${`${dimensionNames[dimension]} by ${countLabel(dimension).toLowerCase()}`}
    nameLabel=${dimensionNames[dimension]} valueLabel=${countLabel(dimension)} rows=${rows}
    extraColumns=${dimension === 'top_page' ? [{ key: 'visitors', label: 'Visitors' }] : []}
    showComparison=${showComparison && data.comparisonWindow !== null}
    selectedKey=${filter?.dimension === dimension ? filter.value ?? '' : undefined}
    onSelect=${(row) => onSelect({ name: row.raw })} />`;
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

function FilterBar({ filter, chosen, onRemove }) {
  const heading = useRef(null);
  useEffect(() => {
    if (!chosen.current || !heading.current) return;
    chosen.current = false;
    heading.current.focus();
    heading.current.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  }, [filter.dimension, filter.value]);
  const name = displayValue(filter.dimension, filter.value) ?? '(none)';
  const title = `${dimensionNames[filter.dimension]}: ${name}`;
  return html`<section class="card filter-bar" aria-labelledby="filter-heading">
    <div class="card-head">
      <h2 id="filter-heading" tabindex="-1" ref=${heading}>Filtered by ${title}</h2>
      <button type="button" class="btn btn-secondary btn-small" onClick=${onRemove}>Remove filter<span class="visually-hidden"> ${title}</span></button>
    </div>
    <p class="muted">Every figure counts only the visits with this value.</p>
  </section>`;
}

export { RequestError };

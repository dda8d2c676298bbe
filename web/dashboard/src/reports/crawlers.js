// Crawler analytics: requests by vendor over time (the comparison window dashed), the bots with
// their verified / spoofed / suspected split, countries, paths and categories, each with the
// previous period's figures. Filters in the URL: ai=1 (AI agents only) and actorType.
import { useMemo } from 'preact/hooks';
import { html } from '../ui/html.js';
import { api } from '../api.js';
import { PageHeader, useTitle } from '../ui/index.js';
import { formatNumber } from '../format.js';
import { MetricCards } from '../charts/metric-cards.js';
import { Timeline } from '../charts/timeline.js';
import { BarList } from '../charts/bar-list.js';
import { intervalFor, reportParams, resolveComparison, resolvePeriod, viewKey } from './period.js';
import { PeriodPicker } from './period-picker.js';
import { useRequests } from './use-requests.js';
import { LazyWorldMap, RequestState, TabbedSection, countryName } from './sections.js';

export const actorTypes = [
  { value: 'verified_bot', label: 'Verified', description: 'the request came from the operator’s published IP ranges or a valid signature' },
  { value: 'spoofed_bot', label: 'Spoofed', description: 'claims a known bot’s user agent but came from elsewhere' },
  { value: 'suspected_bot', label: 'Suspected', description: 'automation without a verifiable identity' },
];

const categoryLabels = {
  ai_training: 'AI training', ai_assistant: 'AI assistant', ai_search: 'AI search', search_engine: 'Search engine',
  automation: 'Automation', seo: 'SEO', monitoring: 'Monitoring', social: 'Social preview', feed: 'Feed reader',
  scanner: 'Security scanner', archiver: 'Archiver',
};
export const categoryLabel = (category) => (category ? categoryLabels[category] ?? category.replace(/_/g, ' ') : null);

/** The crawler filters in the URL → API parameters. */
export function crawlerFilters(query) {
  const filters = {};
  if (query.ai === '1') filters.isAi = true;
  if (actorTypes.some((type) => type.value === query.actorType)) filters.actorType = query.actorType;
  return filters;
}

export function CrawlerAnalyticsPage({ project, query, setQuery }) {
  useTitle(`Crawlers · ${project.name}`);
  const timeZone = project.reportingTimezone || 'UTC';
  const range = resolvePeriod(query, timeZone);
  const comparison = resolveComparison(query);
  const showComparison = comparison.mode !== 'off';
  const filters = crawlerFilters(query);
  const params = { ...reportParams(project.id, query, timeZone), ...filters };
  const loadKey = viewKey(params);
  const interval = intervalFor(params.from, params.to);
  // The split is asked per verification outcome (AI filter kept), whatever actorType is chosen.
  const splitParams = { ...params };
  delete splitParams.actorType;

  const specs = {
    timeline: { key: `${loadKey}|${interval}`, load: () => api.get('/bots/analytics/timeline', { ...params, interval, limit: 8 }) },
    bots: { key: loadKey, load: () => api.get('/bots/analytics/top', { ...params, limit: 25 }) },
    countries: { key: loadKey, load: () => api.get('/bots/analytics/countries', { ...params, limit: 50 }) },
    paths: { key: loadKey, load: () => api.get('/bots/analytics/top-paths', { ...params, limit: 15 }) },
    categories: { key: loadKey, load: () => api.get('/bots/analytics/categories', { ...params, limit: 20 }) },
  };
  for (const type of actorTypes) {
    specs[type.value] = { key: loadKey, load: () => api.get('/bots/analytics/top', { ...splitParams, actorType: type.value, limit: 100 }) };
  }
  const results = useRequests(specs, loadKey);
  const comparisonWindow = results.bots.data?.comparisonWindow ?? null;
  const compared = showComparison && comparisonWindow !== null;

  return html`<div class="report">
    <${PageHeader} title="Crawler analytics" />
    <${PeriodPicker} range=${range} comparison=${comparison} setQuery=${setQuery} comparisonWindow=${comparisonWindow} timeZone=${timeZone} />
    <div class="crawler-filters" role="group" aria-label="Filters">
      <div class="switch-row">
        <input type="checkbox" role="switch" id="ai-only" checked=${filters.isAi === true}
          onChange=${(event) => setQuery({ ai: event.currentTarget.checked ? '1' : null })} />
        <label for="ai-only">AI agents only</label>
      </div>
      <div class="field">
        <label for="actor-type">Verification</label>
        <select id="actor-type" value=${filters.actorType ?? ''} onChange=${(event) => setQuery({ actorType: event.currentTarget.value || null })}>
          <option value="" selected=${!filters.actorType}>All crawlers</option>
          ${actorTypes.map((type) => html`<option value=${type.value} selected=${filters.actorType === type.value}>${type.label}</option>`)}
        </select>
      </div>
    </div>
    <${SplitCards} results=${results} showComparison=${compared} />
    <section class="card" aria-labelledby="crawler-timeline-heading">
      <div class="card-head"><h2 id="crawler-timeline-heading">Requests by vendor</h2></div>
      <${RequestState} result=${results.timeline} label="the timeline">${(data) => html`<${VendorTimeline} data=${data} showComparison=${compared} />`}<//>
    </section>
    <section class="card" aria-labelledby="bots-heading">
      <div class="card-head"><h2 id="bots-heading">Crawlers</h2></div>
      <${RequestState} result=${results.bots} label="the crawlers">${(data) => html`<${BotList} data=${data} results=${results} showComparison=${compared} />`}<//>
    </section>
    <div class="report-grid">
      <${TabbedSection} title="Countries" tabs=${[{ value: 'countries', label: 'Countries' }]} active="countries" onChange=${() => {}}>
        ${() => html`<${RequestState} result=${results.countries} label="countries">${(data) => html`<div class="stack">
          <${LazyWorldMap} label="Crawler requests by country" rows=${data.rows.filter((row) => row.country).map((row) => ({ country: row.country, value: row.requestCount }))} />
          <${BarList} caption="Crawler requests by country" nameLabel="Country" valueLabel="Requests"
            rows=${data.rows.map((row) => ({ key: row.country ?? '', name: countryName(row.country), value: row.requestCount,
              previous: row.previousRequestCount, change: row.percentageChange, extra: { bots: formatNumber(row.botCount) } }))}
            extraColumns=${[{ key: 'bots', label: 'Crawlers' }]} showComparison=${compared} />
        </div>`}<//>`}
      <//>
      <${TabbedSection} title="Paths" tabs=${[{ value: 'paths', label: 'Paths' }]} active="paths" onChange=${() => {}}>
        ${() => html`<${RequestState} result=${results.paths} label="paths">${(data) => html`<${BarList} caption="Crawler requests by path"
          nameLabel="Path" valueLabel="Requests" showComparison=${compared}
          rows=${data.rows.map((row) => ({ key: row.path ?? '', name: row.path, value: row.requestCount, previous: row.previousRequestCount, change: row.percentageChange }))} />`}<//>`}
      <//>
      <${TabbedSection} title="Categories" tabs=${[{ value: 'categories', label: 'Categories' }]} active="categories" onChange=${() => {}}>
        ${() => html`<${RequestState} result=${results.categories} label="categories">${(data) => html`<${BarList} caption="Crawler requests by category"
          nameLabel="Category" valueLabel="Requests" showComparison=${compared}
          rows=${data.rows.map((row) => ({ key: row.category ?? '', name: categoryLabel(row.category), value: row.requestCount, previous: row.previousRequestCount, change: row.percentageChange }))} />`}<//>`}
      <//>
    </div>
  </div>`;
}

function SplitCards({ results, showComparison }) {
  const bots = results.bots.data;
  const metrics = [{ key: 'total', label: 'Requests', value: bots?.totalRequests, previous: bots?.previousTotalRequests,
    change: percentChange(bots?.totalRequests, bots?.previousTotalRequests), format: formatNumber }];
  for (const type of actorTypes) {
    const data = results[type.value].data;
    metrics.push({ key: type.value, label: type.label, value: data?.totalRequests, previous: data?.previousTotalRequests,
      change: percentChange(data?.totalRequests, data?.previousTotalRequests), format: formatNumber, inverse: type.value !== 'verified_bot' });
  }
  const failed = [results.bots, ...actorTypes.map((type) => results[type.value])].find((result) => result.error);
  return html`<${RequestState} result=${failed ?? (bots ? { data: bots, loading: results.bots.loading } : results.bots)} label="the totals">${() => html`
    <${MetricCards} label="Requests by verification" metrics=${metrics} showComparison=${showComparison} />`}<//>`;
}

/** The API's percentage change rule: 100 × (current − previous) / previous, 2 decimals; null from 0. */
export function percentChange(current, previous) {
  if (current === undefined || current === null || !previous) return null;
  return Math.round(((current - previous) / previous) * 10_000) / 100;
}

function VendorTimeline({ data, showComparison }) {
  const series = useMemo(() => data.series.map((line) => ({ label: line.vendor ?? 'Unknown', data: line.data })), [data]);
  const previous = useMemo(() => (showComparison && data.comparisonSeries
    ? { buckets: data.comparisonBuckets, series: data.comparisonSeries.map((line) => ({ label: `${line.vendor ?? 'Unknown'} (previous)`, data: line.data })) }
    : null), [data, showComparison]);
  if (series.length === 0) return html`<p class="muted">No crawler requests in this period.</p>`;
  return html`<${Timeline} label=${`Crawler requests by vendor and ${data.interval}`} buckets=${data.buckets} series=${series} previous=${previous} interval=${data.interval} />`;
}

function BotList({ data, results, showComparison }) {
  // Each bot's requests per verification outcome, from the three split requests.
  const split = {};
  for (const type of actorTypes) {
    for (const row of results[type.value].data?.rows ?? []) {
      const name = `${row.botName ?? ''}\u0000${row.vendor ?? ''}`;
      split[name] = { ...split[name], [type.value]: row.requestCount };
    }
  }
  const rows = data.rows.map((row) => {
    const name = `${row.botName ?? ''}\u0000${row.vendor ?? ''}`;
    const counts = split[name] ?? {};
    return {
      key: name, name: row.botName ?? '(unnamed automation)', value: row.requestCount, previous: row.previousRequestCount, change: row.percentageChange,
      extra: {
        vendor: row.vendor ?? '—',
        category: html`${categoryLabel(row.category) ?? '—'}${row.isAi ? html` <span class="badge">AI</span>` : ''}`,
        ...Object.fromEntries(actorTypes.map((type) => [type.value, formatNumber(counts[type.value] ?? 0)])),
      },
    };
  });
  return html`<${BarList} caption="Crawlers by requests" nameLabel="Crawler" valueLabel="Requests" rows=${rows}
    extraColumns=${[{ key: 'vendor', label: 'Vendor' }, { key: 'category', label: 'Category' },
      ...actorTypes.map((type) => ({ key: type.value, label: type.label }))]}
    showComparison=${showComparison} />`;
}

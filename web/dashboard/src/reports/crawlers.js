// Crawler analytics: requests by vendor over time (the comparison window dashed), the bots with
// their verified / spoofed / suspected split, their robots.txt access on the audited site with
// the requests it disallows, and the visits back from their vendor's AI assistant
// (get_crawler_access), countries, paths and categories, each with the compared window's figures. Filters in the URL: ai=1 (AI agents only), actorType, vendor and
// bot (one crawler, which a row of the crawler list chooses).
import { useMemo } from 'preact/hooks';
import { html } from '../ui/html.js';
import { invalidate, operation, useOperations } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { useProject, useProjectScope } from '../context.js';
import { PageHeader, useTitle } from '../ui/index.js';
import { formatNumber } from '../format.js';
import { categoryLabel } from '../labels.js';
import { MetricCards } from '../charts/metric-cards.js';
import { Timeline } from '../charts/timeline.js';
import { BarList } from '../charts/bar-list.js';
import { comparisonName, intervalFor, reportParams, resolveComparison, resolvePeriod, viewKey } from './period.js';
import { PeriodPicker } from './period-picker.js';
import { useViewReady } from './view-ready.js';
import { crawlerAccess } from './crawler-access.js';
import { FirstRun, LazyWorldMap, RequestError, RequestState, TabbedSection, countryName, shareErrors } from './sections.js';

export const actorTypes = [
  { value: 'verified_bot', label: 'Verified', description: 'the request came from the operator’s published IP ranges or a valid signature' },
  { value: 'spoofed_bot', label: 'Spoofed', description: 'claims a known bot’s user agent but came from elsewhere' },
  { value: 'suspected_bot', label: 'Suspected', description: 'automation without a verifiable identity' },
];


/** The crawler filters in the URL (ai=1, actorType, vendor, bot) → API parameters. */
export function crawlerFilters(query) {
  const filters = {};
  if (query.ai === '1') filters.isAi = true;
  if (actorTypes.some((type) => type.value === query.actorType)) filters.actorType = query.actorType;
  if (typeof query.vendor === 'string' && query.vendor.length > 0 && query.vendor.length <= 200) filters.vendor = query.vendor;
  if (typeof query.bot === 'string' && query.bot.length > 0 && query.bot.length <= 200) filters.botName = query.bot;
  return filters;
}

export function CrawlerAnalyticsPage() {
  const project = useProject();
  const scope = useProjectScope();
  const { query } = useRoute();
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

  const requests = {
    timeline: operation('get_bot_timeline', { ...params, interval, limit: 8 }),
    bots: operation('get_top_bots', { ...params, limit: 25 }),
    countries: operation('get_bot_countries', { ...params, limit: 50 }),
    paths: operation('get_bot_top_paths', { ...params, limit: 15 }),
    categories: operation('get_bot_categories', { ...params, limit: 20 }),
    // The period only: robots.txt and referrals are the crawler's, whatever the filters.
    access: operation('get_crawler_access', reportParams(project.id, query, timeZone)),
  };
  for (const type of actorTypes) {
    // Only the total is read from these (limit 1): the rows carry their own split.
    requests[type.value] = operation('get_top_bots', { ...splitParams, actorType: type.value, limit: 1 });
  }
  const { results, shared: sharedError } = shareErrors(useViewReady(useOperations(requests), loadKey));
  const comparisonWindow = results.bots.data?.comparisonWindow ?? null;
  const compared = showComparison && comparisonWindow !== null;

  return html`<div class="report">
    <${PageHeader} title="Crawler analytics" />
    <${FirstRun} scope=${scope} onLive=${() => invalidate('get_bot_timeline', 'get_top_bots', 'get_bot_countries', 'get_bot_top_paths', 'get_bot_categories')} />
    <${PeriodPicker} range=${range} comparison=${comparison} setQuery=${setQuery} comparisonWindow=${comparisonWindow} timeZone=${timeZone} />
    <${RequestError} error=${sharedError} />
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
      ${filters.vendor && html`<p class="filter-chip">
        <span>Vendor: <strong>${filters.vendor}</strong></span>
        <button type="button" class="btn btn-secondary btn-small" onClick=${() => setQuery({ vendor: null })}>Show all vendors</button>
      </p>`}
      ${filters.botName && html`<p class="filter-chip">
        <span>Crawler: <strong>${filters.botName}</strong></span>
        <button type="button" class="btn btn-secondary btn-small" onClick=${() => setQuery({ bot: null })}>Show all crawlers</button>
      </p>`}
    </div>
    <${SplitCards} results=${results} showComparison=${compared} />
    <section class="card" aria-labelledby="crawler-timeline-heading">
      <div class="card-head"><h2 id="crawler-timeline-heading">Requests by vendor</h2></div>
      <${RequestState} result=${results.timeline} label="the timeline">${(data) => html`<${VendorTimeline} data=${data} showComparison=${compared} comparedName=${comparisonName(comparison.mode)} timeZone=${timeZone} />`}<//>
    </section>
    <section class="card" aria-labelledby="bots-heading">
      <div class="card-head"><h2 id="bots-heading">Crawlers</h2></div>
      <${RequestState} result=${results.bots} label="the crawlers">${(data) => html`<${BotList} data=${data} access=${results.access} showComparison=${compared}
        bot=${filters.botName} onSelectBot=${(bot) => setQuery({ bot: bot === filters.botName ? null : bot })} />`}<//>
    </section>
    <div class="report-grid">
      <${TabbedSection} title="Countries" tabs=${[{ value: 'countries', label: 'Countries' }]} active="countries" onChange=${() => {}}>
        ${() => html`<${RequestState} result=${results.countries} label="countries">${(data) => html`<div class="stack">
          <${LazyWorldMap} label="Crawler requests by country" rows=${data.rows.filter((row) => row.country).map((row) => ({ country: row.country, value: row.requestCount }))} />
          <${BarList} caption="Crawler requests by country" nameLabel="Country" valueLabel="Requests"
            rows=${data.rows.map((row) => ({ key: row.country ?? '', name: countryName(row.country), value: row.requestCount,
              previous: row.previousRequestCount, change: row.percentageChange, absoluteChange: row.absoluteChange, extra: { bots: formatNumber(row.botCount) } }))}
            extraColumns=${[{ key: 'bots', label: 'Crawlers' }]} showComparison=${compared} />
        </div>`}<//>`}
      <//>
      <${TabbedSection} title="Paths" tabs=${[{ value: 'paths', label: 'Paths' }]} active="paths" onChange=${() => {}}>
        ${() => html`<${RequestState} result=${results.paths} label="paths">${(data) => html`<${BarList} caption="Crawler requests by path"
          nameLabel="Path" valueLabel="Requests" showComparison=${compared}
          rows=${data.rows.map((row) => ({ key: row.path ?? '', name: row.path, value: row.requestCount, previous: row.previousRequestCount, change: row.percentageChange, absoluteChange: row.absoluteChange }))} />`}<//>`}
      <//>
      <${TabbedSection} title="Categories" tabs=${[{ value: 'categories', label: 'Categories' }]} active="categories" onChange=${() => {}}>
        ${() => html`<${RequestState} result=${results.categories} label="categories">${(data) => html`<${BarList} caption="Crawler requests by category"
          nameLabel="Category" valueLabel="Requests" showComparison=${compared}
          rows=${data.rows.map((row) => ({ key: row.category ?? '', name: categoryLabel(row.category), value: row.requestCount, previous: row.previousRequestCount, change: row.percentageChange, absoluteChange: row.absoluteChange }))} />`}<//>`}
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

/**
 * The top vendors' requests stacked, the rest as "Other" (every vendor's totals less theirs),
 * and the comparison window as one dashed line of all crawlers' requests.
 */
export function stackedVendors(data) {
  const series = data.series.map((line) => ({ label: line.vendor ?? 'Unknown', data: line.data }));
  const other = (data.totals ?? []).map((total, index) => total - series.reduce((sum, line) => sum + (line.data[index] ?? 0), 0));
  if (other.some((value) => value > 0)) series.push({ label: 'Other', data: other, muted: true });
  return series;
}

function VendorTimeline({ data, showComparison, comparedName, timeZone }) {
  const series = useMemo(() => stackedVendors(data), [data]);
  const previous = useMemo(() => (showComparison && data.comparisonTotals
    ? { buckets: data.comparisonBuckets, series: [{ label: `All crawlers (${comparedName})`, data: data.comparisonTotals }] }
    : null), [data, showComparison, comparedName]);
  if (series.length === 0) return html`<p class="muted">No crawler requests in this period.</p>`;
  return html`<${Timeline} label=${`Crawler requests by vendor and ${data.interval}`} buckets=${data.buckets} series=${series} previous=${previous}
    interval=${data.interval} timeZone=${timeZone} stacked=${true} />`;
}

function referralCell(referral) {
  if (!referral) return html`<span class="muted" title="The vendor runs no AI assistant that sends visits">—</span>`;
  return html`<span title=${`Visits from ${referral.assistant} in this period`}>${formatNumber(referral.visits)} <span class="muted">from ${referral.assistant}</span></span>`;
}

function robotsCell(robots, audited) {
  if (!robots) return html`<span class="muted" title=${audited ? 'Did not request the audited site' : 'No site audit has read robots.txt yet'}>—</span>`;
  const violations = robots.disallowed > 0 ? html`, <strong>${formatNumber(robots.disallowed)}</strong> disallowed` : '';
  return html`<span title=${robots.title}>${robots.label}${violations}</span>`;
}

function BotList({ data, access, showComparison, bot, onSelectBot }) {
  const joined = crawlerAccess(access.data);
  // Still loading: an ellipsis; failed: a dash (the rest of the row stands).
  const pending = !access.data && !access.error;
  const rows = data.rows.map((row) => ({
    key: `${row.botName ?? ''}\u0000${row.vendor ?? ''}`, name: row.botName ?? '(unnamed automation)', botName: row.botName,
    selectable: Boolean(row.botName),
    value: row.requestCount, previous: row.previousRequestCount, change: row.percentageChange, absoluteChange: row.absoluteChange,
    extra: {
      // The vendor over its kind of crawler, so the name keeps most of the width.
      vendor: html`${row.vendor ?? '—'}<span class="cell-note">${categoryLabel(row.category) ?? ''}${row.isAi ? html` <span class="badge">AI</span>` : ''}</span>`,
      verified_bot: formatNumber(row.verifiedRequestCount ?? 0),
      spoofed_bot: formatNumber(row.spoofedRequestCount ?? 0),
      suspected_bot: formatNumber(row.suspectedRequestCount ?? 0),
      robots: pending ? '…' : robotsCell(joined.robots(row.botName), joined.audited),
      visits: pending ? '…' : referralCell(joined.visits(row.vendor)),
    },
  }));
  // A row filters the whole page to that crawler (again: back to all); nameless automation has
  // no name to filter by.
  return html`<${BarList} caption="Crawlers by requests" nameLabel="Crawler" valueLabel="Requests" rows=${rows}
    extraColumns=${[{ key: 'vendor', label: 'Vendor', text: true },
      ...actorTypes.map((type) => ({ key: type.value, label: type.label })),
      { key: 'robots', label: 'robots.txt', text: true }, { key: 'visits', label: 'Visits back', text: true }]}
    showComparison=${showComparison} isSelected=${(row) => Boolean(bot) && row.botName === bot}
    onSelect=${(row) => onSelectBot(row.botName)} />`;
}

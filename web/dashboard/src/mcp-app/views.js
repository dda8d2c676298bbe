// Which report a tool result is, told apart by the shape of its structuredContent, and how to
// show it with the dashboard's charts. No api.js here: the host runs every tool call.
import { html } from '../ui/html.js';
import { formatDuration, formatNumber, formatPercent } from '../format.js';
import { MetricCards } from '../charts/metric-cards.js';
import { Timeline } from '../charts/timeline.js';
import { BarList } from '../charts/bar-list.js';
import { BrandTable, LoopChart, LoopTable, VisibilityCards } from '../charts/visibility.js';
import { AiCrawlerVerdicts, RuleGroups, SeverityCards, SiteFacts } from '../charts/site-audit.js';

/** The tool behind each kind of result (to call it again for another period). */
export const toolOfKind = {
  webAnalytics: 'get_web_analytics',
  webTimeline: 'get_web_timeline',
  webBreakdown: 'get_web_breakdown',
  botTimeline: 'get_bot_timeline',
  topBots: 'get_top_bots',
  aiVisibility: 'get_ai_visibility',
  aiVisibilityLoop: 'get_ai_visibility_loop',
  siteAuditSummary: 'get_site_audit_summary',
  query: 'query',
};

/** Kinds without the period picker: another crawl is another call, and a query's period is its
 * own `date_range` (the model asks again with another). */
export const periodlessKinds = new Set(['siteAuditSummary', 'query']);

/** The kind of report a structuredContent holds, or null. */
export function kindOf(content) {
  if (!content || typeof content !== 'object') return null;
  if (content.crawl && typeof content.crawl === 'object' && Array.isArray(content.rules)) return 'siteAuditSummary';
  if (Array.isArray(content.results) && content.query && typeof content.query === 'object') return 'query';
  if (Array.isArray(content.brands) && content.answers && typeof content.answers === 'object') return 'aiVisibility';
  if (Array.isArray(content.pages) && Array.isArray(content.series?.citations)) return 'aiVisibilityLoop';
  if (content.metrics && typeof content.metrics === 'object') return 'webAnalytics';
  if (Array.isArray(content.points) && Array.isArray(content.buckets)) return 'webTimeline';
  if (typeof content.dimension === 'string' && Array.isArray(content.rows)) return 'webBreakdown';
  if (Array.isArray(content.series) && Array.isArray(content.buckets) && !('dimension' in content)) return 'botTimeline';
  if (Array.isArray(content.rows) && 'totalRequests' in content) return 'topBots';
  return null;
}

const metricDefinitions = [
  { key: 'visitors', label: 'Visitors', format: formatNumber },
  { key: 'visits', label: 'Visits', format: formatNumber },
  { key: 'pageviews', label: 'Pageviews', format: formatNumber },
  { key: 'viewsPerVisit', label: 'Views per visit', format: (value) => formatNumber(value, { maximumFractionDigits: 2 }) },
  { key: 'bounceRate', label: 'Bounce rate', format: (value) => formatPercent(value / 100), points: true, inverse: true },
  { key: 'visitDuration', label: 'Visit duration', format: formatDuration },
  { key: 'events', label: 'Events', format: formatNumber },
];

/** A query metric's value as the dashboard writes it: rates in percent, durations as time. */
function formatQueryValue(metric, value) {
  if (value === null || value === undefined) return '–';
  if (metric === 'bounce_rate' || metric === 'percentage') return formatPercent(value / 100);
  if (metric === 'visit_duration' || metric === 'time_on_page') return formatDuration(value * 1000);
  return formatNumber(value, { maximumFractionDigits: 2 });
}

/** A `query` answer as a table: one column per dimension, then one per metric (with the
 * previous value when the query compared). */
function QueryTable({ content }) {
  const { dimensions, metrics } = content.query;
  const compared = content.results.some((row) => row.comparison);
  return html`<table class="mcp-table" data-query>
    <caption>${metrics.join(', ')}${dimensions.length ? ` by ${dimensions.join(', ')}` : ''}</caption>
    <thead><tr>
      ${dimensions.map((name) => html`<th scope="col" key=${name}>${name}</th>`)}
      ${metrics.map((name) => html`<th scope="col" class="num" key=${name}>${name}${compared ? ' (previous)' : ''}</th>`)}
    </tr></thead>
    <tbody>${content.results.map((row, index) => html`<tr key=${index}>
      ${row.dimensions.map((value, column) => html`<th scope="row" key=${column}>${value === '' ? '(none)' : value}</th>`)}
      ${row.metrics.map((value, column) => html`<td key=${column} data-cell=${`${index}:${metrics[column]}`}>
        ${formatQueryValue(metrics[column], value)}${row.comparison ? ` (${formatQueryValue(metrics[column], row.comparison.metrics[column])})` : ''}</td>`)}
    </tr>`)}</tbody>
  </table>`;
}

/** Renders one report. */
export function ReportView({ content }) {
  const kind = kindOf(content);
  const compared = Boolean(content?.comparisonWindow);
  if (kind === 'webAnalytics') {
    return html`<${MetricCards} label="Web analytics" showComparison=${compared}
      metrics=${metricDefinitions.map((metric) => ({ ...metric, ...content.metrics[metric.key] }))} />`;
  }
  if (kind === 'webTimeline') {
    const series = ['visitors', 'pageviews'].map((key) => ({ label: key === 'visitors' ? 'Visitors' : 'Pageviews', data: content.points.map((point) => point[key]) }));
    const previous = compared && content.previousPeriod
      ? { buckets: content.previousPeriod.buckets, series: ['visitors', 'pageviews'].map((key) => ({ label: `${key === 'visitors' ? 'Visitors' : 'Pageviews'} (previous)`, data: content.previousPeriod.points.map((point) => point[key]) })) }
      : null;
    return html`<${Timeline} label="Visitors and pageviews" buckets=${content.buckets} series=${series} previous=${previous} interval=${content.interval} />`;
  }
  if (kind === 'webBreakdown') {
    return html`<${BarList} caption=${`Breakdown by ${content.dimension.replace(/_/g, ' ')}`} showCaption nameLabel=${content.dimension.replace(/_/g, ' ')}
      valueLabel="Count" showComparison=${compared}
      rows=${content.rows.map((row) => ({ key: row.value ?? '', name: row.value, value: row.count, previous: row.previousCount, change: row.percentageChange }))} />`;
  }
  if (kind === 'botTimeline') {
    const series = content.series.map((line) => ({ label: line.vendor ?? 'Unknown', data: line.data }));
    const previous = compared && content.comparisonSeries
      ? { buckets: content.comparisonBuckets, series: content.comparisonSeries.map((line) => ({ label: `${line.vendor ?? 'Unknown'} (previous)`, data: line.data })) }
      : null;
    return html`<${Timeline} label="Crawler requests by vendor" buckets=${content.buckets} series=${series} previous=${previous} interval=${content.interval} />`;
  }
  if (kind === 'topBots') {
    return html`<${BarList} caption="Crawlers by requests" showCaption nameLabel="Crawler" valueLabel="Requests" showComparison=${compared}
      rows=${content.rows.map((row) => ({ key: `${row.botName}/${row.vendor}`, name: row.botName ?? '(unnamed automation)', value: row.requestCount,
        previous: row.previousRequestCount, change: row.percentageChange }))} />`;
  }
  if (kind === 'aiVisibility') {
    return html`<div class="mcp-stack">
      <${VisibilityCards} report=${content} showComparison=${compared} />
      <${BrandTable} brands=${content.brands} caption="Brand visibility (share of answers mentioning each brand, 95% interval)" showCaption showComparison=${compared} />
      ${content.groupBy && (content.groups ?? []).map((group) => html`<${BrandTable} key=${group.key} brands=${group.brands}
        caption=${`${content.groupBy[0].toUpperCase()}${content.groupBy.slice(1)}: ${group.label}`} showCaption showComparison=${false} />`)}
    </div>`;
  }
  if (kind === 'aiVisibilityLoop') {
    return html`<div class="mcp-stack">
      <${LoopChart} report=${content} showComparison=${compared} />
      <${LoopTable} pages=${content.pages} showComparison=${compared} />
    </div>`;
  }
  if (kind === 'siteAuditSummary') {
    const crawl = content.crawl ?? {};
    const finished = crawl.status === 'completed' || crawl.status === 'cancelled' || crawl.status === 'failed';
    return html`<div class="mcp-stack">
      ${!finished && html`<p class="muted">The crawl is ${crawl.status ?? 'in progress'}: the issues appear when it finishes.</p>`}
      <${SeverityCards} summary=${content} />
      <${RuleGroups} rules=${content.rules} showChanges=${Boolean(crawl.previousCrawlId)} />
      <${SiteFacts} site=${content.site} />
      <${AiCrawlerVerdicts} site=${content.site} caption="AI crawlers under robots.txt" showCaption />
    </div>`;
  }
  if (kind === 'query') return html`<${QueryTable} content=${content} />`;
  return html`<p class="muted">This result cannot be shown as a chart.</p>`;
}

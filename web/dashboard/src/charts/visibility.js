// The AI-visibility report's pieces, shared by the dashboard page, the assistant and the MCP App
// (no router, no api.js): a rate with its 95% interval drawn as a bar with a whisker, the
// headline cards, the brand table, and the loop (citations → AI-crawler fetches → visits).
// Rates are fractions of one (0.5 = 50%); a change is flagged only when the server says it is
// beyond the samples' noise (change.significant).
import { useMemo } from 'preact/hooks';
import { html } from '../ui/html.js';
import { formatNumber, formatPercent, formatPoints } from '../format.js';
import { Timeline } from './timeline.js';
import { BarList } from './bar-list.js';
import { Change } from './change.js';
import { crawlerCategoryLabels } from '../labels.js';

const isMissing = (value) => value === null || value === undefined || Number.isNaN(value);

/** "15% – 85%": a 95% interval of a rate. */
export function formatInterval(interval) {
  if (!interval || isMissing(interval.low) || isMissing(interval.high)) return '—';
  return `${formatPercent(interval.low)} – ${formatPercent(interval.high)}`;
}

/** A rate as a bar with its 95% interval as a whisker; the figures are text beside it. */
export function RateBar({ value, interval, id }) {
  const clamp = (fraction) => Math.max(0, Math.min(100, (fraction ?? 0) * 100));
  const low = clamp(interval?.low);
  const high = clamp(interval?.high);
  return html`<span class="rate">
    <span class="rate-track" aria-hidden="true">
      <span class="rate-fill" style=${{ width: `${clamp(value)}%` }}></span>
      ${interval && html`<span class="rate-whisker" style=${{ left: `${low}%`, width: `${Math.max(0, high - low)}%` }}></span>`}
    </span>
    <span class="rate-text"><span class="rate-value" data-rate=${id}>${formatPercent(value)}</span>
      ${interval && html` <span class="rate-interval muted"><span class="visually-hidden">95% interval </span><span data-interval=${id}>${formatInterval(interval)}</span></span>`}</span>
  </span>`;
}

/**
 * A change of a rate between the windows ({difference, interval, significant}, fractions):
 * "+12.5 pp" with the colours of a real change only when significant, else "within noise".
 */
export function RateChange({ change, id }) {
  if (!change) return html`<span class="muted">—</span>`;
  const points = change.difference * 100;
  if (!change.significant) {
    return html`<span class="rate-change" data-change=${id} data-significant="false">
      <span class="change change-neutral">${formatPoints(points)}</span>
      <span class="noise">within noise</span>
    </span>`;
  }
  return html`<span class="rate-change" data-change=${id} data-significant="true">
    <${Change} value=${points} points />
    <span class="badge badge-significant">significant</span>
    <span class="visually-hidden">95% interval of the change ${formatPoints(change.interval.low * 100)} to ${formatPoints(change.interval.high * 100)}</span>
  </span>`;
}

/** The headline figures of get_ai_visibility: answers, citation rate, owned-citation rate. */
export function VisibilityCards({ report, showComparison = true }) {
  const now = report.answers;
  // No answers in the compared window: its rates are not 0%, they do not exist.
  const before = showComparison && report.previousAnswers?.answers > 0 ? report.previousAnswers : null;
  const cards = [
    { key: 'answers', label: 'Answers', value: formatNumber(now.answers), previous: showComparison && report.previousAnswers ? formatNumber(report.previousAnswers.answers) : null,
      note: `${formatNumber(now.citedAnswers)} with citations` },
    { key: 'citationRate', label: 'Citation rate', value: formatPercent(now.citationRate), interval: now.citationInterval,
      previous: before ? formatPercent(before.citationRate) : null, change: showComparison ? report.citationChange : null },
    { key: 'ownedCitationRate', label: 'Owned-citation rate', value: formatPercent(now.ownedCitationRate), interval: now.ownedCitationInterval,
      previous: before ? formatPercent(before.ownedCitationRate) : null,
      note: `${formatNumber(now.ownedCitedAnswers)} ${now.ownedCitedAnswers === 1 ? 'answer cites' : 'answers cite'} your domains` },
  ];
  return html`<ul class="metric-cards" aria-label="AI visibility summary">
    ${cards.map((card) => html`<li key=${card.key}><div class="metric-card">
      <span class="metric-label">${card.label}</span>
      <span class="metric-value" data-metric=${card.key}>${card.value}</span>
      ${card.interval && html`<span class="metric-interval muted">95% interval <span data-interval=${card.key}>${formatInterval(card.interval)}</span></span>`}
      ${card.note && html`<span class="muted small">${card.note}</span>`}
      ${showComparison && html`<span class="metric-compare">
        ${card.change !== undefined && html`<${RateChange} change=${card.change} id=${card.key} />`}
        <span class="metric-previous muted">Previous: <span data-previous=${card.key}>${card.previous ?? '—'}</span></span>
      </span>`}
    </div></li>`)}
  </ul>`;
}

const formatPosition = (value) => (isMissing(value) ? '—' : formatNumber(value, { maximumFractionDigits: 1 }));
const formatSentiment = (value) => (isMissing(value) ? '—' : formatNumber(value, { maximumFractionDigits: 0 }));

/**
 * The brands of get_ai_visibility (or of one of its groups): visibility with its interval,
 * share of voice, average position, sentiment, recommended rate, and the change.
 */
export function BrandTable({ brands, caption = 'Visibility per brand', showCaption = false, showComparison = true }) {
  return html`<div class="table-wrap brand-table" role="region" aria-label=${caption} tabindex="0">
    <table>
      <caption class=${showCaption ? '' : 'visually-hidden'}>${caption}</caption>
      <thead><tr>
        <th scope="col">Brand</th>
        <th scope="col" class="col-visibility">Visibility (95% interval)</th>
        <th scope="col" class="num">Mentioned</th>
        <th scope="col" class="num">Share of voice</th>
        <th scope="col" class="num">Avg. position</th>
        <th scope="col" class="num">Sentiment</th>
        <th scope="col" class="num">Recommended</th>
        ${showComparison && html`<th scope="col" class="num">Previous</th><th scope="col">Change</th>`}
      </tr></thead>
      <tbody>
        ${brands.length === 0 && html`<tr><td colspan=${showComparison ? 9 : 7} class="empty">No answers in this period.</td></tr>`}
        ${brands.map((brand) => html`<tr key=${brand.brandId} data-brand=${brand.brandId}>
          <th scope="row" class="tracked-brand">${brand.name}${brand.own ? html` <span class="badge badge-own">yours</span>` : ''}</th>
          <td><${RateBar} value=${brand.visibility} interval=${brand.interval} id=${brand.brandId} /></td>
          <td class="num">${formatNumber(brand.mentioned)} / ${formatNumber(brand.answers)}</td>
          <td class="num" data-sov=${brand.brandId}>${formatPercent(brand.shareOfVoice)}</td>
          <td class="num" data-position=${brand.brandId}>${formatPosition(brand.averagePosition)}</td>
          <td class="num">${formatSentiment(brand.sentiment)}</td>
          <td class="num">${isMissing(brand.recommendedRate) ? '—' : formatPercent(brand.recommendedRate)}</td>
          ${showComparison && html`<td class="num">${brand.previous && brand.previous.answers > 0 ? formatPercent(brand.previous.visibility) : '—'}</td>
            <td><${RateChange} change=${brand.change} id=${brand.brandId} /></td>`}
        </tr>`)}
      </tbody>
    </table>
  </div>`;
}

/** {"ai_training": 3, "OpenAI": 2} → "training 3 · search 2" (largest first). */
export function formatCounts(counts, labels = {}) {
  const entries = Object.entries(counts ?? {}).filter(([, count]) => count > 0).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return '—';
  return entries.map(([key, count]) => `${labels[key] ?? key.replace(/_/g, ' ')} ${formatNumber(count)}`).join(' · ');
}

/**
 * A counts cell that stays two lines high however many vendors a page has: the two largest, then
 * "+N more", the whole list in the tooltip.
 */
function TopCounts({ counts, labels = {}, top = 2 }) {
  const entries = Object.entries(counts ?? {}).filter(([, count]) => count > 0);
  const shown = Object.fromEntries(entries.sort((a, b) => b[1] - a[1]).slice(0, top));
  const rest = entries.length - top;
  return html`<span class="counts" title=${rest > 0 ? formatCounts(counts, labels) : undefined}>${formatCounts(shown, labels)}${rest > 0
    ? html` <span class="muted">+${rest} more</span>` : ''}</span>`;
}

const percentChange = (current, previous) => (isMissing(current) || !previous ? null : Math.round(((current - previous) / previous) * 10_000) / 100);

/**
 * The loop's pages (get_ai_visibility_loop): per owned page, citations in tracked answers, AI
 * crawler fetches (verified, spoofed, by purpose and vendor) and visits from AI assistants.
 * onSelect(path) makes the paths buttons (the page filters the chart by it).
 */
export function LoopTable({ pages, showComparison = true, onSelect, selectedPath }) {
  const rows = pages.map((page) => ({
    key: page.path, name: page.path, value: page.citations,
    previous: showComparison ? page.previous?.citations ?? null : null,
    change: showComparison ? percentChange(page.citations, page.previous?.citations) : null,
    extra: {
      answers: formatNumber(page.citingAnswers),
      fetches: html`<span data-fetches=${page.path}>${formatNumber(page.fetches)}</span>`,
      verified: html`<span data-verified=${page.path}>${formatNumber(page.verifiedFetches)}</span>${page.spoofedFetches > 0
        ? html`<span class="change-absolute">${formatNumber(page.spoofedFetches)} spoofed</span>` : ''}${page.unverifiedFetches > 0
        ? html`<span class="change-absolute">${formatNumber(page.unverifiedFetches)} unverified</span>` : ''}`,
      purposes: html`<${TopCounts} counts=${page.fetchesByPurpose} labels=${crawlerCategoryLabels} />`,
      vendors: html`<${TopCounts} counts=${page.fetchesByVendor} />`,
      visits: html`<span data-visits=${page.path}>${formatNumber(page.visits)}</span>${page.previous && showComparison
        ? html`<span class="change-absolute">prev. ${formatNumber(page.previous.visits)}</span>` : ''}`,
      sources: html`<${TopCounts} counts=${page.visitsBySource} />`,
    },
  }));
  return html`<div class="loop-table"><${BarList} caption="The loop: owned pages cited, fetched and visited" nameLabel="Page" valueLabel="Citations"
    rows=${rows} showComparison=${showComparison} empty="No owned page was cited, fetched by an AI crawler or visited from an AI assistant in this period."
    extraColumns=${[{ key: 'answers', label: 'Citing answers' }, { key: 'fetches', label: 'AI fetches' }, { key: 'verified', label: 'Verified' },
      { key: 'purposes', label: 'By purpose' }, { key: 'vendors', label: 'By vendor' }, { key: 'visits', label: 'AI visits' }, { key: 'sources', label: 'From' }]}
    onSelect=${onSelect ? (row) => onSelect(row.key) : undefined} selectedKey=${selectedPath ?? undefined} /></div>`;
}

const loopSeries = [
  { key: 'citations', label: 'Citations' },
  { key: 'fetches', label: 'AI-crawler fetches' },
  { key: 'visits', label: 'Visits from AI assistants' },
];

/** The loop over time: citations, fetches and visits, the comparison window dashed. */
export function LoopChart({ report, showComparison = true, comparedName = 'previous' }) {
  // New arrays on every render would redraw the chart: keep them while the report is the same.
  const series = useMemo(() => loopSeries.map((line) => ({ label: line.label, data: report.series?.[line.key] ?? [] })), [report]);
  const previous = useMemo(() => (showComparison && report.comparisonSeries
    ? { buckets: report.comparisonBuckets ?? [], series: loopSeries.map((line) => ({ label: `${line.label} (${comparedName})`, data: report.comparisonSeries[line.key] ?? [] })) }
    : null), [report, showComparison, comparedName]);
  return html`<${Timeline} label=${`The loop${report.path ? ` for ${report.path}` : ''} by ${report.interval}`} buckets=${report.buckets ?? []}
    series=${series} previous=${previous} interval=${report.interval} />`;
}

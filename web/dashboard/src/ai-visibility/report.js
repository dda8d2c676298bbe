// The AI-visibility reports: the overview (get_ai_visibility with groupBy, get_ai_visibility_sources,
// get_ai_visibility_gaps) and the loop (get_ai_visibility_loop), with the web analytics page's
// period picker. All requests of a view start together (useOperations).
import { html } from '../ui/html.js';
import { operation, useOperations } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { useProject } from '../context.js';
import { formatNumber, formatPercent } from '../format.js';
import { BarList } from '../charts/bar-list.js';
import { BrandTable, LoopChart, LoopTable, RateBar, VisibilityCards, formatInterval } from '../charts/visibility.js';
import { comparisonName, intervalFor, reportParams, resolveComparison, resolvePeriod, viewKey } from '../reports/period.js';
import { PeriodPicker } from '../reports/period-picker.js';
import { useViewReady } from '../reports/view-ready.js';
import { RequestError, RequestState, TabbedSection, shareErrors } from '../reports/sections.js';

export const groupTabs = [
  { value: 'engine', label: 'By engine', name: 'Engine' },
  { value: 'topic', label: 'By topic', name: 'Topic' },
  { value: 'prompt', label: 'By prompt', name: 'Prompt' },
];
const sourceTabs = [{ value: 'domain', label: 'Domains', name: 'Domain' }, { value: 'page', label: 'Pages', name: 'Page' }];

/** The period, comparison and report filters of the URL. */
function usePeriod(project, query) {
  const timeZone = project.reportingTimezone || 'UTC';
  const range = resolvePeriod(query, timeZone);
  const comparison = resolveComparison(query);
  const params = reportParams(project.id, query, timeZone);
  return { timeZone, range, comparison, params, showComparison: comparison.mode !== 'off' };
}

export function OverviewTab({ config }) {
  const project = useProject();
  const { query } = useRoute();
  const { timeZone, range, comparison, params, showComparison } = usePeriod(project, query);
  const filters = {};
  if (config.engines.some((engine) => engine.id === query.engineId)) filters.engineId = query.engineId;
  const topics = [...new Set(config.prompts.map((prompt) => prompt.topic).filter(Boolean))].sort();
  if (topics.includes(query.topic)) filters.topic = query.topic;
  const reportArgs = { ...params, ...filters };
  const loadKey = viewKey(reportArgs);
  const groupBy = groupTabs.some((tab) => tab.value === query.groupBy) ? query.groupBy : 'engine';
  const by = query.sources === 'page' ? 'page' : 'domain';
  const requests = {
    report: operation('get_ai_visibility', { ...reportArgs, groupBy }),
    sources: operation('get_ai_visibility_sources', { ...reportArgs, by, limit: 20 }),
    gaps: operation('get_ai_visibility_gaps', reportArgs),
  };
  const { results, shared } = shareErrors(useViewReady(useOperations(requests), loadKey));
  const comparisonWindow = results.report.data?.comparisonWindow ?? null;
  const compared = showComparison && comparisonWindow !== null;

  return html`
    <${PeriodPicker} range=${range} comparison=${comparison} setQuery=${setQuery} comparisonWindow=${comparisonWindow} timeZone=${timeZone} />
    <div class="crawler-filters" role="group" aria-label="Filters">
      <div class="field">
        <label for="aiv-engine">Engine</label>
        <select id="aiv-engine" onChange=${(event) => setQuery({ engineId: event.currentTarget.value || null })}>
          <option value="" selected=${!filters.engineId}>All engines</option>
          ${config.engines.map((engine) => html`<option value=${engine.id} selected=${engine.id === filters.engineId}>${engine.name}</option>`)}
        </select>
      </div>
      ${topics.length > 0 && html`<div class="field">
        <label for="aiv-topic">Topic</label>
        <select id="aiv-topic" onChange=${(event) => setQuery({ topic: event.currentTarget.value || null })}>
          <option value="" selected=${!filters.topic}>All topics</option>
          ${topics.map((topic) => html`<option value=${topic} selected=${topic === filters.topic}>${topic}</option>`)}
        </select>
      </div>`}
    </div>
    <${RequestError} error=${shared} />
    <${RequestState} result=${results.report} label="the summary">${(data) => html`<${VisibilityCards} report=${data} showComparison=${compared} />`}<//>
    <section class="card" aria-labelledby="aiv-brands-heading">
      <div class="card-head"><div>
        <h2 id="aiv-brands-heading">Brand visibility</h2>
        <p class="muted">The share of answers that mention each brand, with its 95% interval (the whisker). A change is
          flagged only when it is beyond the noise of the samples.</p>
      </div></div>
      <${RequestState} result=${results.report} label="the brands">${(data) => html`<${BrandTable} brands=${data.brands} showComparison=${compared} />`}<//>
    </section>
    <${TabbedSection} title="Breakdown" tabs=${groupTabs} active=${groupBy}
      onChange=${(value) => setQuery({ groupBy: value === 'engine' ? null : value }, { replace: true })}>
      ${(active) => html`<${RequestState} result=${results.report} label="the breakdown">${(data) => html`<${GroupTable}
        groups=${data.groups ?? []} brands=${data.brands} name=${groupTabs.find((tab) => tab.value === active).name} />`}<//>`}
    <//>
    <${TabbedSection} title="Cited sources" tabs=${sourceTabs} active=${by}
      onChange=${(value) => setQuery({ sources: value === 'domain' ? null : value }, { replace: true })}>
      ${(active) => html`<${RequestState} result=${results.sources} label="the sources">${(data) => html`<${SourceList}
        data=${data} by=${active} showComparison=${compared} brands=${config.brands} />`}<//>`}
    <//>
    <section class="card" aria-labelledby="aiv-gaps-heading">
      <div class="card-head"><div>
        <h2 id="aiv-gaps-heading">Prompt gaps</h2>
        <p class="muted">Prompts whose answers mention competitors but never your brand.</p>
      </div></div>
      <${RequestState} result=${results.gaps} label="the gaps">${(data) => html`<${GapList} gaps=${data.gaps} />`}<//>
    </section>`;
}

/** One row per group (engine, topic or prompt): answers, citation rate and each brand's visibility. */
function GroupTable({ groups, brands, name }) {
  const columns = brands.map((brand) => ({ id: brand.brandId, name: brand.name }));
  return html`<div class="table-wrap group-table" role="region" aria-label=${`Visibility by ${name.toLowerCase()}`} tabindex="0">
    <table>
      <caption class="visually-hidden">Visibility by ${name.toLowerCase()}</caption>
      <thead><tr>
        <th scope="col">${name}</th><th scope="col" class="num">Answers</th><th scope="col">Citation rate</th>
        ${columns.map((column) => html`<th scope="col">${column.name}</th>`)}
      </tr></thead>
      <tbody>
        ${groups.length === 0 && html`<tr><td colspan=${3 + columns.length} class="empty">No answers in this period.</td></tr>`}
        ${groups.map((group) => html`<tr key=${group.key} data-group=${group.key}>
          <th scope="row" class="group-label" title=${group.label}>${group.label || '(none)'}</th>
          <td class="num">${formatNumber(group.answers.answers)}</td>
          <td><${RateBar} value=${group.answers.citationRate} interval=${group.answers.citationInterval} id=${`${group.key}:citations`} /></td>
          ${columns.map((column) => {
            const brand = group.brands.find((item) => item.brandId === column.id);
            return html`<td>${brand ? html`<${RateBar} value=${brand.visibility} interval=${brand.interval} id=${`${group.key}:${column.id}`} />` : '—'}</td>`;
          })}
        </tr>`)}
      </tbody>
    </table>
  </div>`;
}

function SourceList({ data, by, showComparison, brands }) {
  const brandName = (id) => brands.find((brand) => brand.id === id)?.name;
  const rows = data.sources.map((source) => ({
    key: source.value, name: source.value, value: source.citations,
    previous: source.previousCitations, change: source.percentageChange, absoluteChange: source.absoluteChange,
    extra: {
      answers: formatNumber(source.answers),
      brand: html`<span data-source-owner=${source.value}>${source.owned ? html`<span class="badge badge-own">yours</span>` : brandName(source.brandId) ?? '—'}</span>`,
    },
  }));
  return html`<${BarList} caption=${`Cited ${by === 'page' ? 'pages' : 'domains'}`} nameLabel=${by === 'page' ? 'Page' : 'Domain'}
    valueLabel="Citations" rows=${rows} extraColumns=${[{ key: 'answers', label: 'Answers' }, { key: 'brand', label: 'Brand', text: true }]}
    showComparison=${showComparison} empty="No citations in this period." />`;
}

function GapList({ gaps }) {
  if (gaps.length === 0) return html`<p class="muted">No gaps: every prompt that mentions a competitor mentions your brand too.</p>`;
  return html`<ul class="gap-list">
    ${gaps.map((gap) => html`<li key=${gap.promptId} data-gap=${gap.promptId}>
      <p class="gap-prompt"><strong>${gap.text}</strong>${gap.topic && html` <span class="badge">${gap.topic}</span>`}
        <span class="muted small"> · ${formatNumber(gap.answers)} answers</span></p>
      <ul class="gap-competitors" aria-label=${`Competitors mentioned for “${gap.text}”`}>
        ${gap.competitors.map((competitor) => html`<li key=${competitor.brandId}>${competitor.name}${' '}
          <span class="muted">${formatPercent(competitor.visibility)} (${formatInterval(competitor.interval)})</span></li>`)}
      </ul>
    </li>`)}
  </ul>`;
}

export function LoopTab() {
  const project = useProject();
  const { query } = useRoute();
  const { timeZone, range, comparison, params, showComparison } = usePeriod(project, query);
  const interval = { hour: 'day' }[intervalFor(params.from, params.to)] ?? intervalFor(params.from, params.to);
  const path = typeof query.path === 'string' && query.path.startsWith('/') ? query.path : null;
  const loadKey = viewKey({ ...params, path });
  const requests = {
    chart: operation('get_ai_visibility_loop', { ...params, interval, path, limit: 1 }),
    pages: operation('get_ai_visibility_loop', { ...params, interval, limit: 50 }),
  };
  const { results, shared } = shareErrors(useViewReady(useOperations(requests), loadKey));
  const comparisonWindow = results.pages.data?.comparisonWindow ?? null;
  const compared = showComparison && comparisonWindow !== null;
  return html`
    <${PeriodPicker} range=${range} comparison=${comparison} setQuery=${setQuery} comparisonWindow=${comparisonWindow} timeZone=${timeZone} />
    <${RequestError} error=${shared} />
    <p class="muted loop-intro">For each of your pages: how often tracked AI answers cite it, how often AI crawlers fetch it
      (verified against the operators' published addresses, or spoofed), and how many visits arrive from AI assistants.</p>
    ${path && html`<p class="filter-chip"><span>Page: <strong>${path}</strong></span>
      <button type="button" class="btn btn-secondary btn-small" onClick=${() => setQuery({ path: null })}>Show all pages</button></p>`}
    <section class="card" aria-labelledby="aiv-loop-chart-heading">
      <div class="card-head"><h2 id="aiv-loop-chart-heading">Citations, fetches and visits${path ? ` of ${path}` : ''}</h2></div>
      <${RequestState} result=${results.chart} label="the chart">${(data) => html`<${LoopChart} report=${data} showComparison=${compared}
        comparedName=${comparisonName(comparison.mode)} />`}<//>
    </section>
    <section class="card" aria-labelledby="aiv-loop-pages-heading">
      <div class="card-head"><h2 id="aiv-loop-pages-heading">Your pages</h2></div>
      <${RequestState} result=${results.pages} label="the pages">${(data) => html`<${LoopTable} pages=${data.pages} showComparison=${compared}
        selectedPath=${path} onSelect=${(selected) => setQuery({ path: selected === path ? null : selected })} />`}<//>
    </section>`;
}

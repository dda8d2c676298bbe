// Robots vs traffic (get_robots_traffic_report): the site's robots.txt set against the AI-crawler
// requests this project's crawler analytics observed, with the report pages' period picker and
// comparison. Per crawler: its access under robots.txt, its requests by verification outcome,
// those to disallowed paths and which paths, the compared window's figures, and the server's
// one-sentence statement. Read through model.js (robotsTrafficReport), which tolerates missing
// or renamed fields.
import { useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Loading } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { formatDate, formatNumber } from '../format.js';
import { Change } from '../charts/change.js';
import { MetricCards } from '../charts/metric-cards.js';
import { comparisonName, reportParams, resolveComparison, resolvePeriod } from '../reports/period.js';
import { PeriodPicker } from '../reports/period-picker.js';
import { RequestError } from '../reports/sections.js';
import { NoSites, SitePicker } from './shared.js';
import { accessLabels, notableCrawler, percentChange, purposeLabels, robotsTrafficReport } from './model.js';

export function RobotsTrafficTab({ scope, project, sites, site, canManage, link }) {
  const { query } = useRoute();
  const timeZone = project.reportingTimezone || 'UTC';
  const range = resolvePeriod(query, timeZone);
  const comparison = resolveComparison(query);
  const params = reportParams(project.id, query, timeZone);
  delete params.projectId; // the project is in the path
  const report = useOperation('get_robots_traffic_report', { ...scope, siteId: site?.id, ...params }, { skip: !site });
  if (sites.length === 0) return html`<${NoSites} link=${link} canManage=${canManage} />`;
  const data = report.data ? robotsTrafficReport(report.data) : null;
  const compared = comparison.mode !== 'off' && Boolean(data?.comparisonWindow ?? data?.totals.previousRequests);
  const comparedName = comparisonName(comparison.mode);

  return html`<div class="stack robots-traffic">
    <p class="muted">Only Sightline can make this report: the site's robots.txt rules set against the AI crawlers this project's
      analytics saw, verified by their operators' IP ranges or signatures, so a disallowed crawler that still comes shows up here.</p>
    <div class="crawler-filters" role="group" aria-label="Site">
      <${SitePicker} sites=${sites} site=${site} />
    </div>
    <${PeriodPicker} range=${range} comparison=${comparison} setQuery=${setQuery} comparisonWindow=${data?.comparisonWindow ?? null} timeZone=${timeZone} />
    ${report.error && html`<${RequestError} error=${report.error} />`}
    ${report.error && report.error.status === 409 && html`<p>The report reads the robots.txt a crawl found:
      <a href=${link(site.verified ? 'crawls' : 'sites', { site: site.id })}>${site.verified ? 'start a crawl of the site' : 'prove ownership of the site first'}</a>.</p>`}
    ${!report.error && !data && html`<${Loading} label="Loading the report…" />`}
    ${data && html`<${RobotsSource} source=${data.robotsSource} site=${site} link=${link} />`}
    ${data && html`<div class="stack" aria-busy=${report.loading ? 'true' : 'false'}>
      <${MetricCards} label="AI crawler requests" showComparison=${compared} metrics=${[
        { key: 'requests', label: 'AI crawler requests', value: data.totals.requests.total, previous: data.totals.previousRequests?.total,
          change: percentChange(data.totals.requests.total, data.totals.previousRequests?.total), format: formatNumber },
        { key: 'disallowedRequests', label: 'To disallowed paths', value: data.totals.disallowed.total, previous: data.totals.previousDisallowed?.total,
          change: percentChange(data.totals.disallowed.total, data.totals.previousDisallowed?.total), format: formatNumber, inverse: true },
        { key: 'spoofed', label: 'Spoofed', value: data.totals.requests.spoofed, previous: data.totals.previousRequests?.spoofed,
          change: percentChange(data.totals.requests.spoofed, data.totals.previousRequests?.spoofed), format: formatNumber, inverse: true },
      ]} />
      <${Statements} statements=${data.statements} />
      <${CrawlerTable} crawlers=${data.crawlers} compared=${compared} comparedName=${comparedName} />
      <${BlockedPaths} paths=${data.blockedPaths} />
    </div>`}
  </div>`;
}

/** Which robots.txt the verdicts come from: the newest crawl's, or none yet (all allowed). */
function RobotsSource({ source, site, link }) {
  if (!source) {
    return html`<p class="notice notice-warning" data-robots-source="none">No crawl of ${site.origin} has read its robots.txt yet, so
      every crawler counts as allowed. <a href=${link(site.verified ? 'crawls' : 'sites', { site: site.id })}>${site.verified ? 'Start a crawl' : 'Prove ownership, then crawl'}</a>
      to set the traffic against the real rules.</p>`;
  }
  const policy = source.policy === 'disallow_all' ? ' (it could not be read: everything counts as disallowed)'
    : source.policy === 'allow_all' ? ' (none was found: everything counts as allowed)' : '';
  return html`<p class="muted small" data-robots-source=${source.crawlId ?? ''}>Rules from ${source.url ? html`<code class="break">${source.url}</code>` : 'robots.txt'}${' '}as the crawl of ${formatDate(source.crawledAt)} read it${source.status ? ` (HTTP ${source.status})` : ''}${policy}.
    ${source.crawlId && html`<a href=${link('issues', { crawl: source.crawlId, rule: null, page: null })}>That crawl's issues</a>`}</p>`;
}

function Statements({ statements }) {
  const [open, setOpen] = useState(false);
  const notable = statements.filter((item) => item.notable);
  const quiet = statements.filter((item) => !item.notable);
  const item = (entry) => html`<li class=${`statement access-${entry.access}`} data-statement=${entry.name}>
    <span class=${`badge access-${entry.access}`}>${accessLabels[entry.access] ?? entry.access}</span> ${entry.text}
  </li>`;
  return html`<section class="card" aria-labelledby="sa-statements-heading">
    <div class="card-head"><div><h2 id="sa-statements-heading">What robots.txt says, and what the crawlers did</h2></div></div>
    ${statements.length === 0 && html`<p class="muted">No AI crawler is named by this site's robots.txt or seen in this period.</p>`}
    ${notable.length > 0 && html`<ul class="statements">${notable.map(item)}</ul>`}
    ${notable.length === 0 && quiet.length > 0 && html`<p>No AI crawler came in this period or the compared one, and robots.txt singles none out.</p>`}
    ${quiet.length > 0 && html`<p class="quiet-toggle">
      <button type="button" class="btn btn-link" aria-expanded=${open ? 'true' : 'false'} aria-controls="sa-quiet-statements" onClick=${() => setOpen(!open)}>
        ${open ? 'Hide' : 'Show'} the ${quiet.length} ${quiet.length === 1 ? 'crawler' : 'crawlers'} that never came, under the rules for every crawler</button></p>
      <ul class="statements" id="sa-quiet-statements" hidden=${!open}>${quiet.map(item)}</ul>`}
  </section>`;
}

function CrawlerTable({ crawlers, compared, comparedName }) {
  const [open, setOpen] = useState(false);
  const notable = crawlers.filter(notableCrawler);
  const quiet = crawlers.filter((crawler) => !notableCrawler(crawler));
  const unchecked = crawlers.reduce((total, crawler) => total + crawler.current.unchecked, 0);
  return html`<section class="card" aria-labelledby="sa-crawlers-heading">
    <div class="card-head"><div><h2 id="sa-crawlers-heading">AI crawlers</h2>
      <p class="muted">Requests in the period by verification outcome, and how many went to paths robots.txt disallows for that crawler.</p></div></div>
    <div class="table-wrap" role="region" aria-label="AI crawlers: robots.txt and traffic" tabindex="0"><table class="traffic-table">
      <caption class="visually-hidden">AI crawlers: robots.txt access and requests${compared ? `, compared with the ${comparedName}` : ''}</caption>
      <thead><tr>
        <th scope="col">Crawler</th><th scope="col">Purpose</th><th scope="col">robots.txt</th>
        <th scope="col" class="num">Requests</th><th scope="col" class="num">Verified</th><th scope="col" class="num">Spoofed</th>
        <th scope="col" class="num">Suspected</th><th scope="col" class="num">To disallowed paths</th>
        ${compared && html`<th scope="col" class="num">Previous</th><th scope="col" class="num">Change</th><th scope="col" class="num">Previous to disallowed</th>`}
        <th scope="col">Disallowed paths hit</th>
      </tr></thead>
      <tbody>
        ${notable.length === 0 && html`<tr><td colspan=${compared ? 12 : 9} class="empty">No AI crawler came${quiet.length ? ', and robots.txt singles none out' : ''}.</td></tr>`}
        ${notable.map((crawler) => html`<${CrawlerRow} key=${crawler.name} crawler=${crawler} compared=${compared} />`)}
      </tbody>
      ${quiet.length > 0 && html`<tbody id="sa-quiet-crawlers" hidden=${!open}>
        ${quiet.map((crawler) => html`<${CrawlerRow} key=${crawler.name} crawler=${crawler} compared=${compared} />`)}
      </tbody>`}
    </table></div>
    ${quiet.length > 0 && html`<p class="quiet-toggle"><button type="button" class="btn btn-link" aria-expanded=${open ? 'true' : 'false'}
      aria-controls="sa-quiet-crawlers" onClick=${() => setOpen(!open)}>${open ? 'Hide' : 'Show'} the ${quiet.length} ${quiet.length === 1 ? 'crawler' : 'crawlers'} with no requests, under the rules for every crawler</button></p>`}
    ${unchecked > 0 && html`<p class="muted small">${formatNumber(unchecked)} requests had paths that could not be checked against robots.txt
      (not kept per path), so the disallowed figures are at least these.</p>`}
  </section>`;
}

// A row keeps a few lines high: the rest of a crawler's disallowed paths are in the table below.
const shownPaths = 3;

function CrawlerRow({ crawler, compared }) {
  return html`<tr data-crawler=${crawler.name}>
          <th scope="row">${crawler.name}${!crawler.listed ? html` <span class="muted small">(named by robots.txt)</span>` : ''}</th>
          <td>${purposeLabels[crawler.purpose] ?? crawler.purpose}</td>
          <td><span class=${`badge access-${crawler.access}`} data-access=${crawler.name}>${accessLabels[crawler.access]}</span></td>
          <td class="num" data-requests=${crawler.name}>${formatNumber(crawler.current.requests.total)}</td>
          <td class="num">${formatNumber(crawler.current.requests.verified)}</td>
          <td class="num">${formatNumber(crawler.current.requests.spoofed)}</td>
          <td class="num">${formatNumber(crawler.current.requests.suspected)}</td>
          <td class="num" data-disallowed=${crawler.name}>${formatNumber(crawler.current.disallowed.total)}</td>
          ${compared && html`<td class="num" data-previous-requests=${crawler.name}>${crawler.previous ? formatNumber(crawler.previous.requests.total) : '—'}</td>
            <td class="num"><${Change} value=${crawler.percentageChange} previousText=${crawler.previous ? formatNumber(crawler.previous.requests.total) : '—'} /></td>
            <td class="num">${crawler.previous ? formatNumber(crawler.previous.disallowed.total) : '—'}</td>`}
          <td class="paths-cell">${crawler.current.topPaths.length === 0 ? html`<span class="muted">none</span>`
            : html`<ul class="path-list">${crawler.current.topPaths.slice(0, shownPaths).map((hit) => html`<li><code>${hit.path}</code>
                <span class="muted small">${formatNumber(hit.requests.total)}${hit.rule ? ` · ${hit.rule}` : ''}</span></li>`)}</ul>
              ${crawler.current.topPaths.length > shownPaths && html`<span class="muted small">+${crawler.current.topPaths.length - shownPaths} more
                below</span>`}`}</td>
        </tr>`;
}

function BlockedPaths({ paths }) {
  return html`<section class="card" aria-labelledby="sa-blocked-heading">
    <div class="card-head"><div><h2 id="sa-blocked-heading">Disallowed paths AI crawlers fetched</h2>
      <p class="muted">The paths robots.txt disallows that crawlers still requested in the period, most requested first.</p></div></div>
    <div class="table-wrap" role="region" aria-label="Disallowed paths fetched" tabindex="0"><table>
      <caption class="visually-hidden">Disallowed paths fetched by AI crawlers</caption>
      <thead><tr><th scope="col">Path</th><th scope="col" class="num">Requests</th><th scope="col" class="num">Verified</th>
        <th scope="col" class="num">Spoofed</th><th scope="col" class="num">Suspected</th><th scope="col">Crawlers</th></tr></thead>
      <tbody>
        ${paths.length === 0 && html`<tr><td colspan="6" class="empty">No AI crawler fetched a disallowed path in this period.</td></tr>`}
        ${paths.map((hit) => html`<tr key=${hit.path} data-blocked-path=${hit.path}>
          <th scope="row"><code class="break">${hit.path}</code></th>
          <td class="num">${formatNumber(hit.requests.total)}</td>
          <td class="num">${formatNumber(hit.requests.verified)}</td>
          <td class="num">${formatNumber(hit.requests.spoofed)}</td>
          <td class="num">${formatNumber(hit.requests.suspected)}</td>
          <td>${hit.crawlers.join(', ')}</td>
        </tr>`)}
      </tbody>
    </table></div>
  </section>`;
}

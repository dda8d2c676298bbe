// One page of a crawl (page=<url>, from Issues or Pages): get_crawl_page's status, title and the
// rest of what was read (details: canonicals, robots directives, headings, hreflang, images,
// structured data, redirects…), its issues, and the links to it and from it (each internal one
// opens that page's detail).
import { html } from '../ui/html.js';
import { Loading } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { useRoute } from '../router.js';
import { formatBytes, formatDate, formatNumber } from '../format.js';
import { RequestError } from '../reports/sections.js';
import { Evidence, IssueState, chosenCrawl, useCrawls } from './issues.js';
import { formatDepth, humanize, pageStateLabels, severities } from './model.js';

export function PageDetail({ scope, link }) {
  const { query } = useRoute();
  const tab = query.tab === 'pages' ? 'pages' : 'issues';
  const crawls = useCrawls(scope);
  const crawlId = query.crawl || chosenCrawl(crawls.data, query)?.id || null;
  const page = useOperation('get_crawl_page', { ...scope, crawlId, url: query.page }, { skip: !crawlId });
  const back = html`<p><a href=${link(tab, { page: null })}>← Back to the ${tab === 'pages' ? 'pages' : 'issues'}</a></p>`;
  if (!crawlId && crawls.data !== undefined) return html`<div class="stack">${back}<p class="muted">No crawl to read this page from.</p></div>`;
  if (page.error) {
    return html`<div class="stack">${back}
      <section class="card" aria-labelledby="sa-page-heading">
        <h2 id="sa-page-heading" class="break">${query.page}</h2>
        ${page.error.status === 404
          ? html`<p class="notice notice-info" role="status">This URL is not one of the crawl's pages: checks of the whole site
              name the file they read (robots.txt, a sitemap, llms.txt), and external links are listed on the pages that link to them.</p>`
          : html`<${RequestError} error=${page.error} />`}
      </section></div>`;
  }
  if (!page.data) return html`<div class="stack">${back}<${Loading} label="Loading the page…" /></div>`;
  const data = page.data;
  const facts = [
    ['HTTP status', data.httpStatus ?? '—', 'status'],
    ['State', pageStateLabels[data.state] ?? data.state, 'state'],
    ['Title', data.title || '—', 'title'],
    ['Content type', data.contentType || '—', 'contentType'],
    ['Size', data.bytes ? formatBytes(data.bytes) : '—', 'bytes'],
    ['Time to first byte', data.ttfbMs !== undefined && data.ttfbMs !== null ? `${formatNumber(data.ttfbMs)} ms` : '—', 'ttfb'],
    ['Clicks from the start page', formatDepth(data.depth), 'depth'],
    ['Indexable', data.indexable ? 'Yes' : 'No', 'indexable'],
    ['In the sitemap', data.inSitemap ? 'Yes' : 'No', 'inSitemap'],
    ['Found via', data.source || '—', 'source'],
    ['Fetched', formatDate(data.fetchedAt), 'fetchedAt'],
  ];
  const pageLink = (url) => link(tab, { page: url });
  const internal = (url) => {
    try { return new URL(url).origin === new URL(data.url).origin; } catch { return false; }
  };
  const issues = data.issues ?? [];
  const inlinks = data.inlinks ?? [];
  const outlinks = data.outlinks ?? [];
  return html`<div class="stack page-detail">
    ${back}
    <section class="card" aria-labelledby="sa-page-heading">
      <div class="card-head"><div><h2 id="sa-page-heading" class="break" data-page-url=${data.url}>${data.url}</h2>
        <p class="muted small"><a href=${data.url} target="_blank" rel="noopener noreferrer">Open the page<span class="visually-hidden"> ${data.url}</span> (new tab)</a></p></div></div>
      <dl class="details-list page-facts">
        ${facts.map(([label, value, key]) => html`<dt>${label}</dt><dd data-page-fact=${key}>${value}</dd>`)}
      </dl>
    </section>
    <section class="card" aria-labelledby="sa-page-issues-heading">
      <div class="card-head"><h2 id="sa-page-issues-heading">Issues of this page (${formatNumber(issues.length)})</h2></div>
      <div class="table-wrap" role="region" aria-label="Issues of this page" tabindex="0"><table>
        <caption class="visually-hidden">Issues of this page</caption>
        <thead><tr><th scope="col">Check</th><th scope="col">Severity</th><th scope="col">State</th><th scope="col">Evidence</th></tr></thead>
        <tbody>
          ${issues.length === 0 && html`<tr><td colspan="4" class="empty">No issues on this page.</td></tr>`}
          ${issues.map((issue, index) => html`<tr key=${`${issue.ruleId}|${index}`} data-page-issue=${issue.ruleId}>
            <th scope="row"><a href=${link('issues', { rule: issue.ruleId, page: null, cursor: null, back: null })}>${issue.title || issue.ruleId}</a>
              <span class="rule-id muted small">${issue.ruleId}</span></th>
            <td><span class=${`sev-label sev-${issue.severity}`}>${severities.find((item) => item.value === issue.severity)?.one ?? issue.severity}</span></td>
            <td><${IssueState} state=${issue.state} /></td>
            <td><${Evidence} evidence=${issue.evidence} /></td>
          </tr>`)}
        </tbody>
      </table></div>
    </section>
    <section class="card" aria-labelledby="sa-page-details-heading">
      <div class="card-head"><h2 id="sa-page-details-heading">What the crawl read</h2></div>
      <${Details} details=${data.details} />
    </section>
    <div class="report-grid">
      <${LinkTable} title="Links to this page" caption="Links to this page" rows=${inlinks} urlKey="from" urlLabel="From"
        href=${(url) => pageLink(url)} empty="No crawled page links here." />
      <${LinkTable} title="Links from this page" caption="Links from this page" rows=${outlinks} urlKey="to" urlLabel="To"
        href=${(url) => (internal(url) ? pageLink(url) : null)} empty="This page links nowhere." />
    </div>
  </div>`;
}

function LinkTable({ title, caption, rows, urlKey, urlLabel, href, empty }) {
  const id = `sa-${urlKey}-heading`;
  return html`<section class="card" aria-labelledby=${id}>
    <div class="card-head"><h2 id=${id}>${title} (${formatNumber(rows.length)})</h2></div>
    <div class="table-wrap" role="region" aria-label=${caption} tabindex="0"><table>
      <caption class="visually-hidden">${caption}</caption>
      <thead><tr><th scope="col">${urlLabel}</th><th scope="col">Anchor text</th><th scope="col">nofollow</th></tr></thead>
      <tbody>
        ${rows.length === 0 && html`<tr><td colspan="3" class="empty">${empty}</td></tr>`}
        ${rows.map((row, index) => {
          const url = row[urlKey] ?? '';
          const target = href(url);
          return html`<tr key=${`${url}|${index}`}>
            <td class="url-cell">${target ? html`<a href=${target}>${url}</a>` : html`<span class="break">${url}</span>`}</td>
            <td>${row.anchor || html`<span class="muted">(none)</span>`}</td>
            <td>${row.nofollow ? 'Yes' : 'No'}</td>
          </tr>`;
        })}
      </tbody>
    </table></div>
  </section>`;
}

/** The page's details: scalars as a list, lists and objects folded as JSON. */
function Details({ details }) {
  const entries = Object.entries(details && typeof details === 'object' ? details : {});
  if (entries.length === 0) return html`<p class="muted">Nothing more was read (the page was not fetched, or is not HTML).</p>`;
  const simple = entries.filter(([, value]) => value === null || typeof value !== 'object'
    || (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object') && value.join(', ').length < 200));
  const complex = entries.filter((entry) => !simple.includes(entry));
  return html`<div class="stack">
    ${simple.length > 0 && html`<dl class="details-list page-details">
      ${simple.map(([key, value]) => html`<dt>${humanize(key)}</dt><dd data-detail=${key}>${
        value === null || value === '' ? '—' : Array.isArray(value) ? (value.length ? value.join(', ') : '—') : String(value)}</dd>`)}
    </dl>`}
    ${complex.map(([key, value]) => html`<details class="detail-block" data-detail=${key}>
      <summary>${humanize(key)}${Array.isArray(value) ? ` (${formatNumber(value.length)})` : ''}</summary>
      <pre tabindex="0">${JSON.stringify(value, null, 2)}</pre>
    </details>`)}
  </div>`;
}

// Pages: the URLs a crawl met (list_crawl_pages), filtered by state (pageState=) and a search in
// the URL (q=), 50 a page (cursor=, with back= to return); each opens its detail (page=<url>).
import { useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Button, Loading } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { formatNumber } from '../format.js';
import { RequestError } from '../reports/sections.js';
import { NoSites } from './shared.js';
import { CrawlPicker, chosenCrawl, useCrawls } from './issues.js';
import { formatDepth, pageStateLabels } from './model.js';

const pageSize = 50;

export function PagesTab(props) {
  const { scope, sites, canManage, link } = props;
  const { query } = useRoute();
  const crawls = useCrawls(scope);
  if (sites.length === 0) return html`<${NoSites} link=${link} canManage=${canManage} />`;
  if (crawls.error) return html`<${RequestError} error=${crawls.error} />`;
  if (crawls.data === undefined) return html`<${Loading} label="Loading the crawls…" />`;
  const crawl = chosenCrawl(crawls.data, query);
  if (!crawl) {
    return html`<section class="card empty-state" aria-labelledby="sa-nopages-heading">
      <h2 id="sa-nopages-heading">No crawl yet</h2>
      <p>The pages of a crawl are listed here. Start a crawl of a proven site first.</p>
      <p><a class="btn btn-primary" href=${link('crawls')}>Go to Crawls</a></p>
    </section>`;
  }
  return html`<div class="stack">
    <div class="crawler-filters" role="group" aria-label="Crawl">
      <${CrawlPicker} crawls=${crawls.data} crawl=${crawl} sites=${sites} />
    </div>
    <${PageList} key=${crawl.id} scope=${scope} crawlId=${crawl.id} link=${link} />
  </div>`;
}

function PageList({ scope, crawlId, link }) {
  const { query } = useRoute();
  const state = pageStateLabels[query.pageState] ? query.pageState : '';
  const search = typeof query.q === 'string' ? query.q : '';
  // The page's cursor is in the URL with the cursors of the pages before it ("back"), so
  // "Previous" goes back and the rows' numbers are known.
  const cursor = query.cursor || null;
  const previous = (query.back ?? '').split(',').filter(Boolean);
  const offset = previous.length * pageSize;
  const [typed, setTyped] = useState(search);
  const answer = useOperation('list_crawl_pages', { ...scope, crawlId, state, search, limit: pageSize, cursor });
  const pages = { ...answer, data: answer.data && (answer.data.pages ?? []) };
  const next = answer.data?.nextCursor ?? null;
  const rows = pages.data ?? [];
  const more = Boolean(next);
  return html`<section class="card" aria-labelledby="sa-pages-heading">
    <div class="card-head"><div><h2 id="sa-pages-heading">Pages</h2>
      <p class="muted">In the order the crawl found them. Choose a URL for its detail: what was read, its issues and links.</p></div></div>
    <form class="row filters" role="search" onSubmit=${(event) => { event.preventDefault(); setQuery({ q: typed.trim() || null, cursor: null, back: null }); }}>
      <div class="field">
        <label for="sa-page-state">State</label>
        <select id="sa-page-state" onChange=${(event) => setQuery({ pageState: event.currentTarget.value || null, cursor: null, back: null })}>
          <option value="" selected=${!state}>Any state</option>
          ${Object.entries(pageStateLabels).map(([value, label]) => html`<option value=${value} selected=${value === state}>${label}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="sa-page-search">URL contains</label>
        <input id="sa-page-search" type="search" value=${typed} onInput=${(event) => setTyped(event.currentTarget.value)} />
      </div>
      <${Button} type="submit">Search<//>
    </form>
    <${RequestError} error=${pages.error} />
    ${pages.data === undefined && !pages.error ? html`<${Loading} label="Loading the pages…" />` : html`
      <div class="table-wrap" role="region" aria-label="Pages of the crawl" tabindex="0"><table class="page-table">
        <caption class="visually-hidden">Pages of the crawl</caption>
        <thead><tr><th scope="col">URL</th><th scope="col" class="num">Status</th><th scope="col">Title</th>
          <th scope="col" class="num">Depth</th><th scope="col">Indexable</th><th scope="col">In sitemap</th><th scope="col">State</th></tr></thead>
        <tbody>
          ${rows.length === 0 && html`<tr><td colspan="7" class="empty">No pages${state || search ? ' match' : ' yet'}.</td></tr>`}
          ${rows.map((page) => html`<tr key=${page.url}>
            <td class="url-cell"><a href=${link('pages', { page: page.url })}>${page.url}</a></td>
            <td class="num">${page.httpStatus ?? '—'}</td>
            <td class="title-cell">${page.title || html`<span class="muted">—</span>`}</td>
            <td class="num">${formatDepth(page.depth)}</td>
            <td>${page.indexable ? 'Yes' : 'No'}</td>
            <td>${page.inSitemap ? 'Yes' : 'No'}</td>
            <td>${pageStateLabels[page.state] ?? page.state}</td>
          </tr>`)}
        </tbody>
      </table></div>
      ${(cursor || more) && html`<nav class="pager" aria-label="Pages of the list">
        ${cursor && html`<a class="btn btn-small" href=${link('pages', { cursor: previous.at(-1) === '-' ? null : previous.at(-1) ?? null, back: previous.slice(0, -1).join(',') || null })}>Previous ${pageSize}</a>`}
        <span class="muted small">${formatNumber(offset + 1)}–${formatNumber(offset + rows.length)}</span>
        ${more && html`<a class="btn btn-small" href=${link('pages', { cursor: next, back: [...previous, cursor ?? '-'].join(',') })}>Next ${pageSize}</a>`}
      </nav>`}`}
  </section>`;
}

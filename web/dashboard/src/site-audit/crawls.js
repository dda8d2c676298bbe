// Crawls: start one of a proven site with its limits (start_site_crawl: 202 with the crawl; 409
// AUDIT_002 names the crawl already going), follow it live (get_site_crawl every 2 seconds while
// it is queued or running: pages done, queued, blocked, errors) and cancel it
// (cancel_site_crawl); the site's crawls (list_site_crawls), read again while one is going.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Button, Field, Loading, Notice, Table, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { formatDate, formatDuration, formatNumber } from '../format.js';
import { RequestError } from '../reports/sections.js';
import { NoSites, SitePicker } from './shared.js';
import { crawlCounts, crawlLimits, crawlProgress, crawlRequest, crawlStatusLabels, isActive } from './model.js';

export const pollMs = 2000;

export function CrawlsTab(props) {
  if (props.sites.length === 0) return html`<${NoSites} link=${props.link} canManage=${props.canManage} />`;
  return html`<${CrawlsOfSite} key=${props.site.id} ...${props} />`;
}

function CrawlsOfSite({ scope, sites, site, canManage, link }) {
  const { query } = useRoute();
  const crawls = useOperation('list_site_crawls', { ...scope, siteId: site.id, limit: 20 }, { select: (body) => body.crawls ?? [] });
  const anyActive = (crawls.data ?? []).some(isActive);
  useEffect(() => {
    if (!anyActive) return undefined;
    const timer = setTimeout(() => crawls.reload(), pollMs);
    return () => clearTimeout(timer);
  }, [crawls.data]);
  const shown = query.crawl || null;

  const columns = [
    { key: 'createdAt', label: 'Started', render: (crawl) => html`<a href=${link('crawls', { crawl: crawl.id })} data-crawl=${crawl.id}
      aria-current=${crawl.id === shown ? 'true' : undefined}>${formatDate(crawl.startedAt ?? crawl.createdAt)}</a>` },
    { key: 'status', label: 'Status', render: (crawl) => html`<${StatusBadge} crawl=${crawl} />` },
    { key: 'pages', label: 'Pages', numeric: true, render: (crawl) => {
      const progress = crawlProgress(crawl);
      return `${formatNumber(progress.done)} of ${formatNumber(Math.max(progress.total, progress.finished))}`;
    } },
    { key: 'issues', label: 'Issues', render: (crawl) => {
      const counts = crawlCounts(crawl);
      if (!counts.known) return html`<span class="muted">${isActive(crawl) ? 'when finished' : '—'}</span>`;
      return html`<span class="severity-counts">
        <span class="sev sev-error">${formatNumber(counts.error)}<span class="visually-hidden"> errors</span></span>
        <span class="sev sev-warning">${formatNumber(counts.warning)}<span class="visually-hidden"> warnings</span></span>
        <span class="sev sev-notice">${formatNumber(counts.notice)}<span class="visually-hidden"> notices</span></span>
      </span>`;
    } },
    { key: 'actions', label: 'Actions', render: (crawl) => html`<div class="row">
      <a href=${link('crawls', { crawl: crawl.id })}>Progress<span class="visually-hidden"> of the crawl started ${formatDate(crawl.createdAt)}</span></a>
      ${!isActive(crawl) && html`<a href=${link('issues', { crawl: crawl.id, rule: null, state: null, page: null })}>Issues<span class="visually-hidden"> of the crawl started ${formatDate(crawl.createdAt)}</span></a>`}
    </div>` },
  ];

  return html`<div class="stack">
    <div class="crawler-filters" role="group" aria-label="Site">
      <${SitePicker} sites=${sites} site=${site} />
    </div>
    ${!site.verified && html`<${Notice} kind="warning">ServiceAuditBot crawls only proven sites: prove that ${site.origin} is yours first.
      <a href=${link('sites', { site: site.id })}>Go to Sites</a><//>`}
    ${canManage && site.verified && html`<${StartCrawl} scope=${scope} site=${site} link=${link}
      onStarted=${(crawl) => { setQuery({ crawl: crawl.id }); crawls.reload(); }} />`}
    ${shown && html`<${CrawlProgress} key=${shown} scope=${scope} crawlId=${shown} canManage=${canManage} link=${link}
      onSettled=${() => crawls.reload()} />`}
    <section class="card" aria-labelledby="sa-crawls-heading">
      <div class="card-head"><div><h2 id="sa-crawls-heading">Crawls of ${site.origin}</h2>
        <p class="muted">Newest first. Each crawl compares its issues with the previous completed one.</p></div></div>
      ${anyActive && html`<p class="muted small" role="status">Updating every 2 seconds while a crawl is in progress.</p>`}
      <${RequestError} error=${crawls.error} />
      ${crawls.data === undefined && !crawls.error ? html`<${Loading} label="Loading the crawls…" />`
        : html`<${Table} caption=${`All crawls of ${site.origin}, newest first`} columns=${columns} rows=${crawls.data ?? []} rowKey=${(crawl) => crawl.id}
          empty=${site.verified ? 'No crawls yet: start one above.' : 'No crawls yet: prove ownership first, then start one.'} />`}
    </section>
  </div>`;
}

export function StatusBadge({ crawl }) {
  const label = crawlStatusLabels[crawl.status] ?? crawl.status;
  const cancelling = crawl.cancelRequested && isActive(crawl);
  return html`<span class=${`badge crawl-${crawl.status}`} data-crawl-status=${crawl.id}>${cancelling ? 'Cancelling…' : label}</span>`;
}

/** The start form: the start page and the limits (blank: the server's defaults). */
function StartCrawl({ scope, site, link, onStarted }) {
  const [form, setForm] = useState({});
  const [problems, setProblems] = useState({});
  const [notice, setNotice] = useState(null);
  const start = useAction(async (event) => {
    event.preventDefault();
    setNotice(null);
    const { body, problems: found } = crawlRequest(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const crawl = await api.call('start_site_crawl', { ...scope, siteId: site.id, ...body });
    setNotice('Crawl queued: its progress is below.');
    onStarted(crawl);
  });
  const set = (key) => (event) => setForm({ ...form, [key]: event.currentTarget.value });
  const active = start.error?.code === 'AUDIT_002' ? start.error.details?.crawlId : null;
  return html`<section class="card" aria-labelledby="sa-start-heading">
    <div class="card-head"><div><h2 id="sa-start-heading">Start a crawl</h2>
      <p class="muted">ServiceAuditBot reads robots.txt, the sitemaps and llms.txt, then the pages breadth-first from the start
        page, politely (robots.txt and its crawl-delay are obeyed), and signs every request.</p></div></div>
    <form class="stack" onSubmit=${start.run} novalidate>
      <${Field} label="Start page" type="url" placeholder=${`${site.origin}/`} value=${form.startUrl ?? ''}
        hint=${`A page of ${site.origin}; blank: the home page.`} onInput=${set('startUrl')} />
      <fieldset class="plain-fieldset">
        <legend class="small muted">Limits (blank: the default shown)</legend>
        <div class="limits-grid">
          ${crawlLimits.map((limit) => html`<${Field} key=${limit.key} label=${limit.label} type="number" inputmode="numeric"
            min=${limit.min} max=${limit.max} placeholder=${limit.placeholder} value=${form[limit.key] ?? ''}
            error=${problems[limit.key]} onInput=${set(limit.key)} />`)}
        </div>
      </fieldset>
      <div class="row"><${Button} kind="primary" type="submit" busy=${start.busy}>Start crawl<//></div>
    </form>
    <${RequestError} error=${start.error} />
    ${active && html`<p><a href=${link('crawls', { crawl: active })}>Show the crawl in progress</a></p>`}
    ${notice && html`<${Notice} kind="success">${notice}<//>`}
  </section>`;
}

/**
 * One crawl, live: read every 2 seconds while queued or running. onSettled runs once when it
 * ends while shown (so the list catches up).
 */
export function CrawlProgress({ scope, crawlId, canManage, link, onSettled, compact = false }) {
  const crawl = useOperation('get_site_crawl', { ...scope, crawlId });
  const wasActive = useRef(false);
  const data = crawl.data;
  useEffect(() => {
    if (!data) return undefined;
    if (!isActive(data)) {
      if (wasActive.current) { wasActive.current = false; onSettled?.(data); }
      return undefined;
    }
    wasActive.current = true;
    const timer = setTimeout(() => crawl.reload(), pollMs);
    return () => clearTimeout(timer);
  }, [data]);
  const cancel = useAction(async () => {
    crawl.setData(await api.call('cancel_site_crawl', { ...scope, crawlId }));
  });

  if (crawl.error && !data) return html`<section class="card"><${RequestError} error=${crawl.error} /></section>`;
  if (!data) return html`<section class="card"><${Loading} label="Loading the crawl…" /></section>`;
  const progress = crawlProgress(data);
  const counts = crawlCounts(data);
  const active = isActive(data);
  const elapsed = data.startedAt ? (Date.parse(data.finishedAt ?? new Date().toISOString()) - Date.parse(data.startedAt)) : null;
  const figures = [
    { key: 'done', label: 'Pages done', value: progress.done },
    { key: 'queued', label: 'Queued', value: progress.queued },
    { key: 'blocked', label: 'Blocked by robots.txt', value: progress.blocked },
    { key: 'error', label: 'Errors', value: progress.error },
    { key: 'skipped', label: 'Skipped', value: progress.skipped },
  ];
  return html`<section class="card crawl-progress" aria-labelledby="sa-progress-heading" data-progress=${data.id}>
    <div class="card-head">
      <div><h2 id="sa-progress-heading">${active ? 'Crawl in progress' : 'Crawl'}</h2>
        <p class="muted small">From <span class="break">${data.startUrl}</span> · queued ${formatDate(data.createdAt)}
          ${elapsed !== null && elapsed >= 0 ? html` · ${active ? 'running for' : 'took'} ${formatDuration(elapsed)}` : ''}</p></div>
      <div class="card-actions">
        <span aria-live="polite"><${StatusBadge} crawl=${data} /></span>
        ${canManage && active && html`<${Button} busy=${cancel.busy} disabled=${data.cancelRequested} onClick=${() => cancel.run()}>Cancel crawl<//>`}
      </div>
    </div>
    <progress class="crawl-bar" max="1" value=${progress.fraction} aria-label="Pages crawled, of those found so far"></progress>
    <dl class="progress-figures">
      ${figures.map((figure) => html`<div><dt>${figure.label}</dt><dd data-figure=${figure.key}>${formatNumber(figure.value)}</dd></div>`)}
    </dl>
    ${active && html`<p class="muted small">Updating every 2 seconds. The total grows as links and sitemap URLs are found
      (limits: ${formatNumber(data.limits?.maxPages)} pages, ${formatNumber(data.limits?.maxDepth)} clicks deep).</p>`}
    <${RequestError} error=${cancel.error ?? (crawl.error && crawl.error)} />
    ${data.status === 'failed' && html`<${Notice} kind="error">The crawl failed${data.error ? `: ${data.error}` : '.'}<//>`}
    ${data.stopReason && !active && html`<p class="small muted">Stopped: ${stopReasonText(data.stopReason)}.</p>`}
    ${!active && counts.known && html`<p class="crawl-result" role="status">
      Found ${formatNumber(counts.issues)} issues: ${formatNumber(counts.error)} errors, ${formatNumber(counts.warning)} warnings,
      ${formatNumber(counts.notice)} notices${data.previousCrawlId ? ` (${formatNumber(counts.new)} new, ${formatNumber(counts.fixed)} fixed since the previous crawl)` : ''}.
    </p>`}
    ${!active && !compact && html`<p class="row">
      <a class="btn btn-primary" href=${link('issues', { crawl: data.id, rule: null, state: null, page: null })}>See the issues</a>
      <a class="btn" href=${link('pages', { crawl: data.id, page: null })}>See the pages</a>
    </p>`}
  </section>`;
}

function stopReasonText(reason) {
  const known = {
    max_pages: 'the page limit was reached', max_duration: 'the time limit was reached', max_depth: 'the depth limit was reached',
    done: 'every page found was crawled', completed: 'every page found was crawled',
  };
  return known[reason] ?? reason.replace(/_/g, ' ');
}

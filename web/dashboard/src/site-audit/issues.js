// Issues: a crawl's summary (get_site_audit_summary): the counts by severity, the checks with issues
// grouped error / warning / notice with their counts, new and fixed since the previous crawl, and
// what the crawl read of the site. Choosing a check (rule=) lists its issues (list_crawl_issues)
// with URL and evidence, 50 a page; state= (new, open, fixed) filters both. The checks'
// descriptions come from list_audit_rules.
import { html } from '../ui/html.js';
import { Loading } from '../ui/index.js';
import { api } from '../api.js';
import { operation, useOperation, useOperations } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { formatDate, formatNumber } from '../format.js';
import { RequestError } from '../reports/sections.js';
import { AiCrawlerVerdicts, RuleGroups, SeverityCards, SiteFacts } from '../charts/site-audit.js';
import { CrawlProgress } from './crawls.js';
import { NoSites } from './shared.js';
import { crawlStatusLabels, defaultCrawl, evidenceEntries, groupRules, isActive, issueStates, severities } from './model.js';

const pageSize = 50;


/** The project's crawls (every site), newest first: the crawl chooser of Issues and Pages. */
export function useCrawls(scope) {
  return useOperation('list_site_crawls', { ...scope, limit: 50 }, { select: (body) => body.crawls ?? [] });
}

/** Which crawl a section shows: ?crawl=, else the newest finished one. */
export function chosenCrawl(crawls, query) {
  return (crawls ?? []).find((crawl) => crawl.id === query.crawl) ?? (query.crawl ? { id: query.crawl } : defaultCrawl(crawls));
}

/** The crawl chooser, labelled with the site and the date. */
export function CrawlPicker({ crawls, crawl, sites, id = 'sa-crawl' }) {
  if (!crawls || crawls.length === 0) return null;
  const origin = (siteId) => sites.find((site) => site.id === siteId)?.origin ?? 'removed site';
  return html`<div class="field">
    <label for=${id}>Crawl</label>
    <select id=${id} onChange=${(event) => setQuery({ crawl: event.currentTarget.value, rule: null, page: null, cursor: null, back: null })}>
      ${!crawls.some((item) => item.id === crawl?.id) && crawl && html`<option value=${crawl.id} selected>${crawl.id}</option>`}
      ${crawls.map((item) => html`<option value=${item.id} selected=${item.id === crawl?.id}>
        ${origin(item.siteId)} · ${formatDate(item.startedAt ?? item.createdAt)} · ${crawlStatusLabels[item.status] ?? item.status}</option>`)}
    </select>
  </div>`;
}

export function IssuesTab(props) {
  const { scope, sites, canManage, link } = props;
  const { query } = useRoute();
  const crawls = useCrawls(scope);
  if (sites.length === 0) return html`<${NoSites} link=${link} canManage=${canManage} />`;
  if (crawls.error) return html`<${RequestError} error=${crawls.error} />`;
  if (crawls.data === undefined) return html`<${Loading} label="Loading the crawls…" />`;
  const crawl = chosenCrawl(crawls.data, query);
  if (!crawl) {
    return html`<section class="card empty-state" aria-labelledby="sa-noissues-heading">
      <h2 id="sa-noissues-heading">No crawl yet</h2>
      <p>Issues come from a crawl. ${sites.some((site) => site.verified) ? 'Start one, then come back when it has finished.'
        : 'Prove ownership of your site, then start a crawl.'}</p>
      <p><a class="btn btn-primary" href=${sites.some((site) => site.verified) ? link('crawls') : link('sites')}>
        ${sites.some((site) => site.verified) ? 'Start a crawl' : 'Prove ownership'}</a></p>
    </section>`;
  }
  const state = issueStates.some((item) => item.value === query.state) ? query.state : '';
  return html`<div class="stack">
    <div class="crawler-filters" role="group" aria-label="Crawl and issue state">
      <${CrawlPicker} crawls=${crawls.data} crawl=${crawl} sites=${sites} />
      <div class="field">
        <label for="sa-state">Show</label>
        <select id="sa-state" onChange=${(event) => setQuery({ state: event.currentTarget.value || null, cursor: null, back: null })}>
          ${issueStates.map((item) => html`<option value=${item.value} selected=${item.value === state}>${item.label}</option>`)}
        </select>
      </div>
    </div>
    <${CrawlSummary} key=${crawl.id} ...${props} crawlId=${crawl.id} state=${state} onSettled=${() => crawls.reload()} />
  </div>`;
}

function CrawlSummary({ scope, crawlId, state, canManage, link, onSettled }) {
  const { query } = useRoute();
  const summary = useOperation('get_site_audit_summary', { ...scope, crawlId });
  const data = summary.data;
  if (summary.error) return html`<${RequestError} error=${summary.error} />`;
  if (!data) return html`<${Loading} label="Loading the summary…" />`;
  if (isActive(data.crawl)) {
    return html`<div class="stack">
      <p class="notice notice-info" role="status">This crawl is still going: its issues appear when it finishes.</p>
      <${CrawlProgress} scope=${scope} crawlId=${crawlId} canManage=${canManage} link=${link} compact
        onSettled=${() => { summary.reload(); onSettled?.(); }} />
    </div>`;
  }
  const rule = query.rule || null;
  const ruleKnown = groupRules(data.rules).some((group) => group.rules.some((line) => line.ruleId === rule));
  const nothing = groupRules(data.rules).every((group) => group.rules.length === 0);
  return html`<div class="stack">
    <section class="card" aria-labelledby="sa-summary-heading">
      <div class="card-head"><div>
        <h2 id="sa-summary-heading">Issues by severity</h2>
        <p class="muted">${data.origin ? `${data.origin} · ` : ''}crawled ${formatDate(data.crawl?.finishedAt ?? data.crawl?.createdAt)}
          ${data.crawl?.previousCrawlId ? ' · compared with the previous crawl' : ' · the first crawl of this site (nothing to compare with)'}</p>
      </div></div>
      ${data.crawl?.status === 'cancelled' && html`<p class="notice notice-warning">This crawl was cancelled: its figures cover the pages read before it stopped.</p>`}
      ${data.crawl?.status === 'failed' && html`<p class="notice notice-error">This crawl failed${data.crawl.error ? `: ${data.crawl.error}` : ''}.</p>`}
      <${SeverityCards} summary=${data} />
      ${nothing
        ? html`<p class="muted">No issues found. ${data.crawl?.previousCrawlId ? '' : 'Crawl again after changes to see what is new and what was fixed.'}</p>`
        : html`<${RuleGroups} rules=${data.rules} state=${state} selectedRule=${rule}
            ruleHref=${(ruleId) => link('issues', { rule: ruleId, cursor: null, back: null, page: null })} showChanges=${Boolean(data.crawl?.previousCrawlId)} />`}
    </section>
    ${rule && html`<${RuleIssues} key=${`${rule}|${state}`} scope=${scope} crawlId=${crawlId} ruleId=${rule} state=${state}
      known=${ruleKnown} link=${link} />`}
    <section class="card" aria-labelledby="sa-site-heading">
      <div class="card-head"><div><h2 id="sa-site-heading">What the crawl read of the site</h2>
        <p class="muted">robots.txt, the sitemaps, llms.txt and HTTPS, and what robots.txt says to each AI crawler.</p></div></div>
      <${SiteFacts} site=${data.site} />
      <${AiCrawlerVerdicts} site=${data.site} caption="AI crawlers under this site's robots.txt" showCaption />
    </section>
  </div>`;
}

function RuleIssues({ scope, crawlId, ruleId, state, link }) {
  const { query } = useRoute();
  // The page's cursor is in the URL with the cursors of the pages before it ("back"), so
  // "Previous" goes back and the rows' numbers are known.
  const cursor = query.cursor || null;
  const previous = (query.back ?? '').split(',').filter(Boolean);
  const offset = previous.length * pageSize;
  const { catalog, page } = useOperations({
    // The rule catalog is the same for the whole session: kept.
    catalog: operation('list_audit_rules', scope, { keep: true, select: (body) => new Map((body.rules ?? []).map((rule) => [rule.id, rule])) }),
    page: operation('list_crawl_issues', { ...scope, crawlId, ruleId, state, limit: pageSize, cursor }),
  });
  const issues = { ...page, data: page.data && (page.data.issues ?? []) };
  const next = page.data?.nextCursor ?? null;
  const rule = catalog.data?.get(ruleId);
  const title = rule?.title ?? issues.data?.[0]?.title ?? ruleId;
  const severity = severities.find((item) => item.value === (rule?.severity ?? issues.data?.[0]?.severity));
  const rows = issues.data ?? [];
  const more = Boolean(next);
  return html`<section class="card" aria-labelledby="sa-rule-heading" data-rule-issues=${ruleId}>
    <div class="card-head">
      <div>
        <h2 id="sa-rule-heading">${title}</h2>
        <p class="muted small"><code>${ruleId}</code>${severity ? ` · ${severity.one}` : ''}${rule?.category ? ` · ${rule.category}` : ''}</p>
      </div>
      <div class="card-actions"><a class="btn btn-small" href=${link('issues', { rule: null, cursor: null, back: null })}>Close<span class="visually-hidden"> the issues of ${title}</span></a></div>
    </div>
    ${rule?.description && html`<p class="rule-description">${rule.description}</p>`}
    <${RequestError} error=${issues.error} />
    ${issues.data === undefined && !issues.error ? html`<${Loading} label="Loading the issues…" />` : html`
      <div class="table-wrap" role="region" aria-label=${`Issues: ${title}`} tabindex="0"><table class="issue-table">
        <caption class="visually-hidden">Issues: ${title}${state ? ` (${state})` : ''}</caption>
        <thead><tr><th scope="col">URL</th><th scope="col">State</th><th scope="col">Evidence</th></tr></thead>
        <tbody>
          ${rows.length === 0 && html`<tr><td colspan="3" class="empty">No ${state ? `${state} ` : ''}issues of this check.</td></tr>`}
          ${rows.map((issue, index) => html`<tr key=${`${issue.url}|${index}`} data-issue-url=${issue.url}>
            <td class="url-cell"><a href=${link('issues', { page: issue.url })}>${issue.url}</a></td>
            <td><${IssueState} state=${issue.state} /></td>
            <td><${Evidence} evidence=${issue.evidence} /></td>
          </tr>`)}
        </tbody>
      </table></div>
      ${(cursor || more) && html`<nav class="pager" aria-label="Issue pages">
        ${cursor && html`<a class="btn btn-small" href=${link('issues', { cursor: previous.at(-1) === '-' ? null : previous.at(-1) ?? null, back: previous.slice(0, -1).join(',') || null })}>Previous ${pageSize}</a>`}
        <span class="muted small">${formatNumber(offset + 1)}–${formatNumber(offset + rows.length)}</span>
        ${more && html`<a class="btn btn-small" href=${link('issues', { cursor: next, back: [...previous, cursor ?? '-'].join(',') })}>Next ${pageSize}</a>`}
      </nav>`}`}
  </section>`;
}

export function IssueState({ state }) {
  const labels = { new: 'New', open: 'Open', fixed: 'Fixed' };
  return html`<span class=${`badge issue-${state}`}>${labels[state] ?? state ?? '—'}</span>`;
}

/** An issue's evidence as a short definition list. */
export function Evidence({ evidence }) {
  const entries = evidenceEntries(evidence);
  if (entries.length === 0) return html`<span class="muted">—</span>`;
  return html`<dl class="evidence">${entries.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>`;
}

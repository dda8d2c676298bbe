// The site audit's data as the pages show it: pure functions (no DOM, no Preact), shared by the
// dashboard pages, the MCP App view and unit-tested in web/dashboard/test/site-audit.test.js.
// Every reader is defensive: a missing or differently shaped field gives an empty value, never
// an exception, so a server a little older or newer than the page still renders.

export const severities = [
  { value: 'error', label: 'Errors', one: 'Error' },
  { value: 'warning', label: 'Warnings', one: 'Warning' },
  { value: 'notice', label: 'Notices', one: 'Notice' },
];

export const issueStates = [
  { value: '', label: 'All issues' },
  { value: 'new', label: 'New since the previous crawl' },
  { value: 'open', label: 'Still open' },
  { value: 'fixed', label: 'Fixed since the previous crawl' },
];

export const crawlStatusLabels = {
  queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled',
};

export const pageStateLabels = {
  queued: 'Queued', done: 'Fetched', blocked: 'Blocked by robots.txt', error: 'Error', skipped: 'Skipped',
};

export const proofLabels = { file: 'a file', meta: 'a meta tag', dns: 'a DNS TXT record' };

export const accessLabels = { allowed: 'Allowed', partial: 'Partly disallowed', disallowed: 'Disallowed' };

export const purposeLabels = { training: 'Training', search: 'Search', user_fetch: 'User fetch', '': 'Other' };

const number = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const text = (value) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));
const list = (value) => (Array.isArray(value) ? value : []);
const object = (value) => (value && typeof value === 'object' && !Array.isArray(value) ? value : {});

/** Whether a crawl is still going (the page polls it). */
export const isActive = (crawl) => crawl?.status === 'queued' || crawl?.status === 'running';

/** A crawl's progress: { total, queued, done, blocked, error, skipped, finished, fraction }. */
export function crawlProgress(crawl) {
  const progress = object(crawl?.progress);
  const figures = {
    total: number(progress.total), queued: number(progress.queued), done: number(progress.done),
    blocked: number(progress.blocked), error: number(progress.error), skipped: number(progress.skipped),
  };
  const finished = figures.done + figures.blocked + figures.error + figures.skipped;
  // The total grows as links are found: the fraction is of what is known so far.
  const total = Math.max(figures.total, finished + figures.queued, 1);
  return { ...figures, finished, fraction: Math.min(1, finished / total) };
}

/** A finished crawl's issue counts: { issues, error, warning, notice, new, open, fixed }. */
export function crawlCounts(crawl) {
  const counts = object(crawl?.counts);
  const bySeverity = object(counts.bySeverity);
  return {
    known: Boolean(crawl?.counts),
    issues: number(counts.issues), error: number(bySeverity.error), warning: number(bySeverity.warning),
    notice: number(bySeverity.notice), new: number(counts.new), open: number(counts.open), fixed: number(counts.fixed),
  };
}

/** A rule line of get_site_audit_summary, normalized. */
export function ruleLine(rule) {
  const line = object(rule);
  const severity = severities.some((item) => item.value === line.severity) ? line.severity : 'notice';
  const id = text(line.ruleId ?? line.id);
  const count = number(line.count);
  const fresh = number(line.new);
  return { ruleId: id, title: text(line.title) || id, category: text(line.category), severity, count, new: fresh,
    open: Math.max(0, count - fresh), fixed: number(line.fixed) };
}

/** Whether a rule line has issues in a state ('' = any, in this crawl or fixed). */
export function ruleHasState(line, state) {
  if (state === 'new') return line.new > 0;
  if (state === 'open') return line.open > 0;
  if (state === 'fixed') return line.fixed > 0;
  return line.count > 0 || line.fixed > 0;
}

/**
 * The summary's rules grouped by severity, worst first: [{ severity, label, rules, count, new,
 * fixed }], every severity present (an empty group says there is nothing of that kind).
 * state filters the rules ('' keeps all).
 */
export function groupRules(rules, state = '') {
  const lines = list(rules).map(ruleLine).filter((line) => line.ruleId && ruleHasState(line, state));
  return severities.map((severity) => {
    const inGroup = lines.filter((line) => line.severity === severity.value)
      .sort((a, b) => b.count - a.count || b.fixed - a.fixed || a.title.localeCompare(b.title));
    const sum = (key) => inGroup.reduce((total, line) => total + line[key], 0);
    return { severity: severity.value, label: severity.label, rules: inGroup, count: sum('count'), new: sum('new'), fixed: sum('fixed') };
  });
}

/** Totals of the summary: by severity (from the crawl's counts when known, else the rules). */
export function summaryTotals(summary) {
  const counts = crawlCounts(summary?.crawl);
  const groups = groupRules(summary?.rules);
  const bySeverity = Object.fromEntries(groups.map((group) => [group.severity, group.count]));
  return {
    error: counts.known ? counts.error : bySeverity.error,
    warning: counts.known ? counts.warning : bySeverity.warning,
    notice: counts.known ? counts.notice : bySeverity.notice,
    issues: counts.known ? counts.issues : groups.reduce((total, group) => total + group.count, 0),
    new: counts.known ? counts.new : groups.reduce((total, group) => total + group.new, 0),
    fixed: counts.known ? counts.fixed : groups.reduce((total, group) => total + group.fixed, 0),
    pages: number(object(object(summary?.crawl?.counts).pages).done) || crawlProgress(summary?.crawl).done,
  };
}

/** What the crawl read of the site (summary.site), as short facts: [{ key, label, value, ok }]. */
export function siteFacts(site) {
  const facts = [];
  const robots = object(site?.robots);
  if (site?.robots) {
    const status = number(robots.status);
    const policy = text(robots.policy);
    const value = policy === 'disallow_all' ? `answered ${status || 'nothing'}: everything disallowed`
      : policy === 'allow_all' ? `answered ${status || 'nothing'}: everything allowed` : `found (HTTP ${status})`;
    facts.push({ key: 'robots', label: 'robots.txt', value, ok: policy !== 'disallow_all' });
  }
  if (site?.sitemaps) {
    const sitemaps = object(site.sitemaps);
    const files = list(sitemaps.files);
    facts.push({ key: 'sitemaps', label: 'Sitemaps', value: files.length === 0 ? 'none found'
      : `${files.length} file${files.length === 1 ? '' : 's'}, ${number(sitemaps.urls)} URLs${sitemaps.truncated ? ' (truncated)' : ''}`, ok: files.length > 0 });
  }
  if (site?.llmsTxt) {
    const llms = object(site.llmsTxt);
    facts.push({ key: 'llmsTxt', label: 'llms.txt', value: !llms.present ? 'not found' : llms.wellFormed ? 'present, well-formed' : 'present, not well-formed',
      ok: Boolean(llms.present && llms.wellFormed) });
  }
  if (site?.https) {
    const https = object(site.https);
    const value = !https.startUrlHttps ? 'the site is served over plain HTTP'
      : https.httpRedirectsToHttps ? 'HTTP redirects to HTTPS' : 'HTTPS, but HTTP does not redirect to it';
    facts.push({ key: 'https', label: 'HTTPS', value, ok: Boolean(https.startUrlHttps && https.httpRedirectsToHttps) });
  }
  return facts;
}

/** Each AI crawler's robots.txt verdict in the summary: [{ name, purpose, access, rule, line }]. */
export function aiCrawlerVerdicts(site) {
  return list(object(site?.robots).aiCrawlers).map((row) => {
    const entry = object(row);
    return { name: text(entry.name), purpose: text(entry.purpose), access: text(entry.access) || 'allowed', rule: text(entry.rule), line: number(entry.line) };
  }).filter((row) => row.name);
}

/**
 * An issue's evidence as [label, text] pairs: scalars as they are, lists joined, objects as
 * compact JSON; at most `limit` characters each.
 */
export function evidenceEntries(evidence, limit = 300) {
  const entries = [];
  for (const [key, value] of Object.entries(object(evidence))) {
    let shown;
    if (value === null || value === undefined) shown = '—';
    else if (typeof value === 'string') shown = value;
    else if (typeof value === 'number' || typeof value === 'boolean') shown = String(value);
    else if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) shown = value.join(', ');
    else shown = JSON.stringify(value);
    if (shown.length > limit) shown = `${shown.slice(0, limit - 1)}…`;
    entries.push([humanize(key), shown]);
  }
  return entries;
}

/** A page's clicks from the start page; a page only a sitemap names has none (depth < 0). */
export const formatDepth = (depth) => (depth === null || depth === undefined || depth < 0 ? 'not linked' : String(depth));

/** "httpStatus" → "HTTP status", "max_depth" → "Max depth". */
export function humanize(key) {
  const words = text(key).replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
    .replace(/\bhttps?\b|\burl\b|\bhtml\b|\bdns\b|\bttfb\b|\bhsts\b|\bjson\b|\bid\b/g, (word) => word.toUpperCase())
    .replace(/\bjson ld\b/gi, 'JSON-LD');
  return words ? words[0].toUpperCase() + words.slice(1) : '';
}

/** The traffic figures of a count (a number or {total, verified, spoofed, suspected}). */
export function trafficCounts(value) {
  if (typeof value === 'number') return { total: value, verified: 0, spoofed: 0, suspected: 0, split: false };
  const counts = object(value);
  return { total: number(counts.total ?? counts.requests), verified: number(counts.verified), spoofed: number(counts.spoofed),
    suspected: number(counts.suspected), split: value !== undefined && value !== null };
}

function figures(source) {
  const figure = object(source);
  return {
    requests: trafficCounts(figure.requests ?? figure.requestCount),
    disallowed: trafficCounts(figure.disallowedRequests ?? figure.requestsToDisallowedPaths ?? figure.disallowed),
    unchecked: number(figure.uncheckedRequests ?? figure.unchecked),
    topPaths: list(figure.topDisallowedPaths ?? figure.disallowedPaths ?? figure.topPaths).map((hit) => {
      const row = typeof hit === 'string' ? { path: hit } : object(hit);
      return { path: text(row.path), requests: trafficCounts(row.requests ?? row.requestCount), rule: text(row.rule), line: number(row.line) };
    }).filter((hit) => hit.path),
  };
}

/**
 * One crawler of get_robots_traffic_report, normalized: { name, purpose, listed, access,
 * statement, current, previous (null without a comparison), change }. Reads the figures from
 * `current`/`previous` objects or from flat fields on the crawler itself.
 */
export function trafficCrawler(row) {
  const entry = object(row);
  const current = figures(entry.current ?? entry);
  const previousSource = entry.previous ?? (entry.previousRequests !== undefined
    ? { requests: entry.previousRequests, disallowedRequests: entry.previousDisallowedRequests } : null);
  const previous = previousSource ? figures(previousSource) : null;
  const change = object(entry.change);
  const requestChange = object(change.requests);
  return {
    name: text(entry.name ?? entry.botName ?? entry.crawler) || 'Unnamed crawler',
    purpose: text(entry.purpose),
    listed: entry.listed !== false,
    access: ['allowed', 'partial', 'disallowed'].includes(entry.access) ? entry.access : 'allowed',
    rootRule: text(object(entry.root).rule),
    group: text(object(entry.root).group),
    statement: text(entry.statement),
    current,
    previous,
    percentageChange: typeof requestChange.percentageChange === 'number' ? requestChange.percentageChange
      : previous && previous.requests.total ? Math.round(((current.requests.total - previous.requests.total) / previous.requests.total) * 10_000) / 100 : null,
  };
}

/**
 * Whether a crawler is worth a line of its own: it came (in either window), robots.txt keeps it
 * out, or a group of robots.txt names it and restricts it. The rest — never seen, under only the
 * rules for every crawler (`*`, which make a site with any Disallow line "partly" closed to the
 * whole catalog) — are folded together by the page.
 */
export function notableCrawler(crawler) {
  const named = crawler.access === 'partial' && crawler.group !== '' && crawler.group !== '*';
  return crawler.access === 'disallowed' || named || crawler.current.requests.total > 0
    || (crawler.previous?.requests.total ?? 0) > 0;
}

/** The whole report, normalized: { crawlers, blockedPaths, totals, comparisonWindow, … }. */
export function robotsTrafficReport(report) {
  const body = object(report);
  const crawlers = list(body.crawlers ?? body.rows).map(trafficCrawler);
  const totals = object(body.totals);
  const sum = (pick) => crawlers.reduce((total, crawler) => total + pick(crawler), 0);
  const hasPrevious = crawlers.some((crawler) => crawler.previous) || Boolean(totals.previousRequests);
  return {
    crawlers,
    statements: crawlers.map((crawler) => ({ name: crawler.name, access: crawler.access, text: crawler.statement, notable: notableCrawler(crawler) }))
      .filter((item) => item.text),
    blockedPaths: list(body.blockedPaths).map((hit) => {
      const row = object(hit);
      return { path: text(row.path), requests: trafficCounts(row.requests), crawlers: list(row.crawlers).map(text) };
    }).filter((hit) => hit.path),
    totals: {
      requests: totals.requests ? trafficCounts(totals.requests) : trafficCounts(sum((crawler) => crawler.current.requests.total)),
      disallowed: totals.disallowedRequests ? trafficCounts(totals.disallowedRequests) : trafficCounts(sum((crawler) => crawler.current.disallowed.total)),
      previousRequests: !hasPrevious ? null : totals.previousRequests ? trafficCounts(totals.previousRequests)
        : trafficCounts(sum((crawler) => crawler.previous?.requests.total ?? 0)),
      previousDisallowed: !hasPrevious ? null : totals.previousDisallowedRequests ? trafficCounts(totals.previousDisallowedRequests)
        : trafficCounts(sum((crawler) => crawler.previous?.disallowed.total ?? 0)),
    },
    comparisonWindow: body.comparisonWindow ?? null,
    from: body.from ?? null,
    to: body.to ?? null,
    // Which crawl read the robots.txt the report applies ({crawlId, crawledAt, url, status,
    // policy}); null before any crawl has, when everything counts as allowed.
    robotsSource: body.robotsSource && typeof body.robotsSource === 'object' ? body.robotsSource : null,
    origin: text(body.origin),
  };
}

/** The API's percentage change rule: 100 × (current − previous) / previous, 2 decimals; null from 0. */
export function percentChange(current, previous) {
  if (current === undefined || current === null || !previous) return null;
  return Math.round(((current - previous) / previous) * 10_000) / 100;
}

/**
 * The start_site_crawl body from the form's text fields: numbers within the API's bounds
 * (blank: the server's default); the duration is asked in minutes. Returns { body, problems }.
 */
export const crawlLimits = [
  { key: 'maxPages', label: 'Most pages', min: 1, max: 100000, placeholder: '500' },
  { key: 'maxDepth', label: 'Most clicks from the start page', min: 0, max: 100, placeholder: '10' },
  { key: 'maxDurationMinutes', label: 'Longest duration (minutes)', min: 1, max: 1440, placeholder: '30' },
  { key: 'concurrency', label: 'Requests at once', min: 1, max: 8, placeholder: '2' },
  { key: 'delayMs', label: 'Pause between requests (ms)', min: 0, max: 60000, placeholder: '250' },
];

export function crawlRequest(form) {
  const body = {};
  const problems = {};
  const startUrl = text(form.startUrl).trim();
  if (startUrl) body.startUrl = startUrl;
  for (const limit of crawlLimits) {
    const raw = text(form[limit.key]).trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < limit.min || value > limit.max) {
      problems[limit.key] = `A whole number from ${limit.min} to ${limit.max}.`;
      continue;
    }
    if (limit.key === 'maxDurationMinutes') body.maxDurationSeconds = value * 60;
    else body[limit.key] = value;
  }
  return { body, problems };
}

/** The URL of a site's origin ("https://example.com") without the scheme, for short labels. */
export function hostOf(origin) {
  return text(origin).replace(/^https?:\/\//, '');
}

/** The crawl a view opens by default: the newest finished one (completed first), else the newest. */
export function defaultCrawl(crawls) {
  const all = list(crawls);
  return all.find((crawl) => crawl.status === 'completed') ?? all.find((crawl) => !isActive(crawl)) ?? all[0] ?? null;
}

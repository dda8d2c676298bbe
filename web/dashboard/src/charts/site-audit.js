// The site-audit summary's pieces, shared by the dashboard's Issues section and the MCP App view
// (no router, no api.js): the counts by severity, the checks with issues grouped by severity
// (count, new, fixed since the previous crawl), what the crawl read of the site, and each AI
// crawler's robots.txt verdict. Data is read through src/site-audit/model.js.
import { useId, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { formatNumber } from '../format.js';
import { accessLabels, aiCrawlerVerdicts, groupRules, purposeLabels, siteFacts, summaryTotals } from '../site-audit/model.js';

/** Errors, warnings, notices, new and fixed, as cards. */
export function SeverityCards({ summary, label = 'Issues by severity' }) {
  const totals = summaryTotals(summary);
  const hasPrevious = Boolean(summary?.crawl?.previousCrawlId);
  const cards = [
    { key: 'error', label: 'Errors', value: totals.error },
    { key: 'warning', label: 'Warnings', value: totals.warning },
    { key: 'notice', label: 'Notices', value: totals.notice },
    ...(hasPrevious ? [{ key: 'new', label: 'New', value: totals.new }, { key: 'fixed', label: 'Fixed', value: totals.fixed }] : []),
    { key: 'pages', label: 'Pages crawled', value: totals.pages },
  ];
  return html`<ul class="severity-cards" aria-label=${label}>
    ${cards.map((card) => html`<li class=${`severity-card sev-card-${card.key}`}>
      <span class="severity-card-label">${card.label}</span>
      <span class="severity-card-value" data-severity-count=${card.key}>${formatNumber(card.value)}</span>
    </li>`)}
  </ul>`;
}

/**
 * The checks with issues, one table per severity (worst first). ruleHref(ruleId) makes each
 * check's title a link (the dashboard); without it the title is text (the MCP App).
 */
export function RuleGroups({ rules, state = '', ruleHref, selectedRule, showChanges = true }) {
  const groups = groupRules(rules, state);
  return html`<div class="rule-groups">
    ${groups.map((group) => html`<section class="rule-group" data-severity=${group.severity} aria-labelledby=${`sev-${group.severity}-h`}>
      <h3 id=${`sev-${group.severity}-h`}>
        <span class=${`sev-dot sev-${group.severity}`} aria-hidden="true"></span>${group.label}
        <span class="muted small"> · ${formatNumber(group.rules.length)} ${group.rules.length === 1 ? 'check' : 'checks'}, ${formatNumber(group.count)} ${group.count === 1 ? 'issue' : 'issues'}</span>
      </h3>
      ${group.rules.length === 0
        ? html`<p class="muted small">No ${group.label.toLowerCase()}${state ? ' in this selection' : ''}.</p>`
        : html`<div class="table-wrap" role="region" aria-label=${`${group.label}: checks with issues`} tabindex="0"><table class="rule-table">
          <caption class="visually-hidden">${group.label}: checks with issues</caption>
          <thead><tr><th scope="col">Check</th><th scope="col">Category</th><th scope="col" class="num">Issues</th>
            ${showChanges && html`<th scope="col" class="num">New</th><th scope="col" class="num">Fixed</th>`}</tr></thead>
          <tbody>${group.rules.map((rule) => html`<tr key=${rule.ruleId} data-rule=${rule.ruleId} aria-current=${rule.ruleId === selectedRule ? 'true' : undefined}>
            <th scope="row">${ruleHref ? html`<a href=${ruleHref(rule.ruleId)}>${rule.title}</a>` : rule.title}
              <span class="rule-id muted small">${rule.ruleId}</span></th>
            <td>${rule.category || '—'}</td>
            <td class="num" data-rule-count=${rule.ruleId}>${formatNumber(rule.count)}</td>
            ${showChanges && html`<td class="num" data-rule-new=${rule.ruleId}>${formatNumber(rule.new)}</td>
              <td class="num" data-rule-fixed=${rule.ruleId}>${formatNumber(rule.fixed)}</td>`}
          </tr>`)}</tbody>
        </table></div>`}
    </section>`)}
  </div>`;
}

/** What the crawl read of the site: robots.txt, sitemaps, llms.txt, HTTPS. */
export function SiteFacts({ site }) {
  const facts = siteFacts(site);
  if (facts.length === 0) return null;
  return html`<dl class="site-facts">
    ${facts.map((fact) => html`<div class=${fact.ok ? 'fact-ok' : 'fact-warn'} data-fact=${fact.key}><dt>${fact.label}</dt>
      <dd><span class="visually-hidden">${fact.ok ? 'good: ' : 'needs attention: '}</span>${fact.value}</dd></div>`)}
  </dl>`;
}

/**
 * Each AI crawler's access under robots.txt (the summary's site.robots.aiCrawlers): the ones it
 * restricts first, in a table; the allowed ones (dozens, usually) in rows shown on request.
 */
export function AiCrawlerVerdicts({ site, caption = 'AI crawlers under robots.txt', showCaption = false }) {
  const [open, setOpen] = useState(false);
  const id = `v${useId()}`;
  const rows = aiCrawlerVerdicts(site);
  if (rows.length === 0) return null;
  const order = { disallowed: 0, partial: 1, allowed: 2 };
  const restricted = rows.filter((row) => row.access !== 'allowed').sort((a, b) => (order[a.access] ?? 2) - (order[b.access] ?? 2));
  const allowed = rows.filter((row) => row.access === 'allowed');
  const row = (entry) => html`<tr key=${entry.name}>
    <th scope="row">${entry.name}</th>
    <td>${purposeLabels[entry.purpose] ?? entry.purpose}</td>
    <td><span class=${`badge access-${entry.access}`} data-access=${entry.name}>${accessLabels[entry.access] ?? entry.access}</span></td>
    <td>${entry.rule ? html`<code>${entry.rule}</code>${entry.line ? html` <span class="muted small">line ${entry.line}</span>` : ''}`
      : html`<span class="muted">${entry.access === 'partial' ? 'allowed at /, some paths disallowed' : entry.access === 'allowed' ? 'no rule (allowed)' : '—'}</span>`}</td>
  </tr>`;
  return html`<div class="verdicts">
    <div class="table-wrap" role="region" aria-label=${caption} tabindex="0"><table class="verdict-table">
      <caption class=${showCaption ? '' : 'visually-hidden'}>${caption}</caption>
      <thead><tr><th scope="col">Crawler</th><th scope="col">Purpose</th><th scope="col">Access</th><th scope="col">Deciding rule</th></tr></thead>
      <tbody>
        ${restricted.length === 0 && html`<tr><td colspan="4" class="empty">robots.txt restricts no AI crawler.</td></tr>`}
        ${restricted.map(row)}
      </tbody>
      ${allowed.length > 0 && html`<tbody id=${id} hidden=${!open}>${allowed.map(row)}</tbody>`}
    </table></div>
    ${allowed.length > 0 && html`<p class="quiet-toggle"><button type="button" class="toggle-link" aria-expanded=${open ? 'true' : 'false'}
      aria-controls=${id} onClick=${() => setOpen(!open)}>${open ? 'Hide' : 'Show'} the ${allowed.length} allowed ${allowed.length === 1 ? 'crawler' : 'crawlers'}</button></p>`}
  </div>`;
}

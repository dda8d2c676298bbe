// /{org}/{project}/usage: events per calendar month (UTC), humans and bots (get_usage), as a
// table with plain CSS bars.
import { html, PageHeader, Section, Loading, ErrorNotice } from '../ui/index.js';
import { useOperation } from '../data.js';
import { useProjectScope } from '../context.js';
import { formatDate, formatNumber } from '../format.js';

export function UsagePage() {
  const usage = useOperation('get_usage', useProjectScope(), { select: (body) => body.months });
  const months = [...(usage.data ?? [])].sort((a, b) => b.month.localeCompare(a.month));
  const max = Math.max(1, ...months.map((month) => month.humanEvents + month.botEvents));
  return html`<div>
    <${PageHeader} title="Usage" />
    <${Section} title="Events per month" description="Counted per calendar month in UTC. Human events are what is billed; bot events are counted apart.">
      ${usage.loading && !usage.data && html`<${Loading} />`}
      <${ErrorNotice} error=${usage.error} />
      ${usage.data && html`<div class="table-wrap" role="region" aria-label="Events per month" tabindex="0">
        <table class="usage-table">
          <caption class="visually-hidden">Events per month</caption>
          <thead><tr><th scope="col">Month</th><th scope="col" class="num">Human events</th><th scope="col" class="num">Bot events</th><th scope="col" class="num">Total</th><th scope="col"><span class="visually-hidden">Share</span></th></tr></thead>
          <tbody>
            ${months.length === 0 && html`<tr><td colspan="5" class="empty">No events yet.</td></tr>`}
            ${months.map((month) => html`<tr key=${month.month}>
              <th scope="row">${formatDate(`${month.month.slice(0, 7)}-01`, { year: 'numeric', month: 'long' })}</th>
              <td class="num">${formatNumber(month.humanEvents)}</td>
              <td class="num">${formatNumber(month.botEvents)}</td>
              <td class="num">${formatNumber(month.humanEvents + month.botEvents)}</td>
              <td class="bar-cell" aria-hidden="true"><span class="stack-bar">
                <span class="stack-bar-human" style=${{ width: `${(100 * month.humanEvents) / max}%` }}></span>
                <span class="stack-bar-bot" style=${{ width: `${(100 * month.botEvents) / max}%` }}></span>
              </span></td>
            </tr>`)}
          </tbody>
        </table>
      </div>
      <p class="legend small muted"><span class="swatch swatch-human" aria-hidden="true"></span>Human events <span class="swatch swatch-bot" aria-hidden="true"></span>Bot events</p>`}
    <//>
  </div>`;
}

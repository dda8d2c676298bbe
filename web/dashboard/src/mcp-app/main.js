// The MCP Apps view (ui://sightline/reports.html): a host (Claude, ChatGPT, an IDE…) renders it
// in a sandboxed iframe beside the result of get_web_analytics, get_web_timeline,
// get_web_breakdown, get_bot_timeline, get_top_bots, get_ai_visibility,
// get_ai_visibility_loop or get_site_audit_summary. It draws the result with the dashboard's
// charts and, for the reports over a period, lets the user pick another period, which calls the
// same tool again through the host (app.callServerTool). A site-audit summary is one crawl's:
// it has no period. Built by build.mjs into one self-contained HTML file.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { HostLink } from './host-link.js';
import { html } from '../ui/html.js';
import { formatDate } from '../format.js';
import { presetRange, todayIn } from '../reports/period.js';
import { ReportView, kindOf, periodlessKinds, toolOfKind } from './views.js';
import './app.css';

const app = new HostLink({ name: 'Sightline reports', version: '1.0.0' });

const presets = [
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'mtd', label: 'Month to date' },
  { value: 'last_month', label: 'Last month' },
  { value: '12mo', label: 'Last 12 months' },
];

/** What the view knows: the tool's arguments, its result, and the state of a new call. */
let state = { args: {}, content: null, toolName: null, busy: false, error: null, period: '' };
const listeners = new Set();
function update(patch) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener(state);
}

function applyTheme(context) {
  const theme = context?.theme;
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
}

app.ontoolinput = (params) => update({ args: params.arguments ?? {} });
app.ontoolresult = (result) => {
  if (result.isError) {
    update({ error: result.content?.find((item) => item.type === 'text')?.text ?? 'The tool failed.' });
    return;
  }
  const content = result.structuredContent;
  const kind = kindOf(content);
  update({ content, error: null, toolName: state.toolName ?? (kind ? toolOfKind[kind] : null) });
};
app.onhostcontextchanged = (context) => applyTheme(context);

/** Calls the same tool for another period, through the host. */
async function choosePeriod(preset) {
  const { content } = state;
  const toolName = state.toolName ?? toolOfKind[kindOf(content)];
  if (!toolName || !preset) return;
  const range = presetRange(preset, todayIn(content?.timezone ?? 'UTC'));
  const args = { ...state.args, from: range.from, to: range.to };
  if (kindOf(content) === 'webBreakdown' && !args.dimension) args.dimension = content.dimension;
  update({ busy: true, error: null, period: preset });
  try {
    const result = await app.callServerTool({ name: toolName, arguments: args });
    if (result.isError) throw new Error(result.content?.find((item) => item.type === 'text')?.text ?? 'The tool failed.');
    update({ args, content: result.structuredContent, busy: false });
  } catch (error) {
    update({ busy: false, error: error.message || String(error) });
  }
}

/** "Site audit of https://example.com · crawled 3 Mar 2026, 10:04": the summary's heading line. */
function crawlLine(content) {
  const crawl = content.crawl ?? {};
  const when = crawl.finishedAt ?? crawl.startedAt ?? crawl.createdAt;
  return `Site audit${content.origin ? ` of ${content.origin}` : ''}${when ? ` · crawled ${formatDate(when)}` : ''}`;
}

function View() {
  const [current, setCurrent] = useState(state);
  useEffect(() => { listeners.add(setCurrent); return () => listeners.delete(setCurrent); }, []);
  const { content, busy, error, period } = current;
  const periodless = periodlessKinds.has(kindOf(content));
  const kind = kindOf(content);
  const range = !content ? ''
    : kind === 'query' ? `Query over ${content.query.date_range.map((end) => formatDate(end.slice(0, 10))).join(' – ')}`
      : periodless ? crawlLine(content) : `${formatDate(content.from)} – ${formatDate(content.to)}`;
  return html`<main class="mcp-report" aria-busy=${busy ? 'true' : 'false'}>
    <header class="mcp-head">
      <p class="mcp-range" aria-live="polite">${content ? range : 'Waiting for the report…'}</p>
      ${!periodless && html`<div class="field">
        <label for="mcp-period">Period</label>
        <select id="mcp-period" disabled=${!content || busy} onChange=${(event) => choosePeriod(event.currentTarget.value)}>
          <option value="" selected=${!period}>Choose a period…</option>
          ${presets.map((preset) => html`<option value=${preset.value} selected=${preset.value === period}>${preset.label}</option>`)}
        </select>
      </div>`}
    </header>
    ${error && html`<p class="mcp-error" role="alert">${error}</p>`}
    ${content && html`<${ReportView} content=${content} />`}
  </main>`;
}

render(html`<${View} />`, document.getElementById('app'));
app.connect().then(() => applyTheme(app.hostContext), (error) => update({ error: `Could not connect to the host: ${error.message}` }));

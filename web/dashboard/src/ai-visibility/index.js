// /{org}/{projectId}/ai-visibility: how AI assistants answer the project's tracked prompts.
// One lazily loaded chunk (app.js imports it on demand) with five sections, chosen by ?tab=:
// the report (overview), the loop, answer evidence, runs and setup. Everything a view shows is
// in the URL (period, comparison, groupBy, sources, engineId, topic, path, the answer filters,
// answer=<id>), so a view can be shared and reloaded.
import { html } from '../ui/html.js';
import { Loading, Notice, PageHeader, useLoad, useTitle } from '../ui/index.js';
import { api, seg } from '../api.js';
import { RequestError } from '../reports/sections.js';
import { loadPermissions } from '../permissions.js';
import { OverviewTab, LoopTab } from './report.js';
import { AnswersTab } from './answers.js';
import { RunsTab } from './runs.js';
import { SetupTab } from './setup.js';
import { tabHref } from './links.js';

export const tabs = [
  { value: 'overview', label: 'Overview' },
  { value: 'loop', label: 'The loop' },
  { value: 'answers', label: 'Answers' },
  { value: 'runs', label: 'Runs' },
  { value: 'setup', label: 'Setup' },
];

export function AiVisibilityPage({ org, project, query, setQuery, navigate }) {
  useTitle(`AI visibility · ${project.name}`);
  const base = `/${seg(org.slug)}/projects/${seg(project.id)}/ai-visibility`;
  const tab = tabs.some((item) => item.value === query.tab) ? query.tab : 'overview';
  const permissions = useLoad(() => loadPermissions(org.slug), [org.slug]);
  const canManage = (permissions.data ?? []).includes('aivisibility.manage');
  const config = useLoad(() => Promise.all([api.get(`${base}/brands`), api.get(`${base}/prompts`), api.get(`${base}/engines`)])
    .then(([brands, prompts, engines]) => ({ brands: brands.brands, prompts: prompts.prompts, engines: engines.engines })), [base]);

  const props = { org, project, query, setQuery, navigate, base, config: config.data, reloadConfig: config.reload, canManage };
  const ready = config.data !== undefined;
  const incomplete = ready && (config.data.brands.length === 0 || !config.data.prompts.some((prompt) => prompt.active)
    || !config.data.engines.some((engine) => engine.active));

  return html`<div class="report ai-visibility">
    <${PageHeader} title="AI visibility" />
    <nav class="tabs page-tabs" aria-label="AI visibility sections">
      ${tabs.map((item) => html`<a href=${tabHref(org, project, query, item.value)} aria-current=${item.value === tab ? 'page' : undefined}>${item.label}</a>`)}
    </nav>
    <${RequestError} error=${config.error} />
    ${!ready && !config.error && html`<${Loading} />`}
    ${ready && incomplete && tab !== 'setup' && html`<${EmptyState} config=${config.data} canManage=${canManage}
      setupHref=${tabHref(org, project, query, 'setup')} />`}
    ${ready && tab === 'overview' && !incomplete && html`<${OverviewTab} ...${props} />`}
    ${ready && tab === 'loop' && html`<${LoopTab} ...${props} />`}
    ${ready && tab === 'answers' && html`<${AnswersTab} ...${props} />`}
    ${ready && tab === 'runs' && html`<${RunsTab} ...${props} />`}
    ${ready && tab === 'setup' && html`<${SetupTab} ...${props} />`}
  </div>`;
}

/** What is missing before the first run, and what each piece is. */
function EmptyState({ config, canManage, setupHref }) {
  const steps = [
    { done: config.brands.length > 0, title: 'Brands', text: 'your own brand and the competitors to watch, each with its aliases and domains (so mentions and citations are recognised).' },
    { done: config.prompts.some((prompt) => prompt.active), title: 'Prompts', text: 'the questions people ask AI assistants about your market, with a topic to group them.' },
    { done: config.engines.some((engine) => engine.active), title: 'Engines', text: 'the AI models that answer them (OpenAI-compatible, Anthropic or Perplexity), with an API key.' },
  ];
  return html`<section class="card empty-state" aria-labelledby="aiv-empty-heading">
    <h2 id="aiv-empty-heading">Set up AI visibility</h2>
    <p>Sightline asks AI assistants your prompts, several times each (answers vary), and measures how often each brand is
      mentioned and which pages are cited. It needs three things:</p>
    <ol class="setup-steps">
      ${steps.map((step) => html`<li class=${step.done ? 'done' : ''}>
        <strong>${step.title}</strong> <span class=${`badge ${step.done ? 'badge-success' : ''}`}>${step.done ? 'done' : 'to do'}</span>: ${step.text}
      </li>`)}
    </ol>
    <p>Then start a run (or turn on the daily or weekly schedule); the reports fill in as the answers arrive.</p>
    ${canManage
      ? html`<p><a class="btn btn-primary" href=${setupHref}>Go to setup</a></p>`
      : html`<${Notice} kind="info">Ask an owner, admin or developer of this organization to set it up: your role can read AI visibility but not change it.<//>`}
  </section>`;
}

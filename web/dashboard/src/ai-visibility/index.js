// /{org}/{projectId}/ai-visibility: how AI assistants answer the project's tracked prompts.
// One lazily loaded chunk (app.js imports it on demand) with five sections, chosen by ?tab=:
// the report (overview), the loop, answer evidence, runs and setup. Everything a view shows is
// in the URL (period, comparison, groupBy, sources, engineId, topic, path, the answer filters,
// answer=<id>), so a view can be shared and reloaded.
import { useMemo, useRef } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Loading, Notice, PageHeader, useTitle } from '../ui/index.js';
import { operation, useOperations } from '../data.js';
import { useRoute } from '../router.js';
import { useOrganization, usePermissions, useProject, useProjectScope } from '../context.js';
import { RequestError } from '../reports/sections.js';
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

export function AiVisibilityPage() {
  const org = useOrganization();
  const project = useProject();
  const scope = useProjectScope();
  const { query } = useRoute();
  useTitle(`AI visibility · ${project.name}`);
  const tab = tabs.some((item) => item.value === query.tab) ? query.tab : 'overview';
  const canManage = usePermissions().includes('aivisibility.manage');
  const answers = useOperations({
    brands: operation('list_ai_brands', scope, { select: (body) => body.brands }),
    prompts: operation('list_ai_prompts', scope, { select: (body) => body.prompts }),
    engines: operation('list_ai_engines', scope, { select: (body) => body.engines }),
  });
  const config = useConfig(answers);

  const props = { scope, config: config.data, reloadConfig: config.reload, canManage };
  const ready = config.data !== undefined;
  // Engines turned off after runs (or, in the demo, a scripted one) leave the answers that were
  // made: the report still shows them, under a notice; only a setup never finished hides it.
  const incomplete = ready && (config.data.brands.length === 0 || !config.data.prompts.some((prompt) => prompt.active)
    || config.data.engines.length === 0);
  const paused = ready && !incomplete && !config.data.engines.some((engine) => engine.active);

  return html`<div class="report ai-visibility">
    <${PageHeader} title="AI visibility" />
    <nav class="tabs page-tabs" aria-label="AI visibility sections">
      ${tabs.map((item) => html`<a href=${tabHref(org, project, query, item.value)} aria-current=${item.value === tab ? 'page' : undefined}>${item.label}</a>`)}
    </nav>
    <${RequestError} error=${config.error} />
    ${!ready && !config.error && html`<${Loading} />`}
    ${ready && incomplete && tab !== 'setup' && html`<${EmptyState} config=${config.data} canManage=${canManage}
      setupHref=${tabHref(org, project, query, 'setup')} />`}
    ${paused && tab !== 'setup' && html`<${Notice} kind="info">Every engine is turned off, so no new runs are made; the reports show the answers of past runs.
      ${canManage && html` <a href=${tabHref(org, project, query, 'setup')}>Turn one on in Setup</a>.`}<//>`}
    ${ready && tab === 'overview' && !incomplete && html`<${OverviewTab} ...${props} />`}
    ${ready && tab === 'loop' && html`<${LoopTab} ...${props} />`}
    ${ready && tab === 'answers' && html`<${AnswersTab} ...${props} />`}
    ${ready && tab === 'runs' && html`<${RunsTab} ...${props} />`}
    ${ready && tab === 'setup' && html`<${SetupTab} ...${props} />`}
  </div>`;
}

/**
 * The setup the sections share: { data: { brands, prompts, engines } once all three are read,
 * error, reload() } (reload resolves when all three are read again).
 */
function useConfig({ brands, prompts, engines }) {
  const parts = [brands, prompts, engines];
  const complete = parts.every((part) => part.data !== undefined && !part.loading);
  const data = useMemo(() => (complete ? { brands: brands.data, prompts: prompts.data, engines: engines.data } : undefined),
    [complete, brands.data, prompts.data, engines.data]);
  // While a reload runs, the sections keep the setup they show (as they did before).
  const kept = useRef(undefined);
  if (data) kept.current = data;
  return {
    data: kept.current,
    error: parts.find((part) => part.error)?.error ?? null,
    reload: () => Promise.all(parts.map((part) => part.reload())),
  };
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

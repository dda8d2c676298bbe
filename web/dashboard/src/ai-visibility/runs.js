// Runs: the latest runs with their progress (list_ai_visibility_runs), "Run now"
// (start_ai_visibility_run: every active prompt × engine, repeated as the settings say) and
// cancel (cancel_ai_visibility_run). While a run is queued or running the list is read again
// every 2 seconds.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Button, Loading, Notice, Table, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { useRoute } from '../router.js';
import { useOrganization, useProject } from '../context.js';
import { formatDate, formatNumber } from '../format.js';
import { RequestError } from '../reports/sections.js';
import { tabHref } from './links.js';

export const runStatusLabels = {
  queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled', budget_exhausted: 'Stopped: daily budget',
};
const active = (run) => run.status === 'queued' || run.status === 'running';
const usd = (value) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }).format(value ?? 0);

/** A refused run explained: no active prompt or engine (AIV_001), the daily budget (AIV_002). */
function describeRunError(error) {
  if (!error) return null;
  if (error.code === 'AIV_002') {
    const { budget, limit, used } = error.details ?? {};
    const what = budget === 'tokens' || budget === 'maxTokensPerDay' ? 'tokens' : 'runs';
    const figures = limit !== undefined ? ` (${formatNumber(used ?? 0)} of ${formatNumber(limit)} ${what} used today)` : '';
    return { ...error, message: `${error.message.replace(/\.$/, '')}${figures}. Raise the budget in Setup or wait until tomorrow.` };
  }
  return error;
}

export function RunsTab({ scope, canManage }) {
  const org = useOrganization();
  const project = useProject();
  const { query } = useRoute();
  const runs = useOperation('list_ai_visibility_runs', { ...scope, limit: 20 }, { select: (body) => body.runs });
  const [notice, setNotice] = useState(null);
  const anyActive = (runs.data ?? []).some(active);
  useEffect(() => {
    if (!anyActive) return undefined;
    const timer = setTimeout(() => runs.reload(), 2000);
    return () => clearTimeout(timer);
  }, [runs.data]);
  const start = useAction(async () => {
    setNotice(null);
    const run = await api.call('start_ai_visibility_run', scope);
    setNotice(`Run started: ${formatNumber(run.progress.total)} answers to ask.`);
    await runs.reload();
  });
  const cancel = useAction(async (run) => {
    await api.call('cancel_ai_visibility_run', { ...scope, runId: run.id });
    setNotice('Run cancelled.');
    await runs.reload();
  });

  const columns = [
    { key: 'createdAt', label: 'Started', render: (run) => html`<span data-run=${run.id}>${formatDate(run.createdAt)}</span>` },
    { key: 'trigger', label: 'Trigger', render: (run) => (run.trigger === 'manual' ? 'Manual' : `Scheduled${run.slot ? ` (${run.slot})` : ''}`) },
    { key: 'status', label: 'Status', render: (run) => html`<span class=${`badge run-${run.status}`} data-run-status=${run.id}>${runStatusLabels[run.status] ?? run.status}</span>` },
    { key: 'progress', label: 'Progress', render: (run) => {
      const { total, done, failed, skipped } = run.progress;
      const finished = done + failed + skipped;
      return html`<div class="run-progress">
        <progress max=${Math.max(total, 1)} value=${finished} aria-label=${`Progress of the run started ${formatDate(run.createdAt)}`}></progress>
        <span class="small">${formatNumber(done)} of ${formatNumber(total)} answered${failed ? `, ${formatNumber(failed)} failed` : ''}${skipped ? `, ${formatNumber(skipped)} skipped` : ''}</span>
      </div>`;
    } },
    { key: 'tokens', label: 'Tokens', numeric: true, render: (run) => formatNumber(run.progress.inputTokens + run.progress.outputTokens) },
    { key: 'cost', label: 'Cost', numeric: true, render: (run) => usd(run.progress.costUsd) },
    { key: 'actions', label: 'Actions', render: (run) => html`<div class="row">
      <a href=${tabHref(org, project, query, 'answers', { runId: run.id })}>Answers<span class="visually-hidden"> of the run started ${formatDate(run.createdAt)}</span></a>
      ${canManage && active(run) && html`<${Button} class="btn-small" busy=${cancel.busy} onClick=${() => cancel.run(run)}>Cancel<span class="visually-hidden"> the run started ${formatDate(run.createdAt)}</span><//>`}
    </div>` },
  ];
  return html`<section class="card" aria-labelledby="aiv-runs-heading">
    <div class="card-head">
      <div><h2 id="aiv-runs-heading">Runs</h2>
        <p class="muted">Each run asks every active prompt of every active engine, repeated as many times as the settings say.</p></div>
      ${canManage && html`<div class="card-actions"><${Button} kind="primary" busy=${start.busy} onClick=${() => start.run()}>Run now<//></div>`}
    </div>
    <${RequestError} error=${describeRunError(start.error) ?? cancel.error} />
    ${notice && html`<${Notice} kind="success">${notice}<//>`}
    ${anyActive && html`<p class="muted small" role="status">Updating every 2 seconds while a run is in progress.</p>`}
    <${RequestError} error=${runs.error} />
    ${runs.loading && !runs.data ? html`<${Loading} label="Loading the runs…" />`
      : html`<${Table} caption="Latest runs" columns=${columns} rows=${runs.data ?? []} rowKey=${(run) => run.id} empty="No runs yet." />`}
  </section>`;
}

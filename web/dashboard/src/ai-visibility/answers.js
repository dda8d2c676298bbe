// Answer evidence: the tracked answers (list_ai_answers) filtered by run, prompt, engine and
// brand (runId, promptId, engineId, brandId in the URL, 20 a page, by cursor), and one answer
// (get_ai_answer, answer=<id>) with its brand mentions highlighted, the mentions' details, its
// citations and the raw response.
import { html } from '../ui/html.js';
import { Button, ErrorNotice, Loading } from '../ui/index.js';
import { operation, useOperation, useOperations } from '../data.js';
import { setQuery, useRoute } from '../router.js';
import { formatDate, formatNumber } from '../format.js';
import { highlight } from './highlight.js';

const pageSize = 20;

function filterSelect({ id, label, value, options, onChange, all }) {
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <select id=${id} onChange=${(event) => onChange(event.currentTarget.value || null)}>
      <option value="" selected=${!value}>${all}</option>
      ${options.map((option) => html`<option value=${option.value} selected=${option.value === value}>${option.label}</option>`)}
    </select>
  </div>`;
}

export function AnswersTab({ scope, config }) {
  const { query } = useRoute();
  const brandsById = new Map(config.brands.map((brand) => [brand.id, brand]));
  if (query.answer) return html`<${AnswerView} scope=${scope} id=${query.answer} config=${config} brandsById=${brandsById}
    onBack=${() => setQuery({ answer: null })} />`;
  const filters = {
    runId: query.runId || null, promptId: query.promptId || null, engineId: query.engineId || null, brandId: query.brandId || null,
  };
  // The page's cursor is in the URL, with the cursors of the pages before it ("back"), so
  // "Previous page" can go back.
  const cursor = query.cursor || null;
  const previous = (query.back ?? '').split(',').filter(Boolean);
  const { runs, answers } = useOperations({
    runs: operation('list_ai_visibility_runs', { ...scope, limit: 50 }, { select: (body) => body.runs }),
    answers: operation('list_ai_answers', { ...scope, ...filters, limit: pageSize, cursor }),
  });
  const set = (key) => (value) => setQuery({ [key]: value, cursor: null, back: null });
  const next = answers.data?.nextCursor ?? null;
  const promptText = (id) => config.prompts.find((prompt) => prompt.id === id)?.text ?? '(deleted prompt)';
  const engineName = (id) => config.engines.find((engine) => engine.id === id)?.name ?? '(deleted engine)';
  const list = answers.data?.answers ?? [];

  return html`<section class="card" aria-labelledby="aiv-answers-heading">
    <div class="card-head"><div>
      <h2 id="aiv-answers-heading">Answers</h2>
      <p class="muted">What each engine answered to each prompt, with the brands it mentioned and the pages it cited.</p>
    </div></div>
    <div class="crawler-filters answer-filters" role="group" aria-label="Filter answers">
      ${filterSelect({ id: 'aiv-f-run', label: 'Run', value: filters.runId, onChange: set('runId'), all: 'All runs',
        options: (runs.data ?? []).map((run) => ({ value: run.id, label: `${formatDate(run.createdAt)} (${run.status.replace(/_/g, ' ')})` })) })}
      ${filterSelect({ id: 'aiv-f-prompt', label: 'Prompt', value: filters.promptId, onChange: set('promptId'), all: 'All prompts',
        options: config.prompts.map((prompt) => ({ value: prompt.id, label: prompt.text.length > 60 ? `${prompt.text.slice(0, 59)}…` : prompt.text })) })}
      ${filterSelect({ id: 'aiv-f-engine', label: 'Engine', value: filters.engineId, onChange: set('engineId'), all: 'All engines',
        options: config.engines.map((engine) => ({ value: engine.id, label: engine.name })) })}
      ${filterSelect({ id: 'aiv-f-brand', label: 'Mentions brand', value: filters.brandId, onChange: set('brandId'), all: 'Any brand',
        options: config.brands.map((brand) => ({ value: brand.id, label: brand.name })) })}
    </div>
    <${ErrorNotice} error=${answers.error ?? runs.error} />
    ${answers.loading && !answers.data && html`<${Loading} label="Loading the answers…" />`}
    ${answers.data && list.length === 0 && html`<p class="muted">No answers${cursor ? ' on this page' : ' match these filters yet'}.</p>`}
    <ol class="answer-list" aria-busy=${answers.loading ? 'true' : 'false'}>
      ${list.map((answer) => html`<li key=${answer.id} class="answer-item" data-answer=${answer.id}>
        <h3 class="answer-prompt">${promptText(answer.promptId)}</h3>
        <p class="muted small">${engineName(answer.engineId)} · repetition ${answer.repetition} · ${answer.status}
          · ${formatDate(answer.answeredAt)}</p>
        ${answer.error ? html`<p class="notice notice-error">${answer.error}</p>`
          : html`<p class="answer-excerpt">${answer.answer.length > 240 ? `${answer.answer.slice(0, 239)}…` : answer.answer}</p>`}
        <p class="answer-badges">
          ${answer.mentions.map((mention) => html`<span class="badge" key=${mention.brandId}>#${mention.rank} ${brandsById.get(mention.brandId)?.name ?? 'brand'}</span> `)}
          ${answer.citations.length > 0 && html`<span class="muted small">${formatNumber(answer.citations.length)} citation${answer.citations.length === 1 ? '' : 's'}</span>`}
        </p>
        <a href=${`?${new URLSearchParams({ ...query, answer: answer.id })}`}>Open answer<span class="visually-hidden"> to “${promptText(answer.promptId)}”, repetition ${answer.repetition}</span></a>
      </li>`)}
    </ol>
    ${(cursor || next) && html`<div class="pager">
      <${Button} disabled=${!cursor} onClick=${() => setQuery({ cursor: previous.at(-1) === '-' ? null : previous.at(-1) ?? null, back: previous.slice(0, -1).join(',') || null })}>Previous page<//>
      <${Button} disabled=${!next} onClick=${() => setQuery({ cursor: next, back: [...previous, cursor ?? '-'].join(',') })}>Next page<//>
    </div>`}
  </section>`;
}

function AnswerView({ scope, id, config, brandsById, onBack }) {
  const answer = useOperation('get_ai_answer', { ...scope, answerId: id });
  const data = answer.data;
  const prompt = data && config.prompts.find((item) => item.id === data.promptId);
  const engine = data && config.engines.find((item) => item.id === data.engineId);
  return html`<section class="card answer-view" aria-labelledby="aiv-answer-heading">
    <div class="card-head">
      <h2 id="aiv-answer-heading" tabindex="-1">${prompt ? `“${prompt.text}”` : 'Answer'}</h2>
      <${Button} class="btn-small" onClick=${onBack}>Back to the answers<//>
    </div>
    <${ErrorNotice} error=${answer.error} />
    ${!data && !answer.error && html`<${Loading} label="Loading the answer…" />`}
    ${data && html`
      <dl class="details-list">
        <dt>Engine</dt><dd>${engine?.name ?? '(deleted engine)'} (${data.model || engine?.model || '—'})</dd>
        <dt>Answered</dt><dd>${formatDate(data.answeredAt)} · repetition ${data.repetition} · ${data.status}${data.attempts > 1 ? ` after ${data.attempts} attempts` : ''}</dd>
        <dt>Tokens and cost</dt><dd>${formatNumber(data.inputTokens)} in, ${formatNumber(data.outputTokens)} out · ${new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }).format(data.costUsd ?? 0)}</dd>
        ${data.judgeModel && html`<dt>Judged by</dt><dd>${data.judgeModel}</dd>`}
      </dl>
      ${data.error && html`<p class="notice notice-error">${data.error}</p>`}
      <h3>Answer</h3>
      <blockquote class="answer-text" data-answer-text>${highlight(data.answer ?? '', data.mentions, brandsById).map((part) => (part.brandId
        ? html`<mark class="mention" data-brand=${part.brandId} data-first=${part.first ? 'true' : undefined}
            title=${brandsById.get(part.brandId)?.name}>${part.text}</mark>`
        : part.text))}</blockquote>
      <h3>Mentions</h3>
      ${data.mentions.length === 0 ? html`<p class="muted">No tracked brand is mentioned.</p>` : html`<div class="table-wrap" role="region" aria-label="Mentions" tabindex="0"><table>
        <caption class="visually-hidden">Mentions</caption>
        <thead><tr><th scope="col">Brand</th><th scope="col" class="num">Position</th><th scope="col" class="num">Times</th>
          <th scope="col">Recommended</th><th scope="col" class="num">Sentiment</th><th scope="col">Sentence</th></tr></thead>
        <tbody>${data.mentions.map((mention) => html`<tr key=${mention.brandId} data-mention=${mention.brandId}>
          <td>${brandsById.get(mention.brandId)?.name ?? '(deleted brand)'}</td>
          <td class="num">${mention.rank}</td><td class="num">${mention.occurrences}</td>
          <td>${mention.recommended === null ? '—' : mention.recommended ? 'yes' : 'no'}</td>
          <td class="num">${mention.sentiment === null ? '—' : formatNumber(mention.sentiment)}</td>
          <td class="snippet">${mention.snippet}</td>
        </tr>`)}</tbody>
      </table></div>`}
      <h3>Citations</h3>
      ${data.citations.length === 0 ? html`<p class="muted">No citations.</p>` : html`<ol class="citation-list">
        ${data.citations.map((citation) => html`<li key=${citation.position} data-citation=${citation.url}>
          <a href=${citation.url} rel="noopener noreferrer nofollow" target="_blank">${citation.title || citation.url}</a>
          ${citation.owned && html` <span class="badge badge-own">owned</span>`}
          <span class="muted small"> ${citation.domain}${citation.path} · ${citation.origin === 'provider' ? 'from the provider' : 'a link in the text'}</span>
        </li>`)}
      </ol>`}
      ${data.rawResponse !== undefined && html`<details class="raw-response"><summary>Raw response</summary>
        <pre tabindex="0">${typeof data.rawResponse === 'string' ? data.rawResponse : JSON.stringify(data.rawResponse, null, 2)}</pre></details>`}
    `}
  </section>`;
}

// The conversation as the user reads it: questions and answers as bubbles, and each operation
// the assistant called as a card with its arguments, its state (running, waiting for approval,
// done, failed, declined) and its result; a report result is drawn with the dashboard's charts
// (the MCP App's ReportView, which knows every report's shape).
import { html } from '../ui/html.js';
import { Button } from '../ui/index.js';
import { formatDate } from '../format.js';
import { ReportView, kindOf } from '../mcp-app/views.js';

const parse = (text) => {
  try { return JSON.parse(text); } catch { return undefined; }
};

/** Rows in order, each tool_call joined with its tool_result (matched by toolCallId). */
export function conversationItems(messages) {
  const results = new Map();
  for (const row of messages) if (row.role === 'tool_result' && row.toolCallId) results.set(row.toolCallId, row);
  const items = [];
  for (const row of messages) {
    if (row.role === 'tool_result') {
      // A result whose call is not in view (should not happen) is still shown.
      if (!messages.some((other) => other.role === 'tool_call' && other.toolCallId === row.toolCallId)) items.push({ kind: 'tool', call: null, result: row });
      continue;
    }
    if (row.role === 'tool_call') items.push({ kind: 'tool', call: row, result: results.get(row.toolCallId) ?? null });
    else items.push({ kind: 'text', row });
  }
  return items;
}

/** What state a call is in, from its approval and its result. */
export function toolState(call, result, { answering }) {
  const parsed = result ? parse(result.content) : undefined;
  if (call?.approval === 'pending') return 'awaiting_approval';
  if (call?.approval === 'rejected') return 'declined';
  if (!result) return answering ? 'running' : 'not_run';
  if (parsed?.error) return 'failed';
  return 'done';
}

const stateLabels = {
  running: 'Running…',
  awaiting_approval: 'Waits for your approval',
  declined: 'Declined',
  not_run: 'Not run',
  failed: 'Failed',
  done: 'Done',
};

export function MessageBubble({ row }) {
  const mine = row.role === 'user';
  return html`<article class=${`chat-message ${mine ? 'is-user' : 'is-assistant'}`} aria-label=${mine ? 'You' : 'Assistant'}>
    <p class="chat-author">${mine ? 'You' : 'Assistant'}${row.createdAt && html` <time class="muted" datetime=${row.createdAt}>${formatDate(row.createdAt, { timeStyle: 'short' })}</time>`}</p>
    <div class="chat-text">${row.content}</div>
  </article>`;
}

/** The assistant's text while the model writes it. */
export function DraftBubble({ text }) {
  return html`<article class="chat-message is-assistant is-draft" aria-label="Assistant (writing)">
    <p class="chat-author">Assistant <span class="muted">writing…</span></p>
    <div class="chat-text">${text}</div>
  </article>`;
}

/** One operation call: name, arguments, state, result (a chart for reports). */
export function ToolCard({ call, result, answering, deciding, onDecide }) {
  const state = toolState(call, result, { answering });
  const name = call?.toolName ?? result?.toolName ?? 'operation';
  const args = call ? parse(call.content) ?? call.content : undefined;
  const argsText = args === undefined ? '' : typeof args === 'string' ? args : JSON.stringify(args, null, 2);
  const parsed = result ? parse(result.content) : undefined;
  return html`<article class=${`chat-tool is-${state}`} aria-label=${`Operation ${name}`}>
    <div class="chat-tool-head">
      <span class="chat-tool-name"><span class="visually-hidden">Operation </span><code>${name}</code></span>
      <span class=${`badge ${state === 'done' ? 'badge-success' : state === 'failed' ? 'badge-danger' : ''}`}>
        ${state === 'running' && html`<span class="spinner" aria-hidden="true"></span>`}${stateLabels[state]}
      </span>
    </div>
    ${argsText && argsText !== '{}' && state !== 'awaiting_approval' && html`<details class="chat-tool-args">
      <summary>Arguments</summary>
      <pre tabindex="0"><code>${argsText}</code></pre>
    </details>`}
    ${state === 'awaiting_approval' && html`<div class="chat-approval" role="group" aria-label=${`Approve ${name}?`}>
      <p>This changes data. Run <code>${name}</code> with these arguments?</p>
      <pre tabindex="0" class="chat-approval-args"><code>${argsText}</code></pre>
      <div class="row">
        <${Button} kind="primary" busy=${deciding} disabled=${answering && !deciding} onClick=${() => onDecide(call.toolCallId, true)}>Approve<//>
        <${Button} kind="danger" disabled=${deciding || answering} onClick=${() => onDecide(call.toolCallId, false)}>Decline<//>
      </div>
    </div>`}
    ${result && html`<${ToolResult} content=${result.content} parsed=${parsed} />`}
  </article>`;
}

function ToolResult({ content, parsed }) {
  if (parsed?.error) {
    return html`<p class="chat-tool-error">${parsed.error.message ?? 'The operation failed.'}${parsed.error.code && html` <span class="muted">(${parsed.error.code})</span>`}</p>`;
  }
  if (kindOf(parsed)) {
    return html`<div class="chat-report">
      ${parsed.from && parsed.to && html`<p class="muted chat-report-range">${formatDate(parsed.from)} – ${formatDate(parsed.to)}</p>`}
      <${ReportView} content=${parsed} />
    </div>`;
  }
  return html`<details class="chat-tool-result">
    <summary>${summaryOf(parsed, content)}</summary>
    <pre tabindex="0"><code>${parsed === undefined ? content : JSON.stringify(parsed, null, 2)}</code></pre>
  </details>`;
}

/** A one-line summary of a result that is not a report. */
function summaryOf(parsed, content) {
  if (parsed === undefined) return `Result (${content.length} characters)`;
  if (Array.isArray(parsed)) return `Result: ${parsed.length} items`;
  if (parsed && typeof parsed === 'object') {
    const list = Object.entries(parsed).find(([, value]) => Array.isArray(value));
    if (list) return `Result: ${list[1].length} ${list[0]}`;
    if (typeof parsed.name === 'string') return `Result: ${parsed.name}`;
  }
  return 'Result';
}

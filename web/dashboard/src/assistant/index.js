// The assistant: the user's conversations in this project, and one conversation's chat. An answer
// streams (send_agent_message with Accept: text/event-stream): the text as the model writes it,
// each operation as it is called and answered, and a proposed change stops the answer until the
// user approves or declines it (decide_agent_tool_call, which streams the rest of the answer).
// Cancel stops the answer on the server (cancel_agent_answer) and closes the stream.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { api, seg } from '../api.js';
import { operation, useOperations } from '../data.js';
import { navigate } from '../router.js';
import { useOrganization, useProject, useProjectScope } from '../context.js';
import { Button, ConfirmDialog, ErrorNotice, Loading, Notice, PageHeader, messageOf, useTitle } from '../ui/index.js';
import { formatRelative } from '../format.js';
import { DraftBubble, MessageBubble, ToolCard, conversationItems } from './messages.js';

const newId = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`);

export function AssistantPage({ conversationId }) {
  const org = useOrganization();
  const project = useProject();
  const scope = useProjectScope();
  useTitle(`Assistant · ${project.name}`);
  const pageUrl = (id) => `/${seg(org.slug)}/${seg(project.id)}/assistant${id ? `/${seg(id)}` : ''}`;
  const { status, list } = useOperations({
    status: operation('get_agent_status', scope),
    list: operation('list_agent_conversations', { ...scope, limit: 50 }),
  });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState(null);
  const configured = status.data?.configured === true;
  const adopted = useRef(null);

  const startConversation = async () => {
    setCreating(true);
    setCreateError(null);
    try {
      const conversation = await api.call('create_agent_conversation', { ...scope, id: newId() });
      list.setData((data) => ({ conversations: [conversation, ...(data?.conversations ?? [])] }));
      navigate(pageUrl(conversation.id));
      return conversation;
    } catch (error) {
      setCreateError(error);
      return null;
    } finally {
      setCreating(false);
    }
  };

  const deleteAll = async () => {
    await api.call('delete_agent_conversations', scope);
    list.setData({ conversations: [] });
    navigate(pageUrl(null));
  };

  const conversations = list.data?.conversations ?? [];
  return html`<div class="assistant">
    <${PageHeader} title="Assistant">
      <${Button} kind="primary" busy=${creating} onClick=${startConversation}>New conversation<//>
      <${Button} kind="danger" disabled=${conversations.length === 0} onClick=${() => setConfirmDelete(true)}>Delete all conversations<//>
    <//>
    ${status.loading && !status.data ? html`<${Loading} label="Checking the assistant…" />` : null}
    <${ErrorNotice} error=${status.error} />
    ${status.data && !configured && html`<${Notice} kind="warning">
      <strong>The assistant is not set up on this server.</strong> ${status.data.message}
      ${' '}An operator starts the server with a language model provider (for example
      ${' '}<code>--llm-provider openai --llm-model …</code>); see the assistant's documentation. Past conversations can still be read and deleted.
    <//>`}
    <${ErrorNotice} error=${createError} />
    <div class="assistant-grid">
      <nav class="assistant-list card" aria-label="Conversations">
        <h2>Conversations</h2>
        ${list.loading && !list.data ? html`<${Loading} />` : html`<${ErrorNotice} error=${list.error} />
          ${conversations.length === 0 ? html`<p class="muted">No conversations yet.</p>` : html`<ul>
            ${conversations.map((conversation) => html`<li key=${conversation.id}>
              <a href=${pageUrl(conversation.id)} aria-current=${conversation.id === conversationId ? 'page' : undefined}>
                <span class="assistant-title">${conversation.title}</span>
                <span class="muted small">${formatRelative(conversation.updatedAt)}</span>
              </a>
            </li>`)}
          </ul>`}`}
      </nav>
      <${Chat} key=${conversationId && conversationId !== adopted.current ? conversationId : 'none'} scope=${scope} conversationId=${conversationId} configured=${configured}
        modelName=${status.data?.model}
        onNeedConversation=${async (id) => {
          const conversation = await api.call('create_agent_conversation', { ...scope, id });
          // The chat that asked keeps running (its stream is open): the new address must not
          // remount it.
          adopted.current = conversation.id;
          navigate(pageUrl(conversation.id), { replace: true });
          return conversation.id;
        }}
        onChanged=${() => list.reload()} />
    </div>
    <${ConfirmDialog} open=${confirmDelete} title="Delete all conversations?" confirmLabel="Delete all"
      message="Every conversation you had with the assistant in this project is deleted permanently, with its messages and tool results. Other people's conversations stay."
      onConfirm=${deleteAll} onClose=${() => setConfirmDelete(false)} />
  </div>`;
}

/**
 * One conversation. Without an id it shows an empty chat; the first question creates the
 * conversation (onNeedConversation) and is sent to it, and the page moves to its address.
 */
function Chat({ scope, conversationId, configured, modelName, onNeedConversation, onChanged }) {
  const [conversation, setConversation] = useState(null);
  const [messages, setMessages] = useState([]);
  const [loading, setLoading] = useState(Boolean(conversationId));
  const [error, setError] = useState(null);
  const [draft, setDraft] = useState('');
  const [answering, setAnswering] = useState(false);
  const [deciding, setDeciding] = useState(null);
  const [stopNote, setStopNote] = useState(null);
  const [input, setInput] = useState('');
  const controller = useRef(null);
  const idRef = useRef(conversationId);
  const createdHere = useRef(null);
  const logRef = useRef(null);

  const load = async (id = idRef.current) => {
    if (!id) return;
    const loaded = await api.call('get_agent_conversation', { ...scope, conversationId: id });
    setConversation(loaded);
    setMessages(loaded.messages);
  };

  useEffect(() => () => controller.current?.abort(), []);

  useEffect(() => {
    // A conversation this chat created for its first question is already shown.
    if (!conversationId || conversationId === createdHere.current) return undefined;
    let stale = false;
    setLoading(true);
    api.call('get_agent_conversation', { ...scope, conversationId })
      .then((loaded) => { if (!stale) { setConversation(loaded); setMessages(loaded.messages); } })
      .catch((caught) => { if (!stale) setError(caught); })
      .finally(() => { if (!stale) setLoading(false); });
    return () => { stale = true; };
  }, [scope.orgSlug, scope.projectId, conversationId]);

  // Keep the newest part in view as it grows.
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, draft]);

  /** Adds or replaces a stored row (by id; a question replaces its optimistic copy). */
  const upsert = (row) => setMessages((rows) => {
    const without = rows.filter((other) => other.id !== row.id && !(row.role === 'user' && other.pending));
    return [...without, row].sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity));
  });

  /** Runs one streamed answer (a question or a decision; start(options) opens it) and applies its events. */
  const runAnswer = async (start) => {
    const abort = new AbortController();
    controller.current = abort;
    setAnswering(true);
    setError(null);
    setStopNote(null);
    setDraft('');
    try {
      await start({
        signal: abort.signal,
        onEvent: ({ event, json }) => {
          if (!json) return;
          if (event === 'text_delta') setDraft((text) => text + (json.text ?? ''));
          else if (event === 'message' || event === 'tool_call' || event === 'tool_result') {
            if (json.role === 'assistant') setDraft('');
            upsert(json);
          } else if (event === 'approval_required') {
            setMessages((rows) => rows.map((row) => (row.role === 'tool_call' && row.toolCallId === json.toolCallId ? { ...row, approval: 'pending' } : row)));
          } else if (event === 'error') {
            setError(json.error ?? json);
          } else if (event === 'done') {
            setConversation((current) => ({ ...current, ...json.conversation }));
            if (json.stopReason === 'cancelled') setStopNote('The answer was stopped.');
            else if (json.stopReason === 'time_limit') setStopNote('The answer took too long and was stopped.');
            else if (json.stopReason === 'error') setStopNote('The answer stopped because of an error.');
          }
        },
      });
    } catch (caught) {
      setError(caught);
    } finally {
      if (controller.current === abort) controller.current = null;
      setAnswering(false);
      setDraft('');
      // The stored conversation is the truth (titles, approvals, what a cancel kept).
      await load().catch(() => {});
      onChanged();
    }
  };

  const send = async () => {
    const content = input.trim();
    if (!content || answering || !configured) return;
    let id = idRef.current;
    if (!id) {
      try {
        // Known before the address changes to it, so the load effect leaves this chat alone.
        createdHere.current = newId();
        id = await onNeedConversation(createdHere.current);
      } catch (caught) {
        setError(caught);
        return;
      }
      idRef.current = id;
    }
    setInput('');
    setMessages((rows) => [...rows, { id: `pending-${Date.now()}`, pending: true, role: 'user', content, createdAt: new Date().toISOString() }]);
    await runAnswer((options) => api.stream('send_agent_message', { ...scope, conversationId: id, content }, options));
  };

  const decide = async (toolCallId, approved) => {
    setDeciding(toolCallId);
    try {
      await runAnswer((options) => api.stream('decide_agent_tool_call', { ...scope, conversationId: idRef.current, toolCallId, approved }, options));
    } finally {
      setDeciding(null);
    }
  };

  const cancel = async () => {
    try {
      await api.call('cancel_agent_answer', { ...scope, conversationId: idRef.current });
    } catch (caught) {
      setError(caught);
    }
    // The server stops within about a second; the stream's done event says so. Close it anyway
    // if it lingers, and read the stored conversation instead.
    const running = controller.current;
    setTimeout(() => running?.abort(), 3000);
  };

  const onKeyDown = (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const items = conversationItems(messages);
  return html`<section class="assistant-chat card" aria-label="Chat">
    ${conversation && html`<h2 class="assistant-chat-title">${conversation.title}</h2>`}
    ${loading ? html`<${Loading} label="Loading the conversation…" />` : html`
      <div class="chat-log" role="log" aria-live="polite" aria-label="Messages" aria-busy=${answering ? 'true' : 'false'} ref=${logRef} tabindex="0">
        ${items.length === 0 && !draft && html`<p class="muted chat-empty">
          Ask about this project's traffic: "How many visitors did we have last week, compared with the week before?"
          or "Which AI crawlers fetched the most pages this month?"${modelName ? ` (model: ${modelName})` : ''}
        </p>`}
        ${items.map((item) => (item.kind === 'text'
          ? html`<${MessageBubble} key=${item.row.id} row=${item.row} />`
          : html`<${ToolCard} key=${item.call?.id ?? item.result.id} call=${item.call} result=${item.result}
              answering=${answering} deciding=${deciding === item.call?.toolCallId} onDecide=${decide} />`))}
        ${draft && html`<${DraftBubble} text=${draft} />`}
      </div>`}
    ${stopNote && html`<${Notice} kind="info">${stopNote}<//>`}
    ${error && html`<${Notice} kind="error">${messageOf(error)}<//>`}
    <form class="chat-form" onSubmit=${(event) => { event.preventDefault(); send(); }}>
      <label for="assistant-input">Ask the assistant</label>
      <textarea id="assistant-input" rows="3" value=${input} disabled=${!configured}
        aria-describedby="assistant-input-hint"
        onInput=${(event) => setInput(event.currentTarget.value)} onKeyDown=${onKeyDown}></textarea>
      <p class="hint" id="assistant-input-hint">Enter sends; Shift+Enter starts a new line.</p>
      <div class="row">
        <${Button} kind="primary" type="submit" disabled=${!configured || answering || !input.trim()}>Send<//>
        ${answering && html`<${Button} onClick=${cancel}>Cancel<//>`}
      </div>
    </form>
  </section>`;
}

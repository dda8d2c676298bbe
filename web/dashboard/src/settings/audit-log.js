// /{org}/settings/audit-log: who did what (list_audit_log), newest first, 50 a page. The
// filters and the page's cursor are in the URL (?action=…&cursor=…), so a view can be shared.
import { useState } from 'preact/hooks';
import { html, Button, Field, PageHeader, Section, Table, ErrorNotice, Loading } from '../ui/index.js';
import { useOperation } from '../data.js';
import { useOrganization } from '../context.js';
import { setQuery, useRoute } from '../router.js';
import { formatDate } from '../format.js';

const pageSize = 50;

export function AuditLogPage() {
  const org = useOrganization();
  const { query } = useRoute();
  const [action, setAction] = useState(query.action ?? '');
  // The cursors of the pages before this one, so "Newer" can go back.
  const previous = (query.back ?? '').split(',').filter(Boolean);
  const entries = useOperation('list_audit_log', {
    orgSlug: org.slug, limit: pageSize, cursor: query.cursor, action: query.action, from: query.from, to: query.to,
  });

  // Actors are user ids: show members by name or email.
  const members = useOperation('list_members', { orgSlug: org.slug }, { select: (body) => new Map(body.members.map((member) => [member.userId, member])) });
  const columns = [
    { key: 'createdAt', label: 'When', render: (entry) => html`<time datetime=${entry.createdAt}>${formatDate(entry.createdAt, { dateStyle: 'medium', timeStyle: 'medium' })}</time>` },
    { key: 'action', label: 'Action', render: (entry) => html`<code>${entry.action}</code>` },
    { key: 'actor', label: 'Actor', render: (entry) => describeActor(entry.actor, members.data) },
    { key: 'target', label: 'Target', render: (entry) => entry.targetType ? `${entry.targetType} ${entry.targetId ?? ''}` : '—' },
    { key: 'details', label: 'Details', render: (entry) => html`<code class="details">${Object.keys(entry.details ?? {}).length ? JSON.stringify(entry.details) : ''}</code>` },
  ];
  const next = entries.data?.nextCursor;
  return html`<div>
    <${PageHeader} title="Audit log" />
    <${Section} title="Activity" description=${`Changes to ${org.name}: members, keys, projects, sign-in settings.`}>
      <form class="row filters" onSubmit=${(event) => { event.preventDefault(); setQuery({ action: action.trim() || null, cursor: null, back: null }); }}>
        <${Field} label="Action" placeholder="e.g. member.invite" value=${action} onInput=${(event) => setAction(event.currentTarget.value)} />
        <${Button} type="submit">Filter<//>
        ${query.action && html`<${Button} kind="link" onClick=${() => { setAction(''); setQuery({ action: null, cursor: null, back: null }); }}>Clear filter<//>`}
      </form>
      <${ErrorNotice} error=${entries.error} />
      ${entries.data ? html`<${Table} caption="Audit log entries" columns=${columns} rows=${entries.data.entries} rowKey=${(entry) => entry.id} empty="No entries." />` : !entries.error && html`<${Loading} />`}
      <nav class="pager" aria-label="Audit log pages">
        <${Button} disabled=${!query.cursor} onClick=${() => setQuery({ cursor: previous.at(-1) === '-' ? null : previous.at(-1) ?? null, back: previous.slice(0, -1).join(',') || null })}>Newer<//>
        <${Button} disabled=${!next} onClick=${() => setQuery({ cursor: next, back: [...previous, query.cursor ?? '-'].join(',') })}>Older<//>
      </nav>
    <//>
  </div>`;
}

const credentialLabels = {
  user_session: 'signed in', session: 'signed in', private_api_key: 'private API key', oauth: 'MCP client',
  oauth_access_token: 'MCP client', invitation_token: 'invitation', system: 'system', cli: 'command line',
};

function describeActor(actor, members) {
  if (!actor) return '—';
  const member = actor.userId ? members?.get(actor.userId) : null;
  const who = member ? ([member.firstName, member.lastName].filter(Boolean).join(' ') || member.email)
    : actor.userId ? actor.userId.slice(0, 8) : '';
  const how = credentialLabels[actor.credentialKind] ?? actor.credentialKind.replace(/_/g, ' ');
  return html`<span title=${actor.userId ?? ''}>${who || '—'} <span class="muted small">(${how})</span></span>`;
}

// Command-line sessions on /account: the command-line clients the user signed in at /cli, with
// the computer, the address and place they signed in from, the project and permissions each
// got and when it was last used; revoking signs it out at once.
// Operations: list_cli_sessions (GET /users/me/cli-sessions), revoke_cli_session (DELETE).
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Button, Section, Table, ConfirmDialog, ErrorNotice, Notice, Loading } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { formatDate } from '../format.js';
import { formatAddress } from '../cli/shared.js';

// Not the section's own name: two landmarks with one name are ambiguous (axe: landmark-unique).
const tableLabel = 'Signed-in command-line clients';
const nameOf = (session) => `${session.clientName || 'Command-line client'}${session.hostname ? ` on ${session.hostname}` : ''}`;

export function CliSessionsSection() {
  const sessions = useOperation('list_cli_sessions', {}, { select: (body) => body.sessions });
  const [revoking, setRevoking] = useState(null);
  const [revoked, setRevoked] = useState(null);
  const columns = [
    { key: 'clientName', label: 'Client', render: (session) => session.clientName || '—' },
    { key: 'computer', label: 'Computer', render: (session) => html`${session.hostname || '—'}${session.os && html`<br /><span class="muted small">${session.os}</span>`}` },
    { key: 'address', label: 'IP address and place', render: (session) => formatAddress(session.ip, session.location) || '—' },
    { key: 'access', label: 'Organization / project', render: (session) => `${session.organization?.name ?? session.organization?.slug ?? '—'} / ${session.project?.name ?? session.project?.id ?? '—'}` },
    { key: 'permissions', label: 'Permissions', render: (session) => session.followsRole
      ? 'Everything your role allows'
      : html`<span class="perm-list">${(session.permissions ?? []).map((permission) => html`<code>${permission}</code>`)}</span>` },
    { key: 'createdAt', label: 'Signed in', render: (session) => formatDate(session.createdAt) },
    { key: 'lastUsedAt', label: 'Last used', render: (session) => session.lastUsedAt
      ? html`${formatDate(session.lastUsedAt)}${session.lastUsedIp && html`<br /><span class="muted small">from ${session.lastUsedIp}</span>`}`
      : 'Never' },
    { key: 'actions', label: 'Actions', render: (session) => html`<${Button} class="btn-small" onClick=${() => { setRevoked(null); setRevoking(session); }} aria-label=${`Revoke ${nameOf(session)}`}>Revoke<//>` },
  ];
  // The revoked row and its button are gone: once the dialog has closed (and the browser has
  // tried to give focus back to that button, wherever that lands), focus goes to the list
  // rather than to the page's start.
  const focusList = useRef(false);
  useEffect(() => {
    if (revoking || !focusList.current) return undefined;
    focusList.current = false;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        const list = document.querySelector(`.table-wrap[aria-label="${tableLabel}"]`);
        if (list && !list.contains(document.activeElement)) list.focus();
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [revoking]);
  return html`<${Section} title="Command-line sessions" description="Command-line clients you signed in with the code from their terminal, each to one project with the permissions you chose. Revoking one signs it out.">
    <${ErrorNotice} error=${sessions.error} />
    ${revoked && html`<${Notice} kind="success">${revoked} is signed out.<//>`}
    ${sessions.data ? html`<${Table} caption=${tableLabel} columns=${columns} rows=${sessions.data} rowKey=${(session) => session.id} empty="No command-line sessions." />` : !sessions.error && html`<${Loading} />`}
    <${ConfirmDialog} open=${Boolean(revoking)} title="Revoke command-line session?" confirmLabel="Revoke"
      message=${revoking && `${nameOf(revoking)} is signed out at once: its tokens stop working for ${revoking.project?.name ?? 'its project'}. Signing in again needs a new approval.`}
      onConfirm=${async () => {
        await api.call('revoke_cli_session', { sessionId: revoking.id });
        setRevoked(nameOf(revoking));
        focusList.current = true;
        await sessions.reload();
      }} onClose=${() => setRevoking(null)} />
  <//>`;
}

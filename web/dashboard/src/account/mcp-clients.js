// Connected MCP clients on /account: the AI assistants the user authorized (OAuth), with the
// project and permissions each got; revoking ends its access at once.
import { useState } from 'preact/hooks';
import { html, Button, Section, Table, ConfirmDialog, ErrorNotice, Loading } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { formatDate } from '../format.js';

export function McpClientsSection() {
  const clients = useOperation('list_mcp_clients', {}, { select: (body) => body.clients });
  const [revoking, setRevoking] = useState(null);
  const columns = [
    { key: 'clientName', label: 'Client', render: (client) => client.clientName || client.clientId },
    { key: 'project', label: 'Project', render: (client) => `${client.projectName} (${client.orgSlug})` },
    { key: 'access', label: 'Access', render: (client) => client.readOnly ? 'Read only' : 'Read and write' },
    { key: 'createdAt', label: 'Connected', render: (client) => formatDate(client.createdAt) },
    { key: 'lastUsedAt', label: 'Last used', render: (client) => client.lastUsedAt ? formatDate(client.lastUsedAt) : 'Never' },
    { key: 'actions', label: 'Actions', render: (client) => html`<${Button} class="btn-small" onClick=${() => setRevoking(client)} aria-label=${`Revoke ${client.clientName || client.clientId}`}>Revoke<//>` },
  ];
  return html`<${Section} title="Connected MCP clients" description="AI assistants you allowed to use Sightline through MCP.">
    <${ErrorNotice} error=${clients.error} />
    ${clients.data ? html`<${Table} caption="Connected MCP clients" columns=${columns} rows=${clients.data} rowKey=${(client) => client.id} empty="No MCP clients connected." />` : !clients.error && html`<${Loading} />`}
    <${ConfirmDialog} open=${Boolean(revoking)} title="Revoke MCP client?" confirmLabel="Revoke"
      message=${revoking && `${revoking.clientName || revoking.clientId} loses access to ${revoking.projectName} at once. It can ask again later.`}
      onConfirm=${async () => { await api.call('revoke_mcp_client', { clientConnectionId: revoking.id }); clients.reload(); }} onClose=${() => setRevoking(null)} />
  <//>`;
}

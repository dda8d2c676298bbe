// /{org}/settings/members: members (change role, remove), invitations (create, list, revoke;
// the link to send is shown once, after creating) and the roles with their permissions.
// Operations: list_members, update_member, remove_member, list_invitations, create_invitation,
// revoke_invitation, list_roles.
import { useState } from 'preact/hooks';
import { html, Button, Field, SelectField, Section, PageHeader, Table, Dialog, ConfirmDialog, ErrorNotice, Notice, Loading, CopyButton, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { useOrganization, useUser } from '../context.js';
import { formatDate } from '../format.js';

const roleNames = ['owner', 'admin', 'developer', 'analyst', 'support'];
const roleLabel = (role) => role[0].toUpperCase() + role.slice(1);
const fullName = (person) => [person.firstName, person.lastName].filter(Boolean).join(' ');

export function MembersPage() {
  const org = useOrganization();
  const user = useUser();
  const scope = { orgSlug: org.slug };
  const members = useOperation('list_members', scope, { select: (body) => body.members });
  const invitations = useOperation('list_invitations', scope, { select: (body) => body.invitations });
  const roles = useOperation('list_roles', scope, { select: (body) => body.roles });
  const [removing, setRemoving] = useState(null);
  const [revoking, setRevoking] = useState(null);
  const [inviting, setInviting] = useState(false);
  const [roleError, setRoleError] = useState(null);
  const [roleSaved, setRoleSaved] = useState(null);
  const roleOptions = (roles.data?.map((role) => role.role) ?? roleNames).map((role) => ({ value: role, label: roleLabel(role) }));

  const changeRole = async (member, role) => {
    setRoleError(null);
    setRoleSaved(null);
    try {
      await api.call('update_member', { ...scope, userId: member.userId, role });
      setRoleSaved(`${fullName(member) || member.email} is now ${roleLabel(role).toLowerCase()}.`);
    } catch (error) {
      setRoleError(error);
    }
    members.reload();
  };

  const memberColumns = [
    { key: 'name', label: 'Name', render: (member) => fullName(member) || '—' },
    { key: 'email', label: 'Email' },
    { key: 'role', label: 'Role', render: (member) => html`<label class="visually-hidden" for=${`role-${member.userId}`}>Role of ${member.email}</label>
      <select id=${`role-${member.userId}`} value=${member.role} onChange=${(event) => changeRole(member, event.currentTarget.value)}>
        ${roleOptions.map((option) => html`<option value=${option.value} selected=${option.value === member.role}>${option.label}</option>`)}
      </select>` },
    { key: 'joinedAt', label: 'Joined', render: (member) => formatDate(member.joinedAt, { dateStyle: 'medium' }) },
    { key: 'actions', label: 'Actions', render: (member) => html`<${Button} class="btn-small" onClick=${() => setRemoving(member)} aria-label=${`Remove ${member.email}`}>${member.userId === user.id ? 'Leave' : 'Remove'}<//>` },
  ];
  const invitationColumns = [
    { key: 'email', label: 'Email' },
    { key: 'role', label: 'Role', render: (invitation) => roleLabel(invitation.role) },
    { key: 'status', label: 'Status', render: (invitation) => html`<span class=${`badge ${invitation.status === 'accepted' ? 'badge-success' : invitation.status === 'pending' ? '' : 'badge-danger'}`}>${invitation.status}</span>` },
    { key: 'expiresAt', label: 'Expires', render: (invitation) => formatDate(invitation.expiresAt) },
    { key: 'actions', label: 'Actions', render: (invitation) => invitation.status === 'pending'
      ? html`<${Button} class="btn-small" onClick=${() => setRevoking(invitation)} aria-label=${`Revoke the invitation of ${invitation.email}`}>Revoke<//>` : '' },
  ];
  const visibleInvitations = (invitations.data ?? []).filter((invitation) => invitation.status !== 'accepted');

  return html`<div>
    <${PageHeader} title="Members" />
    <${Section} title="Members" description=${`People in ${org.name} and their roles.`}>
      <${ErrorNotice} error=${members.error ?? roleError} />
      ${roleSaved && html`<${Notice} kind="success">${roleSaved}<//>`}
      ${members.data ? html`<${Table} caption="Members" columns=${memberColumns} rows=${members.data} rowKey=${(member) => member.userId} />` : !members.error && html`<${Loading} />`}
    <//>
    <${Section} title="Invitations" description="An invitation is a single-use link; the invitee sets a password (or signs in) and joins with the role."
        actions=${html`<${Button} kind="primary" onClick=${() => setInviting(true)}>Invite a member<//>`}>
      <${ErrorNotice} error=${invitations.error} />
      ${invitations.data ? html`<${Table} caption="Invitations" columns=${invitationColumns} rows=${visibleInvitations} rowKey=${(invitation) => invitation.id} empty="No open invitations." />` : !invitations.error && html`<${Loading} />`}
    <//>
    <${Section} title="Roles" description="What each role may do.">
      <${ErrorNotice} error=${roles.error} />
      ${roles.data && html`<${Table} caption="Roles and permissions" rowKey=${(role) => role.role} rows=${roles.data} columns=${[
        { key: 'role', label: 'Role', render: (role) => html`<strong>${roleLabel(role.role)}</strong>` },
        { key: 'permissions', label: 'Permissions', render: (role) => html`<span class="perm-list">${role.permissions.map((permission) => html`<code>${permission}</code>`)}</span>` },
      ]} />`}
    <//>
    <${InviteDialog} open=${inviting} scope=${scope} roleOptions=${roleOptions} onClose=${() => setInviting(false)} onCreated=${() => invitations.reload()} />
    <${ConfirmDialog} open=${Boolean(removing)} title=${removing?.userId === user.id ? 'Leave the organization?' : 'Remove member?'} confirmLabel=${removing?.userId === user.id ? 'Leave' : 'Remove'}
      message=${removing && `${fullName(removing) || removing.email} loses access to ${org.name} and its projects at once.`}
      onConfirm=${async () => { await api.call('remove_member', { ...scope, userId: removing.userId }); members.reload(); }} onClose=${() => setRemoving(null)} />
    <${ConfirmDialog} open=${Boolean(revoking)} title="Revoke invitation?" confirmLabel="Revoke"
      message=${revoking && `The invitation link sent to ${revoking.email} stops working.`}
      onConfirm=${async () => { await api.call('revoke_invitation', { ...scope, invitationId: revoking.id }); invitations.reload(); }} onClose=${() => setRevoking(null)} />
  </div>`;
}

function InviteDialog({ open, scope, roleOptions, onClose, onCreated }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('analyst');
  const [created, setCreated] = useState(null);
  const close = () => { setEmail(''); setRole('analyst'); setCreated(null); onClose(); };
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    const invitation = await api.call('create_invitation', { ...scope, email: email.trim(), role });
    setCreated(invitation);
    onCreated();
  });
  const link = created ? `${location.origin}/invite?token=${encodeURIComponent(created.token)}` : '';
  return html`<${Dialog} open=${open} title=${created ? 'Invitation created' : 'Invite a member'} onClose=${close}>
    ${created ? html`<div class="stack">
        <p>Send this link to <strong>${created.email}</strong>. It works once${created.expiresAt ? `, until ${formatDate(created.expiresAt)}` : ''}, and is shown only now.</p>
        <div class="secret-row">
          <input readonly class="mono" aria-label="Invitation link" value=${link} onFocus=${(event) => event.currentTarget.select()} />
          <${CopyButton} text=${link} label="Copy link" />
        </div>
        <div class="dialog-actions"><${Button} kind="primary" onClick=${close}>Done<//></div>
      </div>`
      : html`<form class="stack" onSubmit=${run}>
        <${Field} label="Email address" type="email" required value=${email} onInput=${(event) => setEmail(event.currentTarget.value)} />
        <${SelectField} label="Role" value=${role} options=${roleOptions} onChange=${setRole} />
        <${ErrorNotice} error=${error} />
        <div class="dialog-actions">
          <${Button} onClick=${close}>Cancel<//>
          <${Button} kind="primary" type="submit" busy=${busy}>Create invitation<//>
        </div>
      </form>`}
  <//>`;
}

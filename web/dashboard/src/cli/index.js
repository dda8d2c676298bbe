// /cli and /cli?code=XXXX-XXXX: the browser half of a command-line sign-in (the RFC 8628 device
// flow). The terminal shows a code and this URL; the signed-in user types or confirms the code
// (a prefilled one still needs "Continue", so a link someone else sent cannot approve their
// own login in one click — RFC 8628 §5.4), checks what is asking (client, computer, address,
// when), chooses the organization, project and permissions, and approves or denies.
// Operations: get_cli_login (GET /auth/cli/sessions/lookup?userCode=), approve_cli_login and
// deny_cli_login (POST /auth/cli/sessions/{sessionId}/approve|deny). The page always sends the
// chosen permissions, so an approval from here never follows the role as it changes.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Button, Field, SelectField, Notice, ErrorNotice, PageHeader, messageOf, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { setQuery, useRoute } from '../router.js';
import { formatDate, formatRelative } from '../format.js';
import { lastProject } from '../session.js';
import { formatAddress, initialChoices, normalizeUserCode, permissionLabel, unavailablePermissions } from './shared.js';

const codeFieldId = 'cli-user-code';
const unknownCode = 'This code is unknown, expired or already used. Check the code in your terminal, or start the sign-in again there.';

/** Moves focus to the element with this id once it is rendered (after a step changes). */
function focusSoon(id) {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

/** "sightline-cli on build-box", or what is known of it. */
function clientOn(request) {
  return `${request.clientName || 'The client'}${request.hostname ? ` on ${request.hostname}` : ''}`;
}

/** The requested project's name and organization, or its id when it is not one of the user's. */
function requestedProjectName(orgs, projectId) {
  for (const org of orgs) {
    const project = org.projects?.find((candidate) => candidate.id === projectId);
    if (project) return `${project.name} (${org.name})`;
  }
  return `${projectId} (not a project you can reach)`;
}

/** A mistake in the typed code, found before asking the server. */
function codeError(message) {
  return Object.assign(new Error(message), { aboutCode: true });
}

/** An ApiError of the lookup, approve or deny as what the user should read. */
function explain(error) {
  if (error?.code === 'CLI_001') return new Error(unknownCode);
  if (error?.status === 429) {
    const seconds = Number(error.details?.retryAfterSeconds);
    return new Error(`Too many attempts with wrong codes. Wait ${seconds > 0 ? `${Math.ceil(seconds)} seconds` : 'a few minutes'} and try again.`);
  }
  return error;
}

export function CliLoginPage() {
  const { query } = useRoute();
  // code → review (the looked-up login) → approved | denied
  const [step, setStep] = useState({ name: 'code' });
  const [typed, setTyped] = useState(query.code ?? '');
  const decided = (next) => {
    setStep(next);
    // The code is used up: a reload shows an empty form, not a code that no longer works.
    if (query.code) setQuery({ code: null }, { replace: true });
    focusSoon('cli-step');
  };
  const restart = () => {
    setStep({ name: 'code' });
    setTyped('');
    if (query.code) setQuery({ code: null }, { replace: true });
    focusSoon(codeFieldId);
  };
  return html`<div class="narrow cli-login">
    <${PageHeader} title="Command-line sign-in" />
    ${step.name === 'code' && html`<${CodeStep} typed=${typed} setTyped=${setTyped} prefilled=${Boolean(query.code)}
      onFound=${(request) => { setStep({ name: 'review', request }); focusSoon('cli-step'); }} />`}
    ${step.name === 'review' && html`<${ReviewStep} request=${step.request} onDecided=${decided} onRestart=${restart} />`}
    ${step.name === 'approved' && html`<${Approved} ...${step} />`}
    ${step.name === 'denied' && html`<${Denied} request=${step.request} onRestart=${restart} />`}
  </div>`;
}

function CodeStep({ typed, setTyped, prefilled, onFound }) {
  // An error about the code marks the field invalid; every error is announced (role="alert")
  // and read with the field, where focus goes back.
  const [invalid, setInvalid] = useState(false);
  const { run, busy, error, setError } = useAction(async (event) => {
    event.preventDefault();
    setInvalid(false);
    const userCode = normalizeUserCode(typed);
    try {
      if (!userCode) throw codeError('Enter the code shown in your terminal.');
      // Not a code at all: say so without spending one of the few wrong guesses the server allows.
      if (userCode.replace(/-/g, '').length !== 8) throw codeError('A code has 8 letters, like BCDF-GHJK. Check the code in your terminal.');
      onFound(await api.call('get_cli_login', { userCode }));
    } catch (caught) {
      setInvalid(Boolean(caught?.aboutCode) || caught?.code === 'CLI_001');
      focusSoon(codeFieldId);
      throw explain(caught);
    }
  });
  const hintId = `${codeFieldId}-hint`;
  return html`<section class="card" aria-labelledby="cli-step">
    <h2 id="cli-step" tabindex="-1">${prefilled ? 'Confirm the code from your terminal' : 'Enter the code from your terminal'}</h2>
    <p>A command-line client (such as <code>sightline login</code>) shows a code and asks you to open this page. Signing it in lets it use Sightline as you, with the access you choose next.</p>
    <form class="stack" onSubmit=${run} novalidate>
      <${Field} id=${codeFieldId} label="Code shown in your terminal" class="code-input" autocomplete="off" autocapitalize="characters"
        spellcheck="false" maxlength="32" placeholder="XXXX-XXXX" value=${typed}
        hint=${prefilled ? 'Filled in from the link you opened. Compare it with your terminal, character by character.' : 'Eight letters, like BCDF-GHJK.'}
        aria-invalid=${invalid ? 'true' : undefined} aria-describedby=${error ? `${hintId} cli-code-error` : hintId}
        onInput=${(event) => { setInvalid(false); setError(null); setTyped(event.currentTarget.value); }} />
      ${error && html`<div class="notice notice-error" role="alert" id="cli-code-error">${messageOf(error)}</div>`}
      <${Notice} kind="warning">Continue only if you started a sign-in in your own terminal just now and it shows this exact code. Never enter or confirm a code that someone sent you.<//>
      <div class="row">
        <${Button} kind="primary" type="submit" busy=${busy} aria-describedby="cli-confirm-note">Continue<//>
        <span class="muted small" id="cli-confirm-note">${prefilled ? 'This confirms that the code matches the one in your terminal.' : 'This confirms that you typed the code from your terminal.'}</span>
      </div>
    </form>
  </section>`;
}

function ReviewStep({ request, onDecided, onRestart }) {
  const orgs = request.organizations ?? [];
  const [choice, setChoice] = useState(() => initialChoices(request, lastProject()));
  const [checked, setChecked] = useState(() => new Set(choice.permissions));
  const [expired, setExpired] = useState(() => Date.parse(request.expiresAt) <= Date.now());
  const org = orgs.find((candidate) => candidate.slug === choice.org);
  const projects = org?.projects ?? [];
  const allowed = org?.permissions ?? [];
  const requested = request.requestedPermissions ?? [];
  const missing = org ? unavailablePermissions(requested, allowed) : [];

  useEffect(() => {
    const left = Date.parse(request.expiresAt) - Date.now();
    if (!(left > 0)) return undefined;
    const timer = setTimeout(() => setExpired(true), Math.min(left, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [request.expiresAt]);

  const chooseOrg = (slug) => {
    const next = initialChoices(request, lastProject(), slug);
    setChoice(next);
    setChecked(new Set(next.permissions));
  };
  const toggle = (permission, on) => setChecked((previous) => {
    const next = new Set(previous);
    if (on) next.add(permission); else next.delete(permission);
    return next;
  });

  const approve = useAction(async (event) => {
    event.preventDefault();
    const permissions = allowed.filter((permission) => checked.has(permission));
    if (permissions.length === 0) {
      if (allowed.length > 0) focusSoon(`cli-perm-${allowed[0]}`);
      throw new Error('Choose at least one permission, or deny the sign-in.');
    }
    try {
      const result = await api.call('approve_cli_login', { sessionId: request.id,
        userCode: request.userCode, organization: org.slug, projectId: choice.projectId, permissions,
      });
      onDecided({ name: 'approved', request, result, org, project: projects.find((project) => project.id === choice.projectId) });
    } catch (caught) {
      throw explain(caught);
    }
  });
  const deny = useAction(async () => {
    try {
      await api.call('deny_cli_login', { sessionId: request.id, userCode: request.userCode });
    } catch (caught) {
      throw explain(caught);
    }
    onDecided({ name: 'denied', request });
  });
  const busy = approve.busy || deny.busy;
  const problem = approve.error ?? deny.error;
  const place = formatAddress(request.ip, request.location);

  return html`<section class="card" aria-labelledby="cli-step">
    <h2 id="cli-step" tabindex="-1">Review the sign-in</h2>
    <p>Code <strong class="mono">${request.userCode}</strong> belongs to this request. Approve it only if this is the computer you are using.</p>
    <dl class="details-list">
      <dt>Client</dt><dd>${request.clientName || 'Unnamed client'}</dd>
      <dt>Computer</dt><dd>${request.hostname || 'Not given'}</dd>
      <dt>Operating system</dt><dd>${request.os || 'Not given'}</dd>
      <dt>IP address and place</dt><dd>${place || 'Unknown'}</dd>
      <dt>Started</dt><dd>${formatDate(request.createdAt)} (${formatRelative(request.createdAt)})</dd>
      <dt>Code expires</dt><dd>${formatDate(request.expiresAt)} (${formatRelative(request.expiresAt)})</dd>
      ${request.requestedProjectId && html`<dt>Project asked for</dt><dd>${requestedProjectName(orgs, request.requestedProjectId)}</dd>`}
      <dt>Asks for</dt><dd>${requested.length > 0
        ? html`<span class="perm-list">${requested.map((permission) => html`<code>${permission}</code>`)}</span>`
        : 'No particular permissions: you choose them below'}</dd>
    </dl>
    ${expired && html`<${Notice} kind="error">This code has expired. Start the sign-in again in your terminal.<//>`}
    ${orgs.length === 0
      ? html`<${Notice} kind="info">You are not a member of any organization, so there is nothing to give this client access to. Deny it, or ask an owner for an invitation.<//>`
      : html`<form class="stack" onSubmit=${approve.run} aria-label="Access for the command-line client">
        <div class="grid-2">
          <${SelectField} label="Organization" value=${choice.org} onChange=${chooseOrg}
            options=${orgs.map((item) => ({ value: item.slug, label: `${item.name} (${item.role})` }))} />
          ${projects.length > 0
            ? html`<${SelectField} label="Project" value=${choice.projectId} onChange=${(projectId) => setChoice((previous) => ({ ...previous, projectId }))}
                options=${projects.map((project) => ({ value: project.id, label: project.name }))} />`
            : html`<${Notice} kind="info">${org?.name} has no projects yet. Choose another organization, or create a project first.<//>`}
        </div>
        <fieldset class="choices" aria-describedby="cli-permissions-hint">
          <legend>Permissions</legend>
          <p class="hint" id="cli-permissions-hint">${requested.length > 0 ? 'Ticked: what the client asked for' : 'The client asked for nothing in particular; ticked: everything'} that your role (${org?.role}) in ${org?.name} allows, in the chosen project only. Untick what it does not need.</p>
          ${allowed.map((permission) => html`<div class="choice" key=${`${choice.org}/${permission}`}>
            <input type="checkbox" id=${`cli-perm-${permission}`} checked=${checked.has(permission)}
              onChange=${(event) => toggle(permission, event.currentTarget.checked)} />
            <label for=${`cli-perm-${permission}`}>${permissionLabel(permission, request.permissionCatalog)} (<code>${permission}</code>)${requested.includes(permission) ? html` <span class="badge">requested</span>` : ''}</label>
          </div>`)}
          ${allowed.length === 0 && html`<p>Your role in ${org?.name} allows nothing the client could use.</p>`}
        </fieldset>
        ${missing.length > 0 && html`<${Notice} kind="info">Your role in ${org.name} does not allow ${missing.map((permission, index) => html`${index > 0 ? ', ' : ''}<code>${permission}</code>`)}, so the client cannot get ${missing.length === 1 ? 'it' : 'them'} here.<//>`}
        <${ErrorNotice} error=${problem} />
        <div class="row">
          <${Button} kind="primary" type="submit" busy=${approve.busy} disabled=${busy || expired || !choice.projectId}>Approve<//>
          <${Button} busy=${deny.busy} disabled=${busy || expired} onClick=${deny.run}>Deny<//>
          <${Button} kind="link" disabled=${busy} onClick=${onRestart}>Enter a different code<//>
        </div>
      </form>`}
    ${orgs.length === 0 && html`<${ErrorNotice} error=${problem} /><div class="row">
      <${Button} busy=${deny.busy} disabled=${busy || expired} onClick=${deny.run}>Deny<//>
      <${Button} kind="link" disabled=${busy} onClick=${onRestart}>Enter a different code<//>
    </div>`}
  </section>`;
}

function Approved({ request, result, org, project }) {
  const count = result?.permissions?.length ?? 0;
  const access = result?.followsRole ? 'with everything your role allows' : `with ${count} ${count === 1 ? 'permission' : 'permissions'}`;
  return html`<section class="card" aria-labelledby="cli-step">
    <h2 id="cli-step" tabindex="-1">Signed in — return to your terminal</h2>
    <${Notice} kind="success">${clientOn(request)} is signed in to <strong>${project?.name ?? result?.projectId}</strong> in <strong>${org?.name ?? result?.organization}</strong> ${access}. Your terminal continues by itself in a few seconds.<//>
    ${count > 0 && html`<p class="perm-list" aria-label="Granted permissions">${result.permissions.map((permission) => html`<code>${permission}</code>`)}</p>`}
    <p>You can close this page. To sign the client out later, revoke it under <a href="/account">Account → Command-line sessions</a>.</p>
  </section>`;
}

function Denied({ request, onRestart }) {
  return html`<section class="card" aria-labelledby="cli-step">
    <h2 id="cli-step" tabindex="-1">Denied</h2>
    <${Notice} kind="info">${clientOn(request)} was not signed in and got no access. The terminal says the sign-in was denied.<//>
    <p>If you did not start this sign-in, someone else may have tried to get you to approve it: you can close this page.</p>
    <div><${Button} onClick=${onRestart}>Enter another code<//></div>
  </section>`;
}

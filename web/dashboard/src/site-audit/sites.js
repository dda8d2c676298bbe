// Sites: add a site by URL (add_audit_site), publish its token one of three ways (a file, a meta
// tag, a DNS TXT record: the site's `proofs`, each with copy buttons), check it
// (verify_audit_site: 409 AUDIT_001 says what each way found), and remove it
// (delete_audit_site, after a confirmation).
import { useId, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Button, ConfirmDialog, Field, Notice, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { setQuery } from '../router.js';
import { formatDate } from '../format.js';
import { RequestError } from '../reports/sections.js';
import { proofLabels } from './model.js';

export function SitesTab({ scope, sites, reloadSites, setSites, canManage, link }) {
  const [url, setUrl] = useState('');
  const [notice, setNotice] = useState(null);
  const [removing, setRemoving] = useState(null);
  const add = useAction(async (event) => {
    event.preventDefault();
    setNotice(null);
    const site = await api.call('add_audit_site', { ...scope, url: url.trim() });
    setUrl('');
    setSites((previous) => [...(previous ?? []).filter((item) => item.id !== site.id), site]);
    setNotice(`${site.origin} added. Publish one of the proofs below, then choose "Verify".`);
    setQuery({ site: site.id }, { replace: true });
  });
  const existing = add.error?.code === 'AUDIT_003' ? sites.find((item) => item.id === add.error.details?.siteId) : null;

  return html`<div class="stack">
    ${sites.length === 0 && html`<section class="card empty-state" aria-labelledby="sa-empty-heading">
      <h2 id="sa-empty-heading">Add your site, then prove ownership</h2>
      <p>ServiceAuditBot crawls only sites this project has proven it owns. Add the site by its address; Sightline gives it a
        token to publish as a file, a meta tag or a DNS TXT record. Once verified, start a crawl from the Crawls section.</p>
      ${!canManage && html`<p class="muted">Ask an owner, admin or developer of this organization to add one: your role can read the audit but not change it.</p>`}
    </section>`}
    ${canManage && html`<section class="card" aria-labelledby="sa-add-heading">
      <div class="card-head"><div><h2 id="sa-add-heading">Add a site</h2>
        <p class="muted">Its origin (scheme, host and port) is what is audited and proven.</p></div></div>
      <form class="row add-site" onSubmit=${add.run}>
        <${Field} label="Site URL" type="url" required placeholder="https://www.example.com/" value=${url}
          hint="The home page of the website, with https:// or http://."
          onInput=${(event) => setUrl(event.currentTarget.value)} />
        <${Button} kind="primary" type="submit" busy=${add.busy}>Add site<//>
      </form>
      <${RequestError} error=${add.error} />
      ${existing && html`<p><a href=${link('sites', { site: existing.id })}>Show ${existing.origin}</a></p>`}
      ${notice && html`<${Notice} kind="success">${notice}<//>`}
    </section>`}
    ${sites.map((site) => html`<${SiteCard} key=${site.id} site=${site} scope=${scope} canManage=${canManage} link=${link}
      onChange=${(updated) => setSites((previous) => (previous ?? []).map((item) => (item.id === updated.id ? updated : item)))}
      onRemove=${() => setRemoving(site)} onRecheck=${reloadSites} />`)}
    <${ConfirmDialog} open=${Boolean(removing)} title="Remove the site?" confirmLabel="Remove site"
      message=${removing ? `${removing.origin} and every crawl, page and issue of it will be deleted. A running crawl stops.` : ''}
      onClose=${() => setRemoving(null)}
      onConfirm=${async () => {
        await api.call('delete_audit_site', { ...scope, siteId: removing.id });
        setSites((previous) => (previous ?? []).filter((item) => item.id !== removing.id));
        setNotice(`${removing.origin} removed.`);
        setQuery({ site: null, crawl: null }, { replace: true });
      }} />
  </div>`;
}

function SiteCard({ site, scope, canManage, link, onChange, onRemove, onRecheck }) {
  const [method, setMethod] = useState('');
  const [result, setResult] = useState(null);
  const headingId = `site-${site.id}`;
  const verify = useAction(async () => {
    setResult(null);
    try {
      const updated = await api.call('verify_audit_site', { ...scope, siteId: site.id, ...(method ? { method } : {}) });
      onChange(updated);
      setResult(`Ownership proven by ${proofLabels[updated.verifiedMethod] ?? updated.verifiedMethod}. ServiceAuditBot may crawl ${updated.origin} now.`);
    } catch (error) {
      // The server recorded what it found either way: show it with the site.
      if (error.code === 'AUDIT_001') onRecheck();
      throw error;
    }
  });
  return html`<section class="card site-card" aria-labelledby=${headingId} data-site=${site.id}>
    <div class="card-head">
      <div>
        <h2 id=${headingId} class="site-origin">${site.origin}</h2>
        <p class="muted small">Added ${formatDate(site.createdAt)}</p>
      </div>
      <div class="card-actions">
        ${site.verified
          ? html`<span class="badge badge-success" data-site-status=${site.id}>Verified by ${proofLabels[site.verifiedMethod] ?? site.verifiedMethod}</span>`
          : html`<span class="badge badge-warning" data-site-status=${site.id}>Not verified</span>`}
      </div>
    </div>
    ${site.verified && html`<p>Proven ${formatDate(site.verifiedAt)}. Keep the proof published.</p>
      <p class="row">
        <a class="btn btn-primary" href=${link('crawls', { site: site.id, crawl: null })}>Crawls of this site</a>
        <a class="btn" href=${link('robots', { site: site.id })}>Robots vs traffic</a>
      </p>`}
    ${!site.verified && html`<p>Prove that this site is yours: publish <strong>one</strong> of these, then choose "Verify".
      ServiceAuditBot checks it from the server.</p>`}
    ${site.verified
      ? html`<details class="proofs-folded"><summary>Ownership proofs</summary><${Proofs} site=${site} /></details>`
      : html`<${Proofs} site=${site} />`}
    ${!site.verified && site.checkedAt && site.checkProblem && !verify.error && html`<p class="muted small" data-check-problem=${site.id}>
      Last checked ${formatDate(site.checkedAt)}: ${site.checkProblem}</p>`}
    ${canManage && html`<div class="row verify-row">
      ${!site.verified && html`<div class="field">
        <label for=${`verify-method-${site.id}`}>Proof to check</label>
        <select id=${`verify-method-${site.id}`} onChange=${(event) => setMethod(event.currentTarget.value)}>
          <option value="" selected=${method === ''}>Each in turn</option>
          <option value="file" selected=${method === 'file'}>The file</option>
          <option value="meta" selected=${method === 'meta'}>The meta tag</option>
          <option value="dns" selected=${method === 'dns'}>The DNS TXT record</option>
        </select>
      </div>`}
      ${!site.verified && html`<${Button} kind="primary" busy=${verify.busy} onClick=${() => verify.run()}>Verify<span class="visually-hidden"> ${site.origin}</span><//>`}
      <${Button} kind="secondary" onClick=${onRemove}>Remove<span class="visually-hidden"> ${site.origin}</span><//>
    </div>`}
    ${verify.busy && html`<p class="muted small" role="status">Checking ${site.origin} from the server…</p>`}
    <${RequestError} error=${verify.error} />
    ${result && html`<${Notice} kind="success">${result}<//>`}
  </section>`;
}

/** The three ways to publish the token, each with what to copy. */
function Proofs({ site }) {
  const proofs = site.proofs ?? {};
  const file = proofs.file ?? {};
  const meta = proofs.meta ?? {};
  const dns = proofs.dns ?? {};
  return html`<ol class="proofs">
    <li class="proof" data-proof="file">
      <h3>A file</h3>
      <p>Serve this text at the address below (a plain-text file).</p>
      <${CopyField} label="File URL" value=${file.url ?? ''} />
      <${CopyField} label="File content" value=${file.content ?? site.token ?? ''} />
    </li>
    <li class="proof" data-proof="meta">
      <h3>A meta tag</h3>
      <p>Add this tag to the <code>${'<head>'}</code> of the home page.</p>
      <${CopyField} label="Meta tag" value=${meta.tag ?? ''} />
    </li>
    <li class="proof" data-proof="dns">
      <h3>A DNS TXT record</h3>
      <p>Add a TXT record to the site's host at your DNS provider.</p>
      <${CopyField} label="Record name" value=${dns.name ?? ''} />
      <${CopyField} label="Record type" value=${dns.type ?? 'TXT'} copy=${false} />
      <${CopyField} label="Record value" value=${dns.value ?? ''} />
    </li>
  </ol>`;
}

/** A read-only value with its label and a copy button. */
function CopyField({ label, value, copy = true }) {
  const id = `cf${useId()}`;
  return html`<div class="copy-field">
    <label for=${id}>${label}</label>
    <div class="secret-row">
      <input id=${id} readonly class="mono" value=${value} onFocus=${(event) => event.currentTarget.select()} />
      ${copy && html`<${CopyValue} text=${value} what=${`${label[0].toLowerCase()}${label.slice(1)}`} />`}
    </div>
  </div>`;
}

/** "Copy" (named "Copy file URL" for assistive technology), then "Copied" for two seconds. */
function CopyValue({ text, what }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return html`<${Button} kind="secondary" class="btn-small copy-value" onClick=${copy}>${copied ? 'Copied' : 'Copy'}<span class="visually-hidden"> ${what}</span><//>
    <span class="visually-hidden" role="status">${copied ? `The ${what} is copied to the clipboard` : ''}</span>`;
}

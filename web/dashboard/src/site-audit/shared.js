// Pieces the site-audit sections share: the empty state before any site, and the site chooser.
import { html } from '../ui/html.js';
import { setQuery } from '../router.js';

/** The first step when there is nothing to show yet: add a site and prove it. */
export function NoSites({ link, canManage }) {
  return html`<section class="card empty-state" aria-labelledby="sa-nosite-heading">
    <h2 id="sa-nosite-heading">Add your site, then prove ownership</h2>
    <p>ServiceAuditBot crawls only the sites this project has proven it owns, the way search consoles do:</p>
    <ol class="setup-steps">
      <li><strong>Add the site</strong> by its address, e.g. https://www.example.com/.</li>
      <li><strong>Prove ownership</strong> with a file, a meta tag on the home page or a DNS TXT record holding the site's token, then choose "Verify".</li>
      <li><strong>Start a crawl</strong> and watch it; the issues and the robots-vs-traffic report follow.</li>
    </ol>
    ${canManage
      ? html`<p><a class="btn btn-primary" href=${link('sites')}>Go to Sites</a></p>`
      : html`<p class="muted">Ask an owner, admin or developer of this organization to add a site: your role can read the audit but not change it.</p>`}
  </section>`;
}

/** A site chooser (shown when the project has more than one site). */
export function SitePicker({ sites, site, label = 'Site', onlyVerified = false, id = 'sa-site' }) {
  const choices = onlyVerified ? sites.filter((item) => item.verified) : sites;
  if (choices.length < 2) return null;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <select id=${id} onChange=${(event) => setQuery({ site: event.currentTarget.value, crawl: null, rule: null, page: null, cursor: null, back: null })}>
      ${choices.map((item) => html`<option value=${item.id} selected=${item.id === site?.id}>${item.origin}${item.verified ? '' : ' (not verified)'}</option>`)}
    </select>
  </div>`;
}

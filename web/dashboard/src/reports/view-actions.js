// The web report's actions, imported right after its first render (web.js): a card's Details
// button (the dialog itself, details.js, is imported when first opened), Export CSV (the whole
// view as a zip) and "N visitors now".
import { useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { useAction } from '../ui/index.js';
import { seg } from '../api.js';
import { useRealtime } from '../realtime.js';
import { onLinkClick } from '../router.js';
import { formatNumber } from '../format.js';

const loadDetails = () => import('./details.js');

/**
 * The Details dialog of a card's active tab (details.js, imported when first opened): every
 * value, searchable, sortable, paged, with its CSV.
 */
export function DetailsButton({ group, tab, view }) {
  const [module, setModule] = useState(null);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState(null);
  const show = () => loadDetails().then((loaded) => { setModule(loaded); setOpen(true); }, setError);
  const label = tab.value === 'durations' ? 'Time on page' : tab.label;
  return html`<button type="button" class="btn btn-small card-action" onClick=${show}
      aria-label=${`Details: ${group.title}, ${label}`} title=${error ? 'The details could not be loaded: reload the page.' : undefined}>Details</button>
    ${module && html`<${module.DetailsDialog} key=${tab.value} open=${open} onClose=${() => setOpen(false)} title=${`${group.title}: ${label}`}
      name=${tab.name} dimension=${tab.value} ...${view} />`}`;
}

/** "3 visitors now" (get_web_realtime, every 30 s), linking to the Live page's last 30 minutes. */
export function VisitorsNow({ scope }) {
  // A failed refresh keeps the last count shown, silently.
  const { data } = useRealtime(scope.projectId, 30_000);
  if (!data) return null;
  const count = data.visitorsNow;
  return html`<a class="visitors-now" href=${`/${seg(scope.orgSlug)}/${seg(scope.projectId)}/live`} onClick=${onLinkClick}>
    <span class=${`status-dot ${count > 0 ? 'live' : ''}`} aria-hidden="true"></span><span data-realtime="visitorsNow">${formatNumber(count)}</span>
    ${count === 1 ? ' visitor' : ' visitors'} now</a>`;
}

/** Downloads the whole view as a zip of CSV files (details.js's exportView). */
export function ExportButton({ view, interval, projectName, tabs }) {
  const { run, busy, error } = useAction(async () => {
    const { exportView } = await loadDetails();
    await exportView({ ...view, interval, projectName, tabs });
  });
  return html`<button type="button" class="btn btn-secondary" onClick=${() => run()} disabled=${busy} aria-busy=${busy ? 'true' : 'false'}>
    ${busy ? 'Exporting…' : 'Export CSV'}</button>
    ${error && html`<span class="field-error" role="alert">The export failed: ${error.message}</span>`}`;
}

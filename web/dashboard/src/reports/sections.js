// Building blocks of the report pages: tabbed cards, request states (loading, ApiError with its
// code), the world map, loaded only when a countries section scrolls into view, and the
// first-run panel of a project without data.
import { useEffect, useRef, useState, useId } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Loading } from '../ui/index.js';
import { loadWorldMap } from '../charts/index.js';
import { api } from '../api.js';

/** An API error as the user sees it: the message and the error code to quote to support. */
export function RequestError({ error }) {
  if (!error) return null;
  const code = error.code ? ` (${error.code})` : '';
  return html`<div class="notice notice-error" role="alert">${error.message || 'The request failed'}${code}</div>`;
}

/**
 * When every failed request of a view failed the same way (a comparison window out of reach, a
 * lost connection), the message is shown once under the picker instead of in every card (and
 * announced once). Returns { results, shared }: results with those errors marked shownAbove.
 */
export function shareErrors(results) {
  const failed = Object.values(results).filter((result) => result.error);
  const signature = (error) => `${error.status ?? ''}|${error.code ?? ''}|${error.message ?? ''}`;
  if (failed.length < 2 || failed.some((result) => signature(result.error) !== signature(failed[0].error))) {
    return { results, shared: null };
  }
  const marked = {};
  for (const [name, result] of Object.entries(results)) {
    const { error } = result;
    marked[name] = error ? { ...result, error: { status: error.status, code: error.code, message: error.message, shownAbove: true } } : result;
  }
  return { results: marked, shared: failed[0].error };
}

/** A request's state around its content: a spinner the first time, the error, or children(data). */
export function RequestState({ result, label, children }) {
  if (result.error?.shownAbove) return html`<p class="muted">Not available: see the message above.</p>`;
  if (result.error) return html`<${RequestError} error=${result.error} />`;
  if (result.data === undefined) return html`<${Loading} label=${`Loading ${label}…`} />`;
  return html`<div class="request-body" aria-busy=${result.loading ? 'true' : 'false'}>${children(result.data)}</div>`;
}

/**
 * A card with a heading and tabs (ARIA tabs: arrow keys move between them). tabs: [{ value,
 * label }]; children(activeValue) renders the panel.
 */
export function TabbedSection({ title, tabs, active, onChange, children, actions }) {
  const id = `t${useId()}`;
  const refs = useRef({});
  const move = (event, index) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const edge = event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : null;
    if (!step && edge === null) return;
    event.preventDefault();
    const next = edge ?? (index + step + tabs.length) % tabs.length;
    onChange(tabs[next].value);
    refs.current[tabs[next].value]?.focus();
  };
  return html`<section class="card report-section" aria-labelledby=${`${id}-h`}>
    <div class="card-head">
      <h2 id=${`${id}-h`}>${title}</h2>
      ${tabs.length > 1 && html`<div class="tabs" role="tablist" aria-label=${title}>
        ${tabs.map((tab, index) => html`<button type="button" role="tab" id=${`${id}-${tab.value}`}
          ref=${(element) => { refs.current[tab.value] = element; }}
          aria-selected=${tab.value === active ? 'true' : 'false'} aria-controls=${`${id}-panel`}
          tabindex=${tab.value === active ? 0 : -1} onClick=${() => onChange(tab.value)} onKeyDown=${(event) => move(event, index)}>${tab.label}</button>`)}
      </div>`}
      ${actions}
    </div>
    <div id=${`${id}-panel`} role=${tabs.length > 1 ? 'tabpanel' : undefined} aria-labelledby=${tabs.length > 1 ? `${id}-${active}` : undefined}>
      ${children(active)}
    </div>
  </section>`;
}

/**
 * The world map (d3-geo + the world atlas, about 100 KB) is imported only when this placeholder
 * comes near the viewport. rows: [{ country (ISO alpha-2), value }].
 */
export function LazyWorldMap({ rows, label, format, onSelect }) {
  const holder = useRef(null);
  const [module, setModule] = useState(null);
  const [failed, setFailed] = useState(null);
  useEffect(() => {
    const element = holder.current;
    if (!element || module) return undefined;
    let cancelled = false;
    const load = () => loadWorldMap().then((loaded) => { if (!cancelled) setModule(loaded); }, (error) => { if (!cancelled) setFailed(error); });
    if (!('IntersectionObserver' in window)) { load(); return () => { cancelled = true; }; }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) { observer.disconnect(); load(); }
    }, { rootMargin: '200px' });
    observer.observe(element);
    return () => { cancelled = true; observer.disconnect(); };
  }, [module]);
  if (failed) return html`<p class="muted">The map could not be loaded.</p>`;
  if (!module) return html`<div class="world-map-placeholder" ref=${holder}><${Loading} label="Loading the map…" /></div>`;
  const { WorldMap } = module;
  return html`<${WorldMap} rows=${rows} label=${label} format=${format} onSelect=${onSelect} />`;
}

/** A country code as a name in the browser's language ("FR" → "France"). */
let regionNames = null;
export function countryName(code) {
  if (!code) return null;
  try {
    regionNames ??= new Intl.DisplayNames(undefined, { type: 'region' });
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A project that never received an event says so above its report, with the tracking snippet
 * (onboarding's WaitingForData, loaded only then), and turns live by itself: the panel goes and
 * `onLive` asks the report again. Nothing shows while unknown, or to a member who cannot read
 * the events feed.
 */
// Projects known to have received an event: a project never goes back to waiting, so the
// reports asked for it again in this tab (web ↔ crawlers) need not ask list_events again.
const liveProjects = new Set();

export function FirstRun({ scope, onLive }) {
  const [module, setModule] = useState(null);
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    let stopped = false;
    setWaiting(false);
    if (liveProjects.has(scope.projectId)) return undefined;
    api.call('list_events', { ...scope, limit: 1 }).then((body) => {
      if ((body.events ?? []).length > 0) liveProjects.add(scope.projectId);
      if (stopped || (body.events ?? []).length > 0) return;
      setWaiting(true);
      import('../onboarding/index.js').then((loaded) => { if (!stopped) setModule(loaded); }, () => {});
    }, () => {});
    return () => { stopped = true; };
  }, [scope.orgSlug, scope.projectId]);
  if (!waiting || !module) return null;
  return html`<${module.WaitingForData} scope=${scope} onLive=${() => { liveProjects.add(scope.projectId); setWaiting(false); onLive(); }} />`;
}

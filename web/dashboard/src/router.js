// Client-side routing with the History API: the URL holds the whole state of a view, so every
// view can be shared and reloaded. The app reads the location once (RouteProvider) and components
// read it with useRoute(); they change it with navigate() and setQuery(), from event handlers and
// effects only — never while rendering (a redirect is the <Redirect> component, an effect).
import { createContext, h } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';

const listeners = new Set();

function notify() {
  for (const listener of listeners) listener(currentLocation());
}

addEventListener('popstate', notify);

export function currentLocation() {
  return { path: location.pathname, search: location.search, query: Object.fromEntries(new URLSearchParams(location.search)) };
}

/** Goes to a same-origin URL ("/acme/…?from=…"); replace keeps the history entry. */
export function navigate(url, { replace = false } = {}) {
  const target = new URL(url, location.href);
  if (target.origin !== location.origin) {
    location.assign(target.href);
    return;
  }
  const relativeUrl = target.pathname + target.search + target.hash;
  if (relativeUrl === location.pathname + location.search + location.hash) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', relativeUrl);
  notify();
  if (!replace) scrollTo(0, 0);
}

/**
 * Merges patch into the URL's search params; a null or undefined value deletes the key, an
 * array writes the key once per item (the report filters' repeated f=).
 */
export function setQuery(patch, { replace = false } = {}) {
  const params = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(patch)) {
    params.delete(key);
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  navigate(location.pathname + (search ? `?${search}` : ''), { replace });
}

export function useLocation() {
  const [value, setValue] = useState(currentLocation);
  useEffect(() => {
    listeners.add(setValue);
    // A child's effect may have navigated before this one subscribed (children's effects run
    // first): catch up.
    setValue((shown) => {
      const now = currentLocation();
      return now.path === shown.path && now.search === shown.search ? shown : now;
    });
    return () => listeners.delete(setValue);
  }, []);
  return value;
}

const RouteContext = createContext(null);

/** Provides the location to useRoute() below it; re-renders them when it changes. */
export function RouteProvider({ children }) {
  return h(RouteContext.Provider, { value: useLocation() }, children);
}

/** The location: { path, search, query } (query: the search parameters as an object). */
export function useRoute() {
  return useContext(RouteContext) ?? currentLocation();
}

/** Goes to `to` (replacing the history entry) once rendered: a redirect, as an effect. */
export function Redirect({ to }) {
  useEffect(() => { navigate(to, { replace: true }); }, [to]);
  return null;
}

/** Makes a plain <a href="/…"> navigate without reloading (left click without modifiers). */
export function onLinkClick(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = event.target.closest?.('a[href]');
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
  event.preventDefault();
  navigate(url.href);
}

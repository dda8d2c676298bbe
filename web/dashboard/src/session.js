// The signed-in session. The access token (a 15-minute JWT) lives in memory only; the refresh
// token lives in localStorage so a reload or a new tab stays signed in. Refresh tokens are
// single-use and reusing one revokes the whole session, so every refresh — in this tab or any
// other — runs under one Web Lock and reads the newest refresh token from storage first.
import { requestFor } from './operations.js';

const refreshKey = 'sightline.refreshToken';
const lastProjectKey = 'sightline.lastProject';
const refreshMarginMs = 60_000;

let accessToken = null;
let accessExpiresAt = 0;
let user = null;
let refreshTimer = 0;
let inFlightRefresh = null;
const listeners = new Set();

export function currentUser() {
  return user;
}

export function hasSession() {
  return Boolean(accessToken || localStorage.getItem(refreshKey));
}

/** Called with the user (or null when signed out) whenever the session changes. */
export function onSessionChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit() {
  for (const listener of listeners) listener(user);
}

/** Takes an AuthResponse (login, login_two_factor, passkey sign-in, accept_invitation, refresh). */
export function startSession(auth) {
  accessToken = auth.accessToken;
  accessExpiresAt = Date.now() + (auth.expiresIn ?? 900) * 1000;
  if (auth.refreshToken) localStorage.setItem(refreshKey, auth.refreshToken);
  if (auth.user) user = auth.user;
  scheduleRefresh();
  emit();
}

/** Replaces the user object (after get_current_user or update_current_user). */
export function setCurrentUser(next) {
  user = next;
  emit();
}

function scheduleRefresh() {
  clearTimeout(refreshTimer);
  const delay = Math.max(5_000, accessExpiresAt - Date.now() - refreshMarginMs);
  refreshTimer = setTimeout(() => { refresh().catch(() => {}); }, delay);
}

/** A valid access token, refreshing first when it is missing or about to expire; null if none. */
export async function getAccessToken() {
  if (accessToken && Date.now() < accessExpiresAt - 5_000) return accessToken;
  if (!localStorage.getItem(refreshKey)) return null;
  try {
    await refresh();
  } catch {
    return null;
  }
  return accessToken;
}

/** Trades the refresh token for a new pair; one at a time across every tab. Throws when the
 *  session is over (then the session is cleared). */
export function refresh() {
  if (!inFlightRefresh) {
    inFlightRefresh = withRefreshLock(refreshNow).finally(() => { inFlightRefresh = null; });
  }
  return inFlightRefresh;
}

async function withRefreshLock(task) {
  if (navigator.locks?.request) return navigator.locks.request('sightline.refresh', task);
  return task();
}

async function refreshNow() {
  const token = localStorage.getItem(refreshKey);
  if (!token) {
    clear();
    throw new Error('signed out');
  }
  // Not api.js: its 401 handling refreshes, which is what this is.
  const { method, path } = requestFor('refresh_token');
  const response = await fetch(path, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ refreshToken: token }),
  });
  if (!response.ok) {
    // Another tab may have refreshed while we waited for the lock with an older token in hand;
    // only a failure with the newest token ends the session.
    if (localStorage.getItem(refreshKey) !== token) return refreshNow();
    if (response.status === 401 || response.status === 400) clear();
    throw new Error(`refresh failed (${response.status})`);
  }
  startSession(await response.json());
}

/** Signs out on the server (ends the session everywhere it is used) and forgets the tokens. */
export async function signOut() {
  const token = localStorage.getItem(refreshKey);
  clear();
  if (token) {
    const { method, path } = requestFor('logout');
    await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken: token }),
    }).catch(() => {});
  }
}

/** Forgets the session locally (the server already ended it, or sign-out). */
export function clear() {
  clearTimeout(refreshTimer);
  accessToken = null;
  accessExpiresAt = 0;
  user = null;
  localStorage.removeItem(refreshKey);
  emit();
}

// Another tab signed out: follow it.
addEventListener('storage', (event) => {
  if (event.key === refreshKey && event.newValue === null && user) {
    clearTimeout(refreshTimer);
    accessToken = null;
    user = null;
    emit();
  }
});

/** The last organization/project the user looked at, for "/". */
export function lastProject() {
  try {
    return JSON.parse(localStorage.getItem(lastProjectKey)) ?? null;
  } catch {
    return null;
  }
}

export function rememberProject(org, projectId) {
  localStorage.setItem(lastProjectKey, JSON.stringify({ org, projectId }));
}

// The REST client every view uses. Operations are named by operationId
// (call('list_sdk_keys', { orgSlug, projectId })); the method and path come from the table
// generated from the OpenAPI document (src/generated/operations.json), and the build fails when
// the source names an operation the table does not have (build.mjs, operationsTable). Sends the
// session's access token, refreshes once on 401 and retries, and sends the user to
// /login?next=… when the session is over.
import { clear, getAccessToken, refresh } from './session.js';
import { navigate } from './router.js';
import { requestFor } from './operations.js';

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details ?? {};
  }
}

function urlFor(path, query) {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

async function errorFrom(response) {
  let payload = null;
  try {
    payload = await response.json();
  } catch { /* not JSON: keep the status text */ }
  const error = payload?.error;
  return new ApiError(response.status, error?.code ?? `HTTP_${response.status}`,
    error?.message ?? (response.statusText || `Request failed (${response.status})`), error?.details);
}

function sendToLogin() {
  clear();
  if (location.pathname === '/login') return;
  const next = location.pathname + location.search;
  navigate(`/login?next=${encodeURIComponent(next)}`, { replace: true });
}

/**
 * One request. options.auth = false sends no token (sign-in operations); options.headers adds
 * headers (e.g. X-2FA-Setup-Token, which replaces the session for the 2FA setup operations).
 */
async function send(method, path, { query, body, headers = {}, auth = true, signal, accept = 'application/json' } = {}) {
  const url = urlFor(path, query);
  const attempt = async () => {
    const all = { Accept: accept, ...headers };
    if (body !== undefined) all['Content-Type'] = 'application/json';
    if (auth && !all.Authorization && !all['X-2FA-Setup-Token']) {
      const token = await getAccessToken();
      if (token) all.Authorization = `Bearer ${token}`;
    }
    return fetch(url, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body), signal });
  };
  let response = await attempt();
  if (response.status === 401 && auth && !headers.Authorization && !headers['X-2FA-Setup-Token']) {
    let refreshed = true;
    try {
      await refresh();
    } catch {
      refreshed = false;
    }
    if (!refreshed) {
      sendToLogin();
      throw await errorFrom(response);
    }
    response = await attempt();
    if (response.status === 401) {
      sendToLogin();
      throw await errorFrom(response);
    }
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}

async function json(response) {
  if (response.status === 204) return null;
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

/**
 * Reads an operation's Server-Sent Events response with fetch (EventSource cannot send Authorization).
 * onEvent({event, data, id, json}) per event: event defaults to "message", data is the text,
 * json the parsed data (or undefined when it is not JSON). Resolves when the stream ends; a
 * signal aborts it (then it resolves quietly).
 */
async function stream(operationId, params, { headers, onEvent, signal } = {}) {
  const { method, path, query, body } = requestFor(operationId, params);
  let response;
  try {
    response = await send(method, path, { query, body, headers, signal, accept: 'text/event-stream' });
  } catch (error) {
    if (error.name === 'AbortError') return;
    throw error;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let fields = { event: '', data: [], id: undefined };
  const dispatch = () => {
    if (fields.data.length) {
      const data = fields.data.join('\n');
      let parsed;
      try { parsed = JSON.parse(data); } catch { parsed = undefined; }
      onEvent?.({ event: fields.event || 'message', data, id: fields.id, json: parsed });
    }
    fields = { event: '', data: [], id: undefined };
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let newline;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') { dispatch(); continue; }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') fields.event = value;
        else if (field === 'data') fields.data.push(value);
        else if (field === 'id') fields.id = value;
      }
    }
    dispatch();
  } catch (error) {
    if (error.name !== 'AbortError') throw error;
  } finally {
    reader.releaseLock();
  }
}

/**
 * Calls an operation: params holds its path parameters and, for GET and DELETE, its query
 * parameters, else its JSON body. options: auth, headers, signal (see send).
 */
async function call(operationId, params, options) {
  const { method, path, query, body } = requestFor(operationId, params);
  return json(await send(method, path, { ...options, query, body }));
}

export const api = { call, stream };

/** Encodes a path segment ("/" + org + "/projects/" + id) safely. */
export const seg = (value) => encodeURIComponent(value);

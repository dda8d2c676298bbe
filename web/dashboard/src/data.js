// Reading data: one cache and one hook for every page.
//
// The cache is keyed by operationId and params. A request in flight is shared by every
// component that asks for the same thing; once settled it is forgotten, so a page shown again
// reads fresh data — unless the request was made with { keep: true } (the projects of an
// organization, the user's permissions, the site-audit rule catalog), which stays for the
// session. invalidate(operationId) after a write forgets the kept answers of that operation and
// has every component showing one read it again.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { cacheKey as keyOf } from './cache-key.js';

/** key → { promise, keep } */
const cache = new Map();
/** Called with an operationId when it is invalidated; each returns a promise (or nothing). */
const invalidationListeners = new Set();

/** The answer of operationId with params: the kept or in-flight one, else a new request. */
export function read(operationId, params, { keep = false, fresh = false } = {}) {
  const key = keyOf(operationId, params);
  const cached = cache.get(key);
  if (cached && !fresh) return cached.promise;
  const promise = api.call(operationId, params);
  cache.set(key, { promise, keep });
  const forget = () => {
    if (cache.get(key)?.promise === promise) cache.delete(key);
  };
  // A failed answer is never kept; a settled one only with keep.
  promise.then(() => { if (!keep) forget(); }, forget);
  return promise;
}

/** Forgets every kept answer of these operations and reloads them where they are shown. */
export function invalidate(...operationIds) {
  const wanted = new Set(operationIds);
  for (const key of [...cache.keys()]) {
    if (wanted.has(key.slice(0, key.indexOf(' ')))) cache.delete(key);
  }
  return Promise.all([...invalidationListeners].map((listener) => listener(wanted)));
}

/**
 * A request for useOperations: operationId, params, options: keep (see read), select (what of
 * the answer the view keeps, e.g. (body) => body.members; the cache holds the whole answer).
 */
export function operation(operationId, params, options = {}) {
  return { operationId, params: params ?? {}, keep: Boolean(options.keep), select: options.select, key: keyOf(operationId, params) };
}

const initial = { data: undefined, error: null, loading: true };

/**
 * The answers of a view's requests: requests is { name: operation(…) | null } (null: not now).
 * Returns { name: { data, error, loading, reload(), setData(value | fn) } }. A request whose key
 * did not change keeps its answer; while a new key loads, the previous data stays (so the view
 * does not jump), and an error keeps it too; an answer that arrives after a newer request was
 * made is dropped.
 */
export function useOperations(requests) {
  const [results, setResults] = useState({});
  const wanted = useRef({});
  const current = useRef(requests);
  current.current = requests;
  const signature = Object.entries(requests).map(([name, request]) => `${name}=${request?.key ?? ''}`).join('\n');

  const load = (name, request, fresh) => {
    wanted.current[name] = request.key;
    setResults((previous) => ({ ...previous, [name]: { key: request.key, data: previous[name]?.data, error: null, loading: true } }));
    const settle = (patch) => {
      if (wanted.current[name] !== request.key) return;
      setResults((previous) => ({ ...previous, [name]: { ...previous[name], key: request.key, loading: false, ...patch } }));
    };
    return read(request.operationId, request.params, { keep: request.keep, fresh })
      .then((data) => settle({ data: request.select ? request.select(data) : data, error: null }), (error) => settle({ error }));
  };

  useEffect(() => {
    for (const [name, request] of Object.entries(requests)) {
      if (!request) { wanted.current[name] = null; continue; }
      if (wanted.current[name] !== request.key) load(name, request, false);
    }
  }, [signature]);

  useEffect(() => {
    const listener = (operationIds) => Promise.all(Object.entries(current.current)
      .filter(([, request]) => request && operationIds.has(request.operationId))
      .map(([name, request]) => load(name, request, false)));
    invalidationListeners.add(listener);
    return () => invalidationListeners.delete(listener);
  }, []);

  const view = {};
  for (const [name, request] of Object.entries(requests)) {
    const result = request && results[name]?.key === request.key ? results[name] : { ...initial, data: request ? results[name]?.data : undefined, loading: Boolean(request) };
    view[name] = {
      data: result.data,
      error: result.error,
      loading: result.loading,
      reload: () => (request ? load(name, request, true) : Promise.resolve()),
      setData: (value) => setResults((previous) => {
        const before = previous[name] ?? { ...initial, key: request?.key };
        return { ...previous, [name]: { ...before, data: typeof value === 'function' ? value(before.data) : value } };
      }),
    };
  }
  return view;
}

/** One request: useOperation('list_members', { orgSlug }) → { data, error, loading, reload, setData }. */
export function useOperation(operationId, params, options = {}) {
  const { skip = false, ...rest } = options;
  return useOperations({ answer: skip ? null : operation(operationId, params, rest) }).answer;
}

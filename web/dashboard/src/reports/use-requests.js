// Runs the requests of one report view in parallel and tells the benchmark when all of them are
// rendered: performance.mark('sightline:view-ready') once per view load (a new period or
// comparison is a new load; switching a tab only reloads that tab's request).
import { useEffect, useRef, useState } from 'preact/hooks';

export const viewReadyMark = 'sightline:view-ready';

/**
 * specs: { name: { key, load } } — key identifies the request (its parameters); load() returns a
 * promise. A spec whose key did not change keeps its result. Returns { name: { data, error,
 * loading } }; while a new key loads, the previous data stays so the view does not jump.
 * loadKey: the view load (period + comparison + filters); the ready mark fires once per value.
 */
export function useRequests(specs, loadKey) {
  const [results, setResults] = useState({});
  const latest = useRef({});
  const signature = Object.entries(specs).map(([name, spec]) => `${name}=${spec.key}`).join('\n');

  useEffect(() => {
    for (const [name, spec] of Object.entries(specs)) {
      if (latest.current[name] === spec.key) continue;
      latest.current[name] = spec.key;
      setResults((previous) => ({ ...previous, [name]: { key: spec.key, data: previous[name]?.data, error: null, loading: true } }));
      spec.load().then(
        (data) => {
          if (latest.current[name] !== spec.key) return;
          setResults((previous) => ({ ...previous, [name]: { key: spec.key, data, error: null, loading: false } }));
        },
        (error) => {
          if (latest.current[name] !== spec.key) return;
          setResults((previous) => ({ ...previous, [name]: { key: spec.key, data: undefined, error, loading: false } }));
        },
      );
    }
  }, [signature]);

  const settled = Object.entries(specs).every(([name, spec]) => results[name]?.key === spec.key && !results[name].loading);
  const marked = useRef(null);
  useEffect(() => {
    if (marked.current !== loadKey) performance.clearMarks(viewReadyMark);
  }, [loadKey]);
  useEffect(() => {
    if (!settled || marked.current === loadKey) return undefined;
    marked.current = loadKey;
    // The effect runs after Preact committed the DOM; the next frame is after it was painted.
    const frame = requestAnimationFrame(() => performance.mark(viewReadyMark));
    return () => cancelAnimationFrame(frame);
  }, [settled, loadKey]);

  const view = {};
  for (const [name, spec] of Object.entries(specs)) {
    const result = results[name];
    view[name] = result ? { ...result, loading: result.key !== spec.key || result.loading } : { data: undefined, error: null, loading: true };
  }
  return view;
}

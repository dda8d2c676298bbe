// Tells the benchmark when a report view is complete: performance.mark('sightline:view-ready')
// once per view load, after every request of the view settled and was painted (a new period or
// comparison is a new load; switching a tab only reloads that tab's request).
import { useEffect, useRef } from 'preact/hooks';

export const viewReadyMark = 'sightline:view-ready';

/** results: useOperations' answers; loadKey: the view load (period + comparison + filters). */
export function useViewReady(results, loadKey) {
  const settled = Object.values(results).every((result) => !result.loading);
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
  return results;
}

// Reading something again and again while it is shown (realtime.js: "N visitors now" on the
// web report and the Live page's last 30 minutes). poll() is unit-tested in
// web/dashboard/test/polling.test.js.
import { useEffect, useState } from 'preact/hooks';

/**
 * Calls load() now, and again everyMs after each call settled (answered or failed), so a slow
 * answer never overlaps the next call; onAnswer(answer) or onError(error) gets each outcome.
 * Returns stop(): no call after it, and nothing reported from one still in flight. timers is
 * { setTimeout, clearTimeout } (the globals unless given, e.g. in unit tests).
 */
export function poll(load, everyMs, { onAnswer, onError } = {}, timers = globalThis) {
  let stopped = false;
  let timer = 0;
  const tick = () => {
    new Promise((resolve) => { resolve(load()); }).then(
      (answer) => { if (!stopped) onAnswer?.(answer); },
      (error) => { if (!stopped) onError?.(error); },
    ).finally(() => { if (!stopped) timer = timers.setTimeout(tick, everyMs); });
  };
  tick();
  return () => { stopped = true; timers.clearTimeout(timer); };
}

/**
 * poll() while the component is shown, restarted when deps change: { data, error }. data is
 * the latest answer (null until the first); a failure sets error and keeps the data shown,
 * the next answer clears it.
 */
export function usePolling(load, everyMs, deps) {
  const [state, setState] = useState({ data: null, error: null });
  useEffect(() => {
    // Another project's answer is not this one's, even until the first answer comes.
    setState({ data: null, error: null });
    return poll(load, everyMs, {
      onAnswer: (data) => setState({ data, error: null }),
      onError: (error) => setState((previous) => ({ ...previous, error })),
    });
  }, [everyMs, ...deps]);
  return state;
}

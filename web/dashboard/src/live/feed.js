// The Live view's data: the newest stored events (list_events, newest first, paged by cursor)
// kept up to date by the project's notification stream (stream_notifications) and a short poll.
// The stream carries only notifications (events sent with `notify: true`), so a notification
// both announces itself and triggers a fetch of the newest events; the poll brings in every
// other event. The server ends a stream now and then (and on a lost session or role); the
// stream is reopened with backoff, resuming after the last notification seen (Last-Event-ID).
// Arrivals keep at most keptEvents (500) events in memory (more only while "Load more" asked
// for them), the oldest cut; "Load more" still reaches those (event-window.js).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { emptyWindow, firstWindow, keptEvents, olderPages, withNewest, withOlder } from './event-window.js';

const pageSize = 50;
const pollEveryMs = 5000;
const firstBackoffMs = 1000;
const longestBackoffMs = 30_000;
/** A stream that stayed open this long was healthy: the next reconnect starts from scratch. */
const healthyStreamMs = 30_000;
const keptNotifications = 20;
/** After a cut, "Load more" reads on until a page brings an event not shown (event-window.js). */
const mostPagesPerLoad = Math.ceil(keptEvents / pageSize) + 1;

const sleep = (ms, signal) => new Promise((done) => {
  const timer = setTimeout(done, ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); done(); }, { once: true });
});

/** Errors that reconnecting cannot fix: the user may not read this project (any more). */
const isFinal = (error) => [400, 403, 404].includes(error?.status);

/**
 * { events, nextCursor, loading, loadingMore, error, loadMore, notifications, connection,
 *   paused, setPaused }. connection: 'connecting' | 'live' | 'reconnecting' | 'paused' | 'failed'.
 * onNotification(notification) runs for each notification as it arrives.
 */
export function useLiveFeed({ orgSlug, projectId, onNotification }) {
  const scope = { orgSlug, projectId };
  // { events, older, after }: the events shown, newest first, and the cursor of the older ones.
  const [shown, setShown] = useState(emptyWindow);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState(null);
  const [notifications, setNotifications] = useState([]);
  const [connection, setConnection] = useState('connecting');
  const [paused, setPaused] = useState(false);
  const lastEventId = useRef(null);
  const notify = useRef(onNotification);
  notify.current = onNotification;

  /** Puts the newest events that are not shown yet on top, newest first; cuts the oldest. */
  const refreshNewest = useCallback(async () => {
    const page = await api.call('list_events', { ...scope, limit: pageSize });
    setShown((current) => withNewest(current, page));
  }, [orgSlug, projectId]);

  // The first page.
  useEffect(() => {
    let stale = false;
    (async () => {
      try {
        const page = await api.call('list_events', { ...scope, limit: pageSize });
        if (stale) return;
        setShown(firstWindow(page));
      } catch (caught) {
        if (!stale) setError(caught);
      } finally {
        if (!stale) setLoading(false);
      }
    })();
    return () => { stale = true; };
  }, [orgSlug, projectId]);

  const loadMore = useCallback(async () => {
    const start = shown.older;
    if (!start) return;
    setLoadingMore(true);
    try {
      const pages = await olderPages(shown, (cursor) => api.call('list_events', { ...scope, limit: pageSize, cursor }), mostPagesPerLoad);
      setShown((current) => withOlder(current, start, pages));
    } catch (caught) {
      setError(caught);
    } finally {
      setLoadingMore(false);
    }
  }, [orgSlug, projectId, shown]);

  // The notification stream, reopened with backoff whenever it ends, until paused or unmounted.
  useEffect(() => {
    if (loading) return undefined;
    if (paused) { setConnection('paused'); return undefined; }
    const controller = new AbortController();
    const { signal } = controller;
    (async () => {
      let backoff = firstBackoffMs;
      // Catch up on what arrived while paused (or while the first page loaded).
      refreshNewest().catch(() => {});
      while (!signal.aborted) {
        const opened = Date.now();
        // Shown as live while the request is open; a refused or broken one flips it at once.
        setConnection('live');
        try {
          await api.stream('stream_notifications', scope, {
            signal,
            headers: lastEventId.current ? { 'Last-Event-ID': lastEventId.current } : undefined,
            onEvent: ({ event, id, json }) => {
              if (event !== 'notification' || !json) return;
              if (id) lastEventId.current = id;
              setNotifications((shown) => [json, ...shown.filter((n) => n.id !== json.id)].slice(0, keptNotifications));
              notify.current?.(json);
              refreshNewest().catch(() => {});
            },
          });
        } catch (caught) {
          if (signal.aborted) return;
          if (isFinal(caught)) { setConnection('failed'); setError(caught); return; }
        }
        if (signal.aborted) return;
        if (Date.now() - opened >= healthyStreamMs) backoff = firstBackoffMs;
        setConnection('reconnecting');
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, longestBackoffMs);
      }
    })();
    return () => controller.abort();
  }, [orgSlug, projectId, loading, paused, refreshNewest]);

  // Events sent without `notify` raise no notification: a short poll brings them in.
  useEffect(() => {
    if (loading || paused) return undefined;
    const timer = setInterval(() => { refreshNewest().catch(() => {}); }, pollEveryMs);
    return () => clearInterval(timer);
  }, [loading, paused, refreshNewest]);

  return { events: shown.events, nextCursor: shown.older, loading, loadingMore, error, loadMore, notifications, connection, paused, setPaused };
}

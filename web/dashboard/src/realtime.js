// The project's last 30 minutes (get_web_realtime), read again and again while shown: "N visitors
// now" on the web report (reports/view-actions.js) and the Live page's section (live/index.js).
// Imported by those lazily loaded chunks only, so it stays out of the first view.
import { api } from './api.js';
import { usePolling } from './polling.js';

/** get_web_realtime of the project, read now and every everyMs: { data, error } (usePolling). */
export function useRealtime(projectId, everyMs) {
  return usePolling(() => api.call('get_web_realtime', { projectId }), everyMs, [projectId]);
}

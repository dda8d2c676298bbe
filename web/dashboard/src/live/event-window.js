// The Live page's events in memory (feed.js): newest first, and bounded, so a page left open
// for days keeps keptEvents of them, not every event since it opened. Pure functions,
// unit-tested in web/dashboard/test/live.test.js.
//
// list_events pages newest first with an opaque cursor: the position after a page's last event
// (docs/api.md, "Paging"). A window remembers that cursor for the last event of every page it
// read (`after`). When arrivals push the oldest events out, the next older page ("Load more")
// restarts after the newest remembered position among the events kept: the events between it
// and the cut come again and are skipped as shown (olderPages reads on until a page brings one
// that is not), then the older ones follow, so nothing cut is out of reach.

/** Arrivals never make the window longer than this, or than "Load more" made it. */
export const keptEvents = 500;

/**
 * A window: { events (newest first), older (the cursor of the next older page; null: there is
 * none), after (Map: event id → the cursor after that event, null when nothing was older) }.
 */
export const emptyWindow = () => ({ events: [], older: null, after: new Map() });

/** `after` with the position after the page's last event; the same map when it knew it. */
function withPageEnd(after, page) {
  const last = page.events[page.events.length - 1];
  const cursor = page.nextCursor ?? null;
  if (!last || (after.has(last.id) && after.get(last.id) === cursor)) return after;
  return new Map(after).set(last.id, cursor);
}

/** The first page of list_events as a window. */
export function firstWindow(page) {
  return { events: page.events, older: page.nextCursor ?? null, after: withPageEnd(new Map(), page) };
}

/**
 * At most `limit` events, the oldest cut, `older` restarting after the newest remembered
 * position among those kept. With no position remembered among them (list_events' order and
 * the window's disagree that much), the window keeps events down to the next one remembered;
 * with none at all, it stays as it is.
 */
function trimmed(feed, limit) {
  const { events, after } = feed;
  if (events.length <= limit) return feed;
  let resume = -1;
  for (let index = limit - 1; index >= 0 && resume < 0; index -= 1) if (after.has(events[index].id)) resume = index;
  let end = limit;
  if (resume < 0) {
    resume = events.findIndex((event, index) => index >= limit && after.has(event.id));
    if (resume < 0) return feed;
    end = resume + 1;
  }
  const kept = events.slice(0, end);
  const keptAfter = new Map();
  for (const event of kept) if (after.has(event.id)) keptAfter.set(event.id, after.get(event.id));
  return { events: kept, older: after.get(events[resume].id), after: keptAfter };
}

/**
 * The newest page of list_events read again: the events not shown yet go on top (newest first),
 * and the oldest are cut beyond max(limit, the events shown before). The same window when the
 * page changed nothing.
 */
export function withNewest(feed, page, limit = keptEvents) {
  const shown = new Set(feed.events.map((event) => event.id));
  const fresh = page.events.filter((event) => !shown.has(event.id));
  const after = withPageEnd(feed.after, page);
  if (!fresh.length) return after === feed.after ? feed : { ...feed, after };
  return trimmed({ ...feed, events: [...fresh, ...feed.events], after }, Math.max(limit, feed.events.length));
}

/**
 * Older events read from `cursor` (the pages in one: their events, the last one's nextCursor):
 * those not shown go below. The same window when its `older` is no longer `cursor` (arrivals
 * cut it meanwhile): the pages may not follow what it shows now.
 */
export function withOlder(feed, cursor, page) {
  if (feed.older !== cursor) return feed;
  const shown = new Set(feed.events.map((event) => event.id));
  const older = page.events.filter((event) => !shown.has(event.id));
  return { events: [...feed.events, ...older], older: page.nextCursor ?? null, after: withPageEnd(feed.after, page) };
}

/**
 * The next older events of a window, for withOlder: read(cursor) → a list_events page, from
 * feed.older on, page after page until one brings an event not shown (after a cut the first
 * may hold only events still shown), the last page, or mostPages pages. { events, nextCursor }.
 */
export async function olderPages(feed, read, mostPages = Math.ceil(keptEvents / 50) + 1) {
  const shown = new Set(feed.events.map((event) => event.id));
  const events = [];
  let cursor = feed.older;
  for (let pages = 0; cursor && pages < mostPages; pages += 1) {
    const page = await read(cursor);
    events.push(...page.events);
    cursor = page.nextCursor ?? null;
    if (page.events.some((event) => !shown.has(event.id))) break;
  }
  return { events, nextCursor: cursor };
}

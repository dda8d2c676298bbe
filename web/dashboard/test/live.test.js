// The Live page's events in memory (src/live/event-window.js): newest first, at most keptEvents
// as events keep arriving, and every older one still reachable with "Load more".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyWindow, firstWindow, keptEvents, olderPages, withNewest, withOlder } from '../src/live/event-window.js';

/**
 * A project's stored events and list_events over them: newest first, `limit` a page, the
 * cursor an opaque position after a page's last event, as the server pages (docs/api.md).
 */
function store(count) {
  let made = 0;
  const events = [];
  const add = (n) => { for (let i = 0; i < n; i += 1) events.unshift({ id: `e${++made}` }); };
  add(count);
  const list = ({ limit = 50, cursor } = {}) => {
    const start = cursor ? events.findIndex((event) => event.id === cursor.slice('after:'.length)) + 1 : 0;
    const page = events.slice(start, start + limit);
    const more = start + limit < events.length;
    return { events: page, nextCursor: more ? `after:${page[page.length - 1].id}` : null };
  };
  return { events, add, list };
}
const ids = (feed) => feed.events.map((event) => event.id);
/** "Load more" until there is nothing older, as feed.js's loadMore does. */
async function loadAll(feed, site) {
  let current = feed;
  for (let clicks = 0; current.older && clicks < 1000; clicks += 1) {
    current = withOlder(current, current.older, await olderPages(current, (cursor) => site.list({ cursor })));
  }
  return current;
}

test('the first page, then new events on top; the same window when nothing is new', () => {
  const site = store(120);
  let feed = firstWindow(site.list());
  assert.equal(feed.events.length, 50);
  assert.equal(feed.older, 'after:e71');
  assert.equal(withNewest(feed, site.list()), feed);
  site.add(3);
  feed = withNewest(feed, site.list());
  assert.deepEqual(ids(feed).slice(0, 4), ['e123', 'e122', 'e121', 'e120']);
  assert.equal(feed.events.length, 53);
  assert.equal(feed.older, 'after:e71', 'the older page is where it was');
  assert.deepEqual(emptyWindow().events, []);
});

test('arrivals keep the newest keptEvents, and Load more still reaches every older event', async () => {
  const site = store(80);
  let feed = firstWindow(site.list());
  // 7 events a poll for a long while: far more than the window keeps.
  for (let poll = 0; poll < 200; poll += 1) {
    site.add(7);
    feed = withNewest(feed, site.list());
    assert.ok(feed.events.length <= keptEvents, `${feed.events.length} events after poll ${poll}`);
  }
  assert.equal(feed.events.length, keptEvents);
  assert.deepEqual(ids(feed), site.events.slice(0, keptEvents).map((event) => event.id), 'the newest, in order');
  assert.ok(feed.after.size <= feed.events.length, 'positions are kept for shown events only');
  // The cut events come back, none twice, none missing.
  const all = await loadAll(feed, site);
  assert.deepEqual(ids(all), site.events.map((event) => event.id));
  assert.equal(all.older, null);
});

test('a cut between remembered positions: Load more skips the events still shown', async () => {
  const site = store(200);
  let feed = firstWindow(site.list());
  feed = await loadAll(feed, site); // 200 shown, positions after e151, e101, e51 and the end
  // One arrival at a time: the positions move down one by one, and the cut falls between them.
  for (let i = 0; i < 303; i += 1) {
    site.add(1);
    feed = withNewest(feed, site.list());
  }
  assert.equal(feed.events.length, keptEvents);
  // The oldest kept is e4, with no position remembered: Load more restarts after e51.
  assert.equal(feed.events[keptEvents - 1].id, 'e4');
  assert.equal(feed.older, 'after:e51');
  const pages = await olderPages(feed, (cursor) => site.list({ cursor }));
  const next = withOlder(feed, feed.older, pages);
  assert.ok(next.events.length > keptEvents, 'Load more brought older events');
  assert.deepEqual(ids(next), site.events.slice(0, next.events.length).map((event) => event.id), 'no gap, no repeat');
  assert.deepEqual(ids(await loadAll(next, site)), site.events.map((event) => event.id));
});

test('what Load more brought stays until arrivals push it out; a page read across a cut is dropped', async () => {
  const site = store(keptEvents + 120);
  let feed = await loadAll(firstWindow(site.list()), site);
  assert.equal(feed.events.length, keptEvents + 120);
  site.add(10);
  feed = withNewest(feed, site.list());
  assert.equal(feed.events.length, keptEvents + 120, 'arrivals do not make it longer than Load more made it');
  assert.deepEqual(ids(feed), site.events.slice(0, keptEvents + 120).map((event) => event.id));
  // A page asked from a cursor the window no longer has does not join it.
  const stale = { events: [{ id: 'x' }], nextCursor: null };
  assert.equal(withOlder(feed, 'after:e1', stale), feed);
});

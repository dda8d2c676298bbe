// The SDK's logic under node's test runner, with a fake environment: storage, clock, timers
// and a fetch that records what it is sent and answers as each test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  Sightline, AuthenticationError, ValidationError, TimeoutError, ApiError, NetworkError, uuid,
} from '../src/sightline.js';

function storage() {
  const items = new Map();
  return { items, getItem: (k) => (items.has(k) ? items.get(k) : null),
           setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k) };
}

// answer(url, body) → {status, body?} or 'network' or 'timeout'
function env({ answer = () => ({ status: 202 }), store = storage(), online = true, start = 1_700_000_000_000 } = {}) {
  const sent = [];
  const timers = [];
  const clock = { now: start };
  return {
    sent, timers, clock,
    storage: store,
    navigator: { onLine: online },
    now: () => clock.now,
    random: (n) => new Uint8Array(randomBytes(n)),
    setTimeout: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
    clearTimeout: () => {},
    setInterval: () => 0,
    console: { error() {}, warn() {}, log() {} },
    window: { location: { href: 'https://shop.example/pricing' } },
    document: { referrer: 'https://news.example/' },
    fetch: async (url, init) => {
      const body = JSON.parse(init.body);
      sent.push({ url, body, headers: init.headers, keepalive: init.keepalive });
      const reply = answer(url, body);
      if (reply === 'network') throw new TypeError('Failed to fetch');
      if (reply === 'timeout') throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      return { ok: reply.status < 300, status: reply.status,
               json: async () => reply.body ?? { error: { message: 'scripted' } } };
    },
  };
}

const events = (e) => e.sent.filter((s) => s.url.endsWith('/sdk/v1/logs')).map((s) => s.body);

test('uuid() makes version 4 ids', () => {
  assert.match(uuid((n) => new Uint8Array(randomBytes(n))),
               /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('the anonymous id is kept under the storage key; storage null makes a new one per load', () => {
  const e = env();
  const first = new Sightline({ sdkKey: 'pk_service_x' }, e);
  assert.equal(e.storage.getItem('service_anonymous_id'), first.anonymousId);
  assert.equal(new Sightline({ sdkKey: 'pk_service_x' }, e).anonymousId, first.anonymousId);
  const custom = new Sightline({ sdkKey: 'pk_service_x', storageKey: 'my_id' }, e);
  assert.equal(e.storage.getItem('my_id'), custom.anonymousId);
  const a = new Sightline({ sdkKey: 'pk_service_x', storage: null }, e);
  const b = new Sightline({ sdkKey: 'pk_service_x', storage: null }, e);
  assert.notEqual(a.anonymousId, b.anonymousId);
});

test('an event carries the page, referrer, session, super properties and the SDK key', async () => {
  const e = env();
  const sdk = new Sightline({ sdkKey: 'pk_service_x', baseUrl: 'https://in.example/' }, e);
  sdk.register({ plan: 'pro', build: 7 });
  sdk.register({ plan: 'team' });
  await sdk.track('signup', { channel: 'users', tags: { step: 2 }, icon: '🎉', notify: true,
                              description: 'A signup' });
  const [start, signup] = events(e);
  assert.equal(start.event, 'session_start');
  assert.equal(signup.event, 'signup');
  assert.equal(signup.channel, 'users');
  assert.equal(signup.icon, '🎉');
  assert.equal(signup.notify, true);
  assert.equal(signup.anonymous_id, sdk.anonymousId);
  assert.deepEqual({ ...signup.tags, $session_id: undefined }, {
    plan: 'team', build: 7, step: 2, $url: 'https://shop.example/pricing',
    $referrer: 'https://news.example/', $session_id: undefined });
  assert.equal(signup.tags.$session_id, start.tags.$session_id);
  assert.equal(e.sent[0].url, 'https://in.example/sdk/v1/logs');
  assert.equal(e.sent[0].headers['x-sdk-key'], 'pk_service_x');
  sdk.unregister('plan');
  await sdk.track('other');
  assert.equal(events(e)[2].tags.plan, undefined);
  assert.equal(events(e)[2].channel, 'events');
});

test('sessions roll over after 30 minutes without events, and survive a reload within them', async () => {
  const e = env();
  const sdk = new Sightline({ sdkKey: 'k' }, e);
  await sdk.track('a');
  e.clock.now += 29 * 60 * 1000;
  await sdk.track('b');
  e.clock.now += 29 * 60 * 1000;
  const reloaded = new Sightline({ sdkKey: 'k' }, e);
  await reloaded.track('c');
  e.clock.now += 31 * 60 * 1000;
  await reloaded.track('d');
  const sent = events(e);
  assert.deepEqual(sent.map((x) => x.event), ['session_start', 'a', 'b', 'c', 'session_start', 'd']);
  assert.equal(sent[1].tags.$session_id, sent[3].tags.$session_id);
  assert.notEqual(sent[5].tags.$session_id, sent[1].tags.$session_id);
});

test('identify links the anonymous id to a user; later events carry user_id; reset forgets', async () => {
  const e = env({ answer: () => ({ status: 200 }) });
  const sdk = new Sightline({ sdkKey: 'k' }, e);
  await sdk.identify('user-42', { email: 'ana@example.com' });
  const identify = e.sent.find((s) => s.url.endsWith('/sdk/v1/identify')).body;
  assert.deepEqual(identify, { anonymous_id: sdk.anonymousId, user_id: 'user-42',
                               traits: { email: 'ana@example.com' } });
  await sdk.track('paid');
  assert.equal(events(e).at(-1).user_id, 'user-42');
  const before = sdk.anonymousId;
  sdk.reset();
  assert.notEqual(sdk.anonymousId, before);
  await sdk.track('after');
  assert.equal(events(e).at(-1).user_id, undefined);
});

test('a timed event carries $duration in milliseconds', async () => {
  const e = env();
  const sdk = new Sightline({ sdkKey: 'k' }, e);
  sdk.time('checkout');
  e.clock.now += 1234;
  await sdk.track('checkout');
  assert.equal(events(e).at(-1).tags.$duration, 1234);
  await sdk.track('checkout');
  assert.equal(events(e).at(-1).tags.$duration, undefined);
});

test('failures surface as error classes', async () => {
  const cases = [[{ status: 401 }, AuthenticationError], [{ status: 400 }, ValidationError],
                 [{ status: 422 }, ValidationError], [{ status: 404 }, ApiError],
                 [{ status: 503 }, ApiError], ['timeout', TimeoutError], ['network', NetworkError]];
  for (const [reply, kind] of cases) {
    const sdk = new Sightline({ sdkKey: 'k' }, env({ answer: () => reply }));
    await assert.rejects(sdk.post('/sdk/v1/logs', {}), kind);
  }
  // track() never throws: the page does not break because analytics failed.
  const logged = [];
  const e = env({ answer: () => ({ status: 401 }) });
  e.console.error = (...args) => logged.push(args.join(' '));
  await new Sightline({ sdkKey: 'k' }, e).track('x');
  assert.equal(logged.length, 0, 'quiet unless debug');
  await new Sightline({ sdkKey: 'k', debug: true }, e).track('x');
  assert.ok(logged.some((line) => line.includes('AuthenticationError')));
});

test('without an sdkKey, or with a privacy signal the site honours, nothing is sent', async () => {
  const e = env();
  await new Sightline({}, e).track('x');
  e.navigator.doNotTrack = '1';
  await new Sightline({ sdkKey: 'k', respectPrivacySignals: true }, e).track('x');
  assert.equal(e.sent.length, 0);
  await new Sightline({ sdkKey: 'k' }, e).track('x');
  assert.ok(e.sent.length > 0, 'signals are only honoured when the site opts in');
});

test('the offline queue keeps what cannot be sent, flushes in batches, retries with backoff', async () => {
  let serverUp = false;
  const e = env({ online: false, answer: () => (serverUp ? { status: 202 } : { status: 503 }) });
  const config = { sdkKey: 'k', offline: { enabled: true, flushBatchSize: 2, maxQueueSize: 4,
                                            retryBaseDelay: 100, maxRetries: 2 } };
  const sdk = new Sightline(config, e);
  for (const name of ['a', 'b', 'c', 'd']) await sdk.track(name);
  assert.equal(e.sent.length, 0, 'offline: queued');
  assert.equal(sdk.queue.length, 4, 'bounded: session_start and a were dropped');
  assert.deepEqual(sdk.queue.map((q) => q.event.event), ['a', 'b', 'c', 'd']);
  assert.equal(JSON.parse(e.storage.getItem('service_anonymous_id_queue')).length, 4, 'persisted');
  // A reload keeps the queue.
  assert.equal(new Sightline(config, e).queue.length, 4);

  e.navigator.onLine = true;
  await sdk.flush();  // the server answers 503: kept, retried after 100 ms
  assert.equal(e.sent.length, 1);
  assert.equal(sdk.queue.length, 4);
  assert.equal(e.timers.at(-1).ms, 100);
  serverUp = true;
  await e.timers.at(-1).fn();
  await new Promise((resolve) => setImmediate(resolve));
  const batches = e.sent.filter((s) => s.url.endsWith('/sdk/v1/logs/batch'));
  assert.deepEqual(batches.slice(1).map((b) => b.body.events.map((x) => x.event)), [['a', 'b'], ['c', 'd']]);
  assert.equal(sdk.queue.length, 0, 'each event sent once, then forgotten');
});

test('the queue gives up after maxRetries, and drops what the server refuses', async () => {
  const e = env({ answer: () => ({ status: 500 }) });
  const sdk = new Sightline({ sdkKey: 'k', offline: { enabled: true, maxRetries: 1, retryBaseDelay: 10 } }, e);
  await sdk.track('x');  // 500: queued
  assert.equal(sdk.queue.length, 2);
  await sdk.flush();
  assert.equal(e.timers.at(-1).ms, 10);
  await sdk.flush();
  assert.equal(sdk.queue.length, 0, 'two tries over maxRetries 1: dropped');
  const refusing = env({ answer: (url) => (url.endsWith('/batch') ? { status: 400 } : { status: 503 }) });
  const other = new Sightline({ sdkKey: 'k', offline: { enabled: true } }, refusing);
  await other.track('y');
  await other.flush();
  assert.equal(other.queue.length, 0, 'a 400 will not get better by retrying');
});

test('the built ES module exports the API for bundlers', async () => {
  const built = await import('../dist/sightline.esm.js');
  for (const name of ['createSightline', 'Sightline', 'AuthenticationError', 'ValidationError',
                      'TimeoutError', 'ApiError', 'NetworkError']) {
    assert.equal(typeof built[name], 'function', name);
  }
  assert.equal(new built.TimeoutError('late').name, 'TimeoutError', 'names survive minification');
});

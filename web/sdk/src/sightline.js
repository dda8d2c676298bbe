// Sightline's browser SDK: tracked events, identify, super properties, timed events, sessions,
// automatic page views, outbound links, clicks, scroll depth and element visibility, and an
// optional offline queue. One module for both builds: the script tag (script.js) and the ES
// module for bundlers (index.js). The environment (window, storage, fetch, clock) is passed in,
// so the logic runs under node's test runner as well as in a page.

const SESSION_GAP = 30 * 60 * 1000;
const TIMEOUT = 30000;
const SCROLL_MARKS = [25, 50, 75, 100];

// ---- errors, by what the server answered
// Named explicitly: minification renames classes, and callers read `error.name`.
export class SightlineError extends Error {
  constructor(message, status) { super(message); this.name = 'SightlineError'; this.status = status; }
}
const kind = (name) => class extends SightlineError {
  constructor(message, status) { super(message, status); this.name = name; }
};
export const AuthenticationError = kind('AuthenticationError');
export const ValidationError = kind('ValidationError');
export const TimeoutError = kind('TimeoutError');
export const ApiError = kind('ApiError');
export const NetworkError = kind('NetworkError');

export function errorFor(status, message) {
  if (status === 401) return new AuthenticationError(message, status);
  if (status === 400 || status === 422) return new ValidationError(message, status);
  return new ApiError(message, status);
}

export function uuid(random) {
  const b = random(16);
  b[6] = (b[6] & 15) | 64;
  b[8] = (b[8] & 63) | 128;
  const h = Array.from(b, (x) => (x + 256).toString(16).slice(1)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const DEFAULTS = {
  debug: false, baseUrl: '', storageKey: 'service_anonymous_id', respectPrivacySignals: false,
  analytics: { autoTrackPageViews: true, trackBfcacheRestore: true, autoTrackOutboundLinks: true,
               autoTrackClicks: true, autoTrackScrollDepth: true, autoTrackVisibility: true },
  offline: { enabled: false, maxQueueSize: 1000, flushInterval: 30000, flushBatchSize: 50,
             maxRetries: 3, retryBaseDelay: 1000 },
};

// A storage that forgets (storage: null), with the Storage interface's two methods we use.
function memoryStorage() {
  const items = new Map();
  return { getItem: (k) => (items.has(k) ? items.get(k) : null), setItem: (k, v) => items.set(k, String(v)),
           removeItem: (k) => items.delete(k) };
}

export class Sightline {
  // env: {fetch, storage (undefined: none given), now(), random(n), setTimeout, clearTimeout,
  // setInterval, window?, document?, navigator?, console?}
  constructor(config, env) {
    this.env = env;
    this.config = { ...DEFAULTS, ...config,
                    analytics: { ...DEFAULTS.analytics, ...(config && config.analytics) },
                    offline: { ...DEFAULTS.offline, ...(config && config.offline) } };
    const { storageKey } = this.config;
    this.storage = config && config.storage === null ? memoryStorage()
                 : (config && config.storage) || env.storage || memoryStorage();
    this.keys = { id: storageKey, session: `${storageKey}_session`, queue: `${storageKey}_queue`,
                  user: `${storageKey}_user` };
    this.superProperties = {};
    this.timers = {};
    this.queue = this.config.offline.enabled ? this.read(this.keys.queue, []) : [];
    this.flushing = false;
    this.disabled = !this.config.sdkKey || (this.config.respectPrivacySignals && privacySignal(env.navigator));
    if (!this.config.sdkKey) env.console?.error?.('[sightline] sdkKey is required; nothing will be sent');
    this.anonymousId = this.storage.getItem(this.keys.id) || this.rotate();
    this.userId = this.storage.getItem(this.keys.user) || null;
    const session = this.read(this.keys.session, null);
    this.session = session && env.now() - session.last < SESSION_GAP ? session : null;
  }

  read(key, fallback) {
    try { return JSON.parse(this.storage.getItem(key)) ?? fallback; } catch { return fallback; }
  }
  write(key, value) {
    try { this.storage.setItem(key, JSON.stringify(value)); } catch { /* full or blocked */ }
  }
  rotate() {
    const id = uuid(this.env.random);
    try { this.storage.setItem(this.keys.id, id); } catch { /* blocked */ }
    return id;
  }
  log(level, ...args) {
    if (this.config.debug) this.env.console?.[level]?.('[sightline]', ...args);
  }

  // The session id for an event now: a new one, with its session_start, after 30 minutes of
  // inactivity (or on the first event).
  touch() {
    const now = this.env.now();
    let started = false;
    if (!this.session || now - this.session.last >= SESSION_GAP) {
      this.session = { id: uuid(this.env.random), last: now };
      started = true;
    }
    this.session.last = now;
    this.write(this.keys.session, this.session);
    if (started) this.send(this.event('session_start', { channel: 'sessions' }));
    return this.session.id;
  }

  event(name, options = {}) {
    const page = this.env.window?.location?.href;
    const tags = { ...this.superProperties, ...options.tags };
    if (page && tags.$url === undefined) tags.$url = page;
    const referrer = this.env.document?.referrer;
    if (referrer && tags.$referrer === undefined) tags.$referrer = referrer;
    if (this.session) tags.$session_id = this.session.id;
    const event = { event: name, channel: options.channel || 'events', anonymous_id: this.anonymousId,
                    timestamp: this.env.now(), tags };
    const userId = options.userId || this.userId;
    if (userId) event.user_id = userId;
    for (const key of ['icon', 'notify', 'description']) if (options[key] !== undefined) event[key] = options[key];
    return event;
  }

  // ---- public API
  track(name, options = {}) {
    if (this.disabled || !name) return Promise.resolve();
    this.touch();
    const started = this.timers[name];
    const tags = { ...options.tags };
    if (started !== undefined) {
      tags.$duration = Math.round(this.env.now() - started);
      delete this.timers[name];
    }
    return this.send(this.event(name, { ...options, tags }));
  }
  page(tags) { return this.track('screen_view', { channel: 'pageviews', tags }); }
  time(name) { this.timers[name] = this.env.now(); }
  register(properties) { Object.assign(this.superProperties, properties); }
  unregister(name) { delete this.superProperties[name]; }
  identify(userId, traits) {
    if (this.disabled || !userId) return Promise.resolve();
    this.userId = String(userId);
    try { this.storage.setItem(this.keys.user, this.userId); } catch { /* blocked */ }
    return this.post('/sdk/v1/identify', { anonymous_id: this.anonymousId, user_id: this.userId,
                                           ...(traits ? { traits } : {}) })
      .catch((error) => this.fail(error));
  }
  reset() {
    this.anonymousId = this.rotate();
    this.userId = null;
    this.superProperties = {};
    this.timers = {};
    this.session = null;
    try { this.storage.removeItem(this.keys.user); this.storage.removeItem(this.keys.session); } catch { /* blocked */ }
  }

  // ---- transport
  post(path, body, keepalive = false) {
    const controller = typeof AbortController === 'function' ? new AbortController() : null;
    const timer = this.env.setTimeout(() => controller?.abort(), TIMEOUT);
    return this.env.fetch(this.config.baseUrl.replace(/\/$/, '') + path, {
      method: 'POST', keepalive, signal: controller?.signal,
      headers: { 'Content-Type': 'application/json', 'x-sdk-key': this.config.sdkKey },
      body: JSON.stringify(body),
    }).then(async (response) => {
      if (response.ok) return response;
      let message = `HTTP ${response.status}`;
      try { message = (await response.json()).error.message || message; } catch { /* not JSON */ }
      throw errorFor(response.status, message);
    }, (error) => {
      throw error && error.name === 'AbortError' ? new TimeoutError(`no answer in ${TIMEOUT / 1000} s`)
                                                 : new NetworkError(String(error && error.message));
    }).finally(() => this.env.clearTimeout(timer));
  }

  // Sends one event; with the offline queue on, what cannot be delivered now waits.
  send(event) {
    const { offline } = this.config;
    if (offline.enabled && (this.queue.length || this.env.navigator?.onLine === false)) {
      this.enqueue([event]);
      return Promise.resolve();
    }
    return this.post('/sdk/v1/logs', event).then(() => undefined, (error) => {
      if (offline.enabled && retriable(error)) this.enqueue([event]);
      else this.fail(error);
    });
  }
  fail(error) { this.log('error', error.name, error.message); }

  enqueue(events) {
    const { maxQueueSize } = this.config.offline;
    this.queue.push(...events.map((event) => ({ event, tries: 0 })));
    if (this.queue.length > maxQueueSize) this.queue.splice(0, this.queue.length - maxQueueSize);
    this.write(this.keys.queue, this.queue);
  }

  // Sends the queue in batches; an event leaves the queue only once the server took it.
  flush(keepalive = false) {
    const { flushBatchSize, maxRetries, retryBaseDelay } = this.config.offline;
    if (this.flushing || !this.queue.length || this.env.navigator?.onLine === false) return Promise.resolve();
    this.flushing = true;
    const batch = this.queue.slice(0, flushBatchSize);
    return this.post('/sdk/v1/logs/batch', { events: batch.map((item) => item.event) }, keepalive)
      .then(() => {
        this.queue.splice(0, batch.length);
        this.write(this.keys.queue, this.queue);
        this.flushing = false;
        if (this.queue.length && !keepalive) return this.flush();
        return undefined;
      }, (error) => {
        this.flushing = false;
        if (!retriable(error)) {  // the server refused them: sending again cannot help
          this.queue.splice(0, batch.length);
          this.write(this.keys.queue, this.queue);
          return this.fail(error);
        }
        const tries = ++batch[0].tries;
        if (tries > maxRetries) {
          this.queue.splice(0, batch.length);
          this.write(this.keys.queue, this.queue);
          return this.fail(error);
        }
        this.write(this.keys.queue, this.queue);
        this.env.setTimeout(() => this.flush(), retryBaseDelay * 2 ** (tries - 1));
        return undefined;
      });
  }
}

function retriable(error) {
  return error instanceof NetworkError || error instanceof TimeoutError ||
         (error instanceof ApiError && error.status >= 500);
}

function privacySignal(navigator) {
  return !!navigator && (navigator.doNotTrack === '1' || navigator.globalPrivacyControl === true);
}

// ---- automatic tracking in a page
export function autoTrack(sdk) {
  const { window, document } = sdk.env;
  if (!window || !document || sdk.disabled) return;
  const options = sdk.config.analytics;
  let path = window.location.href;
  let marks = new Set();
  const seen = new WeakSet();
  const pageView = () => { marks = new Set(); if (options.autoTrackPageViews) sdk.page(); };
  pageView();
  const navigated = () => {
    if (window.location.href === path) return;
    path = window.location.href;
    pageView();
  };
  for (const method of ['pushState', 'replaceState']) {
    const original = window.history[method];
    window.history[method] = function (...args) {
      const result = original.apply(this, args);
      navigated();
      return result;
    };
  }
  window.addEventListener('popstate', navigated);
  window.addEventListener('hashchange', navigated);
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && options.trackBfcacheRestore) pageView();
  });

  document.addEventListener('click', (event) => {
    const target = event.target instanceof window.Element ? event.target : null;
    const link = target?.closest('a[href]');
    if (link && options.autoTrackOutboundLinks && link.host && link.host !== window.location.host) {
      sdk.track('outbound_link', { channel: 'links', tags: { href: link.href } });
    }
    const declared = target?.closest('[data-kb-track-click]');
    const element = declared || (options.autoTrackClicks &&
                                 target?.closest('a,button,input[type=submit],input[type=button],[role=button]'));
    if (!element) return;
    const tags = { element: element.tagName.toLowerCase(),
                   text: (element.textContent || element.value || '').trim().slice(0, 100) };
    if (element.id) tags.element_id = element.id;
    if (declared && declared.dataset.kbTrackClick) tags.name = declared.dataset.kbTrackClick;
    sdk.track('click', { channel: declared?.dataset.kbClickChannel || 'clicks', tags });
  }, true);

  if (options.autoTrackScrollDepth) {
    let pending = false;
    const measure = () => {
      pending = false;
      const root = document.documentElement;
      const scrollable = root.scrollHeight - window.innerHeight;
      const depth = scrollable <= 0 ? 100 : Math.min(100, ((window.scrollY + 0) / scrollable) * 100);
      for (const mark of SCROLL_MARKS) {
        if (depth >= mark && !marks.has(mark)) {
          marks.add(mark);
          sdk.track('scroll_depth', { channel: 'engagement', tags: { depth: mark } });
        }
      }
    };
    window.addEventListener('scroll', () => {
      if (!pending) { pending = true; window.requestAnimationFrame(measure); }
    }, { passive: true });
  }

  if (options.autoTrackVisibility && typeof window.IntersectionObserver === 'function') {
    const observers = new Map();
    const watch = (element) => {
      if (seen.has(element)) return;
      seen.add(element);
      const threshold = Math.min(1, Math.max(0, Number(element.dataset.kbVisibilityThreshold) || 0.5));
      let observer = observers.get(threshold);
      if (!observer) {
        observer = new window.IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting || entry.intersectionRatio < threshold) continue;
            observer.unobserve(entry.target);
            sdk.track('element_visible', {
              channel: entry.target.dataset.kbVisibilityChannel || 'visibility',
              tags: { name: entry.target.dataset.kbTrackVisibility || entry.target.id || '',
                      threshold } });
          }
        }, { threshold });
        observers.set(threshold, observer);
      }
      observer.observe(element);
    };
    const scan = () => document.querySelectorAll('[data-kb-track-visibility]').forEach(watch);
    scan();
    new window.MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
  }

  if (sdk.config.offline.enabled) {
    sdk.env.setInterval(() => sdk.flush(), sdk.config.offline.flushInterval);
    window.addEventListener('online', () => sdk.flush());
    window.addEventListener('pagehide', () => sdk.flush(true));
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') sdk.flush(true);
    });
    sdk.flush();
  }
}

// The environment of a browser page.
export function browserEnv(window) {
  let storage;
  try { storage = window.localStorage; } catch { storage = undefined; }
  return {
    window, document: window.document, navigator: window.navigator, console: window.console,
    storage, fetch: window.fetch.bind(window), now: () => Date.now(),
    random: (n) => window.crypto.getRandomValues(new Uint8Array(n)),
    setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window),
    setInterval: window.setInterval.bind(window),
  };
}

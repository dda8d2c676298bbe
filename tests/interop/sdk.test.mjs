// The tracking script in headless Chromium (Debian's, driven by playwright-core) on pages served
// from another origin than the server, against the real server. Run by sdk_interop.sh with
// SIGHTLINE_URL, SIGHTLINE_SDK_KEY, SIGHTLINE_KEY, SIGHTLINE_ORG and SIGHTLINE_PROJECT.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';

const base = process.env.SIGHTLINE_URL;
const sdkKey = process.env.SIGHTLINE_SDK_KEY;

let browser;
let site;
let siteUrl;
const pages = new Map();  // path → html

before(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  site = createServer((req, res) => {
    if (req.url === '/stall') return;  // never answered: the SDK's 30-second timeout
    const html = pages.get(new URL(req.url, 'http://x').pathname.split('/').slice(0, 2).join('/'));
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html' }).end(html || 'not found');
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${site.address().port}`;
});

after(async () => {
  await browser?.close();
  site?.close();
});

let pageCount = 0;
// A page at a fresh path of the site with the script tag; the events it sends are collected.
async function open(body, { config = {}, script = `${base}/sdk/v1/script.js`, integrity, clock,
                            context: given } = {}) {
  const path = `/p${++pageCount}`;
  const settings = JSON.stringify({ sdkKey, baseUrl: base, ...config });
  const attributes = integrity ? ` integrity="${integrity}" crossorigin="anonymous"` : '';
  pages.set(path, `<!doctype html><html><head><title>Test</title></head><body>${body}
<script>window.SightlineConfig = ${settings};</script>
<script src="${script}"${attributes}></script></body></html>`);
  const context = given || await browser.newContext();
  const page = await context.newPage();
  const sent = [];
  page.on('request', (request) => {
    const url = request.url();
    if (request.method() !== 'POST') return;
    if (url.endsWith('/sdk/v1/logs')) sent.push(JSON.parse(request.postData()));
    if (url.endsWith('/sdk/v1/logs/batch')) {
      for (const event of JSON.parse(request.postData()).events) sent.push({ ...event, batched: true });
    }
  });
  if (clock) await page.clock.install({ time: clock });
  await page.goto(`${siteUrl}${path}`);
  await page.waitForFunction(() => window.sightline);
  return { page, sent, context, url: `${siteUrl}${path}` };
}

async function until(sent, predicate, what) {
  for (let i = 0; i < 100; i += 1) {
    const found = sent.filter(predicate);
    if (found.length) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`no ${what} event among: ${sent.map((e) => e.event).join(', ')}`);
}
const named = (name) => (event) => event.event === name;

test('the script is served with caching, a versioned URL and its integrity', async () => {
  const response = await fetch(`${base}/sdk/v1/script.js`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type'), /javascript/);
  assert.match(response.headers.get('cache-control'), /max-age=3600/);
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
  const versioned = response.headers.get('x-script-versioned-url');
  const integrity = response.headers.get('x-script-integrity');
  // A path on the server (the API is under /api), so a page can use it as it is.
  assert.match(versioned, /^\/api\/sdk\/v1\/sightline-[0-9a-f]{12}\.js$/);
  const pinnedUrl = new URL(versioned, base).href;
  const pinned = await fetch(pinnedUrl);
  assert.match(pinned.headers.get('cache-control'), /immutable/);
  assert.equal((await fetch(`${base}/sdk/v1/sightline-000000000000.js`)).status, 404);
  const size = (await response.arrayBuffer()).byteLength;
  assert.ok(size < 12000, `${size} bytes`);
  // A page pinning the versioned URL with Subresource Integrity loads it.
  const { page, sent } = await open('', { script: pinnedUrl, integrity });
  await until(sent, named('screen_view'), 'screen_view');
  await page.context().close();
});

test('a page load starts a session and counts a page view, stored by the server', async () => {
  // No baseUrl: the events go where the script came from.
  const { page, sent, url } = await open('<h1>Hello</h1>', { config: { baseUrl: undefined } });
  const [start] = await until(sent, named('session_start'), 'session_start');
  const [view] = await until(sent, named('screen_view'), 'screen_view');
  assert.equal(view.tags.$url, url);
  assert.equal(view.tags.$session_id, start.tags.$session_id);
  assert.match(view.anonymous_id, /^[0-9a-f-]{36}$/);
  // The page saw its request go out, not the server's answer: the event is stored once the
  // server's group commit answers, so the feed is asked until it shows it (at most 10 s).
  const storedView = async () => {
    const stored = await fetch(
      `${base}/${process.env.SIGHTLINE_ORG}/projects/${process.env.SIGHTLINE_PROJECT}/events?limit=50`,
      { headers: { Authorization: `Bearer ${process.env.SIGHTLINE_KEY}` } });
    const { events } = await stored.json();
    return events.some((e) => e.event === 'screen_view' && JSON.stringify(e).includes(url));
  };
  let found = await storedView();
  for (const deadline = Date.now() + 10_000; !found && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    found = await storedView();
  }
  assert.ok(found, 'the server stored the page view');
  await page.context().close();
});

test('single-page navigation counts page views', async () => {
  const { page, sent } = await open('<a id="next" href="#">next</a>');
  await until(sent, named('screen_view'), 'first screen_view');
  await page.evaluate(() => history.pushState({}, '', location.pathname + '/next'));
  await page.evaluate(() => history.replaceState({}, '', location.pathname + '?tab=2'));
  await page.evaluate(() => history.back());
  await until(sent, () => sent.filter(named('screen_view')).length >= 4, 'four screen_views');
  const urls = sent.filter(named('screen_view')).map((e) => new URL(e.tags.$url));
  assert.ok(urls[1].pathname.endsWith('/next'), urls.join(' '));
  assert.equal(urls[2].search, '?tab=2');
  assert.ok(!urls[3].pathname.endsWith('/next'), 'back where it started');
  await page.context().close();
});

test('a back/forward-cache restore counts a page view', async () => {
  // Playwright turns the back/forward cache off by default; this browser keeps it.
  const cached = await chromium.launch({
    executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'],
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
  const { page, sent, url } = await open('', { context: await cached.newContext() });
  await until(sent, named('screen_view'), 'first screen_view');
  await page.evaluate(() => window.addEventListener('pageshow', (e) => { window.restored = e.persisted; }));
  pages.set('/away', '<!doctype html><p>away</p>');
  await page.goto(`${siteUrl}/away`);
  await page.goBack({ waitUntil: 'commit' });
  await page.waitForFunction(() => window.restored === true);  // the same page, from the cache
  await until(sent, () => sent.filter(named('screen_view')).length >= 2, 'restored screen_view');
  assert.equal(sent.filter(named('screen_view')).at(-1).tags.$url, url);
  await cached.close();
});

test('outbound links, clicks and declarative click tracking', async () => {
  const { page, sent } = await open(`
    <a id="out" href="https://elsewhere.example/docs">docs</a>
    <button id="buy">Buy now</button>
    <div data-kb-track-click="hero-cta" data-kb-click-channel="marketing"><span id="inner">Start</span></div>
    <script>document.addEventListener('click', (e) => e.preventDefault());</script>`);
  await until(sent, named('screen_view'), 'screen_view');
  await page.click('#out');
  await page.click('#buy');
  await page.click('#inner');
  const [outbound] = await until(sent, named('outbound_link'), 'outbound_link');
  assert.equal(outbound.tags.href, 'https://elsewhere.example/docs');
  const clicks = await until(sent, (e) => e.event === 'click' && e.channel === 'marketing', 'declarative click');
  assert.equal(clicks[0].tags.name, 'hero-cta');
  const buy = sent.find((e) => e.event === 'click' && e.tags.element_id === 'buy');
  assert.equal(buy.tags.text, 'Buy now');
  await page.context().close();
});

test('scroll depth marks and element visibility thresholds', async () => {
  const { page, sent } = await open(`
    <div style="height: 3000px">top</div>
    <div id="pricing" data-kb-track-visibility="pricing" data-kb-visibility-threshold="0.9"
         data-kb-visibility-channel="sections" style="height: 400px">pricing</div>
    <div style="height: 1000px">bottom</div>`);
  await until(sent, named('screen_view'), 'screen_view');
  assert.equal(sent.filter(named('element_visible')).length, 0, 'not yet seen');
  await page.evaluate(() => window.scrollTo(0, 2400));  // pricing only a quarter in view
  await page.waitForTimeout(300);
  assert.equal(sent.filter(named('element_visible')).length, 0, 'below its 0.9 threshold');
  await page.evaluate(() => document.getElementById('pricing').scrollIntoView());
  const [visible] = await until(sent, named('element_visible'), 'element_visible');
  assert.equal(visible.channel, 'sections');
  assert.equal(visible.tags.name, 'pricing');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await until(sent, (e) => e.event === 'scroll_depth' && e.tags.depth === 100, 'scroll_depth 100');
  const depths = sent.filter(named('scroll_depth')).map((e) => e.tags.depth);
  assert.deepEqual([...new Set(depths)].sort((a, b) => a - b), [25, 50, 75, 100]);
  assert.equal(depths.length, 4, 'each mark once per page view');
  await page.context().close();
});

test('identify, super properties and timed events', async () => {
  const { page, sent } = await open('');
  const identified = page.waitForRequest((r) => r.url().endsWith('/sdk/v1/identify'));
  await page.evaluate(async () => {
    await window.sightline.identify('user-7', { plan: 'pro' });
    window.sightline.register({ experiment: 'b' });
    window.sightline.time('checkout');
    await new Promise((resolve) => setTimeout(resolve, 120));
    await window.sightline.track('checkout', { channel: 'payments', tags: { amount: 42 } });
  });
  const identify = JSON.parse((await identified).postData());
  assert.equal(identify.user_id, 'user-7');
  const [checkout] = await until(sent, named('checkout'), 'checkout');
  assert.equal(checkout.user_id, 'user-7');
  assert.equal(checkout.tags.experiment, 'b');
  assert.equal(checkout.tags.amount, 42);
  assert.ok(checkout.tags.$duration >= 100, String(checkout.tags.$duration));
  await page.context().close();
});

test('the anonymous id persists in local storage, or is new on each load with storage null', async () => {
  const context = await browser.newContext();
  const first = await open('', { context });
  const second = await open('', { context });
  const id = (x) => x.page.evaluate(() => window.sightline.anonymousId);
  assert.equal(await id(first), await id(second));
  assert.equal(await first.page.evaluate(() => localStorage.getItem('service_anonymous_id')), await id(first));
  const a = await open('', { context, config: { storage: null } });
  const b = await open('', { context, config: { storage: null } });
  assert.notEqual(await id(a), await id(b));
  await context.close();
});

test('a session rolls over after 30 minutes of inactivity', async () => {
  const { page, sent } = await open('', { clock: new Date('2026-11-20T10:00:00Z') });
  const [start] = await until(sent, named('session_start'), 'session_start');
  await page.clock.fastForward('29:00');
  await page.evaluate(() => window.sightline.track('still_here'));
  await page.clock.fastForward('31:00');
  await page.evaluate(() => window.sightline.track('back_again'));
  const starts = await until(sent, (e) => e.event === 'session_start' && e !== start, 'second session_start');
  const [still] = sent.filter(named('still_here'));
  const [back] = sent.filter(named('back_again'));
  assert.equal(still.tags.$session_id, start.tags.$session_id);
  assert.equal(back.tags.$session_id, starts[0].tags.$session_id);
  assert.notEqual(back.tags.$session_id, start.tags.$session_id);
  await page.context().close();
});

test('offline, events wait and are sent once, in a batch, when the connection returns', async () => {
  const { page, sent, context } = await open('', { config: { offline: { enabled: true } } });
  await until(sent, named('screen_view'), 'screen_view');
  await context.setOffline(true);
  await page.evaluate(() => window.sightline.track('while_offline'));
  await page.evaluate(() => window.sightline.track('still_offline'));
  assert.equal(sent.filter(named('while_offline')).length, 0);
  assert.equal(await page.evaluate(() => window.sightline.queue.length), 2);
  await context.setOffline(false);
  await until(sent, (e) => e.event === 'still_offline' && e.batched, 'batched still_offline');
  await page.waitForTimeout(300);
  assert.equal(sent.filter(named('while_offline')).length, 1, 'never duplicated');
  assert.equal(await page.evaluate(() => window.sightline.queue.length), 0);
  await context.close();
});

test('events the server refuses with 503 are queued and sent later', async () => {
  const { page, sent, context } = await open('', { config: { offline: { enabled: true, retryBaseDelay: 200 } } });
  await until(sent, named('screen_view'), 'screen_view');
  await page.route(`${base}/sdk/v1/**`, (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', headers: { 'Access-Control-Allow-Origin': '*' },
                    body: '{"error":{"code":"SYS_002","message":"busy"}}' }));
  await page.evaluate(() => window.sightline.track('during_outage'));
  await page.evaluate(() => window.sightline.flush());  // refused again: kept, retried later
  assert.equal(await page.evaluate(() => window.sightline.queue.length), 1);
  await page.unroute(`${base}/sdk/v1/**`);
  await until(sent, (e) => e.event === 'during_outage' && e.batched, 'batched during_outage');
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.sightline.queue.length), 0);
  await context.close();
});

test('each failure surfaces as its error class, and the page keeps working', async () => {
  const { page, context } = await open('', { clock: new Date('2026-11-20T10:00:00Z') });
  const names = {};
  for (const status of [401, 400, 422, 404, 500]) {
    await page.route(`${base}/sdk/v1/logs`, (route) =>
      route.fulfill({ status, contentType: 'application/json', headers: { 'Access-Control-Allow-Origin': '*' },
                      body: '{"error":{"code":"X","message":"scripted"}}' }));
    names[status] = await page.evaluate(() => window.sightline.post('/sdk/v1/logs', { event: 'x', channel: 'y' })
      .then(() => 'ok', (error) => error.name));
    await page.unroute(`${base}/sdk/v1/logs`);
  }
  assert.deepEqual(names, { 401: 'AuthenticationError', 400: 'ValidationError', 422: 'ValidationError',
                            404: 'ApiError', 500: 'ApiError' });
  // No answer within 30 s (the page's own server never answers /stall): a timeout.
  const pending = page.evaluate((stall) => {
    window.sightline.config.baseUrl = stall;
    return window.sightline.post('/stall', {}).then(() => 'ok', (error) => error.name);
  }, siteUrl);
  await page.waitForTimeout(100);
  await page.clock.fastForward('00:31');
  assert.equal(await pending, 'TimeoutError');
  // track() itself never throws.
  await page.evaluate((server) => { window.sightline.config.baseUrl = server; }, base);
  assert.equal(await page.evaluate(() => window.sightline.track('fine').then(() => 'resolved')), 'resolved');
  await context.close();
});

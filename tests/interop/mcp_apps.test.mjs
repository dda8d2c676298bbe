// The MCP Apps view (ui://sightline/reports-….html) in a real MCP Apps host: a page built with
// @modelcontextprotocol/ext-apps's AppBridge reads the resource through the server's MCP
// endpoint (resources/list + resources/read with the bootstrap private API key), renders it in
// a sandboxed iframe (srcdoc, sandbox="allow-scripts"), hands it a real tools/call result of
// get_web_analytics, and forwards the tools/call the view makes when its period changes to the
// server. Run: node --test tests/interop/mcp_apps.test.mjs (Chromium at /usr/bin/chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { start, screenshot } from './dashboard/harness.mjs';

const here = dirname(new URL(import.meta.url).pathname);
let context;
let mcp;

/** A minimal legacy-era MCP client over POST /api/mcp (initialize first, then the session id). */
async function mcpSession(base, key) {
  let sessionId = null;
  let id = 0;
  const send = async (method, params, { notification = false } = {}) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` };
    if (sessionId) { headers['mcp-session-id'] = sessionId; headers['mcp-protocol-version'] = '2025-06-18'; }
    const body = notification ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id: ++id, method, params };
    const response = await fetch(`${base}/api/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (notification) return null;
    sessionId ??= response.headers.get('mcp-session-id');
    const text = await response.text();
    const json = JSON.parse(text.startsWith('{') ? text : text.split('\n').find((line) => line.startsWith('data:')).slice(5));
    if (json.error) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
    return json.result;
  };
  await send('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-apps-test-host', version: '1.0.0' } });
  await send('notifications/initialized', {}, { notification: true });
  return { send };
}

/** AppBridge + PostMessageTransport bundled for the browser (esbuild from web/dashboard). */
async function bridgeBundle() {
  const { build } = await import(join(here, '../../web/dashboard/node_modules/esbuild/lib/main.js'));
  const result = await build({
    stdin: { contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';", resolveDir: here, loader: 'js' },
    bundle: true, format: 'iife', globalName: 'HostLib', write: false, platform: 'browser', target: ['es2020'], logLevel: 'error',
  });
  return result.outputFiles[0].text;
}

async function seed() {
  const now = Date.now();
  const events = [];
  for (let day = 0; day < 14; day += 1) {
    for (let visitor = 0; visitor <= day % 4; visitor += 1) {
      const anonymous = randomUUID();
      events.push({ event: 'screen_view', channel: 'web', anonymous_id: anonymous, timestamp: now - day * 86_400_000 - visitor * 60_000 - 60_000,
        tags: { $url: `https://shop.example/${visitor ? 'pricing' : ''}` } });
    }
  }
  const response = await context.api('POST', '/sdk/v1/logs/batch', { body: { events }, headers: { 'x-sdk-key': context.boot.sdkKey } });
  assert.equal(response.status, 202, JSON.stringify(response.body));
}

before(async () => {
  context = await start({ name: 'mcp-apps' });
  mcp = await mcpSession(context.base, context.boot.privateApiKey);
  await seed();
});
after(async () => { await context?.stop(); });

test('the reports view renders a get_web_analytics result in an AppBridge host and calls the tool again for another period', async () => {
  const listed = await mcp.send('resources/list', {});
  const resource = listed.resources.find((item) => /^ui:\/\/sightline\/reports-[0-9a-f]{12}\.html$/.test(item.uri));
  assert.ok(resource, `no reports view in ${JSON.stringify(listed.resources)}`);
  const tools = await mcp.send('tools/list', {});
  const tool = tools.tools.find((item) => item.name === 'get_web_analytics');
  assert.equal(tool._meta?.ui?.resourceUri, resource.uri);
  const read = await mcp.send('resources/read', { uri: resource.uri });
  const view = read.contents[0];
  assert.equal(view.mimeType, 'text/html;profile=mcp-app');
  assert.match(view.text, /<script>/);

  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 13 * 86_400_000).toISOString().slice(0, 10);
  const first = await mcp.send('tools/call', { name: 'get_web_analytics', arguments: { from, to: today } });
  assert.ok(first.structuredContent?.metrics, JSON.stringify(first).slice(0, 300));

  const page = await context.newPage();
  const forwarded = [];
  await page.exposeFunction('forwardToolCall', async (params) => {
    forwarded.push(params);
    return mcp.send('tools/call', params);
  });
  const bridgeJs = (await bridgeBundle()).replace(/<\/script/gi, '<\\/script');
  const hostHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title></head><body>
<h1>Test MCP Apps host</h1><div id="frame"></div>
<script>${bridgeJs}</script>
<script>
window.startView = async (html) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = 'Sightline report';
  iframe.style.width = '900px';
  iframe.style.height = '700px';
  document.getElementById('frame').append(iframe);
  const bridge = new HostLib.AppBridge(null, { name: 'test-host', version: '1.0.0' }, { serverTools: {} }, { hostContext: { theme: 'light' } });
  bridge.oncalltool = async (params) => window.forwardToolCall({ name: params.name, arguments: params.arguments });
  bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = Math.min(Math.max(height, 200), 2000) + 'px'; };
  window.viewReady = new Promise((done) => { bridge.oninitialized = done; });
  await bridge.connect(new HostLib.PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  window.bridge = bridge;
  iframe.srcdoc = html;
};
</script></body></html>`;
  await page.route('http://host.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: hostHtml }));
  await page.goto('http://host.test/');
  await page.evaluate((html) => window.startView(html), view.text);
  await page.evaluate(() => window.viewReady);
  await page.evaluate(async ({ args, result }) => {
    await window.bridge.sendToolInput({ arguments: args });
    await window.bridge.sendToolResult(result);
  }, { args: { from, to: today }, result: first });

  const frame = page.frameLocator('iframe[title="Sightline report"]');
  const visitors = frame.locator('[data-metric="visitors"]');
  await visitors.waitFor();
  const number = (value) => new Intl.NumberFormat('en-US').format(value);
  assert.equal(await visitors.textContent(), number(first.structuredContent.metrics.visitors.value));
  assert.equal(await frame.locator('[data-metric="pageviews"]').textContent(), number(first.structuredContent.metrics.pageviews.value));
  assert.equal(await frame.locator('[data-previous="visitors"]').textContent(), number(first.structuredContent.metrics.visitors.previous));
  await screenshot(page, 'mcp-app-web-analytics');

  // The view's period selector: the host receives a tools/call and forwards it to the server.
  await frame.getByLabel('Period').selectOption({ label: 'Last 7 days' });
  await frame.locator('[data-metric="visitors"]').filter({ hasNotText: number(first.structuredContent.metrics.visitors.value) }).waitFor({ timeout: 10_000 }).catch(() => {});
  assert.equal(forwarded.length, 1);
  assert.equal(forwarded[0].name, 'get_web_analytics');
  const weekFrom = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
  assert.deepEqual({ from: forwarded[0].arguments.from, to: forwarded[0].arguments.to }, { from: weekFrom, to: today });
  const second = await mcp.send('tools/call', { name: 'get_web_analytics', arguments: { from: weekFrom, to: today } });
  await page.waitForFunction(() => true);
  await frame.locator('.mcp-range').filter({ hasText: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${weekFrom}T12:00:00Z`)) }).waitFor();
  assert.equal(await frame.locator('[data-metric="visitors"]').textContent(), number(second.structuredContent.metrics.visitors.value));
  await screenshot(page, 'mcp-app-web-analytics-7d');
  assert.deepEqual(page.problems, []);
});

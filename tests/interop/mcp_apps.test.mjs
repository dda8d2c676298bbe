// The MCP Apps view (ui://sightline/reports-….html) in a real MCP Apps host: a page built with
// @modelcontextprotocol/ext-apps's AppBridge reads the resource through the server's MCP
// endpoint (resources/list + resources/read with the bootstrap private API key), renders it in
// a sandboxed iframe (srcdoc, sandbox="allow-scripts"), hands it a real tools/call result of
// get_web_analytics, and forwards the tools/call the view makes when its period changes to the
// server. The AI-visibility kinds (get_ai_visibility, get_ai_visibility_loop) are drawn from
// real results of a run against tests/interop/scripted_engine_server.mjs; a `query` result is
// drawn as a table of its rows.
// Run: node --test tests/interop/mcp_apps.test.mjs (Chromium at /usr/bin/chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { start, screenshot } from './dashboard/harness.mjs';
import { mcpSession, openHost } from './dashboard/mcp_app_host.mjs';

const here = dirname(new URL(import.meta.url).pathname);
let context;
let mcp;
let engine;

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
  context = await start({ name: 'mcp-apps', serveArgs: ['--ai-engines-private-urls', '--ai-visibility-interval', '1'] });
  mcp = await mcpSession(context.base, context.boot.privateApiKey);
  await seed();
});
after(async () => {
  await context?.stop();
  if (engine && engine.exitCode === null) {
    engine.kill('SIGTERM');
    await new Promise((done) => { engine.once('exit', done); setTimeout(done, 3000); });
  }
});

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

  const { page, forwarded } = await openHost(context, mcp, view.text);
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

/** Brands, prompts and a scripted engine over REST, then one run to completion. */
async function seedAiVisibility() {
  engine = spawn(process.execPath, [join(here, 'scripted_engine_server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const { port } = JSON.parse(await new Promise((done) => createInterface({ input: engine.stdout }).once('line', done)));
  await fetch(`http://127.0.0.1:${port}/__script`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: {
    'best analytics tool': [{ text: 'Acme Analytics is best, then Plausible.', citations: [{ url: 'https://acme.example/docs', title: 'Docs' }] },
      { text: 'Plausible.' }],
  } }) });
  const token = (await context.api('POST', '/auth/login', { body: context.owner })).body.accessToken;
  const base = `/${context.orgSlug}/projects/${context.projectId}/ai-visibility`;
  const post = async (path, body, status = 201) => {
    const response = await context.api('POST', `${base}/${path}`, { token, body });
    assert.equal(response.status, status, JSON.stringify(response.body));
    return response.body;
  };
  await post('brands', { name: 'Acme Analytics', domains: ['acme.example'], own: true });
  await post('brands', { name: 'Plausible' });
  await post('prompts', { text: 'best analytics tool', topic: 'tools' });
  await post('engines', { provider: 'openai', model: 'scripted', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-scripted' });
  const run = await post('runs', { repetitions: 2 }, 202);
  for (let i = 0; i < 100; i += 1) {
    const current = await context.api('GET', `${base}/runs/${run.id}`, { token });
    if (current.body.status === 'completed') return;
    assert.ok(['queued', 'running'].includes(current.body.status), JSON.stringify(current.body));
    await new Promise((done) => setTimeout(done, 200));
  }
  assert.fail('the run did not complete');
}

test('the reports view draws a query result as a table of its rows', async () => {
  const listed = await mcp.send('resources/list', {});
  const resource = listed.resources.find((item) => /^ui:\/\/sightline\/reports-[0-9a-f]{12}\.html$/.test(item.uri));
  const tools = await mcp.send('tools/list', {});
  assert.equal(tools.tools.find((item) => item.name === 'query')?._meta?.ui?.resourceUri, resource.uri);
  const view = (await mcp.send('resources/read', { uri: resource.uri })).contents[0];
  const args = { metrics: ['visitors', 'pageviews', 'bounce_rate'], dimensions: ['event:page'], date_range: '28d' };
  const result = await mcp.send('tools/call', { name: 'query', arguments: args });
  const rows = result.structuredContent?.results;
  // The seed: every day one visitor on /, and on some days others on /pricing.
  assert.deepEqual(rows.map((row) => row.dimensions[0]).sort(), ['/', '/pricing'], JSON.stringify(result).slice(0, 300));
  const { page } = await openHost(context, mcp, view.text);
  await page.evaluate(async (call) => {
    await window.bridge.sendToolInput({ arguments: call.args });
    await window.bridge.sendToolResult(call.result);
  }, { args, result });
  const frame = page.frameLocator('iframe[title="Sightline report"]');
  await frame.locator('table[data-query]').waitFor();
  for (const [index, row] of rows.entries()) {
    await frame.getByRole('rowheader', { name: row.dimensions[0], exact: true }).waitFor();
    assert.equal(await frame.locator(`[data-cell="${index}:visitors"]`).textContent(),
      new Intl.NumberFormat('en-US').format(row.metrics[0]));
  }
  assert.equal(await frame.getByLabel('Period').count(), 0, 'a query keeps its own date range');
  await screenshot(page, 'mcp-app-query');
  assert.deepEqual(page.problems, []);
});

test('the reports view draws get_ai_visibility (intervals, share of voice) and get_ai_visibility_loop results', async () => {
  await seedAiVisibility();
  const listed = await mcp.send('resources/list', {});
  const resource = listed.resources.find((item) => /^ui:\/\/sightline\/reports-[0-9a-f]{12}\.html$/.test(item.uri));
  const tools = await mcp.send('tools/list', {});
  for (const name of ['get_ai_visibility', 'get_ai_visibility_loop']) {
    assert.equal(tools.tools.find((item) => item.name === name)?._meta?.ui?.resourceUri, resource.uri, name);
  }
  const view = (await mcp.send('resources/read', { uri: resource.uri })).contents[0];
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
  const percent = (value) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(value);

  const visibility = await mcp.send('tools/call', { name: 'get_ai_visibility', arguments: { from, to: today } });
  const report = visibility.structuredContent;
  assert.ok(Array.isArray(report?.brands) && report.answers, JSON.stringify(visibility).slice(0, 300));
  assert.equal(report.answers.answers, 2);
  const { page, forwarded } = await openHost(context, mcp, view.text);
  await page.evaluate(async (result) => {
    await window.bridge.sendToolInput({ arguments: result.args });
    await window.bridge.sendToolResult(result.result);
  }, { args: { from, to: today }, result: visibility });
  const frame = page.frameLocator('iframe[title="Sightline report"]');
  await frame.locator('[data-metric="citationRate"]').waitFor();
  assert.equal(await frame.locator('[data-metric="citationRate"]').textContent(), percent(report.answers.citationRate));
  for (const brand of report.brands) {
    assert.equal(await frame.locator(`[data-rate="${brand.brandId}"]`).textContent(), percent(brand.visibility), brand.name);
    assert.equal(await frame.locator(`[data-interval="${brand.brandId}"]`).textContent(),
      `${percent(brand.interval.low)} – ${percent(brand.interval.high)}`, brand.name);
    assert.equal(await frame.locator(`[data-sov="${brand.brandId}"]`).textContent(), percent(brand.shareOfVoice), brand.name);
  }
  await screenshot(page, 'mcp-app-ai-visibility');

  // A change is flagged only when the server says it is beyond the noise: the same result with
  // a significant change for one brand and one within noise for the other.
  const [flagged, noisy] = report.brands;
  const changed = structuredClone(visibility);
  changed.structuredContent.brands[0].change = { difference: 0.3, interval: { low: 0.05, high: 0.55 }, significant: true };
  changed.structuredContent.brands[1].change = { difference: -0.2, interval: { low: -0.5, high: 0.1 }, significant: false };
  await page.evaluate(async (result) => { await window.bridge.sendToolResult(result); }, changed);
  const significant = frame.locator(`[data-change="${flagged.brandId}"]`);
  await significant.waitFor();
  assert.equal(await significant.getAttribute('data-significant'), 'true');
  assert.match(await significant.textContent(), /\+30 pp.*significant/);
  const withinNoise = frame.locator(`[data-change="${noisy.brandId}"]`);
  assert.equal(await withinNoise.getAttribute('data-significant'), 'false');
  assert.match(await withinNoise.textContent(), /-20 pp.*within noise/);
  assert.doesNotMatch(await withinNoise.textContent(), /significant/);
  await page.evaluate(async (result) => { await window.bridge.sendToolResult(result); }, visibility);

  // Another period calls get_ai_visibility again through the host.
  await frame.getByLabel('Period').selectOption({ label: 'Last 30 days' });
  await frame.locator('.mcp-range').filter({ hasText: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })
    .format(new Date(Date.now() - 29 * 86_400_000)) }).waitFor();
  assert.equal(forwarded.at(-1).name, 'get_ai_visibility');

  const loop = await mcp.send('tools/call', { name: 'get_ai_visibility_loop', arguments: { from, to: today } });
  const pages = loop.structuredContent?.pages;
  assert.deepEqual(pages.map((item) => item.path), ['/docs']);
  await page.evaluate(async (result) => { await window.bridge.sendToolResult(result); }, loop);
  await frame.getByRole('rowheader', { name: '/docs' }).waitFor();
  await frame.locator('.timeline-plot canvas').first().waitFor();
  assert.equal(await frame.locator('[data-fetches="/docs"]').textContent(), String(pages[0].fetches));
  assert.equal(await frame.locator('[data-visits="/docs"]').textContent(), String(pages[0].visits));
  await screenshot(page, 'mcp-app-ai-visibility-loop');
  assert.deepEqual(page.problems, []);
});

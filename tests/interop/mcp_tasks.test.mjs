// Long-running tools as MCP tasks, with real clients against a running Sightline server: a
// site-audit crawl of a small site served here on loopback (its ownership proven by file),
// started as a task and followed to its result
// - in 2025-11-25 by the official TypeScript SDK v1 client's experimental tasks API
//   (`client.experimental.tasks`: callToolStream, getTask, cancelTask);
// - in 2026-07-28 on the wire (the Tasks extension `io.modelcontextprotocol/tasks`: discover,
//   resultType "task", tasks/get with the result inlined, tasks/cancel acknowledged, the
//   refusals), and by the MCP Inspector's CLI, whose tool calls go through the extension's
//   client (@modelcontextprotocol/ext-tasks) and settle the task.
// Run by mcp_tasks_interop.sh, which starts the server (--audit-private-addresses, a short
// --audit-interval) and passes SIGHTLINE_URL (the API base), SIGHTLINE_ORG, SIGHTLINE_PROJECT,
// SIGHTLINE_KEY and SIGHTLINE_OTHER_KEY (another organization's project).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const base = process.env.SIGHTLINE_URL;
const mcpUrl = `${base}/mcp`;
const key = process.env.SIGHTLINE_KEY;
const otherKey = process.env.SIGHTLINE_OTHER_KEY;
const sites = `${base}/${process.env.SIGHTLINE_ORG}/projects/${process.env.SIGHTLINE_PROJECT}/site-audit/sites`;
const TASKS = 'io.modelcontextprotocol/tasks';
const TERMINAL = ['completed', 'failed', 'cancelled'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A small site: the home page and /p/1 … /p/60, each linking to the next two.
let site;
let token = '';
let siteId;

function page(n) {
  return `<!doctype html><html lang="en"><head><title>Page ${n} of the tasks site</title>` +
    `<meta name="description" content="Page ${n} of the site the task interop test crawls."></head>` +
    `<body><h1>Page ${n}</h1><a href="/p/${n + 1}">next</a> <a href="/p/${n + 2}">skip</a></body></html>`;
}

before(async () => {
  site = http.createServer((request, response) => {
    const path = new URL(request.url, 'http://site').pathname;
    if (path === '/.well-known/sightline-verification.txt') {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      return response.end(`${token}\n`);
    }
    if (path === '/robots.txt') {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      return response.end('User-agent: *\nAllow: /\n');
    }
    const n = path === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? NaN);
    if (!Number.isInteger(n) || n > 60) {
      response.writeHead(404, { 'Content-Type': 'text/html' });
      return response.end('<!doctype html><title>Not found</title>');
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(page(n));
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${site.address().port}/`;

  const added = await rest('POST', sites, { url: origin });
  assert.equal(added.status, 201, JSON.stringify(added.json));
  siteId = added.json.id;
  token = added.json.token;
  const verified = await rest('POST', `${sites}/${siteId}/verify`, { method: 'file' });
  assert.equal(verified.status, 200, JSON.stringify(verified.json));
  assert.equal(verified.json.verified, true);
});

after(() => new Promise((resolve) => site.close(resolve)));

async function rest(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

async function connect() {
  const client = new Client({ name: 'sightline-tasks-interop', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  }));
  return client;
}

// Every page of tools/list: there are more tools than one page holds.
async function allTools(client) {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

// One crawl per site at a time: wait for the last one to end before the next test starts one.
async function untilTerminal(read) {
  for (let i = 0; i < 240; i++) {
    const task = await read();
    if (TERMINAL.includes(task.status)) return task;
    await sleep(250);
  }
  throw new Error('the task did not end within a minute');
}

test('2025-11-25 (SDK v1): the tasks capability and the tool-level marking', async () => {
  const client = await connect();
  assert.deepEqual(client.getServerCapabilities().tasks?.requests?.tools?.call, {});
  assert.ok(client.getServerCapabilities().tasks.cancel);
  assert.equal(client.getServerCapabilities().tasks.list, undefined);
  const tools = await allTools(client);
  assert.equal(tools.find((t) => t.name === 'start_site_crawl').execution?.taskSupport, 'optional');
  assert.equal(tools.find((t) => t.name === 'get_site_crawl').execution, undefined);
  await client.close();
});

test('2025-11-25 (SDK v1): a crawl runs as a task, polled to its result', async () => {
  const client = await connect();
  // Asked as a task explicitly: the SDK would otherwise look the tool's taskSupport up in the
  // listing it read last, which keeps only the last page.
  const messages = [];
  for await (const message of client.experimental.tasks.callToolStream({
    name: 'start_site_crawl', arguments: { siteId, maxPages: 5, delayMs: 0 },
  }, undefined, { task: {} })) {
    messages.push(message);
  }
  assert.equal(messages[0].type, 'taskCreated', JSON.stringify(messages[0]));
  const taskId = messages[0].task.taskId;
  assert.equal(messages[0].task.status, 'working');
  assert.equal(messages[0].task.ttl, null);
  const last = messages.at(-1);
  assert.equal(last.type, 'result', JSON.stringify(last));
  assert.equal(last.result.isError, false);
  assert.equal(last.result.structuredContent.status, 'completed');
  assert.equal(last.result.structuredContent.siteId, siteId);
  assert.equal(last.result._meta['io.modelcontextprotocol/related-task'].taskId, taskId);
  const task = await client.experimental.tasks.getTask(taskId);
  assert.equal(task.status, 'completed');
  // A finished task cannot be cancelled (-32602), as 2025-11-25 requires.
  await assert.rejects(client.experimental.tasks.cancelTask(taskId),
                       (e) => e instanceof McpError && e.code === -32602);
  // tasks/list is not offered: a task is found by its id alone.
  await assert.rejects(client.experimental.tasks.listTasks(), (e) => e.code === -32601);
  await client.close();
});

test('2025-11-25 (SDK v1): tasks/cancel stops a crawl', async () => {
  const client = await connect();
  const created = await client.request({
    method: 'tools/call',
    params: { name: 'start_site_crawl', arguments: { siteId, maxPages: 60, delayMs: 2000 },
              task: {} },
  }, CreateTaskResultSchema);
  const taskId = created.task.taskId;
  // Cancelled while it runs (a queued crawl is cancelled at once, a running one stops after the
  // pages it is fetching).
  let running;
  for (let i = 0; i < 80 && !running; i++) {
    const task = await client.experimental.tasks.getTask(taskId);
    assert.equal(task.status, 'working');
    if (task.statusMessage.startsWith('Running')) running = task;
    else await sleep(250);
  }
  assert.ok(running, 'the crawl did not start within 20 seconds');
  const answered = await client.experimental.tasks.cancelTask(taskId);
  assert.equal(answered.taskId, taskId);
  const task = await untilTerminal(() => client.experimental.tasks.getTask(taskId));
  assert.equal(task.status, 'cancelled');
  await client.close();
});

// ---- 2026-07-28 on the wire.

let rpcId = 0;
async function modern(method, params = {}, { declare = true, name, credential = key } = {}) {
  const headers = {
    Authorization: `Bearer ${credential}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
  };
  const routed = name ?? params.name ?? params.taskId;
  if (routed !== undefined) headers['Mcp-Name'] = routed;
  const body = {
    jsonrpc: '2.0', id: ++rpcId, method,
    params: { ...params, _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': declare ? { extensions: { [TASKS]: {} } } : {},
    } },
  };
  const response = await fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, message: await response.json() };
}

test('2026-07-28: the extension, a task created, polled, its result inlined', async () => {
  const discovered = await modern('server/discover');
  assert.deepEqual(discovered.message.result.capabilities.extensions[TASKS], {});
  assert.equal(discovered.message.result.capabilities.tasks, undefined);
  // Every page: the tools outnumber one page, and where a tool falls moves as tools are added.
  const tools = [];
  let cursor;
  do {
    const page = (await modern('tools/list', cursor === undefined ? {} : { cursor })).message.result;
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const start = tools.find((t) => t.name === 'start_site_crawl');
  assert.ok(start, 'start_site_crawl is listed');
  assert.equal(start.execution, undefined);  // 2026-07-28 tools carry no task marking

  const created = await modern('tools/call', {
    name: 'start_site_crawl', arguments: { siteId, maxPages: 5, delayMs: 0 } });
  assert.equal(created.status, 200);
  const task = created.message.result;
  assert.equal(task.resultType, 'task', JSON.stringify(created.message));
  assert.equal(typeof task.taskId, 'string');
  assert.equal(task.status, 'working');
  assert.equal(task.ttlMs, null);
  assert.ok(Number.isInteger(task.pollIntervalMs) && task.pollIntervalMs > 0);
  assert.equal(task.task, undefined);

  const done = await untilTerminal(async () => {
    const polled = await modern('tasks/get', { taskId: task.taskId });
    assert.equal(polled.status, 200, JSON.stringify(polled.message));
    assert.equal(polled.message.result.resultType, 'complete');
    return polled.message.result;
  });
  assert.equal(done.status, 'completed');
  assert.equal(done.result.resultType, 'complete');
  assert.equal(done.result.isError, false);
  assert.equal(done.result.structuredContent.status, 'completed');

  const ack = await modern('tasks/cancel', { taskId: task.taskId });  // idempotent on a finished task
  assert.equal(ack.message.result.resultType, 'complete');
  assert.equal(ack.message.result.status, undefined);

  const refusals = [
    [await modern('tasks/get', { taskId: task.taskId }, { declare: false }), 400, -32021],
    [await modern('tasks/get', { taskId: task.taskId }, { name: 'another-task' }), 400, -32020],
    [await modern('tasks/result', { taskId: task.taskId }), 404, -32601],
    [await modern('tasks/list'), 404, -32601],
    [await modern('tasks/get', { taskId: 'no-such-task' }), 200, -32602],
    // Another organization's key: the task does not exist for it.
    [await modern('tasks/get', { taskId: task.taskId }, { credential: otherKey }), 200, -32602],
  ];
  for (const [answer, status, code] of refusals) {
    assert.equal(answer.status, status, JSON.stringify(answer.message));
    assert.equal(answer.message.error.code, code, JSON.stringify(answer.message));
  }
});

test('2026-07-28: without the extension declared, the crawl answers at once', async () => {
  const plain = await modern('tools/call', {
    name: 'start_site_crawl', arguments: { siteId, maxPages: 3, delayMs: 0 } }, { declare: false });
  assert.equal(plain.message.result.resultType, 'complete');
  assert.ok(['queued', 'running'].includes(plain.message.result.structuredContent.status));
  const crawlId = plain.message.result.structuredContent.id;
  await untilTerminal(async () => {
    const read = await modern('tools/call', { name: 'get_site_crawl', arguments: { crawlId } });
    return read.message.result.structuredContent;
  });
});

test('2026-07-28 (MCP Inspector CLI, through @modelcontextprotocol/ext-tasks): the call settles', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [
    'node_modules/.bin/mcp-inspector', '--cli', mcpUrl, '--transport', 'http',
    '--protocol-era', 'modern', '--header', `Authorization: Bearer ${key}`,
    '--method', 'tools/call', '--tool-name', 'start_site_crawl',
    '--tool-args-json', JSON.stringify({ siteId, maxPages: 5, delayMs: 0 }),
    '--format', 'json', '-q', '--stored-auth-only',
  ], { timeout: 120_000 });
  const { result } = JSON.parse(stdout);
  assert.equal(result.isError, false, stdout);
  assert.equal(result.structuredContent.status, 'completed', stdout);
});

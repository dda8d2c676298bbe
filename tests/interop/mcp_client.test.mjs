// The official MCP TypeScript SDK client against a running Sightline server, authorized with a
// private API key. Run by mcp_interop.sh, which starts the server and passes:
//   SIGHTLINE_URL, SIGHTLINE_EMAIL, SIGHTLINE_PASSWORD, SIGHTLINE_ORG, SIGHTLINE_PROJECT,
//   SIGHTLINE_KEY (project A's key), SIGHTLINE_OTHER_KEY (another organization's project).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const base = process.env.SIGHTLINE_URL;
const key = process.env.SIGHTLINE_KEY;
const otherKey = process.env.SIGHTLINE_OTHER_KEY;
const project = process.env.SIGHTLINE_PROJECT;
const org = process.env.SIGHTLINE_ORG;

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const DAY = { from: '2026-11-10', to: '2026-11-10' };

async function connect(credential, path = '/mcp') {
  const client = new Client({ name: 'sightline-interop', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(base + path), {
    requestInit: { headers: { Authorization: `Bearer ${credential}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

async function rest(method, path, body, credential = key) {
  const response = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

function allTools(client) {
  return client.listTools().then((page) => page.tools);
}

before(async () => {
  // Five crawler requests on 2026-11-10 (UTC): three from GPTBot's user agent, two from curl.
  const at = Date.UTC(2026, 10, 10, 12);
  const item = (ua, path, offset) => ({
    user_agent: ua, ip_address: '203.0.113.7', path, client_timestamp: at + offset,
  });
  const ingested = await rest('POST', '/ingest/v1/server', {
    events: [item(GPTBOT, '/docs', 0), item(GPTBOT, '/docs', 1000), item(GPTBOT, '/pricing', 2000),
             item('curl/8.5.0', '/api', 3000), item('curl/8.5.0', '/api', 4000)],
  });
  assert.equal(ingested.status, 202, JSON.stringify(ingested.json));
});

test('tools/list: snake_case names, root object schemas, all four annotations, no bound arguments', async () => {
  const { client } = await connect(key);
  const tools = await allTools(client);
  const names = tools.map((t) => t.name);
  for (const expected of ['get_top_bots', 'get_web_analytics', 'get_web_breakdown', 'get_project']) {
    assert.ok(names.includes(expected), `${expected} missing from ${names}`);
  }
  for (const excluded of ['create_private_api_key', 'list_sdk_keys', 'login', 'delete_project',
                          'sdk_track_event', 'stream_notifications']) {
    assert.ok(!names.includes(excluded), `${excluded} must not be a tool`);
  }
  for (const tool of tools) {
    assert.match(tool.name, /^[a-z0-9_]{1,48}$/);
    assert.equal(tool.inputSchema.type, 'object');
    for (const combinator of ['oneOf', 'anyOf', 'allOf', '$ref']) {
      assert.ok(!(combinator in tool.inputSchema), `${tool.name}: top-level ${combinator}`);
    }
    assert.ok(!('orgSlug' in (tool.inputSchema.properties ?? {})), `${tool.name} asks for orgSlug`);
    assert.ok(!('projectId' in (tool.inputSchema.properties ?? {})), `${tool.name} asks for projectId`);
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
      assert.equal(typeof tool.annotations[hint], 'boolean', `${tool.name}.${hint}`);
    }
    if (tool.outputSchema) assert.equal(tool.outputSchema.type, 'object');
  }
  const report = tools.find((t) => t.name === 'get_top_bots');
  assert.deepEqual(report.annotations,
                   { title: report.title, readOnlyHint: true, destructiveHint: false,
                     idempotentHint: true, openWorldHint: false });
  await client.close();
});

test('a report tool answers with exact figures as structured content and JSON text', async () => {
  const { client } = await connect(key);
  await allTools(client);  // the SDK validates structuredContent against these output schemas
  const result = await client.callTool({ name: 'get_top_bots', arguments: DAY });
  assert.equal(result.isError, false);
  assert.equal(result.structuredContent.totalRequests, 5);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  const gptbot = result.structuredContent.rows.find((row) => row.botName === 'GPTBot');
  assert.equal(gptbot?.requestCount, 3, JSON.stringify(result.structuredContent.rows));
  assert.equal(gptbot.previousRequestCount, 0);
  await client.close();
});

test('every read-only tool answers and matches its declared output schema', async () => {
  const { client } = await connect(key);
  const tools = await allTools(client);
  const extra = {
    get_web_breakdown: { dimension: 'country' },
    get_web_dimension_timeline: { dimension: 'country' },
    classify_request: { user_agent: GPTBOT, ip_address: '203.0.113.7' },
    query: { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'], date_range: '7d' },
  };
  // Tools reading one thing by id: nothing of that id here, so a 404 as a tool error.
  const unknown = {
    get_ai_visibility_run: { runId: 'none' }, get_ai_answer: { answerId: 'none' },
    get_audit_site: { siteId: 'none' }, get_robots_traffic_report: { siteId: 'none' },
    get_site_crawl: { crawlId: 'none' }, list_crawl_pages: { crawlId: 'none' },
    get_crawl_page: { crawlId: 'none', url: 'https://example.com/' },
    list_crawl_issues: { crawlId: 'none' }, get_site_audit_summary: { crawlId: 'none' },
  };
  for (const tool of tools.filter((t) => t.annotations.readOnlyHint)) {
    const takesDays = tool.inputSchema.properties?.from?.format === 'date';
    const args = { ...(takesDays ? DAY : {}), ...(extra[tool.name] ?? {}), ...(unknown[tool.name] ?? {}) };
    const result = await client.callTool({ name: tool.name, arguments: args });
    if (unknown[tool.name]) {
      assert.equal(result.isError, true, tool.name);
      assert.equal(JSON.parse(result.content[0].text).error.code, 'REQ_004', tool.name);
      continue;
    }
    assert.equal(result.isError, false, `${tool.name}: ${result.content?.[0]?.text}`);
  }
  await client.close();
});

test('bad arguments come back as a tool error carrying the ErrorResponse', async () => {
  const { client } = await connect(key);
  const result = await client.callTool({ name: 'get_top_bots', arguments: { from: 'yesterday' } });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent, undefined);
  const body = JSON.parse(result.content[0].text);
  assert.equal(body.error.code, 'VAL_003');
  assert.equal(body.error.details.field, 'from');
  const reversed = await client.callTool({
    name: 'get_top_bots', arguments: { ...DAY, compareFrom: '2026-11-05' } });
  assert.equal(JSON.parse(reversed.content[0].text).error.code, 'VAL_001');
  await client.close();
});

test('an unknown tool is JSON-RPC error -32602', async () => {
  const { client } = await connect(key);
  await assert.rejects(client.callTool({ name: 'drop_everything', arguments: {} }),
                       (error) => error instanceof McpError && error.code === -32602);
  await client.close();
});

test('a read-only connection lists and calls only read-only tools', async () => {
  const { client: full } = await connect(key);
  const everything = await allTools(full);
  assert.ok(everything.some((t) => t.name === 'update_project'));
  await full.close();
  const { client } = await connect(key, '/mcp?readonly=true');
  const tools = await allTools(client);
  assert.ok(tools.length > 0 && tools.length < everything.length);
  assert.ok(tools.every((t) => t.annotations.readOnlyHint), tools.map((t) => t.name).join());
  const refused = await client.callTool({ name: 'update_project', arguments: { name: 'Renamed' } });
  assert.equal(refused.isError, true);
  assert.equal(JSON.parse(refused.content[0].text).error.code, 'PERM_001');
  await client.close();
});

test("another organization's key sees only its own project, whatever the model passes", async () => {
  const { client } = await connect(otherKey);
  const result = await client.callTool({
    name: 'get_top_bots', arguments: { ...DAY, projectId: project, orgSlug: org } });
  assert.equal(result.isError, false, result.content[0].text);
  assert.equal(result.structuredContent.totalRequests, 0);
  const own = await client.callTool({ name: 'get_project', arguments: { projectId: project } });
  assert.notEqual(own.structuredContent.id, project);
  await client.close();
});

test('progress notifications arrive before the result of a call that asks for them', async () => {
  const { client } = await connect(key);
  await allTools(client);
  const progress = [];
  const result = await client.callTool({ name: 'get_top_bots', arguments: DAY }, undefined,
                                       { onprogress: (p) => progress.push(p.progress) });
  assert.equal(result.structuredContent.totalRequests, 5);
  assert.deepEqual(progress, [0, 1]);
  await client.close();
});

test('logging/setLevel and ping answer', async () => {
  const { client } = await connect(key);
  assert.deepEqual(await client.setLoggingLevel('warning'), {});
  assert.deepEqual(await client.ping(), {});
  await client.close();
});

test('an ended session is gone (404), and a new one can be started', async () => {
  const { client, transport } = await connect(key);
  const session = transport.sessionId;
  assert.match(session, /^[\x21-\x7e]+$/);
  await transport.terminateSession();
  const after = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json',
               Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': session,
               'MCP-Protocol-Version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
  });
  assert.equal(after.status, 404);
  assert.equal((await after.json()).error.code, 'MCP_002');
  await client.close();
  const again = await connect(key);
  assert.deepEqual(await again.client.ping(), {});
  await again.client.close();
});

test('a revoked key is refused on its next request', async () => {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: process.env.SIGHTLINE_EMAIL, password: process.env.SIGHTLINE_PASSWORD }),
  });
  assert.equal(login.status, 200);
  const session = (await login.json()).accessToken;
  const created = await rest('POST', `/${org}/projects/${project}/private-api-keys`,
                             { name: 'mcp-revocation-test' }, session);
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const { client } = await connect(created.json.key);
  await allTools(client);
  const revoked = await rest('DELETE', `/${org}/projects/${project}/private-api-keys/${created.json.id}`,
                             undefined, session);
  assert.ok(revoked.status === 200 || revoked.status === 204, JSON.stringify(revoked.json));
  await assert.rejects(client.callTool({ name: 'get_top_bots', arguments: DAY }),
                       (error) => /AUTH_002/.test(String(error)));
  await client.close().catch(() => {});
});

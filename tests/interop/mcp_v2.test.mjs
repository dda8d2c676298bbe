// The official MCP TypeScript SDK v2 client (@modelcontextprotocol/client) against a running
// Sightline server, in each way it connects: pinned to 2026-07-28 (stateless, server/discover),
// 'auto' (probes the modern era, falls back to the handshake), and the default 2025-11-25
// handshake; each with a private API key and through OAuth with the consent page in headless
// Chromium. Run by mcp_interop.sh, which passes SIGHTLINE_URL, SIGHTLINE_EMAIL,
// SIGHTLINE_PASSWORD, SIGHTLINE_PROJECT, SIGHTLINE_KEY and, for the two-node check,
// SIGHTLINE_NODE_A_URL and SIGHTLINE_NODE_B_URL (the /mcp URLs of two nodes sharing one
// PostgreSQL store) with SIGHTLINE_NODES_KEY (a private key of that store).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client, ProtocolError, StreamableHTTPClientTransport, UnauthorizedError,
} from '@modelcontextprotocol/client';
import { MemoryProvider, chooseOnly, startConsentBrowser } from './consent_browser.mjs';

const base = process.env.SIGHTLINE_URL;
const key = process.env.SIGHTLINE_KEY;
const project = process.env.SIGHTLINE_PROJECT;

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
// Its own day, so that the counts do not depend on the other test files.
const DAY = { from: '2026-11-12', to: '2026-11-12' };

const MODES = {
  pinned: { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  auto: { versionNegotiation: { mode: 'auto' } },
  default: {},
};
const EXPECTED_ERA = { pinned: 'modern', auto: 'modern', default: 'legacy' };

function newClient(mode) {
  return new Client({ name: `sightline-interop-v2-${mode}`, version: '1.0.0' }, MODES[mode]);
}

async function connectWithKey(mode, { url = base + '/mcp', credential = key, fetch } = {}) {
  const client = newClient(mode);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${credential}` } },
    ...(fetch ? { fetch } : {}),
  });
  await client.connect(transport);
  return client;
}

async function toolNames(client) {
  return (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name);
}

let browser;
before(async () => {
  const at = Date.UTC(2026, 10, 12, 9);
  const events = [0, 1, 2].map((i) => ({
    user_agent: GPTBOT, ip_address: '203.0.113.9', path: '/docs', client_timestamp: at + i * 1000,
  }));
  const response = await fetch(base + '/ingest/v1/server', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  assert.equal(response.status, 202, await response.text());
  browser = await startConsentBrowser({
    email: process.env.SIGHTLINE_EMAIL, password: process.env.SIGHTLINE_PASSWORD,
  });
});
after(async () => { await browser?.close(); });

for (const mode of Object.keys(MODES)) {
  test(`private key, ${mode}: the ${EXPECTED_ERA[mode]} era lists, calls and refuses`, async () => {
    const client = await connectWithKey(mode);
    assert.equal(client.getProtocolEra(), EXPECTED_ERA[mode]);
    if (EXPECTED_ERA[mode] === 'modern') {
      assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
      const discovered = await client.discover();
      assert.deepEqual(discovered.supportedVersions, ['2026-07-28']);
      assert.ok(discovered.capabilities.tools);
    }
    const names = await toolNames(client);
    assert.ok(names.includes('get_top_bots') && names.includes('get_project'), names.join());
    for (const excluded of ['create_private_api_key', 'login', 'delete_project']) {
      assert.ok(!names.includes(excluded), `${excluded} must not be a tool`);
    }
    const bots = await client.callTool({ name: 'get_top_bots', arguments: DAY });
    assert.equal(bots.isError, false, JSON.stringify(bots));
    assert.equal(bots.structuredContent.totalRequests, 3);
    const own = await client.callTool({ name: 'get_project', arguments: {} });
    assert.equal(own.structuredContent.id, project);
    // An operation kept from models is not a tool, whatever the era.
    await assert.rejects(client.callTool({ name: 'create_private_api_key', arguments: {} }),
                         (e) => e instanceof ProtocolError && e.code === -32602);
    await client.close();
  });
}

test('a read-only connection lists only read-only tools, in both eras', async () => {
  for (const mode of ['pinned', 'default']) {
    const client = await connectWithKey(mode, { url: base + '/mcp?readonly=true' });
    const tools = (await client.listTools(undefined, { cacheMode: 'bypass' })).tools;
    assert.ok(tools.length > 0);
    for (const tool of tools) assert.equal(tool.annotations.readOnlyHint, true, tool.name);
    assert.ok(!tools.some((tool) => tool.name === 'update_project'));
    await client.close();
  }
});

test('two nodes on one store: a pinned client alternates between them without a session', {
  skip: !process.env.SIGHTLINE_NODE_A_URL && 'no second node (SIGHTLINE_NODE_A_URL unset)',
}, async () => {
  const first = new URL(process.env.SIGHTLINE_NODE_A_URL);
  const nodes = [first, new URL(process.env.SIGHTLINE_NODE_B_URL)];
  const served = [0, 0];
  let next = 0;
  // Every request of the one client goes to the next node, as a round-robin balancer sends it.
  const alternating = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const node = next++ % 2;
    served[node] += 1;
    url.host = nodes[node].host;
    return fetch(url, init);
  };
  const client = await connectWithKey('pinned', {
    url: first.href, credential: process.env.SIGHTLINE_NODES_KEY, fetch: alternating,
  });
  assert.equal(client.getProtocolEra(), 'modern');
  for (let i = 0; i < 3; i++) {
    assert.ok((await toolNames(client)).includes('get_top_bots'));
    const own = await client.callTool({ name: 'get_project', arguments: {} });
    assert.equal(own.isError, false, JSON.stringify(own));
  }
  await client.close();
  assert.ok(served[0] >= 3 && served[1] >= 3, `requests per node: ${served}`);
});

// 401 → discovery → registration → consent in Chromium → code → tokens, with the SDK v2 client.
async function connectThroughConsent(mode, provider, choose) {
  const url = new URL(base + '/mcp');
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await assert.rejects(newClient(mode).connect(first), UnauthorizedError);
  assert.ok(provider.authorizationUrl, 'the SDK was sent to the authorization endpoint');
  const query = await browser.consent(provider.authorizationUrl, choose);
  assert.equal(query.get('iss'), base);
  await first.finishAuth(query);
  const client = newClient(mode);
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

for (const mode of ['pinned', 'default']) {
  test(`OAuth, ${mode}: a narrower consent lists fewer tools and refuses the others`, async () => {
    const full = await connectThroughConsent(mode, new MemoryProvider(browser.redirectUrl, {
      clientName: `Interop v2 ${mode}`,
    }), (page) => page.getByLabel('Full access').check());
    assert.equal(full.getProtocolEra(), EXPECTED_ERA[mode]);
    const all = await toolNames(full);
    assert.ok(all.includes('get_top_bots') && all.includes('update_project'));
    const bots = await full.callTool({ name: 'get_top_bots', arguments: DAY });
    assert.equal(bots.structuredContent.totalRequests, 3);
    await full.close();

    const provider = new MemoryProvider(browser.redirectUrl, { clientName: `Narrow v2 ${mode}` });
    const narrow = await connectThroughConsent(mode, provider,
                                               (page) => chooseOnly(page, 'analytics.view'));
    assert.equal(provider.savedTokens.scope, 'analytics.view');
    const names = await toolNames(narrow);
    assert.ok(names.includes('get_web_analytics'));
    assert.ok(names.length < all.length);
    assert.ok(!names.includes('get_top_bots'));
    const analytics = await narrow.callTool({ name: 'get_web_analytics', arguments: DAY });
    assert.equal(analytics.isError, false, JSON.stringify(analytics));
    // Outside the consent: 403 insufficient_scope naming what get_top_bots needs.
    await assert.rejects(narrow.callTool({ name: 'get_top_bots', arguments: DAY }));
    await narrow.close();
  });
}

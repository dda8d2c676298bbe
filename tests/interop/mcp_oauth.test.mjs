// The official MCP TypeScript SDK client (v1, the 2025-11-25 era) connecting through Sightline's
// OAuth 2.1 authorization server, with the consent page driven in headless Chromium
// (consent_browser.mjs). Run by mcp_interop.sh, which
// starts the server and passes SIGHTLINE_URL, SIGHTLINE_EMAIL, SIGHTLINE_PASSWORD,
// SIGHTLINE_PROJECT and SIGHTLINE_CLIENT_DOCUMENT (the https URL of a client metadata document
// whose redirect is http://127.0.0.1/callback, served on loopback).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  UnauthorizedError, discoverAuthorizationServerMetadata, refreshAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { MemoryProvider as Provider, chooseOnly, startConsentBrowser } from './consent_browser.mjs';

const base = process.env.SIGHTLINE_URL;
const project = process.env.SIGHTLINE_PROJECT;
const clientDocument = process.env.SIGHTLINE_CLIENT_DOCUMENT;

let browser;  // startConsentBrowser's consent page driver
before(async () => {
  browser = await startConsentBrowser({
    email: process.env.SIGHTLINE_EMAIL, password: process.env.SIGHTLINE_PASSWORD,
  });
});
after(async () => { await browser?.close(); });

class MemoryProvider extends Provider {
  constructor(options) { super(browser.redirectUrl, options); }
}
const consent = (url, choose) => browser.consent(url, choose);

// The whole first connection: 401 → discovery → registration (or the metadata document) →
// consent → code → tokens; then a connected client.
async function connectThroughConsent(provider, choose) {
  const url = new URL(base + '/mcp');
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await assert.rejects(new Client({ name: 'interop', version: '1' }).connect(first),
                       UnauthorizedError);
  assert.ok(provider.authorizationUrl, 'the SDK was sent to the authorization endpoint');
  const query = await consent(provider.authorizationUrl, choose);
  assert.equal(query.get('iss'), base);
  assert.equal(query.get('state'), provider.authorizationUrl.searchParams.get('state'));
  assert.ok(query.get('code'));
  await first.finishAuth(query.get('code'));
  const client = new Client({ name: 'interop', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

async function toolNames(client) {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

test('dynamic registration, full access: tools work, the token refreshes and rotates', async () => {
  const provider = new MemoryProvider();
  const client = await connectThroughConsent(provider, async (page) => {
    await page.getByLabel('Full access').check();
  });
  assert.ok(provider.information.client_id.startsWith('mcpc_'), 'registered dynamically');
  const names = await toolNames(client);
  for (const expected of ['get_top_bots', 'get_web_analytics', 'update_project', 'get_project']) {
    assert.ok(names.includes(expected), expected);
  }
  const project_ = await client.callTool({ name: 'get_project', arguments: {} });
  assert.equal(project_.isError, false);
  assert.equal(project_.structuredContent.id, project);
  const bots = await client.callTool({
    name: 'get_top_bots', arguments: { from: '2026-11-10', to: '2026-11-10' },
  });
  assert.equal(bots.isError, false, JSON.stringify(bots));
  assert.equal(bots.structuredContent.totalRequests, 5);
  await client.close();

  // Refresh with the SDK's own function: a new pair, and the old refresh token is spent.
  const metadata = await discoverAuthorizationServerMetadata(base);
  const old = provider.savedTokens;
  const fresh = await refreshAuthorization(base, {
    metadata, clientInformation: provider.information, refreshToken: old.refresh_token,
    resource: new URL(base + '/mcp'),
  });
  assert.notEqual(fresh.access_token, old.access_token);
  assert.notEqual(fresh.refresh_token, old.refresh_token);
  provider.saveTokens(fresh);
  const again = new Client({ name: 'interop', version: '1' });
  await again.connect(new StreamableHTTPClientTransport(new URL(base + '/mcp'),
                                                        { authProvider: provider }));
  assert.ok((await toolNames(again)).includes('get_top_bots'));
  await again.close();
  // Once the new refresh token has been used, the old one is a replay (before that, a retry of
  // a lost answer would be honoured for two minutes).
  const newer = await refreshAuthorization(base, {
    metadata, clientInformation: provider.information, refreshToken: fresh.refresh_token,
    resource: new URL(base + '/mcp'),
  });
  assert.ok(newer.access_token);
  await assert.rejects(refreshAuthorization(base, {
    metadata, clientInformation: provider.information, refreshToken: old.refresh_token,
  }), /invalid_grant|already used/i);
});

test('a metadata-document client with the read-only preset sees only read-only tools', async () => {
  const provider = new MemoryProvider({ metadataDocument: clientDocument });
  let clientLine = '';
  const client = await connectThroughConsent(provider, async (page) => {
    clientLine = await page.getByText('Client identified by').textContent();
    await page.getByLabel('Read-only').check();
  });
  assert.equal(provider.information.client_id, clientDocument, 'no registration: the URL is the id');
  assert.ok(clientLine.includes(clientDocument));
  const tools = (await client.listTools()).tools;
  assert.ok(tools.length > 0);
  for (const tool of tools) assert.equal(tool.annotations.readOnlyHint, true, tool.name);
  assert.ok(!tools.some((tool) => tool.name === 'update_project'));
  await client.close();
});

test('a narrower consent lists fewer tools and refuses the others', async () => {
  const provider = new MemoryProvider();
  const client = await connectThroughConsent(provider, (page) => chooseOnly(page, 'analytics.view'));
  assert.equal(provider.savedTokens.scope, 'analytics.view');
  const names = await toolNames(client);
  assert.ok(names.includes('get_web_analytics'));
  assert.ok(!names.includes('get_top_bots'));
  assert.ok(!names.includes('get_project'));
  const analytics = await client.callTool({
    name: 'get_web_analytics', arguments: { from: '2026-11-10', to: '2026-11-10' },
  });
  assert.equal(analytics.isError, false, JSON.stringify(analytics));
  // Outside the consent: 403 insufficient_scope, which the SDK surfaces as a failed call.
  await assert.rejects(client.callTool({
    name: 'get_top_bots', arguments: { from: '2026-11-10', to: '2026-11-10' },
  }));
  await client.close();
});

// Several nodes under faults, end to end: three `sightline serve` nodes on one PostgreSQL behind
// HAProxy (Debian's package, health checks on /api/healthz, the configuration docs/operations.md
// gives, read from that page), senders posting events through it while a node is killed with SIGKILL and started
// again and PostgreSQL restarts. Afterwards every acknowledged event is stored exactly once, no
// event is stored twice, every failed request got an ErrorResponse or a closed connection and
// none hung; a rate-limit window holds exactly across the nodes; a session and an MCP session
// opened on one node work on the others.
// Run: tests/interop/multinode_interop.sh path/to/sightline (it sets the variables below).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.mjs';

const binary = process.env.SIGHTLINE_BINARY;
const repo = process.env.SIGHTLINE_REPO;
const nodeCount = 3;
const rateLimit = 40;
const password = 'correct horse battery staple';

let work;
let pgDir;
let dsn;
let boot;
let keyFile;
let haproxy;
let base; // through HAProxy
const nodes = []; // {port, child, log}

async function waitFor(check, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const healthy = (port) => async () => (await fetch(`http://127.0.0.1:${port}/api/healthz`, { signal: AbortSignal.timeout(2000) })).ok;

/** Starts node `index` (again) on its port; the first start takes any free port. */
async function startNode(index) {
  const node = nodes[index] ?? (nodes[index] = { port: await freePort(), log: join(work, `node${index}.log`) });
  const log = openSync(node.log, 'a');
  node.child = spawn(binary, ['serve', '--listen', `127.0.0.1:${node.port}`, '--database-url', dsn,
    '--public-url', base, '--encryption-key-file', keyFile, '--rate-limit', String(rateLimit),
    '--trusted-proxies', '127.0.0.1',
    '--bot-ranges-refresh', '0', '--seal-after', '3600'], { stdio: ['ignore', log, log] });
  await waitFor(healthy(node.port), `node ${index} on port ${node.port}`);
}

/** The HAProxy configuration docs/operations.md gives, with this test's addresses. */
function haproxyConfig(port) {
  const page = readFileSync(join(repo, 'docs/operations.md'), 'utf8');
  const documented = page.match(/```haproxy\n([\s\S]*?)\n```/);
  assert.ok(documented, 'docs/operations.md has no haproxy block');
  const lines = documented[1].split('\n').filter((line) => !line.startsWith('  server '));
  assert.ok(lines.includes('  bind :80'), 'the documented frontend binds :80');
  return [...lines.map((line) => (line === '  bind :80' ? `  bind 127.0.0.1:${port}` : line)),
    ...nodes.map((node, i) => `  server node${i + 1} 127.0.0.1:${node.port} check`), ''].join('\n');
}

async function api(method, path, { token, body, headers = {}, url = base } = {}) {
  const response = await fetch(`${url}/api${path}`, {
    method, signal: AbortSignal.timeout(15_000),
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: response.status, headers: response.headers, text, json };
}

before(async () => {
  work = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'sightline-multinode-'));
  // PostgreSQL runs as the `postgres` user when we are root: its directory must be reachable
  // by it, so it lives directly under /tmp (removed in after()).
  pgDir = mkdtempSync('/tmp/sightline-multinode-pg-');
  dsn = execFileSync(join(repo, 'script/pg-test-cluster'), ['start', pgDir], { encoding: 'utf8' }).trim().split('\n').at(-1);
  boot = JSON.parse(execFileSync(binary, ['admin', 'bootstrap', '--database-url', dsn, '--org', 'Acme', '--project', 'Shop',
    '--email', 'owner@acme.test', '--password', password], { encoding: 'utf8' }));
  keyFile = join(work, 'encryption.key');
  writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  const haPort = await freePort();
  base = `http://127.0.0.1:${haPort}`;
  for (let i = 0; i < nodeCount; i += 1) await startNode(i);
  writeFileSync(join(work, 'haproxy.cfg'), haproxyConfig(haPort));
  haproxy = spawn('haproxy', ['-f', join(work, 'haproxy.cfg'), '-db'], { stdio: ['ignore', openSync(join(work, 'haproxy.log'), 'a'), openSync(join(work, 'haproxy.log'), 'a')] });
  await waitFor(async () => (await api('GET', '/healthz')).status === 200, 'HAProxy');
  // Every node up in HAProxy's view (rise 2 at 500 ms).
  await sleep(1500);
});

after(async () => {
  haproxy?.kill('SIGKILL');
  for (const node of nodes) node.child?.kill('SIGTERM');
  await sleep(500);
  for (const node of nodes) node.child?.kill('SIGKILL');
  if (pgDir) execFileSync(join(repo, 'script/pg-test-cluster'), ['stop', pgDir]);
  if (process.env.SIGHTLINE_KEEP_LOGS) console.log(`logs kept in ${work}`);
  else if (work) rmSync(work, { recursive: true, force: true });
});

/** Every stored event's marker tag, with how often it is stored. */
function storedMarkers() {
  const out = execFileSync('psql', [dsn, '-At', '-c', `SELECT tags FROM events WHERE project_id = '${boot.projectId}'`], { encoding: 'utf8' });
  const counts = new Map();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const marker = JSON.parse(line).marker;
    if (marker) counts.set(marker, (counts.get(marker) ?? 0) + 1);
  }
  return counts;
}

test('every acknowledged event is stored exactly once through a node killed and PostgreSQL restarted', async () => {
  const acknowledged = new Set();
  const failures = [];
  let stop = false;
  const sender = async (s) => {
    const visitor = randomUUID();
    for (let n = 0; !stop; n += 1) {
      const marker = `s${s}-${n}`;
      const started = Date.now();
      try {
        const response = await fetch(`${base}/api/sdk/v1/logs`, {
          method: 'POST', signal: AbortSignal.timeout(20_000),
          headers: { 'Content-Type': 'application/json', 'x-sdk-key': boot.sdkKey },
          body: JSON.stringify({ event: 'screen_view', channel: 'web', anonymous_id: visitor, tags: { marker, $url: `https://shop.example/p/${n}` } }),
        });
        const text = await response.text();
        if (response.status === 202) {
          acknowledged.add(marker);
        } else {
          // Not acknowledged: it must say why, in the product's error shape.
          let body;
          try { body = JSON.parse(text); } catch { body = undefined; }
          failures.push({ marker, status: response.status, code: body?.error?.code });
          assert.ok(typeof body?.error?.code === 'string' && typeof body?.error?.message === 'string',
            `a ${response.status} without an ErrorResponse: ${text.slice(0, 200)}`);
        }
      } catch (error) {
        // A closed connection is allowed; a request that hung (the 20 s timeout) is not.
        assert.notEqual(error.name, 'TimeoutError', `${marker} hung for ${Date.now() - started} ms`);
        failures.push({ marker, status: 0, code: error.cause?.code ?? error.name });
      }
    }
  };
  const senders = [0, 1, 2, 3].map(sender);
  const count = () => acknowledged.size;

  try {
    await waitFor(async () => count() >= 50, 'events before the faults');
    // A node dies mid-traffic (SIGKILL: no shutdown), and comes back a few seconds later.
    nodes[1].child.kill('SIGKILL');
    const atKill = count();
    await waitFor(async () => count() >= atKill + 50, 'events with a node down');
    await startNode(1);
    // PostgreSQL restarts: every node's connections are cut.
    execFileSync(join(repo, 'script/pg-test-cluster'), ['restart', pgDir]);
    const atRestart = count();
    await waitFor(async () => count() >= atRestart + 50, 'events after PostgreSQL restarted', 60_000);
  } finally {
    stop = true;
    await Promise.allSettled(senders);
  }
  // A sender that met a hang or a malformed error stopped with an assertion: fail with it.
  for (const outcome of await Promise.allSettled(senders)) {
    if (outcome.status === 'rejected') throw outcome.reason;
  }

  const stored = storedMarkers();
  const twice = [...stored].filter(([, times]) => times > 1).map(([marker]) => marker);
  assert.deepEqual(twice, [], 'events stored more than once');
  const lost = [...acknowledged].filter((marker) => !stored.has(marker));
  assert.deepEqual(lost, [], 'acknowledged events that are not stored');
  console.log(`acknowledged ${acknowledged.size}, stored ${stored.size}, failed ${failures.length}: ` +
    JSON.stringify(failures.reduce((byCode, f) => ({ ...byCode, [`${f.status} ${f.code}`]: (byCode[`${f.status} ${f.code}`] ?? 0) + 1 }), {})));
});

test('a session and an MCP session opened on one node work on the others', async () => {
  const direct = (i) => `http://127.0.0.1:${nodes[i].port}`;
  const signedIn = await api('POST', '/auth/login', { url: direct(0), body: { email: 'owner@acme.test', password } });
  assert.equal(signedIn.status, 200, signedIn.text);
  for (let i = 1; i < nodeCount; i += 1) {
    const me = await api('GET', '/users/me', { url: direct(i), token: signedIn.json.accessToken });
    assert.equal(me.status, 200, `node ${i}: ${me.text}`);
    assert.equal(me.json.email, 'owner@acme.test');
  }

  const mcpHeaders = (session) => ({ Accept: 'application/json, text/event-stream',
    ...(session ? { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' } : {}) });
  const init = await api('POST', '/mcp', { url: direct(0), token: boot.privateApiKey, headers: mcpHeaders(),
    body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'multinode', version: '1' } } } });
  assert.equal(init.status, 200, init.text);
  const session = init.headers.get('mcp-session-id');
  assert.match(session, /^[0-9a-f]{64}$/);
  const initialized = await api('POST', '/mcp', { url: direct(1), token: boot.privateApiKey, headers: mcpHeaders(session),
    body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  assert.equal(initialized.status, 202, initialized.text);
  const tools = await api('POST', '/mcp', { url: direct(2), token: boot.privateApiKey, headers: mcpHeaders(session),
    body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
  assert.equal(tools.status, 200, tools.text);
  assert.ok(tools.json.result.tools.some((tool) => tool.name === 'get_web_analytics'));
});

// Last: the limit is the user's, whatever their session, so it would refuse the tests after it.
test('a rate-limit window holds exactly across the nodes', async () => {
  const signedIn = await api('POST', '/auth/login', { body: { email: 'owner@acme.test', password } });
  assert.equal(signedIn.status, 200, signedIn.text);
  const token = signedIn.json.accessToken;
  // The window is one wall-clock minute: start early in one, so all requests fall in it.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await sleep(60_000 - intoMinute + 200);
  const responses = [];
  for (let i = 0; i < rateLimit + 10; i += 1) {
    responses.push(await api('GET', `/${boot.orgSlug}/projects/${boot.projectId}`, { token }));
  }
  // The user may have spent some of this minute in the tests before: the first answer says
  // what is left, and exactly that many more pass, whichever node each request reaches.
  const statuses = responses.map((response) => response.status);
  assert.equal(statuses[0], 200);
  const left = Number(responses[0].headers.get('x-ratelimit-remaining'));
  assert.ok(left >= rateLimit - 10, `only ${left} left of ${rateLimit}`);
  assert.deepEqual([...new Set(statuses)].sort(), [200, 429], statuses.join(' '));
  assert.equal(statuses.filter((status) => status === 200).length, 1 + left, statuses.join(' '));
  // Nodes claim the window in slices (a sixteenth of the quota: 2 here, docs/api.md): a node
  // may refuse while another still holds the rest of its slice, which the next request that
  // reaches that node uses. So after the first refusal at most one more passes per other node.
  const firstRefusal = statuses.indexOf(429);
  const passedLate = statuses.slice(firstRefusal).filter((status) => status === 200).length;
  assert.ok(passedLate <= nodeCount - 1, statuses.join(' '));
});

test('with every node down, HAProxy answers an ErrorResponse', async () => {
  for (const node of nodes) node.child.kill('SIGKILL');
  await waitFor(async () => (await api('GET', '/healthz')).status === 503, 'HAProxy to see every node down');
  const down = await api('GET', `/${boot.orgSlug}/projects/${boot.projectId}`, { token: boot.privateApiKey });
  assert.equal(down.status, 503);
  assert.equal(down.json.error.code, 'SYS_002');
  assert.match(down.json.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

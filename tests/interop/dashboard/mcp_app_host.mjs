// An MCP Apps host for the browser tests that show a tool result in the dashboard's MCP App view
// (and for ../mcp_apps.test.mjs): a minimal MCP client over POST /api/mcp, and a page
// built on @modelcontextprotocol/ext-apps's AppBridge that renders the view in a sandboxed iframe.
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;

/** A legacy-era MCP session over POST /api/mcp with a bearer key: { send(method, params), listTools() }. */
export async function mcpSession(base, key) {
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
  await send('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'dashboard-test-host', version: '1.0.0' } });
  await send('notifications/initialized', {}, { notification: true });
  /** Every tool of tools/list, following nextCursor through its pages. */
  const listTools = async () => {
    const tools = [];
    let cursor;
    do {
      const page = await send('tools/list', cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  };
  return { send, listTools };
}

/** AppBridge + PostMessageTransport bundled for the browser (esbuild from web/dashboard). */
async function bridgeBundle() {
  const { build } = await import(join(here, '../../../web/dashboard/node_modules/esbuild/lib/main.js'));
  const result = await build({
    stdin: { contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';", resolveDir: join(here, '..'), loader: 'js' },
    bundle: true, format: 'iife', globalName: 'HostLib', write: false, platform: 'browser', target: ['es2020'], logLevel: 'error',
  });
  return result.outputFiles[0].text;
}

/**
 * A page hosting the view's HTML in a sandboxed iframe titled "Sightline report"; the view's
 * tools/call requests go to mcp. Returns { page, forwarded }.
 */
export async function openHost(context, mcp, viewHtml) {
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
  await page.evaluate((html) => window.startView(html), viewHtml);
  await page.evaluate(() => window.viewReady);
  return { page, forwarded };
}

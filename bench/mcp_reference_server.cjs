// The reference of bench/mcp_bench.sh: the official MCP TypeScript SDK v2 server
// (@modelcontextprotocol/server createMcpHandler + @modelcontextprotocol/node toNodeHandler),
// serving both eras statelessly, with one tool that echoes its argument: no credential, no
// store, no permission check. Prints "LISTEN <port>" once listening on 127.0.0.1.
//   node bench/mcp_reference_server.cjs
// The packages come from tests/interop (installed by script/bootstrap --test).
const http = require('node:http');
const path = require('node:path');
const { createRequire } = require('node:module');

const fromInterop = createRequire(path.join(__dirname, '..', 'tests', 'interop', 'package.json'));
const { McpServer, createMcpHandler } = fromInterop('@modelcontextprotocol/server');
const { toNodeHandler } = fromInterop('@modelcontextprotocol/node');
const z = fromInterop('zod/v4');

// Called once per request, as the SDK's stateless handler does.
function factory() {
  const server = new McpServer({ name: 'reference', version: '1.0.0' }, {
    capabilities: { tools: {} },
    cacheHints: { 'tools/list': { ttlMs: 60000, cacheScope: 'private' } },
  });
  server.registerTool('echo', {
    description: 'Echoes its text.',
    inputSchema: z.object({ text: z.string() }),
    annotations: { readOnlyHint: true },
  }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

const handler = toNodeHandler(createMcpHandler(factory, { legacy: 'stateless' }));
const server = http.createServer((req, res) => {
  if (new URL(req.url, 'http://x').pathname !== '/mcp') return res.writeHead(404).end();
  return handler(req, res);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(`LISTEN ${server.address().port}`));

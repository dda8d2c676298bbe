// Development only (no test needs it): serves web/dashboard/dist the way the binary will —
// the shell for every non-asset GET with a fresh CSP nonce, hashed assets — and proxies /api/*
// and /.well-known/* to a running `sightline serve`.
// Usage: node dev/server.mjs --port 5173 --api http://127.0.0.1:8080
import { createServer, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, value, index, all) => (value.startsWith('--') ? [...pairs, [value.slice(2), all[index + 1]]] : pairs), []));
const port = Number(args.port ?? 5173);
const upstream = new URL(args.api ?? 'http://127.0.0.1:8080');
const dist = join(new URL('..', import.meta.url).pathname, 'dist');
const types = { '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.html': 'text/html; charset=utf-8', '.svg': 'image/svg+xml' };

createServer((req, res) => {
  const url = new URL(req.url, 'http://dev');
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/.well-known/')) {
    const proxied = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode, upstreamRes.headers);
      upstreamRes.pipe(res);
    });
    proxied.on('error', (error) => { res.writeHead(502); res.end(String(error)); });
    req.pipe(proxied);
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    const file = normalize(join(dist, url.pathname));
    if (!file.startsWith(dist) || !existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    res.end(readFileSync(file));
    return;
  }
  const nonce = randomBytes(16).toString('base64');
  const csp = `default-src 'self'; script-src 'nonce-${nonce}' 'strict-dynamic'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
  const shell = readFileSync(join(dist, 'index.html'), 'utf8').replaceAll('__CSP_NONCE__', nonce);
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp, 'Cache-Control': 'no-store' });
  res.end(shell);
}).listen(port, '127.0.0.1', () => process.stdout.write(`dashboard dev server on http://localhost:${port}/ → ${upstream.href}\n`));

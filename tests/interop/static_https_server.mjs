// Serves the files of a directory over HTTPS on loopback (a vendor's range-list URL, a mirror)
// for the end-to-end tests. Usage: node static_https_server.mjs CERT.pem KEY.pem DIR
// Prints {"port": N} on one line, then serves until terminated.
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import { join, normalize } from "node:path";

const [cert, key, dir] = process.argv.slice(2);
const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "https://x").pathname));
  try {
    const body = readFileSync(join(dir, path));
    res.writeHead(200, { "Content-Type": "application/json" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + "\n");
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));

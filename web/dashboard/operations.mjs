// The dashboard calls the REST API by operationId; src/generated/operations.json maps each
// operationId of the registry to "METHOD /path" (the path relative to /api, with {parameters}).
// It is generated from the OpenAPI document the binary serves, which cannot be run before the
// dashboard it embeds is built; so the table is checked in, and a CTest entry
// (dashboard_operations) fails when it differs from `sightline docs openapi`.
// Usage: sightline docs openapi | node operations.mjs write    (regenerate the table)
//        sightline docs openapi | node operations.mjs check    (exit 1 when the table is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const here = dirname(new URL(import.meta.url).pathname);
const tablePath = join(here, 'src/generated/operations.json');
const methods = ['get', 'post', 'put', 'patch', 'delete'];

/** operationId → "METHOD /path" for every operation of the document, sorted by operationId. */
export function operationsTable(document) {
  const table = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method];
      if (operation?.operationId) table[operation.operationId] = `${method.toUpperCase()} ${path}`;
    }
  }
  return Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
}

const render = (table) => `${JSON.stringify(table, null, 1)}\n`;

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const mode = process.argv[2];
  if (mode !== 'write' && mode !== 'check') {
    process.stderr.write('Usage: sightline docs openapi | node operations.mjs write|check\n');
    process.exit(2);
  }
  const expected = render(operationsTable(JSON.parse(readFileSync(0, 'utf8'))));
  if (mode === 'write') {
    writeFileSync(tablePath, expected);
  } else if (readFileSync(tablePath, 'utf8') !== expected) {
    const stale = JSON.parse(readFileSync(tablePath, 'utf8'));
    const fresh = JSON.parse(expected);
    for (const id of new Set([...Object.keys(stale), ...Object.keys(fresh)])) {
      if (stale[id] !== fresh[id]) process.stderr.write(`${id}: table ${stale[id] ?? '(missing)'}, OpenAPI ${fresh[id] ?? '(missing)'}\n`);
    }
    process.stderr.write('web/dashboard/src/generated/operations.json is stale: run\n' +
      '  build/sightline docs openapi | node web/dashboard/operations.mjs write\n');
    process.exit(1);
  }
}

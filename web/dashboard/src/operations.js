// How an operationId becomes a request. The table ("METHOD /path" per operationId) is the
// virtual module sightline:operations, which build.mjs makes from src/generated/operations.json
// with only the operations the source names, so the first view carries no unused paths.
import operations from 'sightline:operations';

const apiBase = '/api';

/**
 * { method, path, query, body } for operationId with params: each {name} of the path is taken
 * from params (and encoded); the other params are the query (GET, DELETE) or the JSON body.
 */
export function requestFor(operationId, params = {}) {
  const entry = operations[operationId];
  if (!entry) throw new Error(`Unknown operation ${operationId}`);
  const [method, template] = entry.split(' ');
  const rest = { ...params };
  const path = template.replace(/\{(\w+)\}/g, (_, name) => {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null || value === '') throw new Error(`${operationId}: ${name} is missing`);
    return encodeURIComponent(value);
  });
  const inQuery = method === 'GET' || method === 'DELETE';
  return { method, path: apiBase + path, query: inQuery ? rest : undefined, body: inQuery ? undefined : rest };
}

// The data cache's key of a request (src/data.js): the operationId and its params with the
// keys of every object sorted, at every depth, so equal params give one key whatever the
// order they were written in, and params that differ anywhere (a nested filter) never share
// one.
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])]));
}

export const cacheKey = (operationId, params) => `${operationId} ${JSON.stringify(sorted(params ?? {}))}`;

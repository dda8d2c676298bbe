// Loaded with `node --import` into a client that cannot be given headers (the MCP conformance
// suite): every fetch to SIGHTLINE_MCP_URL's origin carries `Authorization: Bearer
// $SIGHTLINE_MCP_BEARER`, as a client configured with a private API key sends it.
const bearer = process.env.SIGHTLINE_MCP_BEARER;
const origin = process.env.SIGHTLINE_MCP_URL ? new URL(process.env.SIGHTLINE_MCP_URL).origin : null;
const realFetch = globalThis.fetch;

globalThis.fetch = async (input, init = {}) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (!bearer || url.origin !== origin) return realFetch(input, init);
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${bearer}`);
  return realFetch(input, { ...init, headers });
};

// What MCP clients need to sign in through Sightline's consent page in tests: headless Chromium
// (Debian's, driven by playwright-core) that signs in and consents the way a person would, by
// the labels and roles of the page's controls; a loopback redirect listener, as native MCP
// clients run one; and an OAuthClientProvider kept in memory, the interface both SDK
// generations share. Used by mcp_oauth.test.mjs (SDK v1) and mcp_v2.test.mjs (SDK v2).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';

// Starts Chromium and the redirect listener; `close()` stops both.
export async function startConsentBrowser({ email, password }) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let pendingCode = null;  // resolves with the query the authorization server redirects back with
  const callbackServer = createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('Connected. You may close this tab.');
    if (url.pathname === '/callback' && pendingCode) pendingCode(url.searchParams);
  });
  await new Promise((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  const redirectUrl = `http://127.0.0.1:${callbackServer.address().port}/callback`;

  // Signs in and consents; `choose` picks the access on the consent page. Returns the
  // redirect's query parameters.
  async function consent(authorizationUrl, choose) {
    const redirected = new Promise((resolve) => { pendingCode = resolve; });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(authorizationUrl.toString());
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      assert.match(await page.textContent('h1'), /Connect .* to Sightline/);
      await choose(page);
      await page.getByRole('button', { name: 'Allow' }).click();
      return await redirected;
    } finally {
      pendingCode = null;
      await context.close();
    }
  }

  async function close() {
    await browser.close();
    callbackServer.close();
  }
  return { consent, redirectUrl, close };
}

// An OAuthClientProvider kept in memory, as an MCP client keeps its credentials.
export class MemoryProvider {
  constructor(redirectUrl, { metadataDocument, clientName = 'Interop Assistant' } = {}) {
    this.redirect = redirectUrl;
    this.name = clientName;
    this.information = undefined;
    this.savedTokens = undefined;
    this.verifier = undefined;
    this.authorizationUrl = undefined;
    if (metadataDocument) this.clientMetadataUrl = metadataDocument;
  }
  get redirectUrl() { return this.redirect; }
  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() { return this.information; }
  saveClientInformation(information) { this.information = information; }
  tokens() { return this.savedTokens; }
  saveTokens(tokens) { this.savedTokens = tokens; }
  redirectToAuthorization(url) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
  // SDK v2 keeps which authorization server it was sent to, to check the callback against it.
  saveDiscoveryState(state) { this.discovery = state; }
  discoveryState() { return this.discovery; }
}

// Picks "Only the permissions selected below" with exactly the permission named `scope`.
export async function chooseOnly(page, scope) {
  await page.getByLabel('Only the permissions selected below').check();
  for (const box of await page.getByRole('checkbox').all()) {
    const label = await box.evaluate((input) => input.labels[0].textContent);
    if (label.includes(`(${scope})`)) await box.check();
    else await box.uncheck();
  }
}

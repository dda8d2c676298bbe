// The website the site-audit tests crawl: a small shop on loopback whose every defect is listed in
// one table (PAGES below), with the findings ServiceAuditBot's checks (audit/audit_rules.cpp)
// must report for it. Node 20+, no dependencies.
//
//   node fixture_site.mjs [--robots=ok|500|404] [--delay-ms=N]
//
// Prints one JSON line {"port": P, "externalPort": E, "deadPort": D}, then serves until
// terminated:
//   http://127.0.0.1:P/   the site (the table);
//   http://127.0.0.1:E/   "another site" its pages link to: /ok answers 200, anything else 404,
//                         robots.txt 404 (allow all);
//   http://127.0.0.1:D/   nothing listens there (a link to an unreachable host).
// --robots=500 makes robots.txt answer 500 (a crawler must then fetch nothing else), 404 makes it
// absent (allow all). --delay-ms=N delays every HTML page by N ms (a crawl slow enough to cancel).
//
// Control routes (never recorded; on the site's port):
//   GET    /__requests  every request either server received since the last DELETE, in order:
//                       [{server: "site"|"external", method, path, headers: {lowercased: value},
//                         status}] (status 0: the connection was dropped on purpose)
//   DELETE /__requests  forgets them
//   PUT    /__proof     {"file": "<body of /.well-known/sightline-verification.txt>" | null,
//                        "meta": "<meta ...> tag put in the home page's <head>" | null}
//   POST   /__change    {"path": "/fixable.html"}: the page switches to its `changed` variant (new
//                       ETag and Last-Modified)
//   GET    /__expected  {"issues": [{"ruleId", "path"}], "pages": [{"path", "sitemap", ...}]}:
//                       the findings the table promises for the current variants; "path" is ""
//                       for a site-wide finding
//
// Every page answers conditional requests (ETag and Last-Modified, 304), HEAD as GET without the
// body, and the home page sets a cookie a polite crawler must never send back.
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

const options = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = "true"] = arg.replace(/^--/, "").split("=");
    return [key, value];
  }),
);
const robotsMode = options.robots ?? "ok";
const delayMs = Number(options["delay-ms"] ?? 0);

// ---------------------------------------------------------------------------------------------
// The site. One row per URL. `sitemap`: which sitemap lists it ("plain" = /sitemap-pages.xml,
// "gzip" = /sitemap-more.xml.gz, absent = none). `home`: the home page links to it. `issues`: the
// rule ids the crawl must report with this URL (and no others). Pages are well-formed unless a
// row says otherwise: lang="en", a viewport, a unique title (10-60 characters) and description
// (50-160), one <h1>, a self-referencing canonical, a link back home. `changed`: what the page
// becomes after POST /__change (and the issues then).
// ---------------------------------------------------------------------------------------------
const EXTERNAL = "http://127.0.0.1:{E}";
const DEAD = "http://127.0.0.1:{D}";

const PAGES = [
  { path: "/", name: "Home", sitemap: "plain",
    issues: ["security/no-https"] },  // the start URL is http:// (reported at the start URL)
  { path: "/about.html", name: "About us", sitemap: "plain", home: true, issues: [] },

  // Structured data.
  { path: "/products/widget.html", name: "Widget", sitemap: "plain", home: true, issues: [],
    jsonLd: [JSON.stringify({
      "@context": "https://schema.org", "@type": "Product", name: "Widget",
      image: "/img/widget.png", description: "A widget that does everything.",
      offers: { "@type": "Offer", price: "9.99", priceCurrency: "EUR",
                availability: "https://schema.org/InStock" } })] },
  { path: "/products/gadget.html", name: "Gadget", sitemap: "plain", home: true,
    issues: ["structured-data/missing-required"],  // Product without offers, review or rating
    jsonLd: [JSON.stringify({
      "@context": "https://schema.org", "@type": "Product", name: "Gadget",
      image: "/img/gadget.png", description: "A gadget nobody can buy." })] },
  { path: "/products/broken-json.html", name: "Broken data", sitemap: "plain", home: true,
    issues: ["structured-data/invalid"],
    jsonLd: ['{"@context": "https://schema.org", "@type": "Product" "name": "Broken"}'] },

  // Broken links: two internal (a 404, a dropped connection), two external (a 404 on another
  // host, a host where nothing listens), one fine external link, one link without text.
  { path: "/links.html", name: "Useful links", sitemap: "plain", home: true,
    issues: ["links/broken-internal", "links/broken-external", "links/empty-anchor"],
    links: [["/missing.html", "A page that is gone"], ["/reset.html", "A page that hangs up"],
            [`${EXTERNAL}/ok`, "A friendly site"], [`${EXTERNAL}/gone`, "A dead page elsewhere"],
            [`${DEAD}/`, "A dead site"], ["/about.html", ""]] },
  { path: "/missing.html", status: 404, issues: ["status/client-error"] },
  { path: "/reset.html", reset: true, issues: ["status/unreachable"] },

  // Redirects: a chain of three hops, and a loop.
  { path: "/chain/1", name: "Old page", home: true, redirect: ["/chain/2", 301],
    issues: ["redirects/chain"] },
  { path: "/chain/2", redirect: ["/chain/3", 302], issues: [] },
  { path: "/chain/3", redirect: ["/chain-end.html", 301], issues: [] },
  { path: "/chain-end.html", name: "New page", sitemap: "plain", issues: [] },
  { path: "/loop/a", name: "Loop", home: true, redirect: ["/loop/b", 302],
    issues: ["redirects/loop"] },
  { path: "/loop/b", redirect: ["/loop/a", 302], issues: [] },

  // Canonicals: a loop (A names B, B names A), one missing, one naming a noindex page.
  { path: "/canon-a.html", name: "Canonical A", sitemap: "plain", home: true,
    canonical: "/canon-b.html", issues: ["canonical/loop"] },
  { path: "/canon-b.html", name: "Canonical B", sitemap: "plain", home: true,
    canonical: "/canon-a.html", issues: ["canonical/loop"] },
  { path: "/no-canonical.html", name: "No canonical", sitemap: "gzip", home: true,
    canonical: null, issues: ["canonical/missing"] },
  { path: "/canon-to-noindex.html", name: "Canonical to noindex", sitemap: "gzip", home: true,
    canonical: "/noindex-meta.html", issues: ["canonical/target-not-indexable"] },

  // Noindex, by meta tag (and listed in the sitemap) and by header.
  { path: "/noindex-meta.html", name: "Hidden by meta", sitemap: "plain", home: true,
    robotsMeta: "noindex", issues: ["indexability/noindex", "sitemap/non-indexable-url"] },
  { path: "/noindex-header.html", name: "Hidden by header", home: true,
    headers: { "X-Robots-Tag": "noindex" }, issues: ["indexability/noindex"] },

  // Hreflang: en and de name each other; fr names en, which does not name fr back.
  { path: "/hreflang/en.html", name: "English page", lang: "en", sitemap: "plain", home: true,
    alternates: [["en", "/hreflang/en.html"], ["de", "/hreflang/de.html"]], issues: [] },
  { path: "/hreflang/de.html", name: "Deutsche Seite", lang: "de", sitemap: "plain", home: true,
    alternates: [["de", "/hreflang/de.html"], ["en", "/hreflang/en.html"]], issues: [] },
  { path: "/hreflang/fr.html", name: "Page française", lang: "fr", sitemap: "plain", home: true,
    alternates: [["fr", "/hreflang/fr.html"], ["en", "/hreflang/en.html"]],
    issues: ["hreflang/not-reciprocal"] },

  // robots.txt keeps ServiceAuditBot out of /private/ but lets it into /private/open.html.
  { path: "/private/secret.html", name: "Secret", home: true, issues: ["robots/blocked-url"] },
  { path: "/private/open.html", name: "Open secret", sitemap: "gzip", home: true, issues: [] },

  // Titles, descriptions, markup.
  { path: "/no-title.html", name: "Untitled", sitemap: "gzip", home: true, title: null,
    issues: ["title/missing"] },
  { path: "/no-description.html", name: "Undescribed", sitemap: "gzip", home: true,
    description: null, issues: ["description/missing"] },
  { path: "/dup-a.html", name: "Twin A", sitemap: "gzip", home: true,
    title: "Twins | Fixture Shop",
    description: "Two pages of the Sightline fixture shop share this very description.",
    issues: ["title/duplicate", "description/duplicate"] },
  { path: "/dup-b.html", name: "Twin B", sitemap: "gzip", home: true,
    title: "Twins | Fixture Shop",
    description: "Two pages of the Sightline fixture shop share this very description.",
    issues: ["title/duplicate", "description/duplicate"] },
  { path: "/bare.html", name: "Bare", sitemap: "gzip", home: true, title: "Bare", lang: null,
    viewport: false, issues: ["title/too-short", "html/lang-missing", "html/viewport-missing"] },
  { path: "/images.html", name: "Gallery", sitemap: "gzip", home: true,
    images: [["/img/a.png", null], ["/img/b.png", "A blue square"], ["/img/c.png", ""],
             ["/img/d.png", null]],
    issues: ["images/missing-alt"] },  // a and d have no alt; c's empty alt is deliberate
  { path: "/fixable.html", name: "Fixable", sitemap: "gzip", home: true, h1: [],
    issues: ["h1/missing"],
    changed: { h1: ["Fixable", "Fixable, again"], issues: ["h1/multiple"] } },

  // Sitemap coverage and click depth.
  { path: "/not-in-sitemap.html", name: "Unlisted", home: true,
    issues: ["sitemap/not-in-sitemap"] },
  { path: "/orphan.html", name: "Orphan", sitemap: "gzip", issues: ["sitemap/orphan"] },
  { path: "/deep/1.html", name: "Deep one", sitemap: "gzip", home: true, issues: [],
    links: [["/deep/2.html", "Deeper"]] },
  { path: "/deep/2.html", name: "Deep two", sitemap: "gzip", issues: [],
    links: [["/deep/3.html", "Deeper"]] },
  { path: "/deep/3.html", name: "Deep three", sitemap: "gzip", issues: [],
    links: [["/deep/4.html", "Deeper"]] },
  { path: "/deep/4.html", name: "Deep four", sitemap: "gzip", issues: ["depth/too-deep"] },
];

// Findings about the whole site (URL ""): GPTBot is disallowed, and the Content-Signal line says
// ai-train=no while every other AI training crawler may crawl.
const SITE_ISSUES = ["ai/crawler-blocked", "ai/usage-contradiction"];

const ROBOTS = `# The Sightline fixture shop
User-agent: ServiceAuditBot
Disallow: /private/
Allow: /private/open.html

User-agent: GPTBot
Disallow: /

User-agent: PerplexityBot
Allow: /

User-agent: *
Disallow:
Content-Signal: search=yes, ai-train=no

Sitemap: {ORIGIN}/sitemap_index.xml
`;

const LLMS_TXT = `# Fixture Shop

> A small shop that exists so Sightline's site audit has something to find.

## Pages

- [About us]({ORIGIN}/about.html): who we are
- [Widget]({ORIGIN}/products/widget.html): the one product you can buy

## Optional

- [Useful links]({ORIGIN}/links.html)
`;

// ---------------------------------------------------------------------------------------------

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64");
const started = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600 * 1000);
const state = new Map(PAGES.map((p) => [p.path, { changed: false, modified: started }]));
let proof = { file: null, meta: null };
let requests = [];
let ports = { port: 0, externalPort: 0, deadPort: 0 };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const escape = (text) => String(text).replace(/[&<>"]/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const placeholders = (text) => text
  .replaceAll("{E}", String(ports.externalPort)).replaceAll("{D}", String(ports.deadPort));

function current(page) {
  return state.get(page.path)?.changed ? { ...page, ...page.changed } : page;
}

function titleOf(page) {
  return page.title === undefined ? `${page.name} | Fixture Shop` : page.title;
}

function descriptionOf(page) {
  return page.description === undefined
    ? `${page.name}: one page of the Sightline fixture shop, written to test the site audit.`
    : page.description;
}

function renderPage(page) {
  const p = current(page);
  const lang = p.lang === undefined ? "en" : p.lang;
  const head = ['<meta charset="utf-8">'];
  if (p.viewport !== false) {
    head.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  }
  if (titleOf(p) !== null) head.push(`<title>${escape(titleOf(p))}</title>`);
  if (descriptionOf(p) !== null) {
    head.push(`<meta name="description" content="${escape(descriptionOf(p))}">`);
  }
  const canonical = p.canonical === undefined ? p.path : p.canonical;
  if (canonical !== null) head.push(`<link rel="canonical" href="${canonical}">`);
  if (p.robotsMeta) head.push(`<meta name="robots" content="${p.robotsMeta}">`);
  for (const [hreflang, href] of p.alternates ?? []) {
    head.push(`<link rel="alternate" hreflang="${hreflang}" href="${href}">`);
  }
  for (const block of p.jsonLd ?? []) {
    head.push(`<script type="application/ld+json">${block}</script>`);
  }
  if (p.path === "/" && proof.meta) head.push(proof.meta);

  const body = [];
  for (const h1 of p.h1 ?? [p.name]) body.push(`<h1>${escape(h1)}</h1>`);
  body.push(`<p>${escape(descriptionOf(p) ?? p.name)}</p>`);
  const links = p.path === "/"
    ? PAGES.filter((q) => q.home).map((q) => [q.path, q.name])
    : [...(p.links ?? []), ["/", "Home"]];
  body.push("<ul>");
  for (const [href, text] of links) {
    body.push(`<li><a href="${escape(placeholders(href))}">${escape(text)}</a></li>`);
  }
  body.push("</ul>");
  for (const [src, alt] of p.images ?? []) {
    body.push(alt === null ? `<img src="${src}">` : `<img src="${src}" alt="${escape(alt)}">`);
  }
  const langAttribute = lang === null ? "" : ` lang="${lang}"`;
  return `<!doctype html>\n<html${langAttribute}>\n<head>\n${head.join("\n")}\n</head>\n` +
         `<body>\n${body.join("\n")}\n</body>\n</html>\n`;
}

function sitemapXml(origin, kind) {
  const urls = PAGES.filter((p) => p.sitemap === kind)
    .map((p) => `  <url><loc>${origin}${encodeURI(p.path)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
         `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n` +
         `</urlset>\n`;
}

function sitemapIndex(origin) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
         `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
         `  <sitemap><loc>${origin}/sitemap-pages.xml</loc></sitemap>\n` +
         `  <sitemap><loc>${origin}/sitemap-more.xml.gz</loc></sitemap>\n` +
         `</sitemapindex>\n`;
}

function expected() {
  const issues = SITE_ISSUES.map((ruleId) => ({ ruleId, path: "" }));
  for (const page of PAGES) {
    for (const ruleId of current(page).issues) issues.push({ ruleId, path: page.path });
  }
  const pages = PAGES.map((p) => ({
    path: p.path, sitemap: p.sitemap ?? null, home: Boolean(p.home),
    status: p.reset ? 0 : p.redirect ? p.redirect[1] : p.status ?? 200,
    redirect: p.redirect?.[0] ?? null, blocked: p.path.startsWith("/private/") &&
      p.path !== "/private/open.html",
  }));
  return { issues, pages, ...ports };
}

// Answers `body` with the validators of a page, or 304 when the request's validators match
// (RFC 9110 13.1.1-2: If-None-Match wins; If-Modified-Since only without it).
function sendPage(req, res, status, headers, body, modified) {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"`;
  const all = { ...headers, ETag: etag, "Last-Modified": modified.toUTCString() };
  const noneMatch = req.headers["if-none-match"];
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  const notModified = noneMatch !== undefined
    ? noneMatch.split(",").some((tag) => ["*", etag, `W/${etag}`].includes(tag.trim()))
    : !Number.isNaN(since) && modified.getTime() <= since;
  if (status === 200 && notModified) {
    res.writeHead(304, { ETag: etag, "Last-Modified": all["Last-Modified"] }).end();
    return;
  }
  res.writeHead(status, { ...all, "Content-Length": Buffer.byteLength(body) }).end(body);
}

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body),
                          ...headers }).end(body);
}

async function readBody(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return Buffer.concat(parts).toString("utf8");
}

function record(server, req, res) {
  const entry = { server, method: req.method, path: req.url, headers: { ...req.headers },
                  status: 0 };
  requests.push(entry);
  res.on("finish", () => { entry.status = res.statusCode; });
}

async function control(req, res, path) {
  if (path === "/__requests" && req.method === "GET") {
    return send(res, 200, "application/json", JSON.stringify(requests));
  }
  if (path === "/__requests" && req.method === "DELETE") {
    requests = [];
    return res.writeHead(204).end();
  }
  if (path === "/__proof" && req.method === "PUT") {
    proof = { file: null, meta: null, ...JSON.parse(await readBody(req)) };
    return res.writeHead(204).end();
  }
  if (path === "/__change" && req.method === "POST") {
    const { path: target } = JSON.parse(await readBody(req));
    const page = PAGES.find((p) => p.path === target);
    if (!page?.changed) return send(res, 404, "text/plain", `no changed variant of ${target}\n`);
    // A second later than anything served before, so If-Modified-Since cannot hide the change.
    state.set(target, { changed: true,
                        modified: new Date(Math.floor(Date.now() / 1000) * 1000 + 1000) });
    return res.writeHead(204).end();
  }
  if (path === "/__expected" && req.method === "GET") {
    return send(res, 200, "application/json", JSON.stringify(expected()));
  }
  return send(res, 404, "text/plain", `no control route ${req.method} ${path}\n`);
}

async function site(req, res) {
  const url = new URL(req.url, "http://fixture");
  const path = decodeURI(url.pathname);
  if (path.startsWith("/__")) return control(req, res, path);
  record("site", req, res);
  const origin = `http://${req.headers.host}`;
  if (path === "/robots.txt") {
    if (robotsMode === "500") return send(res, 500, "text/plain", "robots.txt is broken today\n");
    if (robotsMode === "404") return send(res, 404, "text/plain", "no robots.txt\n");
    return send(res, 200, "text/plain; charset=utf-8", ROBOTS.replaceAll("{ORIGIN}", origin));
  }
  if (path === "/sitemap_index.xml") return send(res, 200, "application/xml", sitemapIndex(origin));
  if (path === "/sitemap-pages.xml") {
    return send(res, 200, "application/xml", sitemapXml(origin, "plain"));
  }
  if (path === "/sitemap-more.xml.gz") {
    const body = gzipSync(sitemapXml(origin, "gzip"));
    res.writeHead(200, { "Content-Type": "application/gzip", "Content-Length": body.length });
    return res.end(body);
  }
  if (path === "/llms.txt") {
    return send(res, 200, "text/plain; charset=utf-8", LLMS_TXT.replaceAll("{ORIGIN}", origin));
  }
  if (path === "/.well-known/sightline-verification.txt") {
    return proof.file === null ? send(res, 404, "text/plain", "no proof published\n")
                               : send(res, 200, "text/plain", proof.file);
  }
  if (path.startsWith("/img/") && path.endsWith(".png")) {
    res.writeHead(200, { "Content-Type": "image/png", "Content-Length": PNG.length });
    return res.end(PNG);
  }
  const page = PAGES.find((p) => p.path === path);
  if (!page) return send(res, 404, "text/html", "<!doctype html><title>Not found</title>\n");
  if (page.reset) return req.socket.destroy();
  if (page.redirect) {
    return send(res, page.redirect[1], "text/html", "", { Location: page.redirect[0] });
  }
  if (page.status) {
    return send(res, page.status, "text/html; charset=utf-8",
                "<!doctype html><html lang=\"en\"><title>Gone</title><h1>Gone</h1></html>\n");
  }
  if (delayMs > 0) await sleep(delayMs);
  const headers = { "Content-Type": "text/html; charset=utf-8", ...(current(page).headers ?? {}) };
  if (path === "/") headers["Set-Cookie"] = "session=fixture-cookie; Path=/; HttpOnly";
  return sendPage(req, res, 200, headers, renderPage(page), state.get(path).modified);
}

function external(req, res) {
  record("external", req, res);
  const path = new URL(req.url, "http://fixture").pathname;
  if (path === "/ok") {
    return send(res, 200, "text/html", "<!doctype html><html lang=\"en\"><title>Elsewhere</title>" +
                                       "<h1>Another site</h1></html>\n");
  }
  return send(res, 404, "text/html", "<!doctype html><title>Not found</title>\n");
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
}

function handler(serve) {
  return (req, res) => serve(req, res).catch?.((error) => {
    if (!res.headersSent) send(res, 500, "text/plain", `fixture error: ${error.message}\n`);
  });
}

const siteServer = createServer(handler(site));
const externalServer = createServer(handler(async (req, res) => external(req, res)));
// A port nothing listens on: bound once to learn a free number, then closed.
const dead = createServer();
ports.deadPort = await listen(dead);
await new Promise((resolve) => dead.close(resolve));
ports.externalPort = await listen(externalServer);
ports.port = await listen(siteServer);
process.stdout.write(JSON.stringify(ports) + "\n");

function stop() {
  for (const server of [siteServer, externalServer]) {
    server.closeAllConnections?.();
    server.close();
  }
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

// The broken links of a site as linkinator (npm, an independent link checker) finds them, for the
// site-audit tests to compare with ServiceAuditBot's links/broken-* findings.
//
//   node_modules/.bin/node linkinator_broken.mjs <start URL>     (linkinator 8 needs Node 22)
//
// Crawls every page of the start URL's origin that links lead to (not sitemaps, not robots.txt)
// and checks every URL those pages reference (links, images, scripts, link elements, JSON-LD
// URLs). Prints one JSON line: {"checked": N, "broken": [{"url", "parent", "status"}]}, where
// status is 0 when no answer came (refused, dropped, too many redirects). Exits 0 whatever it
// found; 1 when linkinator itself failed.
import { LinkChecker } from "linkinator";

const start = process.argv[2];
if (!start) {
  console.error("usage: node linkinator_broken.mjs <start URL>");
  process.exit(2);
}

try {
  const result = await new LinkChecker().check({
    path: start,
    recurse: true,
    concurrency: 4,
    timeout: 10000,
    userAgent: "linkinator (Sightline site-audit cross-check)",
  });
  const broken = result.links
    .filter((link) => link.state === "BROKEN")
    .map((link) => ({ url: link.url, parent: link.parent ?? null, status: link.status ?? 0 }));
  process.stdout.write(JSON.stringify({ checked: result.links.length, broken }) + "\n");
} catch (error) {
  console.error(`linkinator failed: ${error?.stack ?? error}`);
  process.exit(1);
}

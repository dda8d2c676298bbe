// Differential oracle for audit/robots_txt: answers each case of a JSON file
// {"cases": [{"robots": "<body>", "agent": "<product token>", "url": "<absolute URL>"}, ...]}
// (argv[2]) with the npm package robots-parser, one JSON line {"allowed": true|false|null} per
// case, in order. null means robots-parser declined to answer (a URL it could not parse, or one
// on another origin than the robots.txt, which it derives from the case's own URL).
// robots-parser is not RFC 9309 to the letter; cases where it differs carry "rfc_differs".
import { readFileSync } from "node:fs";
import robotsParser from "robots-parser";

const file = process.argv[2];
if (!file) {
  console.error("usage: node robots_oracle.mjs <cases.json>");
  process.exit(2);
}

const { cases } = JSON.parse(readFileSync(file, "utf8"));
for (const c of cases) {
  let allowed = null;
  try {
    const robotsUrl = new URL("/robots.txt", c.url).href;
    const answer = robotsParser(robotsUrl, c.robots).isAllowed(c.url, c.agent);
    allowed = typeof answer === "boolean" ? answer : null;
  } catch {
    allowed = null;
  }
  process.stdout.write(JSON.stringify({ allowed }) + "\n");
}

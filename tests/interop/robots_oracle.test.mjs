// The robots.txt cases of tests/unit/site_audit/robots_cases.json (which Sightline's own parser
// answers in tests/unit/site_audit/robots_cases_test.cpp) answered by an implementation no one here
// wrote: npm robots-parser, through robots_oracle.mjs. It must agree with every case's expected
// verdict, except the cases marked "rfc_differs", where it must still disagree (so a note that no
// longer holds is noticed and removed).
//
//   node --test tests/interop/robots_oracle.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const casesFile = here("../unit/site_audit/robots_cases.json");
const { cases } = JSON.parse(readFileSync(casesFile, "utf8"));
const answers = execFileSync(process.execPath, [here("robots_oracle.mjs"), casesFile], {
  encoding: "utf8",
}).trim().split("\n").map((line) => JSON.parse(line));

test("the oracle answers every case once, in order", () => {
  assert.equal(answers.length, cases.length);
  assert.ok(cases.length > 50, "the case file holds the RFC 9309 and Google examples");
});

test("robots-parser agrees with every case not marked rfc_differs", () => {
  const disagreements = cases
    .map((c, i) => ({ ...c, got: answers[i].allowed }))
    .filter((c) => !c.rfc_differs && c.got !== c.expected)
    .map((c) => `${c.name}: expected ${c.expected}, robots-parser says ${c.got}`);
  assert.deepEqual(disagreements, []);
});

test("each rfc_differs note still describes a real difference", () => {
  const stale = cases
    .map((c, i) => ({ ...c, got: answers[i].allowed }))
    .filter((c) => c.rfc_differs && c.got === c.expected)
    .map((c) => `${c.name}: robots-parser now agrees (${c.got}); drop the note`);
  assert.deepEqual(stale, []);
});

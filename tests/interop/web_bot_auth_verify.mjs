// Verifies Web Bot Auth signatures with Cloudflare's `web-bot-auth` package (npm 0.1.3, an
// implementation no one here wrote), so the tests can show that ServiceAuditBot's signatures
// (audit/request_signer.cpp) pass a third-party verifier, not only Sightline's own.
//
//   node web_bot_auth_verify.mjs < INPUT.json
//
// INPUT: {"jwk": {"kty":"OKP","crv":"Ed25519","x":"..."},
//         "requests": [{"method": "GET", "url": "https://host/path?query",
//                       "headers": {"Signature": "...", "Signature-Input": "...",
//                                   "Signature-Agent": "..."}}, ...]}
// Prints one JSON line per request, in order: {"ok": true} or {"ok": false, "error": "why"}.
// Exits 0 whatever the verdicts (1 only for unreadable input), so callers compare verdicts.
//
// The package checks what its verify() checks: one signature per field, tag "web-bot-auth",
// created not in the future and expires not past (against this machine's clock, no skew), keyid
// present, and the Ed25519 signature over the base it rebuilds from `url` (for @authority:
// hostname, plus the port unless it is 80 or 443) and the headers. It does not match the keyid
// to the JWK: this script does, with the package's own RFC 7638 thumbprint (jwkToKeyID).
import { verify, jwkToKeyID, helpers } from "web-bot-auth";
import { verifierFromJWK } from "web-bot-auth/crypto";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

async function verifyOne(entry, verifier, keyid) {
  try {
    const request = new Request(entry.url, {
      method: entry.method ?? "GET",
      headers: entry.headers ?? {},
    });
    await verify(request, async (data, signature, params) => {
      if (params.keyid !== keyid) throw new Error(`unknown keyid ${params.keyid}`);
      return verifier(data, signature, params);
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: String(error?.message ?? error) };
  }
}

let input;
try {
  input = JSON.parse(await readStdin());
} catch (error) {
  process.stderr.write(`unreadable input: ${error.message}\n`);
  process.exit(1);
}
const verifier = await verifierFromJWK(input.jwk);
const keyid = await jwkToKeyID(input.jwk, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
for (const entry of input.requests ?? []) {
  process.stdout.write(JSON.stringify(await verifyOne(entry, verifier, keyid)) + "\n");
}

// An independent Web Bot Auth signer for the end-to-end tests: generates an Ed25519 key, serves
// its key directory over HTTPS on loopback, and signs requests with Cloudflare's `web-bot-auth`
// package (not Sightline's code).
//
//   node web_bot_auth_signer.mjs CERT.pem KEY.pem AUTHORITY PATH...
//
// Prints one JSON line — {"agent": "https://127.0.0.1:PORT", "signed": [{path, signature,
// signatureInput, signatureAgent}, ...]} — then serves until terminated.
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import { generateKeyPairSync } from "node:crypto";
import { signatureHeaders } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";

const [cert, key, authority, ...paths] = process.argv.slice(2);
const { privateKey } = generateKeyPairSync("ed25519");
const jwk = privateKey.export({ format: "jwk" });
const publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x };

const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
  if (req.url !== "/.well-known/http-message-signatures-directory") {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "Content-Type": "application/http-message-signatures-directory+json" });
  res.end(JSON.stringify({ keys: [publicJwk] }));
});

server.listen(0, "127.0.0.1", async () => {
  const agent = `https://127.0.0.1:${server.address().port}`;
  const signer = await signerFromJWK(jwk);
  const signed = [];
  for (const path of paths) {
    const signatureAgent = JSON.stringify(agent);  // the sf-string form
    const request = new Request(`https://${authority}${path}`, {
      headers: { "Signature-Agent": signatureAgent },
    });
    const now = new Date();
    const headers = await signatureHeaders(request, signer, {
      created: now,
      expires: new Date(now.getTime() + 10 * 60 * 1000),
    });
    signed.push({ path, signature: headers["Signature"],
                  signatureInput: headers["Signature-Input"], signatureAgent });
  }
  process.stdout.write(JSON.stringify({ agent, signed }) + "\n");
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));

// Scripted AI engines for the AI-visibility tests: answers chosen by the prompt asked, in the
// wire formats a run speaks — OpenAI Chat Completions (POST /v1/chat/completions, with
// url_citation annotations on the message), Perplexity (POST /chat/completions, OpenAI's shape
// plus top-level `citations` and `search_results`) and Anthropic Messages (POST /v1/messages,
// text blocks with web_search_result_location citations). Not streamed: a run never streams.
// Written from the providers' API references.
//
// Usage: node scripted_engine_server.mjs      Prints {"port": N} on one line.
// Control routes:
//   POST /__script {"answers": {"<prompt text>": [variant, ...]}, "judge": variant?}
//        replaces the script and forgets recorded requests. The n-th request for a prompt gets
//        variant n modulo the count (answers vary from run to run). A request whose system
//        message is the judge's gets `judge`.
//   GET  /__requests   [{path, headers, body}] since the script was set.
// A variant: {text, citations?: [{url, title}], usage?: {input, output}, status?, error?,
//             retryAfter?, stallMs?}
import { createServer } from "node:http";

let script = { answers: {}, judge: null };
let requests = [];
const served = new Map();  // prompt text → requests answered

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return Buffer.concat(parts).toString("utf8");
}

function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function usage(variant, dialect) {
  const input = variant.usage?.input ?? 120;
  const output = variant.usage?.output ?? 80;
  return dialect === "anthropic"
    ? { input_tokens: input, output_tokens: output }
    : { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}

function openAi(variant, model) {
  const message = { role: "assistant", content: variant.text };
  if (variant.citations?.length) {
    message.annotations = variant.citations.map((c) => ({
      type: "url_citation",
      url_citation: { url: c.url, title: c.title ?? "", start_index: 0, end_index: 0 },
    }));
  }
  return { id: "chatcmpl-engine", object: "chat.completion", created: 1, model,
           choices: [{ index: 0, message, finish_reason: "stop" }], usage: usage(variant, "openai") };
}

function perplexity(variant, model) {
  const reply = openAi({ ...variant, citations: [] }, model);
  reply.citations = (variant.citations ?? []).map((c) => c.url);
  reply.search_results = (variant.citations ?? []).map((c) => ({ title: c.title ?? "", url: c.url }));
  return reply;
}

function anthropic(variant, model) {
  const citations = (variant.citations ?? []).map((c) => ({
    type: "web_search_result_location", url: c.url, title: c.title ?? "",
    encrypted_index: "x", cited_text: "…",
  }));
  const content = [{ type: "text", text: variant.text }];
  if (citations.length) content.push({ type: "text", text: "", citations });
  return { id: "msg_engine", type: "message", role: "assistant", model, content,
           stop_reason: "end_turn", stop_sequence: null, usage: usage(variant, "anthropic") };
}

function systemOf(body) {
  if (typeof body.system === "string") return body.system;
  return (body.messages ?? []).find((m) => m.role === "system")?.content ?? "";
}

function promptOf(body) {
  const user = (body.messages ?? []).filter((m) => m.role === "user").at(-1);
  if (!user) return "";
  return typeof user.content === "string" ? user.content : user.content.map((b) => b.text).join("");
}

function choose(body) {
  if (systemOf(body).startsWith("You rate how an AI assistant")) return script.judge;
  const prompt = promptOf(body);
  const variants = script.answers[prompt];
  if (!variants?.length) return { status: 400, error: `no script for the prompt '${prompt}'` };
  const n = served.get(prompt) ?? 0;
  served.set(prompt, n + 1);
  return variants[n % variants.length];
}

async function answer(req, res, dialect) {
  const text = await readBody(req);
  let body;
  try { body = JSON.parse(text); } catch { body = {}; }
  requests.push({ path: req.url, headers: req.headers, body });
  const variant = choose(body);
  if (!variant) return sendJson(res, 500, { error: { message: "no judge scripted" } });
  if (variant.stallMs) await sleep(variant.stallMs);
  if (variant.status && variant.status >= 400) {
    const headers = variant.retryAfter !== undefined ? { "Retry-After": String(variant.retryAfter) } : {};
    return sendJson(res, variant.status, { error: { message: variant.error ?? "scripted failure" } }, headers);
  }
  const reply = dialect === "openai" ? openAi(variant, body.model)
    : dialect === "perplexity" ? perplexity(variant, body.model) : anthropic(variant, body.model);
  sendJson(res, 200, reply);
}

async function handle(req, res) {
  if (req.method === "POST" && req.url === "/__script") {
    script = { answers: {}, judge: null, ...JSON.parse(await readBody(req)) };
    requests = [];
    served.clear();
    return sendJson(res, 200, { ok: true });
  }
  if (req.method === "GET" && req.url === "/__requests") return sendJson(res, 200, requests);
  if (req.method === "POST" && req.url === "/v1/chat/completions") return answer(req, res, "openai");
  if (req.method === "POST" && req.url === "/chat/completions") return answer(req, res, "perplexity");
  if (req.method === "POST" && req.url === "/v1/messages") return answer(req, res, "anthropic");
  sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
}

const server = createServer(handle);
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + "\n");
});
process.on("SIGTERM", () => {
  server.closeAllConnections?.();
  process.exit(0);
});

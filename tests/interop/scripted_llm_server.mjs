// A scripted language model for the assistant's end-to-end tests: it speaks the OpenAI Chat
// Completions (POST /v1/chat/completions) and Anthropic Messages (POST /v1/messages) wire
// formats, streamed (SSE) when the request says `stream: true`, and answers each request with
// the next turn of the script the test posted. Written from the providers' API references.
//
// Usage: node scripted_llm_server.mjs [CERT.pem KEY.pem]   (HTTPS with a certificate)
// Prints {"port": N, "controlPort": M} on one line (the same port without a certificate).
// Control routes:
//   POST /__script   {"turns": [turn, ...]} replaces the script and forgets recorded requests
//   GET  /__requests the requests received since: [{path, headers, body}]
// A turn: {text?, toolCalls?: [{id, name, arguments}], usage?: {input, output},
//          status?, error?, retryAfter?,       (an error answer instead)
//          chunks? (pieces per text or arguments, default 3), delayMs? (between events),
//          stallMs? (before answering), malformed? (a broken chunk mid-stream)}
import { readFileSync } from "node:fs";
import { createServer as createHttp } from "node:http";
import { createServer as createHttps } from "node:https";

let turns = [];
let requests = [];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function pieces(text, count) {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

async function readBody(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return Buffer.concat(parts).toString("utf8");
}

function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function errorBody(dialect, turn) {
  const message = turn.error ?? "scripted failure";
  return dialect === "anthropic"
    ? { type: "error", error: { type: "api_error", message } }
    : { error: { message, type: "server_error", code: null } };
}

// ---- OpenAI Chat Completions
function openAiReply(turn, model) {
  const message = { role: "assistant", content: turn.text ?? null };
  if (turn.toolCalls?.length) {
    message.tool_calls = turn.toolCalls.map((c) => ({
      id: c.id, type: "function", function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: "chatcmpl-scripted", object: "chat.completion", created: 1, model,
    choices: [{ index: 0, message, finish_reason: turn.toolCalls?.length ? "tool_calls" : "stop" }],
    usage: usage(turn, "openai"),
  };
}

function usage(turn, dialect) {
  const input = turn.usage?.input ?? 100;
  const output = turn.usage?.output ?? 20;
  return dialect === "openai"
    ? { prompt_tokens: input, completion_tokens: output, total_tokens: input + output }
    : { input_tokens: input, output_tokens: output };
}

function* openAiChunks(turn, model) {
  const chunk = (delta, finish = null) => ({
    id: "chatcmpl-scripted", object: "chat.completion.chunk", created: 1, model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  yield chunk({ role: "assistant", content: "" });
  for (const piece of pieces(turn.text, turn.chunks ?? 3)) yield chunk({ content: piece });
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    yield chunk({ tool_calls: [{ index, id: call.id, type: "function",
                                 function: { name: call.name, arguments: "" } }] });
    for (const piece of pieces(call.arguments, turn.chunks ?? 3)) {
      yield chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }
  yield chunk({}, turn.toolCalls?.length ? "tool_calls" : "stop");
  yield { id: "chatcmpl-scripted", object: "chat.completion.chunk", created: 1, model,
          choices: [], usage: usage(turn, "openai") };
}

// ---- Anthropic Messages
function anthropicReply(turn, model) {
  const content = [];
  if (turn.text) content.push({ type: "text", text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    content.push({ type: "tool_use", id: call.id, name: call.name, input: JSON.parse(call.arguments) });
  }
  return {
    id: "msg_scripted", type: "message", role: "assistant", model, content,
    stop_reason: turn.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null,
    usage: usage(turn, "anthropic"),
  };
}

function* anthropicEvents(turn, model) {
  const u = usage(turn, "anthropic");
  yield ["message_start", { type: "message_start", message: {
    id: "msg_scripted", type: "message", role: "assistant", model, content: [],
    stop_reason: null, stop_sequence: null, usage: { input_tokens: u.input_tokens, output_tokens: 1 } } }];
  yield ["ping", { type: "ping" }];
  let index = 0;
  if (turn.text) {
    yield ["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }];
    for (const piece of pieces(turn.text, turn.chunks ?? 3)) {
      yield ["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }];
    }
    yield ["content_block_stop", { type: "content_block_stop", index }];
    index += 1;
  }
  for (const call of turn.toolCalls ?? []) {
    yield ["content_block_start", { type: "content_block_start", index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } }];
    for (const piece of pieces(call.arguments, turn.chunks ?? 3)) {
      yield ["content_block_delta", { type: "content_block_delta", index,
        delta: { type: "input_json_delta", partial_json: piece } }];
    }
    yield ["content_block_stop", { type: "content_block_stop", index }];
    index += 1;
  }
  yield ["message_delta", { type: "message_delta",
    delta: { stop_reason: turn.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: u.output_tokens } }];
  yield ["message_stop", { type: "message_stop" }];
}

async function answer(req, res, dialect) {
  const text = await readBody(req);
  let body;
  try { body = JSON.parse(text); } catch { body = text; }
  requests.push({ path: req.url, headers: req.headers, body });
  const turn = turns.shift();
  if (!turn) return sendJson(res, 500, errorBody(dialect, { error: "the script has no more turns" }));
  if (turn.stallMs) await sleep(turn.stallMs);
  if (turn.status && turn.status >= 400) {
    const headers = turn.retryAfter !== undefined ? { "Retry-After": String(turn.retryAfter) } : {};
    return sendJson(res, turn.status, errorBody(dialect, turn), headers);
  }
  const model = body.model;
  if (!body.stream) {
    return sendJson(res, 200, dialect === "openai" ? openAiReply(turn, model) : anthropicReply(turn, model));
  }
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  let sent = 0;
  const events = dialect === "openai"
    ? [...openAiChunks(turn, model)].map((c) => `data: ${JSON.stringify(c)}\n\n`)
    : [...anthropicEvents(turn, model)].map(([n, d]) => `event: ${n}\ndata: ${JSON.stringify(d)}\n\n`);
  if (dialect === "openai") events.push("data: [DONE]\n\n");
  for (const event of events) {
    if (res.destroyed) return;
    if (turn.malformed && sent === 2) res.write("data: {not json\n\n");
    // Split each event in two writes, so that the client sees events cut anywhere.
    const cut = Math.floor(event.length / 2);
    res.write(event.slice(0, cut));
    if (turn.delayMs) await sleep(turn.delayMs / 2);
    res.write(event.slice(cut));
    if (turn.delayMs) await sleep(turn.delayMs / 2);
    sent += 1;
  }
  res.end();
}

async function handle(req, res) {
  if (req.method === "POST" && req.url === "/__script") {
    turns = JSON.parse(await readBody(req)).turns ?? [];
    requests = [];
    return sendJson(res, 200, { ok: true });
  }
  if (req.method === "GET" && req.url === "/__requests") return sendJson(res, 200, requests);
  if (req.method === "POST" && req.url === "/v1/chat/completions") return answer(req, res, "openai");
  if (req.method === "POST" && req.url === "/v1/messages") return answer(req, res, "anthropic");
  sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
}

const [cert, key] = process.argv.slice(2);
// With a certificate the model answers over HTTPS; the test's control routes stay plain HTTP.
const control = createHttp(handle);
const server = cert ? createHttps({ cert: readFileSync(cert), key: readFileSync(key) }, handle) : control;
control.listen(0, "127.0.0.1", () => {
  const announce = () => process.stdout.write(JSON.stringify({
    port: server.address().port, controlPort: control.address().port }) + "\n");
  if (server === control) announce(); else server.listen(0, "127.0.0.1", announce);
});
process.on("SIGTERM", () => {
  for (const s of new Set([server, control])) s.closeAllConnections?.();
  process.exit(0);
});

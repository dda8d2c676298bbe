// The assistant view in a real browser against the real server and a scripted language model
// (tests/interop/scripted_llm_server.mjs, OpenAI wire format, streamed): an answer streams in
// with its tool call and the report drawn as a chart; a proposed change waits for approval and
// approving it goes on; cancel stops an answer; deleting every conversation empties the list;
// without a provider the page says how to set one.
// Run: node --test tests/interop/dashboard/assistant.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { rest, screenshot, start } from './harness.mjs';

const here = new URL('.', import.meta.url).pathname;
const day = 86_400_000;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

let model;       // the scripted model: { child, port, controlPort }
let context;     // the server, browser and owner
let page;

/** Starts the scripted model on loopback. */
async function startModel() {
  const child = spawn(process.execPath, [join(here, '../scripted_llm_server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((done, fail) => {
    createInterface({ input: child.stdout }).once('line', done);
    child.once('exit', (code) => fail(new Error(`the scripted model exited (${code})`)));
  });
  return { child, ...JSON.parse(line) };
}

async function script(turns) {
  const response = await fetch(`http://127.0.0.1:${model.controlPort}/__script`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ turns }),
  });
  assert.equal(response.status, 200);
}

before(async () => {
  mkdirSync(process.env.SIGHTLINE_SCREENSHOT_DIR ?? join(here, '../../../build/screenshots'), { recursive: true });
  model = await startModel();
  context = await start({ name: 'assistant', serveArgs: ['--llm-provider', 'openai', '--llm-base-url', `http://127.0.0.1:${model.port}/v1`, '--llm-model', 'scripted'] });
  // Three visitors' page views this week, so the report has figures.
  const now = Date.now();
  const events = [];
  for (let v = 0; v < 3; v += 1) {
    events.push({ event: 'screen_view', channel: 'web', anonymous_id: randomUUID(), timestamp: now - v * 3_600_000 - 600_000,
      tags: { $url: `https://shop.example/p${v}` } });
  }
  const seeded = await context.api('POST', '/sdk/v1/logs/batch', { body: { events }, headers: { 'x-sdk-key': context.boot.sdkKey } });
  assert.equal(seeded.status, 202, JSON.stringify(seeded.body));
  page = await context.newPage({ locale: 'en-US' });
  await context.signIn(page);
});

after(async () => {
  await context?.stop();
  model?.child.kill('SIGTERM');
});

const log = () => page.getByRole('log', { name: 'Messages' });
const input = () => page.getByLabel('Ask the assistant');
const assistantUrl = () => `${context.base}/${context.orgSlug}/${context.projectId}/assistant`;

test('a question streams an answer, with the tool call and its report as a chart', async () => {
  const from = isoDay(Date.now() - 6 * day);
  const to = isoDay(Date.now());
  await script([
    { toolCalls: [{ id: 'call_web', name: 'get_web_analytics', arguments: JSON.stringify({ from, to }) }] },
    // Slow enough to see the text arrive piece by piece.
    { text: 'You had 3 visitors in the last 7 days.', chunks: 6, delayMs: 300 },
  ]);
  await page.goto(assistantUrl());
  await page.getByRole('heading', { level: 1, name: 'Assistant' }).waitFor();
  // Records every text the draft bubble shows while the answer streams.
  await page.evaluate(() => {
    window.__drafts = [];
    new MutationObserver(() => {
      const draft = document.querySelector('.chat-message.is-draft .chat-text');
      if (draft && window.__drafts.at(-1) !== draft.textContent) window.__drafts.push(draft.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await input().fill('How many visitors this week?');
  await input().press('Enter');
  // The question creates a conversation and moves to its address.
  await page.waitForURL(/\/assistant\/[A-Za-z0-9_-]{8,}$/);
  await log().getByRole('article', { name: 'You' }).getByText('How many visitors this week?').waitFor();
  // The tool call with its report, then the text as it is written, then the stored answer.
  const tool = log().getByRole('article', { name: 'Operation get_web_analytics' });
  await tool.waitFor();
  await tool.locator('[data-metric="visitors"]').waitFor({ timeout: 15_000 });
  assert.equal(await tool.locator('[data-metric="visitors"]').textContent(), '3');
  await log().getByRole('article', { name: 'Assistant', exact: true }).getByText('You had 3 visitors in the last 7 days.').waitFor({ timeout: 15_000 });
  // The text streamed (text_delta) into a draft bubble, replaced by the stored answer. The
  // server currently delivers a turn's deltas in one burst at its end, so the draft may be
  // rendered only for an instant: recorded by the observer, not required.
  assert.equal(await log().getByRole('article', { name: 'Assistant (writing)' }).count(), 0);
  const drafts = await page.evaluate(() => window.__drafts ?? []);
  if (drafts.length) assert.ok(drafts.every((text) => 'You had 3 visitors in the last 7 days.'.startsWith(text)), drafts.join(' | '));
  assert.match(await tool.textContent(), /Done/);
  await tool.getByText('Arguments').click();
  assert.match(await tool.textContent(), new RegExp(from));
  // The conversation is listed under its question.
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /How many visitors this week\?/ }).waitFor();
  await screenshot(page, 'assistant');
  // Reloading shows the stored conversation the same way.
  await page.reload();
  await log().getByText('You had 3 visitors in the last 7 days.').waitFor();
  await log().getByRole('article', { name: 'Operation get_web_analytics' }).locator('[data-metric="visitors"]').waitFor();
});

test('a proposed change waits for approval, and approving it goes on', async () => {
  await script([
    { text: 'I can rename it.', toolCalls: [{ id: 'w1', name: 'update_project', arguments: JSON.stringify({ name: 'Renamed shop' }) }] },
    { text: 'Renamed.' },
  ]);
  await input().fill('Rename the project to Renamed shop');
  await input().press('Enter');
  const card = log().getByRole('article', { name: 'Operation update_project' });
  await card.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 15_000 });
  assert.match(await card.textContent(), /Waits for your approval/);
  assert.match(await card.textContent(), /Renamed shop/);
  const before = await context.api('GET', `/${context.orgSlug}/projects/${context.projectId}`, { headers: { Authorization: `Bearer ${context.boot.privateApiKey}` } });
  assert.equal(before.body.name, 'Shop', 'nothing changes before the approval');
  await screenshot(page, 'assistant-approval');
  await card.getByRole('button', { name: 'Approve' }).click();
  await log().getByText('Renamed.', { exact: true }).waitFor({ timeout: 15_000 });
  await card.getByText('Done').waitFor();
  const after = await context.api('GET', `/${context.orgSlug}/projects/${context.projectId}`, { headers: { Authorization: `Bearer ${context.boot.privateApiKey}` } });
  assert.equal(after.body.name, 'Renamed shop');
});

test('cancel stops a running answer', async () => {
  // The model stays silent for 20 s; cancel must not wait for it.
  await script([{ text: 'Too late.', stallMs: 20_000 }]);
  await input().fill('Something slow');
  await input().press('Enter');
  const cancel = page.getByRole('button', { name: 'Cancel' });
  await cancel.waitFor();
  const started = Date.now();
  await cancel.click();
  await page.getByText('The answer was stopped.').waitFor({ timeout: 8000 });
  assert.ok(Date.now() - started < 8000);
  // The stream may take a moment to close after the notice; the button goes with it.
  await cancel.waitFor({ state: 'detached', timeout: 5000 });
  assert.equal(await log().getByText('Too late.').count(), 0);
  const id = new URL(page.url()).pathname.split('/').pop();
  const stored = await context.api('GET', `/${context.orgSlug}/projects/${context.projectId}/agent/conversations/${id}`, { headers: { Authorization: `Bearer ${context.boot.privateApiKey}` } });
  assert.equal(stored.body.status, 'idle');
});

test('deleting every conversation empties the list', async () => {
  // A second conversation, from the button.
  const list = page.getByRole('navigation', { name: 'Conversations' });
  const current = page.url();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.waitForURL((url) => url.href !== current && /\/assistant\/[A-Za-z0-9_-]{8,}$/.test(url.pathname));
  await list.getByRole('link', { name: /New conversation/ }).waitFor();
  assert.equal(await list.locator('[aria-current="page"]').textContent().then((text) => /New conversation/.test(text)), true);
  assert.equal(await list.getByRole('link').count(), 2);
  await page.getByRole('button', { name: 'Delete all conversations' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete all conversations?' });
  await dialog.getByRole('button', { name: 'Delete all' }).click();
  await list.getByText('No conversations yet.').waitFor();
  await page.waitForURL(/\/assistant$/);
  const left = await context.api('GET', `/${context.orgSlug}/projects/${context.projectId}/agent/conversations`, { headers: { Authorization: `Bearer ${context.boot.privateApiKey}` } });
  assert.deepEqual(left.body.conversations, []);
  assert.deepEqual(page.problems, []);
});

test('without a provider the page says the assistant is not set up', async () => {
  const plain = await start({ name: 'assistant-off' });
  try {
    const offPage = await plain.newPage({ locale: 'en-US' });
    await plain.signIn(offPage);
    await offPage.goto(`${plain.base}/${plain.orgSlug}/${plain.projectId}/assistant`);
    await offPage.getByText('The assistant is not set up on this server.').waitFor();
    assert.equal(await offPage.getByLabel('Ask the assistant').isDisabled(), true);
    await screenshot(offPage, 'assistant-not-configured');
    assert.deepEqual(offPage.problems, []);
  } finally {
    await plain.stop();
  }
});

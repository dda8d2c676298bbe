// The command-line client end to end, as a person uses it: `sightline login` typed into a
// terminal (tmux: keys sent, the screen read), the code it shows approved in Chromium on the
// dashboard's /cli page, then commands typed in the same terminal with the stored login — a
// table on the screen, `--json` equal to the REST answer — and `sightline logout`.
// Run (from tests/interop): node --test dashboard/cli_terminal.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { binary, screenshot, start } from './harness.mjs';

let ctx;
let page;
let socket;
let config;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-J', '-t', 'cli');
/** Types a line into the terminal, as a person would, and presses Enter. */
function type(line) {
  tmux('send-keys', '-t', 'cli', '-l', line);
  tmux('send-keys', '-t', 'cli', 'Enter');
}

async function waitForScreen(pattern, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = screen();
    const match = text.match(pattern);
    if (match) return match;
    if (Date.now() > deadline) assert.fail(`the terminal never showed ${pattern}:\n${text}`);
    await sleep(200);
  }
}

before(async () => {
  ctx = await start({ name: 'dashboard-cli-terminal' });
  page = await ctx.newPage();
  await ctx.signIn(page);
  socket = `sightline-test-${ctx.unique}`;
  config = join(ctx.work, 'cli-config');
  mkdirSync(config);
  // A shell of its own: no rc files, the login kept under the test's directory.
  tmux('new-session', '-d', '-s', 'cli', '-x', '200', '-y', '50', '-e', `SIGHTLINE_CONFIG_DIR=${config}`,
    '-e', 'NO_COLOR=1', 'bash --norc --noprofile');
  await sleep(300);
});
after(async () => {
  try { tmux('kill-server'); } catch { /* already gone */ }
  await ctx?.stop();
});

test('log in from the terminal, approve in the browser, then run commands with the login', async () => {
  type(`${binary} login --server ${ctx.base} --no-browser`);
  const [, code] = await waitForScreen(/one-time code: ([A-Z]{4}-[A-Z]{4})/);
  const [url] = await waitForScreen(/http:\/\/\S+\/cli\?code=[A-Z-]+/);
  assert.ok(url.endsWith(code));

  await page.goto(url);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Review the sign-in' }).waitFor();
  assert.ok((await page.getByRole('main').textContent()).includes(code));
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('heading', { name: 'Signed in — return to your terminal' }).waitFor();
  await screenshot(page, 'cli-terminal-approved');

  await waitForScreen(/✓ Logged in to \S+, organization \S+/);
  const file = join(config, 'credentials.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);

  // A table for people on the screen; --json is the REST answer, for scripts.
  type(`${binary} web-analytics get`);
  await waitForScreen(/metrics\s+value\s+previous\s+absoluteChange\s+change[\s\S]*visitors\s/);
  type(`${binary} web-analytics get --json > ${join(ctx.work, 'summary.json')}; echo "exit=$?"`);
  await waitForScreen(/exit=0/);
  const printed = JSON.parse(readFileSync(join(ctx.work, 'summary.json'), 'utf8'));
  const rest = await ctx.api('GET', `/web-analytics?projectId=${ctx.projectId}`, { token: ctx.boot.privateApiKey });
  assert.equal(rest.status, 200);
  assert.deepEqual(printed, rest.body);
  type(`${binary} auth status`);
  await waitForScreen(new RegExp(`organization:\\s+${ctx.orgSlug}`));

  type(`${binary} logout; echo "logout=$?"`);
  await waitForScreen(/logout=0/);
  type(`${binary} web-analytics get; echo "after=$?"`);
  await waitForScreen(/not logged in[\s\S]*after=3/);
  const sessions = await ctx.api('GET', '/users/me/cli-sessions', {
    token: (await ctx.api('POST', '/auth/login', { body: ctx.owner })).body.accessToken,
  });
  assert.deepEqual(sessions.body.sessions, [], 'logout revoked the login on the server');
});

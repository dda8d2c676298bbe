// The dashboard's browser tests: one real `sightline serve` (SQLite in a fresh temporary data
// directory, or PostgreSQL when SIGHTLINE_TEST_PG_DSN is set — then a fresh schema-free database
// is not possible, so the tests use unique organization names), bootstrapped with an owner,
// organization and project by `sightline admin bootstrap`, and Debian's Chromium driven by
// playwright-core at http://localhost:<port>/ (localhost, so WebAuthn works). Everything started
// here is stopped, and every temporary directory removed, by stop().
//
// Environment: SIGHTLINE_BINARY (default ../../../build/sightline), SIGHTLINE_TEST_PG_DSN,
// SIGHTLINE_SCREENSHOT_DIR (default build/screenshots), CHROMIUM (default /usr/bin/chromium),
// SIGHTLINE_DEBUG_PAGES=1 (print every page's navigations and refused responses to stderr).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { generate } from 'otplib';
import { freePort } from '../ports.mjs';

const here = new URL('.', import.meta.url).pathname;
const repo = resolve(here, '../../..');
export const binary = resolve(process.env.SIGHTLINE_BINARY ?? join(repo, 'build/sightline'));
export const screenshotDir = resolve(process.env.SIGHTLINE_SCREENSHOT_DIR ?? join(repo, 'build/screenshots'));
const store = process.env.SIGHTLINE_TEST_PG_DSN ? 'postgresql' : 'sqlite';

async function waitForReady(logPath, child) {
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`sightline exited:\n${readFileSync(logPath, 'utf8')}`);
    try {
      if (readFileSync(logPath, 'utf8').includes('"msg":"ready"')) return;
    } catch { /* not written yet */ }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`sightline did not start:\n${readFileSync(logPath, 'utf8')}`);
}

/**
 * Starts the server and a browser. Returns { base, api, owner, project, browser, newPage, stop }.
 * A unique suffix keeps organizations and users apart between runs on one PostgreSQL database.
 */
export async function start({ name = 'dashboard', serveArgs = [] } = {}) {
  const work = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), `sightline-${name}-`));
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const storeArgs = store === 'postgresql' ? ['--database-url', process.env.SIGHTLINE_TEST_PG_DSN] : ['--data', join(work, 'data')];
  const owner = { email: `owner-${unique}@acme.test`, password: 'correct horse battery staple' };
  const orgName = `Acme ${unique}`;
  const boot = JSON.parse(execFileSync(binary, ['admin', 'bootstrap', ...storeArgs, '--org', orgName, '--project', 'Shop',
    '--email', owner.email, '--password', owner.password], { encoding: 'utf8' }));
  // PostgreSQL has no default key for the secrets the server must read back (AI-visibility
  // engines' API keys): give the test server one of its own.
  const keyArgs = [];
  if (store === 'postgresql') {
    writeFileSync(join(work, 'encryption.key'), randomBytes(32).toString('hex'), { mode: 0o600 });
    keyArgs.push('--encryption-key-file', join(work, 'encryption.key'));
  }
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const logPath = join(work, 'server.log');
  const { openSync } = await import('node:fs');
  const log = openSync(logPath, 'w');
  const server = spawn(binary, ['serve', '--listen', `127.0.0.1:${port}`, '--public-url', base, ...storeArgs,
    // Every page load refreshes its session anonymously, and all of them come from 127.0.0.1: the
    // per-address window for anonymous calls (60 a minute by default) is not what these test.
    '--public-rate-limit', '100000',
    '--rollup-interval', '0', '--bot-ranges-refresh', '0', ...keyArgs, ...serveArgs], { stdio: ['ignore', log, log] });
  let browser;
  const stop = async () => {
    await browser?.close().catch(() => {});
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((done) => { server.once('exit', done); setTimeout(done, 5000); });
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    await waitForReady(logPath, server);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
  } catch (error) {
    await stop();
    throw error;
  }
  mkdirSync(screenshotDir, { recursive: true });
  const context = { base, owner, orgName, boot, orgSlug: boot.orgSlug, projectId: boot.projectId, store, storeArgs, work, unique, browser, stop };
  context.api = (method, path, { token, body, headers } = {}) => rest(base, method, path, { token, body, headers });
  context.newPage = async (options) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
    const problems = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // CSP violations and script errors show up here; the tests assert there are none.
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(message.text());
    });
    page.problems = problems;
    if (process.env.SIGHTLINE_DEBUG_PAGES) {
      // Tracing a flaky page: every navigation and every refused or redirected response.
      page.on('response', (response) => {
        if (response.status() >= 300) console.error('page:', response.status(), response.request().method(), response.url());
      });
      page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) console.error('page: at', frame.url()); });
    }
    return page;
  };
  context.signIn = (page, credentials = owner) => signIn(context, page, credentials);
  return context;
}

/** A REST call under /api: { status, body }. */
export async function rest(base, method, path, { token, body, headers = {} } = {}) {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = text; }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** Signs in through /login with email and password (no second factor). */
async function signIn(context, page, { email, password }) {
  await page.goto(`${context.base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The header: "Sign out" on a wide screen; on a phone it is folded into the menu, behind "Menu".
  await page.locator('header.topbar button:visible', { hasText: /^(Sign out|Menu)$/ }).first().waitFor();
}

/** A TOTP code for a base32 secret, from otplib (not our own implementation). */
export async function totp(secret, offsetSteps = 0) {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
}

/** Saves a full-page screenshot as <dir>/<store>-<name>.png. */
export async function screenshot(page, name) {
  await page.screenshot({ path: join(screenshotDir, `${store}-${name}.png`), fullPage: true });
}

/** Waits until the next 30-second TOTP step, so a code is not refused as already used. */
export async function nextTotpStep() {
  const wait = 30_000 - (Date.now() % 30_000) + 200;
  await new Promise((done) => setTimeout(done, wait));
}

/**
 * What a page shows badly: a page wider than the window (it scrolls sideways), text cut off
 * (an ellipsis, or a clamp, with more to read) that no tooltip holds whole, and a table cell
 * whose content spills over its neighbours (wider than the cell, nothing clipping it).
 */
export async function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const over = document.documentElement.scrollWidth - window.innerWidth;
    if (over > 0) problems.push(`the page is ${over}px wider than the window`);
    for (const element of document.querySelectorAll('body *')) {
      if (element.closest('.visually-hidden') || element.closest('[hidden]')) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const clamp = style.webkitLineClamp && style.webkitLineClamp !== 'none';
      if (style.textOverflow !== 'ellipsis' && !clamp) continue;
      const cut = element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
      if (cut && !element.closest('[title]')) problems.push(`cut without a tooltip: "${element.textContent.trim().slice(0, 60)}"`);
    }
    for (const cell of document.querySelectorAll('td, th')) {
      if (cell.closest('.visually-hidden') || cell.closest('[hidden]') || cell.getClientRects().length === 0) continue;
      const style = getComputedStyle(cell);
      if (style.overflowX !== 'visible' || cell.scrollWidth <= cell.clientWidth + 1) continue;
      problems.push(`spills out of its cell: "${cell.textContent.trim().slice(0, 60)}"`);
    }
    return problems;
  });
}

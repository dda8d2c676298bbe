// The browser half of bench/dashboard_bench.sh: signs in through the dashboard's own sign-in
// page, then loads the view SIGHTLINE_RUNS times (after one warm-up load) and prints, per load,
// the `sightline:view-ready` mark's time since the navigation started, then the median and the
// worst, and the JavaScript the view loaded (compressed bytes).
import { createRequire } from 'node:module';

// playwright-core is installed with the test tools (tests/interop, script/bootstrap --test).
const require = createRequire(new URL('../tests/interop/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const base = process.env.SIGHTLINE_URL;
const view = process.env.SIGHTLINE_VIEW;
const runs = Number(process.env.SIGHTLINE_RUNS ?? 11);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(process.env.SIGHTLINE_EMAIL);
  await page.getByLabel('Password').fill(process.env.SIGHTLINE_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));

  const readyAfter = async () => {
    await page.goto(`${base}${view}`);
    await page.waitForFunction(() => performance.getEntriesByName('sightline:view-ready').length > 0,
      null, { timeout: 60000 });
    return page.evaluate(() => {
      const ready = performance.getEntriesByName('sightline:view-ready')[0].startTime;
      const scripts = performance.getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'));
      const compressed = scripts.reduce((total, entry) => total + entry.encodedBodySize, 0);
      return { ready, scripts: scripts.length, compressed };
    });
  };
  await readyAfter();  // warm-up: the server's caches
  const devtools = await page.context().newCDPSession(page);
  // Cold: every file fetched again (a first visit); warm: the hashed files from the HTTP cache.
  for (const cold of [true, false]) {
    await devtools.send('Network.setCacheDisabled', { cacheDisabled: cold });
    const times = [];
    let last;
    for (let i = 0; i < runs; i += 1) {
      last = await readyAfter();
      times.push(last.ready);
    }
    times.sort((a, b) => a - b);
    const label = cold ? 'cold (no browser cache)' : 'warm (browser cache)';
    console.log(`${label}: view ready after median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, ` +
      `worst ${times.at(-1).toFixed(1)} ms over ${runs} loads; ${last.scripts} scripts, ` +
      `${last.compressed} bytes of them compressed`);
  }
} finally {
  await browser.close();
}

// The browser half of bench/dashboard_bench.sh: signs in through the dashboard's own sign-in
// page, then loads the view SIGHTLINE_VIEW and the reference view SIGHTLINE_REFERENCE_VIEW
// SIGHTLINE_RUNS times each, alternately (after one warm-up load of each), and prints for each the
// median and the worst time from the navigation's start to the `sightline:view-ready` mark, the
// view's median as a ratio of the reference's, and the JavaScript the view loaded (compressed
// bytes). The reference is the same page over a period without events: the shell, the scripts,
// the session and the drawing, everything but the data. Alternating keeps the machine's drift
// out of the ratio; absolute times differ between machines (and VMs of one type) by 2x.
import { createRequire } from 'node:module';

// playwright-core is installed with the test tools (tests/interop, script/bootstrap --test).
const require = createRequire(new URL('../tests/interop/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const base = process.env.SIGHTLINE_URL;
const view = process.env.SIGHTLINE_VIEW;
const reference = process.env.SIGHTLINE_REFERENCE_VIEW;
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

  const readyAfter = async (address) => {
    await page.goto(`${base}${address}`);
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
  await readyAfter(reference);  // warm-up: the server's caches
  await readyAfter(view);
  const devtools = await page.context().newCDPSession(page);
  const median = (times) => times[Math.floor(times.length / 2)];
  // Cold: every file fetched again (a first visit); warm: the hashed files from the HTTP cache.
  for (const cold of [true, false]) {
    await devtools.send('Network.setCacheDisabled', { cacheDisabled: cold });
    const times = [];
    const floor = [];
    let last;
    for (let i = 0; i < runs; i += 1) {
      floor.push((await readyAfter(reference)).ready);
      last = await readyAfter(view);
      times.push(last.ready);
    }
    times.sort((a, b) => a - b);
    floor.sort((a, b) => a - b);
    const label = cold ? 'cold (no browser cache)' : 'warm (browser cache)';
    console.log(`${label}: view ready after median ${median(times).toFixed(1)} ms, ` +
      `worst ${times.at(-1).toFixed(1)} ms over ${runs} loads; reference (no events) median ` +
      `${median(floor).toFixed(1)} ms, worst ${floor.at(-1).toFixed(1)} ms; ratio ` +
      `${(median(times) / median(floor)).toFixed(2)}x; ${last.scripts} scripts, ` +
      `${last.compressed} bytes of them compressed`);
  }
} finally {
  await browser.close();
}

// Benchmark (never asserted in tests): a cold first load of a page in Chromium with the
// network throttled to DevTools' "Fast 4G" profile (9 Mbit/s down and 1.5 Mbit/s up, each
// x0.9, and 165 ms latency), no cache and no service worker: from navigation to the page
// ready for a person (its first control on screen). The release build is served by
// scripts/serve-dist.mjs (gzip, as static hosts send it).
// Usage: node scripts/bench-load.mjs [runs] [path] [selector]
//   (defaults: 5 runs of /study?study=pilot until the consent button shows)
import { chromium } from 'playwright-core';
import { staticServer } from './serve-dist.mjs';

const runs = Number(process.argv[2] ?? 5);
const path = process.argv[3] ?? '/study?study=pilot';
const ready = process.argv[4] ?? '[data-testid="consent-accept"]';
const fast4g = {
  offline: false,
  downloadThroughput: ((9 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((1.5 * 1000 * 1000) / 8) * 0.9,
  latency: 60 * 2.75,
};

const server = staticServer('dist');
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const times = [];
let bytes = 0;
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', fast4g);
  let received = 0;
  cdp.on('Network.loadingFinished', (e) => (received += e.encodedDataLength));
  const t0 = Date.now();
  await page.goto(`${base}${path}`, { waitUntil: 'commit' });
  await page.waitForSelector(ready, { timeout: 60000 });
  times.push(Date.now() - t0);
  bytes = received;
  await context.close();
}
await browser.close();
server.close();
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`cold load of ${path} at Fast 4G, ${runs} runs: median ${median} ms (min ${times[0]}, max ${times.at(-1)}); ${(bytes / 1024).toFixed(1)} KB over the wire`);

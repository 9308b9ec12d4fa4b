// The load benchmark (issue 31; never asserted in tests, timings are noisy): how long a
// person waits for each page of the release build in dist/, served by scripts/serve-dist.mjs
// as a static host serves it (brotli to browsers that accept it when the build has .br files,
// else gzip; hashed files immutable, the rest revalidated), in Chromium with the network
// throttled through the DevTools protocol (Network.emulateNetworkConditions) to DevTools'
// own presets:
//   Fast 4G: 9 Mbit/s down, 1.5 Mbit/s up, 60 ms RTT;
//   Slow 4G: 1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT (Lighthouse's mobile setting).
// DevTools applies a round trip's latency once per request, so its presets scale the RTT up to
// stand for the round trips a real request makes (connection, TLS, request) and the bandwidth
// down by 0.9: 165 ms and 562.5 ms a request, as Chrome's DevTools and Lighthouse apply them.
// No CPU throttling; no service worker (blocked, so the HTTP cache is what a second visit has).
//
// Every page is opened cold (a fresh browser context, the cache disabled) and warm (a second
// visit in the same context, in a new tab, the cache enabled), and timed from navigation
// start to its first interactive element on screen (checked every frame in the page); the
// median of N runs. Also measured in each cold visit: the first paint (first-contentful-paint)
// and, on the people's pages, the first screen a person can read: the front door's doors,
// /play's and /demo's heading with what the page is about to show, the study's title and
// loading line (the static shell, or the app if it came first).
//
// The targets (docs/DECISIONS.md, sixth round; README's budgets): every people's page shows
// its first screen within 1 s on Slow 4G; the people's pages are ready cold within 1 s on
// Fast 4G; warm within 0.3 s on a gzip host (GitHub Pages); and a tripwire, not a target,
// on the wasm pages' ready time on Slow 4G: 3.2 s with brotli, 3.7 s gzip only.
//
// Two hosts: by default a host that serves the build's brotli files (and revalidates the
// pages, as `shapemaze serve` does); with --gzip-only one that behaves as GitHub Pages does
// (our Pages workflow): gzip only, and `Cache-Control: max-age=600` on every file.
//
// Prints a markdown table and a summary row, and with --write replaces the section between
// the markers <!-- load-table:begin --> and <!-- load-table:end --> in docs/size.md
// (<!-- load-table-gzip:begin --> and <!-- load-table-gzip:end --> with --gzip-only).
// Usage: node scripts/bench-load.mjs [--runs 5] [--profiles fast,slow] [--pages /play,/demo]
//          [--dist dist] [--gzip-only] [--label TEXT] [--write [FILE]]
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { staticServer } from './serve-dist.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = args[i + 1];
  return v === undefined || v.startsWith('--') ? true : v;
};
// `node scripts/bench-load.mjs 5` (the old form) still means 5 runs.
const runs = Number(opt('runs', /^\d+$/.test(args[0] ?? '') ? args[0] : 5));
const dist = opt('dist', 'dist');
const gzipOnly = Boolean(opt('gzip-only', false));
const label = opt('label', '');
const written = opt('write', false);
const docFile = written === true ? 'docs/size.md' : written;

/** DevTools' presets (Chrome's front end, and Lighthouse's `mobileSlow4G` for Slow 4G). */
const PROFILES = {
  fast: {
    name: 'Fast 4G',
    conditions: { offline: false, latency: 60 * 2.75, downloadThroughput: ((9e6 / 8) * 0.9), uploadThroughput: ((1.5e6 / 8) * 0.9) },
  },
  slow: {
    name: 'Slow 4G',
    conditions: { offline: false, latency: 150 * 3.75, downloadThroughput: ((1.6e6 / 8) * 0.9), uploadThroughput: ((750e3 / 8) * 0.9) },
  },
};

// Every page (crates/web/src/shell.rs; `target`: the people's pages, whose targets these are)
// and its first interactive element.
// `/demo` counts twice: its first control (the trial picker) shows at once, the replay it is
// opened for once the bundled trial has been fetched.
// `first`: the people's pages' first screen (the static shell's, or the app's when it came
// first); `wasm`: the pages a person can use only once the wasm is there (the tripwire's).
const PAGES = [
  { row: '/', path: '/', ready: '[data-testid="home-doors"] a', what: 'the first door link', target: true, first: '[data-testid="home-doors"] a' },
  { row: '/play', path: '/play', ready: '[data-testid="maze"] [data-testid="cell-0-0"]', what: 'the maze', target: true, wasm: true, first: '#shell-about:not([hidden]), [data-testid="maze"]' },
  { row: '/model', path: '/model', ready: '[data-testid="agent"]', what: 'the player picker' },
  { row: '/demo', path: '/demo', ready: '[data-testid="demo-trial"]', what: 'the trial picker', target: true, wasm: true, first: '#shell-about:not([hidden]), [data-testid="demo-trial"]' },
  { row: '/demo (replay)', path: '/demo', ready: '[data-testid="replay-back"]', what: "the replay's first button", target: true, wasm: true },
  { row: '/experiment', path: '/experiment', ready: '[data-testid="design-name"]', what: "the design's name" },
  { row: '/results', path: '/results', ready: '[data-testid="results-filter"]', what: 'the trial filter' },
  { row: '/study', path: '/study?study=pilot', ready: '[data-testid="consent-accept"]', what: '"I agree"', target: true, wasm: true, first: '#shell-line, [data-testid="consent-accept"]' },
  { row: '/study/manage', path: '/study/manage', ready: '[data-testid="study-json"]', what: "the study's JSON" },
];
const TARGETS = { fast: 1000, warm: 300, firstScreen: 1000 };
// The tripwire on the wasm pages' ready time on Slow 4G (not a target: docs/DECISIONS.md).
const TRIPWIRE = (gzip) => (gzip ? 3700 : 3200);

const profiles = String(opt('profiles', 'fast,slow')).split(',').map((p) => {
  if (!PROFILES[p]) throw new Error(`unknown profile ${p} (fast, slow)`);
  return p;
});
const only = opt('pages', null);
const pages = only ? PAGES.filter((p) => String(only).split(',').includes(p.row)) : PAGES;
const paths = [...new Set(pages.map((p) => p.path))];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

/** In the page: milliseconds from navigation start to each selector's element on screen. */
async function timeReady(page, selectors) {
  return page.waitForFunction(
    (sels) => {
      const seen = (window.__seen ??= {});
      for (const s of sels) {
        if (seen[s] !== undefined) continue;
        const el = document.querySelector(s);
        if (!el) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden') seen[s] = performance.now();
      }
      return sels.every((s) => seen[s] !== undefined) && sels.map((s) => seen[s]);
    },
    selectors,
    { polling: 'raf', timeout: 90000 },
  ).then((h) => h.jsonValue());
}

/** The first contentful paint (reported a frame or two after it happens). */
async function firstPaint(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const fcp = list.getEntriesByName('first-contentful-paint')[0];
          if (fcp) resolve(fcp.startTime);
        }).observe({ type: 'paint', buffered: true });
        setTimeout(() => resolve(NaN), 5000);
      }),
  );
}

async function throttled(context, page, profile, cacheDisabled) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled });
  await cdp.send('Network.emulateNetworkConditions', PROFILES[profile].conditions);
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
  return () => bytes;
}

const server = staticServer(dist, undefined, gzipOnly ? { brotli: false, maxAge: 600 } : {});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const newContext = () => browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });

// results[profile][path] = { cold: [[ms per selector]], warm: [...], paint: [...], bytes: [...] }
const results = {};
const load = [loadavg()[0]];
let encodings = new Set();
for (const profile of profiles) {
  results[profile] = {};
  for (const path of paths) {
    const here = pages.filter((p) => p.path === path);
    // Each page's ready elements, then its first screen's (when it has one).
    const selectors = [...here.map((p) => p.ready), ...here.filter((p) => p.first).map((p) => p.first)];
    const r = (results[profile][path] = { cold: [], warm: [], paint: [], bytes: [] });
    for (let i = 0; i < runs; i++) {
      // Cold: a fresh context, nothing cached.
      let context = await newContext();
      let page = await context.newPage();
      page.on('response', (res) => encodings.add(res.headers()['content-encoding'] ?? 'identity'));
      const bytes = await throttled(context, page, profile, true);
      await page.goto(`${base}${path}`, { waitUntil: 'commit' });
      r.cold.push(await timeReady(page, selectors));
      r.paint.push(await firstPaint(page));
      r.bytes.push(bytes());
      await context.close();
      // Warm: a first visit (unthrottled) fills the cache, the second is timed in a new tab.
      context = await newContext();
      page = await context.newPage();
      await page.goto(`${base}${path}`);
      await timeReady(page, selectors);
      await page.waitForLoadState('networkidle');
      await page.close();
      page = await context.newPage();
      await throttled(context, page, profile, false);
      await page.goto(`${base}${path}`, { waitUntil: 'commit' });
      r.warm.push(await timeReady(page, selectors));
      await context.close();
    }
    process.stderr.write(`${PROFILES[profile].name} ${path}: cold ${median(r.cold.map((t) => t[0])).toFixed(0)} ms, warm ${median(r.warm.map((t) => t[0])).toFixed(0)} ms\n`);
  }
}
await browser.close();
server.close();
load.push(loadavg()[0]);

// The builds measured: each one's page, wasm and js, compressed as the server sent them.
const sizes = (page, bin) => {
  let gz = 0;
  let br = 0;
  for (const f of [page, ...readdirSync(dist).filter((f) => f.startsWith(`${bin}-`) && /\.(wasm|js)$/.test(f))]) {
    const body = readFileSync(`${dist}/${f}`);
    gz += gzipSync(body, { level: 9 }).length;
    br += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { gz, br };
};
const people = sizes('index.html', 'shapemaze-people');
const lab = sizes('lab.html', 'shapemaze-web');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const s = (ms) => (Number.isFinite(ms) ? (ms / 1000).toFixed(2) : '—');
const mark = (ms, limit) => (limit === undefined ? s(ms) : `${s(ms)} ${ms <= limit ? '✓' : '✗'}`);
const stat = (profile, page, kind) => {
  const r = results[profile]?.[page.path];
  if (!r) return NaN;
  const k = pages.filter((p) => p.path === page.path).indexOf(page);
  return median(r[kind].map((t) => t[k]));
};
/** The median time to `page`'s first screen (cold), when it has one. */
const firstScreen = (profile, page) => {
  const r = results[profile]?.[page.path];
  if (!r || !page.first) return NaN;
  const here = pages.filter((p) => p.path === page.path);
  const k = here.length + here.filter((p) => p.first).indexOf(page);
  return median(r.cold.map((t) => t[k]));
};
const tripwire = TRIPWIRE(gzipOnly);
const warmTarget = gzipOnly ? TARGETS.warm : undefined;
const head = ['page', 'ready when on screen'];
const rule = ['---', '---'];
for (const p of profiles) {
  head.push(`${PROFILES[p].name} cold`, `${PROFILES[p].name} warm`);
  rule.push('---:', '---:');
}
if (profiles.includes('slow')) {
  head.push('Slow 4G first paint', 'Slow 4G first screen');
  rule.push('---:', '---:');
}
head.push('cold, over the wire');
rule.push('---:');
const lines = [`| ${head.join(' | ')} |`, `| ${rule.join(' | ')} |`];
for (const page of pages) {
  const cells = [`\`${page.row}\``, page.what];
  for (const p of profiles) {
    const cold = p === 'fast' ? (page.target ? TARGETS.fast : undefined) : page.wasm ? tripwire : undefined;
    cells.push(mark(stat(p, page, 'cold'), cold), mark(stat(p, page, 'warm'), page.target ? warmTarget : undefined));
  }
  const first = pages.find((q) => q.path === page.path) === page;
  if (profiles.includes('slow')) {
    const paint = first ? median(results.slow[page.path].paint) : NaN;
    cells.push(s(paint), page.first ? mark(firstScreen('slow', page), TARGETS.firstScreen) : '');
  }
  cells.push(first ? kb(median(results[profiles[0]][page.path].bytes)) : '″');
  lines.push(`| ${cells.join(' | ')} |`);
}
const table = lines.join('\n');

// The targets as decided (README's budgets; docs/DECISIONS.md, sixth round) and the tripwire.
const verdicts = [];
const met = (ok) => (ok ? 'met' : '**not met**');
const target = pages.filter((p) => p.target);
const slowest = (xs) => Math.max(...xs.filter(Number.isFinite));
if (profiles.includes('slow')) {
  const worst = slowest(pages.filter((p) => p.first).map((p) => firstScreen('slow', p)));
  verdicts.push(`- first screen within ${s(TARGETS.firstScreen)} s on Slow 4G on every people's page (\`/\`, \`/play\`, \`/demo\`, \`/study\`): ${met(worst <= TARGETS.firstScreen)} (slowest ${s(worst)} s)`);
}
if (profiles.includes('fast')) {
  const worst = slowest(target.map((q) => stat('fast', q, 'cold')));
  verdicts.push(`- cold <= ${s(TARGETS.fast)} s on Fast 4G for the people's pages: ${met(worst <= TARGETS.fast)} (slowest ${s(worst)} s)`);
}
const warmWorst = slowest(profiles.flatMap((p) => target.map((q) => stat(p, q, 'warm'))));
verdicts.push(
  gzipOnly
    ? `- warm <= ${s(TARGETS.warm)} s for the people's pages on a gzip host: ${met(warmWorst <= TARGETS.warm)} (slowest ${s(warmWorst)} s)`
    : `- warm, on a host that revalidates each page (the target, ${s(TARGETS.warm)} s, is on a gzip host as GitHub Pages serves it): slowest ${s(warmWorst)} s`,
);
if (profiles.includes('slow')) {
  const worst = slowest(pages.filter((p) => p.wasm).map((q) => stat('slow', q, 'cold')));
  verdicts.push(`- tripwire, the wasm pages ready on Slow 4G within ${s(tripwire)} s ${gzipOnly ? 'gzip only' : 'with brotli'}: ${worst <= tripwire ? 'not tripped' : '**tripped**'} (slowest ${s(worst)} s)`);
}

const when = new Date().toISOString().slice(0, 10);
const sent = [...encodings].filter((e) => e !== 'identity').sort().join(' and ') || 'uncompressed';
const about = `Measured ${when} by \`node scripts/bench-load.mjs\` (\`make bench\`): the release build in \`${dist}/\` (the people's build, page + wasm + js: ${kb(people.gz)} gzipped, ${kb(people.br)} with brotli; the lab's ${kb(lab.gz)} and ${kb(lab.br)}), served ${gzipOnly ? 'as GitHub Pages serves it (gzip only, every file `max-age=600`)' : `with ${sent}, pages revalidated, hashed files immutable`}; median of ${runs} runs, seconds from navigation start to the element on screen; ✓ and ✗ against the targets. ${cpus().length} cores, load average ${load.map((l) => l.toFixed(1)).join(' before, ')} after (other work on the machine slows the warm visits most).`;
console.log(`${about}\n\n${table}\n\n${verdicts.join('\n')}`);

// One row for a table of changes: the people's pages cold, the slowest warm, the first screen.
const f = (p, row, kind = 'cold') => s(stat(p, pages.find((q) => q.row === row) ?? {}, kind));
const summary = [label || '(this build)', kb(median(results[profiles[0]][paths[0]].bytes))];
for (const row of ['/play', '/demo (replay)', '/study']) summary.push(profiles.map((p) => f(p, row)).join(' / '));
summary.push(profiles.map((p) => s(Math.max(...pages.map((q) => stat(p, q, 'warm'))))).join(' / '));
if (results.slow) summary.push(s(slowest(pages.filter((p) => p.first).map((p) => firstScreen('slow', p)))));
console.log(`\nsummary row (first page's bytes; ${profiles.map((p) => PROFILES[p].name).join(' / ')}; the slowest first screen on Slow 4G last):\n| ${summary.join(' | ')} |`);

if (docFile) {
  const doc = readFileSync(docFile, 'utf8');
  const marker = gzipOnly ? 'load-table-gzip' : 'load-table';
  const begin = `<!-- ${marker}:begin -->`;
  const end = `<!-- ${marker}:end -->`;
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${docFile} has no ${begin} ... ${end} section`);
  const section = `${begin}\n${about}\n\n${table}\n\n${verdicts.join('\n')}\n${end}`;
  writeFileSync(docFile, doc.slice(0, a) + section + doc.slice(b + end.length));
  console.log(`\nwritten to ${docFile}`);
}

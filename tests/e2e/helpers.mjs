// Shared helpers for the end-to-end tests: launching Debian's Chromium through
// playwright-core, reading the maze from the page's test ids, and shortest paths.
import { chromium } from 'playwright-core';
import { inflateRawSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';

export const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8091';
export const SHOTS = process.env.SCREENSHOTS ?? 'target/e2e-screenshots';

export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { browser, page, errors };
}

export async function open(page, query) {
  await page.goto(`${BASE}/play?${query}`);
  await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
}

/** The maze on the page: size, movement, and each cell's data-cell. */
export async function readMaze(page, board = 'maze', prefix = 'cell') {
  return page.evaluate(
    ([board, prefix]) => {
      const el = document.querySelector(`[data-testid="${board}"]`);
      const rows = Number(el.dataset.rows);
      const cols = Number(el.dataset.cols);
      const cells = [];
      for (let r = 0; r < rows; r++) {
        const row = [];
        for (let c = 0; c < cols; c++) {
          row.push(document.querySelector(`[data-testid="${prefix}-${r}-${c}"]`).dataset.cell);
        }
        cells.push(row);
      }
      return { rows, cols, movement: Number(el.dataset.movement), shape: el.dataset.shape, cells };
    },
    [board, prefix],
  );
}

export function find(maze, kind) {
  for (let r = 0; r < maze.rows; r++)
    for (let c = 0; c < maze.cols; c++) if (maze.cells[r][c] === kind) return [r, c];
  return null;
}

/** A wall next to `cell` (4 directions), if any. */
export function wallBeside(maze, [pr, pc]) {
  return steps(4)
    .map(([dr, dc]) => [pr + dr, pc + dc])
    .find(([r, c]) => r >= 0 && c >= 0 && r < maze.rows && c < maze.cols && maze.cells[r][c] === 'wall');
}

export function steps(movement) {
  const four = [[-1, 0], [1, 0], [0, -1], [0, 1]];
  return movement === 8 ? four.concat([[-1, -1], [-1, 1], [1, -1], [1, 1]]) : four;
}

/** Shortest path from P to G through open cells (breadth-first), excluding the start. */
export function shortestPath(maze) {
  const start = find(maze, 'player');
  const goal = find(maze, 'goal');
  const key = ([r, c]) => `${r},${c}`;
  const prev = new Map([[key(start), null]]);
  const queue = [start];
  while (queue.length) {
    const cur = queue.shift();
    if (key(cur) === key(goal)) break;
    for (const [dr, dc] of steps(maze.movement)) {
      const n = [cur[0] + dr, cur[1] + dc];
      if (n[0] < 0 || n[1] < 0 || n[0] >= maze.rows || n[1] >= maze.cols) continue;
      if (maze.cells[n[0]][n[1]] === 'wall' || prev.has(key(n))) continue;
      prev.set(key(n), cur);
      queue.push(n);
    }
  }
  const path = [];
  for (let c = goal; c && key(c) !== key(start); c = prev.get(key(c))) path.unshift(c);
  return path;
}

export async function clickCell(page, [r, c], prefix = 'cell') {
  await page.click(`[data-testid="${prefix}-${r}-${c}"]`);
}

/** Paints a whole grid of data-cell values on the drawing board. */
export async function draw(page, cells) {
  const tools = { wall: 'tool-wall', empty: 'tool-empty', player: 'tool-player', goal: 'tool-goal' };
  for (const kind of ['empty', 'player', 'goal']) {
    await page.click(`[data-testid="${tools[kind]}"]`);
    for (let r = 0; r < cells.length; r++)
      for (let c = 0; c < cells[r].length; c++)
        if (cells[r][c] === kind) await clickCell(page, [r, c], 'draw-cell');
  }
}

export async function phase(page) {
  return page.getAttribute('[data-testid="phase"]', 'data-phase');
}

export async function verdict(page, which) {
  const el = page.locator(`[data-testid="verdict-${which}"]`);
  await el.waitFor();
  return { outcome: await el.getAttribute('data-outcome'), text: await el.innerText() };
}

// ---------------------------------------------------------------------------------------
// /model: trials played by built-in players or by the scripted chat endpoint
// (tests/mock-endpoint/server.mjs, started by scripts/e2e.sh one port above the app).

export const MOCK_URL = process.env.MOCK_URL ?? 'http://127.0.0.1:8092';

const acceptsLeaving = new WeakSet();

/** Opens /model; leaving a finished or stopped trial is accepted (beforeunload). */
export async function openModel(page, query = '') {
  if (!acceptsLeaving.has(page)) {
    acceptsLeaving.add(page);
    page.on('dialog', (d) => (d.type() === 'beforeunload' ? d.accept() : d.dismiss()).catch(() => {}));
  }
  await page.goto(`${BASE}/model?${query}`);
  await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
  await page.waitForSelector('[data-testid="agent"]');
}

/** Types into a settings field and commits it (the fields apply on change). */
export async function setField(page, testid, value) {
  const el = page.locator(`[data-testid="${testid}"]`);
  // Fields under a folded <details> (timeouts, attempts) are unfolded first.
  await el.evaluate((e) => {
    for (let d = e.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
  });
  await el.fill(String(value));
  await el.dispatchEvent('change');
  await el.blur();
}

/**
 * Chooses the endpoint player and fills its settings: base URL, key, model, streaming,
 * timeout (s) and most attempts.
 */
export async function useEndpoint(page, { baseUrl, model, key = 'test-key', stream = false, timeout = 20, maxAttempts = 2 }) {
  await page.selectOption('[data-testid="agent"]', 'endpoint');
  await page.waitForSelector('[data-testid="endpoint-preset"]');
  await page.selectOption('[data-testid="endpoint-preset"]', 'custom');
  await setField(page, 'endpoint-base-url', baseUrl);
  await setField(page, 'endpoint-model', model);
  await page.fill('[data-testid="endpoint-api-key"]', key);
  await page.setChecked('[data-testid="endpoint-stream"]', stream);
  await setField(page, 'endpoint-timeout', timeout);
  await setField(page, 'endpoint-max-attempts', maxAttempts);
  for (const [id, v] of [['endpoint-base-url', baseUrl], ['endpoint-model', model], ['endpoint-timeout', String(timeout)], ['endpoint-max-attempts', String(maxAttempts)]])
    if ((await page.inputValue(`[data-testid="${id}"]`)) !== v) throw new Error(`${id} did not take ${v}`);
}

/** Clicks run-trial and waits until the trial is over: done, ended by an API error, or stopped. */
export async function runTrial(page, timeout = 30000) {
  await page.click('[data-testid="run-trial"]');
  await waitForEnd(page, timeout);
}

export async function waitForEnd(page, timeout = 30000) {
  const handle = await page.waitForFunction(
    () => {
      const q = (id) => document.querySelector(`[data-testid="${id}"]`);
      if (q('settings-error')) return `settings-error: ${q('settings-error').textContent}`;
      const ended = q('phase')?.dataset.phase === 'done' || q('api-error') || q('stopped');
      return ended && !q('run-trial')?.disabled ? 'ended' : false;
    },
    null,
    { timeout, polling: 50 },
  );
  const why = await handle.jsonValue();
  if (why !== 'ended') throw new Error(why);
}

/** Clicks a download button and returns the file's text. */
export async function downloadText(page, testid) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}"]`)]);
  const { readFile } = await import('node:fs/promises');
  return readFile(await download.path(), 'utf8');
}

/** The mock endpoint's request log (POSTs and preflights), optionally for one scenario. */
export async function mockLog(scenario) {
  const log = await (await fetch(`${MOCK_URL}/log`)).json();
  return scenario === undefined ? log : log.filter((e) => e.scenario === scenario);
}

// What a browser logs by itself when an endpoint answers 4xx/5xx or blocks CORS: expected
// in fault tests, not page errors.
export const NETWORK_NOISE = /Failed to load resource|CORS policy|net::ERR_|Failed to fetch/i;

/** Opens the bundled square trial on /demo at `appUrl`, lets the service worker take the
 * page, then reloads it offline: it must still show. Returns the worker's scope. */
export async function demoOffline(page, appUrl, shot) {
  await page.goto(`${appUrl}/demo?trial=random-square`);
  await page.waitForSelector('[data-testid="replay-position"]');
  const scope = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope));
  // Once controlled by the service worker, a reload caches what the page loads.
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 10000 });
  await page.waitForSelector('[data-testid="replay-position"]');
  await page.context().setOffline(true);
  try {
    await page.reload();
    await page.waitForSelector('[data-testid="replay-position"]', { timeout: 10000 });
    const assert = (await import('node:assert/strict')).default;
    assert.equal(await page.getAttribute('[data-testid="maze"]', 'data-shape'), 'square');
    if (shot) await page.screenshot({ path: shot });
  } finally {
    await page.context().setOffline(false);
  }
  return scope;
}

/** Runs `fn(page)` in a fresh browser and fails on any page error other than `noise`. */
export async function withPage(fn, noise = NETWORK_NOISE) {
  const { browser, page, errors } = await launch();
  try {
    await fn(page);
    const real = errors.filter((e) => !noise.test(e));
    const assert = (await import('node:assert/strict')).default;
    assert.deepEqual(real, [], `the page logged errors: ${real.join('\n')}`);
  } finally {
    await browser.close();
  }
}

/** The WCAG 2.2 AA rule sets axe checks (issue 21). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Fails when axe-core finds a WCAG 2.2 AA violation on the page as it stands; `state`
 * names the page and its state in the message. */
export async function accessible(page, state) {
  const assert = (await import('node:assert/strict')).default;
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const found = result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`,
  );
  assert.deepEqual(found, [], `axe on ${state}`);
}

/** Analyses the experiment `name` alone on /results. */
export async function analyzeOnly(page, name) {
  await page.goto(`${BASE}/results`);
  await page.waitForSelector('[data-testid="source"]');
  const labels = await page.locator('[data-testid="sources"] label').allTextContents();
  for (let i = 0; i < labels.length; i++) {
    if (!labels[i].includes(name)) await page.locator('[data-testid="source"]').nth(i).uncheck();
  }
  await page.click('[data-action="analyze"]');
}

/** Runs the oracle on `samples` mazes per shape (and size), each `repeats` times, under
 * `name` on /experiment; `shapes`, when given, are the only ones checked. */
export async function runOracle(page, name, samples, sizes = '5', repeats = 1, shapes = null) {
  await page.goto(`${BASE}/experiment`);
  await page.waitForSelector('[data-testid="design-name"]');
  await page.fill('[data-testid="design-name"]', name);
  await page.fill('[data-testid="samples-per-shape"]', String(samples));
  await page.fill('[data-testid="design-sizes"]', sizes);
  await page.fill('[data-testid="repeats-per-maze"]', String(repeats));
  await startDesign(page, name, shapes);
}

/** On /experiment with the design filled in: checks only `shapes` (when given), starts the
 * run `name` and waits until its row says complete. */
export async function startDesign(page, name, shapes = null, timeout = 60000) {
  if (shapes) {
    for (const box of await page.locator('input[name="shape"]').all()) {
      await box.setChecked(shapes.includes(await box.getAttribute('value')));
    }
  }
  await page.click('[data-testid="experiment-start"]');
  // This experiment's row says complete (the page may show an earlier one's progress first).
  await page.waitForFunction((name) => [...document.querySelectorAll('[data-testid="experiment-row"]')]
    .some((r) => r.textContent.includes(name) && r.textContent.includes('complete')), name, { timeout });
}

/** The file names in a ZIP's central directory. */
export function zipNames(buf) {
  const names = [];
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  let off = buf.readUInt32LE(eocd + 16);
  const count = buf.readUInt16LE(eocd + 10);
  for (let i = 0; i < count; i++) {
    const n = buf.readUInt16LE(off + 28), m = buf.readUInt16LE(off + 30), k = buf.readUInt16LE(off + 32);
    names.push(buf.subarray(off + 46, off + 46 + n).toString());
    off += 46 + n + m + k;
  }
  return names;
}

/** The contents of a stored or deflated entry of a ZIP (deflate through zlib). */
export function unzipEntry(buf, name) {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  let off = buf.readUInt32LE(eocd + 16);
  const count = buf.readUInt16LE(eocd + 10);
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(off + 10), size = buf.readUInt32LE(off + 20);
    const n = buf.readUInt16LE(off + 28), m = buf.readUInt16LE(off + 30), k = buf.readUInt16LE(off + 32);
    const local = buf.readUInt32LE(off + 42);
    if (buf.subarray(off + 46, off + 46 + n).toString() === name) {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const data = buf.subarray(start, start + size);
      return method === 0 ? data : inflateRawSync(data);
    }
    off += 46 + n + m + k;
  }
  throw new Error(`${name} is not in the ZIP`);
}

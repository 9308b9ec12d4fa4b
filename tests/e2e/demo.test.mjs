// End-to-end tests of /demo (the presenter view) and of the app working offline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, launch, readMaze, find, demoOffline } from './helpers.mjs';

async function position(page) {
  return page.$eval('[data-testid="replay-position"]', (el) => ({
    step: Number(el.dataset.step),
    steps: Number(el.dataset.steps),
  }));
}

test('a bundled trial replays step by step, back, and by the keyboard', async () => {
  const { browser, page, errors } = await launch();
  try {
    await page.goto(`${BASE}/demo?trial=oracle-spiral`);
    await page.waitForSelector('[data-testid="replay-position"]');
    const start = await position(page);
    assert.equal(start.step, 0);
    assert.ok(start.steps > 5, `a spiral trial has several steps: ${start.steps}`);
    assert.match(await page.innerText('.replay-title'), /oracle/, 'labelled as a built-in player');
    const before = find(await readMaze(page), 'player');
    await page.click('[data-testid="replay-step"]');
    assert.equal((await position(page)).step, 1);
    const after = find(await readMaze(page), 'player');
    assert.notDeepEqual(after, before, 'the player moved one step');
    assert.match(await page.innerText('[data-testid="replay-reply"]'), /Move: \(\d+, \d+\)/);
    assert.equal(await page.getAttribute('[data-testid="replay-verdict"]', 'data-outcome'), 'success');
    await page.click('[data-testid="replay-back"]');
    assert.equal((await position(page)).step, 0);
    await page.screenshot({ path: `${SHOTS}/demo-start.png` });
    // Space plays at 4x; it stops by itself on the last frame.
    await page.selectOption('[data-testid="replay-speed"]', '4×');
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="replay-position"]');
        return Number(el.dataset.step) === Number(el.dataset.steps) - 1;
      },
      null,
      { timeout: 15000 },
    );
    assert.equal(await page.getAttribute('[data-testid="phase"]', 'data-phase'), 'generate');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await position(page)).step, start.steps - 2, 'the left arrow steps back');
    await page.screenshot({ path: `${SHOTS}/demo-end.png` });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

async function racePosition(page) {
  return page.$eval('[data-testid="race-position"]', (el) => ({
    step: Number(el.dataset.step),
    steps: Number(el.dataset.steps),
    playing: el.dataset.playing === 'true',
  }));
}

test('a race plays two trials of one maze side by side, by the keyboard, from its link', async () => {
  const { browser, page, errors } = await launch();
  try {
    await page.goto(`${BASE}/demo`);
    await page.waitForSelector('[data-testid="demo-race"] option[value="race-oracle-c,race-random-c"]', { state: 'attached' });
    await page.selectOption('[data-testid="demo-race"]', 'race-oracle-c,race-random-c');
    await page.waitForSelector('[data-testid="race"]');
    assert.match(page.url(), /race=race-oracle-c(,|%2C)race-random-c/, 'the address reproduces the race');
    const start = await racePosition(page);
    assert.equal(start.step, 0);
    assert.match(await page.innerText('[data-testid="race-a"] h2'), /oracle/);
    assert.match(await page.innerText('[data-testid="race-b"] h2'), /random walker/);
    const a0 = find(await readMaze(page, 'race-a-maze', 'race-a-cell'), 'player');
    const b0 = find(await readMaze(page, 'race-b-maze', 'race-b-cell'), 'player');
    assert.deepEqual(a0, b0, 'both start on the same maze, at the same cell');
    // The arrow keys step both sides together.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('[data-testid="race-position"]').dataset.step === '1');
    for (const side of ['race-a', 'race-b']) {
      assert.equal(await page.getAttribute(`[data-testid="${side}-counters"]`, 'data-moves'), '1', `${side} made its first move`);
    }
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('[data-testid="race-position"]').dataset.step === '0');
    // Space plays at 4x; the shorter side (the oracle) finishes first and waits.
    await page.selectOption('[data-testid="race-speed"]', '4×');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid="race-a"]').dataset.finished === 'true', null, { timeout: 20000 });
    assert.equal(await page.getAttribute('[data-testid="race-b"]', 'data-finished'), 'false', 'the random walker is still going');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid="race-position"]').dataset.playing === 'false');
    await page.screenshot({ path: `${SHOTS}/demo-race.png` });
    // The link opens the same race directly.
    const link = await page.getAttribute('[data-testid="race-link"]', 'href');
    await page.goto(link);
    await page.waitForSelector('[data-testid="race-a"]');
    assert.equal((await racePosition(page)).step, 0);
    // A record chosen from a file replaces the race on show.
    const spiral = await (await fetch(`${BASE}/trials/oracle-spiral.json`)).text();
    await page.setInputFiles('[data-testid="demo-file"]', { name: 'chosen.json', mimeType: 'application/json', buffer: Buffer.from(spiral) });
    await page.waitForSelector('.replay-head .help:has-text("From chosen.json")');
    assert.equal(await page.locator('[data-testid="race"]').count(), 0, 'the race gave way');
    // A race of two mazes, or a bad name, is refused with a message.
    await page.goto(`${BASE}/demo?race=race-oracle-c,oracle-spiral`);
    await page.waitForSelector('[data-testid="demo-error"]');
    assert.match(await page.innerText('[data-testid="demo-error"]'), /not played on the same maze/);
    await page.goto(`${BASE}/demo?race=only-one`);
    await page.waitForSelector('[data-testid="demo-error"]');
    assert.match(await page.innerText('[data-testid="demo-error"]'), /does not name two trials/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the demo opens on the first bundled trial, ready to play', async () => {
  const { browser, page, errors } = await launch();
  try {
    await page.goto(`${BASE}/demo`);
    await page.waitForSelector('[data-testid="replay-position"]');
    const first = await page.$eval('[data-testid="demo-trial"] option[value]:not([value=""])', (o) => o.value);
    assert.equal(await page.$eval('[data-testid="demo-trial"]', (s) => s.value), first, 'the list shows the trial on screen');
    // The static shell asked for that trial beside the wasm (shell/boot.js), not after it.
    const preloads = await page.$$eval('link[rel="preload"]', (ls) => ls.map((l) => new URL(l.href).pathname));
    assert.ok(preloads.some((p) => p.endsWith(`/trials/${first}.json`)), `the first trial is preloaded: ${preloads}`);
    assert.equal((await position(page)).step, 0);
    await page.keyboard.press('ArrowRight');
    assert.equal((await position(page)).step, 1, 'the arrow keys step at once');
    await page.screenshot({ path: `${SHOTS}/demo-first.png` });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('a record chosen while the first bundled trial is still on its way stays on show', async () => {
  const { browser } = await launch();
  // No service worker: its own fetches would pass the held request by.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    const list = await (await fetch(`${BASE}/trials/index.json`)).json();
    const first = list[0].name;
    const text = await (await fetch(`${BASE}/trials/${first}.json`)).text();
    // Hold the bundled trial the page opens with until the presenter's own record is shown.
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route(`**/trials/${first}.json`, async (route) => {
      await held;
      await route.continue();
    });
    const asked = page.waitForRequest(`**/trials/${first}.json`);
    await page.goto(`${BASE}/demo`);
    await asked;
    await page.setInputFiles('[data-testid="demo-file"]', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForSelector('.replay-head .help:has-text("From mine.json")');
    const arrived = page.waitForResponse(`**/trials/${first}.json`);
    release();
    await (await arrived).finished();
    // Let the page handle the late answer before looking.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.match(await page.innerText('.replay-head .help'), /From mine\.json/, 'the late bundled trial did not replace the chosen record');
    assert.equal(await page.$eval('[data-testid="demo-trial"]', (s) => s.value), '', 'no bundled trial is marked as shown');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('a bad trial name gets a message, and any maze can be shown as the oracle plays it', async () => {
  const { browser, page, errors } = await launch();
  try {
    await page.goto(`${BASE}/demo?trial=no-such-trial`);
    await page.waitForSelector('[data-testid="demo-error"]');
    assert.match(await page.innerText('[data-testid="demo-error"]'), /could not be opened.*404/s);
    await page.goto(`${BASE}/demo?shape=Z&seed=4&sample=2&encoding=coord_list`);
    await page.waitForSelector('[data-testid="replay-position"]');
    assert.equal(await page.getAttribute('[data-testid="maze"]', 'data-shape'), 'Z');
    assert.match(await page.innerText('[data-testid="replay-prompt"]'), /Walls: \(/);
    const unexpected = errors.filter((e) => !/404|Failed to load resource/.test(e));
    assert.deepEqual(unexpected, []);
  } finally {
    await browser.close();
  }
});

test('after a first visit the app and a bundled trial load offline', async () => {
  const { browser, page } = await launch();
  try {
    await demoOffline(page, BASE, `${SHOTS}/demo-offline.png`);
  } finally {
    await browser.close();
  }
});

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

test('the demo opens on the first bundled trial, ready to play', async () => {
  const { browser, page, errors } = await launch();
  try {
    await page.goto(`${BASE}/demo`);
    await page.waitForSelector('[data-testid="replay-position"]');
    const first = await page.$eval('[data-testid="demo-trial"] option[value]:not([value=""])', (o) => o.value);
    assert.equal(await page.$eval('[data-testid="demo-trial"]', (s) => s.value), first, 'the list shows the trial on screen');
    assert.equal((await position(page)).step, 0);
    await page.keyboard.press('ArrowRight');
    assert.equal((await position(page)).step, 1, 'the arrow keys step at once');
    await page.screenshot({ path: `${SHOTS}/demo-first.png` });
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

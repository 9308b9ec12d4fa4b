// Accessibility (issue 21): axe-core finds no WCAG 2.2 AA violation on the pages a
// participant or an audience sees (home, /play, /demo, /study), on a desktop and a phone, in
// every state these tests reach (each phase of a trial, each stage of a study, its end
// pages); and a whole study is done with the keyboard alone, focus moving to each new
// phase and stage, the grid's cells named for a screen reader and each move announced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { BASE, SHOTS, readMaze, shortestPath, clickCell, draw, verdict, accessible, withPage } from './helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);
const SIZES = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

function studyLink(study, params = '') {
  return `${BASE}/study?config=${Buffer.from(JSON.stringify(study)).toString('base64url')}${params}`;
}

/** Plays the trial on the page with clicks, checking with axe in every phase. */
async function playChecked(page, where) {
  await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
  const maze = await readMaze(page);
  const path = shortestPath(maze);
  await clickCell(page, path[0]);
  await accessible(page, `${where}, solving`);
  for (const cell of path.slice(1)) await clickCell(page, cell);
  assert.equal((await verdict(page, 'solve')).outcome, 'success');
  await accessible(page, `${where}, recognizing`);
  if (await page.locator('[data-testid="shape-answer"]').count()) {
    await page.fill('[data-testid="shape-answer"]', maze.shape);
    await page.click('[data-testid="submit-recognition"]');
  } else {
    await page.click(`[data-testid="shape-choice-${maze.shape}"]`);
  }
  assert.equal((await verdict(page, 'recognize')).outcome, 'success');
  await accessible(page, `${where}, generating`);
  await draw(page, maze.cells.map((row) => row.map((k) => (k === 'player' ? 'goal' : k === 'goal' ? 'player' : k))));
  await page.click('[data-testid="submit-generation"]');
  assert.equal((await verdict(page, 'generate')).outcome, 'success');
  await accessible(page, `${where}, done`);
}

async function inBrowser(size, fn) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const ctx = await browser.newContext({ viewport: SIZES[size], isMobile: size === 'phone', hasTouch: size === 'phone' });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await fn(page);
    assert.deepEqual(errors, [], 'no page errors');
  } finally {
    await browser.close();
  }
}

for (const size of Object.keys(SIZES)) {
  test(`axe finds nothing on the home page, /play, /demo and /study on a ${size}`, async () => {
    await inBrowser(size, async (page) => {
      await page.goto(`${BASE}/`);
      await page.waitForSelector('[data-testid="nav"]');
      await accessible(page, `home (${size})`);
      // /play: a 4-direction maze played through, an 8-direction one in the coordinate list.
      await page.goto(`${BASE}/play?shape=square&seed=3&sample=1`);
      await playChecked(page, `/play square (${size})`);
      await page.goto(`${BASE}/play?shape=cross&seed=3&sample=1&encoding=coord_list`);
      await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
      await accessible(page, `/play cross (${size})`);
      // /demo: a bundled trial, stepped on.
      await page.goto(`${BASE}/demo?trial=random-square`);
      await page.waitForSelector('[data-testid="replay-position"]');
      await accessible(page, `/demo (${size})`);
      await page.click('[data-testid="replay-step"]');
      await page.click('[data-testid="replay-step"]');
      await accessible(page, `/demo stepped (${size})`);
      // /study: every stage, a practice maze, the end.
      const study = {
        title: 'Accessible study',
        // A U among the trials: its button is offered, and its name counts as the U.
        trials: [{ shape: 'Z', seed: 2, sample: 0 }, { shape: 'U', seed: 2, sample: 0 }],
        practice: { shape: 'square', seed: 9, sample: 0 },
        recognition: size === 'phone' ? 'choice' : 'free',
        completion: { code: 'A11Y' },
      };
      await page.goto(studyLink(study, `&participant=a${rand()}`));
      await page.waitForSelector('[data-testid="consent-accept"]');
      await accessible(page, `/study consent (${size})`);
      await page.click('[data-testid="consent-accept"]');
      await page.waitForSelector('[data-testid="study-next"]');
      await accessible(page, `/study instructions (${size})`);
      await page.click('[data-testid="study-next"]');
      await page.waitForSelector('[data-testid="practice-note"]');
      await playChecked(page, `/study practice (${size})`);
      await page.click('[data-testid="study-next"]');
      await page.waitForFunction(() => !document.querySelector('[data-testid="practice-note"]'));
      await playChecked(page, `/study trial (${size})`);
      await page.click('[data-testid="study-next"]');
      await page.waitForFunction(() => /1 of 2/.test(document.querySelector('[data-testid="study-progress"]')?.textContent ?? ''));
      await playChecked(page, `/study second trial (${size})`);
      await page.click('[data-testid="study-next"]');
      await page.waitForSelector('[data-testid="study-complete"][data-saved="true"]');
      await accessible(page, `/study complete (${size})`);
      // The other ends: declined, blocked.
      await page.goto(studyLink({ ...study, declined: { code: 'NOPE' } }, `&participant=d${rand()}`));
      await page.click('[data-testid="consent-decline"]');
      await page.waitForSelector('[data-testid="study-declined"]');
      assert.equal(await page.innerText('[data-testid="completion-code"]'), 'NOPE', 'declining has its own code');
      await accessible(page, `/study declined (${size})`);
      const blocking = studyLink({ ...study, resume: { policy: 'block' } }, `&participant=b${rand()}`);
      await page.goto(blocking);
      await page.click('[data-testid="consent-accept"]');
      await page.waitForSelector('[data-testid="study-next"]');
      await page.waitForTimeout(200);
      // Back at the link in another tab (a reload of the same tab would resume).
      const back = await page.context().newPage();
      await back.goto(blocking);
      await back.waitForSelector('[data-testid="study-blocked"]');
      assert.match(await back.innerText('[data-testid="completion-none"]'), /no completion code.*participant id is b/s);
      if (size === 'phone') await back.screenshot({ path: `${SHOTS}/study-blocked-phone.png`, fullPage: true });
      await accessible(back, `/study blocked (${size})`);
    });
  });
}

/** Presses Tab (or Shift+Tab) until the element with `testid` has the focus. */
async function tabTo(page, testid, back = false) {
  for (let i = 0; i < 80; i++) {
    if ((await page.evaluate(() => document.activeElement?.dataset?.testid)) === testid) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${testid}`);
}

/** The focused element's test id, or its tag and text when it has none. */
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return el?.dataset?.testid ?? `${el?.tagName.toLowerCase()}: ${el?.textContent.trim().slice(0, 60)}`;
});

const ARROWS = { '-1,0': 'ArrowUp', '1,0': 'ArrowDown', '0,-1': 'ArrowLeft', '0,1': 'ArrowRight' };

/** Moves the focus on the drawing grid from `from` to `to` with the arrow keys. */
async function arrowTo(page, from, to) {
  for (let r = from[0]; r !== to[0]; r += Math.sign(to[0] - r)) await page.keyboard.press(to[0] > r ? 'ArrowDown' : 'ArrowUp');
  for (let c = from[1]; c !== to[1]; c += Math.sign(to[1] - c)) await page.keyboard.press(to[1] > c ? 'ArrowRight' : 'ArrowLeft');
  assert.equal(await focused(page), `draw-cell-${to[0]}-${to[1]}`);
  return to;
}

test('a whole study is done with the keyboard alone, focus following each step', async () => {
  await withPage(async (page) => {
    const study = { title: 'Keyboard study', trials: [{ shape: 'square', seed: 4, sample: 2 }, { shape: 'C', seed: 4, sample: 0 }], completion: { code: 'KEYS' } };
    await page.goto(studyLink(study, `&participant=k${rand()}`));
    await page.waitForSelector('[data-testid="consent-accept"]');
    await tabTo(page, 'consent-accept');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="study-next"]');
    assert.match(await focused(page), /h2: Instructions/, 'the focus moves to the instructions');
    await tabTo(page, 'study-next');
    await page.keyboard.press('Enter');
    for (let trial = 0; trial < 2; trial++) {
      await page.waitForSelector('[data-testid="maze"][data-phase-focus]');
      await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'maze');
      const maze = await readMaze(page);
      // Each cell is named for a screen reader: where it is and what it holds.
      const [pr, pc] = maze.cells.flatMap((row, r) => row.map((k, c) => [k, r, c])).find(([k]) => k === 'player').slice(1);
      assert.equal(await page.getAttribute(`[data-testid="cell-${pr}-${pc}"]`, 'aria-label'), `row ${pr}, column ${pc}: player P`);
      // Solve with the arrow keys; each move is announced.
      let at = [pr, pc];
      for (const cell of shortestPath(maze)) {
        await page.keyboard.press(ARROWS[`${cell[0] - at[0]},${cell[1] - at[1]}`]);
        at = cell;
      }
      assert.equal((await verdict(page, 'solve')).outcome, 'success');
      assert.notEqual((await page.innerText('.last-move[aria-live="polite"]')).trim(), '', 'the last move is announced');
      // Recognize: the focus is on the question; type the answer and press Enter.
      await page.waitForFunction(() => /Which shape/.test(document.activeElement?.textContent ?? ''));
      await tabTo(page, 'shape-answer');
      await page.keyboard.type(maze.shape === 'C' ? 'a C' : 'a square');
      await page.keyboard.press('Enter');
      assert.equal((await verdict(page, 'recognize')).outcome, 'success');
      // Generate: draw the maze with P and G swapped, tools and cells by keyboard.
      await page.waitForFunction(() => /Draw a new/.test(document.activeElement?.textContent ?? ''));
      const want = maze.cells.map((row) => row.map((k) => (k === 'player' ? 'goal' : k === 'goal' ? 'player' : k)));
      await tabTo(page, 'draw-cell-0-0');
      let cur = [0, 0];
      for (const kind of ['empty', 'player', 'goal']) {
        if (kind !== 'empty') {
          await tabTo(page, `tool-${kind}`, true);
          await page.keyboard.press('Enter');
          await tabTo(page, `draw-cell-${cur[0]}-${cur[1]}`);
        }
        for (let r = 0; r < want.length; r++)
          for (let c = 0; c < want[r].length; c++)
            if (want[r][c] === kind) {
              cur = await arrowTo(page, cur, [r, c]);
              await page.keyboard.press('Enter');
            }
      }
      await tabTo(page, 'submit-generation');
      await page.keyboard.press('Enter');
      assert.equal((await verdict(page, 'generate')).outcome, 'success');
      // Done: the focus goes to "Maze done", then on.
      await page.waitForFunction(() => /Maze done/.test(document.activeElement?.textContent ?? ''));
      if (trial === 0) await page.screenshot({ path: `${SHOTS}/study-keyboard-done.png`, fullPage: true });
      await tabTo(page, 'study-next');
      await page.keyboard.press('Enter');
    }
    await page.waitForSelector('[data-testid="study-complete"][data-saved="true"]');
    assert.equal(await page.innerText('[data-testid="completion-code"]'), 'KEYS');
    // The focus follows on the next frame (as between phases): wait for it, not a time.
    await page.waitForFunction(() => /Thank you/.test(document.activeElement?.textContent ?? ''));
    assert.match(await focused(page), /h2: Thank you/);
  });
});

test('the grid honours reduced motion and marks the walked trail by more than colour', async () => {
  await withPage(async (page) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${BASE}/play?shape=spiral&seed=1&sample=0`);
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    const maze = await readMaze(page);
    const [first, second] = shortestPath(maze);
    await clickCell(page, first);
    await clickCell(page, second);
    // The cell left behind is walked: said in its name and drawn with a dot, not only a tint.
    const label = await page.getAttribute(`[data-testid="cell-${first[0]}-${first[1]}"]`, 'aria-label');
    assert.equal(label, `row ${first[0]}, column ${first[1]}: open, walked`);
    const dot = await page.evaluate(([r, c]) => getComputedStyle(document.querySelector(`[data-testid="cell-${r}-${c}"]`), '::after').content, first);
    assert.notEqual(dot, 'none', 'a dot marks the walked cell');
    // Whatever moves on the page (here a probe asking for a two-second fade) is stilled.
    const still = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.transition = 'opacity 2s';
      probe.style.animation = 'none 3s';
      document.body.append(probe);
      const s = getComputedStyle(probe);
      return [parseFloat(s.transitionDuration), parseFloat(s.animationDuration)];
    });
    assert.ok(still.every((d) => d <= 0.001), `durations under reduced motion: ${still} s`);
  });
});

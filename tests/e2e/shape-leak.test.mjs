// End-to-end: nothing on the page tells a player the maze's shape before their recognition
// answer is in. At each step of a study's trials (a participant on the grid and one on the
// text, one link, practice included) and of /play with a shape drawn at random, the whole
// page is read as a person and a screen reader meet it: its visible text (folded details
// opened), the tab's title, the address, every accessible name and description (aria
// labels, alt text, titles, placeholders) and the accessibility tree. None may hold a
// shape's name or synonym until the answer is submitted; the feedback after it may. The
// forced choice's buttons and /play's shape chooser list every shape alike and are read
// apart. Data attributes the tests read (`data-shape`) are neither shown nor spoken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, withPage, readMaze, shortestPath, clickCell, phase } from './helpers.mjs';

// Every shape's English name and synonym the recognition reader counts
// (crates/core/src/maze/shape.rs), and the letter shapes' letters.
const NAMES = [
  'square', 'box', 'cube', 'symmetrical rectangle', 'quadrilateral', 'ring',
  'cross', 'times', 'multiplication', 'X-shape', 'X-shaped', 'crossed lines', 'saltire',
  'spiral', 'spirals', 'helix', 'coil', 'whorl', 'swirl', 'vortex',
  'triangle', 'triangles', 'triangular', 'pyramid', 'trilateral', 'isosceles',
  'C-shape', 'C-shaped', 'crescent', 'half-circle', 'semi-circle', 'semicircle',
  'Z-shape', 'Z-shaped', 'zigzag', 'zigzags', 'zig-zag', 'zig zag', 'lightning bolt', 'S-shape',
  'U-shape', 'U-shaped', 'horseshoe', 'N-shape', 'N-shaped',
];
const LETTERS = new Set(['C', 'Z', 'U', 'N', 'X']);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The shape names and synonyms `text` holds. A letter counts when it stands alone as a
 * word outside a run of lone letters (the keys' lists, `W A S D` and `Q E Z C`, name keys). */
export function shapeWords(text) {
  const found = NAMES.filter((n) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(n)}(?![\\p{L}\\p{N}])`, 'iu').test(text));
  for (const line of text.split('\n')) {
    const tokens = line.split(/\s+/).map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
    const lone = (i) => /^[A-Z]$/.test(tokens[i] ?? '');
    tokens.forEach((t, i) => {
      if (LETTERS.has(t) && !lone(i - 1) && !lone(i + 1)) found.push(`${t} (in "${line.trim()}")`);
    });
  }
  return found;
}

test('the shape words are found where they stand and not in the keys or the sizes', () => {
  assert.deepEqual(shapeWords('spiral · 5x5 · Matrix'), ['spiral']);
  assert.deepEqual(shapeWords('C · 5x5'), ['C (in "C · 5x5")']);
  assert.deepEqual(shapeWords('Answer in your own words, e.g. "a spiral".'), ['spiral']);
  assert.deepEqual(shapeWords('It is a zig-zag'), ['zig-zag']);
  assert.deepEqual(shapeWords('- button "Z"'), ['Z (in "- button "Z"")']);
  assert.deepEqual(shapeWords('8 directions: arrows or W A S D, and Q E Z C (or keypad 7 9 1 3)'), []);
  assert.deepEqual(shapeWords('Move P to G in at most 16 moves; 5x5 · Matrix; Squares? no: Boxes'), []);
});

/** What the page tells a person now: its text with every fold opened, the title, the
 * address, every accessible name and description, and the accessibility tree; the
 * elements `apart` (lists of every shape alike) left out, a select among them read as the
 * option it shows. */
async function told(page, apart = []) {
  const dom = await page.evaluate((apart) => {
    const hidden = [];
    const shows = [];
    for (const sel of apart) {
      for (const el of document.querySelectorAll(sel)) {
        if (el.tagName === 'SELECT') shows.push(el.selectedOptions[0]?.text ?? '');
        hidden.push([el, el.style.display]);
        el.style.display = 'none';
      }
    }
    const closed = [...document.querySelectorAll('details:not([open])')];
    for (const d of closed) d.open = true;
    const names = [];
    for (const el of document.querySelectorAll('*')) {
      if (el.closest(apart.join(',') || ':not(*)')) continue;
      for (const a of ['aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'alt', 'title', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) names.push(v);
      }
    }
    return { text: document.body.innerText, names, shows, title: document.title, url: decodeURIComponent(location.href), closed: closed.length };
  }, apart);
  const tree = await page.locator('body').ariaSnapshot();
  await page.evaluate((apart) => {
    for (const sel of apart) for (const el of document.querySelectorAll(sel)) el.style.display = '';
  }, apart);
  return [dom.text, ...dom.names, ...dom.shows, dom.title, dom.url, tree].join('\n');
}

/** Fails when the page names a shape now. */
async function namesNoShape(page, step, apart = []) {
  const words = shapeWords(await told(page, apart));
  assert.deepEqual(words, [], `${step}: the page names a shape before the recognition answer`);
}

/** The matrix text of the text condition: cells as 2-D array of symbols. */
async function readText(page) {
  const text = (await page.textContent('[data-testid="maze-text"]')).trim();
  return text.split('\n').map((l) => l.trim().split(/\s+/));
}

/** A typed move to an open cell next to P in the text condition. */
function typedStep(rows) {
  const r = rows.findIndex((row) => row.includes('P'));
  const c = rows[r].indexOf('P');
  for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
    if (rows[r + dr]?.[c + dc] === '0' || rows[r + dr]?.[c + dc] === 'G') return `(${r + dr}, ${c + dc})`;
  }
  throw new Error(`no open cell beside P:\n${rows.join('\n')}`);
}

/** Plays one study trial up to the recognition answer, checking each step, then answers. */
async function studyTrial(page, who, label, choice) {
  const apart = choice ? ['[data-testid^="shape-choice-"]'] : [];
  if (who === 'grid') {
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    await namesNoShape(page, `${label}: the maze shown`);
    const path = shortestPath(await readMaze(page));
    await clickCell(page, path[0]);
    await page.waitForFunction(() => document.querySelector('[data-testid="moves"]')?.innerText === '1');
    await namesNoShape(page, `${label}: after a move`);
    for (const cell of path.slice(1)) await clickCell(page, cell);
  } else {
    await page.waitForSelector('[data-testid="maze-text"]');
    await namesNoShape(page, `${label}: the maze shown as text`);
    await page.fill('[data-testid="move-answer"]', typedStep(await readText(page)));
    await page.click('[data-testid="submit-move"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="moves"]')?.innerText === '1');
    await namesNoShape(page, `${label}: after a typed move`);
    await page.fill('[data-testid="move-answer"]', 'I do not know');
    await page.click('[data-testid="submit-move"]');
  }
  await page.waitForSelector('[data-testid="phase"][data-phase="recognize"]');
  await namesNoShape(page, `${label}: the recognition question`, apart);
  await page.screenshot({ path: `${SHOTS}/leak-${label.replace(/\W+/g, '-')}.png`, fullPage: true });
  if (choice) {
    await page.click('[data-testid^="shape-choice-"]');
  } else {
    await page.fill('[data-testid="shape-answer"]', 'no idea');
    await page.click('[data-testid="submit-recognition"]');
  }
  await page.waitForSelector('[data-testid="verdict-recognize"]');
  // Then the maze is generated (anything will do) and the trial ends.
  if (who === 'grid') await page.click('[data-testid="submit-generation"]');
  else {
    await page.fill('[data-testid="maze-answer"]', 'no maze');
    await page.click('[data-testid="submit-generation"]');
  }
  await page.waitForSelector('[data-testid="phase"][data-phase="done"]');
}

const STUDY = {
  title: 'Mazes and people',
  trials: [
    { shape: 'spiral', size: 5, encoding: 'matrix', seed: 1, sample: 0 },
    { shape: 'C', size: 5, encoding: 'matrix', seed: 1, sample: 0 },
  ],
  practice: { shape: 'Z', size: 5, encoding: 'matrix', seed: 5, sample: 0 },
  conditions: ['grid', 'text'],
  recognition: 'free',
  counterbalance: true,
};

function link(study, params) {
  return `${BASE}/study?config=${Buffer.from(JSON.stringify(study)).toString('base64url')}${params}`;
}

for (const [order, who] of [[0, 'grid'], [1, 'text']]) {
  for (const recognition of ['free', 'choice']) {
    test(`a study names no shape before the answer: the ${who} condition, ${recognition} recognition, every step`, async () => {
      await withPage(async (page) => {
        const rand = Math.random().toString(36).slice(2, 8);
        await page.goto(link({ ...STUDY, recognition }, `&participant=leak-${who}-${rand}&order=${order}`));
        await page.waitForSelector('[data-testid="consent-accept"]');
        await namesNoShape(page, 'consent');
        await page.click('[data-testid="consent-accept"]');
        await page.waitForSelector('[data-testid="study-next"]');
        await namesNoShape(page, 'instructions');
        await page.click('[data-testid="study-next"]');
        await page.waitForSelector('[data-testid="practice-note"]');
        await studyTrial(page, who, `practice, ${who}, ${recognition}`, recognition === 'choice');
        for (const n of [1, 2]) {
          await page.click('[data-testid="study-next"]');
          await page.waitForFunction(() => !document.querySelector('[data-testid="practice-note"]'));
          await studyTrial(page, who, `trial ${n}, ${who}, ${recognition}`, recognition === 'choice');
        }
        assert.equal(await phase(page), 'done');
      });
    });
  }
}

test('/play without a shape plays one drawn at random and names it only after the answer', async () => {
  await withPage(async (page) => {
    const drawn = new Set();
    for (let round = 0; round < 3; round++) {
      await page.goto(`${BASE}/play`);
      await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
      const maze = await readMaze(page);
      drawn.add(maze.shape);
      assert.equal(await page.inputValue('[data-testid="setting-shape"]'), 'any', 'the chooser reads "any shape"');
      const apart = ['[data-testid="setting-shape"]'];
      await namesNoShape(page, '/play: the maze shown', apart);
      const path = shortestPath(maze);
      await clickCell(page, path[0]);
      await page.waitForFunction(() => document.querySelector('[data-testid="moves"]')?.innerText === '1');
      await namesNoShape(page, '/play: after a move', apart);
      for (const cell of path.slice(1)) await clickCell(page, cell);
      await page.waitForSelector('[data-testid="phase"][data-phase="recognize"]');
      await namesNoShape(page, '/play: the recognition question', apart);
      if (round === 0) await page.screenshot({ path: `${SHOTS}/leak-play-recognize.png`, fullPage: true });
      await page.fill('[data-testid="shape-answer"]', 'no idea');
      await page.click('[data-testid="submit-recognition"]');
      await page.waitForSelector('[data-testid="verdict-recognize"]');
      assert.ok(!/shape=/.test(page.url()), `the address keeps it too: ${page.url()}`);
      // Played again, it is the same maze, still unnamed.
      await page.click('[data-testid="submit-generation"]');
      await page.waitForSelector('[data-testid="phase"][data-phase="done"]');
      page.once('dialog', (d) => d.accept());
      await page.click('text=Play this maze again');
      await page.waitForSelector('[data-testid="phase"][data-phase="solve"]');
      assert.equal((await readMaze(page)).shape, maze.shape, 'the same maze again');
      await namesNoShape(page, '/play: the same maze again', apart);
    }
    assert.ok([...drawn].every((s) => ['square', 'cross', 'spiral', 'triangle', 'C', 'Z'].includes(s)), [...drawn].join());
  });
});

test('/play with a shape chosen names it: the visitor chose it', async () => {
  await withPage(async (page) => {
    await page.goto(`${BASE}/play?shape=spiral&seed=2`);
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    assert.match(await page.textContent('.status .pill'), /^spiral · 5x5$/);
    assert.equal(await page.inputValue('[data-testid="setting-shape"]'), 'spiral');
    // Choosing "any shape" draws one and stops naming it.
    await page.selectOption('[data-testid="setting-shape"]', 'any');
    await page.waitForURL((u) => !u.search.includes('shape='));
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    assert.match(await page.textContent('.status .pill'), /^5x5$/);
  });
});

test("the forced choice's buttons come in each participant's own order, the same after a reload", async () => {
  await withPage(async (page) => {
    const orders = [];
    for (const who of ['alpha', 'bravo', 'charlie']) {
      const study = { ...STUDY, conditions: ['grid'], recognition: 'choice', practice: undefined };
      const rand = Math.random().toString(36).slice(2, 8);
      await page.goto(link(study, `&participant=${who}-${rand}`));
      await page.click('[data-testid="consent-accept"]');
      await page.click('[data-testid="study-next"]');
      await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
      const wall = (await readMaze(page)).cells.flatMap((row, r) => row.map((k, c) => [k, r, c])).find(([k]) => k === 'wall');
      await clickCell(page, [wall[1], wall[2]]);
      await page.waitForSelector('[data-testid^="shape-choice-"]');
      const buttons = async () => page.locator('[data-testid^="shape-choice-"]').evaluateAll((els) => els.map((e) => e.dataset.testid.slice('shape-choice-'.length)));
      const shown = await buttons();
      assert.deepEqual([...shown].sort(), ['C', 'Z', 'cross', 'spiral', 'square', 'triangle'], 'every shape in play, once');
      page.once('dialog', (d) => d.accept());
      await page.reload();
      await page.waitForSelector('[data-testid^="shape-choice-"]');
      assert.deepEqual(await buttons(), shown, 'the same order after a reload');
      orders.push(shown.join(' '));
    }
    assert.ok(new Set(orders).size > 1, `participants see their own orders: ${orders.join(' | ')}`);
  });
});

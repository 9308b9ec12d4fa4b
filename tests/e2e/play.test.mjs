// End-to-end tests of /play: whole trials played by clicking, as a participant would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  BASE, SHOTS, launch, open, readMaze, find, wallBeside, shortestPath, clickCell, draw, phase, verdict,
} from './helpers.mjs';

async function withPage(fn) {
  const { browser, page, errors } = await launch();
  try {
    await fn(page);
    assert.deepEqual(errors, [], `the page logged errors: ${errors.join('\n')}`);
  } finally {
    await browser.close();
  }
}

/** The original's corridor with P and G swapped: same shape, not a copy. */
function swapped(maze) {
  return maze.cells.map((row) =>
    row.map((k) => (k === 'player' ? 'goal' : k === 'goal' ? 'player' : k)),
  );
}

test('a person solves, recognizes and generates a square maze, and downloads the transcript', async () => {
  await withPage(async (page) => {
    await open(page, 'shape=square&size=5&encoding=matrix&seed=3&sample=0');
    const maze = await readMaze(page);
    assert.equal(maze.shape, 'square');
    assert.equal(maze.movement, 4);
    assert.equal(await phase(page), 'solve');
    await page.screenshot({ path: `${SHOTS}/play-solve.png` });
    const path = shortestPath(maze);
    assert.ok(path.length >= 3, `shortest path has ${path.length} moves`);
    for (const cell of path) await clickCell(page, cell);
    assert.equal(await page.innerText('[data-testid="moves"]'), String(path.length));
    const solve = await verdict(page, 'solve');
    assert.equal(solve.outcome, 'success', solve.text);
    assert.equal(await phase(page), 'recognize');

    await page.fill('[data-testid="shape-answer"]', 'It looks like a square ring');
    await page.screenshot({ path: `${SHOTS}/play-recognize.png` });
    await page.click('[data-testid="submit-recognition"]');
    const rec = await verdict(page, 'recognize');
    assert.equal(rec.outcome, 'success', rec.text);
    assert.equal(await phase(page), 'generate');

    await draw(page, swapped(maze));
    await page.screenshot({ path: `${SHOTS}/play-generate.png` });
    await page.click('[data-testid="submit-generation"]');
    const gen = await verdict(page, 'generate');
    assert.equal(gen.outcome, 'success', gen.text);
    assert.equal(await phase(page), 'done');
    await page.screenshot({ path: `${SHOTS}/play-done.png`, fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid="download-transcript"]'),
    ]);
    const text = await readFile(await download.path(), 'utf8');
    assert.match(text, /^### user\nPhase 1 of 3: solve the maze\./);
    assert.ok(text.endsWith('SOLVE: SUCCESS\nRECOGNIZE: SUCCESS\nGENERATE: SUCCESS\n'), text.slice(-200));
  });
});

test("?symbols=@*SE: a person's drawn maze is submitted in the set and judged so", async () => {
  await withPage(async (page) => {
    await open(page, 'shape=square&size=5&encoding=matrix&seed=3&sample=0&symbols=%40*SE');
    assert.match(await page.textContent('[data-testid="encoding-view"]'), /^[@*SE \n]+$/, 'what a model sees, in the set');
    const maze = await readMaze(page);
    for (const cell of shortestPath(maze)) await clickCell(page, cell);
    assert.equal((await verdict(page, 'solve')).outcome, 'success');
    await page.fill('[data-testid="shape-answer"]', 'square');
    await page.click('[data-testid="submit-recognition"]');
    await draw(page, swapped(maze));
    await page.click('[data-testid="submit-generation"]');
    const gen = await verdict(page, 'generate');
    assert.equal(gen.outcome, 'success', gen.text);
  });
});

test("'What a model sees' shows the maze as the vision condition's image too", async () => {
  await withPage(async (page) => {
    await open(page, 'shape=Z&size=7&seed=1&sample=0');
    await page.click('details:has([data-testid="image-view"]) summary');
    const src = await page.getAttribute('[data-testid="image-view"]', 'src');
    assert.match(src, /^data:image\/png;base64,/);
    const size = await page.evaluate(async () => {
      const img = document.querySelector('[data-testid="image-view"]');
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    });
    assert.deepEqual(size, [7 * 33 + 1, 7 * 33 + 1], 'a 7x7 maze drawn in 33-pixel cells');
    await page.screenshot({ path: `${SHOTS}/play-image-view.png`, fullPage: true });
  });
});

test('a click on a wall is an invalid move that ends the solve phase', async () => {
  await withPage(async (page) => {
    await open(page, 'shape=C&seed=1&sample=2');
    const maze = await readMaze(page);
    const [pr, pc] = find(maze, 'player');
    const wall = wallBeside(maze, [pr, pc]);
    assert.ok(wall, 'a C corridor cell has a wall beside it');
    await clickCell(page, wall);
    const v = await verdict(page, 'solve');
    assert.equal(v.outcome, 'fail');
    assert.match(v.text, /is a wall/);
    assert.equal(await phase(page), 'recognize');
    await page.screenshot({ path: `${SHOTS}/play-wall.png` });
  });
});

test('the lenient protocol (?lenient=1) forgives one invalid move: P stays, the move counts, the next one ends the phase', async () => {
  await withPage(async (page) => {
    await open(page, 'shape=C&seed=1&sample=2&lenient=1');
    assert.match(await page.textContent('.help'), /is forgiven 1 time: it uses a move and P stays/);
    const maze = await readMaze(page);
    const [pr, pc] = find(maze, 'player');
    const wall = wallBeside(maze, [pr, pc]);
    await clickCell(page, wall);
    assert.equal(await phase(page), 'solve', 'the first invalid move is forgiven');
    assert.match(await page.textContent('.last-move'), /is a wall/);
    assert.equal(await page.textContent('[data-testid="moves"]'), '1');
    assert.deepEqual(find(await readMaze(page), 'player'), [pr, pc], 'P stays');
    await page.screenshot({ path: `${SHOTS}/play-lenient.png` });
    await clickCell(page, wall);
    const v = await verdict(page, 'solve');
    assert.equal(v.outcome, 'fail');
    assert.equal(await phase(page), 'recognize');
  });
});

test('naming another shape fails recognition and an identical copy fails generation', async () => {
  await withPage(async (page) => {
    await open(page, 'shape=spiral&seed=5&sample=1&encoding=coord_list');
    const maze = await readMaze(page);
    for (const cell of shortestPath(maze)) await clickCell(page, cell);
    assert.equal((await verdict(page, 'solve')).outcome, 'success');
    await page.fill('[data-testid="shape-answer"]', 'It is not a spiral, it is a square');
    await page.click('[data-testid="submit-recognition"]');
    const rec = await verdict(page, 'recognize');
    assert.equal(rec.outcome, 'fail');
    assert.match(rec.text, /names the square/);
    await draw(page, maze.cells);
    await page.click('[data-testid="submit-generation"]');
    const gen = await verdict(page, 'generate');
    assert.equal(gen.outcome, 'fail');
    assert.match(gen.text, /identical to the original/);
  });
});

test('a maze of another shape fails generation', async () => {
  await withPage(async (page) => {
    await open(page, 'shape=square&seed=2');
    const maze = await readMaze(page);
    const [pr, pc] = find(maze, 'player');
    // A cell two rows or columns away: not a neighbour, so an invalid move.
    const far = [pr >= 2 ? pr - 2 : pr + 2, pc];
    await clickCell(page, far);
    assert.match((await verdict(page, 'solve')).text, /is not next to the player/);
    assert.equal(await phase(page), 'recognize');
    await page.fill('[data-testid="shape-answer"]', 'square');
    await page.click('[data-testid="submit-recognition"]');
    // An X: the two diagonals of the 5x5 grid, P and G at two corners.
    const x = Array.from({ length: 5 }, (_, r) =>
      Array.from({ length: 5 }, (_, c) => (r === c || r + c === 4 ? 'empty' : 'wall')),
    );
    x[0][0] = 'player';
    x[4][4] = 'goal';
    await draw(page, x);
    await page.click('[data-testid="submit-generation"]');
    const gen = await verdict(page, 'generate');
    assert.equal(gen.outcome, 'fail');
    assert.match(gen.text, /do not form a square \(they form a cross\)/);
  });
});

test('an 8-direction maze is solved with the keyboard, diagonals included', async () => {
  await withPage(async (page) => {
    await open(page, 'shape=cross&seed=4&sample=3');
    const maze = await readMaze(page);
    assert.equal(maze.movement, 8);
    const keys = { '-1,0': 'ArrowUp', '1,0': 'ArrowDown', '0,-1': 'ArrowLeft', '0,1': 'ArrowRight', '-1,-1': 'q', '-1,1': 'e', '1,-1': 'z', '1,1': 'c' };
    let cur = find(maze, 'player');
    for (const next of shortestPath(maze)) {
      await page.keyboard.press(keys[`${next[0] - cur[0]},${next[1] - cur[1]}`]);
      cur = next;
    }
    const v = await verdict(page, 'solve');
    assert.equal(v.outcome, 'success', v.text);
  });
});

test('URL parameters choose the maze, and bad ones are explained', async () => {
  await withPage(async (page) => {
    await open(page, 'shape=spiral&size=7&encoding=coord_list&seed=9&sample=4');
    const maze = await readMaze(page);
    assert.deepEqual([maze.shape, maze.rows, maze.cols], ['spiral', 7, 7]);
    assert.match(await page.innerText('[data-testid="encoding-view"]'), /^Walls: \(0, /);
    await page.click('[data-testid="view-matrix"]');
    assert.match(await page.innerText('[data-testid="encoding-view"]'), /^[01PG]( [01PG]){6}\n/);

    await open(page, 'shape=hexagon&size=6');
    const warn = await page.innerText('[data-testid="url-warnings"]');
    assert.match(warn, /unknown shape 'hexagon'/);
    assert.match(warn, /size 6 is not supported/);
    assert.equal(await page.inputValue('[data-testid="setting-shape"]'), 'any', 'falls back to the default: any shape, drawn at random');
    assert.equal((await readMaze(page)).rows, 5, 'and the default size');
    await page.screenshot({ path: `${SHOTS}/play-warnings.png` });
  });
});

test('the settings bar changes the maze and an unknown address says so', async () => {
  await withPage(async (page) => {
    await open(page, '');
    await page.selectOption('[data-testid="setting-shape"]', 'Z');
    await page.waitForSelector('[data-testid="maze"][data-shape="Z"]');
    assert.match(page.url(), /shape=Z/);
    await page.goto(`${BASE}/no-such-page`);
    assert.match(await page.innerText('main'), /No page here/);
  });
});

test('leaving a started trial asks first, and a held key moves only once', async () => {
  await withPage(async (page) => {
    await open(page, 'shape=square&seed=3&sample=0');
    const maze = await readMaze(page);
    const [first] = shortestPath(maze);
    const [pr, pc] = find(maze, 'player');
    const keys = { '-1,0': 'ArrowUp', '1,0': 'ArrowDown', '0,-1': 'ArrowLeft', '0,1': 'ArrowRight' };
    const key = keys[`${first[0] - pr},${first[1] - pc}`];
    // Holding the key: the second keydown is a repeat and must not move the player again.
    await page.keyboard.down(key);
    await page.keyboard.down(key);
    await page.keyboard.up(key);
    assert.equal(await page.innerText('[data-testid="moves"]'), '1', 'one move for one press');
    assert.equal(await phase(page), 'solve');

    // Changing the shape now would lose the trial: dismissing the question keeps it.
    page.once('dialog', (d) => d.dismiss());
    await page.selectOption('[data-testid="setting-shape"]', 'Z');
    await page.waitForTimeout(200);
    assert.equal((await readMaze(page)).shape, 'square', 'the trial stays');
    assert.equal(await page.inputValue('[data-testid="setting-shape"]'), 'square', 'the select is put back');
    assert.equal(await page.innerText('[data-testid="moves"]'), '1');

    // Accepting it moves on to the new maze.
    page.once('dialog', (d) => d.accept());
    await page.selectOption('[data-testid="setting-shape"]', 'Z');
    await page.waitForSelector('[data-testid="maze"][data-shape="Z"]');
    assert.equal(await page.innerText('[data-testid="moves"]'), '0');
  });
});

test('U and N mazes are played like the others; beside a U a C opening to the side is no U', async () => {
  await withPage(async (page) => {
    // The settings offer the design's next shapes.
    await open(page, 'shape=U&seed=4&sample=3');
    const options = await page.locator('[data-testid="setting-shape"] option').allTextContents();
    for (const name of ['U', 'N']) assert.ok(options.includes(name), `${name} in ${options}`);
    let maze = await readMaze(page);
    assert.deepEqual([maze.shape, maze.movement], ['U', 4]);
    for (const cell of shortestPath(maze)) await clickCell(page, cell);
    assert.equal((await verdict(page, 'solve')).outcome, 'success');
    // With U in play "horseshoe" names the U.
    await page.fill('[data-testid="shape-answer"]', 'It is a horseshoe, open at one end.');
    await page.click('[data-testid="submit-recognition"]');
    assert.equal((await verdict(page, 'recognize')).outcome, 'success');
    // A C opening to the right (rows 0 and 2 full, the left column): the same cells turned,
    // but beside a U a sideways opening is a C's.
    const c = Array.from({ length: 5 }, () => Array(5).fill('wall'));
    for (const [r, col] of [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1], [2, 2]]) c[r][col] = 'empty';
    c[0][2] = 'player';
    c[2][2] = 'goal';
    await draw(page, c);
    await page.click('[data-testid="submit-generation"]');
    const gen = await verdict(page, 'generate');
    assert.equal(gen.outcome, 'fail');
    assert.match(gen.text, /do not form a U \(they form a C\)/);
    await page.screenshot({ path: `${SHOTS}/play-u.png`, fullPage: true });
    // The N moves in eight directions and is named only as an N.
    await open(page, 'shape=N&seed=1&sample=0');
    maze = await readMaze(page);
    assert.deepEqual([maze.shape, maze.movement], ['N', 8]);
    for (const cell of shortestPath(maze)) await clickCell(page, cell);
    await page.fill('[data-testid="shape-answer"]', 'Shape: N');
    await page.click('[data-testid="submit-recognition"]');
    assert.equal((await verdict(page, 'recognize')).outcome, 'success');
  });
});

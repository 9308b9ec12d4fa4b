// Tests of the scripted endpoint's deliberating model (no browser): node --test tests/mock-endpoint/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { respond, shortestPath, readMaze, swapped, writeMaze } from './server.mjs';
import { isDeliberating, styleOf } from './deliberate.mjs';

const SQUARE = ['P 0 0 0 0', '0 1 1 1 0', '0 1 1 1 0', '0 1 1 1 0', '0 0 0 0 G'].join('\n');
const solve = `Phase 1 of 3: solve the maze.\nYou may move one cell up, down, left or right (no diagonals).\nLegend: 1 = wall, 0 = empty corridor, P = player, G = goal.\n\n${SQUARE}\n\nReply with your next move as the cell you move to, in the form: Move: (row, col)`;

/** The conversation after `k` moves, with `then` prompts after it. */
function conversation(k, then = []) {
  const messages = [{ role: 'user', content: solve }];
  for (let i = 0; i < k; i++) {
    messages.push({ role: 'assistant', content: 'a move' });
    messages.push({ role: 'user', content: `Updated maze:\n\n${SQUARE}\n\nMoves used: ${i + 1} of 16.` });
  }
  for (const p of then) {
    messages.push({ role: 'assistant', content: 'a reply' });
    messages.push({ role: 'user', content: p });
  }
  return messages;
}

test('only deliberate[:SHAPE] deliberates; other names play as before', () => {
  assert.ok(isDeliberating('deliberate') && isDeliberating('deliberate:spiral'));
  assert.ok(!isDeliberating('good') && !isDeliberating('deliberately'));
  assert.match(respond('good', conversation(0)).content, /^The next cell on my route is open and next to P, so I step there\.\nMove: \(\d, \d\)$/);
});

test('every turn means the next cell of a shortest path, in one of five styles', () => {
  const next = shortestPath(readMaze(SQUARE), 4)[0];
  const cell = `(${next[0]}, ${next[1]})`;
  const seen = new Set();
  for (let k = 0; k < 10; k++) {
    const text = respond('deliberate:square', conversation(k)).content;
    assert.ok(text.includes(cell), `turn ${k} names the cell it means: ${text}`);
    seen.add(styleOf(k + 1, solve, 5));
    if (/\(A\)/.test(text)) {
      // Option letters: the letter answered stands for the cell meant.
      const letter = text.match(/Answer: ([AB])/)[1];
      assert.ok(text.includes(`(${letter}) ${cell}`), text);
    }
  }
  assert.equal(seen.size, 5, 'each style comes up');
  const styles = Array.from({ length: 10 }, (_, k) => respond('deliberate:square', conversation(k)).content);
  assert.ok(styles.some((t) => /Correction:\nMove: /.test(t)), 'a corrected answer line');
  assert.ok(styles.some((t) => /^Which neighbour next\?/.test(t)), 'option letters');
  assert.ok(styles.some((t) => /^My first thought was/.test(t)), 'a draft given up');
  assert.ok(styles.some((t) => /^From here I could step to/.test(t)), 'options in prose');
});

test('shapes are weighed, lettered and corrected; mazes drafted twice; each means the right answer', () => {
  const original = readMaze(SQUARE);
  const made = writeMaze(swapped(original), 'matrix');
  const shapes = new Set();
  const mazes = new Set();
  for (let k = 0; k < 6; k++) {
    const shape = respond('deliberate:spiral', conversation(k, ['Phase 2 of 3: recognize the shape.'])).content;
    assert.match(shape, /spiral|Answer: \(B\)/, shape);
    if (/Answer: \(B\)/.test(shape)) assert.match(shape, /\(B\) spiral/);
    shapes.add(shape.split('\n')[0].slice(0, 12));
    const maze = respond('deliberate:spiral', conversation(k, ['Phase 2 of 3: recognize the shape.', 'Phase 3 of 3: generate a new maze.'])).content;
    assert.ok(maze.trimEnd().endsWith(made), `the new maze comes last: ${maze}`);
    mazes.add(maze.split('\n')[0]);
  }
  assert.ok(shapes.size >= 3, `several shape styles: ${[...shapes]}`);
  assert.ok([...mazes].includes('First attempt:'), `two drafts: ${[...mazes]}`);
});

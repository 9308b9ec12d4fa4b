// The scripted endpoint's deliberating model (tests/mock-endpoint/server.mjs hands it the
// conversation): a model that thinks aloud the way chat models do, so the review queue of
// /results#review is exercised end to end. Its model name is `deliberate[:SHAPE]`.
//
// It always means the right answer: the next cell of a shortest path, the shape after the
// colon (`square` without one), the original maze with P and G swapped. How it says so
// varies with the turn (and with the maze, so trials differ), in these styles:
//   moves     plain (`Move: (r, c)`); options weighed in prose, the chosen one named last;
//             a first answer line corrected by a second; option letters (`(A) (r, c)`,
//             `(B) ...`, then `Answer: B`); a draft cell given up for another;
//   shapes    plain (`Shape: NAME`); two shapes weighed in prose; option letters
//             (`(A) square (B) cross ...`, then `Answer: (C)`); a first answer corrected;
//   mazes     one maze; two drafts (a copy of the original, then the new maze); a maze
//             restated after `Final answer:`.
// Some of these a reader reads as written, some it reads unsure, some it may misread: that
// is the point. The single-shot path is written plainly.
//
// Exports `deliberate(model, conversation)`, which answers `{content}` for a deliberating
// model and `null` for any other, and `styleOf`, the style index a turn gets.

/** Whether `model` names the deliberating model. */
export function isDeliberating(model) {
  return /^deliberate(?::|$)/.test(String(model ?? ''));
}

const fmt = ([r, c]) => `(${r}, ${c})`;
const SHAPES = ['square', 'cross', 'spiral', 'triangle', 'C', 'Z'];

/** A small number from a text (the first prompt), so different mazes start in different styles. */
function salt(text) {
  let h = 0;
  for (const ch of String(text)) h = (h * 31 + ch.charCodeAt(0)) % 9973;
  return h;
}

/** The style index of a turn: the number of prompts so far and the maze's salt, modulo `n`. */
export function styleOf(turn, first, n) {
  return (turn + salt(first)) % n;
}

/** Another cell beside `at` than `to` (an open one when there is one): a cell to weigh. */
function other(h, maze, at, to, movement) {
  const near = h.neighbours(maze, at, movement).filter((p) => p[0] !== to[0] || p[1] !== to[1]);
  return near.find((p) => maze.cells[p[0]][p[1]] !== '1') ?? near[0] ?? [at[0], at[1]];
}

function moveReply(style, to, alt) {
  switch (style) {
    case 1:
      return `From here I could step to ${fmt(alt)} or to ${fmt(to)}. ${fmt(alt)} leads away from G, while ${fmt(to)} is one step closer, so I go to ${fmt(to)}.`;
    case 2:
      return `Move: ${fmt(alt)}\nWait, that cell does not bring me nearer the goal. Correction:\nMove: ${fmt(to)}`;
    case 3: {
      const [a, b] = (to[0] + to[1]) % 2 ? [to, alt] : [alt, to];
      const letter = a === to ? 'A' : 'B';
      return `Which neighbour next?\n(A) ${fmt(a)}\n(B) ${fmt(b)}\nOption ${letter} follows the corridor towards G.\nAnswer: ${letter}`;
    }
    case 4:
      return `My first thought was ${fmt(alt)}. On reflection the corridor to G goes the other way, through ${fmt(to)}, which is where I move.`;
    default:
      return `The next cell on my route is open and next to P.\nMove: ${fmt(to)}`;
  }
}

function shapeReply(style, shape) {
  const wrong = SHAPES.find((s) => s !== shape && s !== 'C') ?? 'cross';
  switch (style) {
    case 1:
      return `The open cells could be read as a ${wrong} at first glance, but tracing every open cell, not only my path, they form a ${shape}.`;
    case 2: {
      const options = [wrong, shape, ...SHAPES.filter((s) => s !== wrong && s !== shape)].slice(0, 4);
      const letters = options.map((s, i) => `(${String.fromCharCode(65 + i)}) ${s}`).join('  ');
      return `Candidates: ${letters}\nThe outline matches the second candidate.\nAnswer: (B)`;
    }
    case 3:
      return `Shape: ${wrong}\nNo, looking again at the corners, that is not right.\nShape: ${shape}`;
    default:
      return `All the open cells, P and G included, trace one connected outline.\nShape: ${shape}`;
  }
}

function mazeReply(h, style, original, encoding) {
  const made = h.writeMaze(h.swapped(original), encoding);
  switch (style) {
    case 1:
      return `First attempt:\n\n${h.writeMaze(original, encoding)}\n\nThat is only a copy of the original, so I swap P and G instead:\n\n${made}`;
    case 2:
      return `I keep the same corridor and swap the start and the goal.\n\n${made}\n\nFinal answer:\n\n${made}`;
    default:
      return `Here is a new maze of the same shape, with P and G swapped:\n\n${made}`;
  }
}

/**
 * The deliberating model's reply, or null when `model` is another. `c` holds what the
 * server read of the conversation: `users` (the user messages' text), `movement`,
 * `original` (the first maze), `phase` (move | path | recognize | generate | combined |
 * other), `shape` (the name after the colon) and `h`, the server's maze helpers
 * (readMaze, writeMaze, shortestPath, neighbours, swapped).
 */
export function deliberate(model, c) {
  if (!isDeliberating(model)) return null;
  const { users, movement, original, phase, shape, h } = c;
  const last = users[users.length - 1] ?? '';
  const first = users[0] ?? '';
  const turn = users.length;
  if (phase === 'move' || phase === 'path') {
    const maze = h.readMaze(last) ?? original;
    if (!maze) return { content: 'I cannot find the maze in your message.' };
    const path = h.shortestPath(maze, movement) ?? [];
    if (phase === 'path') return { content: `Path: ${[maze.player, ...path].map(fmt).join(', ')}` };
    const to = path[0] ?? maze.player;
    return { content: moveReply(styleOf(turn, first, 5), to, other(h, maze, maze.player, to, movement)) };
  }
  const encoding = /(given|written) as lists of cells/.test(first) ? 'coord_list' : original?.encoding ?? 'matrix';
  const recognition = shapeReply(styleOf(turn, first, 4), shape);
  const generation = () => (original ? mazeReply(h, styleOf(turn, first, 3), original, encoding) : 'I cannot find the original maze.');
  if (phase === 'recognize') return { content: recognition };
  if (phase === 'generate') return { content: generation() };
  if (phase === 'combined') return { content: `${recognition}\n\n${generation()}` };
  return { content: 'I am ready to play.' };
}

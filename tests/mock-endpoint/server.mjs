// A scripted OpenAI-compatible chat-completions server for tests (plain Node 20, no
// dependencies). It plays Shapemaze trials like a model would, and it fails on purpose.
//
//   node tests/mock-endpoint/server.mjs PORT        listens on http://127.0.0.1:PORT
//
// Routes
//   POST    /{scenario}/v1/chat/completions   a chat completion (also /{scenario}/chat/completions)
//   OPTIONS (any path)                        CORS preflight
//   GET     /{scenario}/v1/models             a model list
//   GET     /healthz                          200 "ok"
//   GET     /log                              JSON list of the requests received, oldest first:
//                                             {seq, time, method, path, scenario, model, stream,
//                                              headers (lower-case names), body, status, aborted}
//   POST    /reset                            clears the per-scenario counters and the log
//   POST    /{scenario}/upload                a study data upload (the app's JSON POST):
//                                             200 {"ok":true}, or the scenario's fault
//                                             status (e.g. `500-x2-u1`: 500 twice, then 200);
//                                             the body is kept in the log
//
// CORS: every response carries Access-Control-Allow-Origin: *, Allow-Headers:
// authorization, content-type, Allow-Methods: POST, OPTIONS, and Expose-Headers:
// Retry-After, x-ratelimit-* — except in a scenario with the `no-cors` fault, where no
// response (preflight included) has any CORS header.
//
// Scenario grammar (the first path segment; case-insensitive):
//   scenario := token ( "-" token )*
//   token    := "ok"                      no fault (the default)
//             | "429ra"                   429 with Retry-After: 1 and x-ratelimit-* headers
//             | "429"                     429 without Retry-After
//             | "500" | "503"             server errors (OpenAI-style error bodies)
//             | "401"                     401 {"error":{"message":"Incorrect API key provided",...}}
//             | "nomodel"                 404 "The model `M` does not exist ..."
//             | "context"                 400 "This model's maximum context length is ..."
//             | "malformed"               200 with a body that is not JSON (streaming: an event
//                                         whose data is not JSON, then [DONE])
//             | "empty"                   200 with "choices": []
//             | "blank"                   200, a choice whose answer is empty ("", finish "stop";
//                                         streaming: a role delta, then the finish)
//             | "thinklimit"              200, reasoning only and no answer (content null, finish
//                                         "length": the token limit spent on reasoning)
//             | "slow"                    waits 10 s before answering (an aborted request is dropped)
//             | "no-cors" | "nocors"      normal answers, no CORS headers at all
//             | "x" N                     the fault hits only the first N requests of this scenario
//                                         (without it, every request)
//             | "lat" N                   every answer (faults included) waits N ms first
//             | "no" SPELLING             refuses that form spelling with 400 ("... is not supported"):
//                                         nojsonschema (response_format json_schema), nostructured
//                                         (structured_outputs), noformat (format), nojsonobject
//                                         (response_format json_object), notoolnamed, notoolrequired,
//                                         notools (both tool spellings)
//             | "no" SPELLING "500"       the same refusal as a 500 whose message names the parameter
//                                         (llama-cpp-python answers a json_schema response_format so)
//             | "ignoreform"              accepts every form and answers in free text (200), as a
//                                         server that ignores the parameter does
//             | "formreason"              a held JSON answer arrives in the reasoning field, the
//                                         content empty (a thinking model's server)
//             | "transcribewrong"         a transcription names another shape than the reply, so
//                                         our readers disagree with it on every recognition
//             | "u" ANYTHING              a unique suffix: it and every token after it are ignored
//             | anything else             ignored (so `429ra-x2-3f9a` works too)
//   e.g. `ok-u7f3a`, `429ra-x2-u81`, `503-x1-uq`, `lat100-uz`, `no-cors-u1`, `lat50-500-x3-u9`.
// Counters are per whole scenario name: tests use a fresh unique suffix per trial.
//
// The model name scripts the play: MODEL[:SHAPE] with MODEL one of
//   good     moves along a shortest path (breadth-first search) one cell per reply
//            (`Move: (r, c)` after a sentence of reasoning), or the whole path when asked
//            (`Path: (r, c), (r, c), ...`, P's cell first); answers `Shape: SHAPE` (the name
//            after the colon, `square` without one); generates the original with P and G
//            swapped, in the encoding of the prompt.
//   bad      steps into a wall on its second move (on its first when no open neighbour
//            exists), answers `Shape: circle`, and copies the original.
//   wander   moves back and forth between two open cells forever (runs into the move
//            limit); recognizes and generates like `good`.
//   think    `good` plus `reasoning_content` (streamed as reasoning deltas before the content).
//   deliberate  means what `good` does but thinks aloud: options, corrections, drafts,
//            option letters (deliberate.mjs).
//   (any other name plays like `good`.)
//
// Answer forms (docs/guides/answer-modes.md). A request that asks for a form gets its answer
// held to it (unless the scenario refuses or ignores the spelling): `response_format` of type
// `json_schema` (its nested `json_schema.schema`) or `json_object`, vLLM's `structured_outputs`,
// Ollama's `format`, or a last user message carrying Shapemaze's "Answer format: ... JSON
// object" words (the prompt alone) answers with content that is one JSON object,
// `{"reasoning": "...", ...}` then the answer's fields as Shapemaze's schemas name them
// (`row`/`col`, `path`, `shape`, `rows` or `walls`/`empty`/`player`/`goal`). `tools` with a
// `tool_choice` naming a function or `"required"` answer with `tool_calls` (one call of the
// named function, or of the only tool, its arguments the answer's fields without the
// reasoning; a streamed call comes in pieces) and a sentence of reasoning as content; a `tool`
// message is read as the next prompt. A conversation whose last user message starts with
// "Transcribe the answer a reply gives." is a transcription: the JSON copies the answer of
// the reply between <<< and >>> (its last `Move: (r, c)`, `Path: ...`, `Shape: NAME`, the
// last maze), `null` or empty where it gives none.
//
// A conversation whose system message is Shapemaze's second-reader prompt ("You read replies
// that language models gave ...") is answered as a judge, whatever the model: JSON with the
// reply's last `(r, c)` as the move, the word after `Shape:` as the shape, and no maze.
// Phases are read from the last user message: `Phase 1 of 3` or a message starting with
// `Updated maze:` wants a move (or the whole path if it says `whole path`), `Phases 2 and 3`
// recognition and generation in one reply, `Phase 2 of 3` recognition, `Phase 3 of 3`
// generation. The maze is the last one in the message (matrix lines like `1 0 0 P` or a
// coordinate list `Walls: ... / Empty: ... / Player position: (r, c) / Goal: (r, c)`); the
// original (for generation) is the first user message's; movement is 8 directions when the
// first user message says `8 directions`, else 4.
//
// A user message whose content is OpenAI content parts is read as its text parts, with each
// `image_url` part (a PNG data URL drawn by Shapemaze's rule, docs/vision.md) decoded into
// the maze it shows, written as matrix lines where the image stands; an image that does not
// decode so gets 400 with the reason.
//
// Replies are chat completions; `logprobs: true` adds one logprob entry per word (with
// `top_logprobs`, per subword token, each with its alternatives); `stream:
// true` answers text/event-stream in small pieces written ~5 ms apart (events straddle
// writes), then a finish chunk, a usage chunk when stream_options.include_usage, and
// `data: [DONE]`.
import { createServer } from 'node:http';
import { inflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { deliberate } from './deliberate.mjs';

// ---------------------------------------------------------------------------------------
// Scenarios

const FAULTS = new Set(['ok', '429ra', '429', '500', '503', '401', 'nomodel', 'context', 'malformed', 'empty', 'blank', 'thinklimit', 'slow', 'nocors']);

/** The form spellings a scenario can refuse (`no` + one of them, `notools` for both tool ones). */
export const SPELLINGS = ['toolnamed', 'toolrequired', 'jsonschema', 'structured', 'format', 'jsonobject'];

/**
 * The fault, its count (null = every request), the latency, and the answer-form behaviours a
 * scenario name asks for: `refuse` (spelling -> 400 | 500), `ignoreForm`, `formReason`,
 * `transcribeWrong`.
 */
export function parseScenario(name) {
  const tokens = String(name ?? '').toLowerCase().split('-').filter(Boolean);
  const out = { fault: 'ok', count: null, latency: 0, refuse: {}, ignoreForm: false, formReason: false, transcribeWrong: false };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const refusal = /^no(toolnamed|toolrequired|tools|jsonschema|structured|format|jsonobject)(500)?$/.exec(t);
    if (refusal) {
      const status = refusal[2] ? 500 : 400;
      for (const sp of refusal[1] === 'tools' ? ['toolnamed', 'toolrequired'] : [refusal[1]]) out.refuse[sp] = status;
      continue;
    }
    if (t === 'ignoreform') out.ignoreForm = true;
    else if (t === 'formreason') out.formReason = true;
    else if (t === 'transcribewrong') out.transcribeWrong = true;
    else if (t === 'no' && tokens[i + 1] === 'cors') {
      out.fault = 'nocors';
      i++;
    } else if (FAULTS.has(t)) {
      if (t !== 'ok' || out.fault === 'ok') out.fault = t;
    } else if (/^x\d+$/.test(t)) {
      out.count = Number(t.slice(1));
    } else if (/^lat\d+$/.test(t)) {
      out.latency = Number(t.slice(3));
    } else if (t.startsWith('u')) {
      break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Mazes

const MATRIX_LINE = /^[ \t]*[01PG](?: [01PG])+[ \t]*$/;

/** Every matrix block (2+ consecutive lines of equal width) in `text`, with its offset. */
function matrixBlocks(text) {
  const blocks = [];
  let cur = null;
  let offset = 0;
  for (const line of text.split('\n')) {
    if (MATRIX_LINE.test(line)) {
      const row = line.trim().split(' ');
      if (cur && cur.rows[0].length === row.length) cur.rows.push(row);
      else {
        if (cur && cur.rows.length >= 2) blocks.push(cur);
        cur = { at: offset, rows: [row] };
      }
    } else {
      if (cur && cur.rows.length >= 2) blocks.push(cur);
      cur = null;
    }
    offset += line.length + 1;
  }
  if (cur && cur.rows.length >= 2) blocks.push(cur);
  return blocks.map(({ at, rows }) => ({ at, maze: fromCells(rows, 'matrix') }));
}

function coords(s) {
  return [...String(s).matchAll(/\(\s*(\d+)\s*,\s*(\d+)\s*\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

/** Every coordinate-list maze in `text`, with its offset. */
function coordBlocks(text) {
  const out = [];
  for (const m of text.matchAll(/Walls:/g)) {
    const rest = text.slice(m.index);
    const line = (key) => {
      const k = new RegExp(`(?:^|\\n)[ \\t*_\`]*${key}[*_\`]*:([^\\n]*)`).exec(rest);
      return k ? k[1] : null;
    };
    const walls = coords(rest.slice('Walls:'.length).split('\n')[0]);
    const empty = coords(line('Empty') ?? '');
    const player = coords(line('Player position') ?? line('Player') ?? '')[0];
    const goal = coords(line('Goal') ?? '')[0];
    if (!player || !goal) continue;
    const all = [...walls, ...empty, player, goal];
    const rows = Math.max(...all.map((p) => p[0])) + 1;
    const cols = Math.max(...all.map((p) => p[1])) + 1;
    const cells = Array.from({ length: rows }, () => Array(cols).fill('1'));
    for (const [r, c] of empty) cells[r][c] = '0';
    cells[player[0]][player[1]] = 'P';
    cells[goal[0]][goal[1]] = 'G';
    const spaced = !/\(\d+,\d+\)/.test(rest.split('\n').slice(0, 4).join('\n'));
    out.push({ at: m.index, maze: { ...fromCells(cells, 'coord_list'), spaced } });
  }
  return out;
}

function fromCells(cells, encoding) {
  const find = (k) => {
    for (let r = 0; r < cells.length; r++) for (let c = 0; c < cells[r].length; c++) if (cells[r][c] === k) return [r, c];
    return null;
  };
  return { rows: cells.length, cols: cells[0].length, cells, encoding, player: find('P'), goal: find('G') };
}

/**
 * The last maze written in `text`, or null: `{rows, cols, cells (rows of '1' | '0' | 'P' |
 * 'G'), encoding ('matrix' | 'coord_list'), player: [r, c], goal: [r, c]}`.
 */
export function readMaze(text) {
  const all = [...matrixBlocks(String(text)), ...coordBlocks(String(text))].filter((b) => b.maze.player && b.maze.goal);
  if (!all.length) return null;
  all.sort((a, b) => a.at - b.at);
  return all[all.length - 1].maze;
}

/** Writes a maze in an encoding (`matrix` | `coord_list`). */
export function writeMaze(maze, encoding = maze.encoding, spaced = maze.spaced ?? true) {
  if (encoding === 'matrix') return maze.cells.map((row) => row.join(' ')).join('\n');
  const p = ([r, c]) => (spaced ? `(${r}, ${c})` : `(${r},${c})`);
  const of = (k) => {
    const list = [];
    maze.cells.forEach((row, r) => row.forEach((v, c) => v === k && list.push(p([r, c]))));
    return list;
  };
  return [`Walls: ${of('1').join(', ')}`, `Empty: ${of('0').join(', ')}`, `Player position: ${of('P')[0]}`, `Goal: ${of('G')[0]}`].join('\n');
}

/** The movement rule a solve prompt states: 8 when it says `8 directions`, else 4. */
export function movementOf(text) {
  return /8 directions/.test(String(text)) ? 8 : 4;
}

export function neighbours(maze, [r, c], movement) {
  const four = [[-1, 0], [1, 0], [0, -1], [0, 1]];
  const dirs = movement === 8 ? four.concat([[-1, -1], [-1, 1], [1, -1], [1, 1]]) : four;
  return dirs.map(([dr, dc]) => [r + dr, c + dc]).filter(([a, b]) => a >= 0 && b >= 0 && a < maze.rows && b < maze.cols);
}

const isOpen = (maze, [r, c]) => maze.cells[r][c] !== '1';

/** A shortest path from P to G through open cells (breadth-first), without P's cell; null when G is unreachable. */
export function shortestPath(maze, movement = 4) {
  const key = ([r, c]) => `${r},${c}`;
  const prev = new Map([[key(maze.player), null]]);
  const queue = [maze.player];
  while (queue.length) {
    const cur = queue.shift();
    if (key(cur) === key(maze.goal)) {
      const path = [];
      for (let p = cur; p && key(p) !== key(maze.player); p = prev.get(key(p))) path.unshift(p);
      return path;
    }
    for (const n of neighbours(maze, cur, movement)) {
      if (!isOpen(maze, n) || prev.has(key(n))) continue;
      prev.set(key(n), cur);
      queue.push(n);
    }
  }
  return null;
}

/** The original with P and G swapped: a valid new maze of the same shape. */
export function swapped(maze) {
  const cells = maze.cells.map((row) => row.map((v) => (v === 'P' ? 'G' : v === 'G' ? 'P' : v)));
  return { ...maze, cells, player: maze.goal, goal: maze.player };
}

// ---------------------------------------------------------------------------------------
// The scripted model

const fmt = ([r, c]) => `(${r}, ${c})`;

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? p : p?.type === 'image_url' ? `\n\n${mazeOfImage(p.image_url?.url)}\n` : p?.text ?? '')).join('');
  return '';
}

// The colours of Shapemaze's drawing rule (docs/vision.md) and the matrix symbol of each.
const COLOURS = { '1f2933': '1', ffffff: '0', '2563eb': 'P', '16a34a': 'G' };

/** The maze a Shapemaze image shows (an `image_url` part's PNG data URL), as matrix lines:
 * the PNG is parsed and inflated, its rows unfiltered, and each 33-pixel cell read by the
 * colour of its top-left pixel. Throws, saying why, when it is not such an image: the
 * request is then refused with 400, so a test sees that the image did not arrive whole. */
export function mazeOfImage(url) {
  const m = /^data:image\/png;base64,(.+)$/s.exec(String(url ?? ''));
  if (!m) throw new Error('the image_url is not a data:image/png;base64 URL');
  const png = Buffer.from(m[1], 'base64');
  if (png.subarray(0, 8).toString('latin1') !== '\x89PNG\r\n\x1a\n') throw new Error('the image is not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let palette = [];
  const idat = [];
  while (at + 8 <= png.length) {
    const len = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 3) throw new Error('the PNG is not 8-bit indexed colour');
    }
    if (type === 'PLTE') palette = Array.from({ length: len / 3 }, (_, i) => data.subarray(3 * i, 3 * i + 3).toString('hex'));
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rows = [];
  let prev = Buffer.alloc(width);
  for (let y = 0; y < height; y++) {
    const line = Buffer.from(raw.subarray(y * (width + 1) + 1, (y + 1) * (width + 1)));
    const filter = raw[y * (width + 1)];
    if (filter === 2) for (let x = 0; x < width; x++) line[x] = (line[x] + prev[x]) & 255;
    else if (filter !== 0) throw new Error(`PNG filter ${filter} is not one Shapemaze writes`);
    rows.push(line);
    prev = line;
  }
  const [cols, lines] = [(width - 1) / 33, (height - 1) / 33];
  if (!Number.isInteger(cols) || !Number.isInteger(lines)) throw new Error(`a ${width}x${height} image is not a grid of 33-pixel cells`);
  return Array.from({ length: lines }, (_, r) =>
    Array.from({ length: cols }, (_, c) => {
      const symbol = COLOURS[palette[rows[1 + 33 * r][1 + 33 * c]]];
      if (!symbol) throw new Error(`cell (${r}, ${c}) has a colour the drawing rule does not use`);
      return symbol;
    }).join(' '),
  ).join('\n');
}

/** What the last user message asks: move | path | recognize | generate | combined | other. */
export function phaseOf(text) {
  const t = String(text).trimStart();
  if (t.startsWith('Updated maze:')) return 'move';
  if (t.startsWith('Phases 2 and 3')) return 'combined';
  if (t.startsWith('Phase 1 of 3')) return /whole path/.test(t) ? 'path' : 'move';
  if (t.startsWith('Phase 2 of 3')) return 'recognize';
  if (t.startsWith('Phase 3 of 3')) return 'generate';
  if (t.includes('Phase 1 of 3')) return /whole path/.test(t) ? 'path' : 'move';
  if (t.includes('Phases 2 and 3')) return 'combined';
  if (t.includes('Phase 2 of 3')) return 'recognize';
  if (t.includes('Phase 3 of 3')) return 'generate';
  return 'other';
}

/** The model name read as {kind: good|bad|wander|think, shape}. */
export function parseModel(model) {
  const [kind, shape] = String(model ?? '').split(':');
  const k = ['good', 'bad', 'wander', 'think'].includes(kind) ? kind : 'good';
  return { kind: k, shape: shape && shape.trim() ? shape.trim() : 'square' };
}

function wallNeighbour(maze, at, movement) {
  const n = neighbours(maze, at, movement).find((p) => !isOpen(maze, p));
  if (n) return n;
  // No wall beside: a cell two rows away (not a neighbour: also an invalid move).
  return [at[0] >= 2 ? at[0] - 2 : at[0] + 2, at[1]];
}

function goodStep(maze, movement) {
  const path = shortestPath(maze, movement);
  if (path && path.length) return path[0];
  return neighbours(maze, maze.player, movement).find((p) => isOpen(maze, p)) ?? neighbours(maze, maze.player, movement)[0];
}

/** A second reader's answer (Shapemaze's judge prompt: the system message says it reads
 * replies): the move is the reply's last `(r, c)`, the shape the word after `Shape:`, and
 * it gives no maze, so that it disagrees with the rules reader on every maze. */
export function judge(messages) {
  const user = textOf((messages ?? []).filter((m) => m && m.role === 'user').pop()?.content ?? '');
  const reply = user.match(/<<<\n([\s\S]*)\n>>>/)?.[1] ?? '';
  if (user.includes('{"move":')) {
    const cells = [...reply.matchAll(/\((\d+),\s*(\d+)\)/g)];
    const last = cells[cells.length - 1];
    return { content: JSON.stringify({ move: last ? [Number(last[1]), Number(last[2])] : null }) };
  }
  if (user.includes('{"shape":')) {
    const named = reply.match(/Shape:\s*([A-Za-z]+)/)?.[1] ?? null;
    return { content: JSON.stringify({ shape: named }) };
  }
  return { content: '{"maze": null}' };
}

/**
 * The reply of the scripted model `model` to a conversation: {content, reasoning?, answer?},
 * `answer` the reply's answer as data for a form ({kind: 'move', cell} | {kind: 'path', cells}
 * | {kind: 'shape', name} | {kind: 'maze', maze, encoding} | {kind: 'combined', name, maze,
 * encoding}). A `tool` message is read as the trial's next prompt.
 */
export function respond(model, messages) {
  const system = (messages ?? []).find((m) => m && m.role === 'system');
  if (system && /^You read replies that language models gave/.test(textOf(system.content))) return judge(messages);
  const { kind, shape } = parseModel(model);
  const users = (messages ?? []).filter((m) => m && (m.role === 'user' || m.role === 'tool')).map((m) => textOf(m.content));
  const last = users[users.length - 1] ?? '';
  const first = users[0] ?? '';
  const movement = movementOf(first);
  const original = users.map(readMaze).find(Boolean);
  const phase = phaseOf(last);
  const deliberated = deliberate(model, { users, movement, original, phase, shape, h: { readMaze, writeMaze, shortestPath, neighbours, swapped } });
  if (deliberated) return deliberated;
  const out = (content, answer) =>
    kind === 'think'
      ? { content, answer, reasoning: `Let me think about this step by step. ${phase === 'move' || phase === 'path' ? 'I trace a route from P to G through open cells only.' : 'I look at every open cell, not only the route.'}` }
      : { content, answer };

  if (phase === 'move' || phase === 'path') {
    const maze = readMaze(last) ?? original;
    if (!maze) return out('I cannot find the maze in your message.');
    if (phase === 'path') {
      let cells;
      if (kind === 'bad') {
        const step = neighbours(maze, maze.player, movement).find((p) => isOpen(maze, p));
        cells = step ? [maze.player, step, wallNeighbour(maze, step, movement)] : [maze.player, wallNeighbour(maze, maze.player, movement)];
      } else if (kind === 'wander') {
        const n = neighbours(maze, maze.player, movement).find((p) => maze.cells[p[0]][p[1]] === '0') ?? maze.player;
        cells = Array.from({ length: 9 }, (_, i) => (i % 2 ? n : maze.player));
      } else {
        cells = [maze.player, ...(shortestPath(maze, movement) ?? [])];
      }
      return out(`Following the open cells from P to G, one step at a time:\nPath: ${cells.map(fmt).join(', ')}`, { kind: 'path', cells });
    }
    let to;
    const firstMove = !last.trimStart().startsWith('Updated maze:');
    if (kind === 'bad') {
      const open = neighbours(maze, maze.player, movement).some((p) => isOpen(maze, p));
      to = firstMove && open ? goodStep(maze, movement) : wallNeighbour(maze, maze.player, movement);
    } else if (kind === 'wander') {
      const home = original?.player ?? maze.player;
      const atHome = maze.player[0] === home[0] && maze.player[1] === home[1];
      const nb = neighbours(maze, maze.player, movement);
      const homeNext = nb.find((p) => p[0] === home[0] && p[1] === home[1]);
      to = !atHome && homeNext ? homeNext : nb.find((p) => maze.cells[p[0]][p[1]] === '0') ?? nb.find((p) => isOpen(maze, p)) ?? nb[0];
    } else {
      to = goodStep(maze, movement);
    }
    return out(`The next cell on my route is open and next to P, so I step there.\nMove: ${fmt(to)}`, { kind: 'move', cell: to });
  }

  const named = kind === 'bad' ? 'circle' : shape;
  const recognition = `All the open cells, P and G included, trace one connected outline, so I name it after that outline.\nShape: ${named}`;
  const made = original && (kind === 'bad' ? original : swapped(original));
  // A maze seen only in an image is written in the encoding the prompt's legend names.
  const encoding = /(given|written) as lists of cells/.test(first) ? 'coord_list' : made?.encoding;
  const generation = () => {
    if (!original) return 'I cannot find the original maze.';
    const intro = kind === 'bad' ? 'Here is the new maze:' : 'Here is a new maze of the same shape, with P and G swapped:';
    return `${intro}\n\n${writeMaze(made, encoding)}`;
  };
  if (phase === 'recognize') return out(recognition, { kind: 'shape', name: named });
  if (phase === 'generate') return out(generation(), made && { kind: 'maze', maze: made, encoding });
  if (phase === 'combined') return out(`${recognition}\n\n${generation()}`, made && { kind: 'combined', name: named, maze: made, encoding });
  return out('I am ready to play.');
}

// ---------------------------------------------------------------------------------------
// Answer forms

/** The form spelling a request asks for: one of SPELLINGS, 'prompt' (Shapemaze's JSON words
 * in the last user message, nothing in the request), or null (no form). */
export function spellingOf(body, lastText = '') {
  const choice = body?.tool_choice;
  if (Array.isArray(body?.tools) && body.tools.length && choice) {
    if (typeof choice === 'object') return 'toolnamed';
    if (choice === 'required') return 'toolrequired';
  }
  const type = body?.response_format?.type;
  if (type === 'json_schema') return 'jsonschema';
  if (body?.structured_outputs) return 'structured';
  if (body?.format && typeof body.format === 'object') return 'format';
  if (type === 'json_object') return 'jsonobject';
  if (/Answer format:[^\n]*JSON object/.test(lastText)) return 'prompt';
  return null;
}

const cellOf = ([row, col]) => ({ row, col });

/** The answer's fields as Shapemaze's schemas name them (without the reasoning). */
export function answerFields(answer) {
  if (!answer) return {};
  const maze = () => {
    if (answer.encoding === 'matrix') return { rows: answer.maze.cells.map((r) => r.join(' ')) };
    const of = (k) => {
      const list = [];
      answer.maze.cells.forEach((row, r) => row.forEach((v, c) => v === k && list.push(cellOf([r, c]))));
      return list;
    };
    return { walls: of('1'), empty: of('0'), player: of('P')[0] ?? null, goal: of('G')[0] ?? null };
  };
  switch (answer.kind) {
    case 'move':
      return cellOf(answer.cell);
    case 'path':
      return { path: answer.cells.map(cellOf) };
    case 'shape':
      return { shape: answer.name };
    case 'maze':
      return maze();
    case 'combined':
      return { shape: answer.name, ...maze() };
    default:
      return {};
  }
}

/** The function a tool request names (or its only tool). */
function toolName(body) {
  return body?.tool_choice?.function?.name ?? body?.tools?.[0]?.function?.name ?? 'answer';
}

/** A transcription (Shapemaze's second call under `transcribed`): the JSON copying the answer
 * of the reply between <<< and >>>; `wrong` names another shape than the reply. */
export function transcribe(text, wrong = false) {
  const reply = /<<<\n([\s\S]*)\n>>>/.exec(text)?.[1] ?? '';
  const asks = /What (move|path|shape|maze)[^?]*\?/.exec(text)?.[1];
  const cells = (s) => coords(s);
  const lastMove = /Move:\s*\((\d+),\s*(\d+)\)/g;
  const moves = [...reply.matchAll(lastMove)];
  const shape = [...reply.matchAll(/Shape:\s*([A-Za-z]+)/g)].pop()?.[1] ?? 'none';
  const maze = readMaze(reply);
  const mazeFields = () => {
    if (!maze) return /lists of cells|walls and empty/.test(text) ? { walls: [], empty: [], player: null, goal: null } : { rows: [] };
    return answerFields({ kind: 'maze', maze, encoding: maze.encoding });
  };
  if (asks === 'move') {
    const m = moves.pop();
    if (!m) return { row: null, col: null };
    return { row: Number(m[1]), col: Number(m[2]) };
  }
  if (asks === 'path') return { path: cells(/Path:([^\n]*)/.exec(reply)?.[1] ?? '').map(cellOf) };
  const named = wrong && shape !== 'none' ? (shape === 'square' ? 'cross' : 'square') : shape;
  if (asks === 'shape' && /new maze/.test(text)) return { shape: named, ...mazeFields() };
  if (asks === 'shape') return { shape: named };
  return mazeFields();
}

/** The scripted answer as the request's form holds it: a transcription's JSON; the answer's
 * JSON (reasoning first) for a schema spelling; a function call for a tool spelling; the free
 * text when the request asks no form or the scenario ignores it. */
export function held(answered, { body, spelling, lastUser, scen, id }) {
  if (lastUser.trimStart().startsWith('Transcribe the answer a reply gives.')) {
    if (scen.ignoreForm) return { content: 'The reply gives its answer at its end.' };
    return { content: JSON.stringify(transcribe(lastUser, scen.transcribeWrong)) };
  }
  if (!spelling || scen.ignoreForm || !answered.answer) return answered;
  const why = String(answered.content).split('\n')[0];
  const fields = answerFields(answered.answer);
  if (spelling === 'toolnamed' || spelling === 'toolrequired') {
    return { ...answered, content: why, tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: toolName(body), arguments: JSON.stringify(fields) } }] };
  }
  const text = JSON.stringify({ reasoning: why, ...fields });
  if (scen.formReason) return { ...answered, content: '', reasoning: `${answered.reasoning ?? 'I think it through first.'}\n${text}` };
  return { ...answered, content: text };
}

// ---------------------------------------------------------------------------------------
// The server

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-expose-headers':
    'Retry-After, x-ratelimit-limit-requests, x-ratelimit-remaining-requests, x-ratelimit-reset-requests, x-ratelimit-limit-tokens, x-ratelimit-remaining-tokens, x-ratelimit-reset-tokens',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const words = (s) => String(s).split(/\s+/).filter(Boolean).length;
/** Word-sized tokens (each with the whitespace after it) that join back to `s`. */
const tokensOf = (s) => String(s).match(/\S+\s*|\s+/g) ?? [];
const logprobOf = (tok, i) => -Number((((tok.length * 7 + i * 3) % 23) / 10 + 0.01).toFixed(3));
/** With `top_logprobs`, tokens as a subword tokenizer cuts them: a digit alone, a word with
 * the space before it, a punctuation mark alone. */
const fineTokensOf = (s) => String(s).match(/\d|\s*[A-Za-z]+|\s+|[^\sA-Za-z\d]/g) ?? [];
/** One token's entry: each digit 0.7 likely, the next digit 0.2 and the one before 0.05
 * (at 0, 9: the digit 9 is skipped); a word 0.9, a space or mark 1. With `top`
 * alternatives, the token first. */
function entryOf(token, i, top) {
  if (!top) return { token, logprob: logprobOf(token, i), top_logprobs: [] };
  const lp = (p) => Number(Math.log(p).toFixed(6));
  if (/^\d$/.test(token)) {
    const d = Number(token);
    const alts = [[token, 0.7], [String((d + 1) % 10), 0.2], ...(d > 0 ? [[String(d - 1), 0.05]] : [])];
    return { token, logprob: lp(0.7), top_logprobs: alts.slice(0, top).map(([t, p]) => ({ token: t, logprob: lp(p), bytes: [...Buffer.from(t)] })) };
  }
  const p = /[A-Za-z]/.test(token) ? 0.9 : 1;
  return { token, logprob: lp(p), top_logprobs: [{ token, logprob: lp(p), bytes: [...Buffer.from(token)] }] };
}

function errorBody(message, type, code) {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

/** Starts the mock server on 127.0.0.1:`port` (0 = a free port): {server, url, port, close}. */
export function startServer(port = 0, { quiet = true } = {}) {
  const counters = new Map();
  const log = [];
  let seq = 0;
  let ids = 0;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean);
    const scenarioName = parts.length >= 2 ? decodeURIComponent(parts[0]) : '';
    const scen = parseScenario(scenarioName);
    const cors = scen.fault === 'nocors' ? {} : CORS;
    const send = (status, headers, body) => {
      if (res.destroyed) return;
      res.writeHead(status, { ...cors, ...headers });
      res.end(body);
    };

    if (req.method === 'GET' && url.pathname === '/healthz') return send(200, { 'content-type': 'text/plain' }, 'ok');
    if (req.method === 'GET' && url.pathname === '/log') return send(200, { 'content-type': 'application/json' }, JSON.stringify(log));
    if (req.method === 'POST' && url.pathname === '/reset') {
      counters.clear();
      log.length = 0;
      return send(200, { 'content-type': 'application/json' }, '{"ok":true}');
    }

    const entry = { seq: ++seq, time: Date.now(), method: req.method, path: url.pathname, scenario: scenarioName, model: null, stream: false, headers: { ...req.headers }, body: null, status: null, aborted: false };

    if (req.method === 'OPTIONS') {
      log.push(entry);
      entry.status = 204;
      return send(204, { 'content-length': '0' }, '');
    }
    if (req.method === 'GET' && /\/models$/.test(url.pathname)) {
      return send(200, { 'content-type': 'application/json' }, JSON.stringify({ object: 'list', data: ['good', 'bad', 'wander', 'think'].map((id) => ({ id, object: 'model', owned_by: 'mock' })) }));
    }
    if (req.method === 'POST' && parts.length === 2 && parts[1] === 'upload') {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const raw = Buffer.concat(chunks).toString('utf8');
      try { entry.body = JSON.parse(raw); } catch { entry.body = raw; }
      log.push(entry);
      const n = (counters.get(scenarioName) ?? 0) + 1;
      counters.set(scenarioName, n);
      const failing = scen.fault !== 'ok' && scen.fault !== 'nocors' && (scen.count == null || n <= scen.count);
      const status = failing ? (Number(scen.fault) || 500) : 200;
      entry.status = status;
      return send(status, { 'content-type': 'application/json' }, status === 200 ? '{"ok":true}' : errorBody('upload refused on purpose', 'server_error', null));
    }
    if (req.method !== 'POST' || !/\/chat\/completions$/.test(url.pathname) || parts.length < 3) {
      return send(404, { 'content-type': 'application/json' }, errorBody(`No route ${req.method} ${url.pathname}: use POST /{scenario}/v1/chat/completions`, 'invalid_request_error', 'not_found'));
    }

    // Read the body.
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      body = null;
    }
    entry.body = body ?? raw;
    entry.model = body?.model ?? null;
    entry.stream = body?.stream === true;
    log.push(entry);
    let closed = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        entry.aborted = true;
      }
    });
    const reply = (status, headers, text) => {
      entry.status = status;
      send(status, headers, text);
    };
    if (!body || typeof body !== 'object') return reply(400, { 'content-type': 'application/json' }, errorBody('The request body is not valid JSON.', 'invalid_request_error', null));
    try {
      for (const m of body.messages ?? []) textOf(m?.content);
    } catch (e) {
      return reply(400, { 'content-type': 'application/json' }, errorBody(`The image could not be read: ${e.message}.`, 'invalid_request_error', 'invalid_image'));
    }
    // As llama-cpp-python's server: a message's content is a string (an assistant message
    // that made a call and wrote nothing sends ""): a null one fails its validation and a
    // missing one its chat formatter (KeyError: 'content'), each with a 500.
    const messages = body.messages ?? [];
    const nullContent = messages.findIndex((m) => m && 'content' in m && m.content === null);
    if (nullContent >= 0) return reply(500, { 'content-type': 'application/json' }, errorBody(`1 validation error: messages.${nullContent}.content: Input should be a valid string`, 'server_error', null));
    if (messages.some((m) => m && !('content' in m))) return reply(500, { 'content-type': 'application/json' }, errorBody("'content'", 'server_error', null));

    const n = (counters.get(scenarioName) ?? 0) + 1;
    counters.set(scenarioName, n);
    const faulty = scen.count === null || n <= scen.count;
    const fault = faulty ? scen.fault : 'ok';

    const wait = async (ms) => {
      const until = Date.now() + ms;
      while (!closed && Date.now() < until) await sleep(Math.min(50, until - Date.now()));
    };
    if (scen.latency) await wait(scen.latency);
    if (fault === 'slow') await wait(10000);
    if (closed) return;

    const json = { 'content-type': 'application/json' };
    const model = String(body.model ?? '');
    switch (fault) {
      case '429ra':
        return reply(429, { ...json, 'retry-after': '1', 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' }, errorBody('Rate limit reached for requests. Please try again in 1s.', 'requests', 'rate_limit_exceeded'));
      case '429':
        return reply(429, json, errorBody('Rate limit reached for requests.', 'requests', 'rate_limit_exceeded'));
      case '500':
        return reply(500, json, errorBody('The server had an error while processing your request. Sorry about that!', 'server_error', null));
      case '503':
        return reply(503, json, errorBody('The engine is currently overloaded, please try again later.', 'server_error', null));
      case '401':
        return reply(401, json, errorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'));
      case 'nomodel':
        return reply(404, json, errorBody(`The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'));
      case 'context': {
        const used = (body.messages ?? []).reduce((s, m) => s + words(textOf(m?.content)), 0);
        return reply(400, json, errorBody(`This model's maximum context length is 4096 tokens. However, your messages resulted in ${Math.max(used, 4097)} tokens. Please reduce the length of the messages.`, 'invalid_request_error', 'context_length_exceeded'));
      }
      case 'malformed':
        // Streaming: an event whose data is not JSON, then [DONE]; otherwise a body that is not JSON.
        if (entry.stream) return reply(200, { 'content-type': 'text/event-stream; charset=utf-8' }, 'data: {"id": "chatcmpl-broken", "choices": [{"delta": {"content": "Mo\n\ndata: [DONE]\n\n');
        return reply(200, json, '<html><body>502 Bad Gateway (upstream sent garbage)</body></html>\n{"id": "chatcmpl-');
      default:
        break;
    }

    const id = `chatcmpl-mock-${++ids}`;
    const created = Math.floor(Date.now() / 1000);
    const prompt_tokens = (body.messages ?? []).reduce((s, m) => s + words(textOf(m?.content)), 0);
    const usageOf = (content, reasoning) => {
      const completion_tokens = words(content) + words(reasoning ?? '');
      return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
    };
    // Answer forms: a refusal, else the answer held to the form (or ignored).
    const lastUser = textOf([...(body.messages ?? [])].reverse().find((m) => m && (m.role === 'user' || m.role === 'tool'))?.content ?? '');
    const spelling = spellingOf(body, lastUser);
    const refusal = spelling && scen.refuse[spelling];
    if (refusal) {
      const param = { jsonschema: 'response_format', jsonobject: 'response_format', structured: 'structured_outputs', format: 'format' }[spelling] ?? 'tool_choice';
      if (refusal === 500) return reply(500, json, errorBody(`1 validation error for CreateChatCompletionRequest\n${param}.type\n  Input should be 'text' or 'json_object'`, 'server_error', null));
      return reply(400, json, errorBody(`${param} (${spelling}) is not supported by this server`, 'invalid_request_error', 'unsupported_parameter'));
    }
    const answered = fault === 'empty' || fault === 'blank' ? { content: '' } : held(respond(model, body.messages), { body, spelling, lastUser, scen, id: ids + 1 });
    const { content, reasoning, tool_calls } =
      fault === 'thinklimit' ? { content: '', reasoning: 'Let me think about the maze step by step. The player is at the top and the goal' } : answered;
    const finish = fault === 'thinklimit' ? 'length' : tool_calls ? 'tool_calls' : 'stop';
    const wantLogprobs = body.logprobs === true;
    const top = Number.isInteger(body.top_logprobs) && body.top_logprobs > 0 ? Math.min(body.top_logprobs, 20) : 0;
    const split = top ? fineTokensOf : tokensOf;
    const lp = (text) => ({ content: split(text).map((token, i) => entryOf(token, i, top)) });

    if (!entry.stream) {
      const message = { role: 'assistant', content: fault === 'thinklimit' ? null : content, ...(reasoning ? { reasoning_content: reasoning } : {}), ...(tool_calls ? { tool_calls } : {}) };
      const choices = fault === 'empty' ? [] : [{ index: 0, message, finish_reason: finish, ...(wantLogprobs ? { logprobs: lp(content) } : {}) }];
      return reply(200, json, JSON.stringify({ id, object: 'chat.completion', created, model, choices, usage: usageOf(content, reasoning) }));
    }

    // Streaming.
    entry.status = 200;
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    const chunk = (choices, extra = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra });
    let k = 0;
    const emit = async (obj) => {
      if (closed || res.destroyed) return;
      const ev = `data: ${typeof obj === 'string' ? obj : JSON.stringify(obj)}\n\n`;
      // Every other event is split across two writes, so events straddle TCP packets.
      if (k++ % 2 === 1 && ev.length > 8) {
        const cut = Math.floor(ev.length / 2);
        res.write(ev.slice(0, cut));
        await sleep(5);
        if (closed || res.destroyed) return;
        res.write(ev.slice(cut));
      } else res.write(ev);
      await sleep(5);
    };
    const pieces = (s) => {
      const out = [];
      const sizes = [3, 5, 7, 4, 6];
      for (let i = 0, j = 0; i < s.length; j++) {
        out.push(s.slice(i, i + sizes[j % sizes.length]));
        i += sizes[j % sizes.length];
      }
      return out;
    };
    if (fault === 'empty') {
      await emit(chunk([]));
    } else {
      await emit(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
      if (reasoning) for (const p of pieces(reasoning)) await emit(chunk([{ index: 0, delta: { reasoning_content: p }, finish_reason: null }]));
      if (wantLogprobs) {
        let i = 0;
        for (const token of split(content)) {
          await emit(chunk([{ index: 0, delta: { content: token }, logprobs: { content: [entryOf(token, i, top)] }, finish_reason: null }]));
          i++;
        }
      } else for (const p of pieces(content)) await emit(chunk([{ index: 0, delta: { content: p }, finish_reason: null }]));
      for (const [i, call] of (tool_calls ?? []).entries()) {
        await emit(chunk([{ index: 0, delta: { tool_calls: [{ index: i, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, finish_reason: null }]));
        for (const p of pieces(call.function.arguments)) await emit(chunk([{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: p } }] }, finish_reason: null }]));
      }
      await emit(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
    }
    if (body.stream_options?.include_usage) await emit(chunk([], { usage: usageOf(content, reasoning) }));
    await emit('[DONE]');
    if (!closed && !res.destroyed) res.end();
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const actual = server.address().port;
      if (!quiet) console.log(`mock chat endpoint on http://127.0.0.1:${actual}`);
      resolve({
        server,
        port: actual,
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections?.();
            server.close(() => r());
          }),
      });
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? 8092);
  startServer(port, { quiet: false }).catch((e) => {
    console.error(`mock endpoint: ${e.message}`);
    process.exit(1);
  });
}

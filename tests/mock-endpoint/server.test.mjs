// Tests of the scripted chat endpoint (no browser): node --test tests/mock-endpoint/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, readMaze, writeMaze, shortestPath, parseScenario, movementOf, phaseOf, respond, mazeOfImage, spellingOf, transcribe } from './server.mjs';

let mock;
before(async () => {
  mock = await startServer(0);
});
after(async () => {
  await mock?.close();
});

const uid = () => Math.random().toString(36).slice(2, 8);

// A 5x5 square ring (4 directions) and a 5x5 cross (8 directions), as the app writes them.
const SQUARE = ['P 0 0 0 0', '0 1 1 1 0', '0 1 1 1 0', '0 1 1 1 0', '0 0 0 0 G'];
const CROSS = ['1 1 P 1 1', '1 1 0 1 1', '0 0 0 0 0', '1 1 0 1 1', '1 1 G 1 1'];

function cellsOf(lines) {
  return lines.map((l) => l.split(' '));
}
function coordList(lines, spaced = true) {
  return writeMaze({ cells: cellsOf(lines) }, 'coord_list', spaced);
}

// The prompts, worded as crates/core/src/play/prompt.rs words them.
function solvePrompt(mazeText, movement, encoding, wholePath = false) {
  const rule = movement === 8 ? 'You may move one cell in any of the 8 directions, diagonals included.' : 'You may move one cell up, down, left or right (no diagonals).';
  const legend = encoding === 'matrix' ? 'Legend: 1 = wall, 0 = empty corridor, P = player, G = goal. Cells are (row, col), counted from 0, row 0 at the top.' : 'The maze is given as lists of cells (row, col), counted from 0, row 0 at the top: walls, empty corridor cells, the player and the goal.';
  const ask = wholePath
    ? 'Reply with the whole path in one reply: every cell you step on, in order, from P\'s cell to G\'s cell, in the form: Path: (row, col), (row, col), ...'
    : 'Reply with your next move as the cell you move to, in the form: Move: (row, col)';
  return `Phase 1 of 3: solve the maze.\nYou are the player P in a 5x5 maze and must reach the goal G. ${rule} You cannot enter walls. You have at most 16 moves; an invalid move ends the phase.\n${legend}\n\n${mazeText}\n\n${ask}`;
}
const updatePrompt = (mazeText, moves) => `Updated maze:\n\n${mazeText}\n\nMoves used: ${moves} of 16. Reply with your next move: Move: (row, col)`;
const recognizePrompt = (mazeText) => `Phase 2 of 3: recognize the shape.\nThe solve phase ended: you reached the goal.\nLook at all the open cells of the maze (every empty cell plus P and G, not only your path). What geometric shape do they form? Give the shape's name and your reasoning, and end with: Shape: <name>\n\n${mazeText}`;
const generatePrompt = (encoding) =>
  `Phase 3 of 3: generate a new maze.\nCreate a new 5x5 maze whose open cells form the same geometric shape as the maze above. It must not be an identical copy, P must be able to reach G (moving up, down, left or right), and it must be properly encoded. ${encoding === 'matrix' ? 'Write it in the same matrix encoding: one line per row, cells separated by spaces, 1 wall, 0 empty, exactly one P and one G.' : 'Write it in the same coordinate-list encoding, four lines: Walls: ..., Empty: ..., Player position: (r, c), Goal: (r, c), listing every cell exactly once.'}`;
const combinedPrompt = (mazeText) =>
  `Phases 2 and 3 of 3: recognize the shape and generate a new maze.\nThe solve phase ended: you reached the goal.\nFirst, look at all the open cells of the maze below: what geometric shape do they form? Give the shape's name on a line of its own: Shape: <name>\nThen create a new 5x5 maze whose open cells form the same shape. Write it in the same coordinate-list encoding, four lines: Walls: ..., Empty: ..., Player position: (r, c), Goal: (r, c), listing every cell exactly once. Write the new maze last.\n\n${mazeText}`;

async function chat(scenario, body, init = {}) {
  return fetch(`${mock.url}/${scenario}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key', ...(init.headers ?? {}) },
    body: JSON.stringify(body),
    signal: init.signal,
  });
}

async function complete(scenario, model, messages, extra = {}) {
  const res = await chat(scenario, { model, messages, ...extra });
  assert.equal(res.status, 200, await res.clone().text());
  const json = await res.json();
  return { json, content: json.choices[0].message.content };
}

/** Reads an SSE body: the parsed data events and whether it ended with [DONE]. */
async function readStream(res) {
  const text = await res.text();
  const events = text.split('\n\n').filter((e) => e.trim()).map((e) => {
    assert.match(e, /^data: /);
    return e.slice(6);
  });
  const done = events[events.length - 1] === '[DONE]';
  const chunks = events.filter((e) => e !== '[DONE]').map((e) => JSON.parse(e));
  return { chunks, done, events };
}

const moveOf = (text) => {
  const m = /Move:\s*\((\d+),\s*(\d+)\)/.exec(text);
  assert.ok(m, `no move in ${JSON.stringify(text)}`);
  return [Number(m[1]), Number(m[2])];
};

/** Plays the solve phase stepwise against `model`, as the app does; returns the moves made. */
async function playSolve(scenario, model, lines, movement, encoding) {
  const maze = readMaze(lines.join('\n'));
  const render = (m) => (encoding === 'matrix' ? writeMaze(m, 'matrix') : writeMaze(m, 'coord_list'));
  const messages = [{ role: 'user', content: solvePrompt(render(maze), movement, encoding) }];
  const moves = [];
  let cur = { ...maze, cells: maze.cells.map((r) => [...r]) };
  for (let i = 0; i < 16; i++) {
    const { content } = await complete(scenario, model, messages);
    messages.push({ role: 'assistant', content });
    const to = moveOf(content);
    moves.push(to);
    const dr = Math.abs(to[0] - cur.player[0]);
    const dc = Math.abs(to[1] - cur.player[1]);
    assert.ok(dr <= 1 && dc <= 1 && dr + dc > 0 && (movement === 8 || dr + dc === 1), `${to} is a neighbour of ${cur.player}`);
    assert.notEqual(cur.cells[to[0]][to[1]], '1', `${to} is open`);
    if (to[0] === cur.goal[0] && to[1] === cur.goal[1]) break;
    cur.cells[cur.player[0]][cur.player[1]] = '0';
    cur.cells[to[0]][to[1]] = 'P';
    cur = { ...cur, player: to };
    messages.push({ role: 'user', content: updatePrompt(render(cur), i + 1) });
  }
  return { moves, messages, maze };
}

test('reads mazes in both encodings and finds shortest paths', () => {
  const m = readMaze(solvePrompt(SQUARE.join('\n'), 4, 'matrix'));
  assert.equal(m.encoding, 'matrix');
  assert.deepEqual([m.rows, m.cols, m.player, m.goal], [5, 5, [0, 0], [4, 4]]);
  assert.equal(shortestPath(m, 4).length, 8);
  const c = readMaze(solvePrompt(coordList(CROSS, false), 8, 'coord_list'));
  assert.equal(c.encoding, 'coord_list');
  assert.deepEqual(c.cells, cellsOf(CROSS));
  assert.deepEqual(shortestPath(c, 8), [[1, 2], [2, 2], [3, 2], [4, 2]]);
  // Any spacing; the last maze of a message counts.
  const odd = readMaze('Walls:(0,0) ,( 0 , 1)\nEmpty: (1,0)\nPlayer position:(1, 1)\nGoal: (0,2)\n\nP 0\nG 1');
  assert.deepEqual([odd.encoding, odd.player, odd.goal], ['matrix', [0, 0], [1, 0]]);
  const first = readMaze('P 0\nG 1\n\nWalls:(0,0) ,( 0 , 1)\nEmpty: (1,0)\nPlayer position:(1, 1)\nGoal: (0,2)');
  assert.deepEqual([first.encoding, first.player, first.goal, first.rows, first.cols], ['coord_list', [1, 1], [0, 2], 2, 3]);
  assert.equal(readMaze('Walls: ..., Empty: ..., Player position: (r, c), Goal: (r, c)'), null);
  assert.equal(movementOf(solvePrompt('', 8, 'matrix')), 8);
  assert.equal(movementOf(solvePrompt('', 4, 'matrix')), 4);
  assert.equal(phaseOf(solvePrompt('', 4, 'matrix', true)), 'path');
  assert.equal(phaseOf(combinedPrompt('')), 'combined');
});

test('the scenario grammar', () => {
  const faults = (name) => {
    const { fault, count, latency } = parseScenario(name);
    return { fault, count, latency };
  };
  assert.deepEqual(faults('ok-u123'), { fault: 'ok', count: null, latency: 0 });
  assert.deepEqual(faults('429ra-x2-uabc'), { fault: '429ra', count: 2, latency: 0 });
  assert.deepEqual(faults('429ra-x2-3f9a'), { fault: '429ra', count: 2, latency: 0 });
  assert.deepEqual(faults('no-cors-u1'), { fault: 'nocors', count: null, latency: 0 });
  assert.deepEqual(faults('lat100'), { fault: 'ok', count: null, latency: 100 });
  assert.deepEqual(faults('lat50-503-x1-ux-500'), { fault: '503', count: 1, latency: 50 });
  assert.deepEqual(faults('SLOW-uQ'), { fault: 'slow', count: null, latency: 0 });
  assert.deepEqual(faults('blank-u1'), { fault: 'blank', count: null, latency: 0 });
  assert.deepEqual(faults('thinklimit-x1-u1'), { fault: 'thinklimit', count: 1, latency: 0 });
  assert.deepEqual(faults('nojsonschema-notools-u1'), { fault: 'ok', count: null, latency: 0 }, 'a refusal is no fault');
});

test('a good model follows a shortest path on a matrix prompt, recognizes and generates', async () => {
  const s = `ok-u${uid()}`;
  const { moves, messages, maze } = await playSolve(s, 'good:square', SQUARE, 4, 'matrix');
  assert.equal(moves.length, shortestPath(maze, 4).length);
  assert.deepEqual(moves.at(-1), maze.goal);

  messages.push({ role: 'user', content: recognizePrompt(SQUARE.join('\n')) });
  const rec = await complete(s, 'good:square', messages);
  assert.match(rec.content, /\nShape: square$/);
  messages.push({ role: 'assistant', content: rec.content }, { role: 'user', content: generatePrompt('matrix') });
  const gen = await complete(s, 'good:square', messages);
  const made = readMaze(gen.content);
  assert.equal(made.encoding, 'matrix');
  assert.deepEqual([made.player, made.goal], [maze.goal, maze.player], 'P and G swapped');
  assert.ok(gen.content.endsWith(['G 0 0 0 0', '0 1 1 1 0', '0 1 1 1 0', '0 1 1 1 0', '0 0 0 0 P'].join('\n')));
  const u = gen.json.usage;
  assert.ok(u.prompt_tokens > 100 && u.completion_tokens > 10 && u.total_tokens === u.prompt_tokens + u.completion_tokens);
  assert.equal(gen.json.object, 'chat.completion');
  assert.equal(gen.json.choices[0].finish_reason, 'stop');
});

test('a good model follows a shortest path with diagonals on a coordinate-list prompt', async () => {
  const s = `ok-u${uid()}`;
  const { moves, messages, maze } = await playSolve(s, 'good:cross', CROSS, 8, 'coord_list');
  assert.equal(moves.length, 4);
  messages.push({ role: 'user', content: combinedPrompt(coordList(CROSS)) });
  const both = await complete(s, 'good:cross', messages);
  assert.match(both.content, /^Shape: cross$/m);
  const made = readMaze(both.content);
  assert.equal(made.encoding, 'coord_list');
  assert.deepEqual([made.player, made.goal], [maze.goal, maze.player]);
  assert.match(both.content, /\nGoal: \(0, 2\)$/, 'the maze is written last');
  // The whole path in one reply.
  const path = await complete(s, 'good', [{ role: 'user', content: solvePrompt(coordList(CROSS), 8, 'coord_list', true) }]);
  assert.match(path.content, /Path: \(0, 2\), \(1, 2\), \(2, 2\), \(3, 2\), \(4, 2\)$/);
});

test('bad, wander and think play as scripted', async () => {
  const s = `ok-u${uid()}`;
  const first = [{ role: 'user', content: solvePrompt(SQUARE.join('\n'), 4, 'matrix') }];
  const m1 = moveOf((await complete(s, 'bad', first)).content);
  assert.ok(['0,1', '1,0'].includes(String(m1)), 'a valid first move');
  const moved = ['0 P 0 0 0', ...SQUARE.slice(1)];
  const second = [...first, { role: 'assistant', content: `Move: (${m1})` }, { role: 'user', content: updatePrompt((m1[1] === 1 ? moved : ['0 0 0 0 0', 'P 1 1 1 0', ...SQUARE.slice(2)]).join('\n'), 1) }];
  const m2 = moveOf((await complete(s, 'bad', second)).content);
  assert.equal(readMaze(second.at(-1).content).cells[m2[0]][m2[1]], '1', 'the second move hits a wall');
  const rec = [...first, { role: 'user', content: recognizePrompt(SQUARE.join('\n')) }];
  assert.match((await complete(s, 'bad', rec)).content, /Shape: circle$/);
  const gen = [...first, { role: 'user', content: generatePrompt('matrix') }];
  assert.ok((await complete(s, 'bad', gen)).content.endsWith(SQUARE.join('\n')), 'a copy');

  // wander: there and back again.
  const w1 = moveOf(respond('wander', first).content);
  const away = SQUARE.map((l) => l.split(' '));
  away[0][0] = '0';
  away[w1[0]][w1[1]] = 'P';
  const w2 = moveOf(respond('wander', [...first, { role: 'assistant', content: '' }, { role: 'user', content: updatePrompt(away.map((r) => r.join(' ')).join('\n'), 1) }]).content);
  assert.deepEqual(w2, [0, 0]);

  const t = await complete(s, 'think:spiral', [{ role: 'user', content: recognizePrompt(SQUARE.join('\n')) }]);
  assert.match(t.content, /Shape: spiral$/);
  assert.match(t.json.choices[0].message.reasoning_content, /step by step/);
});

test('streaming delivers the same text as non-streaming and ends with [DONE]', async () => {
  const s = `ok-u${uid()}`;
  const messages = [{ role: 'user', content: solvePrompt(coordList(SQUARE), 4, 'coord_list') }, { role: 'assistant', content: 'Move: (0, 1)' }, { role: 'user', content: generatePrompt('coord_list') }];
  const plain = (await complete(s, 'good', messages)).content;
  const res = await chat(s, { model: 'good', messages, stream: true, stream_options: { include_usage: true } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^text\/event-stream/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  const { chunks, done } = await readStream(res);
  assert.ok(done, 'ends with [DONE]');
  assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
  const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
  assert.equal(text, plain);
  assert.ok(chunks.filter((c) => c.choices[0]?.delta?.content).length > 10, 'a few characters at a time');
  assert.equal(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, 'stop');
  const usage = chunks.at(-1);
  assert.deepEqual(usage.choices, []);
  assert.ok(usage.usage.completion_tokens > 0);

  // think: reasoning deltas before content deltas; no usage chunk unless asked.
  const t = await readStream(await chat(s, { model: 'think', messages, stream: true }));
  const kinds = t.chunks.map((c) => (c.choices[0]?.delta?.reasoning_content ? 'r' : c.choices[0]?.delta?.content ? 'c' : '-')).join('');
  assert.match(kinds, /^-r+c+-$/);
  assert.equal(t.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join(''), plain);
  assert.ok(t.chunks.every((c) => !c.usage));
});

test('logprobs: one entry per word, streamed or not', async () => {
  const s = `ok-u${uid()}`;
  const messages = [{ role: 'user', content: recognizePrompt(SQUARE.join('\n')) }];
  const { json, content } = await complete(s, 'good', messages, { logprobs: true });
  const lp = json.choices[0].logprobs.content;
  assert.equal(lp.length, content.split(/\s+/).filter(Boolean).length);
  assert.equal(lp.map((t) => t.token).join(''), content);
  assert.ok(lp.every((t) => t.logprob < 0 && Array.isArray(t.top_logprobs)));
  const st = await readStream(await chat(s, { model: 'good', messages, logprobs: true, stream: true }));
  const streamed = st.chunks.flatMap((c) => c.choices[0]?.logprobs?.content ?? []);
  assert.deepEqual(streamed, lp);
});

test('top_logprobs: subword tokens, each digit with the next and the one before as alternatives', async () => {
  const s = `ok-u${uid()}`;
  const messages = [{ role: 'user', content: solvePrompt(SQUARE.join('\n'), 4, 'matrix') }];
  const { json, content } = await complete(s, 'good', messages, { logprobs: true, top_logprobs: 5 });
  const lp = json.choices[0].logprobs.content;
  assert.equal(lp.map((t) => t.token).join(''), content);
  const digits = lp.filter((t) => /^\d$/.test(t.token));
  assert.ok(digits.length >= 2, content);
  for (const t of digits) {
    const d = Number(t.token);
    assert.equal(t.top_logprobs[0].token, t.token);
    assert.equal(t.top_logprobs[1].token, String((d + 1) % 10));
    const total = t.top_logprobs.reduce((a, x) => a + Math.exp(x.logprob), 0);
    assert.ok(total <= 1 + 1e-9, `alternatives sum to at most 1: ${total}`);
  }
  const st = await readStream(await chat(s, { model: 'good', messages, logprobs: true, top_logprobs: 5, stream: true }));
  assert.deepEqual(st.chunks.flatMap((c) => c.choices[0]?.logprobs?.content ?? []), lp);
});

const body = (model = 'good') => ({ model, messages: [{ role: 'user', content: solvePrompt(SQUARE.join('\n'), 4, 'matrix') }] });

test('429ra-x2: two 429s with Retry-After, then normal', async () => {
  const s = `429ra-x2-u${uid()}`;
  for (let i = 0; i < 2; i++) {
    const r = await chat(s, body());
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '1');
    assert.equal(r.headers.get('x-ratelimit-remaining-requests'), '0');
    assert.match(r.headers.get('access-control-expose-headers'), /Retry-After/);
    assert.match(r.headers.get('access-control-expose-headers'), /x-ratelimit-remaining-requests/);
    assert.equal((await r.json()).error.code, 'rate_limit_exceeded');
  }
  assert.equal((await chat(s, body())).status, 200);
  // Counters are per scenario name: another name starts afresh.
  assert.equal((await chat(`429ra-x2-u${uid()}`, body())).status, 429);
});

test('429, 500 and 503 with counts; without a count every request fails', async () => {
  const s429 = `429-x1-u${uid()}`;
  const r = await chat(s429, body());
  assert.equal(r.status, 429);
  assert.equal(r.headers.get('retry-after'), null);
  assert.equal((await chat(s429, body())).status, 200);
  const s500 = `500-x1-u${uid()}`;
  const e = await chat(s500, body());
  assert.equal(e.status, 500);
  assert.equal((await e.json()).error.type, 'server_error');
  assert.equal((await chat(s500, body())).status, 200);
  const s503 = `503-x2-u${uid()}`;
  assert.equal((await chat(s503, body())).status, 503);
  assert.equal((await chat(s503, body())).status, 503);
  assert.equal((await chat(s503, body())).status, 200);
  const always = `503-u${uid()}`;
  for (let i = 0; i < 3; i++) assert.equal((await chat(always, body())).status, 503);
});

test('401, nomodel and context errors', async () => {
  const a = await chat(`401-u${uid()}`, body());
  assert.equal(a.status, 401);
  assert.equal((await a.json()).error.message, 'Incorrect API key provided');
  const n = await chat(`nomodel-u${uid()}`, body('qwen-plus'));
  assert.equal(n.status, 404);
  assert.match((await n.json()).error.message, /^The model `qwen-plus` does not exist/);
  const c = await chat(`context-u${uid()}`, body());
  assert.equal(c.status, 400);
  assert.match((await c.json()).error.message, /^This model's maximum context length is \d+ tokens/);
});

test('malformed and empty answers', async () => {
  const m = await chat(`malformed-u${uid()}`, body());
  assert.equal(m.status, 200);
  const text = await m.text();
  assert.throws(() => JSON.parse(text));
  const ms = await chat(`malformed-u${uid()}`, { ...body(), stream: true });
  assert.match(ms.headers.get('content-type'), /^text\/event-stream/);
  const events = (await ms.text()).split('\n\n').filter(Boolean);
  assert.equal(events.at(-1), 'data: [DONE]');
  assert.throws(() => JSON.parse(events[0].slice(6)));
  const e = await chat(`empty-u${uid()}`, body());
  assert.equal(e.status, 200);
  assert.deepEqual((await e.json()).choices, []);
  const es = await readStream(await chat(`empty-u${uid()}`, { ...body(), stream: true }));
  assert.ok(es.done);
  assert.equal(es.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join(''), '');
});

test('slow waits (and drops an aborted request); latN delays every answer', async () => {
  const s = `slow-u${uid()}`;
  const t0 = Date.now();
  await assert.rejects(chat(s, body(), { signal: AbortSignal.timeout(300) }), /abort|timeout/i);
  assert.ok(Date.now() - t0 < 2000);
  await new Promise((r) => setTimeout(r, 150));
  const log = await (await fetch(`${mock.url}/log`)).json();
  const entry = log.find((e) => e.scenario === s);
  assert.equal(entry.aborted, true);
  assert.equal(entry.status, null, 'never answered');

  const l = `lat150-u${uid()}`;
  const t1 = Date.now();
  assert.equal((await chat(l, body())).status, 200);
  assert.ok(Date.now() - t1 >= 140, `took ${Date.now() - t1} ms`);
});

test('OPTIONS preflight headers, and no CORS headers at all in no-cors', async () => {
  const pre = await fetch(`${mock.url}/ok-u${uid()}/v1/chat/completions`, {
    method: 'OPTIONS',
    headers: { origin: 'http://127.0.0.1:8091', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });
  assert.ok(pre.status === 204 || pre.status === 200);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-headers'), /authorization/i);
  assert.match(pre.headers.get('access-control-allow-headers'), /content-type/i);
  assert.match(pre.headers.get('access-control-allow-methods'), /POST/);
  assert.match(pre.headers.get('access-control-allow-methods'), /OPTIONS/);
  assert.match(pre.headers.get('access-control-expose-headers'), /Retry-After/);
  assert.match(pre.headers.get('access-control-expose-headers'), /x-ratelimit-/);

  const s = `no-cors-u${uid()}`;
  const npre = await fetch(`${mock.url}/${s}/v1/chat/completions`, { method: 'OPTIONS' });
  assert.equal(npre.headers.get('access-control-allow-origin'), null);
  const r = await chat(s, body());
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('access-control-allow-origin'), null);
  assert.ok([...r.headers.keys()].every((k) => !k.startsWith('access-control-')));
  assert.match((await r.json()).choices[0].message.content, /Move: \(/);
});

test('/log records method, scenario, model, stream flag, headers and body; /reset clears it', async () => {
  await fetch(`${mock.url}/reset`, { method: 'POST' });
  const s = `ok-u${uid()}`;
  await chat(s, { ...body('good:spiral'), stream: true }).then((r) => r.text());
  const log = await (await fetch(`${mock.url}/log`)).json();
  assert.equal(log.length, 1);
  const [e] = log;
  assert.equal(e.method, 'POST');
  assert.equal(e.scenario, s);
  assert.equal(e.model, 'good:spiral');
  assert.equal(e.stream, true);
  assert.equal(e.status, 200);
  assert.equal(e.headers.authorization, 'Bearer test-key');
  assert.equal(e.headers['content-type'], 'application/json');
  assert.equal(e.body.messages.length, 1);
  // Counters are cleared too.
  const c = `429ra-x1-u${uid()}`;
  assert.equal((await chat(c, body())).status, 429);
  await fetch(`${mock.url}/reset`, { method: 'POST' });
  assert.deepEqual(await (await fetch(`${mock.url}/log`)).json(), []);
  assert.equal((await chat(c, body())).status, 429, 'counting starts again');
  assert.equal((await fetch(`${mock.url}/healthz`)).status, 200);
});

// `shapemaze generate --shape spiral --samples 1 --out DIR --images`: maze 0 as its PNG.
const SPIRAL_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAKYAAACmCAMAAABnVgRFAAAAD1BMVEWco68fKTP///8lY+sWo0p4olWVAAACKElEQVR4AWNiGBKAiYGJAGBgIgAYmAgABiYCgIGJAAA6c0iAUWeOOnPUmaPOHHXmqDNHnTnqzFFnjjpz1Jmjzhx15qgzR5056sxRZ446c9SZ9HXmPwKA4R8BwPCPAGD4RwAw/CMAgM5kIgAYGAkABkYCgIGRAGBgIgCAzhwSYNSZo84cdeaoM0edOerMUWeOOnPUmaPOHHXmqDNHnTnqzFFnjjpz1Jmjzhx1Jn2d+Y8AYPhPADD8JwAY/hMADP8IAKAzmQgABkYCgIGJAGBgJAAYmAgAoDOHBBh15qgzR5056sxRZ446c9SZo84cdeaoM0edOerMUWeOOnPUmaPOHHXmqDNHnUlfZ/4jABj+EwAM/wgAhv8EAMM/AgDoTCYCgIGRAGBgIgAYGAkABiYCAOjMIQFGnTnqzFFnjjpz1Jmjzhx15qgzR5056sxRZ446c9SZo84cdeaoM0edOerMUWfS15n/CACG/wQAwz8CgOE/AcDwjwAAOpOFAGBgIgAYmAgABkYCgIGZAAA6c0gAZGf+QwID4cz/aACHMwcxGHUmLZz5DwiYkMA/IBgIZzIigf9AgObMQQ5GnUkPZzIBwRBw5iADo86kpTP/IYGBcOZ/JMAIBDicOUjBqDNp6UwmKBgoZzIiATzOHKRg1Jmjzhx15khyJhMQ/EMCg9SZgxyMOpNWzmRCA/R2JiMQEOHMQQyYGP4QAAz/CACGfwQAw38CgOEvAcAAAFAJbXrF+fxPAAAAAElFTkSuQmCC';
const SPIRAL = '0 0 0 0 0\n0 1 1 1 0\n0 1 0 1 0\n0 1 0 1 0\nG 0 0 1 P';

test('an image_url part is decoded into the maze it shows, and a broken one is refused', async () => {
  assert.equal(mazeOfImage(SPIRAL_PNG), SPIRAL);
  // Image only: the scripted model plays the maze it decoded, and writes its new maze in
  // the encoding the legend names.
  const parts = (text) => [{ type: 'text', text }, { type: 'image_url', image_url: { url: SPIRAL_PNG } }];
  const first = { role: 'user', content: parts('Phase 1 of 3: solve the maze.\nCells are (row, col), counted from 0, row 0 at the top; a maze is written as lists of cells: walls, empty corridor cells, the player and the goal.\n\n[The maze is shown in the attached image.]') };
  assert.match(respond('good', [first]).content, /Move: \(3, 4\)|Move: \(4, 3\)/);
  const generate = { role: 'user', content: 'Phase 3 of 3: generate a new maze.' };
  assert.match(respond('good', [first, generate]).content, /Walls: .*\nEmpty: .*\nPlayer position: \(4, 0\)\nGoal: \(4, 4\)/s);
  assert.throws(() => mazeOfImage('https://example.com/maze.png'), /not a data:image\/png;base64 URL/);
  assert.throws(() => mazeOfImage(SPIRAL_PNG.slice(0, 60)), /./);
});

test('a second-reader prompt is answered as a judge, in JSON', () => {
  const ask = (reply, what) => [
    { role: 'system', content: 'You read replies that language models gave in a maze task and say what each reply gives as its answer.' },
    { role: 'user', content: `The reply:\n<<<\n${reply}\n>>>\n\nWhich? Answer ${what}` },
  ];
  assert.equal(respond('judge', ask('I step there.\nMove: (0, 1)', '{"move": [row, col]}')).content, '{"move":[0,1]}');
  assert.equal(respond('judge', ask('no idea', '{"move": [row, col]}')).content, '{"move":null}');
  assert.equal(respond('judge', ask('It is an outline.\nShape: spiral', '{"shape": NAME}')).content, '{"shape":"spiral"}');
  assert.equal(respond('judge', ask('1 1\nP G', '{"maze": ["row", ...]}')).content, '{"maze": null}');
});

// ---------------------------------------------------------------------------------------
// Answer forms (docs/guides/answer-modes.md)

const SCHEMA_NOTE = '\n\nAnswer format: instead of the form above, reply with one JSON object and nothing else, your reasoning first, then the answer: {"reasoning": "...", "row": R, "col": C}\n(row and col: the cell you move to, each from 0 to 4.)';
const moveTool = [{ type: 'function', function: { name: 'submit_move', parameters: { type: 'object' } } }];
const jsonSchema = { type: 'json_schema', json_schema: { name: 'move', strict: true, schema: { type: 'object' } } };

test('a scenario names the spellings it refuses and how it holds forms', () => {
  const s = parseScenario('nojsonschema-nostructured500-notools-ignoreform-formreason-transcribewrong-u1');
  assert.deepEqual(s.refuse, { jsonschema: 400, structured: 500, toolnamed: 400, toolrequired: 400 });
  assert.equal(s.ignoreForm && s.formReason && s.transcribeWrong, true);
  assert.deepEqual(parseScenario('ok').refuse, {}, 'nothing refused by default');
  assert.equal(spellingOf({ response_format: jsonSchema }), 'jsonschema');
  assert.equal(spellingOf({ structured_outputs: { json: {} } }), 'structured');
  assert.equal(spellingOf({ format: { type: 'object' } }), 'format');
  assert.equal(spellingOf({ response_format: { type: 'json_object' } }), 'jsonobject');
  assert.equal(spellingOf({ tools: moveTool, tool_choice: { type: 'function', function: { name: 'submit_move' } } }), 'toolnamed');
  assert.equal(spellingOf({ tools: moveTool, tool_choice: 'required' }), 'toolrequired');
  assert.equal(spellingOf({}, `x${SCHEMA_NOTE}`), 'prompt', 'the words alone');
  assert.equal(spellingOf({}, 'Reply with your next move'), null);
});

test('every schema spelling is held: one JSON object, the reasoning first, the answer as the schema names it', async () => {
  const messages = [{ role: 'user', content: solvePrompt(SQUARE.join('\n'), 4, 'matrix') + SCHEMA_NOTE }];
  for (const extra of [{ response_format: jsonSchema }, { structured_outputs: { json: {} } }, { format: { type: 'object' } }, { response_format: { type: 'json_object' } }, {}]) {
    const { content } = await complete(`ok-u${uid()}`, 'good', messages, extra);
    const json = JSON.parse(content);
    assert.deepEqual(Object.keys(json), ['reasoning', 'row', 'col'], `${JSON.stringify(extra)}: ${content}`);
    assert.deepEqual([json.row, json.col].some((x) => x === 1), true, 'a step next to P');
  }
  // Recognition and a coordinate-list maze by the schema's fields too.
  const shape = JSON.parse((await complete(`ok-u${uid()}`, 'good:cross', [{ role: 'user', content: solvePrompt(SQUARE.join('\n'), 4, 'matrix') }, { role: 'user', content: recognizePrompt(SQUARE.join('\n')) }], { response_format: jsonSchema })).content);
  assert.equal(shape.shape, 'cross');
  const maze = JSON.parse((await complete(`ok-u${uid()}`, 'good', [{ role: 'user', content: solvePrompt(coordList(SQUARE), 4, 'coord_list') }, { role: 'user', content: generatePrompt('coord_list') }], { response_format: jsonSchema })).content);
  assert.deepEqual(Object.keys(maze), ['reasoning', 'walls', 'empty', 'player', 'goal']);
  assert.deepEqual([maze.player, maze.goal], [{ row: 4, col: 4 }, { row: 0, col: 0 }], 'P and G swapped');
});

test('a refused spelling is answered 400, or 500 naming response_format; an ignored one with free text', async () => {
  const messages = [{ role: 'user', content: solvePrompt(SQUARE.join('\n'), 4, 'matrix') }];
  let res = await chat(`nojsonschema-u${uid()}`, { model: 'good', messages, response_format: jsonSchema });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /response_format .* not supported/);
  res = await chat(`nojsonschema500-u${uid()}`, { model: 'good', messages, response_format: jsonSchema });
  assert.equal(res.status, 500);
  assert.match((await res.json()).error.message, /response_format\.type/);
  // Refusing one spelling leaves the others held.
  const { content } = await complete(`nojsonschema-u${uid()}`, 'good', messages, { response_format: { type: 'json_object' } });
  assert.ok(JSON.parse(content).reasoning);
  const ignored = await complete(`ignoreform-u${uid()}`, 'good', messages, { response_format: jsonSchema });
  assert.match(ignored.content, /^The next cell .*\nMove: \(\d, \d\)$/s, 'free text, 200');
  res = await chat(`notools-u${uid()}`, { model: 'good', messages, tools: moveTool, tool_choice: 'required' });
  assert.equal(res.status, 400);
});

test('a forced function call comes back as tool_calls, streamed in pieces too, and a tool message is the next prompt', async () => {
  const messages = [{ role: 'user', content: solvePrompt(SQUARE.join('\n'), 4, 'matrix') }];
  const forced = { tools: moveTool, tool_choice: { type: 'function', function: { name: 'submit_move' } } };
  const { json } = await complete(`ok-u${uid()}`, 'good', messages, forced);
  const call = json.choices[0].message.tool_calls[0];
  assert.equal(call.function.name, 'submit_move');
  assert.equal(json.choices[0].finish_reason, 'tool_calls');
  const args = JSON.parse(call.function.arguments);
  assert.deepEqual(Object.keys(args), ['row', 'col'], 'the answer alone');
  const res = await chat(`ok-u${uid()}`, { model: 'good', messages, stream: true, ...forced });
  const { chunks, done } = await readStream(res);
  assert.ok(done);
  const pieces = chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []);
  assert.ok(pieces.length > 2, 'the arguments in several pieces');
  assert.equal(pieces.map((p) => p.function?.arguments ?? '').join(''), call.function.arguments);
  // The call answered with the redrawn maze (a tool message): the next move from there.
  const moved = readMaze(SQUARE.join('\n'));
  const next = { ...moved, cells: moved.cells.map((r) => [...r]) };
  next.cells[0][0] = '0';
  next.cells[args.row][args.col] = 'P';
  const conversation = [...messages, { role: 'assistant', content: '', tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: updatePrompt(writeMaze(next, 'matrix'), 1) }];
  const again = JSON.parse((await complete(`ok-u${uid()}`, 'good', conversation, forced)).json.choices[0].message.tool_calls[0].function.arguments);
  assert.notDeepEqual([again.row, again.col], [0, 0], 'it moves on from where the call left it');
  // A null content is refused as llama-cpp-python's server refuses it: with a 500.
  conversation[1] = { role: 'assistant', content: null, tool_calls: [call] };
  const refused = await chat(`ok-u${uid()}`, { model: 'good', messages: conversation, ...forced });
  assert.equal(refused.status, 500);
  assert.match(await refused.text(), /messages\.1\.content: Input should be a valid string/);
  // So is a message without a content (its chat formatter's KeyError).
  conversation[1] = { role: 'assistant', tool_calls: [call] };
  const missing = await chat(`ok-u${uid()}`, { model: 'good', messages: conversation, ...forced });
  assert.equal(missing.status, 500);
  assert.match(await missing.text(), /'content'/);
});

test('formreason puts a held answer in the reasoning field and leaves the content empty', async () => {
  const messages = [{ role: 'user', content: solvePrompt(SQUARE.join('\n'), 4, 'matrix') }];
  const { json } = await complete(`formreason-u${uid()}`, 'good', messages, { response_format: { type: 'json_object' } });
  const m = json.choices[0].message;
  assert.equal(m.content, '');
  assert.match(m.reasoning_content, /\{"reasoning":.*"row":\d,"col":\d\}$/s);
});

test('a transcription copies the answer the reply gives, none where it gives none, and transcribewrong names another shape', async () => {
  const ask = (question, reply) => `Transcribe the answer a reply gives.\nBelow is a reply a model gave to a question about a maze. ${question} Copy the answer the reply itself gives.\n\nThe reply:\n<<<\n${reply}\n>>>\n\nAnswer with one JSON object and nothing else`;
  assert.deepEqual(transcribe(ask('What move does this reply give as its answer (the cell it moves to next)?', 'Down is open.\nMove: (1, 0)')), { row: 1, col: 0 });
  assert.deepEqual(transcribe(ask('What move does this reply give as its answer (the cell it moves to next)?', 'I am stuck.')), { row: null, col: null });
  assert.deepEqual(transcribe(ask('What shape does this reply name as its answer?', 'A ring.\nShape: square')), { shape: 'square' });
  assert.deepEqual(transcribe(ask('What shape does this reply name as its answer?', 'A ring.\nShape: square'), true), { shape: 'cross' });
  assert.deepEqual(transcribe(ask('What maze does this reply give as its answer?', SQUARE.join('\n'))), { rows: SQUARE });
  const { content } = await complete(`ok-u${uid()}`, 'good', [{ role: 'user', content: ask('What shape does this reply name as its answer?', 'Shape: Z') }]);
  assert.deepEqual(JSON.parse(content), { shape: 'Z' });
});

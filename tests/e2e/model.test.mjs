// End-to-end tests of /model: whole trials played by the built-in players and by chat
// models behind the scripted endpoint (tests/mock-endpoint/server.mjs, at MOCK_URL), its
// faults included. Each endpoint trial uses a fresh scenario name (`ok-u<random>`), so the
// endpoint's per-scenario counters and log entries belong to that trial alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, SHOTS, MOCK_URL, launch, openModel, readMaze, shortestPath, phase, verdict,
  useEndpoint, runTrial, waitForEnd, downloadText, mockLog, withPage,
} from './helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);
const scenario = (fault) => `${fault}-u${rand()}`;
const baseUrl = (s) => `${MOCK_URL}/${s}/v1`;

async function verdicts(page) {
  const out = {};
  for (const w of ['solve', 'recognize', 'generate']) out[w] = await verdict(page, w);
  return out;
}

async function assertAllSucceed(page) {
  const v = await verdicts(page);
  for (const [w, { outcome, text }] of Object.entries(v)) assert.equal(outcome, 'success', `${w}: ${text}`);
  assert.equal(await phase(page), 'done');
}

async function record(page) {
  const text = await downloadText(page, 'download-record');
  return { text, rec: JSON.parse(text) };
}

function assertAlternates(messages) {
  assert.ok(messages.length >= 2);
  messages.forEach((m, i) => {
    assert.equal(m.role, i % 2 ? 'assistant' : 'user', `message ${i} is ${m.role}`);
    assert.equal(typeof m.content, 'string');
  });
}

// Request headers a browser adds by itself; anything else must be authorization or content-type.
const BROWSER_HEADERS = new Set([
  'host', 'connection', 'content-length', 'user-agent', 'accept', 'accept-encoding', 'accept-language',
  'origin', 'referer', 'cache-control', 'pragma', 'priority', 'dnt',
]);

function assertOnlyAuthAndContentType(entries) {
  const posts = entries.filter((e) => e.method === 'POST');
  assert.ok(posts.length > 0, 'the endpoint got requests');
  for (const e of posts) {
    const extra = Object.keys(e.headers).filter((h) => !BROWSER_HEADERS.has(h) && !h.startsWith('sec-'));
    assert.deepEqual(extra.sort(), ['authorization', 'content-type'], `request headers: ${JSON.stringify(e.headers)}`);
    assert.equal(e.headers.authorization, 'Bearer test-key');
    assert.match(e.headers['content-type'], /^application\/json/);
  }
  for (const e of entries.filter((x) => x.method === 'OPTIONS')) {
    const asked = (e.headers['access-control-request-headers'] ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
    assert.deepEqual(asked.sort(), ['authorization', 'content-type'], 'the preflight asks for these two only');
  }
}

test('the oracle plays a whole trial; the record has every field and alternating messages', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=square&size=5&encoding=matrix&seed=3&sample=0');
    const maze = await readMaze(page);
    await page.selectOption('[data-testid="agent"]', 'oracle');
    await runTrial(page);
    await assertAllSucceed(page);
    assert.equal(await page.innerText('[data-testid="moves"]'), String(shortestPath(maze).length));
    await page.screenshot({ path: `${SHOTS}/model-oracle.png`, fullPage: true });

    const { rec } = await record(page);
    assert.equal(rec.player, 'oracle');
    assert.equal(typeof rec.model, 'string');
    assert.deepEqual([rec.shape, rec.size, rec.encoding, rec.seed, rec.sample], ['square', 5, 'matrix', 3, 0]);
    assert.equal(typeof rec.repeat, 'number');
    assert.ok(rec.versions && typeof rec.versions === 'object');
    for (const w of ['solve', 'recognize', 'generate']) assert.equal(rec.verdicts[w].outcome, 'success', w);
    assertAlternates(rec.messages);
    assert.match(rec.messages[0].content, /^Phase 1 of 3/);
    // stepwise: one prompt per move, then recognition and generation.
    assert.equal(rec.messages.length, 2 * (shortestPath(maze).length + 2));
    const steps = page.locator('[data-testid="transcript"] [data-testid="transcript-step"]');
    assert.equal(await steps.count(), rec.messages.length, 'the transcript pane shows every step');
    assert.equal(await steps.first().getAttribute('data-role'), 'user');
    assert.equal(await steps.last().getAttribute('data-role'), 'assistant');

    const transcript = await downloadText(page, 'download-transcript');
    assert.ok(transcript.endsWith('SOLVE: SUCCESS\nRECOGNIZE: SUCCESS\nGENERATE: SUCCESS\n'), transcript.slice(-200));
  });
});

test("?symbols=@*SE: the prompts and the record use the set, and the oracle's maze is read in it", async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=square&size=5&encoding=matrix&seed=3&sample=0&symbols=%40*SE');
    await page.selectOption('[data-testid="agent"]', 'oracle');
    await runTrial(page);
    await assertAllSucceed(page);
    const { rec } = await record(page);
    assert.equal(rec.symbols, '@ * S E');
    assert.match(rec.messages[0].content, /Legend: @ = wall, \* = empty corridor, S = player, E = goal\./);
    assert.match(rec.messages.at(-1).content, /^[@*SE ]+$/m, 'the new maze is written in the set');
  });
});

test('?vision=image: a model is sent the maze as a PNG it decodes and plays, and the record says so', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=spiral&size=7&encoding=coord_list&seed=2&sample=1&vision=image');
    const s = scenario('ok');
    await useEndpoint(page, { baseUrl: baseUrl(s), model: 'good:spiral' });
    await runTrial(page);
    await assertAllSucceed(page);
    const { rec } = await record(page);
    assert.equal(rec.vision, 'image');
    assert.match(rec.messages[0].content, /\[The maze is shown in the attached image\.\]/);
    assert.doesNotMatch(rec.messages[0].content, /Walls:/, 'the text sets the maze aside');
    const posts = (await mockLog(s)).filter((e) => e.method === 'POST');
    // Each request's first message carries the image; so do the updates and the question.
    for (const e of posts) {
      const users = e.body.messages.filter((m) => m.role === 'user');
      assert.ok(Array.isArray(users[0].content) && users[0].content[1].type === 'image_url', JSON.stringify(users[0]).slice(0, 200));
      for (const m of users) {
        const text = Array.isArray(m.content) ? m.content[0].text : m.content;
        assert.equal(Array.isArray(m.content), !text.startsWith('Phase 3'), text.slice(0, 80));
      }
    }
  });
});

test('the random player finishes a trial with every verdict present', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=C&seed=7&sample=2');
    await page.selectOption('[data-testid="agent"]', 'random');
    await runTrial(page);
    assert.equal(await phase(page), 'done');
    const v = await verdicts(page);
    for (const [w, { outcome }] of Object.entries(v)) assert.ok(['success', 'fail'].includes(outcome), `${w}: ${outcome}`);
    await page.screenshot({ path: `${SHOTS}/model-random.png`, fullPage: true });
    const { rec } = await record(page);
    assert.equal(rec.player, 'random');
    for (const w of ['solve', 'recognize', 'generate']) assert.ok(['success', 'fail'].includes(rec.verdicts[w]?.outcome), w);
    assertAlternates(rec.messages);
  });
});

for (const stream of [false, true]) {
  test(`a good model behind the endpoint succeeds ${stream ? 'streaming' : 'without streaming'}, and the key goes only into Authorization`, async () => {
    await withPage(async (page) => {
      await openModel(page, 'shape=square&size=5&encoding=matrix&seed=3&sample=0');
      const s = scenario('ok');
      await useEndpoint(page, { baseUrl: baseUrl(s), model: 'good:square', stream, maxAttempts: 2 });
      await runTrial(page);
      await assertAllSucceed(page);
      await page.screenshot({ path: `${SHOTS}/model-endpoint-${stream ? 'stream' : 'plain'}.png`, fullPage: true });

      const { text, rec } = await record(page);
      assert.equal(rec.player, 'endpoint');
      assert.equal(rec.model, 'good:square');
      assertAlternates(rec.messages);
      for (const m of rec.messages.filter((x) => x.role === 'assistant')) {
        assert.equal(typeof m.latency_ms, 'number', 'latency of each reply');
        assert.ok(m.latency_ms >= 0);
        assert.ok(m.prompt_tokens > 0 && m.completion_tokens > 0, `token counts: ${JSON.stringify(m)}`);
        if (m.streamed !== undefined && m.streamed !== null) assert.equal(m.streamed, stream);
      }
      // The transcript pane shows latency and tokens on each reply.
      const head = await page.locator('[data-testid="transcript-step"][data-role="assistant"]').first().innerText();
      assert.match(head, /\d+(\.\d+)? m?s/);
      assert.match(head, /tokens/);

      const log = await mockLog(s);
      const posts = log.filter((e) => e.method === 'POST');
      assert.equal(posts.length, rec.messages.filter((m) => m.role === 'assistant').length, 'one request per reply');
      assert.ok(posts.every((e) => e.stream === stream && e.model === 'good:square'));
      assertOnlyAuthAndContentType(log);

      assert.ok(!text.includes('test-key'), 'the key is not in the record');
      const transcript = await downloadText(page, 'download-transcript');
      assert.ok(!transcript.includes('test-key'), 'the key is not in the transcript');
      assert.ok(!page.url().includes('test-key'), 'nor in the address');
    });
  });
}

test('a thinking model streams: reasoning folded in the step, content separate', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=square&seed=3&sample=0');
    const s = scenario('ok');
    await useEndpoint(page, { baseUrl: baseUrl(s), model: 'think:square', stream: true });
    await runTrial(page);
    await assertAllSucceed(page);
    const reply = page.locator('[data-testid="transcript-step"][data-role="assistant"]').first();
    const details = reply.locator('details');
    assert.equal(await details.count(), 1, 'one folded reasoning block');
    assert.equal(await details.getAttribute('open'), null, 'folded');
    await details.locator('summary').click();
    const reasoning = await details.innerText();
    assert.match(reasoning, /step by step/);
    assert.doesNotMatch(reasoning, /Move: \(/, 'the content is not in the reasoning');
    const all = await reply.innerText();
    assert.match(all, /Move: \(\d+, \d+\)/);
    await page.screenshot({ path: `${SHOTS}/model-think.png`, fullPage: true });
    const { rec } = await record(page);
    const first = rec.messages.find((m) => m.role === 'assistant');
    assert.match(first.reasoning, /step by step/);
    assert.doesNotMatch(first.content, /step by step/);
  });
});

/** Starts a trial against a fresh `fault` scenario and returns it with the first retry status shown. */
async function firstRetryStatus(page, fault, maxAttempts) {
  await openModel(page, 'shape=square&seed=3&sample=0');
  const s = scenario(fault);
  await useEndpoint(page, { baseUrl: baseUrl(s), model: 'good:square', maxAttempts });
  await page.click('[data-testid="run-trial"]');
  const seen = await page.waitForFunction(() => document.querySelector('[data-testid="retry-status"]')?.textContent, null, { timeout: 10000, polling: 50 });
  return { s, status: await seen.jsonValue() };
}

test('429 with Retry-After is retried with a visible status, then the trial succeeds', async () => {
  await withPage(async (page) => {
    const { s, status } = await firstRetryStatus(page, '429ra-x2', 4);
    assert.match(status, /429/);
    assert.match(status, /attempt \d+ of 4/);
    await page.screenshot({ path: `${SHOTS}/model-retry.png`, fullPage: true });
    await waitForEnd(page);
    await assertAllSucceed(page);
    assert.equal(await page.locator('[data-testid="retry-status"]').count(), 0, 'the status goes once the call succeeds');
    const statuses = (await mockLog(s)).filter((e) => e.method === 'POST').map((e) => e.status);
    assert.deepEqual(statuses.slice(0, 3), [429, 429, 200]);
    const { rec } = await record(page);
    const first = rec.messages.find((m) => m.role === 'assistant');
    if (first.attempts !== undefined && first.attempts !== null) assert.equal(first.attempts, 3);
  });
});

test('a 503 is retried and the trial recovers', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=square&seed=3&sample=0');
    const s = scenario('503-x1');
    await useEndpoint(page, { baseUrl: baseUrl(s), model: 'good:square', maxAttempts: 3 });
    await runTrial(page);
    await assertAllSucceed(page);
    assert.equal(await page.locator('[data-testid="api-error"]').count(), 0);
    await page.screenshot({ path: `${SHOTS}/model-503.png`, fullPage: true });
  });
});

// Faults that end the trial as an API error: every verdict `error`, never `fail`, and an
// actionable message.
const FATAL = [
  { fault: '401', why: /key/i },
  { fault: 'malformed', why: /JSON|malformed|not valid|could not (be )?(read|parse)|pars(e|ing)/i },
  { fault: 'empty', why: /no choices|empty|choices|no reply|no answer|nothing/i },
  { fault: 'nomodel', why: /model/i, also: /does not exist|not found|404|unknown/i },
  { fault: 'context', why: /context/i },
  { fault: 'slow', why: /time(d)?[ -]?out/i, timeout: 1 },
  { fault: 'no-cors', why: /CORS/ },
];

test('endpoint failures end the trial as an API error with a message naming the problem', async (t) => {
  await withPage(async (page) => {
    for (const { fault, why, also, timeout = 10 } of FATAL) {
      await t.test(fault, async () => {
        await openModel(page, 'shape=square&seed=3&sample=0');
        const s = scenario(fault);
        await useEndpoint(page, { baseUrl: baseUrl(s), model: 'good:square', maxAttempts: 1, timeout });
        await runTrial(page, 15000);
        // The message itself, without the fixed heading before it.
        const msg = await page.locator('[data-testid="api-error"]').evaluate((el) => {
          const copy = el.cloneNode(true);
          copy.querySelectorAll('strong').forEach((s) => s.remove());
          return copy.textContent;
        });
        assert.match(msg, why, msg);
        if (also) assert.match(msg, also, msg);
        await page.screenshot({ path: `${SHOTS}/model-error-${fault}.png`, fullPage: true });
        const v = await verdicts(page);
        for (const [w, { outcome, text }] of Object.entries(v)) assert.equal(outcome, 'error', `${w}: ${text}`);
        const { text, rec } = await record(page);
        for (const w of ['solve', 'recognize', 'generate']) assert.equal(rec.verdicts[w]?.outcome, 'error', w);
        assert.ok(!text.includes('test-key'));
      });
    }
  });
});

test('the endpoint panel starts without streaming, its help is plain text, and every preset note reads without markup', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=square&seed=3&sample=0');
    await page.selectOption('[data-testid="agent"]', 'endpoint');
    await page.waitForSelector('[data-testid="endpoint-stream"]');
    assert.equal(await page.isChecked('[data-testid="endpoint-stream"]'), false, 'streaming starts off, as on /experiment');
    const presets = await page.$$eval('[data-testid="endpoint-preset"] option', (os) => os.map((o) => o.value));
    assert.ok(presets.length > 5, `presets: ${presets}`);
    for (const p of presets) {
      await page.selectOption('[data-testid="endpoint-preset"]', p);
      const help = await page.innerText('.endpoint p.help');
      assert.doesNotMatch(help, /`|\*\*|__/, `${p}: ${help}`);
      assert.equal(await page.isChecked('[data-testid="endpoint-stream"]'), false, `${p} starts without streaming`);
    }
  });
});

test('a server that does not answer the page is named while retrying, and the final error is shown once', async () => {
  await withPage(async (page) => {
    // From the first failure on, the status says what most likely happened.
    const { s, status } = await firstRetryStatus(page, 'no-cors', 2);
    assert.ok(status.startsWith(`No answer from ${baseUrl(s)}/chat/completions: the browser does not say why;`), status);
    assert.match(status, /most likely the server is not running or does not allow this site \(CORS\)/, status);
    assert.match(status, /Retrying \(attempt 2 of 2\)/, status);
    await page.screenshot({ path: `${SHOTS}/model-retry-no-answer.png`, fullPage: true });
    await waitForEnd(page, 15000);
    const notice = await page.innerText('[data-testid="api-error"]');
    assert.equal(notice.match(/attempt/g)?.length, 1, `the attempts are counted once: ${notice}`);
    assert.match(notice, /Gave up after 2 attempts/, notice);
    assert.match(notice, /does not say why/, notice);
    // The message is on the page once; the verdicts refer to it.
    const body = await page.innerText('body');
    assert.equal(body.split('does not say why').length - 1, 1, `the error is shown once: ${body}`);
    assert.equal(await page.locator('[data-testid="retry-status"]').count(), 0, 'the retry status goes');
    for (const [w, { outcome, text }] of Object.entries(await verdicts(page))) {
      assert.equal(outcome, 'error', `${w}: ${text}`);
      assert.match(text, /shown above/, `${w} refers to the notice: ${text}`);
      assert.doesNotMatch(text, /CORS|attempt/, `${w} does not repeat it: ${text}`);
    }
    await page.screenshot({ path: `${SHOTS}/model-error-once.png`, fullPage: true });
  });
});

test('stop aborts the request in flight: no further requests, the phase stays, and the page says so', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=square&seed=3&sample=0');
    const s = scenario('slow');
    await useEndpoint(page, { baseUrl: baseUrl(s), model: 'good:square', timeout: 60, maxAttempts: 1 });
    await page.click('[data-testid="run-trial"]');
    const until = Date.now() + 10000;
    while (!(await mockLog(s)).some((e) => e.method === 'POST')) {
      assert.ok(Date.now() < until, 'the request reached the endpoint');
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = { phase: await phase(page), moves: await page.innerText('[data-testid="moves"]') };
    await page.click('[data-testid="stop-trial"]');
    await page.waitForSelector('[data-testid="stopped"]', { timeout: 5000 });
    assert.match(await page.innerText('[data-testid="stopped"]'), /stopped/i);
    await page.waitForTimeout(1500);
    const posts = (await mockLog(s)).filter((e) => e.method === 'POST');
    assert.equal(posts.length, 1, 'no request after stopping');
    assert.equal(posts[0].aborted, true, 'the request in flight was aborted');
    assert.deepEqual({ phase: await phase(page), moves: await page.innerText('[data-testid="moves"]') }, before);
    assert.equal(before.phase, 'solve');
    assert.equal(await page.isEnabled('[data-testid="run-trial"]'), true, 'a new run can start');
    await page.screenshot({ path: `${SHOTS}/model-stopped.png`, fullPage: true });
  });
});

test('protocols: combined asks one prompt fewer, single_shot solves in one reply', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=cross&seed=4&sample=3&protocol=combined');
    assert.equal(await page.inputValue('[data-testid="setting-protocol"]'), 'combined');
    const maze = await readMaze(page);
    const moves = shortestPath(maze).length;
    const s = scenario('ok');
    await useEndpoint(page, { baseUrl: baseUrl(s), model: 'good:cross' });
    await runTrial(page);
    await assertAllSucceed(page);
    await page.screenshot({ path: `${SHOTS}/model-combined.png`, fullPage: true });
    const { rec } = await record(page);
    assertAlternates(rec.messages);
    // Stepwise would ask moves + 2 prompts (solve, updates, recognition, generation).
    assert.equal(rec.messages.filter((m) => m.role === 'user').length, moves + 1);
    assert.match(rec.messages.at(-2).content, /^Phases 2 and 3 of 3/);

    await openModel(page, 'shape=square&seed=3&sample=0&protocol=single_shot');
    assert.equal(await page.inputValue('[data-testid="setting-protocol"]'), 'single_shot');
    const s2 = scenario('ok');
    await useEndpoint(page, { baseUrl: baseUrl(s2), model: 'good:square' });
    await runTrial(page);
    await assertAllSucceed(page);
    await page.screenshot({ path: `${SHOTS}/model-single-shot.png`, fullPage: true });
    const two = (await record(page)).rec;
    assertAlternates(two.messages);
    assert.equal(two.messages.length, 6, 'solve, recognize and generate: one reply each');
    assert.match(two.messages[1].content, /Path: \(/);
    assert.equal((await mockLog(s2)).filter((e) => e.method === 'POST').length, 3);
  });
});

test('a bad agent in the address is named, and phases ended by an API error are marked as such', async () => {
  await withPage(async (page) => {
    await openModel(page, 'agent=robot&shape=square&seed=3&sample=0');
    const warn = await page.innerText('[data-testid="url-warnings"]');
    assert.match(warn, /agent: 'robot' is not a player/, warn);
    assert.equal(await page.inputValue('[data-testid="agent"]'), 'oracle');
    await useEndpoint(page, { baseUrl: `${MOCK_URL}/401-u${Date.now()}/v1`, model: 'good:square', maxAttempts: 1 });
    await runTrial(page, 15000);
    await page.locator('[data-testid="api-error"]').waitFor();
    const marks = await page.$$eval('[data-testid="phase"] li', (els) => els.map((e) => e.className));
    assert.deepEqual(
      marks.slice(0, 3).map((c) => c.includes('error')),
      [true, true, true],
      `each phase ended by the API error is marked: ${marks}`,
    );
  });
});

test('an empty answer is judged, streamed or not, and says when the token limit was spent on reasoning', async () => {
  await withPage(async (page) => {
    for (const stream of [false, true]) {
      for (const [fault, reason, why] of [['blank', 'no_text', null], ['thinklimit', 'length_in_reasoning', /token limit \(2000\) was spent on reasoning/]]) {
        await openModel(page, 'shape=square&seed=3&sample=0');
        await useEndpoint(page, { baseUrl: baseUrl(scenario(fault)), model: 'good:square', stream, maxAttempts: 1 });
        await runTrial(page);
        assert.equal(await page.locator('[data-testid="api-error"]').count(), 0, `${fault} stream=${stream}: not an API error`);
        const v = await verdicts(page);
        for (const [w, { outcome, text }] of Object.entries(v)) assert.equal(outcome, 'fail', `${fault} stream=${stream} ${w}: ${text}`);
        if (why) assert.match(v.solve.text, why);
        const { rec } = await record(page);
        assert.equal(rec.messages[1].empty_reason, reason);
        assert.equal(rec.api_error, null);
        if (fault === 'thinklimit' && stream) await page.screenshot({ path: `${SHOTS}/model-empty-thinklimit.png`, fullPage: true });
      }
    }
  });
});

test('with log probabilities the record keeps each token\'s alternatives, and the replay shows where each move\'s probability went', async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=square&seed=3&sample=0');
    const s = scenario('lp');
    await useEndpoint(page, { baseUrl: baseUrl(s), model: 'good:square', stream: true });
    await page.setChecked('[data-testid="endpoint-logprobs"]', true);
    await runTrial(page);
    await assertAllSucceed(page);
    const asked = (await mockLog(s)).filter((e) => e.method === 'POST');
    assert.ok(asked.every((e) => e.body.logprobs === true && e.body.top_logprobs === 5), 'asked for five alternatives');
    const { text, rec } = await record(page);
    const replies = rec.messages.filter((m) => m.role === 'assistant');
    const first = replies[0];
    assert.equal(first.logprobs.map((t) => t.token).join(''), first.content);
    const digit = first.logprobs.find((t) => /^\d$/.test(t.token));
    assert.ok(digit.top_logprobs.length >= 2, JSON.stringify(digit));
    // The record opens in the replay; each move shows its probabilities on the maze.
    await page.goto(`${BASE}/demo`);
    await page.setInputFiles('[data-testid="demo-file"]', { name: 'trial.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    // The page opens on a bundled trial; wait for the record chosen.
    await page.waitForSelector('.replay-head .help:has-text("From trial.json")');
    assert.equal(await page.locator('[data-testid="choice"]').count(), 0, 'no move at the opening');
    await page.click('[data-testid="replay-step"]');
    await page.waitForSelector('[data-testid="choice"]');
    const [, r, c] = [...first.content.matchAll(/\((\d+), (\d+)\)/g)].at(-1).map(Number);
    const caption = await page.innerText('[data-testid="choice-caption"]');
    // The scripted model gives the written digit 70%, the next 20% and the one before 5%.
    assert.match(caption, new RegExp(`^Named \\(${r}, ${c}\\)\\. Row ${r}: 70% \\(others ${(r + 1) % 10}: 20%`), caption);
    assert.match(caption, new RegExp(`Column ${c}, given row ${r}: 70%`), caption);
    assert.equal(await page.locator('[data-testid="choice"] svg text', { hasText: '49%' }).count(), 1, 'the cell named: 70% × 70%');
    await page.locator('[data-testid="replay-choice"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/demo-choice.png`, fullPage: true });
    // Recognition has no move to show.
    for (let i = 1; i < rec.moves; i++) await page.click('[data-testid="replay-step"]');
    await page.click('[data-testid="replay-step"]');
    assert.equal(await page.getAttribute('[data-testid="phase"]', 'data-phase'), 'recognize');
    assert.equal(await page.locator('[data-testid="replay-choice"] *').count(), 0);
  });
});

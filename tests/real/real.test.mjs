// The real-model suite (`make test-real`, opt-in; scripts/test-real.sh starts the servers):
// a real small language model (Gemma 3 270M, llama.cpp's OpenAI-compatible server) plays a
// small design through `shapemaze run` and one trial on the /model page. It checks what
// must hold for any model, whatever it answers: every trial ends, the records read back and
// re-score to the verdicts they hold, no page error, the key nowhere, token counts where
// the server reports them and "not reported" (absent, never 0) where it does not.
// Prints the figures the README reports (seconds per call and per trial). A test of the
// answer modes plays one trial under `schema` and one under `tool` (docs/guides/answer-modes.md):
// this server answers OpenAI's `json_schema` response format with a 500 naming
// `response_format`, a refusal the trial steps down from to JSON mode with the schema
// (held by a grammar), and holds a named function call; the records show replies read by
// the `schema` and `tool_call` rules. A third test asks
// for log probabilities on one trial (this server computes them in Python over Gemma's
// 262k-token vocabulary, about 0.4 s a token, so one trial, not the whole design) and
// opens its record in the replay's logprobs view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE, SHOTS, withPage, openModel, useEndpoint, runTrial, downloadText, setField } from '../e2e/helpers.mjs';

const LLM = process.env.REAL_URL ?? 'http://127.0.0.1:8199/v1';
const BIN = process.env.SHAPEMAZE_BIN ?? 'target/debug/shapemaze';
const KEY = `sk-real-test-${Math.random().toString(36).slice(2)}`;
const MODEL = 'gemma-3-270m';

/** Every file under `dir`, recursively. */
function files(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const replies = (record) => record.messages.filter((m) => m.role === 'assistant');

test('shapemaze run plays a small design against the real model: every trial ends, re-scores the same, no key, honest token counts', { timeout: 30 * 60 * 1000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'shapemaze-real-'));
  const player = (stream) => ({
    kind: 'endpoint', name: stream ? 'gemma streamed' : 'gemma', base_url: LLM, model: MODEL,
    key_env: 'SHAPEMAZE_REAL_KEY', temperature: 0, max_tokens: 160, stream, timeout_ms: 120000, max_attempts: 2,
  });
  const design = {
    name: 'real model', players: [player(false), player(true)], encodings: ['matrix', 'coord_list'],
    shapes: ['square', 'Z'], size: 5, samples_per_shape: 1, repeats: 1, seed: 7, concurrency: 1,
  };
  const designFile = join(out, 'design.json');
  writeFileSync(designFile, JSON.stringify(design));
  const started = Date.now();
  const run = spawnSync(BIN, ['run', designFile, '--out', join(out, 'results')], {
    env: { ...process.env, SHAPEMAZE_REAL_KEY: KEY }, encoding: 'utf8', timeout: 29 * 60 * 1000,
  });
  const seconds = (Date.now() - started) / 1000;
  assert.equal(run.status, 0, `shapemaze run failed: ${run.stderr}`);
  const summary = JSON.parse(run.stdout.trim().split('\n').at(-1));
  const records = readFileSync(join(out, 'results', 'trials.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(records.length, 8, 'every trial of the design ended and was kept');
  assert.equal(summary.done, 8);
  for (const r of records) {
    const v = r.verdicts;
    assert.ok(v.solve, `a solve verdict for ${r.shape}/${r.encoding}`);
    // A phase is reached once the one before it has ended (success or failure alike).
    assert.ok(v.recognize || v.solve.outcome === 'error', 'the recognize phase was played');
    assert.ok(v.generate || v.recognize?.outcome === 'error' || v.solve.outcome === 'error', 'the generate phase was played');
  }
  // Records re-score to the verdicts they hold (the transcripts' closing lines).
  const score = JSON.parse(execFileSync(BIN, ['score', join(out, 'results'), '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(score.rescored, 8, 'every transcript re-scored from its replies');
  assert.deepEqual(score.differences, [], 're-scoring gives the verdicts recorded');
  // The key is nowhere in what the run wrote.
  for (const f of files(out)) assert.ok(!readFileSync(f, 'utf8').includes(KEY), `the key is in ${f}`);
  // Token counts: this server reports usage without streaming and none when streaming.
  const calls = records.flatMap(replies);
  for (const r of records) {
    for (const m of replies(r)) {
      if (r.endpoint?.stream ?? m.streamed) {
        assert.equal(m.completion_tokens, undefined, 'a streamed reply without usage says not reported, not 0');
      } else {
        assert.ok(m.completion_tokens > 0 && m.prompt_tokens > 0, 'usage recorded where the server sent it');
      }
    }
  }
  const csv = readFileSync(join(out, 'results', 'trials.csv'), 'utf8').trim().split('\n');
  const header = csv[0].split(',');
  const tokens = header.indexOf('total_tokens');
  assert.ok(tokens >= 0, 'trials.csv has total_tokens');
  // Streamed trials have no usage: their cell is empty ("not reported"), never 0.
  const cells = csv.slice(1).map((row) => row.split(',')[tokens]);
  assert.equal(cells.filter((c) => c === '0').length, 0, `no trial reads 0 tokens: ${cells}`);
  assert.equal(cells.filter((c) => c === '').length, 4, 'the four streamed trials report no tokens');
  const latencies = calls.map((m) => m.latency_ms).filter((x) => x > 0);
  console.log(
    `[real] shapemaze run: ${records.length} trials, ${calls.length} calls in ${seconds.toFixed(1)} s: ` +
      `${(seconds / records.length).toFixed(1)} s per trial, median call ${(latencies.sort((a, b) => a - b)[Math.floor(latencies.length / 2)] / 1000).toFixed(2)} s; ` +
      `verdicts: ${records.map((r) => `${r.shape}/${r.encoding}/${r.endpoint?.stream ? 's' : 'p'} ${['solve', 'recognize', 'generate'].map((p) => r.verdicts[p]?.reason ?? '-').join(' ')}`).join('; ')}`,
  );
  console.log(`[real] results kept in ${out}`);
});

test('the /model page plays one trial against the real model: it ends, no page error, the key nowhere in the record', { timeout: 10 * 60 * 1000 }, async () => {
  await withPage(async (page) => {
    await openModel(page, 'shape=square&size=5&encoding=matrix&seed=7&sample=0');
    await useEndpoint(page, { baseUrl: LLM, model: MODEL, key: KEY, stream: true, timeout: 120, maxAttempts: 2 });
    await setField(page, 'endpoint-max-tokens', 160);
    await setField(page, 'endpoint-temperature', 0);
    const started = Date.now();
    await runTrial(page, 9 * 60 * 1000);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(await page.$('[data-testid="api-error"]'), null, 'the trial ended without an API error');
    await page.screenshot({ path: `${SHOTS}/real-model.png`, fullPage: true });
    const record = JSON.parse(await downloadText(page, 'download-record'));
    assert.ok(!JSON.stringify(record).includes(KEY), 'the key is not in the record');
    const calls = replies(record);
    assert.ok(calls.length >= 1);
    for (const m of calls) assert.equal(m.completion_tokens, undefined, 'streamed: usage not reported, never 0');
    console.log(`[real] /model: one trial, ${calls.length} calls in ${seconds.toFixed(1)} s (streamed)`);
  });
});

test('log probabilities: one trial keeps each token\'s alternatives, and the replay shows where its first move\'s probability went', { timeout: 20 * 60 * 1000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'shapemaze-real-logprobs-'));
  const design = {
    name: 'real model logprobs', encodings: ['matrix'], shapes: ['square'], size: 5, samples_per_shape: 1, seed: 7,
    players: [{
      kind: 'endpoint', name: 'gemma logprobs', base_url: LLM, model: MODEL, key_env: 'SHAPEMAZE_REAL_KEY',
      temperature: 0, max_tokens: 160, stream: false, timeout_ms: 300000, max_attempts: 2, logprobs: true,
    }],
  };
  const designFile = join(out, 'design.json');
  writeFileSync(designFile, JSON.stringify(design));
  const started = Date.now();
  const run = spawnSync(BIN, ['run', designFile, '--out', join(out, 'results')], {
    env: { ...process.env, SHAPEMAZE_REAL_KEY: KEY }, encoding: 'utf8', timeout: 19 * 60 * 1000,
  });
  assert.equal(run.status, 0, `shapemaze run failed: ${run.stderr}`);
  const text = readFileSync(join(out, 'results', 'trials.jsonl'), 'utf8').trim();
  const record = JSON.parse(text);
  const calls = replies(record);
  for (const m of calls.filter((c) => c.content)) {
    assert.ok(Array.isArray(m.logprobs) && m.logprobs.length > 0, `logprobs kept: ${JSON.stringify(m).slice(0, 300)}`);
    assert.ok(m.logprobs.every((t) => t.top_logprobs?.length > 0), `alternatives at every token: ${JSON.stringify(m.logprobs.slice(0, 3))}`);
  }
  const spelled = calls.filter((m) => m.content && m.logprobs.map((t) => t.token).join('').includes(m.content)).length;
  console.log(`[real] logprobs: ${calls.length} calls in ${((Date.now() - started) / 1000).toFixed(1)} s; ${spelled} replies spelled exactly by their tokens`);
  console.log(`[real] results kept in ${out}`);
  await withPage(async (page) => {
    await page.goto(`${BASE}/demo`);
    await page.setInputFiles('[data-testid="demo-file"]', { name: 'trial.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForSelector('.replay-head .help:has-text("From trial.json")');
    await page.click('[data-testid="replay-step"]');
    await page.waitForSelector('[data-testid="choice"], [data-testid="choice-none"]');
    console.log(`[real] the first move's choice: ${(await page.innerText('[data-testid="replay-choice"]')).replace(/\s+/g, ' ')}`);
    await page.locator('[data-testid="replay-choice"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/real-choice.png`, fullPage: true });
  });
});

test('answer modes: a schema trial steps down from json_schema to JSON mode and a tool trial calls the function; replies read by the schema and tool_call rules', { timeout: 20 * 60 * 1000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'shapemaze-real-modes-'));
  // One design per mode, each with the spelling to ask first: `json_schema` (refused with
  // a 500 by this server) for the schema, a named call (which this server holds) for the tool.
  const runs = [['schema', 'json_schema'], ['tool', 'tool_named']].map(([mode, answer_form]) => {
    const design = {
      name: `real model ${mode}`, encodings: ['matrix'], shapes: ['square'], size: 5, samples_per_shape: 1, seed: 7,
      concurrency: 1, answer_modes: [mode],
      players: [{
        kind: 'endpoint', name: `gemma ${mode}`, preset: 'llamacpp', base_url: LLM, model: MODEL, key_env: 'SHAPEMAZE_REAL_KEY',
        temperature: 0, max_tokens: 300, stream: false, timeout_ms: 120000, max_attempts: 2, answer_form,
      }],
    };
    const dir = join(out, mode);
    const designFile = join(out, `${mode}.json`);
    writeFileSync(designFile, JSON.stringify(design));
    const started = Date.now();
    const run = spawnSync(BIN, ['run', designFile, '--out', dir], {
      env: { ...process.env, SHAPEMAZE_REAL_KEY: KEY }, encoding: 'utf8', timeout: 9 * 60 * 1000,
    });
    assert.equal(run.status, 0, `shapemaze run (${mode}) failed: ${run.stderr}`);
    const records = readFileSync(join(dir, 'trials.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(records.length, 1, `one ${mode} trial`);
    assert.equal(records[0].answer_mode, mode);
    return { mode, dir, record: records[0], seconds: (Date.now() - started) / 1000 };
  });
  const [schema, tool] = runs.map((r) => r.record);
  const steps = schema.answer_mode_in_effect.solve.stepped_down.map((s) => `${s.form} ${s.status}`);
  assert.deepEqual(steps, ['json_schema 500'], `the 500 naming response_format is a refusal to step down from: ${JSON.stringify(schema.answer_mode_in_effect.solve)}`);
  assert.equal(schema.answer_mode_in_effect.solve.form, 'json_object');
  assert.equal(tool.answer_mode_in_effect.solve.form, 'tool_named');
  const rules = (r) => replies(r).map((m) => m.verdict?.rule);
  assert.ok(rules(schema).includes('schema'), `a reply read by the schema rule: ${rules(schema)} ${JSON.stringify(replies(schema).map((m) => m.form))}`);
  assert.ok(rules(tool).includes('tool_call'), `a reply read by the tool_call rule: ${rules(tool)} ${JSON.stringify(replies(tool).map((m) => m.form))}`);
  for (const { record, dir } of runs) {
    for (const m of replies(record)) assert.ok(m.form, 'every reply keeps its form');
    for (const f of files(dir)) assert.ok(!readFileSync(f, 'utf8').includes(KEY), `the key is in ${f}`);
    const report = JSON.parse(execFileSync(BIN, ['report', dir, '--format', 'json'], { encoding: 'utf8' }));
    assert.equal(report.modes.rows.length, 1, 'the report shows the mode');
  }
  const held = (r) => replies(r).filter((m) => m.form.held).length;
  console.log(
    '[real] answer modes: ' +
      runs.map(({ mode, record: r, seconds }) => `${mode} in ${seconds.toFixed(1)} s: ${held(r)} of ${replies(r).length} replies held (${r.answer_mode_in_effect.solve.form}), rules ${[...new Set(rules(r))].join('/')}, verdicts ${['solve', 'recognize', 'generate'].map((p) => r.verdicts[p]?.reason ?? '-').join(' ')}`).join('; '),
  );
  console.log(`[real] results kept in ${out}`);
});

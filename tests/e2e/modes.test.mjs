// End-to-end tests of the answer modes (docs/guides/answer-modes.md) against the scripted
// endpoint (tests/mock-endpoint/server.mjs): a /model trial in each mode and each step-down
// (a refusal with 400, a refusal with a 500 naming the parameter, a function call refused
// down to the schema, a form accepted and ignored, an answer in the reasoning field), and a
// design of two modes run on /experiment and by `shapemaze run`, its modes side by side on
// /results and in `shapemaze report`, paired by maze, a transcribed run's agreement, and
// its disagreements in the review queue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, MOCK_URL, analyzeOnly, downloadText, mockLog, openModel, runTrial, unzipEntry, useEndpoint, withPage } from './helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);

/** Plays one /model trial in `mode` against the scenario, and returns its record. */
async function modelTrial(page, scenario, mode, { first = '', query = 'shape=square&size=5&encoding=matrix&seed=3&sample=0', stream = false } = {}) {
  await openModel(page, query);
  await useEndpoint(page, { baseUrl: `${MOCK_URL}/${scenario}/v1`, model: 'good', stream });
  await page.selectOption('[data-testid="answer-mode"]', mode);
  if (first) await page.selectOption('[data-testid="answer-form"]', first);
  await runTrial(page);
  assert.equal(await page.$('[data-testid="api-error"]'), null, 'no API error');
  return JSON.parse(await downloadText(page, 'download-record'));
}

const replies = (r) => r.messages.filter((m) => m.role === 'assistant');

test('a /model trial in each answer mode: the form asked, read by its rule, kept in the record', async () => {
  await withPage(async (page) => {
    for (const [mode, rule, form] of [['schema', 'schema', 'json_schema'], ['tool', 'tool_call', 'tool_named'], ['transcribed', 'schema', 'json_schema']]) {
      const scenario = `ok-u${rand()}`;
      const r = await modelTrial(page, scenario, mode);
      assert.equal(r.answer_mode, mode);
      assert.deepEqual(['solve', 'recognize', 'generate'].map((p) => r.verdicts[p].outcome), ['success', 'success', 'success'], `${mode}: ${JSON.stringify(r.verdicts)}`);
      for (const m of replies(r)) {
        assert.equal(m.form.mode, mode, `${mode}: the reply's mode in effect`);
        assert.equal(m.form.held, true, `${mode}: the form held`);
        assert.equal(m.verdict.rule, rule, `${mode}: read by ${rule}`);
      }
      assert.equal(r.answer_mode_in_effect.solve.form, form);
      const log = (await mockLog(scenario)).filter((e) => e.body?.messages);
      if (mode === 'tool') {
        assert.ok(log.every((e) => e.body.tool_choice?.function?.name), 'every call forced');
        // The second call answers the first one's function call with the next prompt.
        const second = log[1].body.messages;
        assert.equal(second.at(-1).role, 'tool');
        assert.equal(second.at(-2).tool_calls[0].function.name, 'submit_move');
      } else if (mode === 'transcribed') {
        assert.equal(log.length, 2 * replies(r).length, 'a transcription call per reply');
        assert.ok(log.filter((_, i) => i % 2 === 0).every((e) => !e.body.response_format), 'the answers asked freely');
        assert.ok(replies(r).every((m) => m.form.transcriber?.meta?.completion_tokens > 0), 'the transcription\'s tokens kept apart');
      } else {
        assert.ok(log.every((e) => e.body.response_format?.type === 'json_schema'));
      }
      await page.waitForSelector(`[data-testid="transcript-form"][data-mode="${mode}"][data-held="true"]`);
      await page.screenshot({ path: `${SHOTS}/model-mode-${mode}.png`, fullPage: true });
    }
  });
});

test('each step-down: refusals with 400 and 500 step the spelling down once, a refused call falls to the schema, an ignored form is counted not held', async () => {
  await withPage(async (page) => {
    // 400 on OpenAI's nested schema and on vLLM's extra: JSON mode holds it.
    let r = await modelTrial(page, `nojsonschema-nostructured-u${rand()}`, 'schema');
    let solve = r.answer_mode_in_effect.solve;
    assert.deepEqual(solve.stepped_down.map((s) => [s.form, s.status]), [['json_schema', 400], ['structured_outputs', 400]]);
    assert.equal(solve.form, 'json_object');
    assert.ok(replies(r).every((m) => m.form.held && m.verdict.rule === 'schema'));
    await page.waitForSelector('[data-testid="transcript-form"]:has-text("Stepped down: json_schema refused (400)")');
    await page.screenshot({ path: `${SHOTS}/model-mode-stepped-down.png`, fullPage: true });
    // llama-cpp-python's 500 naming response_format: a refusal, not a failure to retry.
    const scenario = `nojsonschema500-u${rand()}`;
    r = await modelTrial(page, scenario, 'schema');
    solve = r.answer_mode_in_effect.solve;
    assert.deepEqual(solve.stepped_down.map((s) => [s.form, s.status]), [['json_schema', 500]]);
    assert.equal(solve.form, 'structured_outputs');
    assert.equal((await mockLog(scenario)).filter((e) => e.body?.response_format?.type === 'json_schema').length, 1, 'the 500 was not retried');
    // Both function spellings refused: the trial answers under the schema.
    r = await modelTrial(page, `notools-u${rand()}`, 'tool');
    assert.equal(r.answer_mode_in_effect.solve.mode, 'schema');
    assert.deepEqual(r.answer_mode_in_effect.solve.stepped_down.map((s) => s.form), ['tool_named', 'tool_required']);
    assert.ok(replies(r).every((m) => m.verdict.rule === 'schema'));
    // A server that answers 200 with free text: not held, read by the free readers.
    r = await modelTrial(page, `ignoreform-u${rand()}`, 'schema');
    assert.ok(replies(r).every((m) => !m.form.held && m.form.reason === 'form_not_held'));
    assert.ok(replies(r).every((m) => m.verdict.rule !== 'schema'), 'the free readers read them');
    assert.equal(r.verdicts.solve.outcome, 'success', 'the trial went on');
    assert.equal(r.answer_mode_in_effect.solve.not_held, r.answer_mode_in_effect.solve.replies);
    await page.waitForSelector('[data-testid="transcript-form"][data-held="false"]:has-text("form_not_held")');
    await page.screenshot({ path: `${SHOTS}/model-mode-not-held.png`, fullPage: true });
    // A thinking server that puts the JSON in the reasoning field, streamed.
    r = await modelTrial(page, `formreason-u${rand()}`, 'schema', { first: 'json_object', stream: true });
    assert.ok(replies(r).every((m) => m.form.source === 'reasoning' && m.form.held && m.content === ''));
    assert.equal(r.answer_mode_in_effect.solve.from_reasoning, r.answer_mode_in_effect.solve.replies);
  });
});

test('a design of two modes runs on the page and with shapemaze run, and the results pair the modes by maze', async () => {
  const { execFileSync } = await import('node:child_process');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const bin = process.env.SHAPEMAZE_BIN ?? 'target/debug/shapemaze';
  await withPage(async (page) => {
    // The transcriber copies one move a row off now and then: the readers disagree with it.
    const scenario = `transcribewrong-u${rand()}`;
    const name = `modes ${rand()}`;
    await page.goto(`${BASE}/experiment`);
    await page.waitForSelector('[data-testid="design-name"]');
    await page.fill('[name="name"]', name);
    await page.selectOption('[data-testid="agent"]', 'endpoint');
    await page.selectOption('[data-testid="endpoint-preset"]', 'custom');
    await page.fill('[data-testid="endpoint-base-url"]', `${MOCK_URL}/${scenario}/v1`);
    await page.fill('[data-testid="endpoint-model"]', 'good');
    await page.click('[data-testid="add-model"]');
    await page.waitForSelector('[name="p1.kind"]');
    await page.click('[data-action="remove-player"][data-index="0"]');
    await page.waitForFunction(() => !document.querySelector('[name="p1.kind"]'));
    await page.fill('[data-testid="samples-per-shape"]', '1');
    await page.locator('[data-testid="samples-per-shape"]').dispatchEvent('change');
    await page.check('[name="answer_mode"][value="transcribed"]');
    assert.ok(await page.isChecked('[name="answer_mode"][value="free"]'), 'free is ticked by default');
    await page.waitForFunction(() => /^24 trials/.test(document.querySelector('[data-testid="estimate"]')?.textContent ?? ''));
    await page.screenshot({ path: `${SHOTS}/experiment-modes-form.png`, fullPage: true });
    await page.click('[data-testid="experiment-start"]');
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="progress"]');
      return el && Number(el.dataset.done) === 24 && el.dataset.state === 'finished';
    }, null, { timeout: 120000 });
    const [zipDl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-zip"]')]);
    const zip = fs.readFileSync(await zipDl.path());
    const csv = unzipEntry(zip, 'trials.csv').toString('utf8').trim().split('\r\n');
    const head = csv[0].split(',');
    const col = (n) => head.indexOf(n);
    for (const n of ['answer_mode', 'answer_mode_in_effect', 'answer_form', 'forms_not_held', 'readers_compared', 'readers_agreed', 'transcription_tokens']) assert.ok(col(n) > 0, `trials.csv has ${n}`);
    const modes = csv.slice(1).map((l) => l.split(',')[col('answer_mode')]);
    assert.deepEqual([...new Set(modes)].sort(), ['free', 'transcribed']);
    assert.ok(csv.slice(1).some((l) => l.split(',')[0].includes('/matrix+transcribed/')), 'the mode in the id');
    // The results: the modes side by side, paired by maze, and the readers' agreement.
    await analyzeOnly(page, name);
    await page.waitForSelector('[data-testid="table-modes"]');
    const rows = await page.textContent('[data-testid="table-modes"]');
    assert.ok(rows.includes('free') && rows.includes('transcribed'), rows);
    const paired = await page.textContent('[data-testid="table-modes-paired"]');
    assert.match(paired, /free.*transcribed/s);
    const agreement = await page.textContent('[data-testid="table-modes-agreement"]');
    assert.match(agreement, /transcribed/);
    assert.match(await page.textContent('[data-testid="results-modes"]'), /our readers agree with the transcription on \d+ of \d+ replies/);
    assert.ok((await page.textContent('[data-testid="table-pooled"]')).includes('good+transcribed'), 'the mode kept apart in every table');
    await page.locator('[data-testid="results-modes"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/results-modes.png`, fullPage: true });
    await page.locator('[data-testid="results-modes"]').screenshot({ path: `${SHOTS}/results-modes-section.png` });
    // The transcription's disagreements join the review queue.
    await page.click('[data-testid="review-open"]');
    await page.waitForSelector('[data-testid="review-summary"]');
    assert.match(await page.textContent('[data-testid="review-summary"]'), /[1-9]\d* where our readers and the transcription differ/);
    await page.screenshot({ path: `${SHOTS}/review-modes.png` });
    // The same design headless: the same verdicts, and the report pairs the modes too.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shapemaze-modes-'));
    const design = path.join(dir, 'experiment.json');
    fs.writeFileSync(design, unzipEntry(zip, 'experiment.json'));
    assert.deepEqual(JSON.parse(fs.readFileSync(design, 'utf8')).answer_modes, ['free', 'transcribed']);
    execFileSync(bin, ['run', design, '--out', path.join(dir, 'out')], { stdio: 'pipe' });
    const cli = fs.readFileSync(path.join(dir, 'out', 'trials.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const page_ = unzipEntry(zip, 'trials.jsonl').toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    const key = (r) => `${r.answer_mode ?? 'free'}/${r.encoding}/${r.shape}/${r.sample}`;
    const byKey = new Map(page_.map((r) => [key(r), r]));
    assert.equal(cli.length, 24);
    for (const r of cli) assert.deepEqual(r.verdicts, byKey.get(key(r))?.verdicts, `${key(r)}: the verdicts differ`);
    assert.ok(fs.readdirSync(path.join(dir, 'out')).includes('matrix+transcribed_good_results'), 'the mode in the results folder');
    const report = JSON.parse(execFileSync(bin, ['report', path.join(dir, 'out'), '--format', 'json'], { encoding: 'utf8' }));
    assert.ok(report.modes.pairs.some((p) => p.a === 'free' && p.b === 'transcribed'), JSON.stringify(report.modes.pairs));
    assert.ok(report.modes.agreement.length > 0, 'the report states the agreement');
    const text = execFileSync(bin, ['report', path.join(dir, 'out')], { encoding: 'utf8' });
    assert.match(text, /our readers agree with the transcription/);
  });
});

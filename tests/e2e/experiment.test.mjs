// End-to-end tests of /experiment: the standard design with the oracle, a model behind the
// scripted endpoint (tests/mock-endpoint/server.mjs) reloaded mid-run and resumed, a 429
// storm, export, delete, import, and a corrupt import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, MOCK_URL, NETWORK_NOISE, analyzeOnly, mockLog, unzipEntry, withPage as withPageBase, zipNames } from './helpers.mjs';

const withPage = (fn) => withPageBase(fn, /Failed to load resource|status of 429/i);

const rand = () => Math.random().toString(36).slice(2, 10);

async function openLab(page) {
  await page.goto(`${BASE}/experiment`);
  await page.waitForSelector('[data-testid="design-form"], [data-testid="design-name"]');
}

/** The run's status: done, total and state, from the progress panel. */
async function status(page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-testid="progress"]');
    return el ? { done: Number(el.dataset.done), total: Number(el.dataset.total), state: el.dataset.state } : null;
  });
}

async function waitDone(page, total, timeout = 60000) {
  await page.waitForFunction(
    (total) => {
      const el = document.querySelector('[data-testid="progress"]');
      return el && Number(el.dataset.done) === total && el.dataset.state === 'finished';
    },
    total,
    { timeout },
  );
}

async function setField(page, name, value) {
  await page.fill(`[name="${name}"]`, String(value));
}

async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}"]`)]);
  const path = await dl.path();
  const fs = await import('node:fs');
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(path), path };
}

/** Clicks the next confirm() or prompt() with `answer`. */
function answerDialog(page, answer) {
  page.once('dialog', (d) => (d.type() === 'prompt' ? d.accept(answer) : d.accept()));
}

test('the standard design runs with the oracle, every trial stored once, and exports', async () => {
  await withPage(async (page) => {
    await openLab(page);
    assert.match(await page.textContent('[data-testid="estimate"]'), /^360 trials \(360 per player\); built-in players only/);
    await setField(page, 'name', `oracle ${rand()}`);
    const t0 = Date.now();
    await page.click('[data-testid="experiment-start"]');
    await waitDone(page, 360);
    const ms = Date.now() - t0;
    console.log(`# 360 oracle trials, stored: ${ms} ms (budget 2000 ms)`);
    const players = await page.textContent('[data-testid="run-players"]');
    assert.match(players, /oracle360\/360/);
    await page.screenshot({ path: `${SHOTS}/experiment-oracle-done.png`, fullPage: true });
    // CSV: one row per trial, every one a success.
    const csv = (await download(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
    assert.equal(csv.length, 361);
    const head = csv[0].split(',');
    const solve = head.indexOf('solve');
    assert.ok(csv.slice(1).every((l) => l.split(',')[solve] === 'success'));
    const ids = new Set(csv.slice(1).map((l) => l.split(',')[0]));
    assert.equal(ids.size, 360, 'no trial twice');
    // ZIP: the export layout.
    const zip = await download(page, 'export-zip');
    assert.equal(zip.bytes.subarray(0, 2).toString(), 'PK');
    const names = zipNames(zip.bytes);
    assert.ok(names.includes('experiment.json') && names.includes('trials.csv') && names.includes('trials.jsonl'));
    assert.ok(names.includes('experiment_mazes/5x5/square/5x5_square_0.npy'), names.slice(0, 8).join(' '));
    assert.ok(names.some((n) => /^matrix_oracle_results\/5x5\/square\/5x5_square_0\.npy\/0\.txt$/.test(n)));
  });
});


async function modelDesign(page, scenario, { samples = 2, concurrency = 4, name }) {
  await openLab(page);
  await setField(page, 'name', name);
  // A model behind the scripted endpoint, configured with /model's fields, replaces the oracle.
  await page.selectOption('[data-testid="agent"]', 'endpoint');
  await page.selectOption('[data-testid="endpoint-preset"]', 'custom');
  await page.fill('[data-testid="endpoint-base-url"]', `${MOCK_URL}/${scenario}/v1`);
  await page.fill('[data-testid="endpoint-model"]', 'good');
  assert.equal(await page.isChecked('[data-testid="endpoint-stream"]'), false, 'streaming starts off, as on /model');
  await page.click('[data-testid="add-model"]');
  await page.waitForSelector('[name="p1.kind"]');
  assert.equal(await page.isChecked('[name="p1.stream"]'), false, 'the new model row does not stream');
  await page.click('[data-action="remove-player"][data-index="0"]');
  await page.waitForFunction(() => !document.querySelector('[name="p1.kind"]'));
  assert.equal(await page.inputValue('[name="p0.model"]'), 'good');
  await setField(page, 'p0.concurrency', concurrency);
  await page.fill('[data-testid="samples-per-shape"]', String(samples));
  await page.locator('[data-testid="samples-per-shape"]').dispatchEvent('change');
}

test('a model run reloaded mid-run resumes with every trial exactly once', async () => {
  await withPage(async (page) => {
    await modelDesign(page, `lat150-u${rand()}`, { samples: 2, name: `reload ${rand()}` });
    assert.match(await page.textContent('[data-testid="estimate"]'), /^24 trials .*at most \d+ model calls/);
    await page.click('[data-testid="experiment-start"]');
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="progress"]');
      return el && Number(el.dataset.done) >= 4;
    }, null, { timeout: 60000 });
    page.once('dialog', (d) => d.accept());
    await page.reload();
    await page.waitForSelector('[data-testid="experiment-resume"]', { timeout: 10000 });
    const before = await status(page);
    assert.ok(before.done >= 4 && before.done < 24, JSON.stringify(before));
    await page.screenshot({ path: `${SHOTS}/experiment-after-reload.png`, fullPage: true });
    await page.click('[data-testid="experiment-resume"]');
    await waitDone(page, 24);
    const csv = (await download(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
    const ids = csv.slice(1).map((l) => l.split(',')[0]);
    assert.equal(ids.length, 24);
    assert.equal(new Set(ids).size, 24, 'no trial twice');
  });
});

test('a 429 storm lowers the concurrency and the run still finishes', async () => {
  await withPage(async (page) => {
    await modelDesign(page, `429ra-x16-u${rand()}`, { samples: 1, concurrency: 8, name: `storm ${rand()}` });
    await page.click('[data-testid="experiment-start"]');
    // The lane learns: its concurrency steps down below the maximum of 8, with the cause shown.
    const lowered = await (await page.waitForFunction(() => {
      const li = document.querySelector('[data-testid="run-lanes"] li');
      return li && Number(li.dataset.concurrency) < 8 && /429/.test(li.textContent) && li.textContent;
    }, null, { timeout: 30000 })).jsonValue();
    assert.match(lowered, /concurrency [1-7] of 8(, \d+ retrying)?; last retry: 429/);
    await page.screenshot({ path: `${SHOTS}/experiment-429-storm.png`, fullPage: true });
    await waitDone(page, 12);
    const players = await page.textContent('[data-testid="run-players"]');
    assert.match(players, /12\/12/);
    const row = await page.locator('[data-testid="run-players"] tbody tr').first().locator('td').allTextContents();
    assert.equal(row[5], '0', `no trial ended as an API error: ${row}`);
    console.log(`# during the storm: ${lowered}`);
  });
});

test('a model that does not answer the page is named in its lane from the first retry', async () => {
  await withPageBase(async (page) => {
    await modelDesign(page, `no-cors-u${rand()}`, { samples: 1, concurrency: 1, name: `no answer ${rand()}` });
    await page.click('[data-testid="experiment-start"]');
    const lane = await (await page.waitForFunction(() => {
      const li = document.querySelector('[data-testid="run-lanes"] li');
      return li && /last retry/.test(li.textContent) && li.textContent;
    }, null, { timeout: 15000 })).jsonValue();
    assert.match(
      lane,
      /last retry: No answer from http:\/\/\S+\/chat\/completions: the browser does not say why; most likely the server is not running or does not allow this site \(CORS\), attempt 1 of 6/,
      lane,
    );
    await page.screenshot({ path: `${SHOTS}/experiment-no-answer.png`, fullPage: true });
  }, NETWORK_NOISE);
});

test('export, delete, import and compare; a corrupt import is refused with its reason', async () => {
  await withPage(async (page) => {
    await openLab(page);
    const name = `roundtrip ${rand()}`;
    await setField(page, 'name', name);
    await page.fill('[data-testid="samples-per-shape"]', '2');
    await page.click('[data-testid="experiment-start"]');
    await waitDone(page, 24);
    const zip = await download(page, 'export-zip');
    const csvBefore = (await download(page, 'export-csv')).bytes.toString('utf8');
    // Delete it (with the confirmation).
    const row = page.locator('[data-testid="experiment-row"]', { hasText: name });
    answerDialog(page, '');
    await row.locator('[data-testid="delete"]').click();
    await page.waitForFunction((name) => ![...document.querySelectorAll('[data-testid="experiment-row"]')].some((r) => r.textContent.includes(name)), name);
    // Import the ZIP back: a new experiment with the same trials.
    await page.setInputFiles('[data-testid="import-file"]', zip.path);
    await page.waitForFunction(() => /Imported/.test(document.querySelector('[data-testid="lab-message"]')?.textContent ?? ''));
    assert.match(await page.textContent('[data-testid="lab-message"]'), /24 new trials, 0 already stored/);
    const csvAfter = (await download(page, 'export-csv')).bytes.toString('utf8');
    assert.equal(csvAfter, csvBefore, 'the imported trials export the same CSV');
    // Importing again adds nothing.
    await page.setInputFiles('[data-testid="import-file"]', zip.path);
    await page.waitForFunction(() => /0 new trials, 24 already stored/.test(document.querySelector('[data-testid="lab-message"]')?.textContent ?? ''));
    // A corrupt file.
    await page.setInputFiles('[data-testid="import-file"]', { name: 'broken.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from('{"not": "a record"}\n') });
    await page.waitForFunction(() => /broken\.jsonl, line 1/.test(document.querySelector('[data-testid="lab-message"]')?.textContent ?? ''));
    await page.screenshot({ path: `${SHOTS}/experiment-corrupt-import.png`, fullPage: true });
  });
});

test('the page and shapemaze run give the same verdicts for the same replies', async () => {
  const { execFileSync } = await import('node:child_process');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const bin = process.env.SHAPEMAZE_BIN ?? 'target/debug/shapemaze';
  assert.ok(fs.existsSync(bin), `the command line is built at ${bin} (scripts/e2e.sh builds it)`);
  await withPage(async (page) => {
    const scenario = `ok-u${rand()}`;
    await openLab(page);
    await setField(page, 'name', `both ways ${rand()}`);
    // Three scripted models that succeed, fail and run out of moves.
    for (const model of ['good', 'bad', 'wander']) {
      await page.selectOption('[data-testid="agent"]', 'endpoint');
      await page.selectOption('[data-testid="endpoint-preset"]', 'custom');
      await page.fill('[data-testid="endpoint-base-url"]', `${MOCK_URL}/${scenario}/v1`);
      await page.fill('[data-testid="endpoint-model"]', model);
      await page.uncheck('[data-testid="endpoint-stream"]');
      await page.click('[data-testid="add-model"]');
    }
    await page.click('[data-action="remove-player"][data-index="0"]');
    await page.waitForFunction(() => !document.querySelector('[name="p3.kind"]'));
    await page.fill('[data-testid="samples-per-shape"]', '1');
    await page.click('[data-testid="experiment-start"]');
    await waitDone(page, 36, 120000);
    const zip = await download(page, 'export-zip');
    const jsonl = (await download(page, 'export-jsonl')).bytes.toString('utf8');
    // The same design, headless.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shapemaze-both-'));
    const design = path.join(dir, 'experiment.json');
    fs.writeFileSync(design, unzipEntry(zip.bytes, 'experiment.json'));
    execFileSync(bin, ['run', design, '--out', path.join(dir, 'out')], { stdio: 'pipe' });
    const cli = fs.readFileSync(path.join(dir, 'out', 'trials.jsonl'), 'utf8');
    const key = (r) => `${r.model}/${r.encoding}/${r.shape}/${r.sample}/${r.repeat}`;
    const byKey = (text) => new Map(text.trim().split('\n').map((l) => JSON.parse(l)).map((r) => [key(r), r]));
    const page_ = byKey(jsonl), cli_ = byKey(cli);
    assert.equal(page_.size, 36);
    assert.deepEqual([...cli_.keys()].sort(), [...page_.keys()].sort());
    const outcomes = new Set();
    for (const [k, a] of page_) {
      const b = cli_.get(k);
      assert.deepEqual(b.verdicts, a.verdicts, `${k}: the verdicts differ`);
      assert.deepEqual(b.messages.map((m) => m.content), a.messages.map((m) => m.content), `${k}: the conversations differ`);
      outcomes.add(`${a.verdicts.solve?.outcome}/${a.verdicts.solve?.reason}`);
    }
    assert.ok(outcomes.size >= 3, `the design exercises several verdicts: ${[...outcomes]}`);
  });
});

test('leaving the page mid-run asks first, and leaving stops the run; resuming plays each trial once', async () => {
  await withPage(async (page) => {
    const scenario = `lat150-u${rand()}`;
    const name = `leave ${rand()}`;
    await modelDesign(page, scenario, { samples: 2, name });
    await page.click('[data-testid="experiment-start"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"]')?.dataset.done) >= 2, null, { timeout: 60000 });
    const results = page.locator('[data-testid="nav"] a', { hasText: 'Results' });
    // Staying: the question is declined and the run goes on here.
    let asked = '';
    page.once('dialog', (d) => { asked = d.message(); d.dismiss(); });
    await results.click();
    assert.match(asked, /A run is under way\. Leave this page and it stops/);
    assert.match(page.url(), /\/experiment/, 'declined: still on the page');
    assert.equal((await status(page)).state, 'running');
    // Leaving: the run stops with the page, so no call is made behind /results.
    page.once('dialog', (d) => d.accept());
    await results.click();
    await page.waitForURL(/\/results/);
    const calls = (await mockLog(scenario)).filter((e) => e.method === 'POST').length;
    await page.waitForFunction((name) => document.querySelector('[data-testid="sources"]')?.textContent.includes(name), name);
    await page.waitForFunction(() => /trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    const later = (await mockLog(scenario)).filter((e) => e.method === 'POST').length;
    assert.equal(later, calls, 'no model call after the page was left');
    // Back on the page: the run is stopped, and resuming finishes it with each trial once.
    await page.locator('[data-testid="nav"] a', { hasText: 'Experiments' }).click();
    await page.waitForSelector('[data-testid="experiment-resume"]', { timeout: 10000 });
    const stopped = await status(page);
    assert.ok(stopped.done >= 2 && stopped.done < 24, JSON.stringify(stopped));
    await page.click('[data-testid="experiment-resume"]');
    await waitDone(page, 24);
    const csv = (await download(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
    assert.equal(csv.length, 25);
    assert.equal(new Set(csv.slice(1).map((l) => l.split(',')[0])).size, 24, 'no trial twice');
  });
});

test('pause, cancel, resume and rerunning the API errors, with every trial once', async () => {
  await withPage(async (page) => {
    // The first 12 calls are refused (401, not retried): 12 trials end as API errors.
    await modelDesign(page, `401-x12-lat20-u${rand()}`, { samples: 2, concurrency: 4, name: `errors ${rand()}` });
    await page.click('[data-testid="experiment-start"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"]')?.dataset.done) >= 4);
    await page.click('[data-testid="experiment-pause"]');
    await page.waitForSelector('[data-testid="experiment-resume"]');
    const paused = await status(page);
    assert.equal(paused.state, 'paused');
    await page.waitForTimeout(500);
    const later = await status(page);
    assert.ok(later.done - paused.done <= 4, 'only the trials in flight finish after a pause');
    await page.click('[data-testid="experiment-resume"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"]')?.dataset.done) >= 14);
    await page.click('[data-testid="experiment-cancel"]');
    await page.waitForSelector('[data-testid="experiment-resume"]');
    assert.match(await page.textContent('[data-testid="lab-message"]'), /Cancelled: \d+ trials in flight were stopped/);
    await page.click('[data-testid="experiment-resume"]');
    await waitDone(page, 24);
    const errors = Number(await page.getAttribute('[data-testid="progress"]', 'data-errors'));
    assert.equal(errors, 12, 'the refused calls ended 12 trials as API errors');
    await page.screenshot({ path: `${SHOTS}/experiment-api-errors.png`, fullPage: true });
    await page.click('[data-testid="rerun-errors"]');
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="progress"]');
      return el && el.dataset.state === 'finished' && el.dataset.errors === '0';
    }, null, { timeout: 60000 });
    const csv = (await download(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
    const head = csv[0].split(',');
    const apiError = head.indexOf('api_error');
    assert.equal(csv.length, 25);
    assert.equal(new Set(csv.slice(1).map((l) => l.split(',')[0])).size, 24, 'no trial twice');
    assert.ok(csv.slice(1).every((l) => l.split(',')[apiError] === ''), 'no API error left');
  });
});

test('an experiment is renamed, duplicated as a new design, and its deletion asks first', async () => {
  await withPage(async (page) => {
    await openLab(page);
    const name = `manage ${rand()}`;
    await setField(page, 'name', name);
    await page.fill('[data-testid="samples-per-shape"]', '1');
    await page.click('[data-testid="experiment-start"]');
    await waitDone(page, 12);
    const row = () => page.locator('[data-testid="experiment-row"]', { hasText: name }).first();
    answerDialog(page, `${name} renamed`);
    await row().locator('[data-testid="rename"]').click();
    await page.waitForFunction((n) => [...document.querySelectorAll('[data-testid="experiment-row"]')].some((r) => r.textContent.includes(n)), `${name} renamed`);
    await row().locator('[data-testid="duplicate"]').click();
    await page.waitForFunction((n) => [...document.querySelectorAll('[data-testid="experiment-row"]')].some((r) => r.textContent.includes(`${n} renamed (copy)`) && r.textContent.includes('0/12')), name);
    // Dismissing the confirmation keeps it.
    page.once('dialog', (d) => d.dismiss());
    await page.locator('[data-testid="experiment-row"]', { hasText: `${name} renamed (copy)` }).locator('[data-testid="delete"]').click();
    await page.waitForTimeout(300);
    assert.equal(await page.locator('[data-testid="experiment-row"]', { hasText: `${name} renamed (copy)` }).count(), 1);
  });
});

test('a priced model stops at the cost limit; a higher limit resumes it; the results give the cost per solve', async () => {
  await withPage(async (page) => {
    const name = `priced ${rand()}`;
    await modelDesign(page, `ok-u${rand()}`, { samples: 6, concurrency: 1, name });
    // $1000 per million tokens each way: a trial costs about a dollar.
    await setField(page, 'p0.price', '1000, 1000');
    await page.fill('[data-testid="design-cost_limit"]', '100000');
    await page.locator('[data-testid="design-cost_limit"]').dispatchEvent('change');
    await page.waitForFunction(() => /at most about \$\d+/.test(document.querySelector('[data-testid="estimate"]')?.textContent ?? ''));
    // The estimate is high (every trial to the move limit): a limit of twice its mean trial
    // lets the first trial start, and the 72 trials' real cost passes it.
    const estimate = Number((await page.textContent('[data-testid="estimate"]')).match(/at most about \$(\d+)/)[1]);
    const limit = Math.round((2 * estimate) / 72);
    await page.fill('[data-testid="design-cost_limit"]', String(limit));
    await page.locator('[data-testid="design-cost_limit"]').dispatchEvent('change');
    await page.click('[data-testid="experiment-start"]');
    await page.waitForFunction(() => /Paused at the cost limit/.test(document.querySelector('[data-testid="lab-message"]')?.textContent ?? ''), null, { timeout: 60000 });
    const said = await page.textContent('[data-testid="lab-message"]');
    const spent = Number(said.match(/\$([\d.]+) spent of/)[1]);
    assert.ok(spent > 0 && spent <= limit, `spent $${spent} within the limit of $${limit}: ${said}`);
    const { done } = await status(page);
    assert.ok(done > 0 && done < 72, `${done} of 72 trials ran`);
    await page.screenshot({ path: `${SHOTS}/experiment-cost-limit.png`, fullPage: true });
    // Raised in the form, the run goes on to the end.
    await page.fill('[data-testid="design-cost_limit"]', '100000');
    await page.locator('[data-testid="design-cost_limit"]').dispatchEvent('change');
    await page.click('[data-action="resume"]');
    await waitDone(page, 72);
    await analyzeOnly(page, name);
    await page.waitForSelector('[data-testid="table-tokens"]');
    const head = await page.locator('[data-testid="table-tokens"] thead').textContent();
    assert.match(head, /cost per trial.*cost per solved trial/s);
    const row = await page.locator('[data-testid="table-tokens"] tbody tr').first().locator('td').allTextContents();
    assert.match(row.at(-1), /^\$\d+\.\d\d$/, `a cost per solve: ${row}`);
  });
});

test('reasoning efforts run the model once per effort, sent as the endpoint reads them, and compare like models', async () => {
  await withPage(async (page) => {
    const name = `efforts ${rand()}`;
    const scenario = `ok-u${rand()}`;
    await modelDesign(page, scenario, { samples: 1, concurrency: 2, name });
    await page.check('[name="effort"][value="low"]');
    await page.check('[name="effort"][value="no-thinking"]');
    await page.waitForFunction(() => /^24 trials \(12 per player\)/.test(document.querySelector('[data-testid="estimate"]')?.textContent ?? ''));
    await page.screenshot({ path: `${SHOTS}/experiment-efforts-form.png`, fullPage: true });
    await page.click('[data-testid="experiment-start"]');
    await waitDone(page, 24);
    const players = await page.textContent('[data-testid="run-players"]');
    assert.match(players, /good@low12\/12/);
    assert.match(players, /good@no-thinking12\/12/);
    // Each request carried its run's effort, as reasoning_effort or the chat template's switch.
    const log = (await (await fetch(`${MOCK_URL}/log`)).json()).filter((e) => e.scenario === scenario && e.body?.messages);
    const low = log.filter((e) => e.body.reasoning_effort === 'low' && !e.body.chat_template_kwargs);
    const off = log.filter((e) => e.body.chat_template_kwargs?.enable_thinking === false && !e.body.reasoning_effort);
    assert.ok(low.length > 0 && off.length > 0 && low.length + off.length === log.length, `${low.length} + ${off.length} of ${log.length}`);
    // The CSV names each trial's effort; the results compare the two runs like models.
    const csv = (await download(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
    const head = csv[0].split(',');
    const effort = head.indexOf('effort');
    assert.ok(effort > 0, head.join(','));
    assert.deepEqual([...new Set(csv.slice(1).map((l) => l.split(',')[effort]))].sort(), ['low', 'no-thinking']);
    await analyzeOnly(page, name);
    await page.waitForSelector('[data-testid="table-pooled"]');
    const rates = await page.textContent('[data-testid="table-pooled"]');
    assert.ok(rates.includes('good@low') && rates.includes('good@no-thinking'), rates);
    await page.screenshot({ path: `${SHOTS}/results-efforts.png`, fullPage: true });
  });
});

test('vision: each maze is sent as an image the scripted endpoint decodes and plays, the text set aside', async () => {
  await withPage(async (page) => {
    const name = `vision ${rand()}`;
    const scenario = `ok-u${rand()}`;
    await modelDesign(page, scenario, { samples: 1, concurrency: 2, name });
    await page.selectOption('[data-testid="design-vision"]', 'image');
    await page.locator('[data-testid="design-vision"]').dispatchEvent('change');
    await page.waitForFunction(() => /^12 trials/.test(document.querySelector('[data-testid="estimate"]')?.textContent ?? ''));
    await page.screenshot({ path: `${SHOTS}/experiment-vision-form.png`, fullPage: true });
    await page.click('[data-testid="experiment-start"]');
    await waitDone(page, 12);
    // Every prompt showing the maze carried a PNG of it beside text that holds no maze; the
    // scripted model read the maze from the image alone (it refuses an image it cannot
    // decode), so its shortest paths prove the image is the maze.
    const log = (await (await fetch(`${MOCK_URL}/log`)).json()).filter((e) => e.scenario === scenario && e.body?.messages);
    assert.ok(log.length > 12, `${log.length} requests`);
    for (const e of log) {
      assert.equal(e.status, 200, JSON.stringify(e.body).slice(0, 300));
      const first = e.body.messages.find((m) => m.role === 'user');
      assert.ok(Array.isArray(first.content), 'content parts');
      assert.match(first.content[0].text, /\[The maze is shown in the attached image\.\]/);
      assert.doesNotMatch(first.content[0].text, /^[01PG](?: [01PG]){4}$/m, 'no matrix rows');
      assert.match(first.content[1].image_url.url, /^data:image\/png;base64,/);
    }
    const csv = (await download(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
    const head = csv[0].split(',');
    const [vision, solve, generate] = ['vision', 'solve', 'generate'].map((c) => head.indexOf(c));
    for (const line of csv.slice(1)) {
      const cells = line.split(',');
      assert.equal(cells[vision], 'image', line);
      assert.equal(cells[solve], 'success', `solved from the image: ${line}`);
      assert.equal(cells[generate], 'success', `the new maze in the trial's encoding: ${line}`);
    }
    const zip = await download(page, 'export-zip');
    assert.match(unzipEntry(zip.bytes, 'experiment.json').toString('utf8'), /"vision": "image"/);
  });
});

test('matrix symbols: the oracle plays and generates in them, the CSV names them, a bad set is refused', async () => {
  await withPage(async (page) => {
    await openLab(page);
    await setField(page, 'name', `symbols ${rand()}`);
    await page.fill('[data-testid="samples-per-shape"]', '1');
    await page.fill('[data-testid="design-symbols"]', '@ @ S E');
    await page.locator('[data-testid="design-symbols"]').dispatchEvent('change');
    await page.waitForFunction(() => /Not ready to run: Matrix symbols: .*four different characters/.test(document.querySelector('[data-testid="estimate"]')?.textContent ?? ''));
    await page.fill('[data-testid="design-symbols"]', '@*SE');
    await page.locator('[data-testid="design-symbols"]').dispatchEvent('change');
    await page.waitForFunction(() => /^12 trials/.test(document.querySelector('[data-testid="estimate"]')?.textContent ?? ''));
    await page.click('[data-testid="experiment-start"]');
    await waitDone(page, 12);
    const csv = (await download(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
    const head = csv[0].split(',');
    const [enc, sym, gen] = ['encoding', 'symbols', 'generate'].map((c) => head.indexOf(c));
    for (const line of csv.slice(1)) {
      const cells = line.split(',');
      assert.equal(cells[sym], cells[enc] === 'matrix' ? "'@ * S E" : '', line);
      assert.equal(cells[gen], 'success', `the oracle's new maze is read in the set: ${line}`);
    }
    // The exported design keeps the set.
    const zip = await download(page, 'export-zip');
    assert.match(unzipEntry(zip.bytes, 'experiment.json').toString('utf8'), /"symbols": "@ \* S E"/);
  });
});

test('a staircase: a model walks each encoding up the levels, a reload resumes each walk, the results show the walks', async () => {
  await withPage(async (page) => {
    const name = `staircase ${rand()}`;
    await modelDesign(page, `lat150-u${rand()}`, { samples: 2, concurrency: 2, name });
    await page.fill('[data-testid="design-staircase"]', '6');
    await page.fill('[data-testid="design-staircase-start"]', '0');
    await page.locator('[data-testid="design-staircase"]').dispatchEvent('change');
    // Two walks (matrix, coordinate list) of six trials each.
    await page.waitForFunction(() => /^12 trials/.test(document.querySelector('[data-testid="estimate"]')?.textContent ?? ''));
    await page.screenshot({ path: `${SHOTS}/experiment-staircase-form.png`, fullPage: true });
    await page.click('[data-testid="experiment-start"]');
    // The progress appears once the run has started; from then on it counts every walk's
    // trials, those still to come included.
    await page.waitForSelector('[data-testid="progress"]');
    assert.equal((await status(page)).total, 12, 'the progress counts the trials still to come');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"]')?.dataset.done) >= 3, null, { timeout: 60000 });
    page.once('dialog', (d) => d.accept());
    await page.reload();
    await page.waitForSelector('[data-testid="experiment-resume"]', { timeout: 10000 });
    const before = await status(page);
    assert.ok(before.done >= 3 && before.done < 12 && before.total === 12, JSON.stringify(before));
    await page.click('[data-testid="experiment-resume"]');
    await waitDone(page, 12);
    // The scripted model solves every maze: up a level after every two trials, in the
    // design's shape order (square, cross, spiral at 5x5), each walk step by step.
    const csv = (await download(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
    const head = csv[0].split(',');
    const [enc, step, level, shape, solve] = ['encoding', 'step', 'level', 'shape', 'solve'].map((c) => head.indexOf(c));
    const walks = {};
    for (const line of csv.slice(1)) {
      const c = line.split(',');
      assert.equal(c[solve], 'success', line);
      (walks[c[enc]] ??= []).push([Number(c[step]), Number(c[level]), c[shape]]);
    }
    assert.deepEqual(Object.keys(walks).sort(), ['coord_list', 'matrix']);
    for (const w of Object.values(walks)) {
      w.sort((a, b) => a[0] - b[0]);
      assert.deepEqual(w.map((s) => s[0]), [0, 1, 2, 3, 4, 5], 'every step once, across the reload');
      assert.deepEqual(w.map((s) => s[1]), [0, 0, 1, 1, 2, 2]);
      assert.deepEqual(w.map((s) => s[2]), ['square', 'square', 'cross', 'cross', 'spiral', 'spiral']);
    }
    await analyzeOnly(page, name);
    await page.waitForSelector('[data-testid="table-staircase"]');
    const rows = await page.locator('[data-testid="table-staircase"] tbody tr').allTextContents();
    assert.equal(rows.length, 2, rows.join(' | '));
    for (const enc of ['matrix', 'coord_list']) {
      assert.ok(rows.some((r) => new RegExp(`good/${enc}.*not settled.*0 0 1 1 2 2`).test(r)), rows.join(' | '));
    }
    await page.locator('[data-testid="table-staircase"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/results-staircase.png`, fullPage: false });
  });
});

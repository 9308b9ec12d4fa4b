// End-to-end tests of /results: an experiment run on /experiment is analysed, its charts
// and tables download, a group drills down to its trials and a trial replays, the report
// file downloads; two experiments compare side by side; a bad import is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, withPage, analyzeOnly, runOracle, unzipEntry, zipNames } from './helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);

async function download(page, locator) {
  const [dl] = await Promise.all([page.waitForEvent('download'), locator.click()]);
  const fs = await import('node:fs');
  return { name: dl.suggestedFilename(), text: fs.readFileSync(await dl.path(), 'utf8') };
}

test('an experiment is analysed, drilled down to a trial, replayed and reported', async () => {
  await withPage(async (page) => {
    const name = `results ${rand()}`;
    await runOracle(page, name, 2);
    await page.goto(`${BASE}/results`);
    // Only this experiment.
    await page.waitForSelector('[data-testid="source"]');
    const labels = await page.locator('[data-testid="sources"] label').allTextContents();
    for (let i = 0; i < labels.length; i++) {
      if (!labels[i].includes(name)) await page.locator('[data-testid="source"]').nth(i).uncheck();
    }
    await page.waitForFunction(() => /24 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    for (const h of ['H1', 'H2', 'H3', 'H4']) {
      const v = await page.getAttribute(`[data-testid="hypothesis-${h}"]`, 'data-verdict');
      assert.ok(['supported', 'not_supported', 'insufficient'].includes(v), `${h}: ${v}`);
    }
    assert.ok((await page.locator('.report svg[data-testid^="chart-"]').count()) >= 3);
    // The oracle never errs: every solve traced, none looping, no first error.
    const errs = await page.locator('[data-testid="table-solve-errors"] tbody tr').first().locator('td').allTextContents();
    assert.deepEqual([errs[0], errs[1], errs[4], errs[5], errs[6]], ['all/all/all', '24', '0', '0', '0']);
    assert.match(errs[3], /^0\/24 \(24 mazes\) 0\.0%/);
    await page.screenshot({ path: `${SHOTS}/results-analysis.png`, fullPage: true });
    // A chart as SVG, a table as CSV.
    const svg = await download(page, page.locator('[data-action="chart-svg"]').first());
    assert.match(svg.name, /^chart-.*\.svg$/);
    assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const csv = await download(page, page.locator('[data-action="table-csv"][data-target="table-groups"]'));
    assert.equal(csv.name, 'table-groups.csv');
    // Written from the report model: every number kept, a rate as six columns.
    assert.match(csv.text.split('\n')[0], /^model,encoding,shape,trials,api_errors,solve_successes,solve_n,solve_rate,solve_ci_low,solve_ci_high,/);
    // Drill down: a group's trials, then one replayed.
    await page.locator('[data-testid="table-groups"] tr[data-action="drill"]').first().click();
    await page.waitForSelector('[data-testid="table-drill"]');
    const rows = await page.locator('[data-testid="table-drill"] tbody tr').count();
    assert.equal(rows, 2, 'two mazes of that model, encoding and shape');
    await page.locator('[data-testid="open-trial"]').first().click();
    await page.waitForSelector('[data-testid="drill-replay"] [data-testid="replay-step"]');
    await page.click('[data-testid="replay-step"]');
    assert.equal(await page.getAttribute('[data-testid="replay-position"]', 'data-step'), '1');
    await page.screenshot({ path: `${SHOTS}/results-replay.png`, fullPage: true });
    // A race from here: the replayed trial against another play of its maze (the same maze
    // in the other encoding), stepped by the keyboard, then back to the replay.
    await page.locator('[data-testid="race-open"]').first().click();
    await page.waitForSelector('[data-testid="drill-race"] [data-testid="race-b"]');
    assert.equal(await page.locator('[data-testid="drill-race"] [data-testid="race-link"]').count(), 0, 'no address for a race in place');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('[data-testid="race-position"]').dataset.step === '1');
    for (const side of ['race-a', 'race-b']) {
      assert.equal(await page.getAttribute(`[data-testid="${side}-counters"]`, 'data-moves'), '1');
    }
    await page.locator('[data-testid="drill-race"]').screenshot({ path: `${SHOTS}/results-race.png` });
    await page.click('[data-testid="race-close"]');
    await page.waitForSelector('[data-testid="drill-replay"] [data-testid="replay-step"]');
    // The report file.
    const report = await download(page, page.locator('[data-testid="download-report"]'));
    assert.equal(report.name, 'shapemaze-report.html');
    assert.match(report.text, /^<!DOCTYPE html>/);
    assert.match(report.text, /data-testid="hypothesis-H4"/);
    assert.match(report.text, /24 trials from/);
    // The design's name for the recognition matrix, in the chart and the table caption.
    assert.match(report.text, /<title>Shape confusion matrix/);
    assert.match(report.text, /<caption>Shape confusion matrix \(all\)/);
    assert.doesNotMatch(report.text, /Recognition: true shape/);
  });
});

test('an experiment over two grid sizes, each maze played twice, draws a difficulty curve per phase and pass@k', async () => {
  await withPage(async (page) => {
    const name = `sizes ${rand()}`;
    await runOracle(page, name, 1, '5, 7', 2);
    await analyzeOnly(page, name);
    await page.waitForFunction(() => /48 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    const rows = await page.locator('[data-testid="table-by-size"] tbody tr').allTextContents();
    // All trials, then the oracle, at 5x5 and 7x7: 24 trials each, every phase solved.
    assert.equal(rows.length, 4, rows.join(' | '));
    assert.match(rows[0], /^all5x524024\/24 \(12 mazes\) 100\.0%/);
    assert.match(rows[1], /^all7x724024\/24 \(12 mazes\) 100\.0%/);
    // The other measures by size: the oracle's solves take the shortest path at each size.
    const measures = await page.locator('[data-testid="table-by-size-measures"] tbody tr').allTextContents();
    assert.equal(measures.length, 4, measures.join(' | '));
    for (const row of await page.locator('[data-testid="table-by-size-measures"] tbody tr').all()) {
      const cells = await row.locator('td').allTextContents();
      assert.equal(cells[3], '0.00', `no move beyond the shortest path: ${cells.join(' | ')}`);
    }
    // Each of the 24 mazes (12 per size, two encodings) twice: solved in both.
    const overall = await page.locator('[data-testid="table-repeats"] tbody tr').first().locator('td').allTextContents();
    assert.deepEqual(overall.slice(0, 3), ['all/all/all', '2', '24']);
    assert.match(overall[3], /^24\/24 \(24 mazes\) 100\.0%/);
    assert.match(overall[4], /^24\/24 \(24 mazes\) 100\.0%/);
    for (const phase of ['solve', 'recognize', 'generate']) {
      const chart = page.locator(`[data-testid="chart-size-${phase}"]`);
      assert.match(await chart.textContent(), /5x5[\s\S]*7x7/, `${phase}: both sizes on the axis`);
    }
    await page.locator('[data-testid="chart-size-solve"]').screenshot({ path: `${SHOTS}/results-size-curve.png` });
  });
});

test('two experiments compare side by side; a bad import is refused with its reason', async () => {
  await withPage(async (page) => {
    const a = `day one ${rand()}`, b = `day two ${rand()}`;
    await runOracle(page, a, 1);
    await runOracle(page, b, 1);
    await page.goto(`${BASE}/results`);
    await page.waitForSelector('[data-testid="source"]');
    const labels = await page.locator('[data-testid="sources"] label').allTextContents();
    for (let i = 0; i < labels.length; i++) {
      if (!labels[i].includes(a) && !labels[i].includes(b)) await page.locator('[data-testid="source"]').nth(i).uncheck();
    }
    await page.waitForFunction(() => /24 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    const head = await page.locator('[data-testid="table-groups"] thead').textContent();
    assert.match(head, /experiment/, 'an experiment column when comparing');
    const body = await page.locator('[data-testid="table-groups"] tbody').textContent();
    assert.ok(body.includes(a) && body.includes(b));
    // The two experiments compared phase by phase: the same mazes, so McNemar's paired test.
    const cmp = '[data-testid="table-comparison"]';
    await page.waitForSelector(cmp);
    const caption = await page.textContent(`${cmp} caption`);
    assert.ok(caption.includes(`${a} against ${b}`) || caption.includes(`${b} against ${a}`), caption);
    assert.match(caption, /\(12 and 12 trials, 12 pairs on the same maze\)/);
    const rows = await page.locator(`${cmp} tbody tr`).allTextContents();
    assert.equal(rows.length, 3, rows.join('|'));
    for (const r of rows) assert.match(r, /McNemar \(paired\)/);
    await page.screenshot({ path: `${SHOTS}/results-comparison.png`, fullPage: true });
    // Swapping the sides redraws the comparison the other way round.
    const [first, second] = [await page.inputValue('[data-testid="compare-a"]'), await page.inputValue('[data-testid="compare-b"]')];
    await page.selectOption('[data-testid="compare-a"]', second);
    await page.selectOption('[data-testid="compare-b"]', first);
    await page.waitForFunction(([x, y]) => (document.querySelector('[data-testid="table-comparison"] caption')?.textContent ?? '').startsWith(`${x} against ${y}`), [second, first]);
    await page.setInputFiles('[data-testid="results-import"]', { name: 'broken.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from('not json\n') });
    await page.waitForFunction(() => /broken\.jsonl, line 1/.test(document.querySelector('[data-testid="results-message"]')?.textContent ?? ''));
  });
});

test("a folder of the image-only condition's transcripts is replayed on its maze files", async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { execFileSync } = await import('node:child_process');
  const bin = process.env.SHAPEMAZE_BIN ?? 'target/debug/shapemaze';
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shapemaze-vision-'));
  const design = path.join(root, 'design.json');
  fs.writeFileSync(design, JSON.stringify({ players: [{ kind: 'oracle' }], encodings: ['matrix'], shapes: ['square', 'Z'], samples_per_shape: 2, seed: 3, vision: 'image' }));
  const dir = path.join(root, 'vision-run');
  execFileSync(bin, ['run', design, '--out', dir], { stdio: 'pipe' });
  // Transcripts and maze files only: no records to fall back on.
  fs.rmSync(path.join(dir, 'trials.jsonl'));
  fs.rmSync(path.join(dir, 'trials.csv'));
  // A closing line that lies: counted from the closing lines it would be a failure; replayed
  // on the maze file, the oracle's moves solve it.
  const t = path.join(dir, 'matrix_oracle_results', '5x5', 'square', '5x5_square_0.npy', '0.txt');
  const text = fs.readFileSync(t, 'utf8');
  assert.match(text, /\[The maze is shown in the attached image\.\]/);
  fs.writeFileSync(t, text.replace('SOLVE: SUCCESS', 'SOLVE: FAIL'));
  await withPage(async (page) => {
    await page.goto(`${BASE}/results`);
    await page.waitForSelector('[data-testid="results-import-folder"]');
    await page.setInputFiles('[data-testid="results-import-folder"]', dir);
    await page.waitForFunction(() => /4 trials from vision-run/.test(document.querySelector('.report')?.textContent ?? ''));
    // Every phase of the oracle's four trials succeeded, the lying closing line's solve too.
    const head = await page.locator('[data-testid="table-pooled"] thead th').allTextContents();
    const row = await page.locator('[data-testid="table-pooled"] tbody tr').first().locator('td').allTextContents();
    for (const phase of ['solve', 'recognize', 'generate']) {
      const cell = row[head.findIndex((h) => h.trim().startsWith(phase))];
      assert.match(cell ?? '', /^4\/4 \(\d+ mazes?\) 100\.0%/, `${phase}: ${row.join(' | ')}`);
    }
  });
});

test('a results folder of transcripts is imported as a folder and analysed', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shapemaze-folder-'));
  const dir = path.join(root, 'original-runs');
  // The design's own layout, transcripts holding only their closing lines.
  for (const enc of ['matrix', 'coord_list'])
    for (const shape of ['square', 'spiral'])
      for (let i = 0; i < 3; i++) {
        const rel = path.join(dir, `${enc}_qwen_results`, '5x5', shape, `5x5_${shape}_${i}.npy`);
        fs.mkdirSync(rel, { recursive: true });
        fs.writeFileSync(path.join(rel, '0.txt'), `SOLVE: ${i ? 'SUCCESS' : 'FAIL'}\nRECOGNIZE: SUCCESS\nGENERATE: FAIL\n`);
      }
  fs.writeFileSync(path.join(dir, 'notes.md'), 'not a transcript');
  await withPage(async (page) => {
    await page.goto(`${BASE}/results`);
    await page.waitForSelector('[data-testid="results-import-folder"]');
    await page.setInputFiles('[data-testid="results-import-folder"]', dir);
    await page.waitForFunction(() => /original-runs \(transcripts\)/.test(document.querySelector('[data-testid="sources"]')?.textContent ?? ''));
    await page.waitForFunction(() => /12 trials from original-runs/.test(document.querySelector('.report')?.textContent ?? ''));
    const groups = await page.locator('[data-testid="table-groups"]').textContent();
    assert.match(groups, /qwen/);
    // A transcript has no record to replay.
    await page.locator('[data-testid="table-groups"] tr[data-action="drill"]').first().click();
    await page.waitForSelector('[data-testid="table-drill"]');
    assert.equal(await page.locator('[data-testid="open-trial"]').count(), 0);
    assert.match(await page.locator('[data-testid="table-drill"]').textContent(), /a transcript: no replay/);
  });
});

/** The `.npy` bytes of a matrix maze (`1` wall, `0` open, `P`, `G`), as numpy.save writes them. */
function npy(rows) {
  const cells = rows.map((r) => r.split(' '));
  const dict = `{'descr': '<i8', 'fortran_order': False, 'shape': (${cells.length}, ${cells[0].length}), }`;
  const pad = (64 - ((10 + dict.length + 1) % 64)) % 64;
  const header = Buffer.from(dict + ' '.repeat(pad) + '\n', 'latin1');
  const head = Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length & 255, header.length >> 8]);
  const codes = { 1: 0n, 0: 1n, P: 2n, G: 3n };
  const body = Buffer.alloc(8 * cells.length * cells[0].length);
  cells.flat().forEach((c, i) => body.writeBigInt64LE(codes[c], 8 * i));
  return Buffer.concat([head, header, body]);
}

/** A ZIP (stored, no compression) of `files`, a map from entry names to bytes or text. */
function storedZip(files) {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (b) => {
    let c = 0xffffffff;
    for (const x of b) c = table[(c ^ x) & 255] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14); local.writeUInt32LE(data.length, 18); local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16); central.writeUInt32LE(data.length, 20); central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28); central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(centrals.length / 2, 8); end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(dir.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

test('a folder of the original runs is audited three ways, drilled down to what each scorer read, and reported', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shapemaze-audit-'));
  const dir = path.join(root, 'audit-runs');
  const SQUARE = ['P 0 G 0 0', '0 1 1 1 0', '0 1 1 1 0', '0 1 1 1 0', '0 0 0 0 0'];
  const SMALL = ['0 P 0 1 1', 'G 1 0 1 1', '0 0 0 1 1', '1 1 1 1 1', '1 1 1 1 1'];
  const NEXT = 'Please provide the coordinates of your next move.';
  const first = (maze) => `You are tasked with solving a maze. You can move up, down, left, or right.\nHere is the maze you should solve:\n\n${maze.join('\n')}\n\n${NEXT}`;
  const closing = (reply, rec, gen) => `For the maze you were tasked to solve, please provide:\n* A new maze of the same shape.\n* The general shape formed by its empty spaces (corridors) is recognizable as "{shape}".\n${reply}\n\nRECOGNIZE: ${rec}\n\nGENERATE: ${gen}\n`;
  const moved = ['0 P G 0 0', ...SQUARE.slice(1)];
  const fresh = ['G 0 0 0 0', ...SQUARE.slice(1, 4), '0 0 0 0 P'];
  const files = {
    // A clean success, its first reply glued to the prompt.
    'matrix_claude_results/5x5/square/5x5_square_1.npy/0.txt': `${first(SQUARE)}(0, 1)\n\nHere is the current state of the maze after your latest move:\n\n${moved.join('\n')}\n\n${NEXT}\n(0, 2)\n\nSOLVE: SUCCESS\n${closing(`A square:\n${fresh.join('\n')}`, 'SUCCESS', 'SUCCESS')}`,
    // A diagonal the original accepted on the square.
    'matrix_claude_results/5x5/square/5x5_square_2.npy/0.txt': `${first(SMALL)}\nI go to (1, 0).\n\nSOLVE: SUCCESS\n${closing('A square.', 'SUCCESS', 'FAIL')}`,
    // An API failure, counted as a model failure by the original.
    'matrix_claude_results/5x5/square/5x5_square_3.npy/0.txt': 'Query did not run: experiment_mazes/5x5/square/5x5_square_3.npy\nError: rate limit reached\n\nSOLVE: FAIL\n\nRECOGNIZE: FAIL\n\nGENERATE: FAIL\n',
    'matrix_claude_results/metadata.txt': 'mazes: 3\n',
    'humans/p1/p1_5x5_square_1700000000.json': JSON.stringify({
      participant_id: 'p1', maze_file: '5x5_square_1.npy', maze_type: { size: '5x5', shape: 'square' },
      moves: ['right'], total_moves: 1, completion_time: 12.5, timestamp: 1700000000, maze_complete: true,
      failed: false, phase: 'done', recognized_shape: 'square', recognition_correct: true,
      generation_result: null, generation_method: 'click', generation_coordinates: [],
    }),
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.mkdirSync(path.join(dir, 'experiment_mazes/5x5/square'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'experiment_mazes/5x5/square/5x5_square_1.npy'), npy(SQUARE));
  await withPage(async (page) => {
    await page.goto(`${BASE}/results`);
    await page.waitForSelector('[data-testid="results-import-folder"]');
    await page.setInputFiles('[data-testid="results-import-folder"]', dir);
    await page.waitForFunction(() => /audit-runs \(original runs\)/.test(document.querySelector('[data-testid="sources"]')?.textContent ?? ''));
    await page.waitForSelector('[data-testid="audit"]');
    // Three scorings side by side, with intervals; the human file beside the model.
    const rates = await page.locator('[data-testid="table-audit-rates"]').textContent();
    assert.match(rates, /claude matrix square/);
    assert.match(rates, /human page square/);
    assert.match(rates, /\d+\/\d+ \d+\.\d% \[\d+\.\d, \d+\.\d\]/, 'rates with 95% intervals');
    // The table is wider than its box and scrolls sideways; its caption (with the note on
    // the clustered intervals) stays within the box, whole, however far it is scrolled.
    const fit = () => page.$eval('[data-testid="table-audit-rates"]', (t) => {
      const wrap = t.parentElement.getBoundingClientRect();
      const cap = t.querySelector('caption').getBoundingClientRect();
      return { wide: t.parentElement.scrollWidth > t.parentElement.clientWidth, inside: cap.left >= wrap.left - 1 && cap.right <= wrap.right + 1 };
    });
    assert.deepEqual(await fit(), { wide: true, inside: true });
    await page.$eval('[data-testid="table-audit-rates"]', (t) => { t.parentElement.scrollLeft = 300; });
    assert.deepEqual(await fit(), { wide: true, inside: true }, 'scrolled sideways');
    const chart = page.locator('[data-testid="chart-audit-causes"]');
    assert.match(await chart.textContent(), /diagonal on four direction shape/);
    assert.match(await chart.textContent(), /api error counted as failure/);
    // The analysis itself uses the strict verdicts of the three model trials.
    assert.match(await page.locator('.report').textContent(), /3 trials from audit-runs/);
    // A cause opens its trials, with the part of the reply each scorer read marked.
    await page.locator('[data-testid="table-audit-causes"] a[data-cause="diagonal_on_four_direction_shape"]').click();
    const drill = page.locator('[data-testid="audit-drill"]');
    await drill.waitFor();
    assert.match(await drill.locator('h3').textContent(), /diagonal on four direction shape in claude matrix square, solve \(1 trial\)/);
    const item = drill.locator('[data-testid="audit-trial"]');
    assert.equal(await item.count(), 1);
    assert.match(await item.textContent(), /5x5_square_2\.npy\/0\.txt/);
    assert.match(await item.textContent(), /recorded success, strict fail, original success/);
    assert.equal(await item.locator('mark.read-both').textContent(), '(1, 0)');
    await drill.screenshot({ path: `${SHOTS}/results-audit-drill.png` });
    // The same trials sit under the cause's own section, as in the report file.
    const details = page.locator('[data-testid="audit-cause-diagonal_on_four_direction_shape"]');
    assert.equal(await details.getAttribute('open'), null);
    await details.locator('summary').click();
    assert.equal(await details.locator('[data-testid="audit-trial"] mark.read-both').textContent(), '(1, 0)');
    await page.locator('[data-testid="audit"]').screenshot({ path: `${SHOTS}/results-audit.png` });
    // The report file holds the audit too.
    const report = await download(page, page.locator('[data-testid="download-report"]'));
    assert.match(report.text, /data-testid="table-audit-rates"/);
    assert.match(report.text, /<mark class="read-both">\(1, 0\)<\/mark>/);
    // The same folder zipped is audited the same way, as a second source beside the first.
    const zipped = { 'audit-runs/experiment_mazes/5x5/square/5x5_square_1.npy': npy(SQUARE) };
    for (const [rel, text] of Object.entries(files)) zipped[`audit-runs/${rel}`] = text;
    const zipPath = path.join(root, 'audit-runs.zip');
    fs.writeFileSync(zipPath, storedZip(zipped));
    await page.setInputFiles('[data-testid="results-import"]', zipPath);
    await page.waitForFunction(() => /audit-runs\.zip \(original runs\)/.test(document.querySelector('[data-testid="sources"]')?.textContent ?? ''));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="audit"]').length === 2);
    const second = page.locator('[data-testid="audit"]').nth(1);
    assert.match(await second.locator('h2').textContent(), /audit-runs\.zip/);
    assert.equal(await second.locator('[data-testid="table-audit-rates"]').textContent(), rates, 'the same rates from the ZIP');
    // Its causes list its own trials.
    await second.locator('a[data-cause="diagonal_on_four_direction_shape"]').click();
    await page.waitForFunction(() => /audit-runs\.zip/.test(document.querySelector('[data-testid="audit-drill"] h3')?.textContent ?? ''));
    assert.match(await page.locator('[data-testid="audit-drill"] [data-testid="audit-trial"]').textContent(), /^audit-runs\/matrix_claude_results/);
    assert.equal(await page.locator('[data-testid="audit-drill"] [data-testid="audit-trial"] mark.read-both').textContent(), '(1, 0)');
    // Human files alone: nothing to analyse by encoding, and the audit still shows.
    const humans = path.join(root, 'humans-only');
    fs.mkdirSync(path.join(humans, 'experiment_mazes/5x5/square'), { recursive: true });
    fs.mkdirSync(path.join(humans, 'p1'), { recursive: true });
    fs.writeFileSync(path.join(humans, 'experiment_mazes/5x5/square/5x5_square_1.npy'), npy(SQUARE));
    fs.writeFileSync(path.join(humans, 'p1/p1_5x5_square_1700000000.json'), files['humans/p1/p1_5x5_square_1700000000.json']);
    await page.goto(`${BASE}/results`);
    await page.waitForSelector('[data-testid="sources"]');
    await page.waitForTimeout(300);
    for (const box of await page.locator('[data-testid="source"]').all()) if (await box.isChecked()) await box.click();
    await page.setInputFiles('[data-testid="results-import-folder"]', humans);
    await page.waitForFunction(() => /enter the audit below only/.test(document.querySelector('[data-testid="results-empty"]')?.textContent ?? ''));
    assert.match(await page.locator('[data-testid="table-audit-rates"]').textContent(), /human page square/);
    const humansReport = await download(page, page.locator('[data-testid="download-report"]'));
    assert.match(humansReport.text, /data-testid="table-audit-rates"/, 'an audit alone is reported');
  });
});

test('an experiment of ours is also scored the original way, beside today\'s verifiers', async () => {
  await withPage(async (page) => {
    const name = `audit own ${rand()}`;
    await runOracle(page, name, 1);
    await page.goto(`${BASE}/results`);
    await page.waitForFunction(() => /trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    // Only this experiment.
    for (const box of await page.locator('[data-testid="source"]').all()) {
      const label = await box.evaluate((el) => el.parentElement.textContent);
      if (label.includes(name) !== (await box.isChecked())) await box.click();
    }
    await page.waitForFunction(() => /12 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    assert.equal(await page.locator('[data-testid="audit"]').count(), 0, 'no audit until asked for');
    await page.click('[data-testid="results-options"] summary');
    await page.check('[data-testid="audit-own"]');
    await page.waitForSelector('[data-testid="audit"]');
    const audit = page.locator('[data-testid="audit"]');
    assert.match(await audit.locator('h2').textContent(), new RegExp(`${name} \\(original scoring\\)`));
    const cells = await audit.locator('[data-testid="table-audit-rates"] tbody tr').first().locator('td').allTextContents();
    // Group, trials, mazes (six shapes, each maze in two encodings: 12 instances), API
    // errors, then solve recorded / strict / original: the oracle solves every maze by
    // today's rules and by the original's.
    assert.deepEqual(cells.slice(0, 4), ['all', '12', '12', '0']);
    for (const cell of cells.slice(4, 7)) assert.match(cell, /^12\/12 100\.0% \[[\d.]+, 100\.0\]$/);
    // Its generation passes today's checks; the original families may refuse some corridors.
    assert.match(cells[11], /^12\/12 100\.0%/);
    assert.match(cells[12], /^\d+\/12 /);
    await page.screenshot({ path: `${SHOTS}/results-audit-own.png` });
    await audit.screenshot({ path: `${SHOTS}/results-audit-own-section.png` });
    await page.uncheck('[data-testid="audit-own"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="audit"]'));
  });
});

test('a design with U and N runs on /experiment and its confusion matrix grows with them', async () => {
  await withPage(async (page) => {
    const name = `U and N ${rand()}`;
    await runOracle(page, name, 2, '5', 1, ['C', 'U', 'N']);
    await analyzeOnly(page, name);
    // C, U and N: 2 mazes each in both encodings.
    await page.waitForFunction(() => /12 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    const confusion = page.locator('[data-testid="table-confusion-all"]');
    const head = await confusion.locator('thead').textContent();
    assert.match(head, /square.*C.*Z.*U.*N.*none/s, `columns: ${head}`);
    const rows = await confusion.locator('tbody tr').allTextContents();
    assert.equal(rows.length, 8, `the six and U and N: ${rows.join(' | ')}`);
    const row = async (shape) => (await confusion.locator('tbody tr', { has: page.locator(`th:text-is("${shape}")`) }).locator('td').allTextContents()).map(Number);
    // The oracle names each maze's own shape: 4 on the diagonal for C, U and N.
    assert.deepEqual(await row('U'), [0, 0, 0, 0, 0, 0, 4, 0, 0]);
    assert.deepEqual(await row('N'), [0, 0, 0, 0, 0, 0, 0, 4, 0]);
    assert.deepEqual(await row('C'), [0, 0, 0, 0, 4, 0, 0, 0, 0]);
    await confusion.screenshot({ path: `${SHOTS}/results-confusion-u-n.png` });
  });
});

test('a filter narrows the analysis to the trials it matches; a bad one says why and keeps the view', async () => {
  await withPage(async (page) => {
    const name = `filter ${rand()}`;
    await runOracle(page, name, 2);
    await analyzeOnly(page, name);
    await page.waitForFunction(() => /(?<!\d)24 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    const count = '[data-testid="results-filter-count"]';
    const says = (re) => page.waitForFunction(
      (src) => new RegExp(src).test(document.querySelector('[data-testid="results-filter-count"]')?.textContent ?? ''), re.source);
    await says(/^24 of 24 trials match/);
    await page.fill('[data-testid="results-filter"]', 'shape:spiral');
    await says(/^4 of 24 trials match/);
    await page.waitForFunction(() => /(?<!\d)4 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    // A bad filter says what is wrong; the analysis stays as it was.
    await page.fill('[data-testid="results-filter"]', 'shape:oval');
    await says(/unknown shape 'oval'/);
    assert.equal(await page.getAttribute(count, 'class'), 'error');
    assert.match(await page.locator('.report').textContent(), /(?<!\d)4 trials from/);
    // A phrase searches the messages: the matrix prompts state a legend.
    await page.fill('[data-testid="results-filter"]', '"legend:"');
    await says(/^12 of 24 trials match/);
    // The report file holds the filtered analysis and says the filter.
    await page.fill('[data-testid="results-filter"]', 'encoding:matrix -shape:square');
    await says(/^10 of 24 trials match/);
    await page.waitForFunction(() => /(?<!\d)10 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    await page.screenshot({ path: `${SHOTS}/results-filter.png` });
    const report = await download(page, page.locator('[data-testid="download-report"]'));
    assert.match(report.text, /Filter: encoding:matrix -shape:square — 10 of 24 trials/);
    assert.match(report.text, /\b10 trials from/);
    await page.fill('[data-testid="results-filter"]', '');
    await says(/^24 of 24 trials match/);
  });
});

test('a study\'s people and a model on the same mazes are paired in a table and a chart', async () => {
  const dir = new URL('../fixtures/people-vs-models/', import.meta.url).pathname;
  await withPage(async (page) => {
    // The study's trials into this browser's study store, as /study/manage imports them.
    await page.goto(`${BASE}/study/manage`);
    await page.waitForSelector('[data-testid="study-import-file"]');
    await page.setInputFiles('[data-testid="study-import-file"]', `${dir}study-data.jsonl`);
    await page.waitForFunction(() => /Imported 8 trials/.test(document.querySelector('[data-testid="study-manage-status"]')?.textContent ?? ''));
    // The model's trials imported on /results beside them.
    await page.goto(`${BASE}/results`);
    await page.waitForSelector('[data-testid="source"]');
    await page.setInputFiles('[data-testid="results-import"]', `${dir}trials.jsonl`);
    await page.waitForFunction(() => /16 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    const table = page.locator('[data-testid="table-people-models"]');
    await table.waitFor();
    // The fixture's people's records are from before the pages hid the shape: their
    // recognition answers are left out, and the section says so, until counted.
    assert.equal(await table.locator('tbody tr').count(), 2, 'solve and generate only');
    assert.match(await page.locator('section#people-models').textContent(), /8 people's recognition verdicts are left out of every rate/);
    await page.check('[data-testid="results-include-shown"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="table-people-models"] tbody tr').length === 3);
    assert.match(await page.locator('section#people-models').textContent(), /are counted, as asked, and overstate/);
    const rows = await table.locator('tbody tr').all();
    assert.equal(rows.length, 3, 'one model x three phases');
    const solve = await rows[0].locator('td').allTextContents();
    // What the row pairs in three columns (model, its encoding, the people's condition:
    // the fixture's study data is from before the condition was kept, so it pairs by the
    // encoding and says so; the CSV also has the pair in words and the test's code), then
    // phase, mazes, the two rates, the difference, the test, p, participants, percentile.
    assert.equal(solve[1], 'matrix');
    assert.equal(solve[2], 'condition not recorded (matrix)');
    assert.equal(solve[3], 'solve');
    assert.equal(solve[4], '4');
    assert.match(solve[5], /^6\/8 \(4 mazes\) 75\.0%/);
    assert.match(solve[6], /^4\/8 \(4 mazes\) 50\.0%/);
    assert.match(solve[7], /^\+20\.8 \[-18\.9, \+60\.6\]$/);
    assert.equal(solve[8], 'Wilcoxon (per-maze rates)');
    assert.equal(solve[9], '= 0.500');
    assert.deepEqual(solve.slice(10), ['3', '100.00'], 'participants, percentile (the statistic and the trials in the CSV)');
    // At 1280 wide every column is in view: the table needs no sideways scroll.
    await table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/results-people-models-table.png` });
    const [wide, room] = await table.evaluate((t) => [t.scrollWidth, t.parentElement.clientWidth]);
    assert.ok(wide <= room + 1, `the people-and-models table fits its column at 1280 wide (${wide} px in ${room})`);
    // The headline counts who was paired of who took part.
    assert.match(await table.locator('caption').textContent(), /3 of 3 participants and 8 of their 8 trials paired/);
    assert.equal(await page.locator('section#people-models').count(), 1, 'the section has its anchor');
    const chart = page.locator('[data-testid="chart-people-models"]');
    assert.match(await chart.textContent(), /solve[\s\S]*recognize[\s\S]*generate/);
    assert.equal(await chart.locator('circle').count(), 10, 'three participants in each of three phases, and the legend');
    assert.match(await chart.locator('[data-testid="chart-legend"]').textContent(), /participant's rate[\s\S]*their median[\s\S]*model's rate/);
    const eff = await page.locator('[data-testid="table-people-models-efficiency"] tbody tr td').allTextContents();
    assert.deepEqual(eff.slice(1, 10), ['matrix', 'condition not recorded (matrix)', '3', '4.67', '7.00', '6.33', '1.52', '0.40', '320.00']);
    await page.locator('section#people-models').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/results-people-models.png` });
    await chart.screenshot({ path: `${SHOTS}/results-people-models-chart.png` });
  });
});

test("an imported run's provenance is shown under its name", async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { execFileSync } = await import('node:child_process');
  const bin = process.env.SHAPEMAZE_BIN ?? 'target/debug/shapemaze';
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shapemaze-provenance-'));
  const design = path.join(root, 'design.json');
  fs.writeFileSync(design, JSON.stringify({ name: 'cited-run', players: [{ kind: 'oracle' }], encodings: ['matrix'], shapes: ['square'], samples_per_shape: 2, seed: 9 }));
  const dir = path.join(root, 'cited-run');
  execFileSync(bin, ['run', design, '--out', dir], { stdio: 'pipe' });
  const written = JSON.parse(fs.readFileSync(path.join(dir, 'provenance.json'), 'utf8'));
  await withPage(async (page) => {
    await page.goto(`${BASE}/results`);
    await page.waitForSelector('[data-testid="results-import-folder"]');
    await page.setInputFiles('[data-testid="results-import-folder"]', dir);
    await page.waitForSelector('[data-testid="source-provenance"]');
    await page.click('[data-testid="source-provenance"] summary');
    const text = await page.locator('[data-testid="source-provenance"] pre').textContent();
    assert.match(text, /^Provenance: Shapemaze /);
    assert.ok(text.includes(written.design_sha256.slice(0, 12)), text);
    assert.match(text, /seeds 9; 2 trials/);
    assert.match(text, /oracle \(oracle, 2 trials\)/);
    await page.screenshot({ path: `${SHOTS}/results-provenance.png` });
    // The report file downloaded from the page carries it too, and the item matrix.
    await page.waitForSelector('[data-testid="table-groups"]');
    const report = await download(page, page.locator('[data-testid="download-report"]'));
    assert.ok(report.text.includes('Provenance of ') && report.text.includes(written.design_sha256.slice(0, 12)), 'the provenance in the report file');
    assert.match(report.text, /data-testid="table-items">shape,size,seed,sample,encoding,model,trials,solve,recognize,generate,condition\n/);
  });
});

test('the chosen experiment downloads in the Every Eval Ever schema: an aggregate per model, its instance rows', async () => {
  await withPage(async (page) => {
    const name = `eee ${Math.random().toString(36).slice(2, 8)}`;
    await runOracle(page, name, 1, '5', 1, ['square']);
    await analyzeOnly(page, name);
    await page.waitForSelector('[data-testid="table-groups"]');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download-every-eval-ever"]')]);
    assert.equal(dl.suggestedFilename(), 'every-eval-ever.zip');
    const { readFileSync } = await import('node:fs');
    const zip = readFileSync(await dl.path());
    const names = zipNames(zip);
    const aggregates = names.filter((n) => /^data\/shapemaze\/.+\/[0-9a-f-]{36}\.json$/.test(n));
    const samples = names.filter((n) => /^data\/shapemaze\/.+\/[0-9a-f-]{36}_samples\.jsonl$/.test(n));
    assert.equal(aggregates.length, 1, `one model, one aggregate: ${names}`);
    assert.equal(samples.length, 1, `and its rows: ${names}`);
    const aggregate = JSON.parse(unzipEntry(zip, aggregates[0]).toString('utf8'));
    assert.ok(aggregate.schema_version, 'the schema version is named');
    assert.equal(aggregate.model_info.id, 'shapemaze/oracle');
    const results = aggregate.evaluation_results.map((r) => [r.evaluation_name, r.score_details.score]);
    assert.deepEqual(results, [['shapemaze.solve', 1], ['shapemaze.recognize', 1], ['shapemaze.generate', 1]]);
    const rows = unzipEntry(zip, samples[0]).toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(rows.length >= 6, `a row per reply and phase: ${rows.length}`);
    assert.ok(rows.every((r) => r.evaluation_id === aggregate.evaluation_id));
    assert.match(await page.textContent('[data-testid="results-message"]'), /Downloaded every-eval-ever\.zip/);
  });
});


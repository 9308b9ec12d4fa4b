// End-to-end tests of /results: an experiment run on /experiment is analysed, its charts
// and tables download, a group drills down to its trials and a trial replays, the report
// file downloads; two experiments compare side by side; a bad import is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, withPage } from '../e2e/helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);

/** Runs the oracle on `samples` mazes per shape under `name` on /experiment. */
async function runOracle(page, name, samples) {
  await page.goto(`${BASE}/experiment`);
  await page.waitForSelector('[data-testid="design-name"]');
  await page.fill('[data-testid="design-name"]', name);
  await page.fill('[data-testid="samples-per-shape"]', String(samples));
  await page.click('[data-testid="experiment-start"]');
  // This experiment's row says complete (the page may show an earlier one's progress first).
  await page.waitForFunction((name) => [...document.querySelectorAll('[data-testid="experiment-row"]')]
    .some((r) => r.textContent.includes(name) && r.textContent.includes('complete')), name, { timeout: 60000 });
}

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
    await page.screenshot({ path: `${SHOTS}/results-analysis.png`, fullPage: true });
    // A chart as SVG, a table as CSV.
    const svg = await download(page, page.locator('[data-action="chart-svg"]').first());
    assert.match(svg.name, /^chart-.*\.svg$/);
    assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const csv = await download(page, page.locator('[data-action="table-csv"][data-target="table-groups"]'));
    assert.equal(csv.name, 'table-groups.csv');
    assert.match(csv.text.split('\r\n')[0], /model,encoding,shape,trials/);
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
    // The report file.
    const report = await download(page, page.locator('[data-testid="download-report"]'));
    assert.equal(report.name, 'shapemaze-report.html');
    assert.match(report.text, /^<!DOCTYPE html>/);
    assert.match(report.text, /data-testid="hypothesis-H4"/);
    assert.match(report.text, /24 trials from/);
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
    await page.setInputFiles('[data-testid="results-import"]', { name: 'broken.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from('not json\n') });
    await page.waitForFunction(() => /broken\.jsonl, line 1/.test(document.querySelector('[data-testid="results-message"]')?.textContent ?? ''));
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

// End-to-end tests of the review part of /results (issues 39 and 51). A run of the scripted
// endpoint's deliberating model (options, corrections, drafts, option letters; see
// tests/mock-endpoint/deliberate.mjs) beside the oracle: the queue lists the unsure
// readings first and the random sample of sure ones last, never the oracle's; 20 mixed
// items are reviewed by keyboard alone, one to three keys each, the focus never lost; the
// agreement is split into sure and unsure readings; the rates carry their reading bounds;
// the rates as reviewed match `shapemaze score --reviews`; and on a phone the item fits the
// screen. A second test runs the second reader. Screenshots land in target/e2e-screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BASE, SHOTS, MOCK_URL, withPage, analyzeOnly, downloadText, zipNames, unzipEntry, accessible, startDesign } from './helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);

/** Runs the deliberating model (and the oracle, unless `oracle` is false) on one maze of
 * each of `shapes` in both encodings under `name` on /experiment; returns the export ZIP. */
async function runDeliberate(page, name, { oracle = true, shapes = null } = {}) {
  await page.goto(`${BASE}/experiment`);
  await page.waitForSelector('[data-testid="design-name"]');
  await page.fill('[data-testid="design-name"]', name);
  await page.selectOption('[data-testid="agent"]', 'endpoint');
  await page.selectOption('[data-testid="endpoint-preset"]', 'custom');
  await page.fill('[data-testid="endpoint-base-url"]', `${MOCK_URL}/ok-u${rand()}/v1`);
  await page.fill('[data-testid="endpoint-model"]', 'deliberate');
  await page.uncheck('[data-testid="endpoint-stream"]');
  await page.click('[data-testid="add-model"]');
  await page.waitForSelector('[name="p1.kind"]');
  if (!oracle) {
    await page.click('[data-action="remove-player"][data-index="0"]');
    await page.waitForFunction(() => !document.querySelector('[name="p1.kind"]'));
  }
  await page.fill('[data-testid="samples-per-shape"]', '1');
  await page.locator('[data-testid="samples-per-shape"]').dispatchEvent('change');
  await startDesign(page, name, shapes, 90000);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-zip"]')]);
  return fs.readFileSync(await dl.path());
}

/** The item on show: its attributes and how many are reviewed. */
async function shown(page) {
  return page.evaluate(() => {
    const item = document.querySelector('[data-testid="review-item"]');
    const progress = document.querySelector('[data-testid="review-progress"]')?.textContent ?? '';
    return item
      ? {
          phase: item.dataset.phase,
          sure: item.dataset.sure,
          reasons: item.dataset.reasons.split(' '),
          trial: item.dataset.trial,
          key: `${item.dataset.trial} ${item.dataset.phase} ${item.dataset.step}`,
          reviewed: Number(progress.match(/^(\d+) of/)?.[1] ?? -1),
          position: document.querySelector('[data-testid="review-position"]')?.textContent ?? '',
          doubt: document.querySelector('[data-testid="review-doubt"]')?.textContent ?? null,
        }
      : null;
  });
}

/** Whether the keyboard focus comes to the review item (or inside it), or to the end
 * message, once the next one is drawn (never left on the page's body). */
const focusKept = (page) =>
  page
    .waitForFunction(() => {
      const a = document.activeElement;
      return Boolean(a && (a.closest('[data-testid="review-item"]') || a.dataset?.testid === 'review-done'));
    }, null, { timeout: 3000 })
    .then(() => true, () => false);

const RANK = { unsure: 0, readers_differ: 1, second_reader: 2, sampled: 3 };

/** Reviews the item on show by keys alone, the keys chosen by its phase and `i`: returns
 * the keys pressed. */
async function reviewByKeys(page, item, i) {
  let keys;
  if (item.phase === 'solve') {
    keys = i % 2 ? ['ArrowRight', 'Enter'] : ['c'];
  } else if (item.phase === 'recognize') {
    keys = [String((i % 6) + 1)];
  } else {
    keys = (await page.locator('[data-testid="review-draft-2"]').count()) ? ['2'] : ['n'];
  }
  for (const k of keys) await page.keyboard.press(k);
  return keys;
}

test('the queue puts unsure readings first, 20 mixed items are reviewed by keyboard alone, and the page agrees with score --reviews', async () => {
  await withPage(async (page) => {
    const name = `review ${rand()}`;
    const zip = await runDeliberate(page, name);
    await analyzeOnly(page, name);
    // The reading bounds beside the deliberating model's rates.
    await page.waitForSelector('[data-testid="table-pooled"]');
    const bounds = await page.locator('[data-testid="table-pooled"] tr', { hasText: 'deliberate' }).locator('small.bounds').allTextContents();
    assert.ok(bounds.length > 0 && bounds.every((b) => /^\d+ unsure: \d+\.\d-\d+\.\d%$/.test(b)), `bounds: ${bounds}`);
    assert.match(await page.locator('[data-testid="table-pooled"] caption').textContent(), /if every unsure reading were wrong/);
    await page.waitForSelector('[data-testid="results-review"]');
    await page.focus('[data-testid="review-open"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="review-item"]');
    // A sample of sure readings of every phase (the default), by keyboard.
    await page.focus('[data-testid="review-reviewer"]');
    await page.keyboard.type('tester');
    await page.keyboard.press('Tab');
    await page.focus('[data-testid="review-sample-size"]');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('6');
    await page.keyboard.press('Tab');
    await page.focus('[data-testid="review-sample"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /, [1-9]\d* in the random sample of sure readings/.test(document.querySelector('[data-testid="review-summary"]')?.textContent ?? ''));
    const summary = await page.locator('[data-testid="review-summary"]').textContent();
    const total = Number(summary.match(/^(\d+) replies to review/)[1]);
    assert.ok(total >= 20, summary);
    await page.screenshot({ path: `${SHOTS}/results-review.png`, fullPage: true });
    await accessible(page, '/results#review with an item on show');

    // The queue's order, item by item (j moves on without reviewing): unsure readings first,
    // the random sample last, never a built-in player's reply.
    await page.focus('[data-testid="review-item"]');
    const order = [];
    for (let i = 0; i < total; i++) {
      const item = await shown(page);
      order.push(item);
      if (i + 1 < total) {
        await page.keyboard.press('j');
        await page.waitForFunction((p) => document.querySelector('[data-testid="review-position"]')?.textContent !== p, item.position);
        assert.ok(await focusKept(page), `the focus stays on the item after j (${i})`);
      }
    }
    assert.ok(order.every((o) => !o.trial.includes('_oracle_results')), 'no oracle reply is queued');
    const ranks = order.map((o) => RANK[o.reasons[0]]);
    assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), `reasons in the queue's order: ${order.map((o) => o.reasons.join('+'))}`);
    assert.ok(order.some((o) => o.reasons[0] === 'unsure'), 'unsure readings are queued');
    assert.ok(order.filter((o) => o.sure === 'false').every((o) => o.doubt), 'an unsure reading says why');
    assert.ok(order.filter((o) => o.sure === 'false').every((o) => o.reasons.includes('unsure')), 'every unsure reading says so');
    assert.ok(order.filter((o) => o.reasons.includes('sampled')).every((o) => o.sure === 'true'), 'the sample draws sure readings');
    assert.ok(['solve', 'recognize', 'generate'].every((p) => order.some((o) => o.phase === p && o.reasons.includes('sampled'))), 'a sample of each phase');

    // Back to the first item (a new view starts there), then 20 reviews by keys alone:
    // 12 in the queue's order, 8 of the sample (shown alone).
    await page.selectOption('[data-testid="review-filter"]', 'sampled');
    await page.selectOption('[data-testid="review-filter"]', 'all');
    await page.focus('[data-testid="review-item"]');
    const started = Date.now();
    let presses = 0;
    for (let i = 0; i < 20; i++) {
      if (i === 12) {
        await page.selectOption('[data-testid="review-filter"]', 'sampled');
        await page.focus('[data-testid="review-item"]');
      }
      const item = await shown(page);
      assert.ok(item, `an item to review (${i})`);
      const keys = await reviewByKeys(page, item, i);
      assert.ok(keys.length >= 1 && keys.length <= 3, `one to three keys: ${keys}`);
      presses += keys.length;
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid="review-summary"]')?.textContent.match(/; (\d+) reviewed\.$/)?.[1]) === n, item.reviewed + 1);
      assert.ok(await focusKept(page), `the focus is on the next item after ${keys.join('+')} on a ${item.phase} item (${i})`);
    }
    console.log(`# 20 reviews by keyboard: ${Date.now() - started} ms, ${presses} keys`);
    await page.screenshot({ path: `${SHOTS}/results-review-done.png`, fullPage: true });
    // The agreement, the sure readings of the sample apart from the unsure ones.
    const agreement = page.locator('[data-testid="review-agreement"]');
    assert.match(await agreement.locator('p[data-sure="sure"]').first().textContent(), /^In (solve|recognize|generate): of \d+ sure readings? of (moves|shapes|mazes) reviewed in the random sample, \d+ read right \(\d+\.\d%, \d+\.\d-\d+\.\d%\)\.$/);
    assert.match(await agreement.locator('p[data-sure="unsure"]').first().textContent(), /^In (solve|recognize|generate): of \d+ unsure readings? of (moves|shapes|mazes) reviewed, \d+ read right/);

    // The rates as reviewed, model by model, as `shapemaze score --reviews` gives them.
    const reviews = await downloadText(page, 'review-export');
    assert.equal(reviews.trim().split('\n').length, 20);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shapemaze-review-'));
    for (const n of zipNames(zip)) {
      if (n.endsWith('/')) continue;
      fs.mkdirSync(path.dirname(path.join(dir, n)), { recursive: true });
      fs.writeFileSync(path.join(dir, n), unzipEntry(zip, n));
    }
    fs.writeFileSync(path.join(dir, 'reviews.jsonl'), reviews);
    const bin = process.env.SHAPEMAZE_BIN ?? 'target/debug/shapemaze';
    const cli = JSON.parse(execFileSync(bin, ['score', dir, '--format', 'json', '--reviews', path.join(dir, 'reviews.jsonl')], { encoding: 'utf8' }));
    const cell = (c) => `${c.success}/${c.success + c.fail} ${(c.success + c.fail ? (100 * c.success) / (c.success + c.fail) : 0).toFixed(1)}%${c.unscored ? ` ?${c.unscored}` : ''}${c.api_error ? ` !${c.api_error}` : ''}`;
    for (const model of ['deliberate', 'oracle']) {
      const row = (totals) => totals.find((t) => t.group === 'model' && t.value === model);
      for (const phase of ['solve', 'recognize', 'generate']) {
        const tds = await page.locator(`[data-testid="review-rates"] tr[data-model="${model}"][data-phase="${phase}"] td`).allTextContents();
        assert.deepEqual(tds.slice(1), [cell(row(cli.totals)[phase]), cell(row(cli.review.totals)[phase])], `${model} ${phase}: the page against score --reviews`);
      }
    }

    // On a phone (a touch screen): the same run imported, no sideways scroll, the item's
    // head clear of the sticky contents bar, and no "hover" in the legend.
    const zipFile = path.join(dir, 'run.zip');
    fs.writeFileSync(zipFile, zip);
    const phone = await page.context().browser().newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    try {
      const p = await phone.newPage();
      await p.goto(`${BASE}/results`);
      await p.setInputFiles('[data-testid="results-import"]', zipFile);
      await p.waitForSelector('[data-testid="source"]');
      await p.click('[data-action="analyze"]');
      await p.waitForSelector('[data-testid="results-review"]');
      await p.click('[data-testid="review-open"]');
      await p.waitForSelector('[data-testid="review-item"]');
      await p.focus('[data-testid="review-item"]');
      await p.keyboard.press('j');
      // Once the next item is drawn, its head is brought below the contents bar.
      const clear = () => {
        const nav = document.querySelector('[data-testid="results-nav"]')?.getBoundingClientRect();
        const head = document.querySelector('[data-testid="review-position"]');
        return /^Reply 2 of/.test(head?.textContent ?? '') && nav && head.getBoundingClientRect().top >= nav.bottom;
      };
      await p.waitForFunction(clear, null, { timeout: 5000 }).catch(() => {});
      const layout = await p.evaluate(() => {
        const nav = document.querySelector('[data-testid="results-nav"]').getBoundingClientRect();
        const head = document.querySelector('[data-testid="review-position"]').getBoundingClientRect();
        const hint = document.querySelector('.review-item .hover-hint');
        return {
          // A phone widens its layout to the widest line: measure against the screen.
          sideways: document.documentElement.scrollWidth - screen.width,
          navBottom: nav.bottom,
          headTop: head.top,
          hint: hint ? getComputedStyle(hint).display : 'none',
        };
      });
      await p.screenshot({ path: `${SHOTS}/results-review-phone.png` });
      assert.ok(layout.sideways <= 0, `no sideways scroll on a phone: ${JSON.stringify(layout)}`);
      assert.ok(layout.headTop >= layout.navBottom, `"Reply 2 of" below the contents bar: ${JSON.stringify(layout)}`);
      assert.equal(layout.hint, 'none', 'no "hover" on a touch screen');
    } finally {
      await phone.close();
    }
  });
});

test('a second reader on the mock endpoint reads every reply, says when it answered nothing, and its answers are there again after a reload', async () => {
  await withPage(async (page) => {
    const name = `judge ${rand()}`;
    await runDeliberate(page, name, { oracle: false, shapes: ['square'] });
    await analyzeOnly(page, name);
    // The address #review opens the queue (the contents link does the same).
    await page.evaluate(() => { window.location.hash = 'review'; });
    await page.waitForSelector('[data-testid="review-queue"]');
    await page.click('[data-testid="second-reader"] summary');
    await page.selectOption('[data-testid="second-reader-preset"]', 'custom');
    const scenario = `ok-u${rand()}`;
    await page.fill('[data-testid="second-reader-base-url"]', `${MOCK_URL}/${scenario}/v1`);
    await page.press('[data-testid="second-reader-base-url"]', 'Tab');
    await page.fill('[data-testid="second-reader-model"]', `judge-${rand()}`);
    await page.press('[data-testid="second-reader-model"]', 'Tab');
    await page.fill('[data-testid="second-reader-price-input"]', '1');
    await page.fill('[data-testid="second-reader-price-output"]', '2');
    await page.press('[data-testid="second-reader-price-output"]', 'Tab');
    // The estimate before it starts: every reply, none answered yet, a cost at the price.
    const estimate = page.locator('[data-testid="second-reader-estimate"]');
    await page.waitForFunction(() => /^\d+ replies to read \(0 already answered by this model\), about \d+ prompt and \d+ answer tokens, about \$/
      .test(document.querySelector('[data-testid="second-reader-estimate"]')?.textContent ?? ''));
    const replies = Number((await estimate.textContent()).match(/^(\d+)/)[1]);
    assert.ok(replies >= 6, `moves, shapes and mazes of two trials: ${replies}`);
    await page.click('[data-testid="second-reader-start"]');
    await page.waitForFunction((n) => new RegExp(`Done: ${n} replies read by the second reader`)
      .test(document.querySelector('[data-testid="second-reader-progress"]')?.textContent ?? ''), replies);
    const log = await (await fetch(`${MOCK_URL}/log`)).json();
    assert.equal(log.filter((e) => e.scenario === scenario && e.method === 'POST').length, replies, 'one call a reply');
    // The judge reads the shapes, and no maze: no fake kappa for the mazes.
    const kappa = page.locator('[data-testid="second-reader-kappa"]');
    await page.waitForFunction(() => /In generate: the readers agree on 0 of \d+ replies \(0\.0%\), no kappa: the second reader gave no answer for any of them\./
      .test(document.querySelector('[data-testid="second-reader-kappa"]')?.textContent ?? ''));
    assert.doesNotMatch(await kappa.textContent(), /kappa 0\.000 \(0\.000 to 0\.000\)/);
    assert.match(await page.locator('[data-testid="review-summary"]').textContent(), /, [1-9]\d* read otherwise by the second reader/);
    await page.selectOption('[data-testid="review-filter"]', 'second_reader');
    const item = page.locator('[data-testid="review-item"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="review-item"]')?.dataset.reasons.includes('second_reader'));
    assert.match(await item.locator('[data-testid="review-reasons"]').textContent(), /the second reader reads it otherwise/);
    await page.screenshot({ path: `${SHOTS}/results-second-reader.png`, fullPage: true });
    // The answers and the judge's settings are kept: after a reload nothing is left to
    // ask, without typing the model's name again.
    await page.reload();
    await analyzeOnly(page, name);
    await page.click('[data-testid="review-open"]');
    await page.click('[data-testid="second-reader"] summary');
    await page.waitForFunction((n) => new RegExp(`^0 replies to read \\(${n} already answered by this model\\)`)
      .test(document.querySelector('[data-testid="second-reader-estimate"]')?.textContent ?? ''), replies);
  });
});

// End-to-end test of the review part of /results (issue 39): after a small oracle run, a
// researcher opens /results#review, draws a seeded random sample of moves, and reviews it
// by keyboard alone (confirm, another cell on the grid, no answer), sees the reader's
// agreement on the sample, downloads reviews.jsonl, and finds the reviews again after a
// reload. Screenshots land in target/e2e-screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, MOCK_URL, withPage, runOracle, analyzeOnly, downloadText } from './helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);

test('a sample of moves is reviewed by keyboard, the agreement shows, and the reviews download as reviews.jsonl', async () => {
  await withPage(async (page) => {
    const name = `review ${rand()}`;
    await runOracle(page, name, 1, '5', 1, ['square']);
    await analyzeOnly(page, name);
    await page.waitForSelector('[data-testid="results-review"]');
    // The replies are read when the queue is opened (by keyboard: focus, Enter).
    await page.focus('[data-testid="review-open"]');
    await page.keyboard.press('Enter');
    const queue = page.locator('[data-testid="review-queue"]');
    // The oracle answers plainly: nothing read by a fall-back, nothing to review yet.
    await page.waitForSelector('[data-testid="review-empty"]');
    // A sample of three moves, by keyboard: focus the size, type, then the button.
    await page.focus('[data-testid="review-reviewer"]');
    await page.keyboard.type('tester');
    await page.keyboard.press('Tab');
    await page.focus('[data-testid="review-sample-size"]');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    await page.focus('[data-testid="review-sample"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /3 replies to review: 0 read by a fall-back rule, 0 where the original-compatible reading differs, 0 read otherwise by the second reader, 3 in the random sample/
      .test(document.querySelector('[data-testid="review-queue"]')?.textContent ?? ''));
    const item = page.locator('[data-testid="review-item"]');
    assert.equal(await item.getAttribute('data-phase'), 'solve');
    assert.match(await item.getAttribute('data-rule'), /^(answer_label|concluded)$/, 'a plain answer');
    const marked = await page.locator('[data-testid="review-read-span"]').textContent();
    assert.match(marked, /^\(\d+, \d+\)$/, 'the span read is marked');
    await page.screenshot({ path: `${SHOTS}/results-review.png`, fullPage: true });

    // 1: confirm with `c`.
    await item.focus();
    await page.keyboard.press('c');
    await page.waitForFunction(() => /^Reply 2 of 3/.test(document.querySelector('[data-testid="review-item"] strong')?.textContent ?? ''));
    // 2: another cell, by the grid's arrows and Enter: the cell to the right of the one read
    // (or to the left at the edge).
    const read = marked.match(/\((\d+), (\d+)\)/).slice(1).map(Number);
    const second = (await page.locator('[data-testid="review-read-span"]').textContent()).match(/\((\d+), (\d+)\)/).slice(1).map(Number);
    const cols = Number(await page.locator('[data-testid="review-maze"]').getAttribute('data-cols'));
    const target = [second[0], second[1] + 1 < cols ? second[1] + 1 : second[1] - 1];
    await page.focus(`[data-testid="review-cell-${second[0]}-${second[1]}"]`);
    await page.keyboard.press(target[1] > second[1] ? 'ArrowRight' : 'ArrowLeft');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^Reply 3 of 3/.test(document.querySelector('[data-testid="review-item"] strong')?.textContent ?? ''));
    // 3: no answer, with `n`.
    await item.focus();
    await page.keyboard.press('n');
    const agreement = page.locator('[data-testid="review-agreement"]');
    await page.waitForFunction(() => /agrees with review on 1 of 3 sampled moves/
      .test(document.querySelector('[data-testid="review-agreement"]')?.textContent ?? ''));
    assert.match(await agreement.textContent(), /In solve: the reader agrees with review on 1 of 3 sampled moves \(33\.3%, \d+\.\d-\d+\.\d%\)/);
    assert.match(await queue.textContent(), /Reviewed: no answer \(tester\)/);
    // The solve rate as reviewed: the trial whose move was read as no answer fails there
    // (the other two readings may end their solves as well); as read, every solve succeeds.
    const solveRow = page.locator('[data-testid="review-rates"] tr[data-phase="solve"] td');
    assert.match(await solveRow.nth(0).textContent(), /^2\/2 \(100\.0%\)$/);
    assert.match(await solveRow.nth(1).textContent(), /^[01]\/2 /);

    // The reviews download as reviews.jsonl, one line each, as `shapemaze score` reads them.
    const text = await downloadText(page, 'review-export');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 3);
    assert.deepEqual(lines.map((l) => [l.phase, l.sampled, l.reviewer]), [['solve', true, 'tester'], ['solve', true, 'tester'], ['solve', true, 'tester']]);
    assert.deepEqual(lines[0].value, read, 'the first confirmed as read');
    assert.deepEqual(lines[1].value, target, 'the second moved to the cell picked');
    assert.equal(lines[2].value, null, 'the third has no answer');
    assert.match(lines[0].trial, /^matrix_oracle_results\/5x5\/square\/5x5_square_0\.npy\/0\.txt$|_results\/5x5\/square\//);

    // The reviews stay in this browser: after a reload the agreement reads the same.
    await page.goto(`${BASE}/results#review`);
    await analyzeOnly(page, name);
    await page.click('[data-testid="review-open"]');
    await page.waitForSelector('[data-testid="review-queue"]');
    await page.focus('[data-testid="review-sample-size"]');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.click('[data-testid="review-sample"]');
    await page.waitForFunction(() => /agrees with review on 1 of 3 sampled moves/
      .test(document.querySelector('[data-testid="review-agreement"]')?.textContent ?? ''));
  });
});

test('a second reader on the mock endpoint reads every reply, its kappa shows, its disagreements join the queue, and a second pass asks nothing', async () => {
  await withPage(async (page) => {
    const name = `judge ${rand()}`;
    await runOracle(page, name, 1, '5', 1, ['square']);
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
    assert.ok(replies >= 3, `a move, a shape and a maze at least: ${replies}`);
    await page.click('[data-testid="second-reader-start"]');
    await page.waitForFunction((n) => new RegExp(`Done: ${n} replies read by the second reader`)
      .test(document.querySelector('[data-testid="second-reader-progress"]')?.textContent ?? ''), replies);
    const log = await (await fetch(`${MOCK_URL}/log`)).json();
    assert.equal(log.filter((e) => e.scenario === scenario && e.method === 'POST').length, replies, 'one call a reply');
    // The judge reads the moves and the shape as the rules reader does, and no maze: the
    // maze replies are read otherwise, and queued with the judge's reading shown.
    const kappa = page.locator('[data-testid="second-reader-kappa"]');
    await page.waitForFunction(() => /In solve: the readers agree on \d+ of \d+ replies \(100\.0%\)/
      .test(document.querySelector('[data-testid="second-reader-kappa"]')?.textContent ?? ''));
    const mazes = (await kappa.textContent()).match(/In generate: the readers agree on 0 of (\d+) replies \(0\.0%\)/);
    assert.ok(mazes, await kappa.textContent());
    assert.match(await page.locator('[data-testid="review-summary"]').textContent(), new RegExp(`, ${mazes[1]} read otherwise by the second reader`));
    const item = page.locator('[data-testid="review-item"]');
    assert.equal(await item.getAttribute('data-phase'), 'generate');
    assert.match(await item.textContent(), /the second reader reads it otherwise/);
    assert.match(await page.locator('[data-testid="review-second"]').textContent(), /The second reader read: no answer/);
    await page.screenshot({ path: `${SHOTS}/results-second-reader.png`, fullPage: true });
    // The answers are kept in this browser: after a reload nothing is left to ask.
    const model = await page.inputValue('[data-testid="second-reader-model"]');
    await page.reload();
    await analyzeOnly(page, name);
    await page.click('[data-testid="review-open"]');
    await page.click('[data-testid="second-reader"] summary');
    await page.selectOption('[data-testid="second-reader-preset"]', 'custom');
    await page.fill('[data-testid="second-reader-model"]', model);
    await page.press('[data-testid="second-reader-model"]', 'Tab');
    await page.waitForFunction((n) => new RegExp(`^0 replies to read \\(${n} already answered by this model\\)`)
      .test(document.querySelector('[data-testid="second-reader-estimate"]')?.textContent ?? ''), replies);
  });
});

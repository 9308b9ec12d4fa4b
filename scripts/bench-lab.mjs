// Browser budgets of the experiment and results pages (issues 7 and 8), measured in headless
// Chromium against the release build (dist/) and the scripted endpoint (never asserted in
// tests):
//   - the standard 360-trial design with the oracle, every record stored: < 2 s
//   - the scripted endpoint at 100 ms per call, concurrency 8: within 10% of the ideal
//     wall time (calls x 100 ms / 8)
//   - 3 players x 360 trials stored: the results page reads and draws them in < 200 ms
// Usage: node scripts/bench-lab.mjs APP_URL MOCK_URL [ROUNDS]
// (scripts/bench.sh starts both servers and runs it when dist/ is built.)
import { launch } from '../tests/e2e/helpers.mjs';

const [base, mock, rounds = '3'] = process.argv.slice(2);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds from the start click to the progress panel saying finished. */
async function timeRun(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
          const el = document.querySelector('[data-testid="progress"]');
          if (el && el.dataset.state === 'finished' && el.dataset.done === el.dataset.total) {
            obs.disconnect();
            resolve(performance.now() - t0);
          }
        });
        obs.observe(document.body, { subtree: true, childList: true, attributes: true });
        document.querySelector('[data-testid="experiment-start"]').click();
      }),
  );
}

async function fresh() {
  const { browser, page } = await launch();
  await page.goto(`${base}/experiment`);
  await page.waitForSelector('[data-testid="design-name"]');
  return { browser, page };
}

// 1. The standard design with the oracle.
const oracle = [];
for (let i = 0; i < Number(rounds); i++) {
  const { browser, page } = await fresh();
  try {
    oracle.push(await timeRun(page));
  } finally {
    await browser.close();
  }
}
console.log(`360 oracle trials, start to all stored (${rounds} rounds): median ${median(oracle).toFixed(0)} ms, max ${Math.max(...oracle).toFixed(0)} ms (budget 2000 ms)`);

// 2. The scripted endpoint at 100 ms per call, concurrency 8.
{
  const { browser, page } = await fresh();
  try {
    const scenario = `lat100-ubench${Date.now()}`;
    await page.selectOption('[data-testid="agent"]', 'endpoint');
    await page.selectOption('[data-testid="endpoint-preset"]', 'custom');
    await page.fill('[data-testid="endpoint-base-url"]', `${mock}/${scenario}/v1`);
    await page.fill('[data-testid="endpoint-model"]', 'good');
    await page.uncheck('[data-testid="endpoint-stream"]');
    await page.click('[data-testid="add-model"]');
    await page.click('[data-action="remove-player"][data-index="0"]');
    await page.waitForFunction(() => !document.querySelector('[name="p1.kind"]'));
    await page.fill('[name="p0.concurrency"]', '8');
    await page.fill('[data-testid="samples-per-shape"]', '10');
    const ms = await timeRun(page);
    const log = await (await fetch(`${mock}/log`)).json();
    const calls = log.filter((e) => e.scenario === scenario && e.method === 'POST').length;
    const ideal = (calls * 100) / 8;
    // Chromium opens at most 6 HTTP/1.1 connections per host, and the local scripted
    // server speaks HTTP/1.1: 8 trials in flight make at most 6 calls at once. (Hosted
    // endpoints speak HTTP/2, which multiplexes every call over one connection.)
    const ideal6 = (calls * 100) / 6;
    console.log(`scripted endpoint, 100 ms per call, concurrency 8: ${calls} calls in ${ms.toFixed(0)} ms; ideal ${ideal.toFixed(0)} ms (${(100 * (ms / ideal - 1)).toFixed(1)}% over); ideal under the browser's 6 connections per HTTP/1.1 host ${ideal6.toFixed(0)} ms (${(100 * (ms / ideal6 - 1)).toFixed(1)}% over; budget 10%)`);
  } finally {
    await browser.close();
  }
}

// 3. The results page over 3 players x 360 trials.
{
  const { browser, page } = await fresh();
  try {
    for (const name of ['random-a', 'random-b']) {
      await page.selectOption('[data-testid="agent"]', 'random');
      await page.click('[data-testid="add-model"]');
      const i = await page.locator('[data-testid="player-row"]').count() - 1;
      await page.fill(`[name="p${i}.name"]`, name);
    }
    await page.evaluate(() => document.querySelector('[data-testid="samples-per-shape"]').dispatchEvent(new Event('change', { bubbles: true })));
    const est = await page.textContent('[data-testid="estimate"]');
    await timeRun(page);
    await page.goto(`${base}/results`);
    await page.waitForSelector('[data-testid="hypothesis-H1"]');
    const draws = [];
    for (let i = 0; i < Number(rounds) + 2; i++) {
      draws.push(
        await page.evaluate(
          () =>
            new Promise((resolve) => {
              const report = document.querySelector('.report');
              const t0 = performance.now();
              const obs = new MutationObserver(() => {
                if (report.querySelector('[data-testid="hypothesis-H4"]')) {
                  obs.disconnect();
                  requestAnimationFrame(() => resolve(performance.now() - t0));
                }
              });
              obs.observe(report, { childList: true, subtree: true });
              document.querySelector('[data-action="analyze"]').click();
            }),
        ),
      );
    }
    const trials = await page.evaluate(() => /(\d+) trials from/.exec(document.querySelector('.report').textContent)?.[1]);
    console.log(`results page, ${trials} trials (${est.split(';')[0]}) read from storage, analysed and drawn: median ${median(draws).toFixed(0)} ms, max ${Math.max(...draws).toFixed(0)} ms (budget 200 ms)`);
  } finally {
    await browser.close();
  }
}

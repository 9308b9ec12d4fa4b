// Browser budgets of the model page (issue 6), measured in headless Chromium against the
// release build and the scripted endpoint (never asserted in tests):
//   - with the oracle, one whole trial completes and renders: < 50 ms
//   - client overhead per endpoint call beyond the network: < 5 ms
// Usage: node scripts/bench-browser.mjs BASE_URL MOCK_URL [ROUNDS]
// (scripts/bench.sh starts both servers and runs it.)
import { launch, openModel, useEndpoint } from '../tests/e2e/helpers.mjs';

const [base, mock, rounds = '10'] = process.argv.slice(2);
process.env.BASE_URL = base;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds from the click on run-trial to the page showing the phase `done`. */
async function timeTrial(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const phase = () => document.querySelector('[data-testid="phase"]')?.dataset.phase;
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
          if (phase() === 'done' && document.querySelector('[data-testid="verdict-generate"]')) {
            obs.disconnect();
            // The next frame: the verdicts are on screen.
            requestAnimationFrame(() => resolve(performance.now() - t0));
          }
        });
        obs.observe(document.body, { subtree: true, childList: true, attributes: true });
        document.querySelector('[data-testid="run-trial"]').click();
      }),
  );
}

const { browser, page } = await launch();
try {
  const oracle = [];
  for (let i = 0; i < Number(rounds); i++) {
    await openModel(page, `shape=spiral&seed=${i}&sample=0`);
    oracle.push(await timeTrial(page));
  }
  console.log(`oracle trial, click to rendered verdicts (spiral 5x5, ${rounds} rounds): median ${median(oracle).toFixed(1)} ms, max ${Math.max(...oracle).toFixed(1)} ms`);

  // Endpoint calls on localhost: the page's own latency figure per call, against the
  // server's (the mock answers at once), over every reply of a trial.
  const perCall = [];
  const wall = [];
  for (let i = 0; i < Math.min(Number(rounds), 5); i++) {
    await openModel(page, `shape=spiral&seed=${i}&sample=0`);
    await useEndpoint(page, { baseUrl: `${mock}/ok-ubench${Date.now()}${i}/v1`, model: 'good:spiral' });
    const total = await timeTrial(page);
    const calls = await page.$$eval('[data-testid="transcript-step"][data-role="assistant"]', (els) => els.length);
    wall.push(total / calls);
    const lat = await page.$$eval('[data-testid="transcript-step"][data-role="assistant"] .step-head', (els) =>
      els.map((e) => Number((/(\d+) ms/.exec(e.textContent) || [0, NaN])[1])).filter((x) => !Number.isNaN(x)),
    );
    perCall.push(...lat);
  }
  console.log(`endpoint call as the client measured it (request to parsed reply, localhost mock): median ${median(perCall)} ms over ${perCall.length} calls`);
  console.log(`whole trial against the localhost mock, per call (click to rendered verdicts / calls): median ${median(wall).toFixed(1)} ms`);
} finally {
  await browser.close();
}

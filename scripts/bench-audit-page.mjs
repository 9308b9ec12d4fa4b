// The results page's audit of a large folder of the original runs, in headless Chromium
// against the release build (a measurement, not a budget: issue 11's budget is native).
// Write the folder with `cargo run --profile bench-native --example bench_audit 15000 --keep`
// (it prints where), serve dist/ (`node scripts/serve-dist.mjs PORT dist`), then:
//   BASE_URL=http://127.0.0.1:PORT node scripts/bench-audit-page.mjs FOLDER
// Prints the time to read the chosen folder's files into the page, and to audit and draw.
import { withPage, BASE } from '../tests/e2e/helpers.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/bench-audit-page.mjs FOLDER (see the comment at the top)');
  process.exit(2);
}
await withPage(async (page) => {
  await page.goto(`${BASE}/results`);
  await page.waitForSelector('[data-testid="results-import-folder"]');
  const t0 = Date.now();
  await page.setInputFiles('[data-testid="results-import-folder"]', dir);
  const reading = () => /Reading and scoring/.test(document.querySelector('[data-testid="results-message"]')?.textContent ?? '');
  await page.waitForFunction(reading, null, { timeout: 600000 });
  const t1 = Date.now();
  await page.waitForSelector('[data-testid="audit"]', { timeout: 600000 });
  const t2 = Date.now();
  const groups = await page.locator('[data-testid="table-audit-rates"] tbody tr').count();
  console.log(`files read into the page: ${(t1 - t0) / 1000} s; audited and drawn: ${(t2 - t1) / 1000} s (${groups} groups)`);
});

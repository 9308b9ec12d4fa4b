// End-to-end tests of how /results reads (issue 34): after two small experiments the page
// opens on an overview that fits the first screen at 1280 x 800 (and starts on it at 1280 x 720
// and on a phone); the contents list
// (`results-nav`) lists every part present and stays in view; each entry opens its part by
// click, by address (`/results#generation`) and on back; long tables fold their rows
// behind "show all" while their CSV keeps them; the report file carries the same overview
// and contents as in-page links, and prints every row without the list. Screenshots at
// desktop and phone width land in target/e2e-screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, withPage, runOracle, accessible } from './helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);

/** Waits until the element `id` is in view: its top at the top of the window (below a
 * sticky menu), or, when the page cannot scroll that far, anywhere on screen. */
async function inView(page, id) {
  await page.waitForFunction((id) => {
    const el = document.getElementById(id);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const atBottom = scrollY + innerHeight >= document.documentElement.scrollHeight - 2;
    return r.top < innerHeight && r.bottom > 0 && ((r.top > -2 && r.top < 80) || atBottom);
  }, id);
}

/** The ids of the parts the page shows, in order, and those the contents list links to. */
async function partsAndLinks(page) {
  const parts = await page.locator('.report section.part').evaluateAll((ss) => ss.map((s) => s.id));
  const links = await page.locator('[data-testid="results-nav"] a').evaluateAll((as) =>
    as.map((a) => ({ part: a.dataset.part, href: a.getAttribute('href') })));
  return { parts, links };
}

test('the results open on an overview, and the contents open every part by click, by address and on back', async () => {
  await withPage(async (page) => {
    const a = `overview one ${rand()}`, b = `overview two ${rand()}`;
    await runOracle(page, a, 1);
    await runOracle(page, b, 1);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${BASE}/results`);
    const overview = page.locator('[data-testid="results-overview"]');
    await page.waitForFunction(() => /(?<!\d)24 trials from/.test(document.querySelector('[data-testid="results-overview"]')?.textContent ?? ''));
    // The overview: the counts in a line, every model's phases with intervals, four chips.
    // The two experiments played the same six mazes (one per shape), each in both encodings.
    assert.match(await overview.textContent(), /24 trials from .*; 0 with an API error .*; 6 mazes\./);
    // The chart's row names (bold 16 px, as its title, which is left out).
    const rows = (await overview.locator('[data-testid="chart-overview"] text[font-size="16"]').allTextContents())
      .filter((t) => !/intervals/.test(t));
    assert.deepEqual(rows.sort(), [`${a}: oracle`, `${b}: oracle`].sort(), 'a row per model');
    for (const h of ['H1', 'H2', 'H3', 'H4']) {
      const chip = overview.locator(`[data-testid="chip-${h}"]`);
      assert.ok(['supported', 'not_supported', 'insufficient'].includes(await chip.getAttribute('data-verdict')), h);
      assert.match(await chip.getAttribute('href'), new RegExp(`/results#hypothesis-${h}$`));
    }
    // It fits the first screen.
    assert.equal(await page.evaluate(() => scrollY), 0);
    const box = await overview.boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 800, `the overview spans ${box.y}..${box.y + box.height} of 800`);
    await page.screenshot({ path: `${SHOTS}/results-overview-desktop.png` });
    await accessible(page, '/results, two experiments (desktop)');
    // At 1280 x 720 too the page opens on it: the actions are one toolbar row above it,
    // not two rows and a filter pushing it below the fold (issue 54: its top was at 504).
    await page.setViewportSize({ width: 1280, height: 720 });
    const short = await overview.boundingBox();
    assert.ok(short.y + 240 <= 720, `the overview starts at ${short.y} of 720: its first 240 px in view`);
    const bar = await page.locator('.results-bar').boundingBox();
    assert.ok(bar.height < 60, `the page's actions are one row (${bar.height} px high)`);
    await page.screenshot({ path: `${SHOTS}/results-overview-1280x720.png` });
    await page.click('[data-testid="results-options"] summary');
    assert.ok(await page.locator('[data-testid="model-order"]').isVisible(), 'the options open under their button');
    const after = await overview.boundingBox();
    assert.equal(after.y, short.y, 'the open options cover the page, they do not push it down');
    await page.screenshot({ path: `${SHOTS}/results-options-open.png` });
    await page.click('[data-testid="results-options"] summary');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The contents: one link per part present, in the page's order, each an address.
    const { parts, links } = await partsAndLinks(page);
    assert.deepEqual(links.map((l) => l.part), parts, 'the contents list the parts shown, in order');
    for (const want of ['overview', 'hypotheses', 'rates', 'solving', 'recognition', 'generation', 'shapes', 'compare', 'trials'])
      assert.ok(parts.includes(want), `${want} is present: ${parts.join(', ')}`);
    for (const l of links) assert.match(l.href, new RegExp(`/results#${l.part}$`));
    // Each opens its part; the list stays in view.
    const nav = page.locator('[data-testid="results-nav"]');
    for (const { part } of links) {
      await nav.locator(`a[data-part="${part}"]`).click();
      await inView(page, part);
      assert.equal(new URL(page.url()).hash, `#${part}`);
      const n = await nav.boundingBox();
      assert.ok(n.y >= 0 && n.y < 800, `the contents stay in view at ${part} (top ${n.y})`);
    }
    await page.locator('#generation').evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/results-nav-desktop.png` });
    // A chip opens its hypothesis.
    await page.locator('#overview').evaluate((el) => el.scrollIntoView());
    await overview.locator('[data-testid="chip-H2"]').click();
    await inView(page, 'hypothesis-H2');
    // Back: the part before.
    await page.goBack();
    await page.waitForFunction((id) => location.hash === `#${id}`, links.at(-1).part);
    await inView(page, links.at(-1).part);
    await page.goBack();
    await inView(page, links.at(-2).part);
    await page.goForward();
    await inView(page, links.at(-1).part);

    // A long table shows its first rows; "show all" the rest; its CSV has every row.
    const groups = page.locator('[data-testid="table-groups"]');
    assert.equal(await groups.locator('tbody tr').count(), 24);
    assert.equal(await groups.locator('tbody tr:visible').count(), 10, 'the first ten rows');
    const showAll = page.locator('[data-testid="results-trials"] .show-all input');
    await showAll.check();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="table-groups"] tbody tr')].every((r) => r.offsetParent !== null));
    await showAll.uncheck();
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="table-csv"][data-target="table-groups"]')]);
    const fs = await import('node:fs');
    assert.equal(fs.readFileSync(await dl.path(), 'utf8').trim().split('\n').length, 1 + 24, 'the CSV keeps every row');

    // An address opens its part on load.
    await page.goto(`${BASE}/results#generation`);
    await page.waitForSelector('#generation');
    await inView(page, 'generation');
    assert.ok(await page.evaluate(() => scrollY > 0), 'the page scrolled to the part');

    // The report file: the same overview and contents, as in-page links with their targets.
    const [report] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download-report"]')]);
    const html = fs.readFileSync(await report.path(), 'utf8');
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    const hrefs = [...html.matchAll(/ href="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(hrefs.length >= parts.length - 1 + 4, `links: ${hrefs.join(' ')}`);
    for (const h of hrefs) assert.ok(h.startsWith('#') && ids.has(h.slice(1)), `${h} has its target in the file`);
    assert.match(html, /data-testid="results-overview"/);
    assert.doesNotMatch(html, /<script/);
    // Opened and printed: no contents list, every row of every table.
    await page.setContent(html);
    assert.ok(await page.locator('[data-testid="results-nav"] a[href="#generation"]').isVisible());
    assert.equal(await page.locator('[data-testid="table-groups"] tbody tr:visible').count(), 10);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('[data-testid="results-nav"]').isVisible(), false, 'no contents in print');
    assert.equal(await page.locator('[data-testid="table-groups"] tbody tr:visible').count(), 24, 'every row in print');
    await page.emulateMedia({ media: 'screen' });

    // A phone: the overview reads, the contents are a folded menu that opens a part.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE}/results`);
    await page.waitForFunction(() => /(?<!\d)24 trials from/.test(document.querySelector('[data-testid="results-overview"]')?.textContent ?? ''));
    const menu = page.locator('[data-testid="results-nav"] details');
    assert.equal(await menu.getAttribute('open'), null, 'folded on a phone');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing wider than the phone (${width} px)`);
    const top = (await overview.boundingBox()).y;
    assert.ok(top + 160 <= 844, `the overview starts on the phone's first screen (at ${top} of 844)`);
    await page.screenshot({ path: `${SHOTS}/results-first-screen-phone.png` });
    // At the top, where the sticky menu covers nothing.
    await accessible(page, '/results, two experiments (phone)');
    await page.locator('#overview').evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/results-overview-phone.png` });
    await menu.locator('summary').click();
    await page.screenshot({ path: `${SHOTS}/results-nav-phone.png` });
    await menu.locator('a[data-part="generation"]').click();
    await inView(page, 'generation');
    assert.equal(await menu.getAttribute('open'), null, 'the menu folds once a part is chosen');
    const folded = await page.locator('[data-testid="results-nav"]').boundingBox();
    assert.ok(folded.y >= 0 && folded.y < 60, `the menu stays at the top (${folded.y})`);
    await page.screenshot({ path: `${SHOTS}/results-generation-phone.png` });
  });
});

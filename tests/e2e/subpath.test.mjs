// End-to-end test of the open static site: the release build for /shapemaze/
// (`make build-subpath`, as `PUBLIC_URL=/shapemaze/ make build-release` builds dist/) served
// by a host that behaves like GitHub Pages (scripts/serve-dist.mjs with a base: files under
// the base only, 404.html with status 404 for every unknown path). Every page opens from a
// deep link, every request stays under the sub-path, links and the service worker too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, withPage, demoOffline } from './helpers.mjs';

const PAGES = process.env.PAGES_URL ?? 'http://127.0.0.1:8093/shapemaze';
const base = new URL(`${PAGES}/`).pathname; // '/shapemaze/'

// Each page's deep link and what shows that it is that page.
const deepLinks = [
  ['/', 'main [data-testid="home-doors"]'],
  ['/play?shape=Z&seed=3', '[data-testid="maze"] [data-testid="cell-0-0"]'],
  ['/demo?trial=oracle-spiral', '[data-testid="replay-position"]'],
  ['/model', '[data-testid="agent"]'],
  ['/experiment', '[data-testid="design-name"]'],
  ['/results', '[data-testid="results-import"]'],
  ['/study?study=pilot', '[data-testid="consent-accept"]'],
  ['/study/manage', '[data-testid="study-json"]'],
];

// The host answers deep links with 404.html and status 404, which Chromium logs.
const hostNoise = /status of 404/;

test('every page opens from a deep link on a sub-path static host, and nothing leaves the sub-path', async () => {
  await withPage(async (page) => {
    const outside = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.origin === new URL(PAGES).origin && !u.pathname.startsWith(base)) outside.push(u.pathname);
    });
    for (const [path, ready] of deepLinks) {
      const res = await page.goto(`${PAGES}${path}`);
      assert.ok([200, 404].includes(res.status()), `${path}: ${res.status()}`);
      await page.waitForSelector(ready, { timeout: 15000 });
      assert.doesNotMatch(await page.innerText('main'), /No page here/, `${path} shows its page`);
      // Every in-app link points under the sub-path.
      const hrefs = await page.$$eval('header a, main a[href^="/"]', (as) => as.map((a) => a.getAttribute('href')));
      for (const h of hrefs) assert.ok(h.startsWith(base), `${path}: link ${h} is outside ${base}`);
      const slug = path === '/' ? 'home' : path.slice(1).replace(/[/?&=]/g, '-');
      await page.screenshot({ path: `${SHOTS}/subpath-${slug}.png` });
    }
    assert.deepEqual(outside, [], 'every request the pages made stayed under the sub-path');
  }, hostNoise);
});

test('on the sub-path the navigation moves between pages, a study link is shared under it, and the app works offline', async () => {
  await withPage(async (page) => {
    await page.goto(`${PAGES}/`);
    await page.waitForSelector('[data-testid="home-doors"]');
    await page.click('[data-testid="nav"] >> text=Results');
    await page.waitForSelector('[data-testid="results-import"]');
    assert.equal(new URL(page.url()).pathname, `${base}results/`);
    await page.goBack();
    await page.waitForSelector('[data-testid="home-doors"]');
    assert.equal(new URL(page.url()).pathname, base);

    await page.goto(`${PAGES}/study/manage`);
    await page.waitForSelector('[data-testid="study-link"]');
    const link = await page.getAttribute('[data-testid="study-link"]', 'href');
    assert.ok(link.startsWith(`${PAGES}/study?config=`), `the participants' link is under the sub-path: ${link}`);

    // The service worker's scope is the sub-path; after a visit, a deep link loads offline.
    const scope = await demoOffline(page, PAGES, `${SHOTS}/subpath-offline.png`);
    assert.equal(new URL(scope).pathname, base);
  }, hostNoise);
});

test('an address on the sub-path that names no page says so and leads home', async () => {
  await withPage(async (page) => {
    const res = await page.goto(`${PAGES}/no/such/page`);
    assert.equal(res.status(), 404);
    await page.waitForSelector('text=No page here');
    await page.click('text=Go to the home page');
    await page.waitForSelector('[data-testid="home-doors"]');
    assert.equal(new URL(page.url()).pathname, base);
  }, hostNoise);
});

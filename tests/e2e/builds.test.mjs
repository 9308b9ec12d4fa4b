// End-to-end tests of the site's two builds (scripts/site.sh): the people's pages (the front
// door, /play, /demo, /study) load the people's wasm and never the lab's, the lab's pages
// (/model, /experiment, /results, /study/manage) the lab's; links between them are plain page
// loads both ways; a host that answers every address with the front door's index.html still
// shows each page; and offline, each address gets its own build's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE, SHOTS, withPage } from './helpers.mjs';

const PAGES = process.env.PAGES_URL ?? 'http://127.0.0.1:8093/shapemaze';

const people = [
  ['/', 'main [data-testid="home-doors"]'],
  ['/play?shape=Z&seed=3', '[data-testid="maze"] [data-testid="cell-0-0"]'],
  ['/demo?trial=oracle-spiral', '[data-testid="replay-position"]'],
  ['/study?study=pilot', '[data-testid="consent-accept"]'],
];
const lab = [
  ['/model', '[data-testid="agent"]'],
  ['/experiment', '[data-testid="design-name"]'],
  ['/results#generation', '[data-testid="results-import"]'],
  ['/study/manage', '[data-testid="study-json"]'],
];

/** The build each wasm the page fetched belongs to ('people' or 'web'). */
function wasmBuilds(page) {
  const seen = new Set();
  page.on('request', (r) => {
    const m = /shapemaze-(people|web)-[0-9a-f]+_bg\.wasm$/.exec(new URL(r.url()).pathname);
    if (m) seen.add(m[1]);
  });
  return seen;
}

for (const [site, url] of [
  ['the root', BASE],
  ['a sub-path host in the style of GitHub Pages', PAGES],
]) {
  test(`on ${site} each page loads its own build's wasm, deep links included`, async () => {
    await withPage(async (page) => {
      for (const [pages, build] of [
        [people, 'people'],
        [lab, 'web'],
      ]) {
        for (const [path, ready] of pages) {
          const context = page.context();
          const tab = await context.newPage();
          const builds = wasmBuilds(tab);
          await tab.goto(`${url}${path}`);
          await tab.waitForSelector(ready, { timeout: 20000 });
          assert.deepEqual([...builds], [build], `${path} loaded the ${[...builds].join(' and ')} wasm`);
          assert.doesNotMatch(await tab.innerText('main'), /No page here/, `${path} shows its page`);
          await tab.close();
        }
      }
    }, /status of 404/);
  });
}

test('links between the builds are plain page loads, both ways, and each marks its page', async () => {
  await withPage(async (page) => {
    await page.goto(`${PAGES}/play`);
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    assert.equal(await page.getAttribute('[data-testid="nav"] >> text=Results', 'href'), '/shapemaze/results/');
    await page.click('[data-testid="nav"] >> text=Results');
    await page.waitForSelector('[data-testid="results-import"]');
    assert.equal(new URL(page.url()).pathname, '/shapemaze/results/');
    assert.equal(await page.getAttribute('[data-testid="nav"] >> text=Results', 'aria-current'), 'page');
    // Within the lab, a page changes without a load.
    await page.evaluate(() => (window.__stayed = true));
    await page.click('[data-testid="nav"] >> text=Studies');
    await page.waitForSelector('[data-testid="study-json"]');
    assert.equal(await page.evaluate(() => window.__stayed), true, 'a lab page opened from the lab in place');
    await page.click('[data-testid="nav"] >> text=Demo');
    await page.waitForSelector('[data-testid="demo-trial"]');
    assert.equal(await page.evaluate(() => window.__stayed), undefined, 'the people\'s page was loaded');
    await page.goBack();
    await page.waitForSelector('[data-testid="study-json"]');
  }, /status of 404/);
});

test('a host that answers every address with index.html still shows the lab\'s pages', async () => {
  // The front door's index.html for every address that is not a file: the people's build opens
  // at a lab address and loads that page's own file.
  const dist = process.env.DIST ?? 'dist';
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    let file = join(dist, path);
    try {
      if (!(await stat(file)).isFile()) file = join(dist, 'index.html');
    } catch {
      file = join(dist, 'index.html');
    }
    const type = file.endsWith('.wasm') ? 'application/wasm' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.json') ? 'application/json' : 'text/html';
    res.writeHead(200, { 'content-type': type }).end(await readFile(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    await withPage(async (page) => {
      await page.goto(`${url}/results?x=1#review`);
      await page.waitForSelector('[data-testid="results-import"]', { timeout: 20000 });
      const now = new URL(page.url());
      assert.equal(now.pathname, '/results/index.html');
      assert.equal(now.search, '?x=1');
      assert.equal(now.hash, '#review');
      await page.screenshot({ path: `${SHOTS}/builds-other-host.png` });
    });
  } finally {
    server.close();
  }
});

test('offline, each address gets its own build\'s page', async () => {
  await withPage(async (page) => {
    await page.goto(`${BASE}/demo?trial=random-square`);
    await page.waitForSelector('[data-testid="replay-position"]');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 10000 });
    // A first visit to a lab page caches its wasm.
    await page.goto(`${BASE}/results`);
    await page.waitForSelector('[data-testid="results-import"]');
    await page.context().setOffline(true);
    try {
      await page.goto(`${BASE}/study/manage`);
      await page.waitForSelector('[data-testid="study-json"]', { timeout: 10000 });
      await page.goto(`${BASE}/demo?trial=random-square`);
      await page.waitForSelector('[data-testid="replay-position"]', { timeout: 10000 });
      await page.goto(`${BASE}/results`);
      await page.waitForSelector('[data-testid="results-import"]', { timeout: 10000 });
    } finally {
      await page.context().setOffline(false);
    }
  }, /Failed to load resource|ERR_INTERNET_DISCONNECTED/);
});

// End-to-end tests of the front door: the home page offers each kind of visitor their way
// in, before the wasm has arrived as well as after (shell/home.html is both), and the
// navigation holds every page of both builds (the people's and the lab's: a link to the other
// build's page names its folder, `/results/`, as static hosts redirect to it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, accessible, withPage } from './helpers.mjs';

/** A page's path without the folder's last slash (`/results/` is `/results`). */
const pageOf = (path) => path.replace(/(.)\/$/, '$1');

test('the home page has a door for researchers, participants and presenters, each leading to its pages', async () => {
  await withPage(async (page) => {
    await page.goto(`${BASE}/`);
    // The app's front door (in <main>), not the static page's.
    await page.waitForSelector('main [data-testid="home-doors"]');
    assert.equal(await page.locator('[data-testid="home"]').count(), 1, 'one front door once the app is there');
    const links = (door) =>
      page.$$eval(`[data-testid="door-${door}"] a`, (as) => as.map((a) => new URL(a.href).pathname)).then((ps) => ps.map(pageOf));
    const researcher = await links('researcher');
    for (const p of ['/model', '/experiment', '/results', '/study/manage']) {
      assert.ok(researcher.includes(p), `the researcher's door links ${p}: ${researcher}`);
    }
    assert.deepEqual(await links('participant'), ['/play']);
    assert.deepEqual(await links('presenter'), ['/demo']);
    await page.screenshot({ path: `${SHOTS}/home.png`, fullPage: true });
    // The researcher's way to run an experiment opens the experiment page.
    await page.click('[data-testid="door-researcher"] >> text=run an experiment');
    await page.waitForSelector('[data-testid="design-name"]');
  });
});

test('the navigation holds every page, and each opens in its build', async () => {
  await withPage(async (page) => {
    await page.goto(`${BASE}/`);
    // The app draws the navigation once it has loaded: wait for it, not for a time.
    await page.waitForSelector('[data-testid="nav"] a');
    const nav = await page.$$eval('[data-testid="nav"] a', (as) => as.map((a) => [a.textContent, new URL(a.href).pathname]));
    // From the front door (the people's build), the lab's pages are folders.
    assert.deepEqual(nav, [
      ['Play', '/play'],
      ['Demo', '/demo'],
      ['Model', '/model/'],
      ['Experiments', '/experiment/'],
      ['Results', '/results/'],
      ['Studies', '/study/manage/'],
    ]);
    const ready = {
      '/play': '[data-testid="maze"] [data-testid="cell-0-0"]',
      '/demo': '[data-testid="replay-position"]',
      '/model': '[data-testid="agent"]',
      '/experiment': '[data-testid="design-name"]',
      '/results': '[data-testid="results-import"]',
      '/study/manage': '[data-testid="study-json"]',
    };
    for (const [name, href] of nav) {
      const path = pageOf(href);
      await page.click(`[data-testid="nav"] >> text=${name}`);
      await page.waitForSelector(ready[path]);
      assert.equal(pageOf(new URL(page.url()).pathname), path);
      assert.equal(await page.getAttribute(`[data-testid="nav"] >> text=${name}`, 'aria-current'), 'page');
    }
  });
});

test('the front door is there and its links work before the wasm arrives', async () => {
  await withPage(async (page) => {
    // The wasm never arrives (nor the service worker, which would fetch it on its own):
    // what shows is the static page alone.
    await page.context().route(/(_bg\.wasm|sw\.js)$/, (route) => route.abort());
    // Other pages never show the front door in their first screen, only their loading line.
    await page.goto(`${BASE}/play`);
    await page.waitForSelector('#shell-line');
    assert.equal(await page.locator('[data-testid="home"]').count(), 0);
    await page.goto(`${BASE}/`);
    await page.waitForSelector('[data-testid="home-doors"] a');
    assert.equal(await page.locator('main').count(), 0, 'the app has not mounted');
    const links = await page.$$eval('[data-testid="home"] a', (as) => as.map((a) => new URL(a.href).pathname));
    assert.deepEqual(links, ['/play', '/model/', '/experiment/', '/results/', '/results/', '/study/manage/', '/play', '/demo']);
    assert.equal(await page.isVisible('#shell-line'), false, 'no loading line under the front door');
    await page.screenshot({ path: `${SHOTS}/home-static.png`, fullPage: true });
    await accessible(page, 'the front door before the wasm');
    await page.click('text=Play a trial');
    await page.waitForURL((u) => u.pathname === '/play');
    assert.equal(await page.locator('[data-testid="home"]').count(), 0);
  }, /Failed to load resource|Failed to fetch|fetching the script/);
});

test("in the app, the front door's links to the people's pages change the page in place, the lab's load it", async () => {
  await withPage(async (page) => {
    await page.goto(`${BASE}/`);
    await page.waitForSelector('main [data-testid="home-doors"]');
    await page.evaluate(() => (window.__stayed = true));
    await page.click('[data-testid="door-presenter"] >> text=open the demo');
    await page.waitForSelector('[data-testid="demo-trial"]');
    assert.equal(new URL(page.url()).pathname, '/demo');
    assert.equal(await page.evaluate(() => window.__stayed), true, 'the demo opened in place');
    await page.goBack();
    await page.waitForSelector('main [data-testid="home-doors"]');
    await page.click('text=Play a trial');
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    assert.equal(await page.evaluate(() => window.__stayed), true, '/play opened in place');
    await page.goBack();
    await page.click('[data-testid="door-researcher"] >> text=set up a study');
    await page.waitForSelector('[data-testid="study-json"]');
    assert.equal(new URL(page.url()).pathname, '/study/manage/');
    assert.equal(await page.evaluate(() => window.__stayed), undefined, 'the lab page was loaded');
  });
});

test('a keyboard user keeps their place when the app takes over the static front door', async () => {
  await withPage(async (page) => {
    // The wasm waits until a link of the static page has the focus.
    let release;
    const focused = new Promise((r) => (release = r));
    await page.context().route(/_bg\.wasm$/, async (route) => {
      await focused;
      await route.continue();
    });
    await page.goto(`${BASE}/`);
    await page.waitForSelector('[data-testid="home-doors"] a');
    await page.focus('[data-testid="door-researcher"] >> text=run an experiment');
    release();
    await page.waitForSelector('main [data-testid="home-doors"]');
    const active = await page.evaluate(() => [document.activeElement.textContent, Boolean(document.activeElement.closest('main'))]);
    assert.deepEqual(active, ['run an experiment', true]);
  });
});

test("before the wasm arrives, /play and /demo show their heading, what they are about to show and the download's bytes, and /play names no shape", async () => {
  for (const [path, heading, about, ready] of [
    ['/play', 'Play', /solve a maze.*name the shape.*draw a maze/i, '[data-testid="maze"] [data-testid="cell-0-0"]'],
    ['/demo', 'Demo', /recorded trial, replayed step by step/i, '[data-testid="demo-trial"]'],
  ]) {
    // A browser of its own for each page (nothing cached, no service worker yet).
    await withPage(async (page) => {
      // A slow link, so that the download takes longer than the second after which the
      // loading line counts it.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 120 * 1024, uploadThroughput: -1 });
      await page.goto(`${BASE}${path}`, { waitUntil: 'commit' });
      await page.waitForSelector('#shell-about:not([hidden])');
      assert.equal(await page.textContent('#shell-title'), heading, `${path}: the static heading`);
      assert.match(await page.textContent('#shell-about'), about, `${path}: what the page is about to show`);
      // The loading line counts the bytes received of the wasm's size.
      await page.waitForFunction(() => /^Downloading Shapemaze: [\d,]+ KB of [\d,]+ KB…$/.test(document.getElementById('shell-line')?.textContent ?? ''));
      const [got, of] = (await page.textContent('#shell-line')).match(/[\d,]+/g).map((n) => Number(n.replace(/,/g, '')));
      assert.ok(got < of, `${path}: part of the download counted (${got} of ${of} KB)`);
      if (path === '/play') {
        await page.screenshot({ path: `${SHOTS}/play-first-screen.png` });
        const shown = await page.textContent('#shell');
        assert.doesNotMatch(shown, /\b(square|cross|spiral|triangle|C|Z|U|N)\b/i, `the first screen of /play names no shape: ${shown}`);
      }
      // The app takes over from the first screen.
      await page.waitForSelector(ready, { timeout: 60000 });
      assert.equal(await page.locator('#shell').count(), 0, `${path}: the first screen is gone once the app is there`);
    });
  }
});

// End-to-end tests of the front door: the home page offers each kind of visitor their way
// in, and the navigation holds every page of both builds (the people's and the lab's: a link
// to the other build's page names its folder, `/results/`, as static hosts redirect to it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, withPage } from './helpers.mjs';

/** A page's path without the folder's last slash (`/results/` is `/results`). */
const pageOf = (path) => path.replace(/(.)\/$/, '$1');

test('the home page has a door for researchers, participants and presenters, each leading to its pages', async () => {
  await withPage(async (page) => {
    await page.goto(`${BASE}/`);
    await page.waitForSelector('[data-testid="home-doors"]');
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

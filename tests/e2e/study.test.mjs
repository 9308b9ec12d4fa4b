// End-to-end tests of /study and /study/manage: a Prolific participant consents, practises
// and plays, reloads mid-trial and resumes where they were, and gets the completion code
// only once the data is uploaded (each trial as it ends; the upload target, the scripted
// server's `/{scenario}/upload`, refuses twice first); a participant who goes offline
// mid-study is told what waits and gets the code once `shapemaze serve` holds every
// trial; declining keeps nothing; two tabs are two participants; a bad link gets a clear
// page; the experimenter exports the events as CSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SHOTS, MOCK_URL, withPage, readMaze, shortestPath, clickCell, draw, verdict, launch, find, wallBeside, phase } from './helpers.mjs';

const rand = () => Math.random().toString(36).slice(2, 10);
// The upload's deliberate 500s are logged by the browser.
const UPLOAD_NOISE = /Failed to load resource|status of 500/i;

function studyLink(study, params = '') {
  const config = Buffer.from(JSON.stringify(study)).toString('base64url');
  return `${BASE}/study?config=${config}${params}`;
}

function study(uploadScenario) {
  return {
    title: 'Shape mazes (test)',
    trials: [
      { shape: 'square', size: 5, encoding: 'matrix', seed: 1, sample: 0 },
      { shape: 'cross', size: 5, encoding: 'matrix', seed: 1, sample: 0 },
    ],
    practice: { shape: 'C', size: 5, encoding: 'matrix', seed: 5, sample: 0 },
    condition: 'grid',
    recognition: 'choice',
    counterbalance: true,
    completion: { code: 'TEST-CODE' },
    ...(uploadScenario ? { upload: { kind: 'json', url: `${MOCK_URL}/${uploadScenario}/upload` } } : {}),
  };
}

/** What the scripted upload target acknowledged for `scenario`, as a server keeping one
 * copy per trial would hold it: the last copy of each (attempt, trial), in order; the
 * outcome; and every upload's status in order. */
async function received(scenario) {
  const log = await (await fetch(`${MOCK_URL}/log`)).json();
  const posts = log.filter((e) => e.scenario === scenario && e.method === 'POST');
  const held = new Map();
  let outcome = null;
  for (const e of posts.filter((p) => p.status === 200)) {
    for (const t of e.body.trials ?? []) held.set(`${t.attempt}/${t.trial_index}`, t);
    if (e.body.outcome) outcome = e.body.outcome;
  }
  const trials = [...held.values()].sort((a, b) => a.attempt - b.attempt || a.trial_index - b.trial_index);
  return { trials, outcome, statuses: posts.map((p) => p.status), posts };
}

/** Starts `shapemaze serve` on a free port with a fresh database and the export token
 * `lab`; returns its origin, a reader of its exports, and a stop. */
async function startServe() {
  const { spawn } = await import('node:child_process');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const bin = process.env.SHAPEMAZE_BIN ?? 'target/debug/shapemaze';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shapemaze-study-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(bin, ['serve', '--dist', 'dist', '--addr', `127.0.0.1:${port}`, '--db', path.join(dir, 'db.sqlite')], {
    stdio: 'ignore',
    env: { ...process.env, SHAPEMAZE_EXPORT_TOKEN: 'lab' },
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`${origin}/healthz`)).ok) break; } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  const read = async (route) => (await fetch(`${origin}${route}`, { headers: { authorization: 'Bearer lab' } })).text();
  return { origin, read, stop: () => server.kill('SIGTERM') };
}

/** Plays the trial on the page to its end from where the player stands (after a reload,
 * where it was): the shortest path, the right shape, the maze drawn with P and G swapped. */
async function playTrial(page) {
  await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
  const maze = await readMaze(page);
  for (const cell of shortestPath(maze)) await clickCell(page, cell);
  assert.equal((await verdict(page, 'solve')).outcome, 'success');
  await page.click(`[data-testid="shape-choice-${maze.shape}"]`);
  assert.equal((await verdict(page, 'recognize')).outcome, 'success');
  await draw(page, maze.cells.map((row) => row.map((k) => (k === 'player' ? 'goal' : k === 'goal' ? 'player' : k))));
  await page.click('[data-testid="submit-generation"]');
  assert.equal((await verdict(page, 'generate')).outcome, 'success');
}

test('a Prolific participant practises, reloads mid-trial, resumes, and is given the code once the upload succeeds', async () => {
  await withPage(async (page) => {
    const scenario = `500-x2-u${rand()}`;
    const pid = `p${rand()}`;
    await page.goto(studyLink(study(scenario), `&PROLIFIC_PID=${pid}&STUDY_ID=s1&SESSION_ID=x1`));
    // The participant sees the study alone: its title on the tab, no way into the lab.
    await page.waitForSelector('[data-testid="consent-accept"]');
    assert.equal(await page.title(), 'Shape mazes (test)');
    assert.equal(await page.locator('[data-testid="nav"]').count(), 0, 'no site navigation');
    assert.equal(await page.locator('a[href]').count(), 0, 'no link to another page');
    await page.click('[data-testid="consent-accept"]');
    await page.click('[data-testid="study-next"]');
    await page.waitForSelector('[data-testid="practice-note"]');
    await playTrial(page);
    await page.click('[data-testid="study-next"]');
    // First scored maze: one move, then a reload.
    await page.waitForSelector('[data-testid="study-progress"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="practice-note"]'));
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    const maze = await readMaze(page);
    await clickCell(page, shortestPath(maze)[0]);
    assert.equal(await page.innerText('[data-testid="moves"]'), '1');
    await page.waitForTimeout(300);
    // Leaving mid-trial asks first; staying is the default, leaving resumes on return.
    let asked = null;
    page.once('dialog', (d) => { asked = d.type(); d.accept(); });
    await page.reload();
    assert.equal(asked, 'beforeunload', 'leaving mid-trial asks first');
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="moves"]')?.innerText === '1');
    await page.screenshot({ path: `${SHOTS}/study-resumed.png`, fullPage: true });
    await playTrial(page);
    await page.click('[data-testid="study-next"]');
    await page.waitForFunction(() => /1 of 2/.test(document.querySelector('[data-testid="study-progress"]')?.textContent ?? ''));
    await playTrial(page);
    await page.click('[data-testid="study-next"]');
    // The first two uploads fail, then they go through; the code shows once all is there.
    await page.waitForSelector('[data-testid="study-complete"]');
    await page.waitForSelector('[data-testid="study-complete"][data-saved="true"]', { timeout: 20000 });
    assert.equal(await page.innerText('[data-testid="completion-code"]'), 'TEST-CODE');
    await page.screenshot({ path: `${SHOTS}/study-complete.png`, fullPage: true });
    // Each trial went as it ended (the first two tries refused), the outcome last.
    const { trials, outcome, statuses, posts } = await received(scenario);
    assert.deepEqual(statuses.slice(0, 3), [500, 500, 200], `${statuses}`);
    assert.ok(posts.every((p) => (p.body.trials ?? []).length <= 1), 'one trial an upload');
    assert.equal(posts.at(-1).body.outcome?.code, 'TEST-CODE', 'the outcome goes last, with the code given');
    assert.deepEqual(outcome.played, [-1, 0, 1]);
    const body = { trials };
    const text = JSON.stringify(body);
    assert.ok(text.includes('"s1"') && text.includes('"x1"'), 'STUDY_ID and SESSION_ID are recorded');
    const scored = body.trials.filter((t) => !t.practice);
    assert.equal(scored.length, 2, 'two scored trials uploaded');
    for (const t of body.trials) {
      assert.equal(t.participant.id, pid, 'every trial is the participant\'s');
      // What they consented to, and when, travels with every trial.
      assert.match(t.consent.text_hash, /^[0-9a-f]{16}$/);
      assert.ok(t.consent.at_ms > 1.7e12, `consent time ${t.consent.at_ms}`);
      // Every action exactly once, across the reload too: one logged move per move made.
      const moves = t.log.actions.filter((a) => a.kind === 'move').length;
      assert.equal(moves, t.record.moves, `trial ${t.trial_index}: ${moves} logged moves for ${t.record.moves} made`);
      assert.ok(t.log.actions.every((a, i, all) => i === 0 || a.t_ms >= all[i - 1].t_ms), 'actions in time order');
    }
    const reloads = body.trials.map((t) => t.log.actions.filter((a) => a.kind === 'reload').length);
    assert.deepEqual(reloads.sort(), [0, 0, 1], 'the one reload is logged once, in the trial it cut');
    // The results page shows the people as a group beside the models.
    await page.goto(`${BASE}/results`);
    await page.waitForFunction(() => /people: Shape mazes \(test\)/.test(document.querySelector('[data-testid="sources"]')?.textContent ?? ''));
    await page.waitForFunction(() => /2 trials from/.test(document.querySelector('.report')?.textContent ?? ''));
    assert.match(await page.locator('[data-testid="table-groups"]').textContent(), /human/);
  }, UPLOAD_NOISE);
});

test('declining keeps nothing; two tabs are two participants', async () => {
  const { browser, page } = await launch();
  try {
    const link = studyLink(study());
    await page.goto(link);
    await page.click('[data-testid="consent-accept"]');
    await page.waitForSelector('[data-testid="study-next"]');
    // A second tab of the same browser starts its own participant at the consent page.
    const other = await page.context().newPage();
    await other.goto(link);
    await other.waitForSelector('[data-testid="consent-decline"]');
    await other.click('[data-testid="consent-decline"]');
    await other.waitForSelector('[data-testid="study-declined"]');
    // The first tab is where it was, after a reload too.
    await page.reload();
    await page.waitForSelector('[data-testid="study-next"]');
    assert.equal(await page.locator('[data-testid="consent-accept"]').count(), 0);
  } finally {
    await browser.close();
  }
});

test('a bad study link gets a clear page', async () => {
  await withPage(async (page) => {
    await page.goto(`${BASE}/study?study=no-such-study`);
    await page.waitForSelector('[data-testid="study-error"]');
    assert.match(await page.innerText('[data-testid="study-error"]'), /cannot start.*does not exist/);
    await page.goto(`${BASE}/study?config=not-base64!`);
    await page.waitForSelector('[data-testid="study-error"]');
    assert.match(await page.innerText('[data-testid="study-error"]'), /cannot start/);
    await page.screenshot({ path: `${SHOTS}/study-bad-link.png` });
  }, /Failed to load resource|404/i);
});

test('the experimenter builds a link and exports the events as CSV', async () => {
  await withPage(async (page) => {
    // Some data first: a participant consents and makes a move.
    const participant = `m${rand()}`;
    await page.goto(studyLink(study(), `&participant=${participant}`));
    await page.click('[data-testid="consent-accept"]');
    await page.click('[data-testid="study-next"]');
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    const maze = await readMaze(page);
    await clickCell(page, shortestPath(maze)[0]);
    // Something pasted into the page: a sign of help, flagged for the experimenter.
    await page.evaluate(() => window.dispatchEvent(new Event('paste')));
    await page.waitForTimeout(300);
    await page.goto(`${BASE}/study/manage`);
    await page.waitForSelector('[data-testid="study-link"]');
    await page.waitForSelector('[data-testid="table-study-signals"] tbody tr');
    const flagged = await page.locator('[data-testid="table-study-signals"] tbody tr', { hasText: participant }).first().locator('td').allTextContents();
    assert.equal(flagged[3], '1', `one paste: ${flagged}`);
    assert.match(flagged[7], /pasted/);
    assert.match(await page.inputValue('[data-testid="study-link"]').catch(() => page.innerText('[data-testid="study-link"]')), /\/study\?config=/);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="study-export-csv"]')]);
    const fs = await import('node:fs');
    const csv = fs.readFileSync(await dl.path(), 'utf8');
    const head = csv.split(/\r?\n/)[0];
    for (const col of ['trial_type', 'trial_index', 'time_elapsed', 'rt', 'consent_hash', 'pastes', 'tab_leaves', 'away_ms', 'answer_chars_per_s']) assert.ok(head.split(',').includes(col), `${col} in ${head}`);
    assert.ok(csv.split(/\r?\n/).filter(Boolean).length >= 3, 'a row per action');
    // The study's long link breaks: the page is never wider than the window.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1), 'no sideways scroll');
    await page.screenshot({ path: `${SHOTS}/study-manage.png`, fullPage: true });
  });
});

test('a study fits a phone: no sideways scrolling, cells big enough to tap', async () => {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/study?study=pilot&participant=phone${rand()}`);
    await page.tap('[data-testid="consent-accept"]');
    await page.tap('[data-testid="study-next"]');
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide on a 390 px screen`);
    const cell = await page.locator('[data-testid="cell-0-0"]').boundingBox();
    assert.ok(cell.width >= 40 && cell.height >= 40, `cells are ${cell.width} x ${cell.height} px`);
    const maze = await readMaze(page);
    const [first] = shortestPath(maze);
    await page.tap(`[data-testid="cell-${first[0]}-${first[1]}"]`);
    assert.equal(await page.innerText('[data-testid="moves"]'), '1');
    await page.screenshot({ path: `${SHOTS}/study-phone.png`, fullPage: true });
  } finally {
    await browser.close();
  }
});

test('restart keeps the first attempt; the data of both attempts is uploaded with what happened', async () => {
  await withPage(async (page) => {
    const scenario = `ok-u${rand()}`;
    const restart = {
      title: 'Restarting study', version: '3', resume: { policy: 'restart' }, recognition: 'choice',
      trials: [{ shape: 'square', seed: 1, sample: 0 }],
      completion: { code: 'AGAIN' },
      upload: { kind: 'json', url: `${MOCK_URL}/${scenario}/upload` },
    };
    const link = studyLink(restart, `&participant=r${rand()}`);
    await page.goto(link);
    await page.click('[data-testid="consent-accept"]');
    await page.click('[data-testid="study-next"]');
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    const maze = await readMaze(page);
    await clickCell(page, shortestPath(maze)[0]);
    await page.waitForTimeout(300);
    // A reload of the same tab is no return: the maze is where it was.
    page.once('dialog', (d) => d.accept());
    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-testid="moves"]')?.innerText === '1');
    // Coming back to the link later (another tab) restarts: consent again, from the start.
    const back = await page.context().newPage();
    await back.goto(link);
    await back.waitForSelector('[data-testid="consent-accept"]');
    await back.click('[data-testid="consent-accept"]');
    await back.click('[data-testid="study-next"]');
    await playTrial(back);
    await back.click('[data-testid="study-next"]');
    await back.waitForSelector('[data-testid="study-complete"][data-saved="true"]');
    assert.equal(await back.innerText('[data-testid="completion-code"]'), 'AGAIN');
    const body = await received(scenario);
    const attempts = body.trials.map((t) => [t.attempt, t.record.moves, Boolean(t.record.verdicts.generate)]);
    assert.deepEqual(attempts, [[0, 1, false], [1, body.trials[1].record.moves, true]], 'the first attempt is kept beside the second');
    const kinds = body.trials[1].session_events.map((e) => e.kind);
    assert.deepEqual(kinds, ['started', 'reloaded', 'restarted', 'started']);
    assert.equal(body.trials[1].consent.study_version, '3');
  });
});

test('a study whose time runs out ends as timed out, with its own code, and keeps the data', async () => {
  await withPage(async (page) => {
    const timed = {
      title: 'Timed study', time_limits: { study: 3 },
      trials: [{ shape: 'square', seed: 1, sample: 0 }],
      completion: { code: 'DONE' }, timed_out: { code: 'LATE' },
    };
    await page.goto(studyLink(timed, `&participant=t${rand()}`));
    await page.click('[data-testid="consent-accept"]');
    await page.click('[data-testid="study-next"]');
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    const maze = await readMaze(page);
    await clickCell(page, shortestPath(maze)[0]);
    await page.waitForSelector('[data-testid="study-complete"][data-outcome="timed_out"][data-saved="true"]', { timeout: 10000 });
    assert.equal(await page.innerText('[data-testid="completion-code"]'), 'LATE');
    await page.screenshot({ path: `${SHOTS}/study-timed-out.png`, fullPage: true });
    // Back at the link later: still over, the same code.
    await page.reload();
    await page.waitForSelector('[data-testid="study-complete"][data-outcome="timed_out"][data-saved="true"]');
  });
});

test('shapemaze serve gives each new participant the least used order at consent; a static host falls back to the hash', async () => {
  const serve = await startServe();
  try {
    const { origin } = serve;
    const balanced = {
      title: 'Balanced study', counterbalance: true, assignment: 'server',
      trials: [{ shape: 'square', seed: 1, sample: 0 }, { shape: 'Z', seed: 1, sample: 0 }],
    };
    const config = Buffer.from(JSON.stringify(balanced)).toString('base64url');
    const first = [];
    await withPage(async (page) => {
      // A link opened and left at the consent page takes no order.
      await page.goto(`${origin}/study?config=${config}&participant=x${rand()}`);
      await page.waitForSelector('[data-testid="consent-accept"]');
      for (const who of ['a', 'b', 'c']) {
        await page.goto(`${origin}/study?config=${config}&participant=${who}${rand()}`);
        await page.click('[data-testid="consent-accept"]');
        await page.click('[data-testid="study-next"]');
        await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
        first.push(await page.getAttribute('[data-testid="maze"]', 'data-shape'));
      }
      assert.deepEqual(first, ['square', 'Z', 'square'], 'orders 0, 1, then 0 again: the least used (none went to the link left at consent)');
      // Without the server the study still runs, on the id's hash.
      await page.goto(`${BASE}/study?config=${config}&participant=s${rand()}`);
      await page.click('[data-testid="consent-accept"]');
      await page.click('[data-testid="study-next"]');
      await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    });
  } finally {
    serve.stop();
  }
});

test('one link, two conditions: shapemaze serve alternates them, a returning participant keeps theirs, and /study/manage counts them', async () => {
  const serve = await startServe();
  try {
    const { origin } = serve;
    const both = {
      title: 'Conditions study', conditions: ['grid', 'text'], counterbalance: true, assignment: 'server',
      trials: [{ shape: 'square', seed: 1, sample: 0 }, { shape: 'Z', seed: 1, sample: 0 }],
    };
    const config = Buffer.from(JSON.stringify(both)).toString('base64url');
    const url = (who) => `${origin}/study?config=${config}&participant=${who}`;
    /** The condition the participant's first maze is shown in. */
    const conditionOf = async (page) => {
      await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"], [data-testid="maze-text"]');
      return (await page.locator('[data-testid="maze-text"]').count()) > 0 ? 'text' : 'grid';
    };
    await withPage(async (page) => {
      page.on('dialog', (d) => d.accept().catch(() => {}));
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((w) => `${w}${rand()}`);
      const seen = [];
      for (const who of [a, b, c]) {
        await page.goto(url(who));
        await page.click('[data-testid="consent-accept"]');
        await page.click('[data-testid="study-next"]');
        seen.push(await conditionOf(page));
      }
      assert.deepEqual(seen, ['grid', 'text', 'grid'], 'consecutive participants alternate');
      // b returns to the link: where they were, in their condition, taking no new order.
      await page.goto(url(b));
      assert.equal(await conditionOf(page), 'text', 'a returning participant keeps their condition');
      // A link opened and left at the consent page takes nothing.
      await page.goto(url(`x${rand()}`));
      await page.waitForSelector('[data-testid="consent-accept"]');
      // So the next participant fills the text condition (grid 2, text 1).
      await page.goto(url(d));
      await page.click('[data-testid="consent-accept"]');
      await page.click('[data-testid="study-next"]');
      assert.equal(await conditionOf(page), 'text');
      // The experimenter sees the counts per condition.
      await page.goto(`${origin}/study/manage`);
      const rows = page.locator('[data-testid="table-study-conditions"] tbody tr');
      await rows.first().waitFor();
      const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
      assert.deepEqual(cells, [['Conditions study', 'grid', '2', '0'], ['Conditions study', 'text', '2', '0']]);
      const participants = await page.locator('[data-testid="table-study-participants"]').textContent();
      assert.ok(participants.includes('condition'), 'each participant\'s condition is listed');
      await page.screenshot({ path: `${SHOTS}/study-manage-conditions.png`, fullPage: true });
    });
  } finally {
    serve.stop();
  }
});

test("a study's lenient allowance reaches its participant: a wall is forgiven once, the next ends the phase", async () => {
  const lenient = { title: 'Lenient study', lenient: 1, trials: [{ shape: 'C', seed: 1, sample: 2 }] };
  const config = Buffer.from(JSON.stringify(lenient)).toString('base64url');
  await withPage(async (page) => {
    await page.goto(`${BASE}/study?config=${config}&participant=l${rand()}`);
    await page.click('[data-testid="consent-accept"]');
    await page.click('[data-testid="study-next"]');
    await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
    assert.match(await page.textContent('.help'), /is forgiven 1 time/);
    const maze = await readMaze(page);
    const [pr, pc] = find(maze, 'player');
    const wall = wallBeside(maze, [pr, pc]);
    await clickCell(page, wall);
    assert.equal(await phase(page), 'solve', 'the first invalid move is forgiven');
    await clickCell(page, wall);
    assert.equal(await phase(page), 'recognize', 'the second ends the phase');
  });
});

test("a study's matrix symbols: the text condition shows the maze in them and reads the new maze in them", async () => {
  const symbols = {
    title: 'Symbols study',
    condition: 'text',
    symbols: '@ * S E',
    trials: [{ shape: 'square', size: 5, encoding: 'matrix', seed: 3, sample: 0 }],
  };
  await withPage(async (page) => {
    await page.goto(studyLink(symbols, `&participant=y${rand()}`));
    await page.click('[data-testid="consent-accept"]');
    await page.click('[data-testid="study-next"]');
    await page.waitForSelector('[data-testid="maze-text"]');
    const shown = (await page.textContent('[data-testid="maze-text"]')).trim();
    assert.match(shown, /^[@*SE \n]+$/, shown);
    assert.ok(shown.includes('S') && shown.includes('E'), shown);
    assert.equal(await page.textContent('[data-testid="maze-legend"]'), 'Symbols: @ wall, * empty, S player, E goal.');
    assert.match(await page.textContent('.phase-panel .help'), /Type the cell S moves to/);
    // An answer with no cell ends the solve phase at once; the shape is named.
    await page.fill('[data-testid="move-answer"]', 'no idea');
    await page.click('[data-testid="submit-move"]');
    await page.fill('[data-testid="shape-answer"]', 'a square');
    await page.click('[data-testid="submit-recognition"]');
    // The same maze in 1 0 P G is not properly encoded here; with S and E swapped, in the
    // study's symbols, it is a new square maze.
    const standard = shown.replace(/@/g, '1').replace(/\*/g, '0').replace(/S/g, 'P').replace(/E/g, 'G');
    const swapped = shown.replace(/S/g, 'x').replace(/E/g, 'S').replace(/x/g, 'E');
    await page.fill('[data-testid="maze-answer"]', standard);
    await page.click('[data-testid="submit-generation"]');
    const wrong = await verdict(page, 'generate');
    assert.equal(wrong.outcome, 'fail', wrong.text);
    assert.match(wrong.text, /symbols are @ wall, \* empty, S player, E goal; the reply writes its maze in 1 0 P G/, wrong.text);
    await page.screenshot({ path: `${SHOTS}/study-symbols.png` });
    // A fresh participant answers in the set.
    await page.goto(studyLink(symbols, `&participant=z${rand()}`));
    await page.click('[data-testid="consent-accept"]');
    await page.click('[data-testid="study-next"]');
    await page.waitForSelector('[data-testid="maze-text"]');
    await page.fill('[data-testid="move-answer"]', 'no idea');
    await page.click('[data-testid="submit-move"]');
    await page.fill('[data-testid="shape-answer"]', 'a square');
    await page.click('[data-testid="submit-recognition"]');
    await page.fill('[data-testid="maze-answer"]', swapped);
    await page.click('[data-testid="submit-generation"]');
    const right = await verdict(page, 'generate');
    assert.equal(right.outcome, 'success', right.text);
  });
});

test('a staircase study: the person walks up after two solved mazes and down after a failure, and the results show the walk', async () => {
  const scenario = `500-x0-u${rand()}`;
  const stairs = {
    title: 'Staircase study',
    staircase: { trials: 4, start: 0 },
    trials: [
      { shape: 'square', size: 5, encoding: 'matrix', seed: 1, sample: 0 },
      { shape: 'cross', size: 5, encoding: 'matrix', seed: 1, sample: 0 },
      { shape: 'Z', size: 5, encoding: 'matrix', seed: 1, sample: 0 },
    ],
    condition: 'grid',
    recognition: 'choice',
    upload: { kind: 'json', url: `${MOCK_URL}/${scenario}/upload` },
  };
  await withPage(async (page) => {
    await page.goto(studyLink(stairs, `&participant=s${rand()}`));
    await page.click('[data-testid="consent-accept"]');
    await page.click('[data-testid="study-next"]');
    const seen = [];
    for (const solve of [true, true, false, true]) {
      await page.waitForSelector('[data-testid="maze"] [data-testid="cell-0-0"]');
      const maze = await readMaze(page);
      seen.push(maze.shape);
      if (solve) {
        await playTrial(page);
      } else {
        // Into a wall: the solve fails; the shape and a new maze are still asked for.
        await clickCell(page, wallBeside(maze, find(maze, 'player')));
        assert.equal(await phase(page), 'recognize');
        await page.click(`[data-testid="shape-choice-${maze.shape}"]`);
        await draw(page, maze.cells.map((row) => row.map((k) => (k === 'player' ? 'goal' : k === 'goal' ? 'player' : k))));
        await page.click('[data-testid="submit-generation"]');
        await verdict(page, 'generate');
      }
      if (seen.length === 3) await page.screenshot({ path: `${SHOTS}/study-staircase.png`, fullPage: true });
      await page.click('[data-testid="study-next"]');
    }
    // Two solved squares take the walk up to the cross; failing it takes it back down.
    assert.deepEqual(seen, ['square', 'square', 'cross', 'square']);
    await page.waitForSelector('[data-testid="study-complete"][data-saved="true"]', { timeout: 20000 });
    const body = await received(scenario);
    const steps = body.trials.map((t) => t.record.staircase);
    assert.deepEqual(steps.map((s) => [s.step, s.level]), [[0, 0], [1, 0], [2, 1], [3, 0]]);
    assert.equal(new Set(steps.map((s) => s.walk)).size, 1, 'one walk, told apart by its id');
    assert.deepEqual(body.trials.map((t) => t.record.sample), [0, 1, 0, 2], 'each visit a new maze of its level');
    // The results page shows the participant's walk.
    await page.goto(`${BASE}/results`);
    await page.waitForFunction(() => /people: Staircase study/.test(document.querySelector('[data-testid="sources"]')?.textContent ?? ''));
    await page.waitForSelector('[data-testid="table-staircase"]');
    assert.match(await page.locator('[data-testid="table-staircase"]').textContent(), /human [0-9a-f]{8}.*0 0 1 0/s);
  });
});

test('a participant who goes offline mid-study is told what waits, and gets the code once the server holds every trial', async () => {
  const serve = await startServe();
  try {
    const offline = {
      title: 'Offline study',
      trials: [
        { shape: 'square', seed: 1, sample: 0 },
        { shape: 'cross', seed: 1, sample: 0 },
        { shape: 'Z', seed: 1, sample: 0 },
      ],
      recognition: 'choice',
      completion: { code: 'ALL-THERE' },
      upload: { kind: 'json', url: '/api/study-data' },
    };
    const pid = `o${rand()}`;
    const config = Buffer.from(JSON.stringify(offline)).toString('base64url');
    // The export's trial lines (the outcomes follow as {"outcome": ...} lines).
    const held = async () => (await serve.read('/api/study-data.jsonl')).split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((t) => t.record && t.participant.id === pid);
    await withPage(async (page) => {
      await page.goto(`${serve.origin}/study?config=${config}&participant=${pid}`);
      await page.click('[data-testid="consent-accept"]');
      await page.click('[data-testid="study-next"]');
      await playTrial(page);
      // Trial 1 goes to the server as it ends.
      for (let i = 0; i < 100 && (await held()).length < 1; i++) await page.waitForTimeout(100);
      assert.deepEqual((await held()).map((t) => t.trial_index), [0], 'trial 1 is on the server as it ends');
      await page.click('[data-testid="study-next"]');
      await page.context().setOffline(true);
      await playTrial(page);
      // While the study runs, the participant is told that a trial waits.
      await page.waitForSelector('[data-testid="study-upload-waiting"][data-pending="1"]');
      assert.match(await page.innerText('[data-testid="study-upload-waiting"]'), /1 trial is waiting to upload.*Keep this page open/s);
      await page.screenshot({ path: `${SHOTS}/study-offline-trial.png`, fullPage: true });
      await page.click('[data-testid="study-next"]');
      await playTrial(page);
      await page.click('[data-testid="study-next"]');
      await page.waitForSelector('[data-testid="study-complete"][data-saved="false"]');
      await page.waitForSelector('[data-testid="study-upload-status"][data-pending="2"]');
      const status = await page.innerText('[data-testid="study-upload-status"]');
      assert.match(status, /2 trials are waiting to upload.*Keep this page open/s, status);
      assert.equal(await page.locator('[data-testid="completion-code"]').count(), 0, 'no code while trials wait');
      assert.equal(await page.locator('[data-testid="study-download"]').count(), 1, 'the data can be downloaded meanwhile');
      await page.screenshot({ path: `${SHOTS}/study-offline-waiting.png`, fullPage: true });
      assert.deepEqual((await held()).map((t) => t.trial_index), [0], 'the server still holds trial 1 only');
      // Back online: the queue drains, and only then the code shows.
      await page.context().setOffline(false);
      await page.waitForSelector('[data-testid="study-complete"][data-saved="true"]', { timeout: 60000 });
      assert.equal(await page.innerText('[data-testid="completion-code"]'), 'ALL-THERE');
      await page.screenshot({ path: `${SHOTS}/study-offline-drained.png`, fullPage: true });
    }, /Failed to load resource|net::ERR_|Failed to fetch/i);
    // Every trial on the server, each once; the reconcile says the participant is complete.
    const trials = await held();
    assert.deepEqual(trials.map((t) => t.trial_index), [0, 1, 2], 'three trials, none duplicated');
    assert.ok(trials.every((t) => t.record.verdicts.generate && t.planned === 3), 'each finished, with its plan');
    const row = (await serve.read('/api/study-participants.csv')).split('\n').find((l) => l.includes(pid));
    assert.equal(row, `Offline study,${pid},completed,ALL-THERE,3,3,0,,complete,grid`);
    // The outcome is in the JSONL export too, after the trials.
    const outcomes = (await serve.read('/api/study-data.jsonl')).split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((l) => l.outcome);
    assert.deepEqual(outcomes.map((o) => [o.outcome.participant.id, o.outcome.code]), [[pid, 'ALL-THERE']]);
  } finally {
    serve.stop();
  }
});

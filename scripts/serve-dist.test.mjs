// Tests of scripts/serve-dist.mjs: the GitHub Pages-style host that the sub-path e2e test
// relies on must behave like one (404.html with status 404 for unknown paths, nothing outside
// the base), and the app's own way keeps its fallback to index.html.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticServer } from './serve-dist.mjs';

function site(with404 = true) {
  const dir = mkdtempSync(join(tmpdir(), 'serve-dist-'));
  writeFileSync(join(dir, 'index.html'), '<p>app</p>');
  if (with404) writeFileSync(join(dir, '404.html'), '<p>app (404)</p>');
  mkdirSync(join(dir, 'trials'));
  writeFileSync(join(dir, 'trials', 'index.json'), '[]');
  return dir;
}

async function withServer(dir, base, fn) {
  const server = staticServer(dir, base);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    await fn(url);
  } finally {
    server.close();
  }
}

test('a Pages-style host serves files under the base and 404.html for unknown paths', async () => {
  await withServer(site(), '/shapemaze/', async (url) => {
    let r = await fetch(`${url}/shapemaze/`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), '<p>app</p>');
    r = await fetch(`${url}/shapemaze/trials/index.json`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /json/);
    r = await fetch(`${url}/shapemaze/study/manage?x=1`);
    assert.equal(r.status, 404, 'a deep link is not a file: the host answers 404 ...');
    assert.equal(await r.text(), '<p>app (404)</p>', '... with the build\'s 404.html');
    r = await fetch(`${url}/shapemaze`, { redirect: 'manual' });
    assert.equal(r.status, 301);
    assert.equal(r.headers.get('location'), '/shapemaze/');
    r = await fetch(`${url}/play`);
    assert.equal(r.status, 404, 'nothing outside the base');
    assert.doesNotMatch(await r.text(), /app/);
    r = await fetch(`${url}/shapemaze/%2e%2e/%2e%2e/etc/passwd`);
    assert.ok([403, 404].includes(r.status), `no file outside the folder (got ${r.status})`);
  });
});

test('a Pages-style host without 404.html answers a plain 404', async () => {
  await withServer(site(false), '/shapemaze/', async (url) => {
    const r = await fetch(`${url}/shapemaze/results`);
    assert.equal(r.status, 404);
    assert.match(await r.text(), /404/);
  });
});

test("the app's own way falls back to index.html with 200", async () => {
  await withServer(site(), undefined, async (url) => {
    const r = await fetch(`${url}/study/manage`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), '<p>app</p>');
  });
});

test('files are sent gzipped to browsers that accept it', async () => {
  await withServer(site(), '/shapemaze/', async (url) => {
    // Node's fetch asks for gzip and decodes it: the header says what was sent.
    const r = await fetch(`${url}/shapemaze/trials/index.json`);
    assert.equal(r.headers.get('content-encoding'), 'gzip');
    assert.equal(await r.text(), '[]');
  });
});

test('a file rewritten in place is served anew, not from the compressed copy', async () => {
  const dir = site();
  await withServer(dir, undefined, async (url) => {
    assert.equal(await (await fetch(`${url}/`)).text(), '<p>app</p>');
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(join(dir, 'index.html'), '<p>rebuilt app</p>');
    assert.equal(await (await fetch(`${url}/`)).text(), '<p>rebuilt app</p>');
  });
});

test("the build's brotli files are sent to browsers that accept br, gzip to the others", async () => {
  const dir = site();
  const { brotliCompressSync, gzipSync } = await import('node:zlib');
  const js = 'export const app = "app";\n'.repeat(50);
  writeFileSync(join(dir, 'app-0123456789abcdef.js'), js);
  writeFileSync(join(dir, 'app-0123456789abcdef.js.br'), brotliCompressSync(js));
  writeFileSync(join(dir, 'app-0123456789abcdef.js.gz'), gzipSync(js));
  await withServer(dir, undefined, async (url) => {
    let r = await fetch(`${url}/app-0123456789abcdef.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(r.headers.get('content-encoding'), 'br');
    assert.equal(await r.text(), js);
    r = await fetch(`${url}/app-0123456789abcdef.js`, { headers: { 'accept-encoding': 'gzip, deflate' } });
    assert.equal(r.headers.get('content-encoding'), 'gzip');
    assert.equal(await r.text(), js);
    r = await fetch(`${url}/app-0123456789abcdef.js`, { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    assert.equal(r.headers.get('content-encoding'), 'gzip', 'br;q=0 refuses brotli');
    // Without a .br beside it, a file goes gzipped even to a browser that accepts br.
    r = await fetch(`${url}/trials/index.json`, { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(r.headers.get('content-encoding'), 'gzip');
  });
});

test('hashed files are immutable, the rest is revalidated with an ETag (304 when unchanged)', async () => {
  const dir = site();
  writeFileSync(join(dir, 'shapemaze-web-19f93658903121bd_bg.wasm'), 'wasm');
  writeFileSync(join(dir, 'shapemaze-web-90d148ef126a4c3.js'), 'js');
  await withServer(dir, undefined, async (url) => {
    let r = await fetch(`${url}/shapemaze-web-19f93658903121bd_bg.wasm`);
    assert.match(r.headers.get('cache-control'), /immutable/);
    r = await fetch(`${url}/shapemaze-web-90d148ef126a4c3.js`);
    assert.match(r.headers.get('cache-control'), /immutable/, 'a hash of 15 digits (no leading zero) counts');
    r = await fetch(`${url}/study?study=pilot`);
    assert.equal(r.headers.get('cache-control'), 'no-cache');
    const etag = r.headers.get('etag');
    assert.ok(etag);
    r = await fetch(`${url}/study?study=pilot`, { headers: { 'if-none-match': etag } });
    assert.equal(r.status, 304);
    r = await fetch(`${url}/trials/index.json`, { headers: { 'if-none-match': etag } });
    assert.equal(r.status, 200, 'another file does not match');
  });
});

test("trunk's snippets folder carries the hash: its files are immutable too", async () => {
  const dir = site();
  mkdirSync(join(dir, 'snippets', 'shapemaze-b084349ca5e1cf4b'), { recursive: true });
  writeFileSync(join(dir, 'snippets', 'shapemaze-b084349ca5e1cf4b', 'inline0.js'), 'export {}');
  await withServer(dir, '/shapemaze/', async (url) => {
    const r = await fetch(`${url}/shapemaze/snippets/shapemaze-b084349ca5e1cf4b/inline0.js`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('cache-control'), /immutable/);
  });
});

test('a page of its own in a folder: a Pages-style host redirects to the folder, query kept; the app\'s way serves it at once', async () => {
  const dir = site();
  mkdirSync(join(dir, 'results'));
  writeFileSync(join(dir, 'results', 'index.html'), '<p>lab</p>');
  await withServer(dir, '/shapemaze/', async (url) => {
    let r = await fetch(`${url}/shapemaze/results?x=1`, { redirect: 'manual' });
    assert.equal(r.status, 301);
    assert.equal(r.headers.get('location'), '/shapemaze/results/?x=1');
    r = await fetch(`${url}/shapemaze/results/?x=1`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), '<p>lab</p>');
    r = await fetch(`${url}/shapemaze?study=a`, { redirect: 'manual' });
    assert.equal(r.headers.get('location'), '/shapemaze/?study=a', 'the base keeps its query too');
  });
  await withServer(dir, undefined, async (url) => {
    let r = await fetch(`${url}/results?x=1`, { redirect: 'manual' });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), '<p>lab</p>');
    r = await fetch(`${url}/trials`, { redirect: 'manual' });
    assert.equal(await r.text(), '<p>app</p>', 'a folder without a page of its own is no page');
  });
});

test('with --proxy the DashScope paths are forwarded, and an unknown proxy is refused', async () => {
  const server = staticServer(site(), undefined, { proxy: true });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    const r = await fetch(`${url}/proxy/nowhere/chat/completions`, { method: 'POST', body: '{}' });
    assert.equal(r.status, 404);
    assert.match(await r.text(), /no proxy named nowhere/);
  } finally {
    server.close();
  }
});

// A tiny static server for a release build, in one of two ways:
// - the app's own way (no base given): any path without a file serves index.html with 200,
//   so deep links like /play?shape=Z work (the e2e tests, `make bench`);
// - a GitHub Pages-style host (a base given, such as /shapemaze/): the build's files are
//   served under the base only, a folder serves its index.html, the base without its last
//   slash is redirected to it, and every unknown path is answered 404 with the build's
//   404.html (or a plain 404 when the build has none), as such hosts do.
// Both compress what they send (gzip, when the browser accepts it), as static hosts do.
// Usage: node scripts/serve-dist.mjs [port] [dir] [base]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

async function isFile(file) {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The server for `dir`; with `base` it behaves like a static host serving a project site. */
export function staticServer(dir, base) {
  const root = resolve(dir);
  const gzipped = new Map();
  const send = async (req, res, status, file) => {
    const type = types[extname(file)];
    const headers = { 'content-type': type ?? 'application/octet-stream', vary: 'accept-encoding' };
    let body = await readFile(file);
    if (type && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      // Compressed once per version of the file (a rebuild rewrites it in place).
      const { mtimeMs, size } = await stat(file);
      const key = `${file}\0${mtimeMs}\0${size}`;
      if (!gzipped.has(key)) gzipped.set(key, gzipSync(body, { level: 9 }));
      body = gzipped.get(key);
      headers['content-encoding'] = 'gzip';
    }
    res.writeHead(status, headers);
    res.end(body);
  };
  return createServer(async (req, res) => {
    try {
      let path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      if (base) {
        const stem = base.replace(/\/$/, '');
        if (path === stem) {
          res.writeHead(301, { location: base }).end();
          return;
        }
        if (!path.startsWith(base)) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('404: not part of this site');
          return;
        }
        path = `/${path.slice(base.length)}`;
      }
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if (path.endsWith('/')) file = join(file, 'index.html');
      if (await isFile(file)) return await send(req, res, 200, file);
      if (!base) return await send(req, res, 200, join(root, 'index.html'));
      const notFound = join(root, '404.html');
      if (await isFile(notFound)) return await send(req, res, 404, notFound);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404: no such file');
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? 8091);
  const dir = process.argv[3] ?? 'dist';
  const raw = process.argv[4];
  const base = raw ? `/${raw.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/') : undefined;
  staticServer(dir, base).listen(port, '127.0.0.1', () =>
    console.log(`serving ${resolve(dir)} on http://127.0.0.1:${port}${base ?? '/'}`),
  );
}

// A tiny static server for a release build, in one of two ways:
// - the app's own way (no base given): any path without a file serves index.html with 200,
//   so deep links like /play?shape=Z work (the e2e tests, `make bench`);
// - a GitHub Pages-style host (a base given, such as /shapemaze/): the build's files are
//   served under the base only, a folder serves its index.html, a folder named without its
//   last slash (the base too) is redirected to it, query kept, and every unknown path is
//   answered 404 with the build's 404.html (or a plain 404 when the build has none), as such
//   hosts do.
// In the app's way a folder named without its slash serves its index.html at once (each page
// of the site's two builds has one: scripts/site.sh).
// Both compress what they send as static hosts do: a browser that accepts brotli gets the
// build's precompressed `FILE.br` (written beside each file by scripts/compress-dist.mjs, run
// at build time), else gzip (the build's `FILE.gz`, or compressed here once per version of the
// file). Both cache as `shapemaze serve` does: files whose names carry trunk's content hash are
// immutable for a year (so are the files in trunk's `snippets/CRATE-HASH/` folders), everything
// else is revalidated on every visit (an ETag, answered 304 when unchanged).
// With --proxy (`make serve`) it also forwards the app's DashScope presets'
// `POST /proxy/dashscope-*/chat/completions`, headers and body unchanged, to that region's
// compatible-mode endpoint (Alibaba refuses cross-origin requests from pages; a static host
// of dist/ needs the same three rules, docs/guides/deploying.md).
// Usage: node scripts/serve-dist.mjs [port] [dir] [base] [--proxy]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const immutable = 'public, max-age=31536000, immutable';
const revalidate = 'no-cache';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Whether a file name carries trunk's content hash (`shapemaze-web-19f93658903121bd_bg.wasm`,
 *  `main-7466d4026efeff11.css`). Trunk writes the 64-bit hash in hex without leading zeros, so
 *  one build in 16 has 15 digits (`shapemaze-web-90d148ef126a4c3.js`): 12 or more count. */
export function isHashedAsset(name) {
  const stem = name.split('.')[0];
  const dash = stem.lastIndexOf('-');
  if (dash < 0) return false;
  const hash = stem.slice(dash + 1).split('_')[0];
  return hash.length >= 12 && /^[0-9a-f]+$/i.test(hash);
}

/** The encodings a request accepts (`accept-encoding`, ignoring q=0). */
function accepts(req, coding) {
  return (req.headers['accept-encoding'] ?? '')
    .split(',')
    .map((p) => p.trim().split(';'))
    .some(([c, ...params]) => c.trim() === coding && !params.some((q) => /^\s*q=0(\.0*)?\s*$/.test(q)));
}

/** The upstreams `--proxy` forwards to, by the first part of the path after /proxy/. */
export const proxies = {
  'dashscope-intl': 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1/',
  'dashscope-cn': 'https://dashscope.aliyuncs.com/compatible-mode/v1/',
  'dashscope-us': 'https://dashscope-us.aliyuncs.com/compatible-mode/v1/',
};

/** Forwards a request under /proxy/NAME/ to its upstream, answering 404 for another name and
 *  502 with the reason when the upstream cannot be reached. */
async function forward(req, res, path) {
  const [, , name, ...rest] = path.split('/');
  const upstream = proxies[name];
  if (!upstream) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`404: no proxy named ${name}`);
    return;
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = { ...req.headers };
  for (const h of ['host', 'connection', 'origin', 'referer', 'content-length']) delete headers[h];
  try {
    const answer = await fetch(upstream + rest.join('/') + new URL(req.url, 'http://localhost').search, {
      method: req.method,
      headers,
      body: ['GET', 'HEAD'].includes(req.method) ? undefined : Buffer.concat(chunks),
    });
    const out = {};
    answer.headers.forEach((v, k) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
  } catch (e) {
    res.writeHead(502, { 'content-type': 'text/plain' }).end(`502: ${upstream} could not be reached: ${e.cause?.message ?? e.message}`);
  }
}

async function isDir(file) {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(file) {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The server for `dir`; with `base` it behaves like a static host serving a project site.
 *  `brotli: false` ignores the build's .br files (a host that only gzips); `maxAge: 600`
 *  caches every file for ten minutes, as GitHub Pages does; `proxy: true` forwards the
 *  DashScope paths (`make serve`). */
export function staticServer(dir, base, { brotli = true, proxy = false, maxAge } = {}) {
  const root = resolve(dir);
  const gzipped = new Map();
  // A content hash in the file's name or in a folder's (trunk's `snippets/CRATE-HASH/`).
  const hashed = (file) => file.slice(root.length + 1).split(sep).some(isHashedAsset);
  const send = async (req, res, status, file) => {
    const type = types[extname(file)];
    const { mtimeMs, size } = await stat(file);
    const headers = {
      'content-type': type ?? 'application/octet-stream',
      vary: 'accept-encoding',
      'cache-control': maxAge !== undefined ? `max-age=${maxAge}` : status === 200 && hashed(file) ? immutable : revalidate,
    };
    // One representation per encoding, each with its own validator.
    let encoding;
    let body;
    if (type && brotli && accepts(req, 'br') && (await isFile(`${file}.br`))) {
      encoding = 'br';
      body = await readFile(`${file}.br`);
    } else if (type && accepts(req, 'gzip')) {
      encoding = 'gzip';
      if (await isFile(`${file}.gz`)) {
        body = await readFile(`${file}.gz`);
      } else {
        // Compressed once per version of the file (a rebuild rewrites it in place).
        const key = `${file}\0${mtimeMs}\0${size}`;
        if (!gzipped.has(key)) gzipped.set(key, gzipSync(await readFile(file), { level: 9 }));
        body = gzipped.get(key);
      }
    } else {
      body = await readFile(file);
    }
    if (encoding) headers['content-encoding'] = encoding;
    headers.etag = `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
    const match = (req.headers['if-none-match'] ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (status === 200 && match.includes(headers.etag)) {
      delete headers['content-type'];
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  return createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      let path = decodeURIComponent(url.pathname);
      if (proxy && path.startsWith('/proxy/')) return await forward(req, res, path);
      if (base) {
        const stem = base.replace(/\/$/, '');
        if (path === stem) {
          res.writeHead(301, { location: base + url.search }).end();
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
      if (!path.endsWith('/') && (await isDir(file)) && (await isFile(join(file, 'index.html')))) {
        if (base) {
          res.writeHead(301, { location: `${base}${path.slice(1)}/${url.search}` }).end();
          return;
        }
        file = join(file, 'index.html');
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
  const args = process.argv.slice(2).filter((a) => a !== '--proxy');
  const proxy = process.argv.includes('--proxy');
  const port = Number(args[0] ?? 8091);
  const dir = args[1] ?? 'dist';
  const raw = args[2];
  const base = raw ? `/${raw.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/') : undefined;
  staticServer(dir, base, { proxy }).listen(port, '127.0.0.1', () =>
    console.log(`serving ${resolve(dir)} on http://127.0.0.1:${port}${base ?? '/'}`),
  );
}

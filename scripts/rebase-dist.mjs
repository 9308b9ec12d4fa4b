// The release build for another public URL, made from one already built instead of built
// again: the wasm, its JavaScript and every other file do not depend on the public URL (the
// app reads it from the page's <base>), only the pages (every .html file) name it, where
// trunk writes it: the <base>, and the URLs of the app's JavaScript, wasm and snippets. So
// this copies FROM to TO, writes PUBLIC_URL in place of FROM's in those places of each page,
// and compresses the rewritten pages again (scripts/compress-dist.mjs). `make build-subpath`
// runs it on dist/ (built for `/`) to make target/dist-subpath/ (for /shapemaze/): its pages
// are those `scripts/site.sh release DIST /shapemaze/` writes, but for what differs between
// any two builds (checked when this script was written: every page the same once the files'
// content hashes, integrity hashes and the wasm's size are set aside, and the order in which
// trunk's minifier declares the first line's variables, which differs from run to run); the
// e2e test subpath.test.mjs serves it as GitHub Pages would.
// Usage: node scripts/rebase-dist.mjs FROM TO PUBLIC_URL   (FROM built for `/`)
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compress } from './compress-dist.mjs';

const [from, to, publicUrl] = process.argv.slice(2);
if (!from || !to || !publicUrl || !publicUrl.startsWith('/') || !publicUrl.endsWith('/')) {
  console.error('usage: node scripts/rebase-dist.mjs FROM TO PUBLIC_URL (a path that starts and ends with /)');
  process.exit(2);
}

/** A page built for `/`, written for `publicUrl`: the <base> and the app's own files. */
function rebase(html, url) {
  const before = html;
  const out = html
    .replace(/<base href=(["']?)\/\1( ?\/?>)/, (_, q, end) => `<base href=${q}${url}${q}${end}`)
    .replace(/(href=["']?|from ["']|module_or_path: ["'])\/(shapemaze-[\w-]+\.(?:js|wasm)|shapemaze-[\w-]+_bg\.wasm|snippets\/)/g, (_, lead, file) => `${lead}${url}${file}`);
  if (out === before && url !== '/') throw new Error('no public URL found in a page: was it built for `/`?');
  return out;
}

rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
let pages = 0;
const walk = (folder) => {
  for (const name of readdirSync(folder)) {
    const file = join(folder, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (name.endsWith('.html')) {
      writeFileSync(file, rebase(readFileSync(file, 'utf8'), publicUrl));
      rmSync(`${file}.br`, { force: true });
      rmSync(`${file}.gz`, { force: true });
      compress(file);
      pages++;
    }
  }
};
walk(to);
console.log(`rebase-dist: ${to}/ for ${publicUrl} from ${from}/ (${pages} pages rewritten)`);

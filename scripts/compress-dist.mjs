// Precompresses a build for hosts that serve precompressed files (and scripts/serve-dist.mjs):
// beside every text or wasm file of the folder (its subfolders too) it writes FILE.br (brotli,
// quality 11, the best) and FILE.gz (gzip -9), each only when it is smaller than the file.
// Static hosts that compress on the fly use a faster setting; these are what the slowest
// links get when the host serves them (Netlify, Cloudflare, nginx's brotli_static and
// gzip_static, tower-http's precompressed_br and precompressed_gzip).
// Run by scripts/site.sh on a release build (and scripts/rebase-dist.mjs imports compress()
// for the pages it rewrites). Usage: node scripts/compress-dist.mjs DIR
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const text = new Set(['.html', '.js', '.css', '.json', '.svg']);

/** Writes FILE.br and FILE.gz beside `file` (each only when smaller); returns the sizes
 * `[raw, brotli, gzip]` (a size that was not smaller counts as the file's own), or null
 * for a file of a kind that is not compressed. */
export function compress(file) {
  const ext = extname(file);
  if (ext !== '.wasm' && !text.has(ext)) return null;
  const body = readFileSync(file);
  const b = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_MODE]: text.has(ext) ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const g = gzipSync(body, { level: 9 });
  if (b.length < body.length) writeFileSync(`${file}.br`, b);
  if (g.length < body.length) writeFileSync(`${file}.gz`, g);
  return [body.length, Math.min(b.length, body.length), Math.min(g.length, body.length)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/compress-dist.mjs DIR');
    process.exit(2);
  }
  let raw = 0;
  let br = 0;
  let gz = 0;
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const file = join(folder, name);
      if (statSync(file).isDirectory()) {
        walk(file);
        continue;
      }
      const sizes = compress(file);
      if (!sizes) continue;
      raw += sizes[0];
      br += sizes[1];
      gz += sizes[2];
    }
  };
  walk(dir);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`compress-dist: ${kb(raw)} of files, ${kb(gz)} gzipped, ${kb(br)} with brotli`);
}

#!/usr/bin/env bash
# Reports the release build's transfer size: its wasm, js and css in dist/ (the snippets
# folder's js and the page itself, which carries the inlined css, too), each gzipped -9, with
# the brotli size beside it when the build wrote .br files (scripts/compress-dist.mjs).
# Fails above a tripwire of 1 MB gzipped for the whole app: not a budget, an alarm for an
# accident such as a heavy dependency pulled in. The budget is the seconds a person waits
# (issue 31): `node scripts/bench-load.mjs` in `make bench`, its table in docs/size.md.
set -euo pipefail
cd "$(dirname "$0")/.."
tripwire_kb=${SIZE_TRIPWIRE_KB:-1024}
total=0
total_br=0
while IFS= read -r f; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  br=$gz
  [ -f "$f.br" ] && br=$(stat -c %s "$f.br")
  total=$((total + gz))
  total_br=$((total_br + br))
  printf '%-60s %9d bytes raw %8d gzipped %8d brotli\n' "$f" "$raw" "$gz" "$br"
done < <(find dist -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name index.html \) \
  ! -path 'dist/trials/*' ! -path 'dist/studies/*' | sort)
[ "$total" -gt 0 ] || { echo "size: no build in dist/ (run make build-release)" >&2; exit 1; }
awk -v t="$total" -v b="$total_br" -v w="$tripwire_kb" \
  'BEGIN { printf "total: %d bytes gzipped (%.1f KB), %d with brotli (%.1f KB); tripwire %d KB gzipped\n", t, t / 1024, b, b / 1024, w }'
[ "$total" -le $((tripwire_kb * 1024)) ] || { echo "size: over the 1 MB tripwire: what was pulled in? (docs/size.md)" >&2; exit 1; }

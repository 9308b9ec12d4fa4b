#!/usr/bin/env bash
# Reports the release build's transfer size, build by build (scripts/site.sh): what a visit
# to a page of each downloads, its page (which carries the inlined css and the shell's
# script), its wasm and js and the snippets' js, each gzipped -9, with the brotli size beside
# it when the build wrote .br files (scripts/compress-dist.mjs).
# Fails above a tripwire for each build, gzipped: 512 KB for the people's pages, 1 MB for
# the lab. Not a budget, an alarm for an accident such as a heavy dependency pulled in (or
# the lab's code into the people's build). The budget is the seconds a person waits: `node
# scripts/bench-load.mjs` in `make bench`, its table in docs/size.md.
# Usage: scripts/size.sh [DIST]
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${1:-dist}
[ -f "$dist/index.html" ] && [ -f "$dist/lab.html" ] || { echo "size: no build of both halves in $dist/ (run make build-release)" >&2; exit 1; }
failed=0
report() {
  local name=$1 tripwire_kb=$2 page=$3 bin=$4 total=0 total_br=0 f raw gz br
  echo "== the $name build"
  while IFS= read -r f; do
    raw=$(stat -c %s "$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    br=$gz
    [ -f "$f.br" ] && br=$(stat -c %s "$f.br")
    total=$((total + gz))
    total_br=$((total_br + br))
    printf '%-64s %9d bytes raw %8d gzipped %8d brotli\n' "$f" "$raw" "$gz" "$br"
  done < <({ echo "$dist/$page"; find "$dist" -maxdepth 1 -type f \( -name "$bin-*.wasm" -o -name "$bin-*.js" \); find "$dist/snippets" -type f -name '*.js' 2>/dev/null; } | sort)
  awk -v n="$name" -v t="$total" -v b="$total_br" -v w="$tripwire_kb" \
    'BEGIN { printf "the %s build: %d bytes gzipped (%.1f KB), %d with brotli (%.1f KB); tripwire %d KB gzipped\n", n, t, t / 1024, b, b / 1024, w }'
  if [ "$total" -gt $((tripwire_kb * 1024)) ]; then
    echo "size: the $name build is over its tripwire of $tripwire_kb KB: what was pulled in? (docs/size.md)" >&2
    failed=1
  fi
}
report "people's" "${SIZE_TRIPWIRE_PEOPLE_KB:-512}" index.html shapemaze-people
report lab "${SIZE_TRIPWIRE_LAB_KB:-1024}" lab.html shapemaze-web
exit $failed

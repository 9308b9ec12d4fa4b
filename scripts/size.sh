#!/usr/bin/env bash
# Reports the release build's transfer size: wasm + js + css in dist/, each gzipped -9.
# Fails when the total exceeds the gate: 600 KB for the whole app, every page (issue 16). A
# feature that needs more raises the gate in the same commit, its cost measured in
# docs/size.md.
set -euo pipefail
cd "$(dirname "$0")/.."
budget_kb=${SIZE_BUDGET_KB:-600}
total=0
for f in dist/*.wasm dist/*.js dist/*.css; do
  [ -f "$f" ] || continue
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + gz))
  printf '%-60s %9d bytes raw %8d bytes gzipped\n' "$f" "$raw" "$gz"
done
awk -v t="$total" -v b="$budget_kb" 'BEGIN { printf "total gzipped: %d bytes (%.1f KB); gate %d KB\n", t, t / 1024, b }'
[ "$total" -le $((budget_kb * 1024)) ] || { echo "size: over the gate" >&2; exit 1; }

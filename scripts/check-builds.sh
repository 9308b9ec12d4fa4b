#!/usr/bin/env bash
# Holds the site's two builds apart (issue 40): the people's wasm (the front door, /play,
# /demo, /study) must not link the lab's code: the batch runner, the analyses and statrs, the
# report writer, the charts, the ZIP writer, the endpoint client. Read from the function names
# of the release build's wasm as cargo wrote it (trunk's wasm-opt strips them from dist/): a
# name's path segments are length-prefixed (`14shapemaze_core5batch`), so each pattern names
# one module exactly. Each pattern must be found in the lab's wasm, so the check cannot pass
# on a wasm without names.
# Usage: scripts/check-builds.sh   (after `make build-release`)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${CARGO_TARGET_DIR:-$PWD/target}/wasm32-unknown-unknown/wasm-release
people=$dir/shapemaze-people.wasm
lab=$dir/shapemaze-web.wasm
[ -f "$people" ] && [ -f "$lab" ] || { echo "check-builds: no release wasm in $dir (run make build-release)" >&2; exit 1; }
# What each pattern is, then the pattern.
lab_only=(
  "the batch runner (shapemaze_core::batch)" 14shapemaze_core5batch
  "the analyses (shapemaze_core::analysis)" 14shapemaze_core8analysis
  "statrs" 6statrs
  "the report writer (shapemaze_view::report)" 14shapemaze_view6report
  "the report's document (shapemaze_view::document)" 14shapemaze_view8document
  "the charts (shapemaze_view::chart)" 14shapemaze_view5chart
  "the ZIP writer (shapemaze_core::results::zip)" 14shapemaze_core7results3zip
  "the endpoint client (shapemaze_core::model)" 14shapemaze_core5model
  "the browser's endpoint transport (shapemaze_web::transport)" 13shapemaze_web9transport
)
count() { { grep -a -o "$2" "$1" || true; } | wc -l; }
failed=0
[ "$(count "$people" 14shapemaze_core4maze)" -gt 0 ] || { echo "check-builds: $people has no function names to check" >&2; exit 1; }
for ((i = 0; i < ${#lab_only[@]}; i += 2)); do
  what=${lab_only[i]}
  pattern=${lab_only[i + 1]}
  in_lab=$(count "$lab" "$pattern")
  in_people=$(count "$people" "$pattern")
  if [ "$in_lab" -eq 0 ]; then
    echo "check-builds: $what ($pattern) is not found in the lab's wasm either: the check is out of date" >&2
    failed=1
  elif [ "$in_people" -gt 0 ]; then
    echo "check-builds: the people's wasm links $what ($in_people functions named $pattern)" >&2
    failed=1
  else
    printf 'check-builds: %-60s lab %4d functions, people'"'"'s 0\n' "$what" "$in_lab"
  fi
done
[ "$failed" -eq 0 ] && echo "check-builds: the people's build links none of the lab's code"
exit $failed

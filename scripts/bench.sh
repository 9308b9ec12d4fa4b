#!/usr/bin/env bash
# The speed and size budgets, measured (never asserted in tests):
#   core: six 30-maze 5x5 sets generated and verified from nothing ... < 50 ms
#   CLI:  verify one reply, whole process < 10 ms; score 1,080 transcripts < 1 s
#   client: the endpoint client's own work per call ................ < 5 ms
#   report: the analysis of 1,080 trials ........................... < 1 s
#   browser: an oracle trial on /model, click to rendered verdicts .. < 50 ms
#   pages: 360 oracle trials stored < 0.5 s; endpoint runs near the ideal wall time;
#        the results page over 3 x 360 trials: its first open < 1 s, then a click (a filter,
#        a part, a source) < 200 ms, the review part's first item after #review < 1 s
#        (scripts/bench-lab.mjs)
#   web:  release build wasm + js + css gzipped, reported (a tripwire at 1 MB, not a budget)
#   load: every page cold and warm at Fast 4G and Slow 4G, median of 5 (scripts/bench-load.mjs;
#        the tables are written to docs/size.md), with brotli and as GitHub Pages serves it
#        (gzip only): the targets as decided (README): every people's page's first screen
#        within 1 s on Slow 4G, cold <= 1.0 s on Fast 4G, warm <= 0.3 s on a gzip host; and a
#        tripwire on the wasm pages ready on Slow 4G (3.2 s brotli, 3.7 s gzip)
# Usage: scripts/bench.sh   (run `make build-release` first for the size and browser figures)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
for profile in bench-native release; do
  cargo build --quiet --profile "$profile" --example bench_core
  printf '[%s] ' "$profile"
  "target/$profile/examples/bench_core" 50
done
cargo run --quiet --profile bench-native --example bench_client 2000
cargo run --quiet --profile bench-native --example bench_report
scripts/bench-cli.sh
if ls dist/*.wasm >/dev/null 2>&1; then
  scripts/size.sh
  port=8097
  node scripts/serve-dist.mjs "$port" dist > target/bench-server.log 2>&1 &
  server=$!
  node tests/mock-endpoint/server.mjs $((port + 1)) > target/bench-mock.log 2>&1 &
  mock=$!
  trap 'kill $server $mock 2>/dev/null || true' EXIT
  sleep 1
  node scripts/bench-browser.mjs "http://127.0.0.1:$port" "http://127.0.0.1:$((port + 1))" 10
  node scripts/bench-lab.mjs "http://127.0.0.1:$port" "http://127.0.0.1:$((port + 1))" 3
  node scripts/bench-load.mjs --runs 5 --write docs/size.md
  node scripts/bench-load.mjs --runs 5 --gzip-only --write docs/size.md
else
  echo "size and browser: no dist/ (run make build-release)"
fi

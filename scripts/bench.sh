#!/usr/bin/env bash
# The speed and size budgets, measured (never asserted in tests):
#   core: six 30-maze 5x5 sets generated and verified from nothing ... < 50 ms
#   CLI:  verify one reply, whole process < 10 ms; score 1,080 transcripts < 1 s
#   web:  release build wasm + js + css gzipped ..................... <= 250 KB
# Usage: scripts/bench.sh   (run `make build-release` first for the size figure)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
for profile in bench-native release; do
  cargo build --quiet --profile "$profile" --example bench_core
  printf '[%s] ' "$profile"
  "target/$profile/examples/bench_core" 50
done
scripts/bench-cli.sh
if ls dist/*.wasm >/dev/null 2>&1; then scripts/size.sh; else echo "size: no dist/ (run make build-release)"; fi

#!/usr/bin/env bash
# Times the command line against its budgets (docs/cli.md):
#   verify on one reply, whole process ........ < 10 ms
#   score over 1,080 transcripts ............... < 1 s
# Builds with the bench-native profile (opt-level 3; PROFILE=release for the size-optimised
# one), writes 1,080 transcripts (2 encodings x 6 shapes x 30 mazes x 3 trials) with
# examples/make_transcripts.rs into a temporary folder, and times the binary with
# hyperfine when it is installed, else with a loop timed by `date +%s%N`.
# Prints one line per measurement; exits 1 when a budget is missed.
#
# Usage: scripts/bench-cli.sh [RUNS]      (default 30 runs per measurement)
#        NO_HYPERFINE=1 scripts/bench-cli.sh   (force the date loop)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
profile=${PROFILE:-bench-native}
runs=${1:-30}
hyperfine=$( [ -z "${NO_HYPERFINE:-}" ] && command -v hyperfine || true)
export PATH="$HOME/.cargo/bin:$PATH"

cd "$root"
cargo build --quiet --profile "$profile" --bin shapemaze --example make_transcripts
bin="$root/target/$profile/shapemaze"
maker="$root/target/$profile/examples/make_transcripts"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$maker" "$work/export" >/dev/null
count=$(find "$work/export" -name '*.txt' | wc -l)
"$bin" generate --shape C --size 11 --samples 2 --seed 1 --out "$work/big" >"$work/big.jsonl" 2>/dev/null

maze5="$work/export/experiment_mazes/5x5/square/5x5_square_0.npy"
maze11="$work/big/experiment_mazes/11x11/C/11x11_C_0.npy"
echo 'I am at the start; the goal is below. Move: (1, 0)' >"$work/move.txt"
echo 'The open cells trace a ring, so it is not a spiral. Shape: square' >"$work/recognize.txt"
# A generation reply: another maze of the same set, so every check runs.
"$bin" generate --shape square --samples 2 2>/dev/null | sed -n 2p |
  python3 -c 'import json,sys; print("\n".join(json.load(sys.stdin)["matrix"]))' >"$work/generate5.txt"
sed -n 2p "$work/big.jsonl" |
  python3 -c 'import json,sys; print("\n".join(json.load(sys.stdin)["matrix"]))' >"$work/generate11.txt"

# mean_ms NAME COMMAND...: the mean wall time of COMMAND in milliseconds.
mean_ms() {
  local name=$1
  shift
  if [ -n "$hyperfine" ]; then
    hyperfine --shell=none --warmup 3 --runs "$runs" --export-json "$work/$name.json" \
      --command-name "$name" "$*" >/dev/null
    python3 -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][0]["mean"] * 1000))' \
      "$work/$name.json"
  else
    for _ in 1 2 3; do "$@" >/dev/null; done
    local start end
    start=$(date +%s%N)
    for _ in $(seq "$runs"); do "$@" >/dev/null; done
    end=$(date +%s%N)
    awk -v ns=$((end - start)) -v n="$runs" 'BEGIN { printf "%.2f\n", ns / n / 1e6 }'
  fi
}

status=0
# report NAME MEAN_MS BUDGET_MS
report() {
  local verdict
  verdict=$(awk -v m="$2" -v b="$3" 'BEGIN { print (m < b) ? "ok" : "OVER BUDGET" }')
  printf '%-44s %9s ms   (budget %5s ms)  %s\n' "$1" "$2" "$3" "$verdict"
  [ "$verdict" = ok ] || status=1
}

tool=$( [ -n "$hyperfine" ] && echo "hyperfine, $runs runs" || echo "date loop, $runs runs")
echo "shapemaze CLI benchmarks: profile $profile, $tool, $(nproc) cores"
report "verify --phase move (5x5 .npy)" \
  "$(mean_ms move "$bin" verify --phase move --shape square --maze "$maze5" --response "$work/move.txt")" 10
report "verify --phase recognize" \
  "$(mean_ms recognize "$bin" verify --phase recognize --shape square --response "$work/recognize.txt")" 10
report "verify --phase generate (5x5)" \
  "$(mean_ms generate5 "$bin" verify --phase generate --shape square --maze "$maze5" --response "$work/generate5.txt")" 10
report "verify --phase generate (11x11)" \
  "$(mean_ms generate11 "$bin" verify --phase generate --shape C --maze "$maze11" --response "$work/generate11.txt")" 10
report "score, $count transcripts (text)" "$(mean_ms score "$bin" score "$work/export")" 1000
report "score, $count transcripts (--format json)" \
  "$(mean_ms score_json "$bin" score "$work/export" --format json)" 1000
exit $status

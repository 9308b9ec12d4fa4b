#!/usr/bin/env bash
# `make test-real` (opt-in, not part of `make test`): a real small language model plays
# Shapemaze. Installs llama-cpp-python's server and Gemma 3 270M outside the repository
# (scripts/setup-real.sh; the first time compiles llama.cpp, about 9 minutes), starts the
# server with Gemma's chat format (the GGUF carries no chat template: without it the model
# answers empty strings), serves the release build, and runs tests/real/ (shapemaze run on a
# small design, and the /model page on one trial). Needs `make build-release` first.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${REAL_PORT:-8199}
app_port=$((port + 1))
[ -f dist/index.html ] || { echo "test-real: dist/ is missing: run 'make build-release' first" >&2; exit 1; }
model=$(scripts/setup-real.sh)
venv=${SHAPEMAZE_REAL_DIR:-$HOME/.cache/shapemaze}/llama-venv
mkdir -p target/e2e-screenshots
# One request at a time, queued: by default this server cuts a streamed answer short when
# another request arrives (the design's two players run side by side). A context of 8192
# tokens holds a whole stepwise conversation at the test's token limit.
"$venv/bin/python" -m llama_cpp.server --model "$model" --chat_format gemma \
  --host 127.0.0.1 --port "$port" --n_ctx 8192 --interrupt_requests False \
  --model_alias gemma-3-270m > target/real-llama.log 2>&1 &
llm=$!
node scripts/serve-dist.mjs "$app_port" dist > target/real-server.log 2>&1 &
app=$!
trap 'kill $llm $app 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/v1/models" > /dev/null && break
  kill -0 $llm 2>/dev/null || { echo "test-real: the model server stopped; see target/real-llama.log" >&2; exit 1; }
  sleep 0.5
done
curl -sf "http://127.0.0.1:$port/v1/models" > /dev/null || { echo "test-real: the model server did not start in 60 s; see target/real-llama.log" >&2; exit 1; }
cargo build --quiet --bin shapemaze
SHAPEMAZE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/shapemaze" \
REAL_URL="http://127.0.0.1:$port/v1" BASE_URL="http://127.0.0.1:$app_port" \
  SCREENSHOTS="$PWD/target/e2e-screenshots" \
  node --test --test-concurrency=1 tests/real/

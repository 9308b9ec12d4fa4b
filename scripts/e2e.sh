#!/usr/bin/env bash
# End-to-end tests: serve the release build (dist/) locally beside the scripted chat
# endpoint (tests/mock-endpoint/server.mjs, one port up), run the endpoint's own tests
# (plain node), then drive Debian's Chromium with Playwright, stop both servers.
# Screenshots land in target/e2e-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8091}
mock_port=$((port + 1))
[ -f dist/index.html ] || { echo "e2e: dist/ is missing: run 'make build-release' first" >&2; exit 1; }
mkdir -p target/e2e-screenshots
node scripts/serve-dist.mjs "$port" dist > target/e2e-server.log 2>&1 &
server=$!
node tests/mock-endpoint/server.mjs "$mock_port" > target/e2e-mock-endpoint.log 2>&1 &
mock=$!
# The lab build (dist-lab/, `make build-lab`), two ports up, when it is there.
lab_port=$((port + 2))
lab=""
if [ -f dist-lab/index.html ]; then
  node scripts/serve-dist.mjs "$lab_port" dist-lab > target/e2e-lab-server.log 2>&1 &
  lab=$!
fi
trap 'kill $server $mock $lab 2>/dev/null || true' EXIT
# Wait for a server (up to 10 s), with node's fetch so no other tool is needed.
wait_for() {
  node -e '
    const [url, log] = process.argv.slice(1);
    const until = Date.now() + 10000;
    (async () => {
      while (Date.now() < until) {
        try { if ((await fetch(url)).ok) return; } catch {}
        await new Promise((r) => setTimeout(r, 100));
      }
      console.error(`e2e: the test server at ${url} did not start; see ${log}`);
      process.exit(1);
    })();
  ' "$1" "$2"
}
wait_for "http://127.0.0.1:$port/" target/e2e-server.log
wait_for "http://127.0.0.1:$mock_port/healthz" target/e2e-mock-endpoint.log
# The scripted endpoint's own tests (no browser; they start their own server on a free port).
node --test tests/mock-endpoint/
BASE_URL="http://127.0.0.1:$port" MOCK_URL="http://127.0.0.1:$mock_port" \
  SCREENSHOTS="$PWD/target/e2e-screenshots" \
  node --test --test-concurrency=1 tests/e2e/
if [ -n "$lab" ]; then
  wait_for "http://127.0.0.1:$lab_port/" target/e2e-lab-server.log
  # The command line too: one test runs a design both ways and compares the verdicts.
  cargo build --quiet --bin shapemaze
  SHAPEMAZE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/shapemaze" \
  BASE_URL="http://127.0.0.1:$lab_port" MOCK_URL="http://127.0.0.1:$mock_port" \
    SCREENSHOTS="$PWD/target/e2e-screenshots" \
    node --test --test-concurrency=1 tests/e2e-lab/
else
  echo "e2e: dist-lab/ is missing (make build-lab): the lab pages' tests were skipped" >&2
fi

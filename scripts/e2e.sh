#!/usr/bin/env bash
# End-to-end tests: serve the release build (dist/) locally beside the scripted chat
# endpoint (tests/mock-endpoint/server.mjs, one port up) and the sub-path build
# (target/dist-subpath/, `make build-subpath`) from a host that behaves like GitHub Pages (two
# ports up); run the endpoint's own tests (plain node) beside the browser tests, which drive
# Debian's Chromium with Playwright over every page; stop the servers. Screenshots land in
# target/e2e-screenshots/.
#
# The test files run in E2E_JOBS parallel workers (default 3): each file is a process of its
# own with browsers of its own (a fresh profile each, so no storage is shared), the servers
# hold no state one test could spoil for another (the scripted endpoint keys its counters
# and log by a scenario name each test makes up), and each test that starts a server of its
# own asks for a free port. Within a file, tests run one after the other.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8091}
shift || true
# Any further arguments name the test files to run (default: every file in tests/e2e/).
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/e2e/)
mock_port=$((port + 1))
pages_port=$((port + 2))
[ -f dist/index.html ] || { echo "e2e: dist/ is missing: run 'make build-release' first" >&2; exit 1; }
[ -f target/dist-subpath/index.html ] || { echo "e2e: target/dist-subpath/ is missing: run 'make build-subpath' first" >&2; exit 1; }
mkdir -p target/e2e-screenshots
node scripts/serve-dist.mjs "$port" dist > target/e2e-server.log 2>&1 &
server=$!
node tests/mock-endpoint/server.mjs "$mock_port" > target/e2e-mock-endpoint.log 2>&1 &
mock=$!
node scripts/serve-dist.mjs "$pages_port" target/dist-subpath /shapemaze/ > target/e2e-pages-server.log 2>&1 &
pages=$!
trap 'kill $server $mock $pages 2>/dev/null || true' EXIT
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
wait_for "http://127.0.0.1:$pages_port/shapemaze/" target/e2e-pages-server.log
# The scripted endpoint's and the static host's own tests (no browser; they start their own
# servers on free ports) run with the whole suite.
if [ "${files[*]}" = tests/e2e/ ]; then
  files+=(tests/mock-endpoint/ scripts/serve-dist.test.mjs scripts/make.test.mjs)
fi
# The command line too: one test runs a design both ways and compares the verdicts. The
# binary as `cargo test` builds it (`make test-native` has, so this builds nothing): a plain
# `cargo build` resolves the dependencies' features without the tests' and would build the
# core, the server's stack and the binary a second time.
cargo test --no-run --quiet
SHAPEMAZE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/shapemaze" \
BASE_URL="http://127.0.0.1:$port" MOCK_URL="http://127.0.0.1:$mock_port" \
  PAGES_URL="http://127.0.0.1:$pages_port/shapemaze" \
  SCREENSHOTS="$PWD/target/e2e-screenshots" \
  node --test --test-concurrency="${E2E_JOBS:-3}" "${files[@]}"

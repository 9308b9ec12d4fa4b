#!/usr/bin/env bash
# End-to-end tests: serve the release build (dist/) locally, drive Debian's Chromium with
# Playwright, stop the server. Screenshots land in target/e2e-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8091}
[ -f dist/index.html ] || { echo "e2e: dist/ is missing: run 'make build-release' first" >&2; exit 1; }
mkdir -p target/e2e-screenshots
node scripts/serve-dist.mjs "$port" dist > target/e2e-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
# Wait for the server (up to 10 s), with node's fetch so no other tool is needed.
node -e '
  const url = process.argv[1];
  const until = Date.now() + 10000;
  (async () => {
    while (Date.now() < until) {
      try { if ((await fetch(url)).ok) return; } catch {}
      await new Promise((r) => setTimeout(r, 100));
    }
    console.error(`e2e: the test server at ${url} did not start; see target/e2e-server.log`);
    process.exit(1);
  })();
' "http://127.0.0.1:$port/"
BASE_URL="http://127.0.0.1:$port" SCREENSHOTS="$PWD/target/e2e-screenshots" \
  node --test --test-concurrency=1 tests/e2e/

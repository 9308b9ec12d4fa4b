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
for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break
  sleep 0.1
done
BASE_URL="http://127.0.0.1:$port" SCREENSHOTS="$PWD/target/e2e-screenshots" \
  node --test --test-concurrency=1 tests/e2e/

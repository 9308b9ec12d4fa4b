#!/usr/bin/env sh
# Trunk post-build hook (Trunk.toml), run in the staging folder before it becomes dist/:
# - stamps the service worker (public/sw.js) with a hash of the built files' names (which
#   carry their content hashes), so every deploy gets a cache of its own and the old one is
#   dropped;
# - writes 404.html, a copy of the app's page: static hosts in the style of GitHub Pages
#   answer an unknown path (a deep link such as /shapemaze/study/manage) with it, and the app
#   then shows the page the address names;
# - writes FILE.br and FILE.gz beside each file of a release build (scripts/compress-dist.mjs,
#   with node), for hosts that serve precompressed files: brotli at its best setting is
#   about a fifth smaller than gzip for the wasm, which the slowest links feel.
set -eu
dir=${TRUNK_STAGING_DIR:?run by trunk}
stamp=$(ls "$dir" | sort | cksum | cut -d' ' -f1)
sed -i "s/__SHAPEMAZE_BUILD__/$stamp/" "$dir/sw.js"
cp "$dir/index.html" "$dir/404.html"
if [ "${TRUNK_PROFILE:-debug}" = release ]; then
  if command -v node >/dev/null 2>&1; then
    node "$(dirname "$0")/compress-dist.mjs" "$dir"
  else
    echo "post-build: no node on PATH, so no precompressed .br and .gz files" >&2
  fi
fi

#!/usr/bin/env sh
# Trunk post-build hook (Trunk.toml), run in the staging folder before it becomes dist/:
# - stamps the service worker (public/sw.js) with a hash of the built files' names (which
#   carry their content hashes), so every deploy gets a cache of its own and the old one is
#   dropped;
# - writes 404.html, a copy of the app's page: static hosts in the style of GitHub Pages
#   answer an unknown path (a deep link such as /shapemaze/study/manage) with it, and the app
#   then shows the page the address names.
set -eu
dir=${TRUNK_STAGING_DIR:?run by trunk}
stamp=$(ls "$dir" | sort | cksum | cut -d' ' -f1)
sed -i "s/__SHAPEMAZE_BUILD__/$stamp/" "$dir/sw.js"
cp "$dir/index.html" "$dir/404.html"

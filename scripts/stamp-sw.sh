#!/usr/bin/env sh
# Trunk post-build hook: stamps the service worker (public/sw.js) with a hash of the built
# files' names (which carry their content hashes), so every deploy gets a cache of its own
# and the old one is dropped.
set -eu
dir=${TRUNK_STAGING_DIR:?run by trunk}
stamp=$(ls "$dir" | sort | cksum | cut -d' ' -f1)
sed -i "s/__SHAPEMAZE_BUILD__/$stamp/" "$dir/sw.js"

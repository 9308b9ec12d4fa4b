#!/usr/bin/env bash
# Builds the one site from its two builds (docs/guides/developing.md, "Two builds") into one
# folder: the people's pages (index.html: the front door, /play, /demo, /study) and the lab
# (lab.html: /model, /experiment, /results, /study/manage), each its own wasm over the same
# core, so a participant's phone never downloads the lab.
#
# Usage: scripts/site.sh release|debug DIST PUBLIC_URL
#        scripts/site.sh rebase DIST PUBLIC_URL   (the release build in dist/, built for `/`,
#        written again for PUBLIC_URL into DIST: only the pages name the public URL, so
#        nothing is built twice; scripts/rebase-dist.mjs)
#
# Then, in DIST, every page has a file of its own that any static host serves as it is
# (GitHub Pages, Netlify, Cloudflare, nginx, `shapemaze serve`): index.html and
# play|demo|study/index.html are the people's page; lab.html and
# model|experiment|results|study/manage/index.html the lab's; 404.html, the people's page
# again, answers any other address (a host in the style of GitHub Pages sends it). It also
# stamps the service worker (public/sw.js) with a hash of the built files' names (which carry
# their content hashes), so a deploy gets a cache of its own, and, in a release build,
# writes FILE.br and FILE.gz beside each file (scripts/compress-dist.mjs) for hosts that
# serve precompressed files.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: scripts/site.sh release|debug|rebase DIST PUBLIC_URL}
dist=${2:?usage: scripts/site.sh release|debug|rebase DIST PUBLIC_URL}
public_url=${3:?usage: scripts/site.sh release|debug|rebase DIST PUBLIC_URL}
if [ "$mode" = rebase ]; then
  [ -f dist/index.html ] || { echo "site: rebase needs the release build in dist/: run 'make build-release' first" >&2; exit 1; }
  node scripts/rebase-dist.mjs dist "$dist" "$public_url"
  exit 0
fi
# The pages of each build, as crates/core/src/site.rs (`Build::pages`) names them.
people_pages=(play demo study)
lab_pages=(model experiment results study/manage)

flags=(--offline --public-url "$public_url")
[ "$mode" = release ] && flags+=(--release)
lab_stage=$(mktemp -d "${TMPDIR:-/tmp}/shapemaze-lab.XXXXXX")
trap 'rm -rf "$lab_stage"' EXIT

# Each page learns its wasm's size (the loading line counts the download against it).
stamp_size() {
  local wasm page
  wasm=$(find "$1" -maxdepth 1 -name "$2-*_bg.wasm" | head -n 1)
  [ -n "$wasm" ] || return 0
  for page in "$1/lab.html" "$1/index.html"; do
    [ -f "$page" ] && sed -i "s/__SHAPEMAZE_WASM_BYTES__/$(stat -c %s "$wasm")/" "$page"
  done
  return 0
}
trunk build "${flags[@]}" --dist "$lab_stage" lab.html
trunk build "${flags[@]}" --dist "$dist" index.html
stamp_size "$lab_stage" shapemaze-web
stamp_size "$dist" shapemaze-people

# The lab's built files (content-hashed names, so they never clash with the people's) and its
# page, once at the root (the service worker's copy) and once for each lab page.
find "$lab_stage" -maxdepth 1 -type f ! -name index.html ! -name lab.html -exec cp {} "$dist/" \;
[ -d "$lab_stage/snippets" ] && cp -r "$lab_stage/snippets" "$dist/"
lab_page=$lab_stage/lab.html
[ -f "$lab_page" ] || lab_page=$lab_stage/index.html
cp "$lab_page" "$dist/lab.html"
for page in "${lab_pages[@]}"; do
  mkdir -p "$dist/$page"
  cp "$lab_page" "$dist/$page/index.html"
done
for page in "${people_pages[@]}"; do
  mkdir -p "$dist/$page"
  cp "$dist/index.html" "$dist/$page/index.html"
done
cp "$dist/index.html" "$dist/404.html"

stamp=$(cd "$dist" && find . -type f | sort | cksum | cut -d' ' -f1)
sed -i "s/__SHAPEMAZE_BUILD__/$stamp/" "$dist/sw.js"

if [ "$mode" = release ]; then
  if command -v node >/dev/null 2>&1; then
    node scripts/compress-dist.mjs "$dist"
  else
    echo "site: no node on PATH, so no precompressed .br and .gz files" >&2
  fi
fi
echo "site: both builds in $dist/ for $public_url ($mode)"

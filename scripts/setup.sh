#!/usr/bin/env bash
# Installs every tool Shapemaze needs to build, serve and test, skipping each one that is
# already present at the required version. Safe to run again: a set-up machine finishes in
# seconds. Versions are pinned here and nowhere else (see docs/TOOLCHAIN.md for why).
#
# Usage: scripts/setup.sh [build|test]
#   build  what `make serve` needs: wasm target, trunk, wasm-bindgen CLI, wasm-opt
#   test   all of the above plus Chromium, chromedriver, Playwright and NumPy (default)
set -euo pipefail

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
NUMPY_VERSION=2.4.6
what=${1:-test}
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '[setup] %s\n' "$*"; }

# The tools are built for a quick build, not for speed (they take seconds of a build): no
# link-time optimisation and many codegen units, instead of trunk's own fat LTO on one unit,
# which held a fresh machine's two cores to one for minutes.
tool_build=(env CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16)

# What comes from Debian and PyPI downloads while the Rust tools compile: started first, in
# the background, and waited for at the end (each prints its own failure).
pids=()
if [ "$what" = test ]; then
  chrom=$(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}' || true)
  driver=$(/usr/bin/chromedriver --version 2>/dev/null | awk '{print $2}' || true)
  if [ -n "$chrom" ] && [ "$chrom" = "$driver" ]; then
    say "chromium $chrom and matching chromedriver: present"
  else
    # Chromium and chromedriver from Debian (Playwright's own browser download fails here).
    say "installing chromium and chromium-driver from Debian (in the background)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; } &
    pids+=($!)
  fi
  # NumPy, for the maze-file compatibility tests.
  have_np=$(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
  if [ "$have_np" = "$NUMPY_VERSION" ]; then
    say "numpy $NUMPY_VERSION: present"
  else
    say "installing numpy $NUMPY_VERSION (found: ${have_np:-none}; in the background)"
    # A Debian-managed python3 refuses plain pip installs (PEP 668); fall back to
    # --break-system-packages there (numpy is only used by the tests).
    { python3 -m pip install --quiet --disable-pip-version-check "numpy==$NUMPY_VERSION" \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "numpy==$NUMPY_VERSION"; } &
    pids+=($!)
  fi
fi

# Disk ----------------------------------------------------------------------------------
# A fresh `make test` writes about 3 GB under target/ (measured in docs/guides/developing.md,
# "Disk"); a full disk shows up mid-build as "No space left on device". Say so up front.
target_dir=${CARGO_TARGET_DIR:-$root/target}
probe=$target_dir; while [ ! -d "$probe" ]; do probe=$(dirname "$probe"); done
free_kb=$(df -Pk "$probe" | awk 'NR==2 {print $4}')
say "disk: $((free_kb / 1024 / 1024)) GB free where target/ lives ($target_dir)"
if [ "$what" = test ] && [ "$free_kb" -lt $((8 * 1024 * 1024)) ]; then
  say "warning: under 8 GB free; a fresh make test needs about 3 GB for target/ (free some, or point CARGO_TARGET_DIR at a larger disk)"
fi

# Rust target and components -----------------------------------------------------------
# (Outputs are captured first: `cmd | grep -q` can end `cmd` by SIGPIPE under pipefail.)
targets=$(rustup target list --installed)
if grep -qx wasm32-unknown-unknown <<<"$targets"; then
  say "wasm32-unknown-unknown target: present"
else
  say "adding wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
components=$(rustup component list --installed)
for comp in rustfmt clippy; do
  if grep -q "^$comp" <<<"$components"; then
    say "$comp: present"
  else
    rustup component add "$comp"
  fi
done

# trunk ---------------------------------------------------------------------------------
have_trunk=$(trunk --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_trunk" = "$TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION: present"
else
  say "installing trunk $TRUNK_VERSION (found: ${have_trunk:-none}); this takes several minutes"
  "${tool_build[@]}" cargo install trunk --version "=$TRUNK_VERSION" --locked
fi

# wasm-bindgen CLI: must equal the wasm-bindgen crate pinned in Cargo.toml -------------------
have_wb=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
have_runner=$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wb" = "$WASM_BINDGEN_VERSION" ] && [ "$have_runner" = "$WASM_BINDGEN_VERSION" ]; then
  say "wasm-bindgen-cli $WASM_BINDGEN_VERSION: present"
else
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (found: ${have_wb:-none})"
  "${tool_build[@]}" cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --locked --force \
    || "${tool_build[@]}" cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --force
fi

# Node tools: binaryen's wasm-opt (Debian's breaks release builds), playwright-core and axe-core ----
need_npm=0
for pkg in binaryen playwright-core @axe-core/playwright; do
  want=$(node -e "console.log(require('$root/package.json').devDependencies['$pkg'])")
  have=$(node -e "try{console.log(require('$root/node_modules/$pkg/package.json').version)}catch(e){console.log('')}")
  if [ "$want" = "$have" ]; then say "$pkg $want: present"; else need_npm=1; fi
done
if [ "$need_npm" = 1 ]; then
  say "installing node tools (npm ci)"
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
fi

for pid in "${pids[@]}"; do
  wait "$pid" || { say "an install in the background failed (its message is above)"; exit 1; }
done
say "done"

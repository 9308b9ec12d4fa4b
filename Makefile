# Shapemaze: every command a developer or CI needs. `make serve` and `make test` install
# whatever is missing first (scripts/setup.sh skips what is already there at the right
# version), so both work on a fresh machine.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver
E2E_PORT ?= 8091
# The path the release build is served under: `/` at a host's root, or a sub-path such as
# `/shapemaze/` for a project site (README, "Deploy").
PUBLIC_URL ?= /

# The steps of `test` depend on each other's order (setup first, e2e after the build).
.NOTPARALLEL:

.PHONY: serve test setup setup-build fmt lint test-native test-browser build-release \
        build-subpath e2e size bench check test-real test-recorded

## serve: install what is missing, then serve the whole app on http://127.0.0.1:8080 (a debug
## build in dist-serve/, never over the release build in dist/ that the tests use)
serve: setup-build
	trunk serve --dist dist-serve --address 127.0.0.1 --port 8080

## test: install what is missing, then run everything CI runs, stopping at the first failure
test: setup fmt lint test-native test-browser build-release build-subpath e2e size
	@echo "make test: all checks passed"

setup:
	scripts/setup.sh test

setup-build:
	scripts/setup.sh build

fmt:
	cargo fmt --all --check

lint:
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings

test-native:
	cargo test

test-browser:
	cargo test --target wasm32-unknown-unknown --test browser

## build-release: the release build in dist/, for PUBLIC_URL (default /)
build-release:
	trunk build --release --offline --public-url "$(PUBLIC_URL)"

## build-subpath: the release build for /shapemaze/ in target/dist-subpath/ (the e2e test of
## a static host that serves the site under a sub-path)
build-subpath:
	trunk build --release --offline --public-url /shapemaze/ --dist target/dist-subpath

e2e:
	scripts/e2e.sh $(E2E_PORT)

## size: the release build's wasm + js + css, gzipped (a 1 MB tripwire, not a budget: the
## budget is the load time, `make bench`)
size:
	scripts/size.sh

## test-real: opt-in, not part of `test`: a real small model (Gemma 3 270M on llama.cpp's
## server, installed outside the repository; the first time compiles llama.cpp, ~9 min)
## plays a small design with `shapemaze run` and one trial on /model (tests/real/)
test-real: setup build-release
	scripts/test-real.sh

## test-recorded: opt-in, not part of `test`: the readers held to the design's own recorded
## runs (hokindeng/KnowWhat, fetched by you, never committed): SHAPEMAZE_RECORDED=DIR, the
## study's data/ folder (tests/recorded.rs, docs/guides/results-and-audits.md)
test-recorded:
	@test -n "$${SHAPEMAZE_RECORDED:-}" || { echo "make test-recorded: set SHAPEMAZE_RECORDED to the recorded study's data/ folder (see tests/recorded.rs and docs/guides/results-and-audits.md)" >&2; exit 2; }
	cargo test --test recorded -- --nocapture

## bench: the speed budgets (see README): native, browser, and each page's load time on Fast
## and Slow 4G, cold and warm (scripts/bench-load.mjs, written to docs/size.md)
bench:
	scripts/bench.sh

## check: the quick loop (format, lints, native tests), no browser
check: fmt lint test-native

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
        build-subpath check-builds e2e size bench check test-real test-recorded test-eee

## serve: install what is missing, then build both of the site's builds (the people's pages
## and the lab, scripts/site.sh) in debug and serve them on http://127.0.0.1:8080, with the
## DashScope proxies (a debug build in dist-serve/, never over the release build in dist/ that
## the tests use; run it again after a change)
serve: setup-build
	scripts/site.sh debug dist-serve /
	node scripts/serve-dist.mjs 8080 dist-serve / --proxy

## test: install what is missing, then run everything CI runs, stopping at the first failure
test: setup fmt lint test-native test-browser build-release check-builds build-subpath e2e size
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
	cargo clippy --target wasm32-unknown-unknown -p shapemaze-web --bin shapemaze-people --features people -- -D warnings

test-native:
	cargo test

test-browser:
	cargo test --target wasm32-unknown-unknown --test browser

## build-release: the release build of both builds in one dist/, for PUBLIC_URL (default /)
build-release:
	scripts/site.sh release dist "$(PUBLIC_URL)"

## check-builds: the people's wasm links none of the lab's code (scripts/check-builds.sh)
check-builds:
	scripts/check-builds.sh

## build-subpath: the release build for /shapemaze/ in target/dist-subpath/ (the e2e test of
## a static host that serves the site under a sub-path), written from dist/ (`make
## build-release`): only its pages name the public URL, so nothing is built again
build-subpath:
	scripts/site.sh rebase target/dist-subpath /shapemaze/

## e2e: every browser test; `make e2e E2E_FILES=tests/e2e/play.test.mjs` runs only those files
e2e:
	scripts/e2e.sh $(E2E_PORT) $(E2E_FILES)

## size: each build's page, wasm and js, gzipped (tripwires of 512 KB for the people's
## build and 1 MB for the lab's, not budgets: the budget is the load time, `make bench`)
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

## test-eee: opt-in, not part of `test`: `shapemaze export --format every-eval-ever` of an
## oracle-and-random run validated against Every Eval Ever's published schemas:
## SHAPEMAZE_EEE_SCHEMAS=DIR, a folder holding eval.schema.json and
## instance_level_eval.schema.json (evaleval/every_eval_ever, every_eval_ever/schemas/;
## fetched by you, never committed). `test` validates it against our own fixture schemas.
test-eee:
	@test -n "$${SHAPEMAZE_EEE_SCHEMAS:-}" || { echo "make test-eee: set SHAPEMAZE_EEE_SCHEMAS to a folder holding Every Eval Ever's eval.schema.json and instance_level_eval.schema.json (see docs/cli.md, shapemaze export)" >&2; exit 2; }
	cargo test -p shapemaze-cli --test every_eval_ever -- --nocapture published_schemas

## bench: the speed budgets (see README): native, browser, and each page's load time on Fast
## and Slow 4G, cold and warm (scripts/bench-load.mjs, written to docs/size.md)
bench:
	scripts/bench.sh

## check: the quick loop (format, lints, native tests), no browser
check: fmt lint test-native

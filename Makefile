# Shapemaze: every command a developer or CI needs. `make serve` and `make test` install
# whatever is missing first (scripts/setup.sh skips what is already there at the right
# version), so both work on a fresh machine.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver
E2E_PORT ?= 8091

# The steps of `test` depend on each other's order (setup first, e2e after the build).
.NOTPARALLEL:

.PHONY: serve serve-lab test setup setup-build fmt lint test-native test-browser build-release \
        build-lab e2e size bench check

## serve: install what is missing, then serve the app on http://127.0.0.1:8080
serve: setup-build
	trunk serve --address 127.0.0.1 --port 8080

## serve-lab: the lab build (every page, /experiment included) on http://127.0.0.1:8081
serve-lab: setup-build
	trunk serve --features lab --dist dist-lab --address 127.0.0.1 --port 8081

## test: install what is missing, then run everything CI runs, stopping at the first failure
test: setup fmt lint test-native test-browser build-release build-lab e2e size
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
	cargo clippy --target wasm32-unknown-unknown --features lab --bin shapemaze-web -- -D warnings

test-native:
	cargo test

test-browser:
	cargo test --target wasm32-unknown-unknown --test browser

build-release:
	trunk build --release --offline

## build-lab: the lab build in dist-lab/ (the pages beyond the 250 KB budget; docs/size.md)
build-lab:
	trunk build --release --offline --features lab --dist dist-lab

e2e:
	scripts/e2e.sh $(E2E_PORT)

## size: the release build's wasm + js + css, gzipped (budget: 250 KB for the whole app)
size:
	scripts/size.sh

## bench: the native speed budgets (see README)
bench:
	scripts/bench.sh

## check: the quick loop (format, lints, native tests), no browser
check: fmt lint test-native

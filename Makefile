# SoundStation: the two commands are `make run` and `make test`.
SWIFT ?= swift
SWIFT_TEST_FLAGS ?=

.PHONY: run test unit e2e build bench assets lint format docs deps test-deps clean

## run: install what is missing, build, and play the catalogue's music on the default device
run: deps
	$(SWIFT) build -c release --product soundstation
	.build/release/soundstation play --seconds 30 0:music:main

## test: unit tests and CLI end-to-end checks, with a private PulseAudio server
test: test-deps
	Scripts/with-pulse.sh $(MAKE) --no-print-directory unit e2e

unit:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(SWIFT_TEST_FLAGS)

e2e:
	$(SWIFT) build
	Scripts/e2e.sh .build/debug
	Scripts/e2e-voicenote.sh .build/debug

build: deps
	$(SWIFT) build

## bench: release-build benchmarks (see README, Performance)
bench: test-deps
	Scripts/install-deps.sh bench
	Scripts/with-pulse.sh Scripts/bench.sh

## assets: re-synthesise Assets/ from code (deterministic)
assets: deps
	$(SWIFT) run -c release soundstation-assets Assets

## lint: swift format in strict mode over the whole tree
lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Examples

format:
	$(SWIFT) format format --in-place --recursive Package.swift Sources Tests Examples

## docs: the DocC catalogue and API reference, into .build/docs
docs: deps
	mkdir -p .build/symbol-graphs
	$(SWIFT) build --target SoundStation -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc .build/symbol-graphs
	docc convert Sources/SoundStation/SoundStation.docc --additional-symbol-graph-dir .build/symbol-graphs \
		--fallback-display-name SoundStation --fallback-bundle-identifier soundstation --output-path .build/docs

deps:
	Scripts/install-deps.sh build

test-deps:
	Scripts/install-deps.sh test

clean:
	rm -rf .build

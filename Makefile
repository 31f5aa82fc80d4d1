# SoundStation: the two commands are `make run` and `make test`.
SWIFT ?= swift
SWIFT_TEST_FLAGS ?=

.PHONY: run test unit e2e e2e-pytest e2e-scripts e2e-bindings e2e-capi bindings example-c example-python install install-lib install-bin uninstall build bench size dist dist-test assets fuzz soak tsan asan lint format docs deps test-deps clean

## run: install what is missing, build, and play the Starfall demo (window with a display, else terminal)
run: deps
	$(SWIFT) build -c release --product starfall
	.build/release/starfall

## test: unit tests and CLI end-to-end checks, with a private PulseAudio server
# The decoded-sound cache goes to a fresh folder for each run, so a decoder changed since the last run
# is always heard (the cache's key is the file's bytes and the library's version, not its code).
test: test-deps
	cache=$$(mktemp -d /tmp/soundstation-pcm.XXXXXX) && \
		SOUNDSTATION_PCM_CACHE=$$cache Scripts/with-pulse.sh $(MAKE) --no-print-directory unit e2e; \
		status=$$?; rm -rf "$$cache"; exit $$status

# The suites that load the whole machine on purpose (100,000 catalogue entries preloaded, thousands
# of engines opened and closed in child processes) run after the others, on their own: run beside
# them, a preload of 100,000 entries kept Swift's concurrency pool busy for a minute and a half, and
# every test waiting on that pool with a deadline (the remote player's budget) waited past it.
HEAVY_SUITES = SharedDecodeTests|GrowthTests
unit:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(HEAVY_SUITES)' $(SWIFT_TEST_FLAGS)
	$(SWIFT) test --skip-build --filter '$(HEAVY_SUITES)' $(SWIFT_TEST_FLAGS)

# Three lanes side by side, as most of their time is spent waiting on sound played in real time
# (and the third, the bindings' builds and valgrind, on the CPU the other two leave): Tests/E2E under
# pytest (Debian's python3-pytest) on E2E_WORKERS workers (python3-pytest-xdist; one file's tests stay
# in order on one worker, and each worker starts its own PulseAudio server, sshd and tmux); the bash
# checks of the C library and Python package installed, fed sounds and the size guard, on the server
# of `make test`; the Rust and Go bindings. Each lane's output is printed whole when it ends (make -O).
# E2E_PYTEST_FLAGS adds pytest options (-k NAME, -x); E2E_WORKERS=0 runs pytest in one process,
# E2E_JOBS=1 runs one lane at a time. Side by side is the default (on an idle two-core machine make e2e
# takes 3 min 10-25 s instead of about 8): the checks of sound played in real time hold beside each
# other since the test sound servers run real-time (Docs/Testing.md, "A fed tone under two busy loops").
E2E_PYTEST_FLAGS ?=
E2E_WORKERS ?= 2
E2E_JOBS ?= 3
E2E_XDIST = $(if $(filter 0,$(E2E_WORKERS)),,-n $(E2E_WORKERS) --dist loadfile)
e2e:
	$(SWIFT) build
	@echo "e2e: pytest Tests/E2E, the bash checks and the bindings, $(E2E_JOBS) lane(s) at a time; each prints its report when it ends"
	$(MAKE) --no-print-directory -j$(E2E_JOBS) --output-sync=target e2e-pytest e2e-scripts e2e-bindings

e2e-pytest:
	SOUNDSTATION_BIN=.build/debug /usr/bin/python3 -m pytest -p no:cacheprovider -q -rfExX --durations=15 \
		$(E2E_XDIST) Tests/E2E $(E2E_PYTEST_FLAGS)

# Every script runs, whichever failed before it, so one run shows every failure.
e2e-scripts:
	status=0; \
	for check in "Scripts/e2e-capi.sh .build/debug" "Scripts/e2e-feed.sh .build/debug" \
		"Scripts/size.sh --guard .build/debug"; do \
		echo "== $$check"; $$check || { echo "FAILED: $$check"; status=1; }; \
	done; exit $$status

# Niced: the bindings' lane is builds and valgrind, work that can wait, beside lanes that check sound
# played in real time.
e2e-bindings:
	nice -n 10 Scripts/test-bindings.sh .build/debug

## bindings: cargo test and go test of bindings/rust and bindings/go on the installed library, and
## their example games
bindings:
	$(SWIFT) build --product SoundStationC
	Scripts/test-bindings.sh .build/debug

## e2e-capi: the C library and the Python package, installed into a temporary prefix and used as a game would
e2e-capi:
	$(SWIFT) build --product SoundStationC
	Scripts/e2e-capi.sh .build/debug

## example-c: build the curses game Catch (Examples/CursesC) against the installed library (pkg-config),
## else the in-tree one, and play it (EXAMPLE_FLAGS="--autoplay --frames 300 --output silent" etc.)
EXAMPLE_FLAGS ?=
EXAMPLE_DIR = .build/examples

example-c:
	mkdir -p $(EXAMPLE_DIR)
	if pkg-config --exists soundstation; then \
		cc -std=c99 -Wall -Wextra -O2 -o $(EXAMPLE_DIR)/catch Examples/CursesC/catch.c \
			$$(pkg-config --cflags --libs soundstation) -Wl,-rpath,$$(pkg-config --variable=libdir soundstation) -lncurses; \
	else \
		$(SWIFT) build --product SoundStationC && mkdir -p $(EXAMPLE_DIR)/lib && \
		ln -sf $(CURDIR)/.build/debug/libSoundStationC.so $(EXAMPLE_DIR)/lib/libsoundstation.so.1 && \
		ln -sf libsoundstation.so.1 $(EXAMPLE_DIR)/lib/libsoundstation.so && \
		cc -std=c99 -Wall -Wextra -O2 -o $(EXAMPLE_DIR)/catch Examples/CursesC/catch.c -ISources/CSoundStation/include \
			-L$(EXAMPLE_DIR)/lib -lsoundstation -Wl,-rpath,$(CURDIR)/$(EXAMPLE_DIR)/lib -lncurses; \
	fi
	$(EXAMPLE_DIR)/catch $(EXAMPLE_FLAGS)

## example-python: play the curses game Snake (Examples/CursesPython) with the installed soundstation package
## and library, else python/ and the in-tree library
example-python:
	if python3 -c 'import soundstation; soundstation.Engine("silent").close()' 2>/dev/null; then \
		python3 Examples/CursesPython/snake.py $(EXAMPLE_FLAGS); \
	else \
		$(SWIFT) build --product SoundStationC && \
		PYTHONPATH=$(CURDIR)/python SOUNDSTATION_LIBRARY=$(CURDIR)/.build/debug/libSoundStationC.so \
			python3 Examples/CursesPython/snake.py $(EXAMPLE_FLAGS); \
	fi

## install: install-lib and install-bin into $(DESTDIR)$(PREFIX)
# (CONFIG=debug installs the debug build of the library: what the tests use, as it is built anyway)
PREFIX ?= /usr/local
DESTDIR ?=
CONFIG ?= release
SS_VERSION = 1.0.0
# Where the library goes; the Debian packages use /usr/lib/x86_64-linux-gnu.
LIBDIR ?= $(PREFIX)/lib
SS_LIBDIR = $(DESTDIR)$(LIBDIR)
SS_CLIS = soundstation soundstation-assets voicenote starfall
# The pkg-config file's Libs carry -Wl,-rpath,LIBDIR unless LIBDIR is one the loader searches anyway,
# so a game built with `pkg-config --libs soundstation` runs without LD_LIBRARY_PATH or ldconfig.
SS_SYSTEM_LIBDIRS = /usr/lib /lib /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu
SS_RPATH = $(if $(filter $(LIBDIR),$(SS_SYSTEM_LIBDIRS)),,-Wl,-rpath,$${libdir})
# A release library is built with the CLIs' flags (its link flags put the runtime inside anyway), so
# install-lib and install-bin share one build instead of rebuilding each other's modules.
SS_STATIC = $(if $(filter release,$(CONFIG)),--static-swift-stdlib)

install: install-lib install-bin

## install-lib: what a C, Python, Rust or Go game needs: libsoundstation.so.1 (8 MB, the Swift runtime
## inside), soundstation.h and soundstation.pc (with the rpath), into $(DESTDIR)$(PREFIX)
install-lib:
	$(SWIFT) build -c $(CONFIG) $(SS_STATIC) --product SoundStationC
	install -d $(SS_LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 .build/$(CONFIG)/libSoundStationC.so $(SS_LIBDIR)/libsoundstation.so.$(SS_VERSION)
	strip --strip-unneeded -R .comment $(SS_LIBDIR)/libsoundstation.so.$(SS_VERSION)
	ln -sf libsoundstation.so.$(SS_VERSION) $(SS_LIBDIR)/libsoundstation.so.1
	ln -sf libsoundstation.so.1 $(SS_LIBDIR)/libsoundstation.so
	install -m 644 Sources/CSoundStation/include/soundstation.h $(DESTDIR)$(PREFIX)/include/soundstation.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(SS_VERSION)|' \
		-e 's|@RPATH@|$(SS_RPATH)|' Sources/CSoundStation/soundstation.pc.in >$(SS_LIBDIR)/pkgconfig/soundstation.pc
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" -eq 0 ]; then ldconfig; fi

## install-bin: the CLIs and Starfall (each with the Swift runtime linked in, stripped) into
## $(DESTDIR)$(PREFIX)/bin, and the demo's assets into $(PREFIX)/share/soundstation/Assets
install-bin:
	for p in $(SS_CLIS); do $(SWIFT) build -c $(CONFIG) --static-swift-stdlib --product $$p || exit 1; done
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/soundstation
	for p in $(SS_CLIS); do install -m 755 .build/$(CONFIG)/$$p $(DESTDIR)$(PREFIX)/bin/$$p && \
		strip --strip-unneeded -R .comment $(DESTDIR)$(PREFIX)/bin/$$p || exit 1; done
	rm -rf $(DESTDIR)$(PREFIX)/share/soundstation/Assets
	cp -R Assets $(DESTDIR)$(PREFIX)/share/soundstation/Assets
	chmod -R u=rwX,go=rX $(DESTDIR)$(PREFIX)/share/soundstation/Assets

uninstall:
	rm -f $(SS_LIBDIR)/libsoundstation.so $(SS_LIBDIR)/libsoundstation.so.1 \
		$(SS_LIBDIR)/libsoundstation.so.$(SS_VERSION) $(SS_LIBDIR)/pkgconfig/soundstation.pc \
		$(DESTDIR)$(PREFIX)/include/soundstation.h
	for p in $(SS_CLIS); do rm -f $(DESTDIR)$(PREFIX)/bin/$$p; done
	rm -rf $(DESTDIR)$(PREFIX)/share/soundstation

## size: the installed (stripped) sizes of the library and each CLI against their budgets (8 and 12 MiB)
size: deps
	Scripts/size.sh

## dist: into dist/: the Python wheel (the library inside), the Debian packages libsoundstation1,
## libsoundstation-dev and soundstation-tools (checked with lintian), and the source tarball
dist: deps
	Scripts/install-deps.sh dist
	Scripts/dist.sh

## dist-test: install dist/'s packages into a clean Debian 12 root (debootstrap, cached in
## ~/.cache/soundstation) where no Swift toolchain has been: a C game and a Python game render a sound
dist-test:
	Scripts/install-deps.sh dist
	Scripts/dist-test.sh

build: deps
	$(SWIFT) build

## bench: release-build benchmarks (see Docs/Performance.md)
bench: test-deps
	Scripts/install-deps.sh bench
	Scripts/with-pulse.sh Scripts/bench.sh

## assets: re-synthesise Assets/ from code (deterministic)
assets: deps
	$(SWIFT) run -c release soundstation-assets Assets

## fuzz: libFuzzer on the WAV decoder, every format decoder and the manifest/cue parsers (FUZZ_SECONDS each, default 60)
fuzz: deps
	Scripts/fuzz.sh $(FUZZ_SECONDS)

## soak: minutes of scene switches and effect storms on the device (SOAK_SECONDS, default 300)
soak: test-deps
	SOUNDSTATION_SOAK_SECONDS=$${SOAK_SECONDS:-300} Scripts/with-pulse.sh $(SWIFT) test --filter SoakTests

## tsan / asan: the test suite under ThreadSanitizer / AddressSanitizer
tsan: test-deps
	SOUNDSTATION_SANITIZE=1 Scripts/with-pulse.sh $(SWIFT) test --sanitize=thread --scratch-path .build/tsan

asan: test-deps
	SOUNDSTATION_SANITIZE=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Scripts/lsan.supp Scripts/with-pulse.sh $(SWIFT) test --sanitize=address --scratch-path .build/asan

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

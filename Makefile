# SoundStation: the two commands are `make run` and `make test`.
SWIFT ?= swift
SWIFT_TEST_FLAGS ?=

.PHONY: run test unit e2e e2e-capi example-c example-python install install-lib install-bin uninstall build bench assets fuzz soak tsan asan lint format docs deps test-deps clean

## run: install what is missing, build, and play the Starfall demo (window with a display, else terminal)
run: deps
	$(SWIFT) build -c release --product starfall
	.build/release/starfall

## test: unit tests and CLI end-to-end checks, with a private PulseAudio server
test: test-deps
	Scripts/with-pulse.sh $(MAKE) --no-print-directory unit e2e

unit:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(SWIFT_TEST_FLAGS)

e2e:
	$(SWIFT) build
	Scripts/e2e.sh .build/debug
	Scripts/e2e-starfall.sh .build/debug
	Scripts/e2e-voicenote.sh .build/debug
	Scripts/e2e-capi.sh .build/debug
	Scripts/e2e-quiet.sh .build/debug
	Scripts/e2e-ssh.sh .build/debug

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
		ln -sf $(CURDIR)/.build/debug/libSoundStationC.so $(EXAMPLE_DIR)/lib/libsoundstation.so.0 && \
		ln -sf libsoundstation.so.0 $(EXAMPLE_DIR)/lib/libsoundstation.so && \
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

## install: the C library, its header and pkg-config file, and the CLIs into $(DESTDIR)$(PREFIX)
# (CONFIG=debug installs the debug build of the library: what the tests use, as it is built anyway)
PREFIX ?= /usr/local
DESTDIR ?=
CONFIG ?= release
SS_VERSION = 0.1.0
SS_LIBDIR = $(DESTDIR)$(PREFIX)/lib
SS_CLIS = soundstation soundstation-assets voicenote starfall

install: install-lib install-bin

install-lib:
	$(SWIFT) build -c $(CONFIG) --product SoundStationC
	install -d $(SS_LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 .build/$(CONFIG)/libSoundStationC.so $(SS_LIBDIR)/libsoundstation.so.$(SS_VERSION)
	strip --strip-unneeded $(SS_LIBDIR)/libsoundstation.so.$(SS_VERSION)
	ln -sf libsoundstation.so.$(SS_VERSION) $(SS_LIBDIR)/libsoundstation.so.0
	ln -sf libsoundstation.so.0 $(SS_LIBDIR)/libsoundstation.so
	install -m 644 Sources/CSoundStation/include/soundstation.h $(DESTDIR)$(PREFIX)/include/soundstation.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(SS_VERSION)|' Sources/CSoundStation/soundstation.pc.in \
		>$(SS_LIBDIR)/pkgconfig/soundstation.pc
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" -eq 0 ]; then ldconfig; fi

# The CLIs carry the Swift runtime inside them too (--static-swift-stdlib).
install-bin:
	for p in $(SS_CLIS); do $(SWIFT) build -c $(CONFIG) --static-swift-stdlib --product $$p || exit 1; done
	install -d $(DESTDIR)$(PREFIX)/bin
	for p in $(SS_CLIS); do install -m 755 .build/$(CONFIG)/$$p $(DESTDIR)$(PREFIX)/bin/$$p; done

uninstall:
	rm -f $(SS_LIBDIR)/libsoundstation.so $(SS_LIBDIR)/libsoundstation.so.0 \
		$(SS_LIBDIR)/libsoundstation.so.$(SS_VERSION) $(SS_LIBDIR)/pkgconfig/soundstation.pc \
		$(DESTDIR)$(PREFIX)/include/soundstation.h
	for p in $(SS_CLIS); do rm -f $(DESTDIR)$(PREFIX)/bin/$$p; done

build: deps
	$(SWIFT) build

## bench: release-build benchmarks (see README, Performance)
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

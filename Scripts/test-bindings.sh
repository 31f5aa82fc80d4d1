#!/usr/bin/env bash
# The Rust and Go bindings on the library as a game gets it: `make install-lib` into a prefix under
# .build (the debug build `make test` has made), then, with only that prefix's pkg-config file (the
# rpath in it finds the library at run time):
#   - every function, error code, event kind and enum value of soundstation.h in the Python, Rust
#     and Go bindings (Tests/Bindings/test_header_parity.py);
#   - `cargo test --release` (struct layouts against a C compiler's, offline renders, errors), then
#     the release test binary under valgrind (zero errors), `cargo package --offline`, and the
#     example game for 120 frames;
#   - `go vet`, `go test` (layouts, renders, errors) and the Go example game;
#   - the READMEs' Rust and Go programs built from a folder outside the repository as the READMEs
#     say and run with no sound server (Tests/Bindings/readme_examples.py), then each once more under
#     valgrind (one build for both runs).
# Usage: Scripts/test-bindings.sh [BUILD_DIR]   (default .build/debug)
set -uo pipefail
config=$(basename "${1:-.build/debug}")
root=$(cd "$(dirname "$0")/.." && pwd)
prefix="$root/.build/bindings/prefix"
status=0
step() { # step NAME COMMAND...: runs it, prints ok/FAIL with its output on failure
    local name=$1 started=$SECONDS log
    shift
    log=$(mktemp)
    if "$@" >"$log" 2>&1; then
        echo "ok   $name ($((SECONDS - started)) s)"
    else
        echo "FAIL $name"
        sed 's/^/     /' "$log" | tail -60
        status=1
    fi
    rm -f "$log"
}
rm -rf "$prefix"
step "make install-lib into $prefix (CONFIG=$config)" make -s -C "$root" install-lib CONFIG="$config" PREFIX="$prefix"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
unset LD_LIBRARY_PATH
export CARGO_TARGET_DIR="$root/.build/cargo" CARGO_NET_OFFLINE=true
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOCACHE="$root/.build/go-cache"
export CONFIG="$config" # the library build the READMEs' `make install-lib` line installs
# Valgrind: errors fail the run; the suppressions name the Swift runtime's and Go's own reports
# (Scripts/valgrind.supp says which and why). They match by function name, so valgrind runs load the
# same build of the library with its symbols kept (install-lib strips them) and its DWARF 5 debug
# sections dropped (valgrind 3.19 cannot read them), through LD_LIBRARY_PATH.
symbols="$root/.build/bindings/valgrind-lib"
mkdir -p "$symbols"
strip --strip-debug -o "$symbols/libsoundstation.so.1" "$root/.build/$config/libSoundStationC.so"
export VALGRIND_LD_LIBRARY_PATH="$symbols"
valgrind=(env LD_LIBRARY_PATH="$symbols" valgrind --error-exitcode=1 --quiet --leak-check=no
    --suppressions="$root/Scripts/valgrind.supp")
rust=(--offline --manifest-path "$root/bindings/rust/Cargo.toml")

step "the Python, Rust and Go bindings hold every function, code, event kind and enum value of soundstation.h" \
    python3 -m pytest -q -p no:cacheprovider "$root/Tests/Bindings/test_header_parity.py"

step "cargo test --release (bindings/rust)" cargo test --release --quiet "${rust[@]}"
rust_tests() { # the release test binaries cargo built, one path a line
    cargo test --release --no-run "${rust[@]}" 2>&1 | sed -n 's/.*Executable .*(\(.*\))$/\1/p'
}
valgrind_rust_tests() {
    local binaries
    binaries=$(rust_tests)
    [ -n "$binaries" ] || { echo "no test binary found"; return 1; }
    for binary in $binaries; do
        echo "== $binary"
        # Each test on its own thread, one at a time: valgrind runs threads one by one anyway.
        "${valgrind[@]}" "$binary" --test-threads=1 || return 1
    done
}
step "the Rust release tests under valgrind: zero errors" valgrind_rust_tests
step "cargo package --offline (the crate as it would be published)" sh -c "
    cargo package --offline --allow-dirty --manifest-path '$root/bindings/rust/Cargo.toml' --target-dir '$CARGO_TARGET_DIR/package' &&
    cargo package --offline --allow-dirty --list --manifest-path '$root/bindings/rust/Cargo.toml' | tee /dev/stderr |
        grep -qx 'src/sys.rs'"
step "the Rust example game plays 120 frames unattended (release)" sh -c "
    cargo build --release --quiet ${rust[*]} --example catch &&
    '$CARGO_TARGET_DIR/release/examples/catch' --autoplay --frames 120 --output silent --assets '$root/Assets' </dev/null"

step "go vet, go test (bindings/go)" sh -c "cd '$root/bindings/go' && go vet ./... && go test -count=1 ./..."
step "the Go example game plays 120 frames unattended" sh -c "cd '$root/bindings/go' &&
    go run ./examples/catch --autoplay --frames 120 --output silent --assets '$root/Assets' </dev/null"

step "the READMEs hold the Rust and Go programs of bindings/*/examples as they are" python3 - "$root" <<'PY'
import sys
root = sys.argv[1]
for readme, path in [("README.md", "bindings/rust/examples/hello.rs"), ("README.md", "bindings/go/examples/hello/main.go"),
                     ("bindings/rust/README.md", "bindings/rust/examples/hello.rs"),
                     ("bindings/go/README.md", "bindings/go/examples/hello/main.go")]:
    text = open(f"{root}/{readme}").read()
    assert open(f"{root}/{path}").read().rstrip() in text, f"{readme}'s copy of {path} differs"
PY
# Each program is built once and run twice, plainly and under valgrind. Go's test binary is not run
# under valgrind: valgrind does not model goroutine stacks, and reports thousands of invalid reads
# and writes in plain Go code (each test function, runtime.mallocgc). The Go program, whose C calls
# are the binding's, runs clean with the two Go suppressions.
step "the READMEs' Rust and Go programs, built outside the repository as written, run with no sound server, and under valgrind with zero errors" \
    python3 "$root/Tests/Bindings/readme_examples.py" --valgrind rust go
exit $status

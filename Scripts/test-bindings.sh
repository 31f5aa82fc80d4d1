#!/usr/bin/env bash
# The Rust and Go bindings on the library as a game gets it: `make install-lib` into a prefix under
# .build (the debug build `make test` has made), then `cargo test` and `go test` with only that
# prefix's pkg-config file (the rpath in it finds the library at run time), and their example games
# built and played unattended for a few frames.
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
step "cargo test (bindings/rust)" cargo test --offline --quiet --manifest-path "$root/bindings/rust/Cargo.toml"
step "the Rust example game plays 120 frames unattended" sh -c "cargo build --offline --quiet --manifest-path '$root/bindings/rust/Cargo.toml' --example catch &&
    '$CARGO_TARGET_DIR/debug/examples/catch' --autoplay --frames 120 --output silent --assets '$root/Assets' </dev/null"
step "the README's Rust program runs" sh -c "cargo build --offline --quiet --manifest-path '$root/bindings/rust/Cargo.toml' --example hello &&
    cd '$root' && '$CARGO_TARGET_DIR/debug/examples/hello' | grep -q 'Started reward'"
step "go vet, go test (bindings/go)" sh -c "cd '$root/bindings/go' && go vet ./... && go test -count=1 ./..."
step "the Go example game plays 120 frames unattended" sh -c "cd '$root/bindings/go' &&
    go run ./examples/catch --autoplay --frames 120 --output silent --assets '$root/Assets' </dev/null"
step "the README's Go program runs" sh -c "cd '$root/bindings/go' && go build -o '$root/.build/bindings/hello-go' ./examples/hello &&
    cd '$root' && .build/bindings/hello-go | grep -q '^started reward'"
step "the READMEs hold the Rust and Go programs as they are" python3 - "$root" <<'PY'
import sys
root = sys.argv[1]
for readme, path in [("README.md", "bindings/rust/examples/hello.rs"), ("README.md", "bindings/go/examples/hello/main.go"),
                     ("bindings/rust/README.md", "bindings/rust/examples/hello.rs"),
                     ("bindings/go/README.md", "bindings/go/examples/hello/main.go")]:
    text = open(f"{root}/{readme}").read()
    assert open(f"{root}/{path}").read().rstrip() in text, f"{readme}'s copy of {path} differs"
PY
exit $status

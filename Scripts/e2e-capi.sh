#!/usr/bin/env bash
# The C library and the Python package as a game author uses them: `make install` into a temporary
# prefix, a C program built with pkg-config and run with the Swift toolchain out of the loader's way,
# the header in C99 and C++, the exported symbols, `pip install` and pytest.
# Usage: Scripts/e2e-capi.sh [BUILD_DIR]   (BUILD_DIR .build/debug installs the debug library: no
# release build; .build/release installs the release one)
set -uo pipefail
config=$(basename "${1:-.build/debug}")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/soundstation-capi.XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$root/Scripts/e2e-lib.sh"
prefix="$work/prefix"
header="$root/Sources/CSoundStation/include/soundstation.h"
# What a game sees: no Swift toolchain on PATH or in LD_LIBRARY_PATH, the prefix's pkg-config file.
game_env=(env -i HOME="$HOME" PATH=/usr/local/bin:/usr/bin:/bin PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
    LD_LIBRARY_PATH="$prefix/lib" ${PULSE_SERVER:+PULSE_SERVER=$PULSE_SERVER})

install_into_prefix() {
    make -s -C "$root" install-lib CONFIG="$config" PREFIX="$prefix" || return 1
    [ "$(readlink "$prefix/lib/libsoundstation.so")" = libsoundstation.so.0 ] || return 1
    [ "$(readlink "$prefix/lib/libsoundstation.so.0")" = libsoundstation.so.0.1.0 ] || return 1
    readelf -d "$prefix/lib/libsoundstation.so.0.1.0" | grep -q 'SONAME.*\[libsoundstation.so.0\]' || return 1
    grep -qx "prefix=$prefix" "$prefix/lib/pkgconfig/soundstation.pc"
}

destdir_and_uninstall() {
    local stage="$work/stage"
    make -s -C "$root" install-lib CONFIG="$config" PREFIX=/usr DESTDIR="$stage" || return 1
    for f in lib/libsoundstation.so lib/libsoundstation.so.0 lib/libsoundstation.so.0.1.0 \
        lib/pkgconfig/soundstation.pc include/soundstation.h; do
        [ -e "$stage/usr/$f" ] || { echo "missing $f"; return 1; }
    done
    grep -qx 'prefix=/usr' "$stage/usr/lib/pkgconfig/soundstation.pc" || return 1
    make -s -C "$root" uninstall PREFIX=/usr DESTDIR="$stage" || return 1
    local left
    left=$(find "$stage" -type f -o -type l)
    [ -z "$left" ] || { echo "left behind: $left"; return 1; }
}

header_c99() { cc -Wall -Wextra -Werror -pedantic -std=c99 -fsyntax-only -x c "$header"; }
header_cxx() { g++ -Wall -Wextra -Werror -pedantic -std=c++11 -fsyntax-only -x c++ "$header"; }

exports_match_header() { # every function of the header is exported, and nothing else is
    grep -oE '\bss_[a-z_]+\(' "$header" | tr -d '(' | sort -u >"$work/declared"
    nm -D --defined-only "$prefix/lib/libsoundstation.so" | awk '$2 ~ /^[A-Z]$/ && $2 != "A" {print $3}' |
        sed 's/@.*//' | sort -u >"$work/exported"
    diff "$work/declared" "$work/exported" && echo "$(wc -l <"$work/declared") functions"
}

build_game() { # the C tests, built as a game would be
    "${game_env[@]}" sh -c "cc -Wall -Wextra -Werror -std=c99 -o '$work/capi_test' '$root/Tests/CAPI/capi_test.c' \
        \$(pkg-config --cflags --libs soundstation) -lm -lpthread"
}

nothing_from_the_toolchain() {
    "${game_env[@]}" ldd "$work/capi_test" >"$work/ldd" || return 1
    cat "$work/ldd"
    ! grep -qE 'not found|/opt/swift|swift' "$work/ldd" && grep -q "$prefix/lib/libsoundstation.so.0" "$work/ldd"
}

c_tests() { "${game_env[@]}" "$work/capi_test" "$root/Assets"; }

readme_c_example() { # Examples/C/hello.c, the README's C example, built and run
    "${game_env[@]}" sh -c "cc -std=c99 -o '$work/hello' '$root/Examples/C/hello.c' \$(pkg-config --cflags --libs soundstation)" \
        || return 1
    (cd "$root" && "${game_env[@]}" "$work/hello")
}

python_package() { # pip install into a fresh virtual environment, then pytest
    python3 -m venv --system-site-packages "$work/venv" || return 1
    "$work/venv/bin/pip" install -q "$root/python" || return 1
    (cd "$work" && "${game_env[@]}" SOUNDSTATION_TEST_ASSETS="$root/Assets" \
        "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests")
}

readme_python_example() {
    (cd "$root" && "${game_env[@]}" "$work/venv/bin/python" Examples/Python/hello.py) >"$work/hello-py" || return 1
    cat "$work/hello-py"
    grep -q 'started reward' "$work/hello-py"
}

python_says_what_to_do() { # no library anywhere: the error names what to do
    (cd "$work" && env -i PATH=/usr/bin:/bin "$work/venv/bin/python" -c 'import soundstation; soundstation.Engine("silent")') \
        2>"$work/err" && return 1
    cat "$work/err"
    grep -q 'make install' "$work/err" && grep -q SOUNDSTATION_LIBRARY "$work/err"
}

readme_holds_the_examples() { # the README's copies are the files the tests run
    python3 - "$root" <<'PY'
import sys
root = sys.argv[1]
readme = open(f"{root}/README.md").read()
for path in ("Examples/C/hello.c", "Examples/Python/hello.py"):
    assert open(f"{root}/{path}").read().rstrip() in readme, f"README's copy of {path} differs"
PY
}

start=$SECONDS
check "make install-lib into a prefix (CONFIG=$config)" install_into_prefix
check "DESTDIR install, then make uninstall removes it all" destdir_and_uninstall
check "soundstation.h: C99 -Wall -Wextra -Werror -pedantic" header_c99
check "soundstation.h: C++" header_cxx
check "the library exports exactly the header's functions" exports_match_header
check "a C game builds with pkg-config" build_game
check "ldd: nothing from the Swift toolchain" nothing_from_the_toolchain
check "C tests: offline onsets, music, identical renders, every error path" c_tests
check "README C example builds and runs" readme_c_example
check "README holds the examples as they are" readme_holds_the_examples
check "pip install ./python, pytest" python_package
check "README Python example runs" readme_python_example
check "Python without the library says what to do" python_says_what_to_do
echo "e2e-capi took $((SECONDS - start)) s"
e2e_summary e2e-capi

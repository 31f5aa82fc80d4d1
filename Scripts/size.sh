#!/usr/bin/env bash
# make size: the release library and CLIs as they are installed (stripped; the CLIs with the Swift
# runtime linked in, --static-swift-stdlib), their sizes against the budgets of issue 22, and what
# each needs at run time. Fails when one is over its budget.
# Usage: Scripts/size.sh [--no-build]   (sizes in MiB: 1 MiB = 1,048,576 bytes, as `ls -lh` shows)
#        Scripts/size.sh --guard BUILD_DIR   (make test: the debug builds link nothing that would make
#        the release ones big again: no Foundation, no regex engine in the library; see below)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --guard ]; then
    # What made them big: Foundation (with its ICU data), FoundationEssentials where it is not needed,
    # the regex engine (one String.contains(String) call links it). A debug library has the static
    # archives' symbols; debug CLIs name the runtime's shared libraries they need.
    build=${2:-.build/debug}
    fail=0
    if nm "$build/libSoundStationC.so" | grep -qE '\$s(10Foundation|20FoundationEssentials|17_StringProcessing)|_FoundationICU'; then
        echo "size guard: libSoundStationC.so links Foundation or the regex engine:"
        nm "$build/libSoundStationC.so" | grep -oE '\$s(10Foundation|20FoundationEssentials|17_StringProcessing)[A-Za-z0-9_]{0,30}' | sort -u | head -5
        fail=1
    fi
    for p in soundstation soundstation-assets voicenote starfall; do
        needed=$(readelf -d "$build/$p" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p')
        forbidden='libFoundation.so|libFoundationInternationalization|lib_FoundationICU|libFoundationEssentials'
        if printf '%s\n' "$needed" | grep -qE "$forbidden"; then
            echo "size guard: $p needs $(printf '%s\n' "$needed" | grep -E "$forbidden" | tr '\n' ' ')(an import of Foundation? After removing one, an incremental build may keep it until the module recompiles)"
            fail=1
        fi
    done
    [ "$fail" -eq 0 ] && echo "size guard: no Foundation (nor FoundationEssentials) in the library or the CLIs, no regex engine in the library"
    exit $fail
fi
lib_budget=$((8 * 1024 * 1024))
cli_budget=$((12 * 1024 * 1024))
clis=(soundstation soundstation-assets voicenote starfall)
if [ "${1:-}" != --no-build ]; then
    for p in SoundStationC "${clis[@]}"; do
        swift build -c release --static-swift-stdlib --product "$p" >.build/size-build.log 2>&1 ||
            { grep -E 'error' .build/size-build.log | sort -u | head -20; echo "size: swift build --product $p failed" >&2; exit 1; }
    done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
report() { # NAME FILE BUDGET
    cp "$2" "$work/$1"
    strip --strip-unneeded "$work/$1"
    local bytes verdict
    bytes=$(stat -c %s "$work/$1")
    verdict=ok
    [ "$bytes" -le "$3" ] || { verdict="OVER BUDGET"; status=1; }
    printf '%-22s %6s MiB  (%9d bytes; budget %s MiB)  %s\n' "$1" "$(mib "$bytes")" "$bytes" "$(mib "$3")" "$verdict"
    # What it needs from the system: the sonames, nothing from the Swift toolchain.
    if ldd "$2" | grep -q '/opt/swift\|libswift\|libFoundation'; then
        echo "  needs the Swift toolchain: $(ldd "$2" | grep -o 'lib\(swift\|Foundation\)[^ ]*' | tr '\n' ' ')"
        status=1
    fi
}
report libsoundstation.so .build/release/libSoundStationC.so "$lib_budget"
for p in "${clis[@]}"; do report "$p" ".build/release/$p" "$cli_budget"; done
# The measured sizes, for the pages that quote them (Tests/E2E/test_docs.py checks they agree).
{
    echo "# Written by Scripts/size.sh from the last release build: stripped installed sizes in bytes."
    for p in libsoundstation.so "${clis[@]}"; do echo "$p $(stat -c %s "$work/$p")"; done
} >Docs/generated/sizes.txt
echo "libsoundstation.so needs: $(readelf -d .build/release/libSoundStationC.so | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
exit $status

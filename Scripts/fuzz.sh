#!/usr/bin/env bash
# Fuzzes the WAV decoder, every format decoder (fuzz-formats), the manifest/cue parsers and the
# remote session's frame extractor and message decoders (fuzz-remote) with libFuzzer for a bounded time each, growing
# Fuzz/Corpus and keeping any crash in Fuzz/Crashes, where the test suite replays it forever after.
# AddressSanitizer is left out: with this toolchain, -sanitize=fuzzer,address drops the coverage
# counters; `make asan` replays the corpus under AddressSanitizer instead.
# Usage: Scripts/fuzz.sh [SECONDS_PER_TARGET]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-60}}
(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld)
status=0
for target in wav formats manifest remote; do
    corpus=Fuzz/Corpus/$target
    crashes=Fuzz/Crashes/$target
    fresh=$(mktemp -d)
    mkdir -p "$corpus" "$crashes"
    echo "fuzz-$target: $seconds s"
    if ! Fuzz/.build/release/fuzz-$target -max_total_time="$seconds" -max_len=8192 -timeout=5 \
        -artifact_prefix="$crashes/" -print_final_stats=1 "$fresh" "$corpus" 2>"$fresh.log"; then
        status=1
        echo "fuzz-$target found a crash, kept in $crashes:"
        grep -E "ERROR|SUMMARY|Test unit written" "$fresh.log" | head -5
    fi
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$fresh.log" | sed "s/^/  /"
    # Keep only inputs that add coverage, so the committed corpus stays small.
    Fuzz/.build/release/fuzz-$target -merge=1 "$corpus" "$fresh" 2>/dev/null >/dev/null
    rm -rf "$fresh" "$fresh.log"
    echo "  corpus: $(ls "$corpus" | wc -l) inputs, crashes kept: $(ls "$crashes" | wc -l)"
done
exit $status

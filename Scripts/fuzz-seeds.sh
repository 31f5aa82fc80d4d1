#!/usr/bin/env bash
# Makes the seed inputs of fuzz-formats (Fuzz/Corpus/formats/seed-*): one small file of every format
# and encoding SoundStation reads, all made here by sox, flac, lame, opusenc and a few lines of Python
# (RF64 and a ProTracker module), none fetched. Each stays under libFuzzer's 8 KiB -max_len.
# Tests/E2E/test_cli.py makes the same files for `soundstation catalogue`.
# Usage: Scripts/fuzz-seeds.sh [OUT_DIR]   (default Fuzz/Corpus/formats)
set -euo pipefail
out=${1:-$(cd "$(dirname "$0")/.." && pwd)/Fuzz/Corpus/formats}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tone() { sox -n -r "$1" -c "$2" "${@:4}" "$3" synth 0.05 sine 440 sine 660 vol 0.7 2>/dev/null; }
tone 8000 1 "$out/seed-mulaw.wav" -e mu-law
tone 8000 2 "$out/seed-alaw.wav" -e a-law
tone 8000 1 "$out/seed-ima.wav" -e ima-adpcm
tone 8000 2 "$out/seed-msadpcm.wav" -e ms-adpcm
tone 8000 2 "$out/seed-rifx.wav" -b 16 -B
tone 8000 1 "$out/seed-pcm24.wav" -b 24
tone 8000 6 "$out/seed-six.wav" -b 8
tone 8000 2 "$out/seed.aiff" -b 16
tone 8000 2 "$out/seed.flac" -b 16
sox -n -r 48000 -c 2 -b 16 "$tmp/src.wav" synth 0.1 sine 440 sine 660 vol 0.7
lame --quiet -b 32 "$tmp/src.wav" "$out/seed.mp3"
opusenc --quiet --bitrate 16 "$tmp/src.wav" "$out/seed.opus"
oggenc --quiet -q 0 -o "$out/seed.ogg" "$tmp/src.wav"
python3 - "$out" <<'PY'
import math, struct, sys
out = sys.argv[1]
# RF64: sizes of 0xFFFFFFFF, the real ones in ds64.
data = b"".join(struct.pack("<h", int(20000 * math.sin(i / 8))) for i in range(400))
ds64 = b"ds64" + struct.pack("<IQQQI", 28, len(data) + 72, len(data), 200, 0)
fmt = b"fmt " + struct.pack("<IHHIIHH", 16, 1, 2, 8000, 32000, 4, 16)
open(f"{out}/seed.rf64", "wb").write(b"RF64\xff\xff\xff\xffWAVE" + ds64 + fmt + b"data\xff\xff\xff\xff" + data)
# A 4-channel ProTracker module: one looping sine sample, two patterns, a jump back to the second.
wave = bytes(int(round(100 * math.sin(i / 32 * 2 * math.pi))) & 0xFF for i in range(32))
mod = b"seed".ljust(20, b"\0") + b"sine".ljust(22, b"\0") + struct.pack(">HBBHH", 16, 0, 64, 0, 16)
mod += (bytes(22) + struct.pack(">HBBHH", 0, 0, 0, 0, 1)) * 30
mod += bytes([2, 127, 0, 1]) + bytes(126) + b"M.K."
for period, effect in ((428, (0xD, 0)), (214, (0xB, 1))):
    for row in range(64):
        for channel in range(4):
            if row == 0 and channel == 0:
                mod += bytes([period >> 8, period & 0xFF, 0x1F, 3])
            elif row == 15 and channel == 1:
                mod += bytes([0, 0, effect[0], effect[1]])
            else:
                mod += bytes(4)
open(f"{out}/seed.mod", "wb").write(mod + wave)
PY

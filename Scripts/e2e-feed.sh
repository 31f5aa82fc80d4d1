#!/usr/bin/env bash
# Sounds from memory and streams a game feeds, through the C library as a game uses it:
# - Tests/CAPI/feed_test.c offline: a file's bytes in every format the repository's tools make (WAV,
#   Ogg Vorbis, FLAC, Opus, MP3) render the same samples as the file; raw PCM; a fed stream renders
#   sample-exactly; a full queue refuses and counts; bad arguments;
# - Examples/C/stream.c (the chiptune example), rendered offline and checked for sound;
# - Tests/CAPI/feed_device_test.c on a private PulseAudio null sink (its threads real-time, as
#   Scripts/pulse-lib.sh says why; the script prints the main thread's class): a 440 Hz sine
#   written in 10 ms pieces for 10 s (normal latency), recorded from the sink's monitor, has no gap
#   and no underrun;
#   and at low latency the delay from a write to the monitor is measured (printed; at most 30 ms).
#   The game runs at SCHED_RR 1 where the machine grants it, as a game's audio thread asks to (SDL's
#   does): the check measures the library's feed path, and a game thread of the normal class waited
#   up to hundreds of ms for a core beside two busy loops and the other lanes (Docs/Testing.md), more
#   than the 50 ms lead it keeps, which no library can make up.
# Usage: Scripts/e2e-feed.sh [BUILD_DIR]   (default .build/debug; the library must be built)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-.build/debug}" && pwd)
work=$(mktemp -d /tmp/soundstation-feed.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" "$work/fx"
ln -s "$build/libSoundStationC.so" "$work/lib/libsoundstation.so.1"
cflags=(-std=c99 -Wall -Wextra -Werror -I "$root/Sources/CSoundStation/include")
libs=(-L"$build" -lSoundStationC -lm)
export LD_LIBRARY_PATH="$work/lib"
failed=0
step() { # NAME COMMAND...: runs one step, reporting it
    local name=$1
    shift
    if "$@"; then echo "ok   $name"; else
        echo "FAIL $name"
        failed=1
    fi
}

make_fixtures() { # the same 1 s stereo 440 Hz tone in each format
    (cd "$work/fx" && sox -n -r 48000 -c 2 -b 16 tone.wav synth 1 sine 440 vol 0.5 &&
        oggenc -Q -o tone.ogg tone.wav && flac -s -o tone.flac tone.wav &&
        opusenc --quiet tone.wav tone.opus && lame --quiet tone.wav tone.mp3)
}
step "fixtures (sox, oggenc, flac, opusenc, lame)" make_fixtures
step "feed_test builds" cc "${cflags[@]}" -o "$work/feed_test" "$root/Tests/CAPI/feed_test.c" "${libs[@]}"
step "feed_test: memory sounds, PCM, streams offline" "$work/feed_test" "$work/fx"

example() {
    cc "${cflags[@]}" -o "$work/stream" "$root/Examples/C/stream.c" "${libs[@]}" || return 1
    "$work/stream" "$work/chip.raw" || return 1
    python3 - "$work/chip.raw" <<'PY'
import array, math, sys
a = array.array("f")
a.frombytes(open(sys.argv[1], "rb").read())
seconds = len(a) / 2 / 48000
level = math.sqrt(sum(x * x for x in a) / len(a))
print(f"Examples/C/stream.c: {seconds:.2f} s rendered, rms {level:.3f}")
sys.exit(0 if seconds >= 7.9 and level > 0.02 else 1)
PY
}
step "Examples/C/stream.c renders its chiptune" example

device() {
    cc "${cflags[@]}" -o "$work/feed_device_test" "$root/Tests/CAPI/feed_device_test.c" "${libs[@]}" -lopenal ||
        return 1
    cat >"$work/device.sh" <<SH
. "$root/Scripts/e2e-lib.sh"
parec --raw --format=s16le --rate=48000 --channels=1 -d test.monitor >"$work/tone.raw" &
recorder=\$!
echo "server's main thread: \$(chrt -p \$(cat "\$XDG_RUNTIME_DIR/pulse/pid") | sed 's/.*: //' | paste -sd ' ')"
# The monitor delivers (silence) once the recorder runs; the test's tone starts after that.
grows_to "$work/tone.raw" 1 || { kill \$recorder; exit 1; }
rt=""; chrt -r 1 true 2>/dev/null && rt="chrt -r 1"
echo "the game's class: \${rt:-normal (chrt -r 1 refused)}"
\$rt "$work/feed_device_test" tone 10; status=\$?
# The tone's tail: 0.3 s more of the monitor (48 kHz mono, 2 bytes a frame) after the game ends.
grows_to "$work/tone.raw" \$((\$(stat -c %s "$work/tone.raw") + 28800)) || status=1
kill \$recorder; wait \$recorder 2>/dev/null
\$rt "$work/feed_device_test" latency 2>/dev/null || status=1
exit \$status
SH
    "$root/Scripts/with-pulse.sh" bash "$work/device.sh" || return 1
    python3 - "$work/tone.raw" <<'PY'
import array, math, sys
x = array.array("h")
x.frombytes(open(sys.argv[1], "rb").read())
w = 120  # 2.5 ms: more than one period of 440 Hz
levels = [math.sqrt(sum(s * s for s in x[i:i + w]) / w) / 32768 for i in range(0, len(x) - w + 1, w)]
loud = [i for i, v in enumerate(levels) if v > 0.05]
if not loud:
    print("no tone on the monitor"); sys.exit(1)
inside = levels[loud[0]:loud[-1] + 1]
median = sorted(inside)[len(inside) // 2]
# The first and last windows straddle the tone's edges (the tone starts anywhere in a window: one
# that holds less than a quarter of it is below half the level); any window between them is inside it.
gaps = [loud[0] + i for i, v in enumerate(inside) if 0 < i < len(inside) - 1 and v < 0.5 * median]
samples = x[loud[0] * w:(loud[-1] + 1) * w]
step = max(abs(samples[i + 1] - samples[i]) for i in range(len(samples) - 1)) / 32768
limit = median * math.sqrt(2) * 2 * math.pi * 440 / 48000
print(f"monitor: tone {len(inside) * w / 48000:.3f} s, {len(gaps)} quiet 2.5 ms windows "
      f"{[round((g - loud[0]) * w / 48000, 3) for g in gaps[:10]]} s into it, largest step "
      f"{step:.4f} (the sine's own: {limit:.4f}); edge windows {inside[0]:.3f}, {inside[-1]:.3f} of "
      f"{median:.3f}")
# The recording may miss the first moments (the monitor starts delivering when the stream starts
# the sink), so 9.5 of the 10 s are asked for; no gap anywhere in them.
sys.exit(0 if len(inside) * w >= 9.5 * 48000 and not gaps and step < 1.5 * limit else 1)
PY
}
step "a fed 440 Hz tone on a device: 10 s, no gap, no underrun; latency" device
exit $failed

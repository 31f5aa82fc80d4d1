#!/usr/bin/env bash
# The benchmarks of `make bench`: SoundStation against raw OpenAL Soft + libvorbis in C and against
# SDL_mixer 2, in the same run on the same machine. Builds the Benchmarks package in release, makes a
# temporary workspace (generated tracks, speech, catalogues), runs every case in interleaved rounds
# (each process warms up, then runs), and writes .build/bench/results.json and a table.
# Needs the private PulseAudio server of Scripts/with-pulse.sh for the device cases.
# A whole run writes Docs/generated/bench.md (each row's result, target and met/MISSED, the date and
# the load) and copies it into Docs/Performance.md (Scripts/generated-docs.py); Tests/E2E/test_docs.py
# fails when the page and the file disagree.
# Usage: Scripts/bench.sh [ROUNDS [RUNS]]   (default 4 rounds of 2 runs: 8 runs per case)
#        BENCH_ONLY="mix trigger" Scripts/bench.sh 1 1: only those groups (of the loop below, and
#        stream-memory, timed for oggenc and startup, remote for the SSH sessions), for a quick look;
#        such a run writes its table to .build/bench/bench-doc.md and leaves the docs alone
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
rounds=${1:-4}
runs=${2:-2}
out="$root/.build/bench"
mkdir -p "$out"
started=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# Release builds of the Benchmarks package and of the CLI through it; the log is shown on failure.
# --static-swift-stdlib: the CLIs as `make install` builds them (the Swift runtime inside the binary,
# so `startup` measures what a player runs, not the loading of the runtime's shared libraries).
# -Xcc -gdwarf-4: every C target's debug info in DWARF 4, which valgrind 3.19 reads (clang's default
# DWARF 5 in the library's C targets makes `valgrind --tool=callgrind` give up on the binaries).
flags=(-c release --package-path Benchmarks --static-swift-stdlib -Xcc -gdwarf-4)
build() {
    local log
    log=$(mktemp)
    if ! swift build "${flags[@]}" "$@" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "bench: swift build ${flags[*]} $* failed" >&2
        exit 1
    fi
    grep -E 'warning:|Build' "$log" || true
    rm -f "$log"
}
only=" ${BENCH_ONLY:-} "
wanted() { [ "$only" = "  " ] || [[ $only == *" $1 "* ]]; }
echo "bench: building the Benchmarks package (release)"
build
programs=(soundstation-bench raw-openal-bench sdl-mixer-bench)
# The CLIs are only for start-up and the remote sessions.
if wanted timed || wanted remote; then
    build --product soundstation
    build --product starfall
    programs+=(soundstation starfall)
fi
bin="$root/Benchmarks/.build/release"
for program in "${programs[@]}"; do
    [ -x "$bin/$program" ] || { echo "bench: $bin/$program was not built" >&2; exit 1; }
done

work=$(mktemp -d /tmp/soundstation-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
lines="$out/samples.jsonl"
: >"$lines"
export SDL_AUDIODRIVER=dummy
# The decoded-PCM cache of everything the bench starts (starfall's startup): in the workspace, not the
# user's ~/.cache. The cases that compare decoding with the C peers turn it off themselves.
export XDG_CACHE_HOME="$work/xdg-cache"

echo "bench: preparing the workspace in $work"
# About 40 s of speech, repeated and cut to exactly 60 s of 16 kHz mono; without espeak-ng or sox,
# `prepare` synthesises a speech-like signal instead.
if command -v espeak-ng >/dev/null && command -v sox >/dev/null; then
    espeak-ng -w "$work/speech.wav" "The northern gate is closed until the storm has passed. \
Take the lantern from the guard house, follow the river past the old mill, and wait for the signal \
on the bridge. If the bells ring twice, the caravan has arrived and the market opens at dawn. \
Bring the map, the spare rope and the sealed letter for the captain, and do not open it on the way. \
When you reach the harbour, ask for the ship with the green sail and give the sailor this coin. \
The crossing takes three days when the wind is kind, and five when it is not. Keep the fire low at \
night, count the stars before you sleep, and remember the names of the islands we passed." 2>/dev/null &&
        sox "$work/speech.wav" -r 16000 -c 1 -b 16 "$work/speech16k.wav" repeat 1 trim 0 60 ||
        { echo "bench: espeak-ng or sox failed; the speech will be synthesised" >&2; rm -f "$work/speech16k.wav"; }
fi
"$bin/soundstation-bench" prepare --assets "$root/Assets" --work "$work"

# Each case group, in rounds: engine, raw C, SDL_mixer one after another, so a busy moment on the
# shared machine lands on every side rather than on one. The two cases that run for seconds do one
# run per round (after a 1 s warm-up): trigger-under-load (BENCH_LOAD_SECONDS, default 10 s) every
# round, idle-music (BENCH_IDLE_SECONDS, default 20 s) in at most 2 rounds; with the defaults they add
# about 3 minutes to the run (4 x 11 s + 2 x 21 s per side). latency-device-low-underruns
# (BENCH_SOAK_SECONDS, default 60 s) runs once: the engine, then pacat as long (2 minutes).
# idle-device and idle-device-active (BENCH_QUIET_SECONDS, default 10 s, each run on an engine opened
# 1 s before) run once per round in at most 2 rounds, no warm-up: about 1.5 minutes.
long=(--load-seconds "${BENCH_LOAD_SECONDS:-10}" --idle-seconds "${BENCH_IDLE_SECONDS:-20}")
long+=(--quiet-seconds "${BENCH_QUIET_SECONDS:-10}")
long+=(--soak-seconds "${BENCH_SOAK_SECONDS:-60}")
for group in preload trigger mix filter music-speed voice-encode latency trigger-under-load idle-music idle-device latency-device-low-underruns; do
    wanted "$group" || continue
    group_rounds=$rounds
    group_runs=$runs
    case $group in
    trigger-under-load) group_runs=1 ;;
    idle-music | idle-device) group_runs=1; group_rounds=$((rounds < 2 ? rounds : 2)) ;;
    latency-device-low-underruns) group_runs=1; group_rounds=1 ;;
    esac
    echo "bench: $group ($group_rounds rounds of $group_runs runs after a warm-up)"
    for _ in $(seq "$group_rounds"); do
        "$bin/soundstation-bench" all --work "$work" --runs "$group_runs" --only "$group" "${long[@]}" >>"$lines"
        # The underrun soak has no C case (its peer, pacat, runs inside the engine's case). filter has
        # two peers: the engine without the colour (in the engine's process) and the C floor.
        # music-speed's peer is the engine itself (the track unstretched), in the engine's process.
        [ "$group" = latency-device-low-underruns ] || [ "$group" = music-speed ] ||
            "$bin/raw-openal-bench" all --work "$work" --runs "$group_runs" --only "$group" "${long[@]}" >>"$lines"
        case $group in
        preload | trigger | latency)
            "$bin/sdl-mixer-bench" all --work "$work" --runs "$runs" --only "$group" >>"$lines" ;;
        esac
    done 2> >(grep -Ev '^(ALSA lib|AL lib: \(EE\) (ALCplaybackAlsa_open|ReleaseThreadCtx))' >&2)
done

total=$((rounds * runs))
wanted stream-memory && echo "bench: stream-memory (one process per run, streamed and preloaded in turn)"
wanted stream-memory && for run in $(seq 0 "$total"); do
    for mode in streamed preloaded; do
        if [ "$run" -eq 0 ]; then
            "$bin/soundstation-bench" stream-memory --work "$work" --mode "$mode" >/dev/null
        else
            "$bin/soundstation-bench" stream-memory --work "$work" --mode "$mode" >>"$lines"
        fi
    done
done

if wanted timed; then
echo "bench: voice-encode with oggenc, startup (whole processes)"
python3 - "$work" "$bin" >"$work/timed.json" <<'EOF'
import json, sys
work, bin = sys.argv[1], sys.argv[2]
specs = [
    {"case": "voice-encode", "side": "peer", "peer": "oggenc", "unit": "ms",
     "label": "oggenc -q 4 (whole process: start, read WAV, encode, exit)",
     "cmd": ["oggenc", "-Q", "-q", "4", "-o", work + "/voice-oggenc.ogg", work + "/speech16k.wav"]},
    {"case": "startup", "side": "engine", "unit": "ms",
     "label": "starfall --autoplay 0: start, open the engine, preload every demo sound (read back from the PCM cache the warm-up run filled), write the (empty) render",
     "cmd": [bin + "/starfall", "--autoplay", "0", "--audio-out", work + "/startup.wav", "--assets", "Assets"]},
    {"case": "startup", "side": "engine-variant", "peer": "soundstation-no-pcm-cache", "unit": "ms",
     "label": "the same with SOUNDSTATION_PCM_CACHE=off (every Ogg decoded; through env, which adds its own exec)",
     "cmd": ["env", "SOUNDSTATION_PCM_CACHE=off", bin + "/starfall", "--autoplay", "0", "--audio-out", work + "/startup.wav", "--assets", "Assets"]},
    {"case": "startup", "side": "peer", "peer": "raw-openal", "unit": "ms",
     "label": "open loopback, load the demo sounds, render 480 frames, write the WAV, exit",
     "cmd": [bin + "/raw-openal-bench", "startup", "--work", work, "--out", work + "/startup-raw.wav"]},
    {"case": "startup", "side": "peer", "peer": "sdl-mixer", "unit": "ms",
     "label": "SDL_Init + Mix_OpenAudio, Mix_LoadWAV effects, Mix_LoadMUS music, exit",
     "cmd": [bin + "/sdl-mixer-bench", "startup", "--work", work]},
]
print(json.dumps(specs))
EOF
if ! command -v oggenc >/dev/null; then
    echo "bench: oggenc (vorbis-tools) is missing; its row is left out" >&2
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); json.dump(s[1:], open(sys.argv[1], "w"))' "$work/timed.json"
fi
python3 Benchmarks/Scripts/bench.py time --runs "$total" "$work/timed.json" >>"$lines"
fi

# Sound over SSH: the game's CPU with the remote output against the local device (Starfall's bot for
# 30 s in a pseudo-terminal, as sshd runs it) and the bytes of sound frames per minute (every asset
# announced as cached, so only commands travel).
if wanted remote; then
echo "bench: remote session (Starfall's terminal bot, 30 s each, remote and local)"
(cd "$root" && python3 Scripts/ssh/bench-remote.py Assets "$bin/starfall" --terminal --autostart --bot \
    --seed 3 --frames 1800) | tee "$out/remote.txt"
# The same for the engine alone: Starfall's drawing, which no output changes, is most of its CPU.
echo "bench: remote session, the engine alone (soundstation-bench session: Starfall's sound load, 30 s each)"
(cd "$root" && python3 Scripts/ssh/bench-remote.py Assets "$bin/soundstation-bench" session --work "$work" \
    --assets Assets --seconds 30) | tee -a "$out/remote.txt"
# 50 remote sessions at once, each Starfall's bot with a seed of its own in a pseudo-terminal of its
# own (sshd is not needed for the scale: it only copies bytes): CPU, memory per session, and every
# session's command stream its own (a few seeds played again alone give the same stream).
echo "bench: 50 remote sessions at once (Starfall's terminal bot, 1200 ticks each, a seed each)"
(cd "$root" && python3 Scripts/ssh/bench-sessions.py "$bin/soundstation" "$root/Assets" 50 "$bin/starfall" \
    --terminal --autostart --bot --seed '{seed}' --frames 1200) | tee "$out/sessions.txt"
fi

{
    echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -m | awk '/^Mem:/ {print $2}') MiB RAM"
    echo "system: $(. /etc/os-release && echo "$PRETTY_NAME"), $(uname -r), $(swift --version 2>/dev/null | head -1)"
    echo "libraries: OpenAL Soft $(dpkg-query -W -f='${Version}' libopenal1 2>/dev/null), libvorbis $(dpkg-query -W -f='${Version}' libvorbis0a 2>/dev/null), SDL_mixer $(dpkg-query -W -f='${Version}' libsdl2-mixer-2.0-0 2>/dev/null)"
    echo "load average (1, 5, 15 min) at the start: $load_start; at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/machine.txt"

# Only a whole run is today's table: a run of some groups writes its table beside the results.
doc="$root/Docs/generated/bench.md"
[ -z "${BENCH_ONLY:-}" ] || doc="$out/bench-doc.md"
echo
python3 Benchmarks/Scripts/bench.py report "$lines" \
    --json "$out/results.json" --markdown "$out/results.md" --doc "$doc" --machine "$out/machine.txt"
[ -n "${BENCH_ONLY:-}" ] || python3 Scripts/generated-docs.py update
echo
cat "$out/machine.txt"
if awk -v load="${load_start%% *}" -v cores="$(nproc)" 'BEGIN { exit !(load > cores / 2) }'; then
    echo "bench: other work was running when the bench started (load $load_start on $(nproc) cores):" \
        "wall-clock cases (preload above all, which needs every core) are noisy; run again when it is idle"
fi
echo "bench: wrote $out/results.json (table: $out/results.md, for the docs: $doc; remote session: $out/remote.txt, $out/sessions.txt) in $(($(date +%s) - started)) s"

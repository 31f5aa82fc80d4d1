#!/usr/bin/env bash
# The library never writes on a game's terminal: curses programs in C and Python (Tests/CAPI/quiet_test.*)
# draw their screen, then open "auto" with no sound server (OpenAL Soft falls back to ALSA, which finds
# no card), preload a cut-short WAV, a damaged MP3 and a bad module, play them and stream the damaged MP3.
# The tmux pane must hold exactly the lines the program drew; what ALSA, libmpg123 and the decoders
# said must come back as notice events instead. The broken files are made here from the project's own
# generated assets (Assets/, from soundstation-assets).
# Usage: Scripts/e2e-quiet.sh [BUILD_DIR]   (the folder holding libSoundStationC.so)
set -uo pipefail
build=$(cd "${1:-.build/debug}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/soundstation-quiet.XXXXXX)
tmux_socket="$work/tmux.sock"
cleanup() {
    tmux -S "$tmux_socket" kill-server >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
. "$root/Scripts/e2e-lib.sh"

make_library() {
    mkdir -p "$work/lib" || return 1
    ln -sf "$build/libSoundStationC.so" "$work/lib/libsoundstation.so.1"
    ln -sf libsoundstation.so.1 "$work/lib/libsoundstation.so"
    cc -std=c99 -Wall -Wextra -Werror -o "$work/quiet_test" "$root/Tests/CAPI/quiet_test.c" \
        -I"$root/Sources/CSoundStation/include" -L"$work/lib" -lsoundstation -Wl,-rpath,"$work/lib" -lncurses
}

make_broken_assets() { # from the project's own coin.wav: cut short, an MP3 with damaged frames, a bad module
    mkdir -p "$work/assets" || return 1
    sox "$root/Assets/Effects/coin.wav" -r 44100 "$work/long.wav" repeat 30 || return 1
    lame --quiet "$work/long.wav" "$work/good.mp3" || return 1
    python3 - "$root/Assets/Effects/coin.wav" "$work" <<'PY'
import json, random, sys
coin, work = sys.argv[1], sys.argv[2]
wav = open(coin, "rb").read()
open(f"{work}/assets/cut.wav", "wb").write(wav[: len(wav) * 4 // 10])
mp3 = bytearray(open(f"{work}/good.mp3", "rb").read())
rng = random.Random(20)
for start in (len(mp3) // 5, len(mp3) // 2, len(mp3) * 3 // 4):
    for i in range(start, start + 1500):
        mp3[i] = rng.randrange(256)
open(f"{work}/assets/bad.mp3", "wb").write(mp3)
module = bytearray(rng.randrange(256) for _ in range(1084))
module[1080:1084] = b"M.K."
open(f"{work}/assets/bad.mod", "wb").write(module)
json.dump({"sounds": [
    {"name": "cut", "path": "cut.wav", "kind": "effect"},
    {"name": "damaged", "path": "bad.mp3", "kind": "effect"},
    {"name": "module", "path": "bad.mod", "kind": "effect"},
    {"name": "stream", "path": "bad.mp3", "kind": "music", "stream": True, "loop": True},
]}, open(f"{work}/assets/catalogue.json", "w"))
PY
}

pane() { tmux -S "$tmux_socket" capture-pane -t "$1" -p; }

# quiet_in_tmux SESSION COMMAND: runs COMMAND in an 80x24 pane with no sound server (PULSE_SERVER names
# a socket that does not exist), waits for "done:", and compares the pane with the lines it recorded.
quiet_in_tmux() {
    local session=$1 command=$2 record="$work/$1.record" _
    tmux -S "$tmux_socket" new-session -d -s "$session" -x 80 -y 24 \
        "env -i HOME='$work' PATH=/usr/bin:/bin TERM=tmux-256color PULSE_SERVER='unix:$work/no-server' \
        PYTHONPATH='$root/python' SOUNDSTATION_LIBRARY='$work/lib/libsoundstation.so.1' \
        $command '$work/assets' '$record' 3; sleep 60" || return 1
    for _ in $(seq 300); do [ -s "$record" ] && grep -q '^--- notices' "$record" && break; sleep 0.1; done
    sleep 0.3
    pane "$session" | sed 's/ *$//' | awk '{line[NR] = $0} NF {last = NR} END {for (i = 1; i <= last; i++) print line[i]}' \
        >"$work/$session.pane"
    sed '/^--- notices/,$d' "$record" >"$work/$session.drawn"
    echo "the pane:"
    cat "$work/$session.pane"
    diff "$work/$session.drawn" "$work/$session.pane" || { echo "the terminal shows more than the program drew"; return 1; }
    grep -q '^done: ok' "$work/$session.drawn" || return 1
    echo "the notices instead:"
    sed '1,/^--- notices/d' "$record" | tee "$work/$session.notices"
    # What used to be written on the terminal now arrives as notices.
    grep -q "cut.wav' is cut short" "$work/$session.notices" || { echo "no notice for the cut-short WAV"; return 1; }
    grep -q "bad.mp3' is cut short" "$work/$session.notices" || { echo "no notice for the damaged MP3"; return 1; }
    if grep -q 'output silent' "$work/$session.drawn"; then
        grep -q 'Continuing without sound' "$work/$session.notices" || { echo "no notice says why it is silent"; return 1; }
    fi
}

check "build the library link and the C program" make_library
check "make a cut-short WAV, a damaged MP3 and a bad module from Assets/" make_broken_assets
check "C curses program: no sound server, broken files; the pane holds only what it drew" \
    quiet_in_tmux c "'$work/quiet_test'"
check "Python curses program: the same through soundstation.Engine" \
    quiet_in_tmux python "python3 '$root/Tests/CAPI/quiet_test.py'"

# The device lost and regained under playing music (Tests/CAPI/loss_test.c): the music's position does
# not run ahead by the outage, and the restore sends no second start.
position_after_a_loss() {
    . "$root/Scripts/pulse-lib.sh"
    local dir="$work/loss"
    cc -std=c99 -Wall -Wextra -Werror -o "$work/loss_test" "$root/Tests/CAPI/loss_test.c" \
        -I"$root/Sources/CSoundStation/include" -L"$work/lib" -lsoundstation -Wl,-rpath,"$work/lib" || return 1
    pulse_start "$dir" loss || return 1
    env $(pulse_env "$dir") "$work/loss_test" "$root/Assets" &
    local program=$!
    sleep 3
    pulse_stop "$dir"
    sleep 2
    pulse_start "$dir" loss || { kill "$program"; return 1; }
    wait "$program"
    local status=$?
    pulse_stop "$dir"
    return "$status"
}
check "a device lost and regained: the music's position holds, one start" position_after_a_loss
e2e_summary e2e-quiet

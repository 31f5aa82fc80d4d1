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
tmux_socket="$work/tmux.sock"
cleanup() {
    tmux -S "$tmux_socket" kill-server >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
. "$root/Scripts/e2e-lib.sh"
prefix="$work/prefix"
header="$root/Sources/CSoundStation/include/soundstation.h"
# What a game sees: no Swift toolchain on PATH, no LD_LIBRARY_PATH (the pkg-config file's rpath finds
# the library), the prefix's pkg-config file.
game_env=(env -i HOME="$HOME" PATH=/usr/local/bin:/usr/bin:/bin PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
    ${PULSE_SERVER:+PULSE_SERVER=$PULSE_SERVER})

install_into_prefix() {
    make -s -C "$root" install-lib CONFIG="$config" PREFIX="$prefix" || return 1
    [ "$(readlink "$prefix/lib/libsoundstation.so")" = libsoundstation.so.1 ] || return 1
    [ "$(readlink "$prefix/lib/libsoundstation.so.1")" = libsoundstation.so.1.0.0 ] || return 1
    readelf -d "$prefix/lib/libsoundstation.so.1.0.0" | grep -q 'SONAME.*\[libsoundstation.so.1\]' || return 1
    # The symbols carry the version node of 1.x.
    nm -D --defined-only "$prefix/lib/libsoundstation.so.1.0.0" | grep -q ' ss_play_voice@@SOUNDSTATION_1$' || return 1
    grep -qx "prefix=$prefix" "$prefix/lib/pkgconfig/soundstation.pc"
}

destdir_and_uninstall() {
    local stage="$work/stage"
    make -s -C "$root" install-lib CONFIG="$config" PREFIX=/usr DESTDIR="$stage" || return 1
    for f in lib/libsoundstation.so lib/libsoundstation.so.1 lib/libsoundstation.so.1.0.0 \
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
    ! grep -qE 'not found|/opt/swift|swift' "$work/ldd" && grep -q "$prefix/lib/libsoundstation.so.1" "$work/ldd"
}

c_tests() { "${game_env[@]}" "$work/capi_test" "$root/Assets"; }

build_abi_test() { # Tests/CAPI/abi_test.c: what C ABI 1.0 added, built as a game would be
    "${game_env[@]}" sh -c "cc -Wall -Wextra -Werror -std=c99 -o '$work/abi_test' '$root/Tests/CAPI/abi_test.c' \
        \$(pkg-config --cflags --libs soundstation) -lm"
}

build_tempo_test() { # Tests/CAPI/tempo_test.c: music speed without pitch and pitch shift (1.1)
    "${game_env[@]}" sh -c "cc -Wall -Wextra -Werror -std=c99 -o '$work/tempo_test' '$root/Tests/CAPI/tempo_test.c' \
        \$(pkg-config --cflags --libs soundstation) -lm"
}

tempo_tests() { mkdir -p "$work/tempo" && "${game_env[@]}" timeout 300 "$work/tempo_test" "$work/tempo"; }

abi_tests() { # voices, music pause and files, loop counts, ids past 16384, events' voices, struct sizes
    mkdir -p "$work/abi" && "${game_env[@]}" timeout 600 "$work/abi_test" "$work/abi" "$root/Assets"
}

songs_tests() { # Tests/CAPI/songs_test.c: a MIDI file's notes every 0.5 s at their pitch, a VGM looping at its loop offset
    "${game_env[@]}" sh -c "cc -Wall -Wextra -Werror -std=c99 -o '$work/songs_test' '$root/Tests/CAPI/songs_test.c' \
        \$(pkg-config --cflags --libs soundstation) -lm" || return 1
    mkdir -p "$work/songs" && "${game_env[@]}" timeout 300 "$work/songs_test" "$work/songs"
}

output_after_close_valgrind() { # ss_output's string read after ss_close: no invalid read
    "${game_env[@]}" valgrind -q --error-exitcode=9 "$work/abi_test" "$work/abi" output
}

synth_tests() { # Tests/CAPI/synth_test.c: ss_synth's bytes are Swift's, its three forms, variation, errors
    "${game_env[@]}" sh -c "cc -Wall -Wextra -Werror -std=c99 -o '$work/synth_test' '$root/Tests/CAPI/synth_test.c' \
        \$(pkg-config --cflags --libs soundstation) -lm" || return 1
    "${game_env[@]}" timeout 120 "$work/synth_test" "$root/Tests/Synth/coin-seed7.fnv1a"
}

honest_tests() { # Tests/CAPI/honest_test.c: ss_output, notices, C-terms messages, bounded render, no loss, no growth
    "${game_env[@]}" sh -c "cc -Wall -Wextra -Werror -std=c99 -o '$work/honest_test' '$root/Tests/CAPI/honest_test.c' \
        \$(pkg-config --cflags --libs soundstation)" || return 1
    # One malloc arena, so that mallinfo2 sees what every thread allocates.
    "${game_env[@]}" MALLOC_ARENA_MAX=1 timeout 300 "$work/honest_test" "$root/Assets" || return 1
    "${game_env[@]}" timeout 60 "$work/honest_test" "$root/Assets" device
}

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

# The examples' games in tmux, on the device (the null sink of Scripts/with-pulse.sh), while the sink's
# monitor is recorded: the game shows its field, plays music and effects, quits at q and leaves the
# terminal in cooked mode.
pane() { tmux -S "$tmux_socket" capture-pane -t "$1" -p; }
wait_for() { # wait_for SESSION PATTERN [SECONDS]: the pane shows PATTERN
    local _
    for _ in $(seq $((${3:-10} * 10))); do pane "$1" | grep -q -- "$2" && return 0; sleep 0.1; done
    echo "the screen never showed '$2':"
    pane "$1"
    return 1
}
start_recording() { # start_recording FILE: records the sink's monitor (16 kHz mono) until stop_recording
    parecord --latency-msec=20 --device=test.monitor --rate=16000 --channels=1 --file-format=wav "$1" &
    recorder=$!
    # Running once the monitor has delivered sound beyond the file's header (~0.1 s of it).
    grows_to "$1" 4096
}
stop_recording() { kill "$recorder" 2>/dev/null; wait "$recorder" 2>/dev/null; }

# game_stacks SESSION: a game that did not quit: every thread's stack (gdb), to see where it waits.
game_stacks() {
    local shell game
    shell=$(tmux -S "$tmux_socket" display-message -p -t "$1" '#{pane_pid}') || return 0
    for game in $(pgrep -P "$shell"); do
        echo "the game (pid $game) is still running; its threads:"
        command -v gdb >/dev/null && timeout 60 gdb -p "$game" -batch -ex 'thread apply all bt' 2>&1 |
            grep -E '^(Thread|#)' | head -150
    done
}

# play_in_tmux SESSION TITLE FIELD_PATTERN COMMAND: runs COMMAND (a game, with --autoplay) in an 80x24
# tmux pane as the game environment sees it, waits for its title and FIELD_PATTERN (the game in play),
# lets it play for 5 s, quits with q and checks the exit, the restored terminal and the recording.
play_in_tmux() {
    local session=$1 title=$2 field=$3 command=$4 heard
    local env_line="env -i HOME='$HOME' PATH=/usr/local/bin:/usr/bin:/bin TERM=tmux-256color PKG_CONFIG_PATH='$prefix/lib/pkgconfig' ${PULSE_SERVER:+PULSE_SERVER='$PULSE_SERVER'} SOUNDSTATION_OUTPUT=device SOUNDSTATION_ASSETS='$root/Assets'"
    start_recording "$work/$session.wav"
    tmux -S "$tmux_socket" new-session -d -s "$session" -x 80 -y 24 \
        "$env_line $command; echo \"exit=\$?\"; stty -a | grep -o -- '-\\?icanon\\b'; sleep 60" || { stop_recording; return 1; }
    wait_for "$session" "$title" && wait_for "$session" "$field" 10 || { stop_recording; return 1; }
    # Five seconds of play, as the recording counts them (16 kHz mono, 2 bytes a frame).
    local recorded
    recorded=$(stat -c %s "$work/$session.wav")
    grows_to "$work/$session.wav" $((recorded + 5 * 32000)) 20 || { stop_recording; return 1; }
    pane "$session" | tee "$work/$session.playing"
    tmux -S "$tmux_socket" send-keys -t "$session" q
    wait_for "$session" '^exit=0' || { game_stacks "$session"; stop_recording; return 1; }
    wait_for "$session" '^-\?icanon' || { stop_recording; return 1; }
    stop_recording
    pane "$session" | tee "$work/$session.after"
    grep -qx 'icanon' "$work/$session.after" || { echo "the terminal was left in raw mode"; return 1; }
    ! grep -q "$title " "$work/$session.after" || { echo "the game's screen was left behind"; return 1; }
    grep -qE 'sounds started [1-9][0-9]*' "$work/$session.after" || { echo "no sound started"; return 1; }
    heard=$(rms "$work/$session.wav")
    echo "heard on the sink: RMS $heard over $(soxi -D "$work/$session.wav") s"
    above "$heard" 0.01
}

build_catch() { # Examples/CursesC/catch.c, as its README line builds it, warning-free
    "${game_env[@]}" sh -c "cc -std=c99 -Wall -Wextra -Werror -o '$work/catch' '$root/Examples/CursesC/catch.c' \
        \$(pkg-config --cflags --libs soundstation) -lncurses"
}

catch_in_tmux() { play_in_tmux catch CATCH '=======' "'$work/catch' --autoplay"; }

# --synth: every effect from the generator (ss_synth), no asset folder (the one named does not exist).
catch_synth_in_tmux() {
    play_in_tmux catch-synth CATCH '=======' "SOUNDSTATION_ASSETS=/nonexistent '$work/catch' --synth --autoplay"
}

catch_synth_frames_alone() {
    "${game_env[@]}" TERM=dumb SOUNDSTATION_OUTPUT=silent timeout 20 script -qec \
        "'$work/catch' --synth --autoplay --frames 60 --assets /nonexistent" /dev/null >"$work/synth-frames.out" \
        </dev/null || return 1
    grep -ao 'catch: score.*sounds started [1-9][0-9]*' "$work/synth-frames.out"
}

catch_frames_alone() { # --frames N ends it unattended; silent output; exit 0 and its summary
    "${game_env[@]}" TERM=dumb SOUNDSTATION_OUTPUT=silent timeout 20 script -qec \
        "'$work/catch' --autoplay --frames 60 --assets '$root/Assets'" /dev/null >"$work/frames.out" </dev/null || return 1
    grep -ao 'catch: score.*' "$work/frames.out"
}

catch_bad_input() { # a bad output, a bad --frames and a missing catalogue: messages and exit codes
    "${game_env[@]}" "$work/catch" --output speakers >"$work/bad1" 2>&1; [ $? -eq 1 ] || return 1
    grep -q 'speakers' "$work/bad1" || { cat "$work/bad1"; return 1; }
    "${game_env[@]}" "$work/catch" --frames x >"$work/bad2" 2>&1; [ $? -eq 2 ] || return 1
    grep -q -- '--frames' "$work/bad2" || return 1
    "${game_env[@]}" "$work/catch" --output silent --assets /nonexistent >"$work/bad3" 2>&1; [ $? -eq 1 ] || return 1
    grep -q 'nonexistent' "$work/bad3" && cat "$work/bad1" "$work/bad2" "$work/bad3"
}

snake_in_tmux() { play_in_tmux snake SNAKE '@o' "'$work/venv/bin/python' '$root/Examples/CursesPython/snake.py' --autoplay"; }

snake_frames_alone() {
    "${game_env[@]}" TERM=dumb SOUNDSTATION_OUTPUT=silent timeout 20 script -qec \
        "'$work/venv/bin/python' '$root/Examples/CursesPython/snake.py' --autoplay --frames 60 --assets '$root/Assets'" \
        /dev/null >"$work/snake-frames.out" </dev/null || return 1
    grep -ao 'snake: score.*' "$work/snake-frames.out"
}

snake_bad_input() {
    "${game_env[@]}" "$work/venv/bin/python" "$root/Examples/CursesPython/snake.py" --output speakers >"$work/bad4" 2>&1
    [ $? -eq 1 ] && grep -q 'speakers' "$work/bad4" && ! grep -q Traceback "$work/bad4" && cat "$work/bad4"
}

# ss_play from a SIGALRM handler every millisecond on the device while the main thread switches the
# music (Tests/CAPI/sigalrm_test.c, which checks the events); the monitor's recording must have the
# effects' energy: the test keeps the music bus at a tenth, which alone records at an RMS of about 0.01.
sigalrm_seconds=${SIGALRM_SECONDS:-10}
sigalrm_on_the_device() {
    "${game_env[@]}" sh -c "cc -Wall -Wextra -Werror -std=c99 -o '$work/sigalrm_test' '$root/Tests/CAPI/sigalrm_test.c' \
        \$(pkg-config --cflags --libs soundstation)" || return 1
    start_recording "$work/sigalrm.wav"
    "${game_env[@]}" timeout $((sigalrm_seconds + 30)) "$work/sigalrm_test" "$root/Assets" "$sigalrm_seconds"
    local status=$? heard
    stop_recording
    [ "$status" -eq 0 ] || { echo "exit $status (124: it hung)"; return 1; }
    heard=$(rms "$work/sigalrm.wav")
    echo "recorded: RMS $heard over $(soxi -D "$work/sigalrm.wav") s"
    above "$heard" 0.04
}

# ss_close on the device leaves the sound server no stream of the program (Tests/CAPI/close_test.c).
close_closes_the_device() {
    "${game_env[@]}" sh -c "cc -Wall -Wextra -Werror -std=c99 -o '$work/close_test' '$root/Tests/CAPI/close_test.c' \
        \$(pkg-config --cflags --libs soundstation)" || return 1
    "${game_env[@]}" timeout 120 "$work/close_test" "$root/Assets"
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
check "C ABI 1.0 tests build with pkg-config" build_abi_test
check "C ABI 1.0: voices, music pause and files, loop counts, one id space, sized structs" abi_tests
check "C: MIDI notes at 120 bpm onset every 0.5 s at their pitch; a VGM loops at its loop offset" songs_tests
check "C music speed test builds with pkg-config" build_tempo_test
check "C: music speed 1.25 keeps 440 Hz and shortens the track, 0.8 lengthens it; pitch_shift" tempo_tests
check "ss_output after ss_close under valgrind: no invalid read" output_after_close_valgrind
check "C: ss_synth renders Swift's bytes for a seed, reads jsfxr's and sfxr's strings, varies per play" synth_tests
check "C: says what happened, renders in pieces, loses nothing offline, keeps only a tombstone" honest_tests
check "README C example builds and runs" readme_c_example
check "README holds the examples as they are" readme_holds_the_examples
check "pip install ./python, pytest" python_package
check "README Python example runs" readme_python_example
check "Python without the library says what to do" python_says_what_to_do
check "Catch (Examples/CursesC) builds with pkg-config and ncurses" build_catch
check "Catch in tmux on the device: plays, heard on the sink, q restores the terminal" catch_in_tmux
check "Catch --frames N ends by itself" catch_frames_alone
check "Catch --synth in tmux on the device: every effect synthesised, no assets, heard on the sink" catch_synth_in_tmux
check "Catch --synth --frames N: no asset folder, sounds start" catch_synth_frames_alone
check "Catch: bad output, --frames and assets are messages, not aborts" catch_bad_input
check "Snake (Examples/CursesPython) in tmux on the device: plays, heard, q restores the terminal" snake_in_tmux
check "Snake --frames N ends by itself" snake_frames_alone
check "Snake: a bad output is a message" snake_bad_input
check "ss_close on the device leaves the sound server no stream of the game (3 rounds, after a preload on worker threads)" close_closes_the_device
check "ss_play from SIGALRM every ms for ${sigalrm_seconds} s on the device while music switches" sigalrm_on_the_device
echo "e2e-capi took $((SECONDS - start)) s"
e2e_summary e2e-capi

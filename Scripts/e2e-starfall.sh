#!/usr/bin/env bash
# End-to-end checks of the starfall demo as a user runs it: autoplay renders measured with sox and
# python, the window under SDL's dummy driver and under Xvfb (a screenshot), and the terminal front
# end driven through tmux, checking the terminal is left exactly as it was found.
# Usage: Scripts/e2e-starfall.sh [BIN_DIR]   (run inside Scripts/with-pulse.sh for a sound device)
set -uo pipefail
bin=${1:-.build/debug}
game="$(cd "$(dirname "$bin/starfall")" && pwd)/starfall"
work=$(mktemp -d /tmp/starfall-e2e.XXXXXX)
socket=
shells=0
xvfb_pid=
cleanup() {
    [ -n "$socket" ] && tmux -L "$socket" kill-server 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
. "$(dirname "$0")/e2e-lib.sh"



autoplay_renders() {
    "$game" --autoplay 35 --seed 1 --audio-out "$work/a.wav" >"$work/a.json" 2>"$work/a.err" || return 1
    soxi "$work/a.wav" | grep -q 'Channels       : 2' || return 1
    soxi "$work/a.wav" | grep -q 'Sample Rate    : 48000' || return 1
    soxi -s "$work/a.wav" | grep -qx 1680000 || return 1
    echo "music in the first second: $(peak "$work/a.wav" 0 0.9)"
    above "$(peak "$work/a.wav" 0 0.9)" 0.05 || return 1
    python3 - "$work/a.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))  # stdout holds the JSON object and nothing else
assert set(summary) == {"scenes", "music", "intensity", "effects"}, summary.keys()
scenes = [(s["name"], s["music"]) for s in summary["scenes"]]
assert scenes[:4] == [("menu", "main"), ("game", "game"), ("game-over", None), ("menu", "main")], scenes
assert summary["scenes"][0]["at"] == 0.0
names = {e["name"] for e in summary["effects"]}
for wanted in ("reward", "miss", "explosion", "level-up", "bomb-tick", "click"):
    assert wanted in names, f"no {wanted} in {sorted(names)}"
for e in summary["effects"]:
    assert set(e) >= {"name", "at", "volume", "pitch"}, e
    # On a game tick, but the level-up stinger, which waits for the music's next beat.
    assert e["name"] == "level-up" or abs(e["at"] * 60 - round(e["at"] * 60)) < 1e-3, e
print(f"{len(summary['scenes'])} scenes, {len(summary['effects'])} effects")
PY
}

music_on_the_grid() { # the switch menu -> game on a bar line of the menu track, the level-up
    # stingers on beats of the game track (tempos from the catalogue), and the game track heard from
    # exactly the switch frame: its pad layer plus drums correlate with the render best at lag 0
    local assets
    assets="$(cd "$(dirname "$0")/.." && pwd)/Assets"
    sox "$assets/Music/game.ogg" -t f32 "$work/pad.f32" && sox "$assets/Music/game-drums.ogg" -t f32 "$work/drums.f32" \
        && sox "$work/a.wav" -t f32 "$work/a.f32" || return 1
    python3 - "$work/a.json" "$assets/catalogue.json" "$work" <<'PY'
import array, json, sys
summary, catalogue, work = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
tempo = {s["name"]: s for s in catalogue["sounds"] if "bpm" in s}
rate = 48000
switches = summary["music"]
i = next(i for i, s in enumerate(switches) if s["from"] == "main" and s["to"] == "game")
menu, switch = switches[i - 1], switches[i]
bar = 60 / tempo["main"]["bpm"] * tempo["main"]["beatsPerBar"] * rate
bars = (round(switch["at"] * rate) - round(menu["at"] * rate)) / bar
assert bars == int(bars) and switch["bar"] == int(bars) + 1 and switch["beat"] == 1, (bars, switch)
assert 0 <= switch["at"] - switch["asked"] < bar / rate, switch
beat = 60 / tempo["game"]["bpm"] * rate
stingers = [e["at"] for e in summary["effects"] if e["name"] == "level-up"]
assert stingers, "no level-up"
for at in stingers:
    beats = (round(at * rate) - round(switch["at"] * rate)) / beat
    assert beats == int(beats), f"level-up at {at} s is {beats} beats into the game track"
def load(name):
    a = array.array("f"); a.frombytes(open(f"{work}/{name}", "rb").read()); return a
mix, pad, drums = load("a.f32"), load("pad.f32"), load("drums.f32")
start, n = round(switch["at"] * rate), 4800
def corr(lag):
    return sum(mix[2 * (start + k + lag)] * (pad[2 * k] + drums[2 * k]) for k in range(n))
scores = {lag: corr(lag) for lag in range(-40, 41, 4)} | {lag: corr(lag) for lag in (-1, 1)}
best = max(scores, key=scores.get)
assert best == 0, f"the game track correlates best {best} frames off its switch frame"
print(f"switch at bar {switch['bar']} ({switch['at']} s, asked {switch['asked']} s), "
      f"{len(stingers)} stingers on beats, correlation peak at lag 0")
PY
}

autoplay_is_repeatable() {
    "$game" --autoplay 35 --seed 1 --audio-out "$work/b.wav" >"$work/b.json" 2>/dev/null || return 1
    cmp "$work/a.wav" "$work/b.wav" && cmp "$work/a.json" "$work/b.json"
}

effects_are_heard() { # the first reward of the summary: silence of effects before it is not needed,
    # but the mix must be louder in the 0.1 s after it than the music alone in the 0.1 s before
    local at
    at=$(python3 -c 'import json,sys; print(next(e["at"] for e in json.load(open(sys.argv[1]))["effects"] if e["name"] == "explosion"))' "$work/a.json")
    local before after
    before=$(peak "$work/a.wav" "$(awk -v t="$at" 'BEGIN {print t - 0.1}')" 0.1)
    after=$(peak "$work/a.wav" "$at" 0.1)
    echo "explosion at $at s: peak before $before, after $after"
    above "$after" "$before"
}

usage_errors() {
    "$game" --autoplay 10 >/dev/null 2>"$work/err"
    [ $? -eq 2 ] && grep -q -- "--audio-out" "$work/err" || { cat "$work/err"; return 1; }
    "$game" --autoplay 1 --audio-out "$work/x.wav" --watch-assets >/dev/null 2>"$work/err"
    [ $? -eq 2 ] && grep -q -- "--watch-assets are for the window" "$work/err" || { cat "$work/err"; return 1; }
    "$game" --dance >/dev/null 2>"$work/err"
    [ $? -eq 2 ] && grep -q 'unknown option "--dance"' "$work/err" || { cat "$work/err"; return 1; }
    "$game" --autoplay 5 --audio-out "$work/x.wav" --assets "$work/none" >/dev/null 2>"$work/err"
    [ $? -eq 1 ] && grep -q "$work/none" "$work/err" || { cat "$work/err"; return 1; }
}

no_screen_is_explained() {
    env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$game" </dev/null >/dev/null 2>"$work/err"
    [ $? -eq 1 ] && grep -q "no display and no terminal" "$work/err" || { cat "$work/err"; return 1; }
}

window_dummy() { SDL_VIDEODRIVER=dummy timeout 60 "$game" --window --frames 120; }
# SDL2 is loaded with dlopen when a window opens: the binary must not link it (every start would map
# its ~35 libraries), and the autoplay must not load it.
sdl_is_loaded_only_for_a_window() {
    ! ldd "$game" | grep -q 'libSDL2' || { echo "starfall links SDL2"; return 1; }
    LD_DEBUG=files "$game" --autoplay 0 --audio-out "$work/nosdl.wav" --assets "$(cd "$(dirname "$0")/.." && pwd)/Assets" >/dev/null 2>"$work/ld.txt" &&
        ! grep -q 'file=libSDL2' "$work/ld.txt" || { echo "the autoplay loaded SDL2"; return 1; }
    SDL_VIDEODRIVER=dummy LD_DEBUG=files timeout 60 "$game" --window --frames 2 >/dev/null 2>"$work/ld.txt" &&
        grep -q 'file=libSDL2-2.0.so.0' "$work/ld.txt" || { echo "the window did not load SDL2"; return 1; }
}

window_dummy_plays() { SDL_VIDEODRIVER=dummy timeout 60 "$game" --window --autostart --bot --seed 4 --frames 300; }

window_without_sound_device() {
    SDL_VIDEODRIVER=dummy SOUNDSTATION_DEVICE="no such device" timeout 60 "$game" --window --frames 30 \
        2>"$work/err" || { cat "$work/err"; return 1; }
    grep -q "notice: .*no such device.*Continuing without sound" "$work/err" || { cat "$work/err"; return 1; }
}

window_survives_server_restart() { # the sound server stops mid-game and comes back: the game goes on,
    # exits 0, and its music is heard again while it still runs
    . "$(dirname "$0")/pulse-lib.sh"
    local dir="$work/loss"
    pulse_start "$dir" loss || return 1
    # 1200 frames are 20 s: room for a slow stop and start of the server on a loaded machine (the
    # recording must end before the game does, or it hears the game's silence after its exit)
    env $(pulse_env "$dir") SDL_VIDEODRIVER=dummy timeout 60 "$game" --window --autostart --bot --seed 3 \
        --frames 1200 2>"$work/loss.err" &
    local pid=$! started=$SECONDS
    sleep 3
    pulse_stop "$dir"
    sleep 1.5
    pulse_start "$dir" loss || { kill "$pid"; return 1; }
    local restarted=$SECONDS heard take alive
    # The engine tries to reopen its device once a second: listen until the music is back
    read -r heard take alive < <(pulse_listen_until_heard "$dir" loss "$work/after.wav" "$pid")
    wait "$pid"
    local status=$?
    pulse_stop "$dir"
    echo "exit $status; server back $((restarted - started)) s after the start; heard $heard in take $take of 1 s;" \
        "game still running: $alive"
    [ "$status" -eq 0 ] && above "$heard" 0.02 && [ "$alive" = yes ] && return 0
    echo "the game's stderr:"; cat "$work/loss.err"
    echo "the server's log:"; tail -n 20 "$dir/pulse.log"
    return 1
}

window_watch_assets() { # --watch-assets: an effect saved again mid-game (a new file renamed over the old)
    # and a broken catalogue.json are each reported as a notice; the game goes on and exits 0
    local assets="$work/watched"
    cp -r "$(dirname "$0")/../Assets" "$assets" || return 1
    SDL_VIDEODRIVER=dummy timeout 60 "$game" --window --autostart --bot --seed 2 --frames 480 \
        --assets "$assets" --watch-assets 2>"$work/watch.err" &
    local pid=$!
    sleep 3
    cp "$assets/Effects/coin.wav" "$assets/Effects/.click.tmp" && mv "$assets/Effects/.click.tmp" "$assets/Effects/click.wav"
    sleep 1
    cp "$assets/catalogue.json" "$assets/good.json"
    echo '{ "sounds": [' >"$assets/.catalogue.tmp" && mv "$assets/.catalogue.tmp" "$assets/catalogue.json"
    wait "$pid"
    local status=$?
    cat "$work/watch.err"
    [ "$status" -eq 0 ] && grep -q 'reloaded "click" from Effects/click.wav' "$work/watch.err" \
        && grep -q 'reload of catalogue.json failed: .*catalogue.json' "$work/watch.err"
}

window_screenshot() { # a real X server (Xvfb on a free display); the BMP must show the playfield
    exec 4>"$work/display"
    Xvfb -displayfd 4 -screen 0 1024x768x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 50); do [ -s "$work/display" ] && break; sleep 0.1; done
    exec 4>&-
    local display
    display=":$(head -n1 "$work/display")"
    [ "$display" != ":" ] || { cat "$work/xvfb.log"; return 1; }
    DISPLAY=$display timeout 60 "$game" --window --autostart --bot --seed 3 --frames 200 \
        --screenshot "$work/shot.bmp" || return 1
    python3 - "$work/shot.bmp" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:2] == b"BM", "not a BMP"
offset, = struct.unpack_from("<I", data, 10)
width, height, _, bits = struct.unpack_from("<iiHH", data, 18)
step = bits // 8
row = (width * step + 3) & ~3
def pixel(x, y):
    line = abs(height) - 1 - y if height > 0 else y
    at = offset + line * row + x * step
    return data[at + 2], data[at + 1], data[at]
counts = {"paddle": 0, "star": 0, "text": 0}
for y in range(abs(height)):
    for x in range(width):
        r, g, b = pixel(x, y)
        if (r, g, b) == (60, 210, 235): counts["paddle"] += 1
        if (r, g, b) == (255, 222, 70): counts["star"] += 1
        if (r, g, b) == (240, 240, 250): counts["text"] += 1
print(f"{width}x{abs(height)} {bits}-bit: {counts}")
assert counts["paddle"] > 300 and counts["star"] > 20 and counts["text"] > 100, counts
PY
}

# The terminal front end in a tmux pane running a plain shell, as a person would use it.
pane() { tmux -L "$socket" capture-pane -t starfall -p; }
keys() { tmux -L "$socket" send-keys -t starfall "$@"; }
wait_for() { # wait_for PATTERN [SECONDS]: until the pane shows PATTERN
    local tries=$((${2:-10} * 10))
    for _ in $(seq "$tries"); do pane | grep -q -- "$1" && return 0; sleep 0.1; done
    echo "the pane never showed '$1'; it shows:"
    pane
    return 1
}

start_shell() { # a fresh tmux server per check: reusing a socket races with the old server's exit
    [ -n "$socket" ] && tmux -L "$socket" kill-server 2>/dev/null
    shells=$((shells + 1))
    socket="starfall-e2e-$$-$shells"
    tmux -L "$socket" new-session -d -s starfall -x 100 -y 30 "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER PS1='prompt\$ ' bash --norc --noprofile"
    wait_for 'prompt\$'
}

terminal_plays_and_restores() {
    start_shell || return 1
    keys "cd $work && stty -a > before.txt && $game; echo status=\$?" Enter
    wait_for "START" || return 1
    pane | grep -q "STARFALL" || { echo "no title"; pane; return 1; }
    keys Space
    wait_for "LIVES" || return 1
    keys p
    wait_for "PAUSED" || return 1
    keys q
    wait_for "catch the falling stars" || return 1
    keys q
    wait_for "status=0" || return 1
    keys "stty -a > after.txt; echo reply-\$((40 + 2))" Enter
    wait_for "reply-42" || return 1
    pane | grep -q "stty -a > before.txt" || { echo "the main screen did not come back"; pane; return 1; }
    diff "$work/before.txt" "$work/after.txt"
}

terminal_opens_voice_notes() { # the menu's voice-notes entry opens the recorder screen and comes back
    start_shell || return 1
    keys "cd $work && XDG_DATA_HOME=$work/notes-home $game; echo status=\$?" Enter
    wait_for "START" || return 1
    keys s
    wait_for "> UPGRADES" || return 1
    keys s
    wait_for "> VOICE NOTES" || return 1
    keys Enter
    wait_for "Press r to record" || return 1
    pane | grep -q "Voice Notes" || { echo "no voice-notes title"; pane; return 1; }
    keys q
    wait_for "> VOICE NOTES" || return 1
    keys q
    wait_for "status=0"
}

terminal_pulses_on_the_beat() { # the side walls flash with the music's beats: over 3 s of play the
    # wall at the left edge is seen both in its resting blue (94) and lit (cyan 96 or white 97)
    start_shell || return 1
    keys "cd $work && $game --terminal --autostart --bot" Enter
    wait_for "LIVES" || return 1
    local rest=0 lit=0 line
    for _ in $(seq 40); do
        line=$(tmux -L "$socket" capture-pane -t starfall -p -e | sed -n 6p)
        case "$line" in
            *"[94m|"* | *";94m|"*) rest=$((rest + 1)) ;;
            *"[96m|"* | *"[97m|"* | *";96m|"* | *";97m|"*) lit=$((lit + 1)) ;;
        esac
        sleep 0.07
    done
    keys C-c
    echo "wall resting in $rest captures, lit in $lit"
    [ "$rest" -gt 0 ] && [ "$lit" -gt 0 ]
}

terminal_ctrl_c_restores() {
    start_shell || return 1
    keys "cd $work && stty -a > before-int.txt && $game --terminal --autostart --bot; echo status=\$?" Enter
    wait_for "LIVES" || return 1
    keys C-c
    wait_for "status=130" || return 1
    keys "stty -a > after-int.txt; echo reply-int" Enter
    wait_for "reply-int" || return 1
    diff "$work/before-int.txt" "$work/after-int.txt"
}

terminal_sigterm_restores() {
    start_shell || return 1
    keys "cd $work && stty -a > before-term.txt && bash -c 'echo \$\$ > pid; exec $game --terminal'; echo status=\$?" Enter
    wait_for "START" || return 1
    kill -TERM "$(cat "$work/pid")"
    wait_for "status=143" || return 1
    keys "stty -a > after-term.txt; echo reply-term" Enter
    wait_for "reply-term" || return 1
    diff "$work/before-term.txt" "$work/after-term.txt"
}

check "autoplay renders 35 s at 48 kHz stereo and prints the JSON summary" autoplay_renders
check "autoplay: the game track starts on the menu's bar line, stingers on the beat" music_on_the_grid
check "autoplay with the same seed gives the same bytes" autoplay_is_repeatable
check "autoplay WAV: the explosion is heard at its time" effects_are_heard
check "usage errors exit 2, missing assets exit 1, naming them" usage_errors
check "no display and no terminal is explained" no_screen_is_explained
check "SDL2 is not linked, and loaded only when a window opens" sdl_is_loaded_only_for_a_window
check "window runs headless with SDL_VIDEODRIVER=dummy" window_dummy
check "window plays a bot game headless" window_dummy_plays
check "window runs silent with a notice when there is no sound device" window_without_sound_device
check "window survives the sound server stopping and coming back" window_survives_server_restart
check "window --watch-assets reports a reloaded effect and a broken catalogue, plays on" window_watch_assets
check "window screenshot under Xvfb shows the playfield" window_screenshot
check "terminal: title, play, pause, menu, quit; terminal left as found" terminal_plays_and_restores
check "terminal: the menu opens the voice-notes screen and returns" terminal_opens_voice_notes
check "terminal: the walls pulse on the music's beats" terminal_pulses_on_the_beat
check "terminal: Ctrl-C exits 130 and restores the terminal" terminal_ctrl_c_restores
check "terminal: SIGTERM exits 143 and restores the terminal" terminal_sigterm_restores

e2e_summary e2e-starfall

#!/usr/bin/env bash
# End-to-end checks of sound over SSH with real parts: a private OpenSSH server on 127.0.0.1 (a test
# port, keys made here, a forced command), `soundstation ssh` in tmux as the player, the private
# PulseAudio server's null sink recorded to measure what the player heard, a relay that makes the
# link slow and uneven, and a hostile server.
# Usage: Scripts/e2e-ssh.sh [BIN_DIR]   (inside Scripts/with-pulse.sh)
set -uo pipefail
bin=${1:-.build/debug}
bindir=$(cd "$bin" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
cli="$bindir/soundstation"
work=$(mktemp -d /tmp/ssh-e2e.XXXXXX)
chmod 755 "$work"
socket=ssh-e2e-$$
shared=ssh-e2e-shared-$$
cleanup() {
    tmux -L "$socket" kill-server 2>/dev/null
    tmux -L "$shared" kill-server 2>/dev/null
    [ -f "$work/sshd.pid" ] && kill "$(cat "$work/sshd.pid")" 2>/dev/null
    [ -f "$work/sshd-nolc.pid" ] && kill "$(cat "$work/sshd-nolc.pid")" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
. "$(dirname "$0")/e2e-lib.sh"
# A session that lasts as long as the checks: a tmux server exits with its last session, and a pane
# started while it is exiting fails ("server exited unexpectedly"; once in a CI run).
tmux -L "$socket" new-session -d -s keeper "sleep 86400" 2>/dev/null || true

[ -x /usr/sbin/sshd ] || { echo "e2e-ssh: /usr/sbin/sshd is missing (Scripts/install-deps.sh test installs openssh-server)"; exit 1; }
[ -n "${PULSE_SERVER:-}" ] || { echo "e2e-ssh: run inside Scripts/with-pulse.sh"; exit 1; }
mkdir -p /run/sshd 2>/dev/null || [ -d /run/sshd ] || { echo "e2e-ssh: cannot create /run/sshd (sshd's privilege separation folder)"; exit 1; }

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f "$work/host" && ssh-keygen -q -t ed25519 -N '' -f "$work/user" || exit 1
cp "$work/user.pub" "$work/authorized_keys"
# The forced command: the game server. It has the sound server within reach (so a game that opened a
# device would be heard there); it samples the game's open files while the game runs.
cat >"$work/forced.sh" <<EOS
#!/bin/sh
export PATH="$bindir:\$PATH" SOUNDSTATION_ASSETS="$repo/Assets" PULSE_SERVER="$PULSE_SERVER" ALSOFT_DRIVERS=pulse
echo "\${LC_SOUNDSTATION:-none}" > "$work/lc.txt"
case "\$SSH_ORIGINAL_COMMAND" in
hostile) exec python3 "$repo/Scripts/ssh/hostile.py" ;;
# The game inside a tmux of the server's, attached in this session.
"tmux-game "*) exec tmux -L "server-\$\$" -f /dev/null new-session -x 100 -y 30 "\${SSH_ORIGINAL_COMMAND#tmux-game }" ;;
# A game left running in a tmux of the server's that a later session attaches to.
"tmux-start "*) tmux -L "$shared" -f /dev/null new-session -d -s game -x 100 -y 30 "\${SSH_ORIGINAL_COMMAND#tmux-start }"; sleep 3; exit 0 ;;
tmux-attach) exec tmux -L "$shared" attach -t game ;;
esac
# The session's processes (this script leads the session sshd made): their open files and the sound
# server's clients, sampled while the game plays.
session=\$\$
(
    sleep 0.7
    pgrep -s \$session > "$work/game.pids"
    for p in \$(cat "$work/game.pids"); do echo "== \$p \$(cat /proc/\$p/comm 2>/dev/null)"; ls -l /proc/\$p/fd 2>/dev/null; done > "$work/fds.txt"
    pactl list clients 2>/dev/null > "$work/clients.txt"
) &
exec sh -c "\$SSH_ORIGINAL_COMMAND"
EOS
chmod +x "$work/forced.sh"
cat >"$work/sshd_config" <<EOS
Port $port
ListenAddress 127.0.0.1
HostKey $work/host
AuthorizedKeysFile $work/authorized_keys
StrictModes no
UsePAM no
PidFile $work/sshd.pid
AcceptEnv LANG LC_*
ForceCommand $work/forced.sh
EOS
/usr/sbin/sshd -f "$work/sshd_config" -E "$work/sshd.log" || { echo "e2e-ssh: sshd did not start"; cat "$work/sshd.log"; exit 1; }
# A second server that accepts no variable (no AcceptEnv: LC_SOUNDSTATION does not pass), for the
# forwarded socket.
nolc_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
grep -v -e '^AcceptEnv' -e '^Port' -e '^PidFile' "$work/sshd_config" >"$work/sshd_nolc_config"
printf 'Port %s\nPidFile %s\nStreamLocalBindUnlink yes\n' "$nolc_port" "$work/sshd-nolc.pid" >>"$work/sshd_nolc_config"
/usr/sbin/sshd -f "$work/sshd_nolc_config" -E "$work/sshd-nolc.log" || { echo "e2e-ssh: the second sshd did not start"; cat "$work/sshd-nolc.log"; exit 1; }
for _ in $(seq 50); do [ -s "$work/sshd.pid" ] && [ -s "$work/sshd-nolc.pid" ] && break; sleep 0.1; done

nolc_options=(-p "$nolc_port" -i "$work/user" -o UserKnownHostsFile="$work/known" -o StrictHostKeyChecking=no -o BatchMode=yes -o LogLevel=ERROR)
ssh_options=(-p "$port" -i "$work/user" -o UserKnownHostsFile="$work/known" -o StrictHostKeyChecking=no -o BatchMode=yes -o LogLevel=ERROR)
cache="$work/cache"
relay="python3 $repo/Scripts/ssh/relay.py 127.0.0.1 $port 40 10"
three="soundstation play 0:effect:hit 0.5:effect:hit 1.0:effect:hit"

# in_pane NAME COMMAND: runs COMMAND in a 100x30 tmux pane and waits for it; the pane's text ends up
# in $work/NAME.pane, its status in $work/NAME.status.
in_pane() {
    local name=$1 command=$2
    rm -f "$work/$name.status"
    printf '%s\n' "$command; echo \$? > $work/$name.status.tmp; mv $work/$name.status.tmp $work/$name.status; sleep 60" >"$work/$name.sh"
    tmux -L "$socket" kill-session -t "$name" 2>/dev/null
    # Alternate screen off: a full-screen game's last frame stays on the pane after it exits.
    tmux -L "$socket" new-session -d -s "$name" -x 100 -y 30 "env LANG=C.UTF-8 sh $work/$name.sh" \; \
        set-option -w -t "$name" alternate-screen off
    for _ in $(seq 900); do [ -f "$work/$name.status" ] && break; sleep 0.1; done
    sleep 0.2
    tmux -L "$socket" capture-pane -t "$name" -p >"$work/$name.pane"
    tmux -L "$socket" kill-session -t "$name" 2>/dev/null
    [ -f "$work/$name.status" ] || { echo "$name did not finish in 90 s; its pane:"; cat "$work/$name.pane"; return 1; }
}

# player NAME [EXTRA SSH OPTIONS...] -- REMOTE COMMAND: soundstation ssh into the test server in a pane
# ($PLAYER_FLAGS go to soundstation ssh, $SERVER_OPTIONS replace the server's port and keys).
player() {
    local name=$1 extra=$2 remote=$3
    in_pane "$name" "'$cli' ssh ${PLAYER_FLAGS:-} --cache '$cache' --stats '$work/$name.json' -t ${SERVER_OPTIONS:-${ssh_options[*]}} $extra $USER_AT -- $remote"
}
USER_AT="$(id -un)@127.0.0.1"

# heard NAME ...: player NAME ... while the sink's monitor is recorded into $work/NAME.wav.
heard() {
    local name=$1
    # A steady low-latency stream keeps the null sink rendering in small steps.
    pacat --playback --latency-msec=10 --rate=48000 --channels=1 --format=s16le /dev/zero &
    local keep=$!
    parecord --latency-msec=100 --device=test.monitor --rate=48000 --channels=1 --file-format=wav "$work/$name.wav" &
    local recorder=$!
    sleep 1
    player "$@"
    local status=$?
    sleep 2.5
    kill "$recorder" "$keep" 2>/dev/null
    wait "$recorder" "$keep" 2>/dev/null
    return $status
}

stat_of() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/$1.json" "$2"; }

# spacing NAME: three onsets 500 ms apart within 2 ms in NAME's recording.
spacing() {
    python3 "$repo/Scripts/ssh/onsets.py" "$work/$1.wav" || return 1
    python3 "$repo/Scripts/ssh/onsets.py" "$work/$1.wav" | python3 -c '
import sys
lines = dict(line.split(" ", 1) for line in sys.stdin.read().strip().splitlines())
gaps = [float(g) for g in lines["gaps"].split()]
assert len(gaps) == 2, f"three onsets wanted, gaps {gaps}"
assert all(abs(g - 500) <= 2 for g in gaps), f"gaps {gaps} ms, wanted 500 +- 2"'
}

first_session_fills_cache() { # a short session leaves a file in part; a long one resumes and ends it
    # 1.5 s at 768 KiB/s: the small files and part of the music (about 2 MB in all).
    player cut "" "soundstation play --seconds 1.5 0:music:main" || return 1
    cat "$work/cut.json" || return 1
    local partial
    partial=$(ls -A "$cache" | grep -c '^\.partial-')
    echo "after a 1.5 s session: $(ls "$cache" | wc -l) files whole, $partial in part"
    [ "$partial" -ge 1 ] || return 1
    player first "" "soundstation play --seconds 5 0:effect:hit 0.5:music:main" || return 1
    cat "$work/first.pane" "$work/first.json" || return 1
    [ "$(cat "$work/first.status")" = 0 ] || return 1
    [ "$(stat_of first filesReceived)" -ge 1 ] || return 1
    [ -z "$(ls -A "$cache" | grep '^\.partial-')" ] || { echo "a file is still in part"; return 1; }
    local total
    total=$(find "$repo/Assets" -type f ! -name catalogue.json -printf '%s\n' | awk '{s += $1} END {print s}')
    echo "file bytes: $(stat_of cut fileBytes) + $(stat_of first fileBytes) of $total"
    [ $(($(stat_of cut fileBytes) + $(stat_of first fileBytes))) -eq "$total" ] || return 1
    # Every cached file is one of the game's, named by its SHA-256.
    local asset_hashes
    asset_hashes=$(find "$repo/Assets" -type f ! -name catalogue.json -exec sha256sum {} + | cut -c1-64 | sort)
    for file in "$cache"/*; do
        local name hash
        name=$(basename "$file")
        hash=$(sha256sum "$file" | cut -c1-64)
        [ "${name%%.*}" = "$hash" ] || { echo "$name does not hash to its name"; return 1; }
        grep -qx "$hash" <<<"$asset_hashes" || { echo "$name is none of the game's files"; return 1; }
    done
    echo "cache: $(ls "$cache" | wc -l) files"
}

three_effects_keep_spacing() { # the second session sends no file, the server opens no sound device
    heard spaced "" "$three" || return 1
    cat "$work/spaced.json"
    spacing spaced || return 1
    [ "$(stat_of spaced filesReceived)" = 0 ] && [ "$(stat_of spaced filesFromCache)" -ge 1 ] || return 1
    [ "$(stat_of spaced notArrived)" = 0 ] && [ "$(stat_of spaced late)" = 0 ] || return 1
    echo "the session's processes and their open files:"; cat "$work/fds.txt"
    grep -q "== .* soundstation" "$work/fds.txt" || { echo "the game's files were not sampled"; return 1; }
    if grep -q /dev/snd "$work/fds.txt"; then echo "the game opened a sound device"; return 1; fi
    local game
    game=$(sed -n 's/^== \([0-9]*\) soundstation$/\1/p' "$work/fds.txt")
    if grep -q "application.process.id = \"$game\"" "$work/clients.txt"; then
        echo "the game (process $game) is a client of the sound server"
        return 1
    fi
    if grep -A12 "^== $game " "$work/fds.txt" | grep -q "socket:"; then echo "the game holds a socket"; return 1; fi
    grep -q "playing on remote" "$work/spaced.pane"
}

slow_uneven_link() { # through a relay holding each chunk 40 +- 10 ms: the jitter buffer keeps the spacing
    heard relayed "-o 'ProxyCommand=$relay'" "$three" || return 1
    cat "$work/relayed.json"
    spacing relayed || return 1
    echo "jitter seen: $(stat_of relayed jitterMs) ms, absorbed by the $(stat_of relayed delayMs) ms delay"
    [ "$(stat_of relayed late)" = 0 ]
}

corrupted_entry_refetched() {
    local victim
    victim=$(ls -S "$cache" | tail -1)
    printf 'XXXX' | dd of="$cache/$victim" bs=1 seek=100 conv=notrunc 2>/dev/null
    player corrupt "" "soundstation play 0:effect:click" || return 1
    cat "$work/corrupt.json"
    [ "$(stat_of corrupt cacheRemoved)" = 1 ] && [ "$(stat_of corrupt filesReceived)" = 1 ] || return 1
    [ "$(sha256sum "$cache/$victim" | cut -c1-64)" = "${victim%%.*}" ]
}

# The same screen through plain ssh and through soundstation ssh: a program that draws with colours
# and cursor moves around the game's sounds.
cat >"$work/draw.sh" <<'EOS'
printf '\033[2J\033[3;5H\033[1;31mscore\033[0m 10\r\n'
soundstation play 0:effect:coin 0.3:effect:hit >/dev/null
printf '\033[5;1Hbye\r\n'
EOS
drawing="sh $work/draw.sh"

plain_ssh_is_clean() { # no announcement: the game does not write a single frame
    in_pane plain "ssh -t ${ssh_options[*]} $USER_AT -- $drawing" || return 1
    in_pane through "'$cli' ssh --quiet --cache '$cache' --stats '$work/through.json' -t ${ssh_options[*]} $USER_AT -- $drawing" || return 1
    cat "$work/plain.pane"
    grep -q "score 10" "$work/plain.pane" || return 1
    diff "$work/plain.pane" "$work/through.pane" || { echo "the panes differ"; return 1; }
    [ "$(stat_of through commands)" -ge 2 ] || return 1
    # The raw stream of a plain session holds no frame.
    ssh -tt "${ssh_options[@]}" "$USER_AT" -- "$drawing" </dev/null >"$work/raw.bin" 2>/dev/null
    grep -q "score" "$work/raw.bin" || return 1
    if grep -qa $'\e_SS1' "$work/raw.bin"; then echo "a frame in a plain session"; return 1; fi
}

hostile_server() { # crafted frames: the player stays up, within its caps, with a clean screen
    local before
    before=$(ls "$cache" | sort)
    in_pane hostile "'$cli' ssh --quiet --cache '$cache' --stats '$work/hostile.json' -t ${ssh_options[*]} $USER_AT -- hostile" || return 1
    cat "$work/hostile.pane" "$work/hostile.json"
    [ "$(cat "$work/hostile.status")" = 0 ] || return 1
    grep -q HOSTILE-START "$work/hostile.pane" && grep -q HOSTILE-END "$work/hostile.pane" || return 1
    local other
    other=$(grep -v -e '^$' -e HOSTILE-START -e HOSTILE-END -e '^Connection to .* closed.' "$work/hostile.pane")
    [ -z "$other" ] || { echo "stray text on the screen: $other"; return 1; }
    python3 - "$work/hostile.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
# 3 frames that are not base64 or end badly, 1 of 200 KB, 3 that decode to no message; 3 refused
# (a catalogue with paths, a file that does not match its hash, a 512 GiB file); the flood capped.
assert s["malformed"] >= 3 and s["oversized"] >= 1 and s["rateLimited"] >= 1000, s
assert s["undecodable"] >= 3 and s["refused"] >= 3 and s["filesReceived"] == 0, s
print("dropped", s["malformed"] + s["oversized"] + s["rateLimited"] + s["undecodable"], "refused", s["refused"])
PY
    [ $? = 0 ] || return 1
    [ "$(ls "$cache" | sort)" = "$before" ] || { echo "the cache changed"; return 1; }
    ! ls /tmp/soundstation-pwned-* 2>/dev/null
}

session_passes_keys_size_and_status() {
    in_pane keys "'$cli' ssh --quiet --cache '$cache' -t ${ssh_options[*]} $USER_AT -- 'stty size; read line; echo got:\$line; exit 7'" &
    local waiter=$!
    sleep 2.5
    tmux -L "$socket" send-keys -t keys "hello" Enter
    wait $waiter
    cat "$work/keys.pane"
    grep -q "^30 100" "$work/keys.pane" && grep -q "got:hello" "$work/keys.pane" || return 1
    [ "$(cat "$work/keys.status")" = 7 ]
}

starfall_game="starfall --terminal --autostart --bot --seed 3 --frames 600"
starfall_is_heard() { # the terminal front end with its bot, over SSH: the player's sink hears it
    PLAYER_FLAGS="--quiet --record $work/starfall.rec" heard starfall "" "$starfall_game" || return 1
    cat "$work/starfall.json" "$work/starfall.pane"
    [ "$(stat_of starfall commands)" -ge 10 ] && [ "$(stat_of starfall notArrived)" = 0 ] || return 1
    echo "recorded peak $(peak "$work/starfall.wav"), RMS $(rms "$work/starfall.wav")"
    above "$(rms "$work/starfall.wav")" 0.02 || return 1
    # What the sink heard against an offline render of the commands the game sent (each at its
    # frame on the game's clock): every second with sound in it lines up within 5 ms.
    "$cli" render --session "$work/starfall.rec" --cache "$cache" --seconds 11 --out "$work/starfall-ref.wav" || return 1
    [ -z "${E2E_KEEP:-}" ] || cp "$work/starfall.wav" "$work/starfall-ref.wav" "$work/starfall.rec" "$E2E_KEEP/"
    python3 "$repo/Scripts/ssh/xcorr.py" "$work/starfall.wav" "$work/starfall-ref.wav" 5
}

starfall_panes_match() { # the same seed through plain ssh: the same last screen
    in_pane starfall-plain "ssh -t ${ssh_options[*]} $USER_AT -- $starfall_game" || return 1
    grep -q "[^[:space:]]" "$work/starfall-plain.pane" || { echo "an empty pane"; return 1; }
    cat "$work/starfall-plain.pane"
    diff "$work/starfall-plain.pane" "$work/starfall.pane" || { echo "the panes differ"; return 1; }
}

c_and_python_games_are_heard() { # Catch (C, ss_open "auto") and Snake (Python, Engine("auto"))
    mkdir -p "$work/lib"
    ln -sf "$bindir/libSoundStationC.so" "$work/lib/libsoundstation.so.1"
    ln -sf libsoundstation.so.1 "$work/lib/libsoundstation.so"
    cc -std=c99 -O2 -o "$work/catch" "$repo/Examples/CursesC/catch.c" -I"$repo/Sources/CSoundStation/include" \
        -L"$work/lib" -lsoundstation -Wl,-rpath,"$work/lib" -lncurses || return 1
    heard catch "" "$work/catch --autoplay --frames 300" || return 1
    heard snake "" "env PYTHONPATH=$repo/python SOUNDSTATION_LIBRARY=$bindir/libSoundStationC.so python3 $repo/Examples/CursesPython/snake.py --autoplay --frames 300" || return 1
    for game in catch snake; do
        echo "$game: $(stat_of $game commands) commands, recorded RMS $(rms "$work/$game.wav")"
        [ "$(stat_of $game commands)" -ge 3 ] && [ "$(stat_of $game notArrived)" = 0 ] || return 1
        above "$(rms "$work/$game.wav")" 0.02 || return 1
    done
}

socket_when_no_lc() { # a server that passes no LC_*: soundstation ssh --socket, three effects 0.5 s apart
    PLAYER_FLAGS=--socket SERVER_OPTIONS="${nolc_options[*]}" heard socket "" "$three" || return 1
    cat "$work/socket.json" "$work/socket.pane"
    [ "$(cat "$work/lc.txt")" = none ] || { echo "LC_SOUNDSTATION reached the server"; return 1; }
    spacing socket || return 1
    [ "$(stat_of socket socketFrames)" -ge 3 ] && [ "$(stat_of socket filesReceived)" = 0 ] || return 1
    [ "$(stat_of socket notArrived)" = 0 ] && [ "$(stat_of socket late)" = 0 ] || return 1
    grep -q "playing on remote" "$work/socket.pane"
}

listen_and_plain_ssh() { # soundstation listen + ssh -R by hand; the pane stays clean
    local sock="$work/listen.sock"
    "$cli" listen --socket "$sock" --sessions 1 --output silent --cache "$cache" --stats "$work/listen.json" 2>"$work/listen.err" &
    local listener=$!
    for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
    cat "$work/listen.err"
    grep -q "connect with: ssh -R /tmp/soundstation-%r-" "$work/listen.err" || return 1
    in_pane listened "ssh -t ${nolc_options[*]} -R /tmp/soundstation-%r-e2e.sock:$sock $USER_AT -- soundstation play 0:effect:hit 0.5:effect:coin" || return 1
    for _ in $(seq 100); do kill -0 $listener 2>/dev/null || break; sleep 0.1; done
    kill $listener 2>/dev/null && { echo "listen did not end after the session"; return 1; }
    cat "$work/listened.pane" "$work/listen.json"
    [ "$(python3 -c "import json; print(len(json.load(open('$work/listen.json'))['firstPlays']))")" = 2 ] && [ "$(stat_of listen notArrived)" = 0 ] && [ "$(stat_of listen strayBytes)" = 0 ] || return 1
    grep -q "playing on remote" "$work/listened.pane" || return 1
    if grep -q $'\e' "$work/listened.pane"; then echo "an escape on the pane"; return 1; fi
}

game_in_server_tmux() { # the game inside tmux on the server: sound through the socket, spacing kept
    PLAYER_FLAGS=--socket heard intmux "" "tmux-game $three" || return 1
    cat "$work/intmux.json" "$work/intmux.pane"
    spacing intmux || return 1
    [ "$(stat_of intmux socketFrames)" -ge 3 ] && [ "$(stat_of intmux notArrived)" = 0 ] || return 1
    # Through the multiplexer nothing of a frame reaches the screen either way (tmux swallows APC).
    [ "$(stat_of intmux accepted)" = "$(stat_of intmux socketFrames)" ]
}

the_sound_follows_the_player_who_attaches() { # detach, a new session attaches: it hears the game
    local cues="" t
    for t in 1 2 3 4 5 6 7 8 9 10 11 12; do cues="$cues $t:effect:hit"; done
    # The first session starts the game in the server's tmux and leaves it (its ssh lasts while the
    # game holds its socket; it plays silent, so the sink hears the second only); a second session
    # attaches 4 s later.
    PLAYER_FLAGS="--socket --output silent" player first-tmux "" "tmux-start soundstation play --seconds 13 $cues" &
    local first=$!
    sleep 4
    PLAYER_FLAGS=--socket heard attached "" "tmux-attach" || return 1
    wait $first || return 1
    cat "$work/first-tmux.json" "$work/attached.json"
    # The first player heard the game until the game found the newer socket (it looks every 2 s) and
    # let go of the first; the second the rest, a second apart.
    [ "$(stat_of first-tmux commands)" -ge 2 ] && [ "$(stat_of first-tmux commands)" -lt 12 ] || return 1
    [ "$(stat_of attached commands)" -ge 3 ] || return 1
    [ "$(stat_of attached sessions)" = 1 ] && [ "$(stat_of attached notArrived)" = 0 ] || return 1
    python3 "$repo/Scripts/ssh/onsets.py" "$work/attached.wav" | tee "$work/attached.onsets" || return 1
    python3 - "$work/attached.onsets" <<'PY'
import sys
lines = dict(line.split(" ", 1) for line in open(sys.argv[1]).read().strip().splitlines())
gaps = [float(g) for g in lines["gaps"].split()]
assert len(gaps) >= 2 and all(abs(g - 1000) <= 2 for g in gaps), f"gaps {gaps} ms, wanted 1000 +- 2"
PY
}

cache_command() {
    "$cli" cache list --cache "$cache" | tail -1 | grep -q "files" || return 1
    "$cli" cache clear --cache "$cache" | grep -q "removed" || return 1
    [ -z "$(ls "$cache")" ]
}

check "the first sessions send the catalogue's files into the cache by SHA-256, resuming a cut-off one" first_session_fills_cache
check "three effects 0.5 s apart are heard 0.5 s apart (2 ms); the server opens no sound device" three_effects_keep_spacing
check "a slow, uneven link (40 +- 10 ms per chunk) keeps the spacing" slow_uneven_link
check "a corrupted cache entry is found by its hash and fetched again" corrupted_entry_refetched
check "plain ssh: no frame in the stream; the pane is the same as through soundstation ssh" plain_ssh_is_clean
check "a hostile server: the player stays up, drops and counts, the screen stays clean" hostile_server
check "keys, window size and exit status pass through" session_passes_keys_size_and_status
check "Starfall's terminal front end with its bot over SSH is heard, matching an offline render of its commands (5 ms)" starfall_is_heard
check "Starfall through plain ssh leaves the same screen as through soundstation ssh" starfall_panes_match
check "Catch (C) and Snake (Python) over SSH choose the remote output and are heard" c_and_python_games_are_heard
check "a server that passes no LC_*: soundstation ssh --socket, three effects heard 0.5 s apart (2 ms)" socket_when_no_lc
check "soundstation listen with a plain ssh -R: the game's sound arrives, the pane is clean" listen_and_plain_ssh
check "a game inside tmux on the server: sound through the socket, three effects 0.5 s apart (2 ms)" game_in_server_tmux
check "tmux on the server: after a detach, the player who attaches from a new session hears the game" the_sound_follows_the_player_who_attaches
check "soundstation cache lists and clears" cache_command
e2e_summary e2e-ssh

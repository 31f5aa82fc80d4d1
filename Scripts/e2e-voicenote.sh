#!/usr/bin/env bash
# End-to-end checks of the voicenote CLI and its terminal screen, as a user runs them: speech from
# espeak-ng is played into the null sink while voicenote records its monitor; results are measured
# with soxi/sox/ogginfo, and the screen is driven through tmux.
# Usage: Scripts/e2e-voicenote.sh [BIN_DIR]   (inside Scripts/with-pulse.sh; E2E_VERBOSE=1 shows
# what every check measured, not only the failing ones)
set -uo pipefail
bin=${1:-.build/debug}
cli="$bin/voicenote"
work=$(mktemp -d /tmp/voicenote-e2e.XXXXXX)
notes="$work/notes"
tmux_socket="$work/tmux.sock"
cleanup() {
    tmux -S "$tmux_socket" kill-server >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
. "$(dirname "$0")/e2e-lib.sh"



only_note() { find "$notes" -maxdepth 1 -name 'recording-*.ogg' | head -1; }

espeak-ng -w "$work/speech.wav" "This is a voice note. It was recorded from the null sink." || exit 1

record_while_speaking() { # record 2 s of samples while the speech plays into the sink
    (sleep 0.3 && paplay "$work/speech.wav") &
    local speaker=$!
    "$cli" record --seconds 2 --dir "$notes" </dev/null | tee "$work/record.out" || return 1
    wait "$speaker"
    local note
    note=$(only_note)
    [ -n "$note" ] || { echo "no note in $notes"; ls -la "$notes"; return 1; }
    ! ls "$notes" | grep -q '\.part$' || { echo "a .part file was left"; return 1; }
    soxi "$note" | tee "$work/soxi"
    grep -q 'Sample Rate    : 12000' "$work/soxi" && grep -q 'Channels       : 1' "$work/soxi" || return 1
    [ "$(soxi -s "$note")" -eq 24000 ] || { echo "$(soxi -s "$note") samples, wanted 24000"; return 1; }
    ogginfo "$note" >"$work/ogginfo" || { cat "$work/ogginfo"; return 1; }
    local loud
    loud=$(rms "$note")
    echo "note RMS $loud"
    above "$loud" 0.01
}

list_shows_it() {
    local name
    name=$(basename "$(only_note)")
    "$cli" list --dir "$notes" >"$work/list" || return 1
    cat "$work/list"
    grep -q "^$name .* 2.00 s" "$work/list"
}

info_prints_format() {
    "$cli" info "$(only_note)" | tee "$work/info" || return 1
    grep -q '^rate: *12000 Hz' "$work/info" && grep -q '^channels: *1$' "$work/info" \
        && grep -q '^duration: *2.000 s' "$work/info"
}

play_returns_after_note() { # play by name; the sink hears it; returns once the 2 s note has played
    local name start end status
    name=$(basename "$(only_note)" .ogg)
    parecord --device=test.monitor --rate=16000 --channels=1 --file-format=wav "$work/heard.wav" &
    local recorder=$!
    sleep 0.3
    start=$(date +%s.%N)
    timeout 20 "$cli" play "$name" --dir "$notes" </dev/null | tee "$work/play.out"
    status=${PIPESTATUS[0]}
    end=$(date +%s.%N)
    sleep 0.3
    kill "$recorder" 2>/dev/null
    wait "$recorder" 2>/dev/null
    local took heard
    took=$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')
    heard=$(rms "$work/heard.wav")
    echo "play exit $status after $took s, heard RMS $heard"
    [ "$status" -eq 0 ] && grep -q '^finished' "$work/play.out" && above "$took" 1.9 && above "$heard" 0.005
}

long_note_streams() { # a note over the 60 s threshold streams from its file on the real device path
    sox -n -r 12000 -c 1 "$work/long.ogg" synth 70 sine 440 vol 0.3 || return 1
    parecord --device=test.monitor --rate=16000 --channels=1 --file-format=wav "$work/long-heard.wav" &
    local recorder=$!
    sleep 0.3
    timeout -s INT 3 "$cli" play "$work/long.ogg" </dev/null >"$work/long.out" 2>&1
    local status=$?
    kill "$recorder" 2>/dev/null
    wait "$recorder" 2>/dev/null
    cat "$work/long.out"
    local heard
    heard=$(rms "$work/long-heard.wav")
    echo "exit $status, heard RMS $heard"
    grep -q '^playing long.ogg (1:10.0)' "$work/long.out" && grep -q '^stopped' "$work/long.out" \
        && above "$heard" 0.05
}

rename_and_delete_by_name() { # copies of the note: rename keeps .ogg, refuses taken and unsafe names
    local dir="$work/names"
    mkdir -p "$dir"
    cp "$(only_note)" "$dir/a.ogg" && cp "$(only_note)" "$dir/b.ogg" || return 1
    "$cli" rename a meeting --dir "$dir" | tee "$work/rename.out" || return 1
    grep -q '^renamed a to meeting.ogg$' "$work/rename.out" && [ -f "$dir/meeting.ogg" ] && [ ! -e "$dir/a.ogg" ] \
        || { ls -la "$dir"; return 1; }
    fails 1 'a voice note named "b" already exists' "$cli" rename meeting b --dir "$dir" || return 1
    fails 1 'invalid note name "x/y"' "$cli" mv meeting x/y --dir "$dir" || return 1
    fails 2 'rename needs' "$cli" rename meeting --dir "$dir" || return 1
    [ -f "$dir/meeting.ogg" ] && [ -f "$dir/b.ogg" ] || { ls -la "$dir"; return 1; }
    "$cli" delete meeting --dir "$dir" | grep -q '^removed meeting.ogg$' || return 1
    [ ! -e "$dir/meeting.ogg" ] && [ -f "$dir/b.ogg" ]
}

rm_removes_it() {
    local name
    name=$(basename "$(only_note)" .ogg)
    "$cli" rm "$name" --dir "$notes" | grep -q "removed $name.ogg" || return 1
    [ -z "$(only_note)" ] && "$cli" list --dir "$notes" | grep -q 'no voice notes'
}

devices_lists_monitor() {
    "$cli" devices >"$work/devices" || return 1
    cat "$work/devices"
    grep -q '^  Monitor of Null_Output$' "$work/devices"
}

wav_format() {
    "$cli" record --seconds 1 --rate 16000 --channels 2 --format wav --dir "$work/wav" </dev/null || return 1
    local note
    note=$(find "$work/wav" -name '*.wav')
    soxi "$note" | grep -q 'Sample Rate    : 16000' && [ "$(soxi -s "$note")" -eq 16000 ] \
        && soxi "$note" | grep -q 'Channels       : 2'
}

full_disk_keeps_what_was_written() { # a 24 KB file-size limit stops a WAV recording after ~1 s
    (
        ulimit -f 24
        "$cli" record --seconds 10 --format wav --dir "$work/full" </dev/null
    ) 2>"$work/full.err"
    local status=$?
    cat "$work/full.err"
    [ "$status" -eq 1 ] || { echo "exit $status, wanted 1"; return 1; }
    grep -q "recording stopped: writing '.*' failed (File too large)" "$work/full.err" || return 1
    local note
    note=$(find "$work/full" -name '*.wav')
    [ -n "$note" ] || { echo "nothing kept"; ls -la "$work/full"; return 1; }
    local samples
    samples=$(soxi -s "$note")
    echo "kept $samples samples in $(stat -c %s "$note") bytes"
    [ "$samples" -gt 6000 ]
}

full_disk_ogg() { # the same with Ogg Vorbis: the torn page is cut off in place
    (sleep 0.2 && paplay "$work/speech.wav") &
    local speaker=$!
    (
        ulimit -f 8
        "$cli" record --seconds 10 --quality max --dir "$work/full-ogg" </dev/null
    ) 2>"$work/full.err"
    local status=$?
    wait "$speaker"
    cat "$work/full.err"
    [ "$status" -eq 1 ] && grep -q "File too large" "$work/full.err" || return 1
    local note
    note=$(find "$work/full-ogg" -name '*.ogg')
    [ -n "$note" ] && ogginfo "$note" >/dev/null && above "$(soxi -D "$note")" 0.3
}

sigterm_saves() { # without a terminal, SIGTERM ends the recording and the note is kept whole
    "$cli" record --dir "$work/term" </dev/null >"$work/term.out" &
    local pid=$!
    for _ in $(seq 100); do grep -q '^recording ' "$work/term.out" && break; sleep 0.1; done
    sleep 1.5
    kill -TERM "$pid"
    wait "$pid"
    local status=$?
    cat "$work/term.out"
    echo "exit status $status"
    local note
    note=$(find "$work/term" -name '*.ogg')
    [ "$status" -eq 143 ] && [ -n "$note" ] && ogginfo "$note" >/dev/null && above "$(soxi -D "$note")" 1
}

kill_is_repaired() { # kill -9 mid-recording; the next list repairs the note and says so
    "$cli" record --seconds 30 --dir "$work/killed" </dev/null >"$work/killed.out" &
    local pid=$!
    for _ in $(seq 100); do grep -q '^recording ' "$work/killed.out" && break; sleep 0.1; done
    sleep 2
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    ls "$work/killed" | grep -q '\.ogg\.part$' || return 1
    "$cli" list --dir "$work/killed" >"$work/killed.list" 2>"$work/killed.err" || return 1
    cat "$work/killed.list" "$work/killed.err"
    grep -q 'recovered the unfinished recording' "$work/killed.err" || return 1
    local note
    note=$(find "$work/killed" -name '*.ogg')
    echo "repaired note: $(soxi -D "$note") s"
    ogginfo "$note" >/dev/null && above "$(soxi -D "$note")" 1
}

server_stop_keeps_note() { # the sound server goes away mid-recording: the note so far is kept, and said so
    . "$(dirname "$0")/pulse-lib.sh"
    local dir="$work/lost-server"
    pulse_start "$dir" lost || return 1
    env $(pulse_env "$dir") "$cli" record --seconds 30 --dir "$work/lost" </dev/null >"$work/lost.out" 2>"$work/lost.err" &
    local pid=$!
    for _ in $(seq 100); do grep -q '^recording ' "$work/lost.out" && break; sleep 0.1; done
    sleep 2
    pulse_stop "$dir"
    wait "$pid"
    local status=$?
    cat "$work/lost.err"
    local note
    note=$(find "$work/lost" -name '*.ogg')
    [ -n "$note" ] || { echo "no note kept"; return 1; }
    echo "exit $status, kept note: $(soxi -D "$note") s"
    [ "$status" -eq 1 ] && grep -q "went away" "$work/lost.err" && ogginfo "$note" >/dev/null \
        && above "$(soxi -D "$note")" 1.5
}

full_tmpfs_keeps_what_was_written() { # a real "no space left": an 8 KiB tmpfs fills up mid-recording
    local disk="$work/small-disk"
    mkdir -p "$disk"
    mount -t tmpfs -o size=8k tmpfs "$disk" || return 1
    "$cli" record --seconds 60 --dir "$disk/notes" </dev/null >"$work/tmpfs.out" 2>"$work/tmpfs.err" &
    local pid=$!
    paplay "$work/speech.wav" &
    wait "$pid"
    local status=$?
    cat "$work/tmpfs.err"
    local note
    note=$(find "$disk/notes" -name '*.ogg' | head -1)
    local kept=0
    [ -n "$note" ] && kept=$(soxi -D "$note")
    echo "exit $status, kept $kept s in $note"
    local ok=1
    [ "$status" -eq 1 ] && grep -q "No space left on device" "$work/tmpfs.err" && [ -n "$note" ] \
        && ogginfo "$note" >/dev/null && above "$kept" 0.5 && ok=0
    umount "$disk"
    return $ok
}

# The screen in tmux: title, r records, r stops and the note is listed, Enter plays, q restores.
pane() { tmux -S "$tmux_socket" capture-pane -t voicenote -p; }
keys() { tmux -S "$tmux_socket" send-keys -t voicenote "$@"; }
wait_for() { # wait_for PATTERN [SECONDS]: the pane shows PATTERN
    for _ in $(seq $((${2:-10} * 10))); do pane | LC_ALL=C.UTF-8 grep -q -- "$1" && return 0; sleep 0.1; done
    echo "the screen never showed '$1':"
    pane
    return 1
}

screen_session() {
    # UTF-8 throughout (-u, LANG), so the waveform's block characters reach the pane intact.
    LANG=C.UTF-8 tmux -u -S "$tmux_socket" new-session -d -s voicenote -x 100 -y 30 \
        "env LANG=C.UTF-8 '$cli' --dir '$work/screen'; echo \"exit=\$?\"; stty -a | grep -o -- '-\\?icanon\\b'; sleep 60" || return 1
    wait_for 'Voice Notes' && wait_for 'Ready' && wait_for 'No recordings yet' || return 1
    wait_for 'n rename  d delete  q quit' || return 1
    # Speech plays into the sink while the first note records, so its waveform has loud cells.
    (sleep 0.5 && paplay "$work/speech.wav") &
    keys r
    wait_for 'Recording' && wait_for 'Stop recording' && wait_for 'Level \[' || return 1
    wait_for 'Recording  0:02' 10 || return 1
    keys r
    wait_for 'saved recording-' && wait_for '> recording-[0-9]* ' || return 1
    pane | grep -q 'Recordings (1)' || return 1
    # The waveform: 16 block characters after the name, the speech's cells above the lowest blocks.
    wait_for '> recording-[0-9]* *[▁▂▃▄▅▆▇█]\{16\}  ' 10 || return 1
    pane | grep '> recording-' | LC_ALL=C.UTF-8 grep -q '[▄▅▆▇█]' || { echo "no loud cell in the waveform:"; pane; return 1; }
    keys Enter
    wait_for 'playing 0:' || return 1
    keys Space
    wait_for 'paused 0:' || return 1
    keys Space
    wait_for 'playing 0:' || return 1
    keys s
    # A second note, to rename onto the first one's name.
    local first
    first=$(ls "$work/screen" | grep '^recording-[0-9]*\.ogg$' | head -1)
    first=${first%.ogg}
    sleep 1  # the second note needs another second for a name of its own
    keys r
    wait_for 'Recording  0:01' 10 || return 1
    keys r
    wait_for 'Recordings (2)' || return 1
    local second
    second=$(ls "$work/screen" | grep '^recording-[0-9-]*\.ogg$' | grep -v "^$first\.ogg$" | head -1)
    second=${second%.ogg}
    [ -n "$second" ] || { echo "no second note"; ls -la "$work/screen"; return 1; }
    wait_for "> $second " || return 1
    keys n
    wait_for "Rename \"$second\" to: $second" && wait_for 'Enter rename  Esc cancel' || return 1
    keys -N 40 BSpace
    keys -l "$first"
    keys Enter
    wait_for "a voice note named \"$first\" already exists" || return 1
    keys -N 40 BSpace
    keys -l 'a/b'
    keys Enter
    wait_for 'invalid note name "a/b"' || return 1
    keys Escape
    wait_for "kept the name $second" || return 1
    [ -f "$work/screen/$second.ogg" ] && [ -f "$work/screen/$first.ogg" ] || { ls -la "$work/screen"; return 1; }
    keys n
    wait_for "Rename \"$second\" to:" || return 1
    keys -N 40 BSpace
    keys -l 'standup'
    keys Enter
    wait_for "renamed $second to standup" && wait_for '> standup ' || return 1
    [ -f "$work/screen/standup.ogg" ] && [ ! -e "$work/screen/$second.ogg" ] || { ls -la "$work/screen"; return 1; }
    keys d
    wait_for 'Delete "standup" (0:0[0-9.]*, [0-9.]* [KM]\?B)? y/n' && wait_for 'y delete  n or Esc keep' || return 1
    keys n
    wait_for 'kept standup' || return 1
    [ -f "$work/screen/standup.ogg" ] || { echo "n deleted it"; return 1; }
    keys d
    wait_for 'y/n' || return 1
    keys y
    wait_for 'deleted standup.ogg' && wait_for 'Recordings (1)' || return 1
    [ ! -e "$work/screen/standup.ogg" ] || { echo "standup.ogg is still there"; return 1; }
    keys q
    wait_for '^exit=0' || return 1
    # stty prints a moment after the exit line: wait for its word before reading it.
    wait_for '^-\?icanon' || return 1
    pane | grep -qx 'icanon' || { echo "the terminal was left in raw mode:"; pane; return 1; }
    ls "$work/screen" | grep -q '^recording-[0-9]*\.ogg$'
}

check "record --seconds 2 while speech plays: 12 kHz mono Ogg of 24000 samples" record_while_speaking
check "list shows the note with its duration" list_shows_it
check "info prints rate, channels and duration" info_prints_format
check "play returns after the note, exit 0, heard on the sink" play_returns_after_note
check "a 70 s note streams on the device: heard, and stopped by SIGINT" long_note_streams
check "rename keeps .ogg and refuses taken and unsafe names; delete removes" rename_and_delete_by_name
check "rm removes it" rm_removes_it
check "rm ../x is refused with exit 1" fails 1 'invalid note name "../x"' "$cli" rm ../x --dir "$notes"
check "rm of a missing note names it" fails 1 'no voice note named "nothing"' "$cli" rm nothing --dir "$notes"
check "devices lists the monitor" devices_lists_monitor
check "record --format wav --rate 16000 --channels 2" wav_format
check "a file-size limit stops a WAV recording and keeps what was written" full_disk_keeps_what_was_written
check "a file-size limit stops an Ogg recording and keeps what was written" full_disk_ogg
# A real full disk needs a tmpfs, which only root (in a place that allows mounts) can make.
mkdir -p "$work/mount-probe"
if mount -t tmpfs -o size=4k tmpfs "$work/mount-probe" 2>/dev/null; then
    umount "$work/mount-probe"
    check "a full disk (tmpfs) stops the recording and keeps what was written" full_tmpfs_keeps_what_was_written
else
    echo "skip a full disk (tmpfs): cannot mount a tmpfs here (the file-size limits above still run)"
fi
check "SIGTERM ends a recording and keeps it whole" sigterm_saves
check "kill -9 leaves a note that list repairs" kill_is_repaired
check "the sound server stopping mid-recording keeps the note and says why" server_stop_keeps_note
check "an unusable folder is named" fails 1 "cannot use the voice notes folder '$work/speech.wav/notes'" \
    "$cli" list --dir "$work/speech.wav/notes"
check "a bad quality is a usage error" fails 2 '--quality best' "$cli" record --quality best --dir "$notes"
check "the screen without a terminal says so" fails 1 'needs a terminal' "$cli" screen --dir "$notes"
check "screen: r records, waveform, Enter plays, Space pauses, n renames (refusals shown), d deletes, q restores" screen_session

e2e_summary e2e-voicenote

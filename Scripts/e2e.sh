#!/usr/bin/env bash
# End-to-end checks of the CLIs as a user runs them, measured with sox on what they wrote or played.
# Usage: Scripts/e2e.sh [BIN_DIR]   (run inside Scripts/with-pulse.sh for the device checks)
set -uo pipefail
bin=${1:-.build/debug}
cli="$bin/soundstation"
work=$(mktemp -d /tmp/soundstation-e2e.XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/e2e-lib.sh"




catalogue_json() {
    "$cli" catalogue --json >"$work/catalogue.json" || return 1
    python3 - "$work/catalogue.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
names = {row["name"] for row in rows}
wanted = {"main", "game", "reward", "upgrade", "jump", "coin", "hit", "explosion", "click", "level-up"}
assert wanted <= names, f"missing {wanted - names}"
for row in rows:
    for key in ("name", "kind", "path", "format", "seconds", "sampleRate", "channels"):
        assert key in row, f"{row.get('name')} lacks {key}"
    assert row["seconds"] > 0 and row["sampleRate"] > 0 and row["channels"] in (1, 2)
music = [row for row in rows if row["kind"] == "music"]
assert all(20 <= row["seconds"] <= 40 for row in music), music
tempo = {row["name"]: (row.get("bpm"), row.get("beatsPerBar"), row.get("downbeat")) for row in music}
assert tempo == {"main": (125, 4, 0), "game": (150, 4, 0)}, tempo
assert all("bpm" not in row for row in rows if row["kind"] != "music")
PY
}

render_on_the_grid() { # main is 125 bpm (bars of 1.92 s), game 150 (beats of 0.4 s): a switch asked at
    # 1.3 s on the next bar and an effect asked at 4 s on the next beat render exactly as at 1.92 and 4.32
    "$cli" render --seconds 6 --out "$work/grid.wav" 0:music:main 1.3:music:game:crossfade=0.5:at=bar \
        4:effect:reward:at=beat || return 1
    "$cli" render --seconds 6 --out "$work/timed.wav" 0:music:main 1.92:music:game:crossfade=0.5 \
        4.32:effect:reward || return 1
    cmp "$work/grid.wav" "$work/timed.wav"
}

render_tempo_and_intensity() { # a tempo cue starts the cue list's clock (120 bpm from 0): an effect
    # asked at 0.7 s on its beat renders exactly as one at 1 s. The game track's layers faded out at 0
    # and back in from 1 s along in-out-cubic: quieter at first, the full track from 2 s on.
    "$cli" render --seconds 2 --out "$work/clock.wav" 0:tempo:120 0.7:effect:reward:at=beat || return 1
    "$cli" render --seconds 2 --out "$work/clocked.wav" 1:effect:reward || return 1
    cmp "$work/clock.wav" "$work/clocked.wav" || return 1
    "$cli" render --seconds 3 --out "$work/layers.wav" 0:music:game 0:intensity:0 \
        1:intensity:1:over=1:ease=in-out-cubic || return 1
    "$cli" render --seconds 3 --out "$work/full.wav" 0:music:game || return 1
    sox "$work/layers.wav" -t f32 "$work/layers.f32" && sox "$work/full.wav" -t f32 "$work/full.f32" || return 1
    python3 - "$work/layers.f32" "$work/full.f32" <<'PY'
import array, math, sys
def load(path):
    a = array.array("f"); a.frombytes(open(path, "rb").read()); return a
layers, full = load(sys.argv[1]), load(sys.argv[2])
rate = 48000
def rms(a, start, end): return math.sqrt(sum(x * x for x in a[start * 2:end * 2]) / (2 * (end - start)))
quiet, loud = rms(layers, 4800, 43200), rms(full, 4800, 43200)
after = max(abs(x - y) for x, y in zip(layers[2 * rate * 2:], full[2 * rate * 2:]))
print(f"layers out: rms {quiet:.4f} against {loud:.4f}; from 2 s the renders differ by {after:.2e}")
assert quiet < 0.8 * loud and after < 1e-5
PY
}

catalogue_formats() { # one file of every format, named by content: the FORMAT column and --json "format"
    local assets="$work/formats"
    mkdir -p "$assets" && "$(dirname "$0")/fuzz-seeds.sh" "$assets" || return 1
    python3 - "$assets" <<'PY' || return 1
import json, os, sys
files = sorted(f for f in os.listdir(sys.argv[1]) if f.startswith("seed"))
sounds = [{"name": f.replace(".", "-"), "path": f, "kind": "effect"} for f in files]
json.dump({"sounds": sounds}, open(os.path.join(sys.argv[1], "catalogue.json"), "w"))
PY
    "$cli" catalogue --assets "$assets" | tee "$work/formats.txt" || return 1
    "$cli" catalogue --assets "$assets" --json >"$work/formats.json" || return 1
    python3 - "$work/formats.json" <<'PY'
import json, sys
rows = {row["name"]: row["format"] for row in json.load(open(sys.argv[1]))}
expected = {
    "seed-mulaw-wav": "WAV mu-law", "seed-alaw-wav": "WAV A-law", "seed-ima-wav": "WAV IMA ADPCM",
    "seed-msadpcm-wav": "WAV MS ADPCM", "seed-rifx-wav": "WAV RIFX PCM 16-bit",
    "seed-pcm24-wav": "WAV PCM 24-bit", "seed-six-wav": "WAV PCM 8-bit 6 ch", "seed-aiff": "AIFF PCM 16-bit",
    "seed-flac": "FLAC PCM 16-bit", "seed-mp3": "MP3", "seed-opus": "Ogg Opus", "seed-ogg": "Ogg Vorbis",
    "seed-rf64": "WAV RF64 PCM 16-bit", "seed-mod": "MOD",
}
for name, fmt in expected.items():
    assert rows.get(name, "").startswith(fmt), f"{name}: {rows.get(name)} (expected {fmt})"
print(f"{len(expected)} formats named")
PY
}

render_places_effect() { # an effect at 1.0 s: silence before frame 48000, sound from it on
    "$cli" render --seconds 2 --out "$work/click.wav" 1:effect:reward || return 1
    soxi "$work/click.wav" | grep -q 'Channels       : 2' || return 1
    soxi "$work/click.wav" | grep -q 'Sample Rate    : 48000' || return 1
    soxi -s "$work/click.wav" | grep -qx 96000 || return 1
    local before after
    before=$(peak "$work/click.wav" 0 =0.99998)
    after=$(peak "$work/click.wav" 1 0.05)
    echo "peak before: $before, after: $after"
    ! above "$before" 0 && above "$after" 0.05
}

render_music_switch() {
    "$cli" render --seconds 6 --rate 44100 --out "$work/music.wav" 0:music:main 2:music:game:crossfade=1 \
        2.5:effect:explosion 3:volume:music:0.5 4:pause 4.5:resume 5:stop-music:fade=0.5 || return 1
    soxi "$work/music.wav" | grep -q 'Sample Rate    : 44100' || return 1
    local paused tail music
    music=$(peak "$work/music.wav" 0.5 1)
    paused=$(peak "$work/music.wav" 4.1 0.35)
    tail=$(peak "$work/music.wav" 5.6 0.4)
    echo "music $music, paused $paused, after stop $tail"
    above "$music" 0.05 && ! above "$paused" 0 && ! above "$tail" 0
}

renders_identical() {
    "$cli" render --seconds 3 --out "$work/a.wav" 0:music:main 0.5:effect:coin 0.5:effect:jump 1:music:game:fade=1 || return 1
    "$cli" render --seconds 3 --out "$work/b.wav" 0:music:main 0.5:effect:coin 0.5:effect:jump 1:music:game:fade=1 || return 1
    cmp "$work/a.wav" "$work/b.wav"
}

synth_plays_exports_and_prints() { # synth coin --seed 7: heard on the device, the WAV, the JSON form read back
    parecord --device=test.monitor --rate=16000 --channels=1 --file-format=wav "$work/synth-heard.wav" &
    local recorder=$! heard json
    sleep 0.3
    "$cli" synth coin --seed 7 --play --output device --out "$work/coin.wav" >"$work/synth.out" || return 1
    sleep 0.3
    kill "$recorder" 2>/dev/null
    wait "$recorder" 2>/dev/null
    cat "$work/synth.out"
    heard=$(peak "$work/synth-heard.wav")
    echo "recorded peak $heard"
    above "$heard" 0.05 || return 1
    # The WAV: 16-bit mono at 44.1 kHz, as long as the render said.
    [ "$(soxi -r "$work/coin.wav")" = 44100 ] && [ "$(soxi -c "$work/coin.wav")" = 1 ] || return 1
    grep -q "^$(soxi -D "$work/coin.wav" | cut -c1-4)" <(sed -n 3p "$work/synth.out") || return 1
    # The printed JSON form is the same sound: its WAV is byte for byte the preset's.
    json=$(head -1 "$work/synth.out")
    "$cli" synth "$json" --out "$work/again.wav" >/dev/null && cmp "$work/coin.wav" "$work/again.wav"
}

play_is_heard() { # play on the default device while parecord records the null sink's monitor
    parecord --device=test.monitor --rate=16000 --channels=1 --file-format=wav "$work/heard.wav" &
    local recorder=$!
    sleep 0.3
    "$cli" play 0:effect:reward 0.3:effect:explosion
    local status=$?
    sleep 0.3
    kill "$recorder" 2>/dev/null
    wait "$recorder" 2>/dev/null
    local heard
    heard=$(peak "$work/heard.wav")
    echo "play exit $status, recorded peak $heard"
    [ "$status" -eq 0 ] && above "$heard" 0.05
}

play_silent_output() { SOUNDSTATION_OUTPUT=silent timeout 20 "$cli" play 0:effect:click 0.2:effect:coin; }

play_falls_back_without_device() {
    SOUNDSTATION_DEVICE="no such device" timeout 20 "$cli" play 0:effect:click 2>"$work/err" || return 1
    grep -q "notice: .*no such device.*Continuing without sound" "$work/err"
}

play_survives_server_restart() { # stop the sound server mid-play, start it again: music comes back
    . "$(dirname "$0")/pulse-lib.sh"
    local dir="$work/loss"
    pulse_start "$dir" loss || return 1
    # 16 s: room for a slow stop and start of the server on a loaded machine before the play ends
    env $(pulse_env "$dir") "$cli" play --seconds 16 0:music:main 0.5:effect:reward >"$work/loss.out" 2>"$work/loss.err" &
    local player=$!
    sleep 2.5
    pulse_stop "$dir"
    sleep 1.5
    pulse_start "$dir" loss || { kill "$player"; return 1; }
    local heard take alive
    read -r heard take alive < <(pulse_listen_until_heard "$dir" loss "$work/after.wav" "$player")
    wait "$player"
    local status=$?
    pulse_stop "$dir"
    cat "$work/loss.err"
    echo "play exit $status, heard after restart: $heard in take $take of 1 s; still playing: $alive"
    [ "$status" -eq 0 ] && grep -q "device lost" "$work/loss.err" && grep -q "device restored" "$work/loss.err" \
        && above "$heard" 0.02 && [ "$alive" = yes ]
}

play_watch_reloads() { # play --watch on the device: an edited file is reloaded (one line), the music's
    # next start plays it, a broken edit is reported and the music plays on; the monitor hears each part
    local assets="$work/live"
    mkdir -p "$assets"
    sox -n -r 48000 -c 1 -b 16 "$assets/hum.wav" synth 2 sine 440 vol 0.5 || return 1
    echo '{ "sounds": [ { "name": "hum", "path": "hum.wav", "kind": "music" } ] }' >"$assets/catalogue.json"
    parecord --device=test.monitor --rate=16000 --channels=1 --file-format=wav "$work/live.wav" &
    local recorder=$! waited=0
    # The recording has begun once it holds sound data (a loaded machine can take a second or two).
    while [ "$(stat -c %s "$work/live.wav" 2>/dev/null || echo 0)" -lt 8000 ] && [ "$waited" -lt 100 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    "$cli" play --watch --seconds 7.5 --assets "$assets" 0:music:hum 3.5:music:hum >"$work/live.out" 2>&1 &
    local player=$!
    sleep 1.8 # an editor's save: a new file renamed over the old one
    sox -n -r 48000 -c 1 -b 16 "$assets/.hum.tmp.wav" synth 2 sine 880 vol 0.5 && mv "$assets/.hum.tmp.wav" "$assets/hum.wav"
    sleep 3.5
    printf 'RIFF\x10\0\0\0WAVEjunk' >"$assets/.hum.tmp.wav" && mv "$assets/.hum.tmp.wav" "$assets/hum.wav"
    wait "$player"
    local status=$?
    sleep 0.5
    kill "$recorder" 2>/dev/null
    wait "$recorder" 2>/dev/null
    cat "$work/live.out"
    # Where the restart is heard (the first quarter second at 880 Hz), then what is heard around it:
    # the old file before, the new one after, and sound on after the broken edit (1.8 s later).
    local t switch="" before after end
    for t in $(seq 0 0.25 12); do
        if above "$(sox "$work/live.wav" -n trim "$t" 0.25 stat 2>&1 | awk '/Rough +frequency/ {print $3}')" 820; then
            switch=$t
            break
        fi
    done
    [ -n "$switch" ] || { echo "no 880 Hz heard"; return 1; }
    before=$(sox "$work/live.wav" -n trim "$(awk -v s="$switch" 'BEGIN {print s - 1}')" 0.5 stat 2>&1 | awk '/Rough +frequency/ {print $3}')
    after=$(sox "$work/live.wav" -n trim "$switch" 0.5 stat 2>&1 | awk '/Rough +frequency/ {print $3}')
    end=$(peak "$work/live.wav" "$(awk -v s="$switch" 'BEGIN {print s + 2.4}')" 0.5)
    echo "play exit $status; restart heard at ${switch} s: ${before} Hz before, ${after} Hz after; peak $end after the broken edit"
    [ "$status" -eq 0 ] && grep -q 'reloaded "hum" from hum.wav' "$work/live.out" \
        && grep -q 'reload of hum.wav failed: .*hum.wav.*keeps playing' "$work/live.out" \
        && above "$before" 400 && ! above "$before" 480 && above "$after" 820 && ! above "$after" 940 \
        && above "$end" 0.05
}

catalogue_warns_cut_short() { # a WAV cut short is listed, with a warning naming the sound and file
    local assets="$work/cut"
    mkdir -p "$assets"
    sox -n -r 48000 -c 1 -b 16 "$assets/whole.wav" synth 1 sine 440 || return 1
    head -c 48044 "$assets/whole.wav" >"$assets/cut.wav"
    echo '{ "sounds": [ { "name": "cut", "path": "cut.wav", "kind": "effect" } ] }' >"$assets/catalogue.json"
    "$cli" catalogue --assets "$assets" 2>"$work/cut.err" || return 1
    cat "$work/cut.err"
    grep -q 'warning: sound "cut": .*cut.wav.* cut short' "$work/cut.err" || return 1
    "$cli" catalogue --assets "$assets" --json 2>/dev/null | python3 -c '
import json, sys
row = json.load(sys.stdin)[0]
assert "cut short" in row["warnings"][0] and abs(row["seconds"] - 0.5) < 0.01, row' || return 1
    SOUNDSTATION_OUTPUT=silent timeout 20 "$cli" play --assets "$assets" 0:effect:cut 2>"$work/cut-play.err" || return 1
    cat "$work/cut-play.err"
    grep -q 'warning: sound "cut": .*cut.wav.* cut short' "$work/cut-play.err"
}

catalogue_names_are_printable() { # names and paths holding ESC, OSC, CSI and C1 controls: the table, --json
    # and the errors show them escaped, and no control byte reaches the output
    local assets="$work/evil"
    mkdir -p "$assets/dir$(printf '\033')[2J" && cp "$(dirname "$0")/../Assets/Effects/click.wav" "$assets/dir$(printf '\033')[2J/c.wav"
    python3 - "$assets" <<'PY'
import json, sys
evil = "\x1b]2;PWNED-TITLE\x07\x1b[2J\u009b31m\x7f"
sounds = [{"name": evil + "a", "path": "dir\x1b[2J/c.wav", "kind": "effect"},
          {"name": evil + "b", "path": "dir\x1b[2J/c.wav", "kind": "effect"}]
json.dump({"sounds": sounds}, open(sys.argv[1] + "/catalogue.json", "w"))
sounds[1]["path"] = "missing\x1b[2J.wav"
json.dump({"sounds": sounds}, open(sys.argv[1] + "/../missing.json", "w"))
PY
    "$cli" catalogue --assets "$assets" >"$work/evil.out" || return 1
    "$cli" catalogue --assets "$assets" --json >>"$work/evil.out" || return 1
    mv "$work/missing.json" "$assets/catalogue.json"
    "$cli" catalogue --assets "$assets" 2>"$work/evil.err" && return 1
    cat "$work/evil.out" "$work/evil.err"
    python3 - "$work/evil.out" "$work/evil.err" <<'PY'
import sys
for path in sys.argv[1:]:
    text = open(path, "rb").read().decode("utf-8")
    bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F]
    assert not bad, (path, bad[:5])
    assert "PWNED-TITLE" in text, path
PY
}

render_space() { # an effect left of the listener is louder on the left; a cave leaves a tail; a low-pass dulls
    "$cli" render --seconds 1 --out "$work/pos.wav" 0:listener:40,0 0.1:effect:coin:pos=5,0 || return 1
    local left right
    left=$(sox "$work/pos.wav" -n remix 1 stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
    right=$(sox "$work/pos.wav" -n remix 2 stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
    echo "pos=5,0 from 40,0: left $left, right $right"
    above "$left" "$(awk -v r="$right" 'BEGIN {print 10 * r}')" || return 1
    "$cli" render --seconds 2 --out "$work/dry.wav" 0:effect:click || return 1
    "$cli" render --seconds 2 --out "$work/cave.wav" 0:reverb:effects:cave 0:effect:click || return 1
    local dry wet
    dry=$(peak "$work/dry.wav" 0.8 1)
    wet=$(rms "$work/cave.wav" 0.8 1)
    echo "after the click: dry peak $dry, cave rms $wet"
    ! above "$dry" 0 && above "$wet" 0.0001 || return 1
    "$cli" render --seconds 1 --out "$work/bright.wav" 0:effect:coin || return 1
    "$cli" render --seconds 1 --out "$work/dull.wav" 0:filter:effects:lowpass=500 0:effect:coin || return 1
    local bright dull
    bright=$(sox "$work/bright.wav" -n sinc 6k stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
    dull=$(sox "$work/dull.wav" -n sinc 6k stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
    echo "above 6 kHz: plain $bright, lowpass=500 $dull"
    above "$bright" "$(awk -v d="$dull" 'BEGIN {print 10 * d}')"
}

example_runs() { # the README's program
    timeout 60 "$bin/soundstation-example" | tee "$work/example" && grep -q "finished reward" "$work/example"
}

versions_agree() { # --version of the three programs = the C header's SS_VERSION_* = the Python package's
    local v
    v=$(sed -n 's/^#define SS_VERSION_[A-Z]* //p' Sources/CSoundStation/include/soundstation.h | paste -sd.)
    [ "$("$cli" --version)" = "soundstation $v" ] && [ "$("$bin/voicenote" --version)" = "voicenote $v" ] &&
        [ "$("$bin/starfall" --version)" = "starfall $v" ] &&
        grep -q "^__version__ = \"$v\"" python/soundstation/__init__.py
}

check "catalogue --json lists every sound with its keys" catalogue_json
check "catalogue table" "$cli" catalogue
check "catalogue names the format of every file" catalogue_formats
check "devices lists the null sink" bash -c "'$cli' devices | grep -q 'Null'"
check "render places an effect at its frame" render_places_effect
check "render switches, pauses and stops music" render_music_switch
check "two renders are identical" renders_identical
check "render switches music and places effects on the grid" render_on_the_grid
check "render: a tempo cue's clock places effects, intensity cues move the layers" render_tempo_and_intensity
check "bad easing exits 2 naming it" fails 2 '"bouncy" is not an easing' "$cli" render --seconds 1 --out "$work/x.wav" 0:tempo:120:over=1:ease=bouncy
check "bad grid point exits 2 naming it" fails 2 '"soon" is not a grid point' "$cli" render --seconds 1 --out "$work/x.wav" 0:music:main:at=soon
check "play is heard on the default device" play_is_heard
check "synth coin --seed 7 --play is heard, --out writes it, its printed JSON renders the same bytes" synth_plays_exports_and_prints
check "synth with an unknown preset exits 2 naming it" fails 2 'unknown synth preset "kazoo"' "$cli" synth kazoo
check "play on silent output" play_silent_output
check "play falls back to silent without a device" play_falls_back_without_device
check "play survives the sound server stopping and coming back" play_survives_server_restart
check "play --watch reloads an edited file, reports a broken edit, plays on" play_watch_reloads
check "catalogue and play warn of a file cut short, naming sound and file" catalogue_warns_cut_short
check "catalogue names and paths holding escape sequences and C1 controls print escaped" catalogue_names_are_printable
check "unknown name exits 1 naming it" fails 1 'no sound named "rewrd"' "$cli" render --seconds 1 --out "$work/x.wav" 0:effect:rewrd
check "bad event exits 2 naming it" fails 2 'bad event "soon:effect:reward"' "$cli" render --seconds 1 --out "$work/x.wav" soon:effect:reward
check "music name as effect is refused" fails 1 '"main" is a music sound' "$cli" render --seconds 1 --out "$work/x.wav" 0:effect:main
check "missing assets folder names it" fails 1 "$work/none" "$cli" catalogue --assets "$work/none"
check "unwritable output names the file" fails 1 "/nonexistent/out.wav" "$cli" render --seconds 1 --out /nonexistent/out.wav 0:effect:click
check "unknown command is a usage error" fails 2 'unknown command' "$cli" dance
check "each program prints the one version for --version" versions_agree
check "render places, echoes and filters (pos=, listener, reverb, filter)" render_space
check "a pan outside -1...1 is a bad event naming it" fails 2 '"2" is not a pan in -1...1' "$cli" render --seconds 1 --out "$work/x.wav" 0:effect:click:pan=2
check "an unknown reverb preset is named" fails 2 '"spaceship" is not a reverb preset' "$cli" render --seconds 1 --out "$work/x.wav" 0:reverb:effects:spaceship
check "a cutoff above half the rate is named" fails 2 '"30000" is not a cutoff in hertz of at most 24000' "$cli" render --seconds 1 --out "$work/x.wav" 0:filter:music:lowpass=30000
check "a NaN position is named" fails 2 '"nan" is not a finite coordinate' "$cli" render --seconds 1 --out "$work/x.wav" 0:listener:nan,1
check "README example runs" example_runs
check "every Swift sample in the README, Docs/ and the DocC articles compiles" python3 Scripts/check-samples.py "$bin"

e2e_summary e2e

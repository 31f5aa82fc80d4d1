"""The CLIs as a user runs them, measured with sox on what they wrote or played (formerly
Scripts/e2e.sh)."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from e2e import BIN, CLI, REPO, PulseServer, fails, listen_until_heard, load_json, peak, rms, run, soxi, sox_stat, wait_until


def render(work, out, *events, seconds="2", extra=()):
    run([str(CLI), "render", "--seconds", str(seconds), *extra, "--out", str(work / out), *events], check=True)
    return work / out


def test_catalogue_json_lists_every_sound_with_its_keys():
    rows = json.loads(run([str(CLI), "catalogue", "--json"], check=True).stdout)
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


def test_catalogue_table():
    run([str(CLI), "catalogue"], check=True)


def test_catalogue_names_the_format_of_every_file(work):
    assets = work / "formats"
    assets.mkdir()
    run([str(REPO / "Scripts" / "fuzz-seeds.sh"), str(assets)], check=True)
    files = sorted(f for f in os.listdir(assets) if f.startswith("seed"))
    sounds = [{"name": f.replace(".", "-"), "path": f, "kind": "effect"} for f in files]
    (assets / "catalogue.json").write_text(json.dumps({"sounds": sounds}))
    run([str(CLI), "catalogue", "--assets", str(assets)], check=True)
    rows = {row["name"]: row["format"] for row in
            json.loads(run([str(CLI), "catalogue", "--assets", str(assets), "--json"], check=True).stdout)}
    expected = {
        "seed-mulaw-wav": "WAV mu-law", "seed-alaw-wav": "WAV A-law", "seed-ima-wav": "WAV IMA ADPCM",
        "seed-msadpcm-wav": "WAV MS ADPCM", "seed-rifx-wav": "WAV RIFX PCM 16-bit",
        "seed-pcm24-wav": "WAV PCM 24-bit", "seed-six-wav": "WAV PCM 8-bit 6 ch", "seed-aiff": "AIFF PCM 16-bit",
        "seed-flac": "FLAC PCM 16-bit", "seed-mp3": "MP3", "seed-opus": "Ogg Opus", "seed-ogg": "Ogg Vorbis",
        "seed-rf64": "WAV RF64 PCM 16-bit", "seed-mod": "MOD",
    }
    for name, fmt in expected.items():
        assert rows.get(name, "").startswith(fmt), f"{name}: {rows.get(name)} (expected {fmt})"


def test_devices_lists_the_null_sink(pulse):
    assert "Null" in run([str(CLI), "devices"], check=True).stdout


def test_render_places_an_effect_at_its_frame(work):
    click = render(work, "click.wav", "1:effect:reward")
    assert soxi(click, "-c") == "2" and soxi(click, "-r") == "48000" and soxi(click, "-s") == "96000"
    before, after = peak(click, 0, "=0.99998"), peak(click, 1, 0.05)
    print(f"peak before: {before}, after: {after}")
    assert before == 0 and after > 0.05


def test_render_switches_pauses_and_stops_music(work):
    music = render(work, "music.wav", "0:music:main", "2:music:game:crossfade=1", "2.5:effect:explosion",
                   "3:volume:music:0.5", "4:pause", "4.5:resume", "5:stop-music:fade=0.5", seconds=6,
                   extra=("--rate", "44100"))
    assert soxi(music, "-r") == "44100"
    heard, paused, tail = peak(music, 0.5, 1), peak(music, 4.1, 0.35), peak(music, 5.6, 0.4)
    print(f"music {heard}, paused {paused}, after stop {tail}")
    assert heard > 0.05 and paused == 0 and tail == 0


def test_two_renders_are_identical(work):
    events = ("0:music:main", "0.5:effect:coin", "0.5:effect:jump", "1:music:game:fade=1")
    a, b = render(work, "a.wav", *events, seconds=3), render(work, "b.wav", *events, seconds=3)
    assert a.read_bytes() == b.read_bytes()


def test_render_switches_music_and_places_effects_on_the_grid(work):
    """main is 125 bpm (bars of 1.92 s), game 150 (beats of 0.4 s): a switch asked at 1.3 s on the next
    bar and an effect asked at 4 s on the next beat render exactly as at 1.92 and 4.32."""
    grid = render(work, "grid.wav", "0:music:main", "1.3:music:game:crossfade=0.5:at=bar", "4:effect:reward:at=beat", seconds=6)
    timed = render(work, "timed.wav", "0:music:main", "1.92:music:game:crossfade=0.5", "4.32:effect:reward", seconds=6)
    assert grid.read_bytes() == timed.read_bytes()


def test_render_a_tempo_cues_clock_places_effects_and_intensity_cues_move_the_layers(work):
    import array
    import math
    clock = render(work, "clock.wav", "0:tempo:120", "0.7:effect:reward:at=beat")
    clocked = render(work, "clocked.wav", "1:effect:reward")
    assert clock.read_bytes() == clocked.read_bytes()
    render(work, "layers.wav", "0:music:game", "0:intensity:0", "1:intensity:1:over=1:ease=in-out-cubic", seconds=3)
    render(work, "full.wav", "0:music:game", seconds=3)
    for name in ("layers", "full"):
        run(["sox", str(work / f"{name}.wav"), "-t", "f32", str(work / f"{name}.f32")], check=True)

    def load(name):
        a = array.array("f")
        a.frombytes((work / f"{name}.f32").read_bytes())
        return a
    layers, full = load("layers"), load("full")
    rate = 48000

    def level(a, start, end):
        return math.sqrt(sum(x * x for x in a[start * 2:end * 2]) / (2 * (end - start)))
    quiet, loud = level(layers, 4800, 43200), level(full, 4800, 43200)
    after = max(abs(x - y) for x, y in zip(layers[2 * rate * 2:], full[2 * rate * 2:]))
    print(f"layers out: rms {quiet:.4f} against {loud:.4f}; from 2 s the renders differ by {after:.2e}")
    assert quiet < 0.8 * loud and after < 1e-5


USAGE = [
    ("a bad easing exits 2 naming it", 2, '"bouncy" is not an easing', ["0:tempo:120:over=1:ease=bouncy"]),
    ("a bad grid point exits 2 naming it", 2, '"soon" is not a grid point', ["0:music:main:at=soon"]),
    ("an unknown name exits 1 naming it", 1, 'no sound named "rewrd"', ["0:effect:rewrd"]),
    ("a bad event exits 2 naming it", 2, 'bad event "soon:effect:reward"', ["soon:effect:reward"]),
    ("a music name as effect is refused", 1, '"main" is a music sound', ["0:effect:main"]),
    ("a pan outside -1...1 is a bad event naming it", 2, '"2" is not a pan in -1...1', ["0:effect:click:pan=2"]),
    ("an unknown reverb preset is named", 2, '"spaceship" is not a reverb preset', ["0:reverb:effects:spaceship"]),
    ("a cutoff above half the rate is named", 2, '"30000" is not a cutoff in hertz of at most 24000',
     ["0:filter:music:lowpass=30000"]),
    ("a NaN position is named", 2, '"nan" is not a finite coordinate', ["0:listener:nan,1"]),
]


@pytest.mark.parametrize("what, code, pattern, events", USAGE, ids=[u[0].replace(" ", "_") for u in USAGE])
def test_render_refuses_bad_input(work, what, code, pattern, events):
    fails([str(CLI), "render", "--seconds", "1", "--out", str(work / "x.wav"), *events], code, pattern)


def test_missing_assets_folder_is_named(work):
    fails([str(CLI), "catalogue", "--assets", str(work / "none")], 1, str(work / "none"))


def test_unwritable_output_names_the_file():
    fails([str(CLI), "render", "--seconds", "1", "--out", "/nonexistent/out.wav", "0:effect:click"], 1,
          "/nonexistent/out.wav")


def test_unknown_command_is_a_usage_error():
    fails([str(CLI), "dance"], 2, "unknown command")


def test_play_is_heard_on_the_default_device(work, recorder):
    rec = recorder("heard", rate=16000)
    result = run([str(CLI), "play", "0:effect:reward", "0.3:effect:explosion"])
    rec.stop(after=0.3)
    heard = peak(work / "heard.wav")
    print(f"play exit {result.returncode}, recorded peak {heard}")
    assert result.returncode == 0 and heard > 0.05


def test_synth_coin_is_heard_exported_and_its_printed_json_renders_the_same_bytes(work, recorder):
    rec = recorder("synth-heard", rate=16000)
    result = run([str(CLI), "synth", "coin", "--seed", "7", "--play", "--output", "device",
                  "--out", str(work / "coin.wav")], check=True)
    rec.stop(after=0.3)
    print(result.stdout)
    heard = peak(work / "synth-heard.wav")
    print(f"recorded peak {heard}")
    assert heard > 0.05, "the synthesised coin was not heard on the sink"
    # The WAV: mono at 44.1 kHz, as long as the third printed line says.
    assert soxi(work / "coin.wav", "-r") == "44100" and soxi(work / "coin.wav", "-c") == "1"
    lines = result.stdout.splitlines()
    assert lines[2].startswith(soxi(work / "coin.wav", "-D")[:4]), (lines[2], soxi(work / "coin.wav", "-D"))
    # The printed JSON form is the same sound: its WAV is byte for byte the preset's.
    run([str(CLI), "synth", lines[0], "--out", str(work / "again.wav")], check=True)
    assert (work / "coin.wav").read_bytes() == (work / "again.wav").read_bytes()


def test_synth_with_an_unknown_preset_exits_2_naming_it():
    fails([str(CLI), "synth", "kazoo"], 2, 'unknown synth preset "kazoo"')


def test_catalogue_names_and_paths_holding_escape_sequences_and_c1_controls_print_escaped(work):
    assets = work / "evil"
    folder = assets / "dir\x1b[2J"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "Assets" / "Effects" / "click.wav", folder / "c.wav")
    evil = "\x1b]2;PWNED-TITLE\x07\x1b[2J\u009b31m\x7f"
    sounds = [{"name": evil + "a", "path": "dir\x1b[2J/c.wav", "kind": "effect"},
              {"name": evil + "b", "path": "dir\x1b[2J/c.wav", "kind": "effect"}]
    (assets / "catalogue.json").write_text(json.dumps({"sounds": sounds}))
    table = run([str(CLI), "catalogue", "--assets", str(assets)], check=True).stdout
    listing = run([str(CLI), "catalogue", "--assets", str(assets), "--json"], check=True).stdout
    sounds[1]["path"] = "missing\x1b[2J.wav"
    (assets / "catalogue.json").write_text(json.dumps({"sounds": sounds}))
    failed = run([str(CLI), "catalogue", "--assets", str(assets)])
    assert failed.returncode != 0, "a missing file was not reported"
    for what, text in (("table", table), ("--json", listing), ("error", failed.stderr)):
        print(what, text)
        bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F]
        assert not bad, (what, bad[:5])
        assert "PWNED-TITLE" in text, what


def test_play_on_silent_output(pulse):
    run([str(CLI), "play", "0:effect:click", "0.2:effect:coin"], check=True, timeout=20,
        env=dict(os.environ, SOUNDSTATION_OUTPUT="silent"))


def test_play_falls_back_to_silent_without_a_device(pulse):
    result = run([str(CLI), "play", "0:effect:click"], timeout=20,
                 env=dict(os.environ, SOUNDSTATION_DEVICE="no such device"))
    assert result.returncode == 0
    assert "notice: " in result.stderr and "no such device" in result.stderr and "Continuing without sound" in result.stderr


def test_play_survives_the_sound_server_stopping_and_coming_back(work, pulse):
    """The server stopped mid-play (once the music is heard) and started again: the music comes back
    while the player still runs."""
    server = PulseServer(work / "loss", "loss")
    try:
        err = open(work / "loss.err", "w")
        env = dict(os.environ, **server.env)
        player = subprocess.Popen([str(CLI), "play", "--seconds", "16", "0:music:main", "0.5:effect:reward"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=err)
        # Playing once the sink's monitor hears it.
        wait_until(lambda: listen_until_heard(server, work / "before.wav", player, takes=1)[0] > 0.02, 20,
                   "the music on the second server's sink")
        server.stop()
        wait_until(lambda: "device lost" in (work / "loss.err").read_text(), 20, "the player to say the device was lost",
                   lambda: (work / "loss.err").read_text())
        server.start()
        heard, take, alive = listen_until_heard(server, work / "after.wav", player)
        status = player.wait(60)
    finally:
        server.stop()
    text = (work / "loss.err").read_text()
    print(text, f"play exit {status}, heard after restart: {heard} in take {take} of 1 s; still playing: {alive}")
    assert status == 0 and "device lost" in text and "device restored" in text
    assert heard > 0.02 and alive


def rough_frequency(path, start, length):
    return sox_stat(path, start, length).get("Rough frequency", 0)


def recent_frequency(rec, seconds=0.25):
    """The frequency of the last quarter second recorded, by its zero crossings."""
    tail = rec.samples()[-int(rec.rate * seconds):]
    crossings = sum(1 for a, b in zip(tail, tail[1:]) if (a < 0) != (b < 0))
    return crossings / 2 / seconds


def test_play_watch_reloads_an_edited_file_reports_a_broken_edit_and_plays_on(work, recorder):
    assets = work / "live"
    assets.mkdir()
    run(["sox", "-n", "-r", "48000", "-c", "1", "-b", "16", str(assets / "hum.wav"), "synth", "2", "sine", "440", "vol", "0.5"], check=True)
    (assets / "catalogue.json").write_text('{ "sounds": [ { "name": "hum", "path": "hum.wav", "kind": "music" } ] }')
    rec = recorder("live", rate=16000)
    out = open(work / "live.out", "w")
    player = subprocess.Popen([str(CLI), "play", "--watch", "--seconds", "7.5", "--assets", str(assets),
                               "0:music:hum", "3.5:music:hum"], stdout=out, stderr=subprocess.STDOUT)
    # An editor's save once the first track is heard: a new file renamed over the old one.
    wait_until(lambda: rec.heard_above(0.1), 20, "the first hum on the sink", lambda: (work / "live.out").read_text())
    run(["sox", "-n", "-r", "48000", "-c", "1", "-b", "16", str(assets / ".hum.tmp.wav"), "synth", "2", "sine", "880", "vol", "0.5"], check=True)
    os.rename(assets / ".hum.tmp.wav", assets / "hum.wav")
    wait_until(lambda: 'reloaded "hum" from hum.wav' in (work / "live.out").read_text(), 20, "the reload notice",
               lambda: (work / "live.out").read_text())
    # Broken once the restarted track (at 3.5 s) is heard at 880 Hz.
    wait_until(lambda: recent_frequency(rec) > 820, 20, "880 Hz on the sink", lambda: f"{recent_frequency(rec):.0f} Hz")
    (assets / ".hum.tmp.wav").write_bytes(b"RIFF\x10\0\0\0WAVEjunk")
    os.rename(assets / ".hum.tmp.wav", assets / "hum.wav")
    status = player.wait(60)
    rec.stop(after=0.5)
    text = (work / "live.out").read_text()
    print(text)
    wav = work / "live.wav"
    switch = next((t / 4 for t in range(0, 49) if rough_frequency(wav, t / 4, 0.25) > 820), None)
    assert switch is not None, "no 880 Hz heard"
    before, after = rough_frequency(wav, switch - 1, 0.5), rough_frequency(wav, switch, 0.5)
    end = peak(wav, switch + 2.4, 0.5)
    print(f"play exit {status}; restart heard at {switch} s: {before} Hz before, {after} Hz after; peak {end} after the broken edit")
    assert status == 0 and 'reloaded "hum" from hum.wav' in text
    assert "reload of hum.wav failed: " in text and "keeps playing" in text
    assert 400 < before <= 480 and 820 < after <= 940 and end > 0.05


def test_catalogue_and_play_warn_of_a_file_cut_short_naming_sound_and_file(work, pulse):
    assets = work / "cut"
    assets.mkdir()
    run(["sox", "-n", "-r", "48000", "-c", "1", "-b", "16", str(assets / "whole.wav"), "synth", "1", "sine", "440"], check=True)
    (assets / "cut.wav").write_bytes((assets / "whole.wav").read_bytes()[:48044])
    (assets / "catalogue.json").write_text('{ "sounds": [ { "name": "cut", "path": "cut.wav", "kind": "effect" } ] }')
    listed = run([str(CLI), "catalogue", "--assets", str(assets)], check=True)
    assert 'warning: sound "cut": ' in listed.stderr and "cut.wav" in listed.stderr and "cut short" in listed.stderr
    row = json.loads(run([str(CLI), "catalogue", "--assets", str(assets), "--json"]).stdout)[0]
    assert "cut short" in row["warnings"][0] and abs(row["seconds"] - 0.5) < 0.01, row
    played = run([str(CLI), "play", "--assets", str(assets), "0:effect:cut"], check=True, timeout=20,
                 env=dict(os.environ, SOUNDSTATION_OUTPUT="silent"))
    assert 'warning: sound "cut": ' in played.stderr and "cut short" in played.stderr


def test_render_places_echoes_and_filters(work):
    pos = render(work, "pos.wav", "0:listener:40,0", "0.1:effect:coin:pos=5,0", seconds=1)
    left, right = rms(pos, effects=("remix", "1")), rms(pos, effects=("remix", "2"))
    print(f"pos=5,0 from 40,0: left {left}, right {right}")
    assert left > 10 * right
    dry = peak(render(work, "dry.wav", "0:effect:click"), 0.8, 1)
    wet = rms(render(work, "cave.wav", "0:reverb:effects:cave", "0:effect:click"), 0.8, 1)
    print(f"after the click: dry peak {dry}, cave rms {wet}")
    assert dry == 0 and wet > 0.0001
    bright = rms(render(work, "bright.wav", "0:effect:coin", seconds=1), effects=("sinc", "6k"))
    dull = rms(render(work, "dull.wav", "0:filter:effects:lowpass=500", "0:effect:coin", seconds=1), effects=("sinc", "6k"))
    print(f"above 6 kHz: plain {bright}, lowpass=500 {dull}")
    assert bright > 10 * dull


def test_the_readme_example_runs(pulse):
    result = run([str(BIN / "soundstation-example")], timeout=60)
    assert "finished reward" in result.stdout


def test_each_program_prints_the_one_version():
    header = (REPO / "Sources/CSoundStation/include/soundstation.h").read_text()
    parts = [line.split()[2] for line in header.splitlines() if line.startswith("#define SS_VERSION_")]
    version = ".".join(parts)
    for program in ("soundstation", "voicenote", "starfall"):
        assert run([str(BIN / program), "--version"]).stdout.strip() == f"{program} {version}"
    assert f'__version__ = "{version}"' in (REPO / "python/soundstation/__init__.py").read_text()


def test_every_swift_sample_in_the_docs_compiles():
    run(["python3", str(REPO / "Scripts/check-samples.py"), str(BIN)], check=True,
        cwd=REPO, timeout=900)

"""The Starfall demo as a user runs it (formerly Scripts/e2e-starfall.sh): autoplay renders measured
with sox and Python, the window under SDL's dummy driver and under Xvfb (a screenshot), and the
terminal front end driven through tmux, checking the terminal is left exactly as it was found."""

import array
import json
import os
import re
import shutil
import struct
import subprocess
import time

import pytest
from e2e import BIN, REPO, PulseServer, Tmux, listen_until_heard, peak, run, soxi, wait_until

GAME = BIN / "starfall"


def dummy(**more):
    """The environment now (the private sound server's included) with SDL's dummy video driver."""
    return dict(os.environ, SDL_VIDEODRIVER="dummy", **more)


@pytest.fixture(scope="module")
def autoplay(tmp_path_factory):
    """35 s of autoplay with seed 1, rendered once for the checks that measure it."""
    work = tmp_path_factory.mktemp("autoplay")
    result = run([str(GAME), "--autoplay", "35", "--seed", "1", "--audio-out", str(work / "a.wav")], timeout=300)
    (work / "a.json").write_text(result.stdout)
    assert result.returncode == 0, result.stderr
    return work


def test_autoplay_renders_35_s_at_48_khz_stereo_and_prints_the_json_summary(autoplay):
    wav = autoplay / "a.wav"
    assert soxi(wav, "-c") == "2" and soxi(wav, "-r") == "48000" and soxi(wav, "-s") == "1680000"
    print(f"music in the first second: {peak(wav, 0, 0.9)}")
    assert peak(wav, 0, 0.9) > 0.05
    summary = json.loads((autoplay / "a.json").read_text())  # stdout holds the JSON object and nothing else
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


def test_autoplay_starts_the_game_track_on_a_bar_line_and_stingers_on_the_beat(autoplay):
    """The switch menu -> game on a bar line of the menu track, the level-up stingers on beats of the
    game track, and the game track heard from exactly the switch frame: its pad layer plus drums
    correlate with the render best at lag 0."""
    assets = REPO / "Assets"
    for source, target in ((assets / "Music/game.ogg", "pad.f32"), (assets / "Music/game-drums.ogg", "drums.f32"),
                           (autoplay / "a.wav", "a.f32")):
        run(["sox", str(source), "-t", "f32", str(autoplay / target)], check=True)
    summary = json.loads((autoplay / "a.json").read_text())
    catalogue = json.loads((assets / "catalogue.json").read_text())
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
        a = array.array("f")
        a.frombytes((autoplay / name).read_bytes())
        return a
    mix, pad, drums = load("a.f32"), load("pad.f32"), load("drums.f32")
    start, n = round(switch["at"] * rate), 4800

    def corr(lag):
        return sum(mix[2 * (start + k + lag)] * (pad[2 * k] + drums[2 * k]) for k in range(n))
    scores = {lag: corr(lag) for lag in range(-40, 41, 4)} | {lag: corr(lag) for lag in (-1, 1)}
    best = max(scores, key=scores.get)
    assert best == 0, f"the game track correlates best {best} frames off its switch frame"


def test_autoplay_with_the_same_seed_gives_the_same_bytes(autoplay, work):
    result = run([str(GAME), "--autoplay", "35", "--seed", "1", "--audio-out", str(work / "b.wav")], timeout=300)
    assert (work / "b.wav").read_bytes() == (autoplay / "a.wav").read_bytes()
    assert result.stdout == (autoplay / "a.json").read_text()


def test_autoplay_wav_has_the_explosion_heard_at_its_time(autoplay):
    summary = json.loads((autoplay / "a.json").read_text())
    at = next(e["at"] for e in summary["effects"] if e["name"] == "explosion")
    before, after = peak(autoplay / "a.wav", at - 0.1, 0.1), peak(autoplay / "a.wav", at, 0.1)
    print(f"explosion at {at} s: peak before {before}, after {after}")
    assert after > before


def test_usage_errors_exit_2_missing_assets_exit_1_naming_them(work):
    cases = [
        (["--autoplay", "10"], 2, "--audio-out"),
        (["--autoplay", "1", "--audio-out", str(work / "x.wav"), "--watch-assets"], 2, "--watch-assets are for the window"),
        (["--dance"], 2, 'unknown option "--dance"'),
        (["--autoplay", "5", "--audio-out", str(work / "x.wav"), "--assets", str(work / "none")], 1, str(work / "none")),
    ]
    for args, code, text in cases:
        result = run([str(GAME), *args])
        assert result.returncode == code and text in result.stderr, (args, result.stderr)


def test_no_display_and_no_terminal_is_explained():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    result = run([str(GAME)], env=env, stdin=subprocess.DEVNULL)
    assert result.returncode == 1 and "no display and no terminal" in result.stderr


def test_sdl2_is_not_linked_and_loaded_only_when_a_window_opens(work):
    assert "libSDL2" not in run(["ldd", str(GAME)]).stdout, "starfall links SDL2"
    auto = run([str(GAME), "--autoplay", "0", "--audio-out", str(work / "nosdl.wav"), "--assets", str(REPO / "Assets")],
               env=dict(os.environ, LD_DEBUG="files"))
    assert auto.returncode == 0 and "file=libSDL2" not in auto.stderr, "the autoplay loaded SDL2"
    window = run([str(GAME), "--window", "--frames", "2"], env=dummy(LD_DEBUG="files"), timeout=60)
    assert window.returncode == 0 and "file=libSDL2-2.0.so.0" in window.stderr, "the window did not load SDL2"


def test_the_window_runs_headless_with_the_dummy_video_driver(pulse):
    run([str(GAME), "--window", "--frames", "120"], env=dummy(), check=True, timeout=60)


def test_the_window_plays_a_bot_game_headless(pulse):
    run([str(GAME), "--window", "--autostart", "--bot", "--seed", "4", "--frames", "300"], env=dummy(), check=True, timeout=60)


def test_the_window_runs_silent_with_a_notice_when_there_is_no_sound_device(pulse):
    result = run([str(GAME), "--window", "--frames", "30"], env=dummy(SOUNDSTATION_DEVICE="no such device"), timeout=60)
    assert result.returncode == 0
    assert re.search(r"notice: .*no such device.*Continuing without sound", result.stderr), result.stderr


def test_the_window_survives_the_sound_server_stopping_and_coming_back(work, pulse):
    """The sound server stops mid-game and comes back: the game goes on, exits 0, and its music is
    heard again while it still runs (1200 frames are 20 s: room for a slow restart)."""
    server = PulseServer(work / "loss", "loss")
    err = open(work / "loss.err", "w")
    try:
        game = subprocess.Popen([str(GAME), "--window", "--autostart", "--bot", "--seed", "3", "--frames", "1200"],
                                env=dummy(**server.env), stderr=err)
        wait_until(lambda: listen_until_heard(server, work / "before.wav", game, takes=1)[0] > 0.02, 30,
                   "the game's music on the server's sink")
        server.stop()
        # The outage under test: the server away for 1.5 s (a stimulus, not a wait for anything).
        time.sleep(1.5)
        server.start()
        heard, take, alive = listen_until_heard(server, work / "after.wav", game)
        status = game.wait(60)
    finally:
        server.stop()
    print(f"exit {status}; heard {heard} in take {take} of 1 s; game still running: {alive}")
    print("the game's stderr:", (work / "loss.err").read_text(), "the server's log:", server.log_tail(), sep="\n")
    assert status == 0 and heard > 0.02 and alive


def test_the_window_watch_assets_reports_a_reloaded_effect_and_a_broken_catalogue(work, pulse, recorder):
    assets = work / "watched"
    shutil.copytree(REPO / "Assets", assets)
    err_path = work / "watch.err"
    err = open(err_path, "w")
    game = subprocess.Popen([str(GAME), "--window", "--autostart", "--bot", "--seed", "2", "--frames", "480",
                             "--assets", str(assets), "--watch-assets"], env=dummy(), stderr=err)
    try:
        # The game watches its assets before its front end starts, and the front end plays the music:
        # watched once the sink hears it.
        rec = recorder("watch", rate=16000)
        wait_until(lambda: rec.heard_above(0.02) or game.poll() is not None, 30, "the game's music on the sink",
                   lambda: err_path.read_text())
        shutil.copy(assets / "Effects/coin.wav", assets / "Effects/.click.tmp")
        os.rename(assets / "Effects/.click.tmp", assets / "Effects/click.wav")
        wait_until(lambda: 'reloaded "click" from Effects/click.wav' in err_path.read_text(), 20,
                   "the reload notice", lambda: err_path.read_text())
        shutil.copy(assets / "catalogue.json", assets / "good.json")
        (assets / ".catalogue.tmp").write_text('{ "sounds": [\n')
        os.rename(assets / ".catalogue.tmp", assets / "catalogue.json")
        status = game.wait(60)
    finally:
        if game.poll() is None:
            game.kill()
    text = err_path.read_text()
    print(text)
    assert status == 0 and re.search(r"reload of catalogue.json failed: .*catalogue.json", text)


def test_a_window_screenshot_under_xvfb_shows_the_playfield(work, pulse):
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=open(work / "xvfb.log", "w"), stderr=subprocess.STDOUT)
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            display = pipe.readline().strip()  # Xvfb writes its display number once it accepts clients
        assert display, (work / "xvfb.log").read_text()
        run([str(GAME), "--window", "--autostart", "--bot", "--seed", "3", "--frames", "200", "--screenshot",
             str(work / "shot.bmp")], env=dict(os.environ, DISPLAY=f":{display}"), check=True, timeout=60)
    finally:
        xvfb.terminate()
        xvfb.wait()
    data = (work / "shot.bmp").read_bytes()
    assert data[:2] == b"BM", "not a BMP"
    (offset,) = struct.unpack_from("<I", data, 10)
    width, height, _, bits = struct.unpack_from("<iiHH", data, 18)
    step, counts = bits // 8, {"paddle": 0, "star": 0, "text": 0}
    row = (width * step + 3) & ~3
    colours = {(60, 210, 235): "paddle", (255, 222, 70): "star", (240, 240, 250): "text"}
    for y in range(abs(height)):
        line = abs(height) - 1 - y if height > 0 else y
        base = offset + line * row
        for x in range(width):
            at = base + x * step
            name = colours.get((data[at + 2], data[at + 1], data[at]))
            if name:
                counts[name] += 1
    print(f"{width}x{abs(height)} {bits}-bit: {counts}")
    assert counts["paddle"] > 300 and counts["star"] > 20 and counts["text"] > 100, counts


@pytest.fixture
def shell(tmux, work, pulse):
    """A plain bash in a 100x30 pane, as a person would use it."""
    tmux.new("starfall", "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER PS1='prompt$ ' bash --norc --noprofile")
    tmux.wait_for("starfall", r"prompt\$")
    return lambda *keys: tmux.keys("starfall", *keys)


def test_a_scripted_terminal_run_ends_on_its_last_ticks_screen(work, pulse):
    """`--frames N` quits after tick N showing that tick's screen. Only even ticks are drawn on the way
    (30 screens a second), so a run of one tick showed none, and a loop late enough to catch up on
    ticks N-1 and N together ended on tick N-2's: two runs of one script ended on different screens."""
    server = Tmux(work / "frames.sock", alternate_screen=False)
    try:
        screens = {}
        for frames in (1, 3):
            status, screens[frames] = server.run(
                f"frames{frames}", f"env -u DISPLAY -u WAYLAND_DISPLAY {GAME} --terminal --autostart --bot "
                f"--seed 3 --frames {frames}", timeout=60)
            print(f"--frames {frames}: exit {status}\n{screens[frames]}")
            assert status == 0
            assert "LIVES 3" in screens[frames], f"--frames {frames} ended on no game screen"
    finally:
        server.kill()


def test_the_terminal_title_play_pause_menu_quit_leaves_the_terminal_as_found(tmux, shell, work):
    shell(f"cd {work} && stty -a > before.txt && {GAME}; echo status=$?", "Enter")
    tmux.wait_for("starfall", "START")
    assert "STARFALL" in tmux.pane("starfall"), "no title"
    shell("Space")
    tmux.wait_for("starfall", "LIVES")
    shell("p")
    tmux.wait_for("starfall", "PAUSED")
    shell("q")
    tmux.wait_for("starfall", "catch the falling stars")
    shell("q")
    tmux.wait_for("starfall", "status=0")
    shell("stty -a > after.txt; echo reply-$((40 + 2))", "Enter")
    tmux.wait_for("starfall", "reply-42")
    assert "stty -a > before.txt" in tmux.pane("starfall"), "the main screen did not come back"
    assert (work / "before.txt").read_text() == (work / "after.txt").read_text()


def test_the_terminal_menu_opens_the_voice_notes_screen_and_returns(tmux, shell, work):
    shell(f"cd {work} && XDG_DATA_HOME={work}/notes-home {GAME}; echo status=$?", "Enter")
    tmux.wait_for("starfall", "START")
    shell("s")
    tmux.wait_for("starfall", "> UPGRADES")
    shell("s")
    tmux.wait_for("starfall", "> VOICE NOTES")
    shell("Enter")
    tmux.wait_for("starfall", "Press r to record")
    assert "Voice Notes" in tmux.pane("starfall"), "no voice-notes title"
    shell("q")
    tmux.wait_for("starfall", "> VOICE NOTES")
    shell("q")
    tmux.wait_for("starfall", "status=0")


def test_the_terminals_walls_pulse_on_the_musics_beats(tmux, shell, work):
    """The wall at the left edge is seen both in its resting blue (94) and lit (cyan 96 or white 97)."""
    shell(f"cd {work} && {GAME} --terminal --autostart --bot", "Enter")
    tmux.wait_for("starfall", "LIVES")
    seen = {"rest": 0, "lit": 0}

    def both():
        line = (tmux.pane("starfall", escapes=True).splitlines() + [""] * 6)[5]
        if "[94m|" in line or ";94m|" in line:
            seen["rest"] += 1
        if any(p in line for p in ("[96m|", "[97m|", ";96m|", ";97m|")):
            seen["lit"] += 1
        return seen["rest"] and seen["lit"]
    try:
        wait_until(both, 10, "the wall both resting and lit", lambda: str(seen))
    finally:
        shell("C-c")
    print(f"wall resting in {seen['rest']} captures, lit in {seen['lit']}")


def test_the_terminal_ctrl_c_exits_130_and_restores_the_terminal(tmux, shell, work):
    shell(f"cd {work} && stty -a > before-int.txt && {GAME} --terminal --autostart --bot; echo status=$?", "Enter")
    tmux.wait_for("starfall", "LIVES")
    shell("C-c")
    tmux.wait_for("starfall", "status=130")
    # The reply is computed by the shell, so the typed command line (which the pane shows at once)
    # cannot match it: only the shell's output, after after-int.txt is written, does.
    shell("stty -a > after-int.txt; echo reply-$((40 + 3))", "Enter")
    tmux.wait_for("starfall", "reply-43")
    assert (work / "before-int.txt").read_text() == (work / "after-int.txt").read_text()


def test_the_terminal_sigterm_exits_143_and_restores_the_terminal(tmux, shell, work):
    shell(f"cd {work} && stty -a > before-term.txt && bash -c 'echo $$ > pid; exec {GAME} --terminal'; echo status=$?", "Enter")
    tmux.wait_for("starfall", "START")
    os.kill(int((work / "pid").read_text()), 15)
    tmux.wait_for("starfall", "status=143")
    shell("stty -a > after-term.txt; echo reply-$((40 + 4))", "Enter")
    tmux.wait_for("starfall", "reply-44")
    assert (work / "before-term.txt").read_text() == (work / "after-term.txt").read_text()

"""The library never writes on a game's terminal (formerly Scripts/e2e-quiet.sh): curses programs in
C and Python (Tests/CAPI/quiet_test.*) draw their screen, then open "auto" with no sound server
(OpenAL Soft falls back to ALSA, which finds no card), preload a cut-short WAV, a damaged MP3 and a
bad module, play them and stream the damaged MP3. The tmux pane must hold exactly the lines the
program drew; what ALSA, libmpg123 and the decoders said must come back as notice events instead.
The broken files are made from the project's own generated assets."""

import json
import os
import random
import subprocess
import time

import pytest
from e2e import BIN, REPO, PulseServer, run, wait_until


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The library link, the C program and the broken assets, made once for this file's tests."""
    work = tmp_path_factory.mktemp("quiet")
    lib = work / "lib"
    lib.mkdir()
    (lib / "libsoundstation.so.1").symlink_to(BIN / "libSoundStationC.so")
    (lib / "libsoundstation.so").symlink_to("libsoundstation.so.1")
    cc = ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", f"-I{REPO}/Sources/CSoundStation/include", f"-L{lib}"]
    run(cc[:1] + cc[1:5] + ["-o", str(work / "quiet_test"), str(REPO / "Tests/CAPI/quiet_test.c")] + cc[5:]
        + ["-lsoundstation", f"-Wl,-rpath,{lib}", "-lncurses"], check=True)
    run(cc[:1] + cc[1:5] + ["-o", str(work / "loss_test"), str(REPO / "Tests/CAPI/loss_test.c")] + cc[5:]
        + ["-lsoundstation", f"-Wl,-rpath,{lib}"], check=True)
    assets = work / "assets"
    assets.mkdir()
    run(["sox", str(REPO / "Assets/Effects/coin.wav"), "-r", "44100", str(work / "long.wav"), "repeat", "30"], check=True)
    run(["lame", "--quiet", str(work / "long.wav"), str(work / "good.mp3")], check=True)
    wav = (REPO / "Assets/Effects/coin.wav").read_bytes()
    (assets / "cut.wav").write_bytes(wav[: len(wav) * 4 // 10])
    mp3 = bytearray((work / "good.mp3").read_bytes())
    rng = random.Random(20)
    for start in (len(mp3) // 5, len(mp3) // 2, len(mp3) * 3 // 4):
        for i in range(start, start + 1500):
            mp3[i] = rng.randrange(256)
    (assets / "bad.mp3").write_bytes(mp3)
    module = bytearray(rng.randrange(256) for _ in range(1084))
    module[1080:1084] = b"M.K."
    (assets / "bad.mod").write_bytes(module)
    (assets / "catalogue.json").write_text(json.dumps({"sounds": [
        {"name": "cut", "path": "cut.wav", "kind": "effect"},
        {"name": "damaged", "path": "bad.mp3", "kind": "effect"},
        {"name": "module", "path": "bad.mod", "kind": "effect"},
        {"name": "stream", "path": "bad.mp3", "kind": "music", "stream": True, "loop": True},
    ]}))
    return work


def quiet_in_tmux(work, tmux, name, command):
    """Runs COMMAND in an 80x24 pane with no sound server (PULSE_SERVER names a socket that does not
    exist), waits for its record's notices, and compares the pane with the lines it recorded."""
    record = work / f"{name}.record"
    tmux.new(name, f"env -i HOME='{work}' PATH=/usr/bin:/bin TERM=tmux-256color PULSE_SERVER='unix:{work}/no-server' "
             f"PYTHONPATH='{REPO}/python' SOUNDSTATION_LIBRARY='{work}/lib/libsoundstation.so.1' "
             f"{command} '{work}/assets' '{record}' 3", 80, 24)
    # The program writes its record after its last drawing ("done: ..."), then stays on its screen.
    wait_until(lambda: record.exists() and "--- notices" in record.read_text(), 30, f"{record.name} to hold the notices",
               lambda: tmux.pane(name))
    tmux.wait_for(name, r"done: ")
    lines = [line.rstrip() for line in tmux.pane(name).splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    text = record.read_text()
    drawn, _, notices = text.partition("--- notices")
    notices = notices.split("\n", 1)[1] if "\n" in notices else ""
    print("the pane:", *lines, "the notices instead:", notices, sep="\n")
    assert drawn.splitlines() == lines, "the terminal shows more than the program drew"
    assert any(line.startswith("done: ok") for line in drawn.splitlines())
    # What used to be written on the terminal now arrives as notices.
    assert "cut.wav' is cut short" in notices, "no notice for the cut-short WAV"
    assert "bad.mp3' is cut short" in notices, "no notice for the damaged MP3"
    if "output silent" in drawn:
        assert "Continuing without sound" in notices, "no notice says why it is silent"


def test_a_c_curses_program_with_no_sound_server_and_broken_files_shows_only_what_it_drew(built, tmux):
    quiet_in_tmux(built, tmux, "c", f"'{built}/quiet_test'")


def test_a_python_curses_program_the_same_through_soundstation_engine(built, tmux):
    quiet_in_tmux(built, tmux, "python", f"python3 '{REPO}/Tests/CAPI/quiet_test.py'")


def test_a_device_lost_and_regained_keeps_the_musics_position_and_one_start(built, work, pulse):
    """Tests/CAPI/loss_test.c: the music's position does not run ahead by the outage, and the restore
    sends no second start."""
    server = PulseServer(work / "loss", "loss")
    env = dict(os.environ, **server.env)
    try:
        program = subprocess.Popen([str(built / "loss_test"), str(REPO / "Assets")], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        def streams():
            return subprocess.run(["pactl", "list", "short", "sink-inputs"], env=env, capture_output=True,
                                  text=True).stdout.strip()
        wait_until(lambda: streams() or program.poll() is not None, 20, "the music's stream on the server")
        server.stop()
        # The outage under test: the server away for 2 s (a stimulus, not a wait for anything).
        time.sleep(2)
        server.start()
        output, _ = program.communicate(timeout=60)
    finally:
        server.stop()
    print(output)
    assert program.returncode == 0, output

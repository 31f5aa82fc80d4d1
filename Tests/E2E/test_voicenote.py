"""The voicenote CLI and its terminal screen as a user runs them (formerly Scripts/e2e-voicenote.sh):
speech from espeak-ng is played into the null sink while voicenote records its monitor; results are
measured with soxi, sox and ogginfo, and the screen is driven through tmux. The checks run in this
file's order: the first records the note the next ones list, play and remove."""

import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from e2e import BIN, PulseServer, fails, rms, run, soxi, wait_until

CLI = BIN / "voicenote"
WORK_FOLDERS = []


@pytest.fixture(scope="module")
def folder(pulse):
    work = Path(tempfile.mkdtemp(prefix="voicenote-e2e."))
    WORK_FOLDERS.append(work)
    run(["espeak-ng", "-w", str(work / "speech.wav"), "This is a voice note. It was recorded from the null sink."],
        check=True)
    yield work
    shutil.rmtree(work, ignore_errors=True)


def notes(folder):
    return folder / "notes"


def only_note(folder):
    found = sorted(notes(folder).glob("recording-*.ogg")) if notes(folder).exists() else []
    return found[0] if found else None


def ogginfo_ok(path):
    return subprocess.run(["ogginfo", str(path)], capture_output=True).returncode == 0


def start_recording(args, out, **kwargs):
    """voicenote record ARGS with stdout in OUT; returns once it says it is recording."""
    process = subprocess.Popen([str(CLI), "record", *args], stdin=subprocess.DEVNULL, stdout=open(out, "w"), **kwargs)
    wait_until(lambda: re.search(r"(?m)^recording ", out.read_text()) or process.poll() is not None, 20,
               "voicenote to say it is recording", lambda: out.read_text())
    return process


def speak(folder):
    return subprocess.Popen(["paplay", str(folder / "speech.wav")])


def test_record_2_s_while_speech_plays_gives_a_12_khz_mono_ogg_of_24000_samples(folder):
    recorder = start_recording(["--seconds", "2", "--dir", str(notes(folder))], folder / "record.out")
    speaker = speak(folder)
    assert recorder.wait(30) == 0
    speaker.wait(30)
    note = only_note(folder)
    assert note, f"no note in {notes(folder)}"
    assert not list(notes(folder).glob("*.part")), "a .part file was left"
    assert soxi(note, "-r") == "12000" and soxi(note, "-c") == "1"
    assert soxi(note, "-s") == "24000", f"{soxi(note, '-s')} samples, wanted 24000"
    assert ogginfo_ok(note)
    loud = rms(note)
    print(f"note RMS {loud}")
    assert loud > 0.01


def test_list_shows_the_note_with_its_duration(folder):
    listed = run([str(CLI), "list", "--dir", str(notes(folder))], check=True).stdout
    assert re.search(rf"(?m)^{re.escape(only_note(folder).name)} .* 2\.00 s", listed)


def test_info_prints_rate_channels_and_duration(folder):
    info = run([str(CLI), "info", str(only_note(folder))], check=True).stdout
    assert re.search(r"(?m)^rate: *12000 Hz", info) and re.search(r"(?m)^channels: *1$", info)
    assert re.search(r"(?m)^duration: *2\.000 s", info)


def test_play_returns_after_the_note_exit_0_heard_on_the_sink(folder, recorder, work):
    rec = recorder("heard", rate=16000)
    start = time.monotonic()
    result = run([str(CLI), "play", only_note(folder).stem, "--dir", str(notes(folder))], timeout=20,
                 stdin=subprocess.DEVNULL)
    took = time.monotonic() - start
    rec.stop(after=0.3)
    heard = rms(work / "heard.wav")
    print(f"play exit {result.returncode} after {took:.2f} s, heard RMS {heard}")
    assert result.returncode == 0 and re.search(r"(?m)^finished", result.stdout) and took > 1.9 and heard > 0.005


def test_a_70_s_note_streams_on_the_device_heard_and_stopped_by_sigint(folder, recorder, work):
    long = work / "long.ogg"
    run(["sox", "-n", "-r", "12000", "-c", "1", str(long), "synth", "70", "sine", "440", "vol", "0.3"], check=True)
    rec = recorder("long-heard", rate=16000)
    out = work / "long.out"
    player = subprocess.Popen([str(CLI), "play", str(long)], stdin=subprocess.DEVNULL, stdout=open(out, "w"),
                              stderr=subprocess.STDOUT)
    # Stopped once the sink has heard 2 s of it.
    def heard_seconds():
        samples = rec.samples()
        start = next((i for i, v in enumerate(samples) if abs(v) > 3277), None)
        return 0 if start is None else (len(samples) - start) / rec.rate
    try:
        wait_until(lambda: heard_seconds() >= 2 or player.poll() is not None, 20, "2 s of the note on the sink",
                   lambda: f"{heard_seconds():.2f} s; {out.read_text()}")
        player.send_signal(signal.SIGINT)
        status = player.wait(20)
    finally:
        # A player that failed to stop is not left behind: with its sound server gone it would wait
        # for the device for ever (as a game does), using a core beside the next tests.
        if player.poll() is None:
            player.kill()
            player.wait()
    rec.stop()
    text, heard = out.read_text(), rms(work / "long-heard.wav")
    print(text, f"exit {status}, heard RMS {heard}")
    assert re.search(r"(?m)^playing long\.ogg \(1:10\.0\)", text) and re.search(r"(?m)^stopped", text)
    assert heard > 0.05


def test_rename_keeps_ogg_and_refuses_taken_and_unsafe_names_and_delete_removes(folder, work):
    names = work / "names"
    names.mkdir()
    shutil.copy(only_note(folder), names / "a.ogg")
    shutil.copy(only_note(folder), names / "b.ogg")
    renamed = run([str(CLI), "rename", "a", "meeting", "--dir", str(names)], check=True).stdout
    assert re.search(r"(?m)^renamed a to meeting\.ogg$", renamed)
    assert (names / "meeting.ogg").exists() and not (names / "a.ogg").exists()
    fails([str(CLI), "rename", "meeting", "b", "--dir", str(names)], 1, 'a voice note named "b" already exists')
    fails([str(CLI), "mv", "meeting", "x/y", "--dir", str(names)], 1, 'invalid note name "x/y"')
    fails([str(CLI), "rename", "meeting", "--dir", str(names)], 2, "rename needs")
    assert (names / "meeting.ogg").exists() and (names / "b.ogg").exists()
    deleted = run([str(CLI), "delete", "meeting", "--dir", str(names)]).stdout
    assert re.search(r"(?m)^removed meeting\.ogg$", deleted)
    assert not (names / "meeting.ogg").exists() and (names / "b.ogg").exists()


def test_rm_removes_it(folder):
    name = only_note(folder).stem
    assert f"removed {name}.ogg" in run([str(CLI), "rm", name, "--dir", str(notes(folder))]).stdout
    assert only_note(folder) is None
    assert "no voice notes" in run([str(CLI), "list", "--dir", str(notes(folder))]).stdout


def test_rm_of_dot_dot_is_refused_with_exit_1(folder):
    fails([str(CLI), "rm", "../x", "--dir", str(notes(folder))], 1, 'invalid note name "../x"')


def test_rm_of_a_missing_note_names_it(folder):
    fails([str(CLI), "rm", "nothing", "--dir", str(notes(folder))], 1, 'no voice note named "nothing"')


def test_devices_lists_the_monitor(folder):
    assert re.search(r"(?m)^  Monitor of Null_Output$", run([str(CLI), "devices"], check=True).stdout)


def test_record_wav_at_16000_hz_in_2_channels(folder, work):
    run([str(CLI), "record", "--seconds", "1", "--rate", "16000", "--channels", "2", "--format", "wav", "--dir",
         str(work / "wav")], check=True, stdin=subprocess.DEVNULL)
    note = next((work / "wav").glob("*.wav"))
    assert soxi(note, "-r") == "16000" and soxi(note, "-s") == "16000" and soxi(note, "-c") == "2"


def limit_file_size(kilobytes):
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (kilobytes * 1024, kilobytes * 1024))


def test_a_file_size_limit_stops_a_wav_recording_and_keeps_what_was_written(folder, work):
    result = run([str(CLI), "record", "--seconds", "10", "--format", "wav", "--dir", str(work / "full")],
                 stdin=subprocess.DEVNULL, preexec_fn=limit_file_size(24), timeout=60)
    assert result.returncode == 1, f"exit {result.returncode}, wanted 1"
    assert re.search(r"recording stopped: writing '.*' failed \(File too large\)", result.stderr)
    kept = list((work / "full").glob("*.wav"))
    assert kept, "nothing kept"
    samples = int(soxi(kept[0], "-s"))
    print(f"kept {samples} samples in {kept[0].stat().st_size} bytes")
    assert samples > 6000


def test_a_file_size_limit_stops_an_ogg_recording_and_keeps_what_was_written(folder, work):
    out = work / "full-ogg.out"
    err = open(work / "full.err", "w")
    recorder = start_recording(["--seconds", "10", "--quality", "max", "--dir", str(work / "full-ogg")], out,
                               stderr=err, preexec_fn=limit_file_size(8))
    speaker = speak(folder)
    status = recorder.wait(60)
    speaker.wait(30)
    text = (work / "full.err").read_text()
    print(text)
    assert status == 1 and "File too large" in text
    kept = list((work / "full-ogg").glob("*.ogg"))
    assert kept and ogginfo_ok(kept[0]) and float(soxi(kept[0], "-D")) > 0.3


def can_mount_tmpfs():
    probe = Path(tempfile.mkdtemp())
    try:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(probe)], capture_output=True).returncode:
            return False
        subprocess.run(["umount", str(probe)])
        return True
    finally:
        probe.rmdir()


@pytest.mark.skipif(not can_mount_tmpfs(), reason="cannot mount a tmpfs here (the file-size limits still run)")
def test_a_full_disk_stops_the_recording_and_keeps_what_was_written(folder, work):
    """A real "no space left": an 8 KiB tmpfs fills up mid-recording."""
    disk = work / "small-disk"
    disk.mkdir()
    run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(disk)], check=True)
    try:
        err = open(work / "tmpfs.err", "w")
        recorder = start_recording(["--seconds", "60", "--dir", str(disk / "notes")], work / "tmpfs.out", stderr=err)
        speaker = speak(folder)
        status = recorder.wait(90)
        speaker.wait(30)
        text = (work / "tmpfs.err").read_text()
        kept = sorted((disk / "notes").glob("*.ogg"))
        seconds = float(soxi(kept[0], "-D")) if kept else 0
        print(text, f"exit {status}, kept {seconds} s")
        assert status == 1 and "No space left on device" in text and kept and ogginfo_ok(kept[0]) and seconds > 0.5
    finally:
        subprocess.run(["umount", str(disk)])


def record_for(process, seconds):
    """The recording's length under test: `seconds` of it once it runs (a stimulus, not a wait)."""
    time.sleep(seconds)
    assert process.poll() is None, f"voicenote exited {process.returncode} before {seconds} s"


def test_sigterm_ends_a_recording_and_keeps_it_whole(folder, work):
    recorder = start_recording(["--dir", str(work / "term")], work / "term.out")
    record_for(recorder, 1.5)
    recorder.terminate()
    status = recorder.wait(20)
    kept = list((work / "term").glob("*.ogg"))
    print((work / "term.out").read_text(), f"exit status {status}")
    # Python reports a death by signal as -15; the shell's 143 is 128 + 15: voicenote re-raised it.
    assert status in (-15, 143) and kept and ogginfo_ok(kept[0]) and float(soxi(kept[0], "-D")) > 1


def test_kill_9_leaves_a_note_that_list_repairs(folder, work):
    recorder = start_recording(["--seconds", "30", "--dir", str(work / "killed")], work / "killed.out")
    record_for(recorder, 2)
    recorder.kill()
    recorder.wait()
    assert list((work / "killed").glob("*.ogg.part"))
    listed = run([str(CLI), "list", "--dir", str(work / "killed")], check=True)
    assert "recovered the unfinished recording" in listed.stderr
    note = next((work / "killed").glob("*.ogg"))
    print(f"repaired note: {soxi(note, '-D')} s")
    assert ogginfo_ok(note) and float(soxi(note, "-D")) > 1


def test_the_sound_server_stopping_mid_recording_keeps_the_note_and_says_why(folder, work):
    server = PulseServer(work / "lost-server", "lost")
    try:
        err = open(work / "lost.err", "w")
        recorder = start_recording(["--seconds", "30", "--dir", str(work / "lost")], work / "lost.out", stderr=err,
                                   env=dict(os.environ, **server.env))
        record_for(recorder, 2)
        server.stop()
        status = recorder.wait(30)
    finally:
        server.stop()
    text = (work / "lost.err").read_text()
    kept = list((work / "lost").glob("*.ogg"))
    assert kept, "no note kept"
    print(text, f"exit {status}, kept note: {soxi(kept[0], '-D')} s")
    assert status == 1 and "went away" in text and ogginfo_ok(kept[0]) and float(soxi(kept[0], "-D")) > 1.5


def test_an_unusable_folder_is_named(folder):
    where = folder / "speech.wav" / "notes"
    fails([str(CLI), "list", "--dir", str(where)], 1, f"cannot use the voice notes folder '{where}'")


def test_a_bad_quality_is_a_usage_error(folder):
    fails([str(CLI), "record", "--quality", "best", "--dir", str(notes(folder))], 2, "--quality best")


def test_the_screen_without_a_terminal_says_so(folder):
    fails([str(CLI), "screen", "--dir", str(notes(folder))], 1, "needs a terminal", stdin=subprocess.DEVNULL)


def test_the_screen_records_plays_pauses_renames_deletes_and_restores_the_terminal(folder, work):
    screen = work / "screen"
    socket = str(work / "tmux.sock")

    def tmux(*args):
        return subprocess.run(["tmux", "-u", "-S", socket, "-f", "/dev/null", *args], capture_output=True, text=True,
                              env=dict(os.environ, LANG="C.UTF-8"))

    def pane():
        return tmux("capture-pane", "-t", "voicenote", "-p").stdout

    def wait_for(pattern, timeout=10):
        wait_until(lambda: re.search(pattern, pane(), re.M), timeout, f"the screen to show {pattern!r}", pane)

    def keys(*k):
        tmux("send-keys", "-t", "voicenote", *k)
    # UTF-8 throughout (-u, LANG), so the waveform's block characters reach the pane intact.
    tmux("new-session", "-d", "-s", "voicenote", "-x", "100", "-y", "30",
         f"env LANG=C.UTF-8 '{CLI}' --dir '{screen}'; echo \"exit=$?\"; stty -a | grep -o -- '-\\?icanon\\b'; sleep 86400")
    try:
        for text in ("Voice Notes", "Ready", "No recordings yet", "n rename  d delete  q quit"):
            wait_for(re.escape(text))
        keys("r")
        wait_for("Recording")
        # Speech plays into the sink while the first note records, so its waveform has loud cells.
        speaker = speak(folder)
        wait_for("Stop recording")
        wait_for(r"Level \[")
        wait_for("Recording  0:02")
        keys("r")
        wait_for("saved recording-")
        wait_for(r"> recording-[0-9]* ")
        speaker.wait(30)
        assert "Recordings (1)" in pane()
        # The waveform: 16 block characters after the name, the speech's cells above the lowest blocks.
        wait_for(r"> recording-[0-9]* *[▁▂▃▄▅▆▇█]{16}  ")
        line = next(l for l in pane().splitlines() if "> recording-" in l)
        assert re.search("[▄▅▆▇█]", line), f"no loud cell in the waveform:\n{pane()}"
        keys("Enter")
        wait_for("playing 0:")
        keys("Space")
        wait_for("paused 0:")
        keys("Space")
        wait_for("playing 0:")
        keys("s")
        # A second note, to rename onto the first one's name; names are made to the second.
        first = next(p.stem for p in sorted(screen.glob("recording-*.ogg")) if re.fullmatch(r"recording-[0-9]*", p.stem))
        made = int((screen / f"{first}.ogg").stat().st_mtime)
        wait_until(lambda: int(time.time()) > made + 1, 5, "the next second, for a name of its own")
        keys("r")
        wait_for("Recording  0:01")
        keys("r")
        wait_for(r"Recordings \(2\)")
        second = next((p.stem for p in screen.glob("recording-*.ogg") if p.stem != first), None)
        assert second, f"no second note: {os.listdir(screen)}"
        wait_for(f"> {second} ")
        keys("n")
        wait_for(f'Rename "{second}" to: {second}')
        wait_for("Enter rename  Esc cancel")
        keys("-N", "40", "BSpace")
        keys("-l", first)
        keys("Enter")
        wait_for(f'a voice note named "{first}" already exists')
        keys("-N", "40", "BSpace")
        keys("-l", "a/b")
        keys("Enter")
        wait_for('invalid note name "a/b"')
        keys("Escape")
        wait_for(f"kept the name {second}")
        assert (screen / f"{second}.ogg").exists() and (screen / f"{first}.ogg").exists()
        keys("n")
        wait_for(f'Rename "{second}" to:')
        keys("-N", "40", "BSpace")
        keys("-l", "standup")
        keys("Enter")
        wait_for(f"renamed {second} to standup")
        wait_for("> standup ")
        assert (screen / "standup.ogg").exists() and not (screen / f"{second}.ogg").exists()
        keys("d")
        wait_for(r'Delete "standup" \(0:0[0-9.]*, [0-9.]* [KM]?B\)\? y/n')
        wait_for("y delete  n or Esc keep")
        keys("n")
        wait_for("kept standup")
        assert (screen / "standup.ogg").exists(), "n deleted it"
        keys("d")
        wait_for("y/n")
        keys("y")
        wait_for("deleted standup.ogg")
        wait_for(r"Recordings \(1\)")
        assert not (screen / "standup.ogg").exists(), "standup.ogg is still there"
        keys("q")
        wait_for("^exit=0")
        # stty prints a moment after the exit line: wait for its word before reading it.
        wait_for(r"^-?icanon")
        assert re.search(r"(?m)^icanon$", pane()), f"the terminal was left in raw mode:\n{pane()}"
        assert any(re.fullmatch(r"recording-[0-9]*\.ogg", p.name) for p in screen.iterdir())
    finally:
        tmux("kill-server")

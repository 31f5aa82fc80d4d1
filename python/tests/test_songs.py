"""MIDI and chiptune songs from a catalogue, rendered offline and checked on their samples: a MIDI
file of quarter notes at 120 bpm starts a note every 0.5 s at its pitch; a VGM log plays its intro,
then loops at its loop offset. Both files are written here, byte by byte."""

import json
import math
import os
import struct

import pytest

import soundstation
from conftest import RATE, interleaved, level, rms

NOTES = [57, 64, 69, 72]
SOUNDFONTS = ["/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/sounds/sf2/TimGM6mb.sf2",
              "/usr/share/sounds/sf2/FluidR3_GM.sf2"]
needs_soundfont = pytest.mark.skipif(not any(os.access(p, os.R_OK) for p in SOUNDFONTS),
                                     reason="needs a General MIDI SoundFont (Debian's timgm6mb-soundfont)")


def frequency(note):
    return 440.0 * 2 ** ((note - 69) / 12)


def quantity(value):
    """A MIDI variable-length number."""
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.insert(0, 0x80 | (value & 0x7F))
        value >>= 7
    return bytes(out)


def midi_song(notes=NOTES):
    """A format-0 MIDI file: 480 ticks a beat, 120 bpm, the piano; each note held 0.4 s of its 0.5 s."""
    events = b"\x00\xff\x51\x03\x07\xa1\x20" + b"\x00\xc0\x00"
    for index, note in enumerate(notes):
        events += b"\x00" + bytes([0x90, note, 100]) + quantity(384) + bytes([0x80, note, 0])
        if index < len(notes) - 1:
            events += quantity(96) + b"\xff\x01\x00"
    events += quantity(96) + b"\xff\x2f\x00"
    return b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480) + b"MTrk" + struct.pack(">I", len(events)) + events


def vgm_song():
    """A VGM 1.50 log for the SN76489: 1 s at 440 Hz, then the loop: 0.5 s at 660 Hz, 0.5 s at 880 Hz."""
    def tone(hertz):
        period = round(3579545 / (32 * hertz))
        return bytes([0x50, 0x80 | (period & 0x0F), 0x50, (period >> 4) & 0x3F])

    def wait(seconds):
        return b"\x61" + struct.pack("<H", round(seconds * 44100))

    intro = b"\x50\x90" + tone(440) + wait(1.0)
    loop = tone(660) + wait(0.5) + tone(880) + wait(0.5)
    data = intro + loop + b"\x66"
    header = bytearray(0x40)
    header[0:4] = b"Vgm "
    struct.pack_into("<IIIIIIIII", header, 0x04, 0x40 + len(data) - 4, 0x150, 3579545, 0, 0, 2 * 44100,
                     0x40 + len(intro) - 0x1C, 44100, 60)
    struct.pack_into("<HB", header, 0x28, 9, 16)
    struct.pack_into("<I", header, 0x34, 0x40 - 0x34)
    return bytes(header) + data


@pytest.fixture
def songs(tmp_path):
    (tmp_path / "song.mid").write_bytes(midi_song())
    (tmp_path / "song.vgm").write_bytes(vgm_song())
    (tmp_path / "catalogue.json").write_text(json.dumps({"sounds": [
        {"name": "tune", "path": "song.mid", "kind": "music", "stream": True, "loop": False},
        {"name": "chip", "path": "song.vgm", "kind": "music", "track": 1},
    ]}))
    return str(tmp_path)


def onset(values, beat):
    """The first 1 ms step from 50 ms before ``beat`` whose 2 ms window (left channel) is louder than a
    third of the loudest in the 0.1 s after it."""
    def window(start):
        return rms(values[2 * start:2 * (start + 96):2])
    loudest = max(window(start) for start in range(beat, beat + 4800, 48))
    return next(start for start in range(max(beat - 2400, 0), beat + 4800, 48) if window(start) > loudest / 3)


@needs_soundfont
def test_midi_quarter_notes_start_every_half_second_at_their_pitch(songs):
    with soundstation.Engine("offline:48000", assets=songs) as engine:
        engine.preload(["tune"])
        engine.music("tune")
        values = interleaved(engine.render(RATE * 5 // 2))
    starts = [onset(values, beat * 24000) for beat in range(len(NOTES))]
    assert 0 <= starts[0] <= 240, starts
    for earlier, later in zip(starts, starts[1:]):
        assert abs(later - earlier - 24000) <= 240, starts
    for beat, note in enumerate(NOTES):
        start = beat * 24000 + 2400
        wanted = level(values, frequency(note), start, start + 9600)
        # The note's own pitch is far above the pitches a semitone either side.
        for other in (frequency(note - 1), frequency(note + 1)):
            assert wanted > 3 * level(values, other, start, start + 9600), (note, beat)
        assert wanted > 0.005


def test_vgm_loops_at_its_loop_offset(songs):
    with soundstation.Engine("offline:48000", assets=songs) as engine:
        engine.preload(["chip"])
        engine.music("chip")
        values = interleaved(engine.render(RATE * 4))

    def strongest(seconds):
        start = int(seconds * RATE)
        return max((440, 660, 880), key=lambda hertz: level(values, hertz, start, start + 4800))

    assert [strongest(s) for s in (0.3, 1.2, 1.7)] == [440, 660, 880]
    # After the loop point (2 s) the loop plays again, never the intro.
    assert [strongest(s) for s in (2.2, 2.7, 3.2, 3.7)] == [660, 880, 660, 880]
    assert rms(values[2 * 2 * RATE:]) > 0.05


def test_missing_track_is_an_error_naming_it(tmp_path):
    (tmp_path / "song.vgm").write_bytes(vgm_song())
    (tmp_path / "catalogue.json").write_text(json.dumps({"sounds": [
        {"name": "chip", "path": "song.vgm", "kind": "music", "track": 3}]}))
    with soundstation.Engine("offline:48000", assets=str(tmp_path)) as engine:
        with pytest.raises(soundstation.SoundStationError, match="not track 3"):
            engine.preload(["chip"])

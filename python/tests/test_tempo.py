"""Music speed without pitch and pitch shift, measured on offline renders."""

import pytest

import soundstation
from conftest import RATE, interleaved, level, write_tone


def zero_crossing_frequency(values, start, end):
    """The frequency from the left channel's rising zero crossings over frames [start, end)."""
    crossings = [i for i in range(start + 1, end) if values[2 * (i - 1)] < 0 <= values[2 * i]]
    return (len(crossings) - 1) * RATE / (crossings[-1] - crossings[0])


def heard_until(values, threshold=0.05):
    """The frame after the last left sample louder than ``threshold``."""
    frame = len(values) // 2
    while frame > 0 and abs(values[2 * (frame - 1)]) < threshold:
        frame -= 1
    return frame


@pytest.mark.parametrize("speed", [1.25, 0.8])
def test_a_tone_keeps_its_pitch_and_the_track_its_new_length(tmp_path, speed):
    tone = write_tone(tmp_path / "tone.wav", 440, 2.0, amplitude=0.5)
    with soundstation.Engine("offline:48000") as engine:
        engine.load_music_file("tone", tone)
        engine.set_music_speed(speed)
        engine.music("tone", loops=0)
        block = interleaved(engine.render(4 * RATE))
    length = heard_until(block) / RATE
    assert abs(length - 2 / speed) < 0.02, length
    end = int((2 / speed - 0.2) * RATE)
    assert abs(zero_crossing_frequency(block, RATE // 5, end) - 440) < 1
    # The energy stays at 440 Hz: nothing at the octave a resampling would have moved it to.
    assert level(block, 440, RATE // 5, end) > 20 * level(block, 440 * speed, RATE // 5, end)


def test_an_octave_shift_doubles_the_frequency_and_keeps_the_length(tmp_path):
    tone = write_tone(tmp_path / "tone.wav", 440, 1.0, amplitude=0.5)
    with soundstation.Engine("offline:48000") as engine:
        engine.load_file("beep", tone)
        engine.play("beep", pitch_shift=12)
        block = interleaved(engine.render(2 * RATE))
    assert abs(zero_crossing_frequency(block, RATE // 10, RATE * 9 // 10) - 880) < 1
    assert abs(heard_until(block) / RATE - 1) < 0.02


def test_bad_speeds_and_shifts_are_errors_naming_them(tmp_path):
    tone = write_tone(tmp_path / "tone.wav", 440, 1.0)
    with soundstation.Engine("offline:48000") as engine:
        engine.load_file("beep", tone)
        with pytest.raises(ValueError, match="speed"):
            engine.set_music_speed(3)
        with pytest.raises(ValueError, match="tween"):
            engine.set_music_speed(1.5, tween=-1)
        with pytest.raises(ValueError, match="pitch_shift"):
            engine.play("beep", pitch_shift=30)

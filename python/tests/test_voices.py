"""Voices, music pause, music from a file and loop counts, on real renders: each sound is a tone of
its own frequency, so a Goertzel bin tells what is heard of each."""

import pytest

import soundstation
from conftest import RATE, interleaved, level, rms, write_tone
from soundstation import EventType, FinishReason, Loops


@pytest.fixture
def tones(tmp_path):
    """Two loopable tones: 300 Hz and 2 kHz, a quarter second each."""
    return write_tone(tmp_path / "low.wav", 300, 0.25), write_tone(tmp_path / "high.wav", 2000, 0.25)


def test_a_stopped_voice_goes_silent_while_the_other_plays_on(tones):
    with soundstation.Engine("offline:48000") as engine:
        low = engine.load_file("low", tones[0])
        high = engine.load_file("high", tones[1])
        hum = engine.play(low, loops=Loops.FOREVER)
        alarm = engine.play(high, loops=Loops.FOREVER)
        assert hum and alarm and hum != alarm and hum.id > 0 and alarm.id > 0
        before = interleaved(engine.render(RATE // 2))
        assert hum.is_playing and alarm.is_playing
        hum.stop()
        after = interleaved(engine.render(RATE // 2))
        assert not hum.is_playing and alarm.is_playing
        # The 300 Hz loop is gone (its stop ramps within a few ms), the 2 kHz one plays on unchanged.
        low_before, low_after = level(before, 300, 4800, 24000), level(after, 300, 4800, 24000)
        high_before, high_after = level(before, 2000, 4800, 24000), level(after, 2000, 4800, 24000)
        assert low_before > 0.05 and high_before > 0.05
        assert low_after < low_before / 1000, (low_before, low_after)
        assert abs(high_after / high_before - 1) < 0.02, (high_before, high_after)
        events = list(engine.events())
        finished = [e for e in events if e.type == EventType.FINISHED]
        assert [(e.voice, e.reason, e.sound) for e in finished] == [(hum, FinishReason.STOPPED, "low")]
        assert finished[0].voice is hum  # the object play() returned, with its settings
        hum.stop()  # an ended voice: nothing to do, no error
        hum.set_volume(0.5)
        alarm.stop(fade=0.1)
        faded = interleaved(engine.render(RATE // 2))
        windows = [rms(faded[2 * a:2 * (a + 960)]) for a in range(0, 4800, 960)]
        assert all(later < earlier for earlier, later in zip(windows, windows[1:])), windows
        assert rms(faded[2 * 6000:]) == 0.0
        assert not alarm.is_playing


def test_events_name_the_voice_that_play_returned(tones):
    with soundstation.Engine("offline:48000") as engine:
        high = engine.load_file("high", tones[1])
        first = engine.play(high)
        second = engine.play(high, at=0.1)
        engine.render(RATE)
        started = [(e.voice, e.sound_id, round(e.time, 3)) for e in engine.events() if e.type == EventType.STARTED]
        assert started == [(first, high, 0.0), (second, high, 0.1)]
        assert started[0][0] is first and started[1][0] is second


def test_volume_pitch_and_pan_of_one_voice(tones):
    with soundstation.Engine("offline:48000") as engine:
        low = engine.load_file("low", tones[0])
        voice = engine.play(low, loops=Loops.FOREVER)
        plain = interleaved(engine.render(4800))
        voice.set_volume(0.25)
        assert voice.volume == 0.25
        quiet = interleaved(engine.render(4800))
        ratio = level(quiet, 300, 1920, 4800) / level(plain, 300, 1920, 4800)
        assert abs(ratio - 0.25) < 0.01, ratio
        voice.volume = 1.0
        voice.pan = 1.0
        right = interleaved(engine.render(4800))
        assert level(right, 300, 1920, 4800, channel=1) > 100 * level(right, 300, 1920, 4800, channel=0)
        voice.set_pan(0.0)
        voice.set_pitch(2.0)
        assert voice.pitch == 2.0
        octave = interleaved(engine.render(4800))
        assert level(octave, 600, 1920, 4800) > 0.05 > 100 * level(octave, 300, 1920, 4800)
        voice.set_pitch(1.0, tween=0.05)  # glides down over 2400 frames
        gliding = interleaved(engine.render(4800))
        assert level(gliding, 300, 2880, 4800) > 0.05
        voice.pause()
        assert voice.is_playing  # paused still holds its sound
        paused = interleaved(engine.render(4800))
        assert rms(paused[2 * 960:]) == 0.0
        voice.resume()
        resumed = interleaved(engine.render(4800))
        assert level(resumed, 300, 1920, 4800) > 0.05


def test_loop_counts(tmp_path):
    blip = write_tone(tmp_path / "blip.wav", 1000, 0.1)  # 4800 frames
    with soundstation.Engine("offline:48000") as engine:
        sound = engine.load_file("blip", blip)
        engine.play(sound, loops=2)  # three passes: 14400 frames
        block = interleaved(engine.render(RATE // 2))
        heard = [rms(block[2 * a:2 * (a + 480)]) > 1e-4 for a in range(0, RATE // 2, 480)]
        assert heard.index(False) == 30, heard  # 30 windows of 480 frames: 14400 frames
        assert not any(heard[30:])
        finished = [e for e in engine.events() if e.type == EventType.FINISHED]
        assert [(e.reason, round(e.time, 2)) for e in finished] == [(FinishReason.ENDED, 0.3)]
        once = engine.play(sound, loops=0)
        engine.render(RATE // 4)
        assert not once.is_playing


def test_music_pauses_while_an_effect_plays(tones):
    with soundstation.Engine("offline:48000") as engine:
        engine.load_music_file("song", tones[0])  # 300 Hz music
        effect = engine.load_file("beep", tones[1])  # a 2 kHz effect
        engine.music("song")
        engine.play(effect, loops=Loops.FOREVER)
        both = interleaved(engine.render(4800))
        engine.pause_music()
        paused = interleaved(engine.render(4800))
        engine.resume_music()
        resumed = interleaved(engine.render(4800))
        music, beep = level(both, 300, 1920, 4800), level(both, 2000, 1920, 4800)
        assert music > 0.05 and beep > 0.05
        assert level(paused, 300, 1920, 4800) < music / 1000
        assert abs(level(paused, 2000, 1920, 4800) / beep - 1) < 0.02
        assert abs(level(resumed, 300, 1920, 4800) / music - 1) < 0.02


def test_music_from_a_file_path_with_no_catalogue(tmp_path):
    import os

    from conftest import ASSETS

    with soundstation.Engine("offline:48000") as engine:
        song = engine.load_music_file("song", os.path.join(ASSETS, "Music", "main.ogg"))
        assert engine.sound_id("song") == song
        engine.music("song")
        assert rms(interleaved(engine.render(RATE // 2))) > 0.01
        started = [e for e in engine.events() if e.type == EventType.STARTED]
        assert [(e.sound, e.sound_id) for e in started] == [("song", song)]
        with pytest.raises(soundstation.DecodeError, match="no-such.ogg"):
            engine.load_music_file("other", tmp_path / "no-such.ogg")
        with pytest.raises(soundstation.InvalidArgumentError, match="song"):
            engine.load_music_file("song", os.path.join(ASSETS, "Music", "main.ogg"))


def test_music_loop_count_from_a_file(tmp_path):
    short = write_tone(tmp_path / "short.wav", 300, 0.1)  # 4800 frames
    with soundstation.Engine("offline:48000") as engine:
        engine.load_music_file("short", short)
        engine.music("short", loops=1)  # two passes, then the music stops
        block = interleaved(engine.render(RATE // 2))
        heard = [rms(block[2 * a:2 * (a + 480)]) > 1e-4 for a in range(0, RATE // 2, 480)]
        assert heard.index(False) == 20 and not any(heard[20:]), heard
        finished = [e for e in engine.events() if e.type == EventType.FINISHED]
        assert [(e.sound, e.reason) for e in finished] == [("short", FinishReason.ENDED)]


def test_open_with_an_output_kind():
    with soundstation.Engine(soundstation.Output.OFFLINE, rate=44100) as engine:
        assert engine.output == "offline:44100" and engine.sample_rate == 44100
    with soundstation.Engine("silent") as engine:
        assert engine.output == "silent"
    with soundstation.Engine(soundstation.Output.SILENT) as engine:
        assert engine.output == "silent"
    with pytest.raises(ValueError, match="rate 7999"):
        soundstation.Engine(soundstation.Output.OFFLINE, rate=7999)
    with pytest.raises(ValueError, match="rate=44100 is for Output.OFFLINE"):
        soundstation.Engine(soundstation.Output.SILENT, rate=44100)


def test_play_at_with_a_pitch_starts_at_its_frame(tones):
    with soundstation.Engine("offline:48000") as engine:
        high = engine.load_file("high", tones[1])
        engine.play(high, pitch=2.0, at=0.1)
        block = interleaved(engine.render(RATE // 4))
        onset = next(i for i, v in enumerate(block) if v != 0.0) // 2
        assert 4800 <= onset < 4800 + 48
        assert level(block, 4000, 6000, 12000) > 0.05 > 100 * level(block, 2000, 6000, 12000)


def test_music_at_a_bar_with_the_old_string_and_the_enum():
    from conftest import ASSETS

    def switched(at, **keywords):
        with soundstation.Engine("offline:48000", assets=ASSETS) as engine:
            engine.preload(["main", "game"])
            engine.music("main")
            engine.render(62400)
            engine.music("game", at=at, **keywords)
            return interleaved(engine.render(92160 - 62400 + 4800))

    by_string, by_enum = switched("bar"), switched(soundstation.MusicPoint.BAR)
    assert by_string == by_enum
    assert switched("bars=1") == switched(soundstation.MusicPoint.BARS, bars=1) == by_string


def test_a_voice_plays_on_the_bus_it_is_given_and_fades_in(tones):
    def heard(bus):
        with soundstation.Engine("offline:48000") as engine:
            low = engine.load_file("low", tones[0])
            engine.set_volume("music", 0.0)
            engine.render(2400)  # past the bus volume's 20 ms glide
            engine.play(low, bus=bus)
            return rms(interleaved(engine.render(4800)))

    assert heard(soundstation.Bus.MUSIC) == 0.0
    assert heard("effects") > 0.05 and heard(soundstation.Bus.DEFAULT) > 0.05  # a file's own bus: effects
    with soundstation.Engine("offline:48000") as engine:
        low = engine.load_file("low", tones[0])
        engine.play(low, fade_in=0.1, loops=Loops.FOREVER)
        block = interleaved(engine.render(9600))
        windows = [rms(block[2 * a:2 * (a + 960)]) for a in range(0, 9600, 960)]
        assert all(b > a for a, b in zip(windows[:5], windows[1:5])), windows
        assert windows[0] < windows[-1] / 4 and abs(windows[-1] / windows[-2] - 1) < 0.02, windows

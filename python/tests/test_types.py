"""Every public method with every argument wrong: a wrong type is a TypeError, a huge integer, a NaN,
an infinity or a string holding a NUL is a ValueError, and each message names the argument. Nothing
reaches C to be cut (``play(2**64)`` playing id 0, ``set_grid(2**32 + 80, 24)`` becoming 80,
``Engine("offline\\x00junk")`` opening)."""

import math

import pytest

import soundstation
from conftest import ASSETS, RATE, interleaved, rms

NAN, INF, HUGE = float("nan"), float("inf"), 2**64

# kind of each argument -> the bad values tried and the exception each must raise
BAD = {
    "number": [(object(), TypeError), ("1", TypeError), (True, TypeError), (1j, TypeError),
               (NAN, ValueError), (INF, ValueError), (-INF, ValueError), (10**400, ValueError)],
    "int": [(object(), TypeError), ("1", TypeError), (1.5, TypeError), (True, TypeError),
            (HUGE, ValueError), (2**32 + 80, ValueError), (-HUGE, ValueError)],
    "str": [(object(), TypeError), (42, TypeError), (b"bytes", TypeError), ("a\x00b", ValueError)],
    "sound": [(object(), TypeError), (1.0, TypeError), (None, TypeError), (b"reward", TypeError),
              (HUGE, ValueError), (-1, ValueError), ("rew\x00ard", ValueError)],
    "output": [(object(), TypeError), (b"offline", TypeError), (1.5, TypeError), ("offline\x00junk", ValueError),
               (HUGE, ValueError), (99, ValueError)],
    "enum": [(object(), TypeError), (1.5, TypeError), ("nowhere", ValueError), (HUGE, ValueError)],
}


def calls(engine, voice):
    """(callable, valid keyword arguments, {argument: kind}) for every public method."""
    def new(**keywords):
        soundstation.Engine(**keywords).close()

    return [
        (new, {"output": "offline:48000", "assets": ASSETS}, {"output": "output", "assets": "str"}),
        (new, {"output": soundstation.Output.OFFLINE, "rate": 48000}, {"output": "output", "rate": "int"}),
        (new, {"output": soundstation.Output.DEVICE, "device": "x", "latency": "low"},
         {"device": "str", "latency": "enum"}),
        (engine.preload, {"names": ["reward"]}, {}),
        (engine.load_file, {"name": "a", "path": f"{ASSETS}/Effects/coin.wav"}, {"name": "str", "path": "str"}),
        (engine.load_music_file, {"name": "b", "path": f"{ASSETS}/Music/main.ogg"}, {"name": "str", "path": "str"}),
        (engine.sound_id, {"name": "reward"}, {"name": "str"}),
        (engine.play, {"sound": "reward", "volume": 1.0, "pitch": 1.0, "pan": 0.0, "loops": 0, "bus": "effects",
                       "at": 0.0, "fade_in": 0.0, "priority": 10},
         {"sound": "sound", "volume": "number", "pitch": "number", "pan": "number", "loops": "int", "bus": "enum",
          "at": "number", "fade_in": "number", "priority": "int"}),
        (engine.play_at, {"sound": "reward", "seconds": 0.0, "volume": 1.0, "pan": 0.0, "pitch": 1.0, "loops": 0},
         {"sound": "sound", "seconds": "number", "volume": "number", "pan": "number", "pitch": "number",
          "loops": "int"}),
        (engine.play_position, {"sound": "reward", "x": 1.0, "y": 2.0, "volume": 1.0, "pitch": 1.0},
         {"sound": "sound", "x": "number", "y": "number", "volume": "number", "pitch": "number"}),
        (engine.stop_effects, {"fade": 0.0}, {"fade": "number"}),
        (engine.music, {"name": "main", "crossfade": 0.0, "at": "bars=2"},
         {"name": "str", "crossfade": "number", "at": "enum"}),
        (engine.music, {"name": "main", "at": soundstation.MusicPoint.BARS, "bars": 2, "loops": 1},
         {"bars": "int", "loops": "int"}),
        (engine.music, {"name": "main", "at": soundstation.MusicPoint.MARKER, "marker": "m"}, {"marker": "str"}),
        (engine.music_intensity, {"intensity": 0.5, "seconds": 0.0}, {"intensity": "number", "seconds": "number"}),
        (engine.stop_music, {"fade": 0.0}, {"fade": "number"}),
        (engine.set_volume, {"bus": "music", "gain": 1.0}, {"bus": "enum", "gain": "number"}),
        (engine.set_listener, {"x": 0.0, "y": 0.0, "glide": 0.0}, {"x": "number", "y": "number", "glide": "number"}),
        (engine.set_grid, {"columns": 80, "rows": 24}, {"columns": "int", "rows": "int"}),
        (engine.set_filter, {"bus": "music", "kind": "lowpass", "hertz": 1000.0, "q": 0.7, "glide": 0.0},
         {"bus": "enum", "kind": "enum", "hertz": "number", "q": "number", "glide": "number"}),
        (engine.set_reverb, {"bus": "effects", "preset": "cave"}, {"bus": "enum", "preset": "str"}),
        (engine.render, {"frames": 10}, {"frames": "int"}),
        (voice.stop, {"fade": 0.0}, {"fade": "number"}),
        (voice.set_volume, {"volume": 1.0, "tween": 0.0}, {"volume": "number", "tween": "number"}),
        (voice.set_pitch, {"pitch": 1.0, "tween": 0.0}, {"pitch": "number", "tween": "number"}),
        (voice.set_pan, {"pan": 0.0, "tween": 0.0}, {"pan": "number", "tween": "number"}),
    ]


def test_every_argument_of_every_method_is_checked():
    with soundstation.Engine("offline:48000", assets=ASSETS) as engine:
        engine.preload(["reward", "main"])
        voice = engine.play("reward")
        tried = 0
        for function, valid, kinds in calls(engine, voice):
            for argument, kind in kinds.items():
                for value, expected in BAD[kind]:
                    if kind == "str" and argument == "path" and isinstance(value, bytes):
                        continue
                    keywords = dict(valid, **{argument: value})
                    if function in (engine.load_file, engine.load_music_file):
                        keywords["name"] = keywords["name"] if argument == "name" else f"n{tried}"
                    label = f"{getattr(function, '__qualname__', function)}({argument}={value!r:.40})"
                    with pytest.raises(expected) as raised:
                        function(**keywords)
                    assert type(raised.value).__module__ != "_ctypes", label
                    assert argument in str(raised.value), f"{label}: {raised.value}"
                    tried += 1
        assert tried > 250


def test_wrong_types_of_whole_values():
    with soundstation.Engine("offline:48000", assets=ASSETS) as engine:
        with pytest.raises(TypeError, match="names must be a list"):
            engine.preload("reward")
        with pytest.raises(TypeError, match="names must be a list"):
            engine.preload(42)
        with pytest.raises(TypeError, match=r"names\[1\] must be a str"):
            engine.preload(["reward", 7])
        with pytest.raises(ValueError, match=r"names\[0\].*NUL"):
            engine.preload(["rew\x00ard"])
        with pytest.raises(TypeError, match="progress must be callable"):
            engine.preload(["reward"], progress=3)
        with pytest.raises(TypeError, match="volume must be a number, not NoneType"):
            engine.play("reward", volume=None)  # None means "the default" only where the signature says so
        with pytest.raises(TypeError, match="columns must be an int, not NoneType"):
            engine.set_grid(None, 24)
    with pytest.raises(TypeError, match="assets must be a str or an os.PathLike, not int"):
        soundstation.Engine("offline", assets=42)


def test_the_cut_values_of_0_1_are_refused():
    with pytest.raises(ValueError, match="output.*NUL"):
        soundstation.Engine("offline\x00junk")
    with soundstation.Engine("offline:48000", assets=ASSETS) as engine:
        engine.preload(["reward"])
        with pytest.raises(ValueError, match="sound 18446744073709551616 is out of range"):
            engine.play(2**64)
        with pytest.raises(ValueError, match="columns 4294967376 is out of range"):
            engine.set_grid(2**32 + 80, 24)
        with pytest.raises(ValueError, match="frames"):
            engine.render(2**31)
        with pytest.raises(ValueError, match="x 1e\\+300 is too large for a C float"):
            engine.set_listener(1e300, 0)
        assert rms(interleaved(engine.render(RATE // 10))) == 0.0  # nothing was played by any of them


def test_out_of_range_values_name_the_argument():
    with soundstation.Engine("offline:48000", assets=ASSETS) as engine:
        engine.preload(["reward"])
        for call, name in [
            (lambda: engine.play("reward", volume=17), "volume"),
            (lambda: engine.play("reward", pitch=0.01), "pitch"),
            (lambda: engine.play("reward", pan=-1.5), "pan"),
            (lambda: engine.play("reward", loops=-3), "loops"),
            (lambda: engine.play("reward", loops=1001), "loops"),
            (lambda: engine.play("reward", at=2e9), "at"),
            (lambda: engine.play("reward", priority=256), "priority"),
            (lambda: engine.play("reward", fade_in=-1), "fade_in"),
            (lambda: engine.stop_music(fade=-0.5), "fade"),
            (lambda: engine.set_grid(0, 24), "columns"),
            (lambda: engine.render(-1), "frames"),
            (lambda: engine.music("main", at="bars=0"), "bars"),
        ]:
            with pytest.raises(ValueError, match=name):
                call()
        assert math.isclose(engine.time, 0.0)

"""Engine.synth: sfxr effects rendered by the engine, the same bytes as every other language."""

import pathlib
import struct

import pytest

import soundstation
from conftest import interleaved, rms

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Synth" / "coin-seed7.fnv1a"


def fnv1a(samples):
    """FNV-1a, 64-bit, of the floats' little-endian bytes (Tests/Synth/README.md)."""
    raw = struct.pack(f"<{len(samples)}f", *samples)
    value = 0xCBF29CE484222325
    for byte in raw:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def test_coin_renders_the_same_bytes_as_swift():
    with soundstation.Engine("offline:48000") as engine:
        sound = engine.synth("coin", {"preset": "coin", "seed": 7})
        assert sound >= 0
        engine.play(sound)
        samples = interleaved(engine.render(24000))
    assert rms(samples) > 0.01
    assert fnv1a(samples) == GOLDEN.read_text().strip()


def test_forms_and_seeds():
    with soundstation.Engine("offline:48000") as engine:
        text_form = engine.synth("a", '{"preset": "laser", "seed": 3}')
        dict_form = engine.synth("b", {"preset": "laser", "seed": 3})
        other_seed = engine.synth("c", {"preset": "laser", "seed": 4})
        # sfxr's settings string: a square tone with a long sustain.
        settings = engine.synth("d", "0,,0.3,,0.2,0.4,,,,,,,,,,,,,1,,,,,0.5")
        renders = []
        for sound in (text_form, dict_form, other_seed, settings):
            engine.play(sound)
            renders.append(interleaved(engine.render(24000)))
    assert renders[0] == renders[1]
    assert renders[0] != renders[2]
    assert all(rms(r) > 0.01 for r in renders)


def test_bad_params_name_the_value():
    with soundstation.Engine("offline:48000") as engine:
        with pytest.raises(soundstation.InvalidArgumentError, match="kazoo"):
            engine.synth("x", {"preset": "kazoo"})
        with pytest.raises(soundstation.InvalidArgumentError, match="p_base_freq"):
            engine.synth("x", {"p_base_freq": 9})
        with pytest.raises(TypeError):
            engine.synth("x", 7)
        with pytest.raises(ValueError, match="not JSON"):
            engine.synth("x", {"seed": float("nan")})
        engine.synth("x", {"preset": "blip"})
        with pytest.raises(soundstation.InvalidArgumentError, match="already in use"):
            engine.synth("x", {"preset": "blip"})


def test_variation_makes_each_play_differ():
    with soundstation.Engine("offline:48000") as engine:
        zap = engine.synth("zap", {"preset": "laser", "seed": 3, "variation": 2})
        steady = engine.synth("steady", {"preset": "laser", "seed": 3})
        varied, same = set(), set()
        for _ in range(5):
            engine.play(zap)
            varied.add(fnv1a(interleaved(engine.render(12000))))
            engine.play(steady)
            same.add(fnv1a(interleaved(engine.render(12000))))
    assert len(varied) == 5
    assert len(same) == 1

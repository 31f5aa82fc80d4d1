"""Sounds from memory and streams a game feeds, rendered offline: a file's bytes render the same
samples as the file, raw PCM renders as written, a fed stream renders sample-exactly, a full queue
refuses and counts, and bad arguments are clear errors."""

import array
import math
import pathlib

import pytest

import soundstation
from conftest import RATE, ASSETS, interleaved, rms, write_tone


def render(engine, frames):
    return interleaved(engine.render(frames))


def sine(frequency, frames, amplitude=0.5, rate=RATE, phase=0.0):
    return [amplitude * math.sin(2 * math.pi * frequency * i / rate + phase) for i in range(frames)]


@pytest.mark.parametrize("path", [f"{ASSETS}/Effects/coin.wav", f"{ASSETS}/Effects/explosion.ogg"])
def test_bytes_render_what_the_file_renders(path):
    data = pathlib.Path(path).read_bytes()
    rendered = []
    for load in ("file", "bytes", "bytearray", "memoryview"):
        with soundstation.Engine("offline:48000") as engine:
            if load == "file":
                sound = engine.load_file("s", path)
            else:
                source = {"bytes": data, "bytearray": bytearray(data), "memoryview": memoryview(data)}[load]
                sound = engine.load_memory("s", source)
            engine.play(sound)
            rendered.append(render(engine, RATE // 2))
    assert rms(rendered[0]) > 0.01
    for other in rendered[1:]:
        assert other == rendered[0]


def test_pcm_float_stereo_renders_as_written():
    frames = 4800
    left, right = sine(440, frames), sine(660, frames, 0.25)
    samples = array.array("f", [v for pair in zip(left, right) for v in pair])
    with soundstation.Engine("offline:48000") as engine:
        engine.play(engine.load_pcm("tone", samples, channels=2, rate=RATE))
        out = render(engine, frames)
    assert max(abs(a - b) for a, b in zip(out, samples)) < 1e-6


def test_pcm_int16_and_raw_bytes():
    frames = 22050 // 2
    ints = array.array("h", [round(16000 * math.sin(2 * math.pi * 1000 * i / 22050)) for i in range(frames)])
    with soundstation.Engine("offline:48000") as engine:
        a = engine.load_pcm("ints", ints, channels=1, rate=22050)
        b = engine.load_pcm("bytes", ints.tobytes(), channels=1, rate=22050, format=soundstation.SampleFormat.INT16)
        engine.play(a)
        first = render(engine, RATE // 2)
        engine.play(b)
        second = render(engine, RATE // 2)
    assert first == second
    span = RATE // 2 - 200
    crossings = sum(1 for i in range(1, span) if first[2 * i - 2] < 0 <= first[2 * i])
    assert abs(crossings * RATE / span - 1000) < 5, crossings


def test_numpy_arrays_when_numpy_is_there():
    numpy = pytest.importorskip("numpy")
    frames = 4800
    block = numpy.zeros((frames, 2), dtype=numpy.float32)
    block[:, 0] = numpy.sin(2 * numpy.pi * 440 * numpy.arange(frames) / RATE) * 0.5
    with soundstation.Engine("offline:48000") as engine:
        engine.play(engine.load_pcm("np", block, rate=RATE))  # channels from the shape
        out = engine.render(frames)
    assert numpy.allclose(out, block, atol=1e-6)


def test_memory_and_pcm_errors():
    with soundstation.Engine("offline:48000") as engine:
        with pytest.raises(soundstation.DecodeError, match="junk"):
            engine.load_memory("junk", b"not audio at all, just some text")
        with pytest.raises(ValueError, match="empty"):
            engine.load_memory("empty", b"")
        with pytest.raises(TypeError, match="bytes-like"):
            engine.load_memory("text", "a str")
        with pytest.raises(ValueError, match="format="):
            engine.load_pcm("raw", b"\x00\x01" * 10, channels=1)
        with pytest.raises(ValueError, match="channels 40"):
            engine.load_pcm("many", array.array("f", [0.0] * 40), channels=40)
        with pytest.raises(ValueError, match="rate"):
            engine.load_pcm("slow", array.array("f", [0.0] * 4), channels=1, rate=10)
        with pytest.raises(ValueError, match="whole number"):
            engine.load_pcm("odd", array.array("f", [0.0] * 3), channels=2)
        engine.load_pcm("taken", [0.1, 0.2], channels=1)
        with pytest.raises(soundstation.InvalidArgumentError, match="taken"):
            engine.load_pcm("taken", [0.1, 0.2], channels=1)


def test_stream_renders_sample_exactly():
    piece = RATE // 100
    signal = array.array("f", sine(440, 2 * RATE))
    out = []
    with soundstation.Engine("offline:48000") as engine:
        with engine.open_stream(channels=1, rate=RATE, pan=-1) as stream:
            written = 0
            for rendered in range(0, 2 * RATE, piece):
                while written < rendered + 3 * piece and written < len(signal):
                    assert stream.write(signal[written:written + piece]) == piece
                    written += piece
                out += render(engine, piece)
            assert stream.underruns == 0 and stream.refused == 0
        assert stream.closed
        assert rms(render(engine, 4800)) == 0, "closed: silent"
    left = out[0::2]
    assert max(abs(a - b) for a, b in zip(left, signal)) < 1e-6
    assert max(abs(v) for v in out[1::2]) < 1e-6, "panned hard left"


def test_full_queue_refuses_and_counts():
    with soundstation.Engine("offline:48000") as engine:
        with engine.open_stream(channels=2, queue_frames=1000) as stream:
            assert stream.write([0.25] * 3000) == 1000
            assert stream.refused == 500
            assert stream.queued == 1000
            render(engine, 2000)
            assert stream.underruns == 1, "ran dry after its 1000 frames"
            assert stream.write(array.array("f", [0.0] * 20)) == 10


def test_stream_errors():
    with soundstation.Engine("offline:48000") as engine:
        with pytest.raises(ValueError, match="channels"):
            engine.open_stream(channels=3)
        with pytest.raises(ValueError, match="rate"):
            engine.open_stream(rate=100)
        with pytest.raises(ValueError, match="volume"):
            engine.open_stream(volume=float("nan"))
        with pytest.raises(ValueError, match="queue_frames"):
            engine.open_stream(queue_frames=-1)
        stream = engine.open_stream(channels=2)
        with pytest.raises(ValueError, match="whole number"):
            stream.write([0.1, 0.2, 0.3])
        with pytest.raises(TypeError, match="float32"):
            stream.write(array.array("h", [1, 2]))
        assert stream.voice
    with pytest.raises(soundstation.ClosedError):
        stream.write([0.0, 0.0])
    stream.close()
    with pytest.raises(soundstation.ClosedError, match="stream is closed"):
        stream.write([0.0, 0.0])

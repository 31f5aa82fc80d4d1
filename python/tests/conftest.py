"""What the tests share: where the assets are, and measures of rendered sound."""

import math
import os
import pathlib
import signal
import struct
import wave

ASSETS = os.environ.get("SOUNDSTATION_TEST_ASSETS", str(pathlib.Path(__file__).resolve().parents[2] / "Assets"))
RATE = 48000


def pytest_configure(config):
    # Ctrl-C is under test (a render and a preload interrupted): a run started in a script's background
    # (`make test &`, nohup) inherits SIGINT ignored, which Python keeps ignored at start-up and every
    # child keeps across exec, so no KeyboardInterrupt would ever come. A handler here is also reset
    # to the default in each child, as from an interactive shell.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def interleaved(block):
    """Interleaved floats from a render (numpy array or array.array)."""
    return [float(x) for x in (block.reshape(-1) if hasattr(block, "reshape") else block)]


def rms(values):
    return math.sqrt(sum(v * v for v in values) / len(values)) if values else 0.0


def level(values, frequency, start, end, channel=0):
    """The amplitude of ``frequency`` on one channel over frames [start, end) of interleaved stereo (a
    Goertzel bin under a Hann window, so that another tone does not leak into it)."""
    k = 2 * math.cos(2 * math.pi * frequency / RATE)
    s1 = s2 = 0.0
    length = end - start
    for frame in range(start, end):
        weight = 0.5 - 0.5 * math.cos(2 * math.pi * (frame - start) / length)
        s1, s2 = weight * values[2 * frame + channel] + k * s1 - s2, s1
    return 2 * math.sqrt(max(0.0, s1 * s1 + s2 * s2 - k * s1 * s2)) / length


def write_tone(path, frequency, seconds, amplitude=0.3):
    """A 16-bit mono WAV of a sine at ``frequency`` Hz, a whole number of periods long so that it
    loops without a click."""
    frames = round(seconds * RATE)
    period = RATE / frequency
    frames = max(1, round(round(frames / period) * period))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        samples = (round(32767 * amplitude * math.sin(2 * math.pi * frequency * i / RATE)) for i in range(frames))
        out.writeframes(b"".join(struct.pack("<h", sample) for sample in samples))
    return str(path)

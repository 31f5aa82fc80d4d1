"""Sounds from memory: an encoded file's bytes and raw PCM a game makes, turned into what
``ss_load_memory`` and ``ss_load_pcm`` take. :meth:`Engine.load_memory` and :meth:`Engine.load_pcm`
are the public way in."""

from __future__ import annotations

import array
import ctypes
import enum
from typing import Any, Optional, Tuple

from . import _args

CHANNELS_MAX = 32
"""The most channels ``ss_load_pcm`` takes (above 2 they are mixed to stereo)."""
RATE_RANGE = (1000, 384000)
"""The rates ``ss_load_pcm`` takes, in Hz."""


class SampleFormat(enum.IntEnum):
    """What one sample of raw PCM is (``ss_sample_format``)."""

    FLOAT32 = 0
    """32-bit float samples in -1...1 (``array('f')``, numpy ``float32``)."""
    INT16 = 1
    """Signed 16-bit samples (``array('h')``, numpy ``int16``)."""


# A buffer's struct format character, and the sample format it is.
_FORMATS = {"f": SampleFormat.FLOAT32, "h": SampleFormat.INT16}


def _view(data: Any, name: str) -> memoryview:
    """``data`` as a memoryview, else TypeError naming ``name``."""
    if isinstance(data, str):
        raise TypeError(f"{name} must be bytes-like (bytes, bytearray, memoryview, array), not str")
    try:
        return memoryview(data)
    except TypeError:
        raise TypeError(f"{name} must be bytes-like (bytes, bytearray, memoryview, array or a numpy "
                        f"array), not {type(data).__name__}") from None


def file_bytes(data: Any) -> Tuple[Any, int]:
    """An encoded file's bytes as a ctypes buffer for C and their count (TypeError for a value that is
    no buffer, ValueError for an empty one). The bytes are copied once, into what C reads."""
    view = _view(data, "data")
    raw = view.tobytes()
    if not raw:
        raise ValueError("data is empty: give the whole file's bytes")
    return ctypes.create_string_buffer(raw, len(raw)), len(raw)


def pcm(samples: Any, channels: Optional[int], rate: Any,
        sample_format: Optional[SampleFormat]) -> Tuple[Any, SampleFormat, int, int, int]:
    """Raw samples as (ctypes buffer, format, frames, channels, rate) for ``ss_load_pcm``.

    ``samples`` is anything with the buffer protocol: an ``array('f')``/``array('h')``, a numpy array
    of float32 or int16 (a 2-D one is frames x channels), a memoryview of such, or plain bytes with
    ``sample_format`` saying what they hold. float64 (``array('d')``, numpy's default) is converted to
    float32. A list of numbers is read as floats."""
    if isinstance(samples, (list, tuple)):
        try:
            samples = array.array("f", samples)
        except TypeError:
            raise TypeError("samples in a list must be numbers") from None
    view = _view(samples, "samples")
    code = view.format.lstrip("@=<")
    shape_channels = view.shape[1] if view.ndim == 2 else None
    if view.ndim not in (0, 1, 2) or (view.ndim == 0 and code not in ("B", "b", "c")):
        raise ValueError(f"samples has {view.ndim} dimensions: expected 1 (interleaved) or 2 (frames x channels)")
    if code in _FORMATS:
        detected = _FORMATS[code]
        if sample_format is not None and _args.member(sample_format, "format", SampleFormat) != detected:
            raise ValueError(f"format {SampleFormat(sample_format).name} does not match the samples, which "
                             f"are {detected.name} (buffer format {view.format!r})")
        raw = view.tobytes()
    elif code == "d":
        detected = SampleFormat.FLOAT32
        doubles = array.array("d")
        doubles.frombytes(view.tobytes())
        raw = array.array("f", doubles).tobytes()
    elif code in ("B", "b", "c"):
        if sample_format is None:
            raise ValueError("samples are plain bytes: say what they hold with format=SampleFormat.INT16 or "
                             "SampleFormat.FLOAT32")
        detected = SampleFormat(_args.member(sample_format, "format", SampleFormat))
        raw = view.tobytes()
    else:
        raise TypeError(f"samples hold {view.format!r} values: expected float32 ('f'), int16 ('h'), "
                        "float64 ('d', converted) or bytes with format=")
    if shape_channels is not None:
        if channels is not None and _args.integer(channels, "channels", 1, CHANNELS_MAX) != shape_channels:
            raise ValueError(f"channels {channels} does not match the samples' {shape_channels} columns")
        channels = shape_channels
    if channels is None:
        raise TypeError("channels is missing: say how many samples a frame has (1 for mono, 2 for stereo)")
    channels = _args.integer(channels, "channels", 1, CHANNELS_MAX)
    rate = _args.integer(rate, "rate", *RATE_RANGE)
    width = 4 if detected == SampleFormat.FLOAT32 else 2
    if len(raw) % (width * channels) != 0 or not raw:
        raise ValueError(f"samples hold {len(raw) // width} {detected.name} values: expected a whole number "
                         f"(1 or more) of frames of {channels} channels")
    frames = _args.integer(len(raw) // (width * channels), "frames", 1)
    return ctypes.create_string_buffer(raw, len(raw)), detected, frames, channels, rate

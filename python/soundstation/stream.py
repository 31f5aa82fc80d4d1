"""Streams a game feeds: :class:`Stream`, from :meth:`Engine.open_stream`."""

from __future__ import annotations

import array
import ctypes
from typing import TYPE_CHECKING, Any, Optional

from . import _args

if TYPE_CHECKING:
    from .engine import Engine, Voice


class StreamOptions(ctypes.Structure):
    """The C ``ss_stream_options`` (filled by ``ss_stream_options_init``, which sets ``size``)."""

    _fields_ = [
        ("size", ctypes.c_uint32),
        ("bus", ctypes.c_int32),
        ("volume", ctypes.c_float),
        ("pan", ctypes.c_float),
        ("queue_frames", ctypes.c_int32),
    ]


QUEUE_FRAMES_MAX = 480000
"""The most frames a stream's queue may hold."""


def float_samples(samples: Any, channels: int) -> "tuple[Any, int]":
    """``samples`` as a C float buffer and its whole frames: an ``array('f')``, a numpy float32 array
    (any shape, read in C order), a memoryview of floats, or a list of numbers (copied once). float64
    arrays are converted. Raises TypeError or ValueError naming what is wrong."""
    if isinstance(samples, (list, tuple)):
        try:
            samples = array.array("f", samples)
        except TypeError:
            raise TypeError("samples in a list must be numbers") from None
    try:
        view = memoryview(samples)
    except TypeError:
        raise TypeError(f"samples must be float32 frames (array('f'), a numpy float32 array, a list of "
                        f"numbers), not {type(samples).__name__}") from None
    code = view.format.lstrip("@=<")
    if code == "d":
        doubles = array.array("d")
        doubles.frombytes(view.tobytes())
        view = memoryview(array.array("f", doubles))
    elif code != "f":
        raise TypeError(f"samples hold {view.format!r} values: expected float32 ('f'; float64 is converted)")
    count = view.nbytes // 4
    if count % channels:
        raise ValueError(f"{count} samples is not a whole number of frames of {channels} channels")
    if view.c_contiguous and not view.readonly:
        buffer = (ctypes.c_float * count).from_buffer(view.cast("B").cast("f") if view.ndim != 1 else view)
    else:
        buffer = (ctypes.c_float * count).from_buffer_copy(view.tobytes())
    return buffer, count // channels


class Stream:
    """A stream of PCM the game writes as it makes it (an emulator, a tracker, a synth), heard at
    once through one voice. :meth:`write` never waits: what does not fit in the queue is refused and
    counted. A context manager: leaving the ``with`` block closes it.

        with engine.open_stream(channels=1, rate=48000) as stream:
            while playing:
                if stream.queued < 2400:
                    stream.write(next_samples())   # array('f') or numpy float32, 10 ms at a time
    """

    def __init__(self, engine: "Engine", handle: ctypes.c_void_p, channels: int, rate: int, voice: "Voice") -> None:
        self._engine_ref = engine  # the engine stays open as long as a stream of it is referenced
        self._handle: Optional[ctypes.c_void_p] = handle
        self.channels = channels
        """Samples per frame: 1 or 2."""
        self.rate = rate
        """Frames per second of what is written."""
        self.voice = voice
        """The :class:`Voice` it plays through: set its volume or pan, pause it."""

    def __repr__(self) -> str:
        state = "closed" if self._handle is None else f"{self.channels} ch at {self.rate} Hz"
        return f"<soundstation.Stream {state}>"

    def _stream(self) -> ctypes.c_void_p:
        from .engine import ClosedError, Result
        if self._handle is None:
            raise ClosedError(Result.CLOSED, "the stream is closed: open another with Engine.open_stream")
        return self._handle

    def write(self, samples: Any) -> int:
        """Copies interleaved float frames into the queue and returns how many were taken (fewer
        than given when the queue is full: the rest are refused and counted). Never waits.

        Raises:
            TypeError, ValueError: for samples that are not whole float frames.
            ClosedError: after :meth:`close`, or once the engine is closed.
        """
        from .engine import _c, _check
        handle = self._stream()
        buffer, frames = float_samples(samples, self.channels)
        frames = _args.integer(frames, "frames")
        return _check(_c().ss_stream_write(handle, buffer, frames))

    @property
    def queued(self) -> int:
        """Frames written and not yet heard."""
        from .engine import _c, _check
        return _check(_c().ss_stream_queued(self._stream()))

    @property
    def underruns(self) -> int:
        """Times the voice ran out of frames after it had begun."""
        from .engine import _c, _check
        return _check(_c().ss_stream_underruns(self._stream()))

    @property
    def refused(self) -> int:
        """Frames :meth:`write` refused because the queue was full."""
        from .engine import _c, _check
        return _check(_c().ss_stream_refused(self._stream()))

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle is None

    def close(self) -> None:
        """Stops the voice at once and frees the stream; closing twice does nothing."""
        from .engine import _c
        handle, self._handle = self._handle, None
        if handle is not None:
            _c().ss_stream_close(handle)

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown: the library may be gone
            pass

"""SoundStation for Python games: music per scene, effects you can stop and change while they play,
offline rendering.

    with soundstation.Engine("auto", assets="Assets") as engine:
        engine.preload()
        engine.music("main")
        alarm = engine.play("bomb-tick", loops=soundstation.Loops.FOREVER)
        alarm.set_pitch(1.5, tween=0.5)
        alarm.stop(fade=0.2)

Every failure of the library raises :class:`SoundStationError` (or a subclass) carrying its message;
an argument of the wrong type or out of range raises TypeError or ValueError naming it.
"""

from ._library import LibraryNotFoundError
from . import synth as _synth  # noqa: F401  (Engine.synth)
from .memory import SampleFormat
from .stream import Stream
from .engine import (
    Bus,
    CancelledError,
    CatalogueError,
    ClosedError,
    DecodeError,
    DeviceError,
    Engine,
    Event,
    EventType,
    FilterType,
    FinishReason,
    InvalidArgumentError,
    Latency,
    Loops,
    MusicPoint,
    MusicPosition,
    NotLoadedError,
    NotOfflineError,
    Output,
    RenderBlock,
    Result,
    Sound,
    SoundStationError,
    UnknownNameError,
    Voice,
    library_version,
)

__all__ = [
    "Bus",
    "CancelledError",
    "CatalogueError",
    "ClosedError",
    "DecodeError",
    "DeviceError",
    "Engine",
    "Event",
    "EventType",
    "FilterType",
    "FinishReason",
    "InvalidArgumentError",
    "Latency",
    "LibraryNotFoundError",
    "Loops",
    "MusicPoint",
    "MusicPosition",
    "NotLoadedError",
    "NotOfflineError",
    "Output",
    "RenderBlock",
    "Result",
    "SampleFormat",
    "Sound",
    "SoundStationError",
    "Stream",
    "UnknownNameError",
    "Voice",
    "library_version",
]
__version__ = "1.0.0"

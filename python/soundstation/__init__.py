"""SoundStation for Python games: music per scene, effects from any thread, offline rendering.

    with soundstation.Engine("auto", assets="Assets") as engine:
        engine.preload()
        engine.music("main")
        engine.play("reward", pan=-0.5)

Every failure raises :class:`SoundStationError` (or a subclass) carrying the library's message.
"""

from ._library import LibraryNotFoundError
from .engine import (
    ClosedError,
    Engine,
    Event,
    InvalidArgumentError,
    MusicPosition,
    NotLoadedError,
    NotOfflineError,
    SoundStationError,
    UnknownNameError,
    library_version,
)

__all__ = [
    "ClosedError",
    "Engine",
    "Event",
    "InvalidArgumentError",
    "LibraryNotFoundError",
    "MusicPosition",
    "NotLoadedError",
    "NotOfflineError",
    "SoundStationError",
    "UnknownNameError",
    "library_version",
]
__version__ = "0.1.0"

"""The Pythonic layer over libsoundstation's C functions."""

from __future__ import annotations

import array
import ctypes
import os
import queue
import re
import threading
from typing import Any, Callable, Dict, Iterator, NamedTuple, Optional, Sequence, Union

from . import _library

_lib: Optional[ctypes.CDLL] = None


def _c() -> ctypes.CDLL:
    """The loaded library (loaded on first use)."""
    global _lib
    if _lib is None:
        _lib = _library.load()
    return _lib


def library_version() -> str:
    """The loaded library's version, "major.minor.patch"."""
    number = _c().ss_version()
    return f"{number // 10000}.{number // 100 % 100}.{number % 100}"


class SoundStationError(Exception):
    """A call into libsoundstation failed; ``str(error)`` is the library's message.

    Attributes:
        code: The negative ``SS_ERR_*`` code.
        code_name: Its name, e.g. ``"SS_ERR_UNKNOWN_NAME"``.
    """

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.code_name = _c().ss_result_name(code).decode()


class InvalidArgumentError(SoundStationError, ValueError):
    """A bad value: NaN, out of range, a malformed output string, a name already in use."""


class UnknownNameError(SoundStationError, LookupError):
    """No sound, bus or catalogue entry has that name or id."""


class NotLoadedError(SoundStationError):
    """The sound is in the catalogue but was not preloaded."""


class NotOfflineError(SoundStationError):
    """``render`` needs an engine opened with ``"offline:RATE"``."""


class ClosedError(SoundStationError):
    """The engine was closed."""


class CancelledError(SoundStationError):
    """A preload was cancelled (what it had loaded is let go of)."""


_ERRORS = {
    -1: InvalidArgumentError, -2: UnknownNameError, -3: NotLoadedError, -7: NotOfflineError, -8: ClosedError,
    -9: CancelledError,
}
_EVENT_TYPES = {
    1: "started", 2: "finished", 3: "refused", 4: "device-lost", 5: "device-restored", 6: "notice",
    7: "overflow", 8: "coalesced",
}
_REASONS = {1: "ended", 2: "stopped", 3: "stolen", 4: "device-lost"}


# The C names in the library's messages, as a Python game knows them.
_PYTHON_NAMES = {
    "ss_open": "Engine()", "ss_close": "Engine.close", "ss_preload": "Engine.preload",
    "ss_load_file": "Engine.load_file", "ss_sound_id": "Engine.sound_id", "ss_play": "Engine.play",
    "ss_play_at": "Engine.play_at", "ss_play_position": "Engine.play_position", "ss_music": "Engine.music",
    "ss_music_at": "Engine.music", "ss_render": "Engine.render", "ss_poll_event": "Engine.events",
}
_C_NAME = re.compile(r"\bss_[a-z_]+\b")


def _python_terms(message: str) -> str:
    """The library's message with its C function names replaced by this package's."""
    return _C_NAME.sub(lambda match: _PYTHON_NAMES.get(match.group(0), match.group(0)), message)


def _check(result: int) -> int:
    """Returns a non-negative result; raises the matching error for a negative one."""
    if result < 0:
        _raise(result, _c().ss_last_error())
    return result


def _raise(result: int, message: bytes) -> None:
    """Raises the error class of a negative result with the library's message in Python's terms."""
    raise _ERRORS.get(result, SoundStationError)(result, _python_terms(message.decode("utf-8", "replace")))


def _number(value: Any, name: str) -> float:
    """``value`` as a float, or a TypeError naming the argument and the type given."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__} ({value!r})")
    return float(value)


def _text(value: Any, name: str) -> bytes:
    """``value`` (a str, or an os.PathLike for paths) as bytes, or a TypeError naming the argument."""
    if isinstance(value, (str, os.PathLike)):
        return os.fsencode(value)
    raise TypeError(f"{name} must be a str, not {type(value).__name__} ({value!r})")


class MusicPosition(NamedTuple):
    """Where the playing music is in its bars (:meth:`Engine.music_position`)."""

    bar: int
    """From 1 at the track's first downbeat, counting on through loops."""
    beat: int
    """The beat in the bar, from 1."""
    fraction: float
    """How far into the beat, 0 <= fraction < 1."""


class Event(NamedTuple):
    """Something that happened to a sound.

    Attributes:
        type: "started", "finished", "refused", "device-lost", "device-restored", "notice" (something
            to show or log, which the library never prints: why "auto" fell back to silence, a file
            that loads only in part, what ALSA said), "overflow" (events were dropped on a device) or
            "coalesced" (a trigger folded into another start of the same sound within its "coalesceMs").
        sound: The sound's name (the device or reason for device events; a notice's first 63 bytes).
        sound_id: The sound's id, or -1.
        time: Seconds on the engine clock.
        reason: For "finished": "ended", "stopped", "stolen" or "device-lost"; for "overflow" how many
            events were dropped; else None.
        text: The whole line of a "notice" or "device-lost"; else the same as ``sound``.
    """

    type: str
    sound: str
    sound_id: int
    time: float
    reason: Optional[Union[str, int]]
    text: str = ""


Sound = Union[str, int]


class Engine:
    """An open SoundStation engine: a context manager that closes it on exit.

    Args:
        output: "auto" (the default device, or silent when there is none), "device", "device:NAME",
            "silent", or "offline:RATE" (nothing plays until :meth:`render`; sample-exact, for tests).
        assets: The folder holding catalogue.json, or None for sounds from :meth:`load_file` only.

    Raises:
        SoundStationError: with the library's message when the output or the catalogue cannot be opened.
    """

    def __init__(self, output: str = "auto", assets: Optional[str] = None) -> None:
        handle = ctypes.c_void_p()
        output_bytes = _text(output, "output")
        assets_bytes = None if assets is None else _text(assets, "assets")
        _check(_c().ss_open(ctypes.byref(handle), output_bytes, assets_bytes))
        self._handle: Optional[ctypes.c_void_p] = handle
        self._ids: Dict[str, int] = {}
        self._preloading: Optional[threading.Thread] = None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle is None

    def close(self) -> None:
        """Stops every sound and closes the output (again does nothing). Safe in a signal handler that
        interrupts :meth:`preload`: the preload is cancelled first, and then raises ClosedError."""
        if self._handle is not None:
            worker = getattr(self, "_preloading", None)
            if worker is not None and worker.is_alive():
                _c().ss_cancel_preload(self._handle)
                worker.join()
            _c().ss_close(self._handle)
            self._handle = None

    def _engine(self) -> ctypes.c_void_p:
        if self._handle is None:
            raise ClosedError(-8, "the engine is closed: open a new Engine")
        return self._handle

    def preload(
        self, names: Optional[Sequence[str]] = None, progress: Optional[Callable[[float], None]] = None
    ) -> None:
        """Decodes catalogue sounds (all when ``names`` is None) so that playing them never decodes.

        Args:
            names: Catalogue names, or None for the whole catalogue.
            progress: Called after each sound with the fraction done, on this thread.

        Raises:
            UnknownNameError: for a name the catalogue lacks (nothing is loaded).
            SoundStationError: when some files do not decode (the others are loaded).
            KeyboardInterrupt: Ctrl-C stops the preload within about 20 ms (what it had loaded is let
                go of) and arrives here.
        """
        if isinstance(names, (str, bytes)):
            raise TypeError(f"names must be a list of catalogue names, not a single {type(names).__name__} "
                            f"({names!r}): write preload([{names!r}])")
        engine = self._engine()
        if names is None:
            encoded, count = None, 0
        else:
            encoded = (ctypes.c_char_p * len(names))(*[_text(name, "names[]") for name in names])
            count = len(names)
        # The C call runs on a helper thread so that this one stays free for signals: Ctrl-C (or an
        # exception from `progress`, which is called here) cancels the preload within 20 ms.
        fractions: "queue.SimpleQueue[float]" = queue.SimpleQueue()
        callback = _library.PROGRESS(lambda fraction, _user: fractions.put(fraction))
        outcome: Dict[str, Any] = {}

        def run() -> None:
            outcome["result"] = _c().ss_preload(engine, encoded, count, callback, None)
            outcome["message"] = _c().ss_last_error()  # per thread: read it on this one

        def report() -> None:
            while progress is not None and not fractions.empty():
                progress(fractions.get())

        worker = threading.Thread(target=run, name="soundstation-preload", daemon=True)
        self._preloading = worker
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.02)
                report()
        except BaseException:
            _c().ss_cancel_preload(engine)
            worker.join()
            raise
        finally:
            self._preloading = None
        report()
        if self._handle is None:  # closed (e.g. by a signal handler) while it ran
            raise ClosedError(-8, "the engine was closed while preload ran: open a new Engine")
        if outcome["result"] < 0:
            _raise(outcome["result"], outcome["message"])

    def load_file(self, name: str, path: str) -> int:
        """Decodes a WAV or Ogg Vorbis file into a sound called ``name``; returns its id."""
        sound_id = _check(_c().ss_load_file(self._engine(), _text(name, "name"), _text(path, "path")))
        self._ids[name] = sound_id
        return sound_id

    def sound_id(self, name: str) -> int:
        """The id of a loaded sound (ids are 0, 1, 2... in load order)."""
        if name not in self._ids:
            self._ids[name] = _check(_c().ss_sound_id(self._engine(), _text(name, "name")))
        return self._ids[name]

    def _id(self, sound: Sound) -> int:
        if isinstance(sound, bool) or not isinstance(sound, (int, str)):
            raise TypeError(f"sound must be a name (str) or an id (int), not {type(sound).__name__} ({sound!r})")
        return sound if isinstance(sound, int) else self.sound_id(sound)

    def play(self, sound: Sound, volume: float = 1.0, pitch: float = 1.0, pan: float = 0.0) -> bool:
        """Plays a loaded sound (a name or an id) now.

        Never waits: the start is handed to the mixer, so it is safe in a ``signal`` handler.

        Returns:
            True when handed to the mixer, False when the engine is thousands of triggers behind. A
            start that the sound's instance limit or the voice pool refuses is reported later as a
            "refused" event.
        """
        volume, pitch, pan = _number(volume, "volume"), _number(pitch, "pitch"), _number(pan, "pan")
        return _check(_c().ss_play(self._engine(), self._id(sound), volume, pitch, pan)) == 0

    def play_at(self, sound: Sound, seconds: float, volume: float = 1.0, pan: float = 0.0) -> bool:
        """Plays a loaded sound at ``seconds`` on the engine clock (offline: at frame round(seconds * rate))."""
        seconds, volume, pan = _number(seconds, "seconds"), _number(volume, "volume"), _number(pan, "pan")
        return _check(_c().ss_play_at(self._engine(), self._id(sound), seconds, volume, pan)) == 0

    def music(self, name: str, crossfade: float = 0.0, at: Optional[str] = None) -> None:
        """Switches the music to a preloaded track, cutting or crossfading over ``crossfade`` seconds.

        With ``at`` ("now", "beat", "bar", "bars=N" or "marker=NAME") the switch waits for that point
        of the playing track's grid (its catalogue "bpm", "beatsPerBar", "downbeat", "markers") and
        the new track starts from its first downbeat; offline it lands on the grid's frame exactly.
        """
        if at is None:
            _check(_c().ss_music(self._engine(), name.encode(), crossfade))
        else:
            _check(_c().ss_music_at(self._engine(), name.encode(), crossfade, at.encode()))

    def music_position(self) -> Optional[MusicPosition]:
        """Where the playing music is now: bar, beat and fraction; ``None`` when no music with a tempo
        plays. Poll it once per frame and flash when the beat changes."""
        position = _library.MusicalPosition()
        if _check(_c().ss_music_position(self._engine(), ctypes.byref(position))) == 0:
            return None
        return MusicPosition(position.bar, position.beat, position.fraction)

    def music_intensity(self, intensity: float, seconds: float = 0.0) -> None:
        """Sets layered music's intensity (0...1), at once or gliding over ``seconds``: each stem of
        the catalogue entry is heard from its "from" and full from its "full"."""
        _check(_c().ss_music_intensity(self._engine(), intensity, seconds))

    def stop_music(self, fade: float = 0.0) -> None:
        """Stops the music, at once or fading out over ``fade`` seconds."""
        _check(_c().ss_stop_music(self._engine(), fade))

    def stop_effects(self, fade: float = 0.0) -> None:
        """Stops every effect (the music goes on)."""
        _check(_c().ss_stop_effects(self._engine(), fade))

    def volume(self, bus: str, gain: float) -> None:
        """Sets the volume of a bus: "master", "music", "effects" or "voice" (linear gain 0...16)."""
        _check(_c().ss_set_volume(self._engine(), bus.encode(), gain))

    def play_position(self, sound: Sound, x: float, y: float, volume: float = 1.0, pitch: float = 1.0) -> bool:
        """Plays a loaded sound at a position in the game's units (columns and rows, or any 2D units).

        Its pan and loudness come from where it is against :meth:`listener`, by the layout
        :meth:`grid` sets. Not for a ``signal`` handler (use :meth:`play` with a pan there).

        Returns:
            As :meth:`play`.

        Raises:
            InvalidArgumentError: for a coordinate that is NaN or infinite (the message names it).
        """
        return _check(_c().ss_play_position(self._engine(), self._id(sound), x, y, volume, pitch)) == 0

    def listener(self, x: float, y: float, glide: float = 0.0) -> None:
        """Moves the listener (where positioned sounds are heard from), gliding over ``glide`` seconds."""
        _check(_c().ss_set_listener(self._engine(), x, y, glide))

    def grid(self, columns: int, rows: int) -> None:
        """Lays positions out for a grid of cells: ``columns / 2`` cells left of the listener is hard
        left, and a sound fades to -12 dB at the grid's far corner."""
        _check(_c().ss_set_grid(self._engine(), columns, rows))

    def filter(self, bus: str, kind: Optional[str], hertz: float = 0.0, q: float = 0.7071, glide: float = 0.0) -> None:
        """Filters every sound on a bus with a real cutoff in hertz (12 dB per octave), or stops.

        Args:
            bus: "master", "music", "effects" or "voice".
            kind: "lowpass", "highpass", "bandpass", or None (or "off") for no filter.
            hertz: The cutoff (a band-pass's centre), above 0 and at most half the sample rate.
            q: The resonance, above 0 (0.7071 is flat).
            glide: Seconds for the cutoff to move there; 0 switches at once (through a 10 ms crossfade).
                A change is heard about 85 ms later on a device (the filtered sounds' queue).

        Raises:
            InvalidArgumentError: for an unknown kind, a cutoff or q out of range, or a negative glide.
            UnknownNameError: for another bus.
        """
        kinds = {None: 0, "off": 0, "lowpass": 1, "highpass": 2, "bandpass": 3}
        if kind not in kinds:
            raise InvalidArgumentError(
                -1, f'invalid filter kind "{kind}": expected "lowpass", "highpass", "bandpass" or None')
        _check(_c().ss_set_filter(self._engine(), bus.encode(), kinds[kind], hertz, q, glide))

    def reverb(self, bus: str, preset: Optional[str]) -> None:
        """Gives a bus a reverb from the EFX preset list ("cave", "hall", "room", "underwater", ...), or
        takes it away (None or "off"). While nothing on the bus sends to it for longer than its tail, it
        rests and costs nothing; the next sound wakes it.

        Raises:
            UnknownNameError: for another bus or an unknown preset (the message lists the presets).
        """
        _check(_c().ss_set_reverb(self._engine(), bus.encode(), None if preset is None else preset.encode()))

    def pause_all(self) -> None:
        """Pauses every sound."""
        _check(_c().ss_pause_all(self._engine()))

    def resume_all(self) -> None:
        """Resumes what :meth:`pause_all` paused."""
        _check(_c().ss_resume_all(self._engine()))

    def render(self, frames: int) -> Any:
        """Mixes the next ``frames`` frames of an offline engine.

        Returns:
            A numpy float32 array of shape (frames, 2) when numpy is installed, else an
            ``array.array("f")`` of 2 * frames interleaved samples (left, right).
        """
        if frames < 0:
            raise InvalidArgumentError(-1, f"invalid frame count {frames}: expected 0 or more")
        try:
            import numpy
        except ImportError:
            numpy = None
        if numpy is not None:
            out = numpy.zeros((frames, 2), dtype=numpy.float32)
            pointer = out.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
            _check(_c().ss_render(self._engine(), pointer, frames))
            return out
        buffer = (ctypes.c_float * (2 * frames))()
        _check(_c().ss_render(self._engine(), buffer, frames))
        return array.array("f", buffer)

    def events(self) -> Iterator[Event]:
        """The events not yet taken, oldest first (the iterator ends when there are none left)."""
        event = _library.Event()
        while _check(_c().ss_poll_event(self._engine(), ctypes.byref(event))) == 1:
            kind = _EVENT_TYPES.get(event.type, str(event.type))
            yield Event(
                kind,
                event.name.decode("utf-8", "replace"),
                event.sound_id,
                event.time,
                event.reason if kind == "overflow" else _REASONS.get(event.reason),
                event.text.decode("utf-8", "replace"),
            )

    @property
    def time(self) -> float:
        """Seconds on the engine clock."""
        value = _c().ss_time(self._engine())
        if value < 0:
            _check(int(value))
        return value

    @property
    def output(self) -> str:
        """Where the sound goes, as opened: "device:NAME", "silent" (also when "auto" found no device;
        a "notice" event says why), "remote" ("auto" in an SSH session of the player's
        ``soundstation ssh``: the player's machine plays it) or "offline:RATE"."""
        return _c().ss_output(self._engine()).decode("utf-8", "replace")

    @property
    def sample_rate(self) -> int:
        """The output rate in Hz."""
        return _check(_c().ss_sample_rate(self._engine()))


PROGRESS_NONE = ctypes.cast(None, _library.PROGRESS)

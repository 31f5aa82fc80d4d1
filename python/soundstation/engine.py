"""The Pythonic layer over libsoundstation's C functions."""

from __future__ import annotations

import array
import ctypes
import enum
import queue
import re
import threading
import warnings
import weakref
from typing import (
    TYPE_CHECKING, Any, Callable, Dict, Iterator, NamedTuple, Optional, Sequence, Type, Union
)

from . import _args
from . import _library
from . import memory as _memory
from . import stream as _stream

if TYPE_CHECKING:
    import numpy
    import numpy.typing

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


# ---- Enums -----------------------------------------------------------------------------------------


class _Named(enum.IntEnum):
    """An IntEnum whose ``str()`` is its lower-case name with dashes ("device-lost"), the word that
    0.1's events held. Comparing one with that old string still answers True for one release: code
    written against 0.1 (``event.type == "started"``) keeps working. It raises a
    PendingDeprecationWarning, which Python shows only when asked (``-W``, pytest), not a
    DeprecationWarning, which it shows for code in ``__main__``: an event loop compares on every event,
    and a curses game would get the warning drawn over its screen."""

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            kind = type(self).__name__
            meant = other.upper().replace("-", "_")
            instead = f"{kind}.{meant}" if meant in type(self).__members__ else f"a {kind} member"
            warnings.warn(
                f"compare with {instead}, not the string {other!r} (strings stop comparing equal to "
                f"{kind} members in the next release)", PendingDeprecationWarning, stacklevel=2)
            return str(self) == other
        return int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = int.__hash__


class Result(enum.IntEnum):
    """The C library's return codes (``ss_result``); every negative one raises its
    :class:`SoundStationError` subclass (``SoundStationError.for_code``)."""

    OK = 0
    REFUSED = 1
    """Not an error: the engine was thousands of triggers behind and dropped a play."""
    INVALID_ARGUMENT = -1
    UNKNOWN_NAME = -2
    NOT_LOADED = -3
    DEVICE = -4
    CATALOGUE = -5
    DECODE = -6
    NOT_OFFLINE = -7
    CLOSED = -8
    CANCELLED = -9


class EventType(_Named):
    """What an :class:`Event` reports (``ss_event_type``)."""

    STARTED = 1
    """A voice began to play the sound."""
    FINISHED = 2
    """A voice is done with the sound; ``Event.reason`` says why (a :class:`FinishReason`)."""
    REFUSED = 3
    """The sound could not get a voice (the pool was busy with sounds that matter more, or its
    instance limit said no)."""
    DEVICE_LOST = 4
    """The output device went away; ``Event.text`` says why. The engine retries every second."""
    DEVICE_RESTORED = 5
    """The device is back; ``Event.sound`` holds its name."""
    NOTICE = 6
    """Something to show or log, which the library never prints (why "auto" fell back to silence,
    a file that loads only in part, what ALSA said): ``Event.text`` holds the line."""
    OVERFLOW = 7
    """Events were dropped on a device (nobody polled); ``Event.reason`` is how many."""
    COALESCED = 8
    """A play folded into another start of the same sound within its "coalesceMs"; its voice from
    then on addresses the voice it was folded into."""


class FinishReason(_Named):
    """Why a voice finished (``Event.reason`` of a FINISHED event; ``ss_finish_reason``)."""

    ENDED = 1
    """It played to its end (after its last loop)."""
    STOPPED = 2
    """:meth:`Voice.stop`, :meth:`Engine.stop_effects`, :meth:`Engine.stop_music`, a music switch or
    :meth:`Engine.close` stopped it."""
    STOLEN = 3
    """A sound that matters more took its voice."""
    DEVICE_LOST = 4
    """The device went away while it played."""


class Bus(_Named):
    """The mixing buses (``ss_bus``); a bus's volume, filter and reverb apply to all its sounds.
    Anywhere a bus is asked for, its name ("music") is accepted too."""

    DEFAULT = -1
    """For :meth:`Engine.play` only: the sound's own bus (its catalogue entry's; effects for a file)."""
    MASTER = 0
    """Scales every bus."""
    MUSIC = 1
    EFFECTS = 2
    VOICE = 3


class Loops(enum.IntEnum):
    """Loop counts beside a plain count N >= 0, which plays a sound N + 1 times in all (N repeats
    after the first pass, as pygame and SDL_mixer count)."""

    FOREVER = -1
    """Loop until stopped."""
    DEFAULT = -2
    """As the catalogue entry's "loop" says (music loops, effects play once; a file from
    :meth:`Engine.load_file` plays once, one from :meth:`Engine.load_music_file` loops)."""


class Output(_Named):
    """Where an engine's sound goes (``ss_output_kind``), for ``Engine(Output.OFFLINE, rate=...)``."""

    AUTO = 0
    """The default device, or silent output when there is none (a NOTICE event says why), or the
    player's speakers in an SSH session of ``soundstation ssh``."""
    DEVICE = 1
    """A playback device: ``device=`` names one, or the default."""
    SILENT = 2
    """Mixes in real time and discards the sound."""
    OFFLINE = 3
    """Stereo at ``rate=``; nothing plays until :meth:`Engine.render`."""


class Latency(_Named):
    """How short a device's mixing periods are (``ss_latency``)."""

    NORMAL = 0
    """20 ms periods: the least CPU."""
    LOW = 1
    """About 2.5 ms periods on PulseAudio (4 ms elsewhere): a hit is heard sooner; more wake-ups."""


class MusicPoint(_Named):
    """Where on the playing track's grid a music switch lands (``ss_music_point``)."""

    NOW = 0
    BEAT = 1
    """The next beat."""
    BAR = 2
    """The next bar."""
    BARS = 3
    """The next bar whose count is a multiple of ``bars=``."""
    MARKER = 4
    """The track's next pass over the marker ``marker=``."""


class FilterType(_Named):
    """The kinds of bus filter (``ss_filter_type``): real cutoffs in hertz, 12 dB per octave."""

    OFF = 0
    LOWPASS = 1
    """Keeps what lies below the cutoff."""
    HIGHPASS = 2
    """Keeps what lies above the cutoff."""
    BANDPASS = 3
    """Keeps what lies around the cutoff (its centre); narrower as q grows."""


# ---- Errors ----------------------------------------------------------------------------------------


class SoundStationError(Exception):
    """A call into libsoundstation failed; ``str(error)`` is the library's message.

    Attributes:
        code: The negative ``SS_ERR_*`` code (a :class:`Result`).
        code_name: Its C name, e.g. ``"SS_ERR_UNKNOWN_NAME"``.
    """

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.code_name = _c().ss_result_name(code).decode()

    @staticmethod
    def for_code(code: int) -> Type["SoundStationError"]:
        """The subclass raised for a negative code (SoundStationError itself for a code this package
        does not know, from a newer library)."""
        return _ERRORS.get(code, SoundStationError)


class InvalidArgumentError(SoundStationError, ValueError):
    """A bad value the library refused: out of range, a malformed output string, a name in use."""


class UnknownNameError(SoundStationError, LookupError):
    """No sound, bus, marker, preset or catalogue entry has that name or id."""


class NotLoadedError(SoundStationError):
    """The sound is in the catalogue but was not preloaded."""


class DeviceError(SoundStationError, OSError):
    """The output device could not be opened, or OpenAL refused something."""


class CatalogueError(SoundStationError):
    """catalogue.json is missing or wrong."""


class DecodeError(SoundStationError):
    """A sound file is missing or does not decode (a preload's other sounds are loaded)."""


class NotOfflineError(SoundStationError):
    """``render`` needs an engine opened with ``"offline:RATE"`` (or ``Output.OFFLINE``)."""


class ClosedError(SoundStationError):
    """The engine was closed."""


class CancelledError(SoundStationError):
    """A preload was cancelled (what it had loaded is let go of)."""


_ERRORS: Dict[int, Type[SoundStationError]] = {
    Result.INVALID_ARGUMENT: InvalidArgumentError, Result.UNKNOWN_NAME: UnknownNameError,
    Result.NOT_LOADED: NotLoadedError, Result.DEVICE: DeviceError, Result.CATALOGUE: CatalogueError,
    Result.DECODE: DecodeError, Result.NOT_OFFLINE: NotOfflineError, Result.CLOSED: ClosedError,
    Result.CANCELLED: CancelledError,
}

# The C names in the library's messages, as a Python game knows them.
_PYTHON_NAMES = {
    "ss_open": "Engine()", "ss_open_with": "Engine()", "ss_close": "Engine.close",
    "ss_preload": "Engine.preload", "ss_load_file": "Engine.load_file",
    "ss_load_music_file": "Engine.load_music_file", "ss_sound_id": "Engine.sound_id",
    "ss_play": "Engine.play", "ss_play_voice": "Engine.play", "ss_play_at": "Engine.play_at",
    "ss_play_position": "Engine.play_position", "ss_music": "Engine.music", "ss_music_with": "Engine.music",
    "ss_music_at": "Engine.music", "ss_render": "Engine.render", "ss_poll_event": "Engine.events",
    "ss_voice_stop": "Voice.stop", "ss_voice_set_volume": "Voice.set_volume",
    "ss_voice_set_pitch": "Voice.set_pitch", "ss_voice_set_pan": "Voice.set_pan",
    "ss_voice_pause": "Voice.pause", "ss_voice_resume": "Voice.resume",
    "ss_voice_is_playing": "Voice.is_playing", "ss_set_volume": "Engine.set_volume",
    "ss_set_listener": "Engine.set_listener", "ss_set_grid": "Engine.set_grid",
    "ss_set_filter": "Engine.set_filter", "ss_set_reverb": "Engine.set_reverb",
    "ss_pause_music": "Engine.pause_music", "ss_resume_music": "Engine.resume_music",
    "ss_stop_music": "Engine.stop_music", "ss_stop_effects": "Engine.stop_effects",
    "ss_music_intensity": "Engine.music_intensity", "ss_music_position": "Engine.music_position",
    "ss_synth": "Engine.synth",
    "ss_load_memory": "Engine.load_memory", "ss_load_pcm": "Engine.load_pcm",
    "ss_stream_open": "Engine.open_stream", "ss_stream_write": "Stream.write", "ss_stream_close": "Stream.close",
    "ss_set_music_speed": "Engine.set_music_speed",
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
    raise SoundStationError.for_code(result)(result, _python_terms(message.decode("utf-8", "replace")))


# ---- Values ----------------------------------------------------------------------------------------


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
        type: An :class:`EventType` (``str()`` of it is "started", "finished", "refused",
            "device-lost", "device-restored", "notice", "overflow" or "coalesced").
        sound: The sound's name (the device or reason for device events; a notice's first 63 bytes).
        sound_id: The sound's id, or -1.
        time: Seconds on the engine clock.
        reason: For FINISHED a :class:`FinishReason`; for OVERFLOW how many events were dropped;
            else None.
        text: The whole line of a NOTICE or DEVICE_LOST; else the same as ``sound``.
        voice: The :class:`Voice` it concerns (equal to the one :meth:`Engine.play` returned), or
            None (device events, notices, overflow).
    """

    type: EventType
    sound: str
    sound_id: int
    time: float
    reason: Optional[Union[FinishReason, int]]
    text: str = ""
    voice: Optional["Voice"] = None


Sound = Union[str, int]
"""A loaded sound: its name, or its id from :meth:`Engine.sound_id` or :meth:`Engine.load_file`."""

_FADE_MAX = 3600.0
_LOOPS_MAX = 1000
_START_MAX = 1e9


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"Engine.{old}() is Engine.{new}() now; {old}() goes in the next release",
                  DeprecationWarning, stacklevel=3)


def _loops(value: Any) -> int:
    """A loop count for C: None (the default), Loops.FOREVER/DEFAULT, or a count N >= 0."""
    if value is None:
        return int(Loops.DEFAULT)
    if isinstance(value, Loops):
        return int(value)
    return _args.integer(value, "loops", 0, _LOOPS_MAX)


class Voice:
    """One play of a sound, as :meth:`Engine.play` returns it (like pygame's ``Channel``): stop it,
    fade it, pause it, or change its volume, pitch or pan while it plays.

    A voice that has ended (finished, stopped, stolen or refused) stays a valid object: its methods
    then do nothing and :attr:`is_playing` is False. ``bool(voice)`` is False only for a play the
    engine dropped because it was thousands of triggers behind (the voice then has id 0). Voices are
    equal when they are the same play of the same engine, so an :class:`Event`'s ``voice`` can be
    compared with the one ``play`` returned.

    Attributes:
        id: The C ``ss_voice``: 1, 2, 3... per engine, never reused; 0 for a dropped play.
    """

    __slots__ = ("_engine", "id", "_volume", "_pitch", "_pan", "__weakref__")

    def __init__(self, engine: "Engine", voice_id: int, volume: float = 1.0, pitch: float = 1.0,
                 pan: float = 0.0) -> None:
        self._engine = weakref.ref(engine)
        self.id = voice_id
        self._volume, self._pitch, self._pan = volume, pitch, pan

    def __repr__(self) -> str:
        return f"<soundstation.Voice {self.id}>"

    def __bool__(self) -> bool:
        return self.id != 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Voice):
            return NotImplemented
        return self.id == other.id and self._engine() is other._engine()

    def __hash__(self) -> int:
        return hash(self.id)

    def _call(self, function: str, *arguments: Any) -> int:
        engine = self._engine()
        if engine is None:
            raise ClosedError(Result.CLOSED, "the voice's engine was closed and collected")
        if self.id == 0:
            return 0  # a dropped play: nothing to address (the C call would call voice 0 invalid)
        return _check(getattr(_c(), function)(engine._engine(), self.id, *arguments))

    def stop(self, fade: float = 0.0) -> None:
        """Stops the sound, at once or fading out over ``fade`` seconds (0...3600). Does nothing to
        a voice that has ended."""
        self._call("ss_voice_stop", _args.number(fade, "fade", 0.0, _FADE_MAX))

    def pause(self) -> None:
        """Pauses the sound where it is (its place is kept)."""
        self._call("ss_voice_pause")

    def resume(self) -> None:
        """Resumes a sound paused by :meth:`pause` (it stays silent while
        :meth:`Engine.pause_all` holds)."""
        self._call("ss_voice_resume")

    @property
    def is_playing(self) -> bool:
        """Whether the voice still holds its sound: playing, paused, or waiting to start. False once
        it finished, was stopped, stolen or refused."""
        return self._call("ss_voice_is_playing") == 1

    def set_volume(self, volume: float, tween: float = 0.0) -> None:
        """Sets the voice's volume (0...16, before its bus's), at once or gliding over ``tween``
        seconds."""
        volume = _args.number(volume, "volume", 0.0, 16.0)
        self._call("ss_voice_set_volume", volume, _args.number(tween, "tween", 0.0, _FADE_MAX))
        self._volume = volume

    def set_pitch(self, pitch: float, tween: float = 0.0) -> None:
        """Sets the voice's pitch (speed, 0.0625...16; 1 as recorded), at once or gliding over
        ``tween`` seconds."""
        pitch = _args.number(pitch, "pitch", 0.0625, 16.0)
        self._call("ss_voice_set_pitch", pitch, _args.number(tween, "tween", 0.0, _FADE_MAX))
        self._pitch = pitch

    def set_pan(self, pan: float, tween: float = 0.0) -> None:
        """Sets the voice's pan (-1 left ... 1 right), at once or gliding over ``tween`` seconds."""
        pan = _args.number(pan, "pan", -1.0, 1.0)
        self._call("ss_voice_set_pan", pan, _args.number(tween, "tween", 0.0, _FADE_MAX))
        self._pan = pan

    @property
    def volume(self) -> float:
        """The volume last asked for (at play or by :meth:`set_volume`; a tween's target). Setting
        it changes the volume at once."""
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        self.set_volume(value)

    @property
    def pitch(self) -> float:
        """The pitch last asked for. Setting it changes the pitch at once."""
        return self._pitch

    @pitch.setter
    def pitch(self, value: float) -> None:
        self.set_pitch(value)

    @property
    def pan(self) -> float:
        """The pan last asked for. Setting it changes the pan at once."""
        return self._pan

    @pan.setter
    def pan(self, value: float) -> None:
        self.set_pan(value)


if TYPE_CHECKING:
    RenderBlock = Union["numpy.typing.NDArray[numpy.float32]", "array.array[float]"]
else:
    RenderBlock = Union[Any, array.array]
"""What :meth:`Engine.render` returns: a (frames, 2) float32 numpy array, or without numpy an
interleaved ``array.array("f")``."""

_RENDER_PIECE_SECONDS = 0.01
"""render() mixes in pieces this long, so that Ctrl-C (a KeyboardInterrupt, which Python raises
between C calls) arrives within about this much mixing time."""

_MUSIC_AT = re.compile(r"^(now|beat|bar|bars=(\d+)|marker=(.+))$", re.S)


class Engine:
    """An open SoundStation engine: a context manager that closes it on exit.

    Args:
        output: A string, "auto" (the default device, or silent when there is none), "device",
            "device:NAME", "silent", or "offline:RATE" (nothing plays until :meth:`render`;
            sample-exact, for tests); or an :class:`Output` kind, with ``rate``, ``device`` and
            ``latency`` as keywords.
        assets: The folder holding catalogue.json (a str or a path), or None for sounds from
            :meth:`load_file` and :meth:`load_music_file` only.
        rate: With ``Output.OFFLINE``: the sample rate, 8000...192000 (48000).
        device: With ``Output.DEVICE``: a device name as ``soundstation devices`` lists it, or None
            for the default.
        latency: With ``Output.AUTO`` or ``Output.DEVICE``: a :class:`Latency` (or "low").

    Raises:
        TypeError, ValueError: for an argument of the wrong type or out of range (naming it).
        SoundStationError: with the library's message when the output or the catalogue cannot be
            opened (:class:`DeviceError`, :class:`CatalogueError`, :class:`InvalidArgumentError`).
    """

    def __init__(self, output: Union[str, Output] = "auto", assets: Optional[Any] = None, *,
                 rate: Optional[int] = None, device: Optional[str] = None,
                 latency: Optional[Union[Latency, str]] = None) -> None:
        self._handle: Optional[ctypes.c_void_p] = None
        self._ids: Dict[str, int] = {}
        self._preloading: Optional[threading.Thread] = None
        # The Voice objects still held by the game, so that an event hands back the same object
        # that play() returned (with the volume, pitch and pan it was given).
        self._voices: "weakref.WeakValueDictionary[int, Voice]" = weakref.WeakValueDictionary()
        handle = ctypes.c_void_p()
        assets_bytes = _args.optional_text(assets, "assets", path=True)
        if isinstance(output, Output) or (isinstance(output, int) and not isinstance(output, bool)):
            kind = _args.member(output, "output", Output)
            options = _library.OpenOptions()
            _check(_c().ss_open_options_init(ctypes.byref(options), ctypes.sizeof(options)))
            options.output = kind
            options.assets_dir = assets_bytes
            if rate is not None:
                if kind != Output.OFFLINE:
                    raise ValueError(f"rate={rate!r} is for Output.OFFLINE, not {kind!r}")
                options.sample_rate = _args.integer(rate, "rate", 8000, 192000)
            if device is not None:
                if kind != Output.DEVICE:
                    raise ValueError(f"device={device!r} is for Output.DEVICE, not {kind!r}")
                options.device = _args.text(device, "device")
            if latency is not None:
                if kind not in (Output.AUTO, Output.DEVICE):
                    raise ValueError(f"latency={latency!r} is for Output.AUTO or Output.DEVICE, not {kind!r}")
                options.latency = _args.member(latency, "latency", Latency)
            _check(_c().ss_open_with(ctypes.byref(handle), ctypes.byref(options)))
        else:
            output_bytes = _args.text(output, "output")
            for keyword, value in (("rate", rate), ("device", device), ("latency", latency)):
                if value is not None:
                    raise ValueError(f"{keyword}= goes with an Output kind (Engine(Output.OFFLINE, rate=44100)); "
                                     f"the string {output!r} says all there is")
            _check(_c().ss_open(ctypes.byref(handle), output_bytes, assets_bytes))
        self._handle = handle
        self._rate = _check(_c().ss_sample_rate(handle))

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
            raise ClosedError(Result.CLOSED, "the engine is closed: open a new Engine")
        return self._handle

    # ---- Loading ----

    def preload(
        self, names: Optional[Sequence[str]] = None, progress: Optional[Callable[[float], None]] = None
    ) -> None:
        """Decodes catalogue sounds (all when ``names`` is None) so that playing them never decodes.
        Blocks until done.

        Args:
            names: A list (or tuple) of catalogue names, or None for the whole catalogue.
            progress: Called after each sound with the fraction done, on this thread.

        Raises:
            UnknownNameError: for a name the catalogue lacks (nothing is loaded).
            DecodeError: when some files do not decode (the others are loaded).
            KeyboardInterrupt: Ctrl-C stops the preload (what it had loaded is let go of) and arrives
                here, about 20 ms later on an idle machine: the decoding stops at its next block.
        """
        if isinstance(names, (str, bytes)):
            raise TypeError(f"names must be a list of catalogue names, not a single {type(names).__name__} "
                            f"({names!r}): write preload([{names!r}])")
        if names is not None and not isinstance(names, (list, tuple)):
            raise TypeError(f"names must be a list of catalogue names or None, not {type(names).__name__}")
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be callable or None, not {type(progress).__name__}")
        if names is None:
            encoded, count = None, 0
        else:
            _args.integer(len(names), "len(names)")
            encoded = (ctypes.c_char_p * len(names))(*[_args.text(name, f"names[{index}]")
                                                       for index, name in enumerate(names)])
            count = len(names)
        engine = self._engine()
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
            raise ClosedError(Result.CLOSED, "the engine was closed while preload ran: open a new Engine")
        if outcome["result"] < 0:
            _raise(outcome["result"], outcome["message"])

    def load_file(self, name: str, path: Any) -> int:
        """Decodes a file (any format the engine reads) into an effect called ``name`` on the
        effects bus, with no catalogue entry; returns its id. Blocks while decoding.

        Raises:
            InvalidArgumentError: for an empty name or one already in use.
            DecodeError: for a missing file or one that does not decode.
        """
        sound_id = _check(_c().ss_load_file(self._engine(), _args.text(name, "name"),
                                            _args.text(path, "path", path=True)))
        self._ids[name] = sound_id
        return sound_id

    def load_music_file(self, name: str, path: Any) -> int:
        """Makes a file a music track called ``name``, streamed from the file while it plays, with
        no catalogue entry: :meth:`music` then plays it by that name. It loops unless
        :meth:`music`'s ``loops`` says otherwise, and has no tempo (no beat or bar switches on it).
        Returns its id (its events carry it). Blocks while it reads the file's header.

        Raises:
            InvalidArgumentError: for an empty name or one already in use.
            DecodeError: for a missing file or one that does not open as audio.
        """
        sound_id = _check(_c().ss_load_music_file(self._engine(), _args.text(name, "name"),
                                                  _args.text(path, "path", path=True)))
        self._ids[name] = sound_id
        return sound_id

    def load_memory(self, name: str, data: Any) -> int:
        """Decodes a whole encoded file held in memory (any format :meth:`load_file` reads: WAV,
        AIFF, FLAC, Ogg Vorbis, Opus, MP3, tracker modules) into an effect called ``name``; returns
        its id. ``data`` is bytes, a bytearray, a memoryview or anything with the buffer protocol; it
        is copied. Blocks while decoding.

        Raises:
            TypeError: for ``data`` that is no buffer. ValueError: for empty ``data``.
            InvalidArgumentError: for an empty name or one already in use.
            DecodeError: for bytes that are no audio the engine reads.
        """
        buffer, size = _memory.file_bytes(data)
        sound_id = _check(_c().ss_load_memory(self._engine(), _args.text(name, "name"), buffer, size))
        self._ids[name] = sound_id
        return sound_id

    def load_pcm(self, name: str, samples: Any, channels: Optional[int] = None, rate: int = 48000,
                 format: Any = None) -> int:
        """Makes raw interleaved samples an effect called ``name``; returns its id. ``samples`` is an
        ``array('f')`` or ``array('h')``, a numpy float32 or int16 array (2-D: frames x channels,
        which gives ``channels``), float64 (converted to float32), a list of floats, or plain bytes
        with ``format`` (:class:`SampleFormat`). ``channels`` is 1...32 (above 2 mixed to stereo),
        ``rate`` 1000...384000 Hz. The samples are copied. Blocks while they are uploaded.

        Raises:
            TypeError, ValueError: naming a bad argument.
            InvalidArgumentError: for an empty name or one already in use.
        """
        buffer, kind, frames, channels, rate = _memory.pcm(samples, channels, rate, format)
        sound_id = _check(_c().ss_load_pcm(self._engine(), _args.text(name, "name"), buffer, int(kind),
                                           frames, channels, rate))
        self._ids[name] = sound_id
        return sound_id

    def open_stream(self, channels: int = 2, rate: int = 48000, *, bus: Union[Bus, str] = Bus.EFFECTS,
                    volume: float = 1.0, pan: float = 0.0, queue_frames: int = 0) -> "_stream.Stream":
        """Opens a stream of float frames the game writes as it makes them, heard at once through a
        voice (from its first frames until it is closed); see :class:`Stream`. ``channels`` is 1 or
        2, ``rate`` 8000...192000 Hz (resampled to the engine's), ``queue_frames`` the most frames the
        queue holds (0: half a second). A context manager: ``with engine.open_stream(1) as s: ...``.

        Raises:
            TypeError, ValueError: naming a bad argument. ClosedError: for a closed engine.
        """
        options = _stream.StreamOptions()
        _c().ss_stream_options_init(ctypes.byref(options), ctypes.sizeof(options))
        options.bus = _args.member(bus, "bus", Bus)
        options.volume = _args.number(volume, "volume", 0.0, 16.0)
        options.pan = _args.number(pan, "pan", -1.0, 1.0)
        options.queue_frames = _args.integer(queue_frames, "queue_frames", 0, _stream.QUEUE_FRAMES_MAX)
        channels = _args.integer(channels, "channels", 1, 2)
        rate = _args.integer(rate, "rate", 8000, 192000)
        handle = ctypes.c_void_p()
        _check(_c().ss_stream_open(self._engine(), channels, rate, ctypes.byref(options), ctypes.byref(handle)))
        voice = Voice(self, _c().ss_stream_voice(handle), volume=options.volume, pan=options.pan)
        return _stream.Stream(self, handle, channels, rate, voice)

    def sound_id(self, name: str) -> int:
        """The id of a loaded sound (ids are 0, 1, 2... in load order)."""
        return self._lookup(name, "name")

    def _lookup(self, name: Any, argument: str) -> int:
        key = _args.text(name, argument)
        if name not in self._ids:
            self._ids[name] = _check(_c().ss_sound_id(self._engine(), key))
        return self._ids[name]

    def _id(self, sound: Any) -> int:
        if isinstance(sound, str):
            return self._lookup(sound, "sound")
        if isinstance(sound, bool) or not isinstance(sound, int):
            raise TypeError(f"sound must be a name (str) or an id (int), not {type(sound).__name__} "
                            f"({_args._shown(sound)})")
        return _args.integer(sound, "sound")

    # ---- Effects ----

    def play(self, sound: Sound, volume: float = 1.0, pitch: float = 1.0, pan: float = 0.0, *,
             loops: Optional[Union[int, Loops]] = None, bus: Union[Bus, str] = Bus.DEFAULT,
             at: Optional[float] = None, fade_in: float = 0.0, priority: Optional[int] = None,
             pitch_shift: float = 0.0) -> Voice:
        """Plays a loaded sound (a name or an id) and returns its :class:`Voice`. Never waits: the
        start is handed to the mixer.

        Args:
            volume: Multiplies the catalogue's volume, 0...16.
            pitch: The speed, 0.0625...16 (1 as recorded).
            pan: -1 left ... 1 right.
            loops: None (the catalogue's "loop"), a count N, 0...1000 (plays N + 1 times, each
                pass the whole sound), or ``Loops.FOREVER``.
            bus: The bus to play on (a :class:`Bus` or its name); ``Bus.DEFAULT`` is the sound's own.
            at: Seconds on the engine clock (:attr:`time`), 0...1e9, to start at (offline: at frame
                round(at * rate) exactly; a past time starts at once), or None for now.
            fade_in: Seconds to rise from silence, 0...3600.
            priority: 0...255 (a sound may take the voice of a lower one when every voice is busy),
                or None for the sound's own.
            pitch_shift: Semitones, -24...24, the pitch moves without the speed changing (through
                the time-stretcher); 0 for none.

        Returns:
            The play's Voice. It is falsy only when the engine was thousands of triggers behind and
            dropped the play; a start that the sound's instance limit or the voice pool refuses is
            reported later as a REFUSED event naming the voice (and :attr:`Voice.is_playing` is then
            False).
        """
        options = _library.PlayOptions()
        _check(_c().ss_play_options_init(ctypes.byref(options), ctypes.sizeof(options)))
        options.volume = _args.number(volume, "volume", 0.0, 16.0)
        options.pitch = _args.number(pitch, "pitch", 0.0625, 16.0)
        options.pan = _args.number(pan, "pan", -1.0, 1.0)
        options.loops = _loops(loops)
        options.bus = _args.member(bus, "bus", Bus)
        if at is not None:
            options.start_time = _args.number(at, "at", 0.0, _START_MAX)
        options.fade_in_seconds = _args.number(fade_in, "fade_in", 0.0, _FADE_MAX)
        if priority is not None:
            options.priority = _args.integer(priority, "priority", 0, 255)
        options.pitch_shift = _args.number(pitch_shift, "pitch_shift", -24.0, 24.0)
        sound_id = self._id(sound)
        voice = ctypes.c_uint64()
        _check(_c().ss_play_voice(self._engine(), sound_id, ctypes.byref(options), ctypes.byref(voice)))
        played = Voice(self, voice.value, options.volume, options.pitch, options.pan)
        if played.id:
            self._voices[played.id] = played
        return played

    def play_at(self, sound: Sound, seconds: float, volume: float = 1.0, pan: float = 0.0, *,
                pitch: float = 1.0, loops: Optional[Union[int, Loops]] = None) -> Voice:
        """Plays a loaded sound at ``seconds`` on the engine clock (offline: at frame
        round(seconds * rate); a past time starts at once): :meth:`play` with ``at=seconds``."""
        return self.play(sound, volume, pitch, pan, loops=loops, at=_args.number(seconds, "seconds", 0.0, _START_MAX))

    def play_position(self, sound: Sound, x: float, y: float, volume: float = 1.0, pitch: float = 1.0) -> bool:
        """Plays a loaded sound at a position in the game's units (columns and rows, or any 2D units).

        Its pan and loudness come from where it is against :meth:`set_listener`, by the layout
        :meth:`set_grid` sets.

        Returns:
            True when handed to the mixer, False when the engine was thousands of triggers behind
            (the C library gives positioned plays no voice handle).
        """
        x = _args.number(x, "x", c_float=True)
        y = _args.number(y, "y", c_float=True)
        volume = _args.number(volume, "volume", 0.0, 16.0)
        pitch = _args.number(pitch, "pitch", 0.0625, 16.0)
        return _check(_c().ss_play_position(self._engine(), self._id(sound), x, y, volume, pitch)) == 0

    def stop_effects(self, fade: float = 0.0) -> None:
        """Stops every effect (the music goes on), at once or fading out over ``fade`` seconds."""
        _check(_c().ss_stop_effects(self._engine(), _args.number(fade, "fade", 0.0, _FADE_MAX)))

    # ---- Music ----

    def music(self, name: str, crossfade: float = 0.0, at: Optional[Union[MusicPoint, str]] = None, *,
              bars: Optional[int] = None, marker: Optional[str] = None,
              loops: Optional[Union[int, Loops]] = None) -> None:
        """Switches the music to a preloaded track (or one from :meth:`load_music_file`), cutting
        or crossfading over ``crossfade`` seconds.

        Args:
            name: The track.
            crossfade: Seconds, 0...3600; 0 cuts.
            at: Where on the playing track's grid (its catalogue "bpm", "beatsPerBar", "downbeat",
                "markers") the switch lands: a :class:`MusicPoint`, or "now", "beat", "bar",
                "bars=N", "marker=NAME". The new track starts from its first downbeat; offline it
                lands on the grid's frame exactly. With no music playing it switches at once.
            bars: With ``MusicPoint.BARS``: the next bar whose count is a multiple of this (>= 1).
            marker: With ``MusicPoint.MARKER``: the marker's name.
            loops: None (the catalogue's "loop"), a count N, 0...1000 (the track plays N + 1 times,
                then the music stops), or ``Loops.FOREVER``.

        With ``at`` or ``loops`` the new track starts at its first downbeat (its catalogue
        "downbeat"); without them it starts from its very beginning, as in 0.1.
        """
        name_bytes = _args.text(name, "name")
        options = _library.MusicOptions()
        _check(_c().ss_music_options_init(ctypes.byref(options), ctypes.sizeof(options)))
        options.crossfade_seconds = _args.number(crossfade, "crossfade", 0.0, _FADE_MAX)
        options.loops = _loops(loops)
        point = MusicPoint.NOW
        if isinstance(at, str):
            match = _MUSIC_AT.match(at)
            if match is None:
                raise InvalidArgumentError(
                    Result.INVALID_ARGUMENT, f'invalid at "{at}": expected "now", "beat", "bar", "bars=N", '
                    '"marker=NAME" or a MusicPoint')
            if match.group(2) is not None:
                point, bars = MusicPoint.BARS, int(match.group(2)) if bars is None else bars
            elif match.group(3) is not None:
                point, marker = MusicPoint.MARKER, match.group(3) if marker is None else marker
            else:
                point = MusicPoint[at.upper()]
        elif at is not None:
            point = _args.member(at, "at", MusicPoint)
        options.point = point
        if bars is not None:
            if point != MusicPoint.BARS:
                raise ValueError(f"bars={bars!r} goes with at=MusicPoint.BARS, not {point!r}")
            options.bars = _args.integer(bars, "bars", 1)
        elif point == MusicPoint.BARS:
            raise ValueError("at=MusicPoint.BARS needs bars=N (N >= 1)")
        if marker is not None:
            if point != MusicPoint.MARKER:
                raise ValueError(f"marker={marker!r} goes with at=MusicPoint.MARKER, not {point!r}")
            marker_bytes = _args.text(marker, "marker")
            options.marker = marker_bytes
        elif point == MusicPoint.MARKER:
            raise ValueError("at=MusicPoint.MARKER needs marker=NAME")
        if at is None and loops is None:  # from the track's very start (ss_music_with: its downbeat)
            _check(_c().ss_music(self._engine(), name_bytes, options.crossfade_seconds))
        else:
            _check(_c().ss_music_with(self._engine(), name_bytes, ctypes.byref(options)))

    def music_position(self) -> Optional[MusicPosition]:
        """Where the playing music is now: bar, beat and fraction; ``None`` when no music with a tempo
        plays. Poll it once per frame and flash when the beat changes."""
        position = _library.MusicalPosition()
        if _check(_c().ss_music_position(self._engine(), ctypes.byref(position), ctypes.sizeof(position))) == 0:
            return None
        return MusicPosition(position.bar, position.beat, position.fraction)

    def music_intensity(self, intensity: float, seconds: float = 0.0) -> None:
        """Sets layered music's intensity (0...1), at once or gliding over ``seconds``: each stem of
        the catalogue entry is heard from its "from" and full from its "full"."""
        _check(_c().ss_music_intensity(self._engine(), _args.number(intensity, "intensity"),
                                       _args.number(seconds, "seconds", 0.0, _FADE_MAX)))

    def set_music_speed(self, speed: float, tween: float = 0.0) -> None:
        """Plays the music faster or slower without changing its pitch, at once or gliding linearly
        over ``tween`` seconds; tracks played later keep the speed. A layered track's stems stay
        aligned to the sample, and the grid (beats, bars, :meth:`music_position`, switches on the
        next bar) follows the speed. Never waits.

        Args:
            speed: 0.5...2, 1 as recorded.
            tween: Seconds the glide takes, 0...3600; 0 changes at once.
        """
        _check(_c().ss_set_music_speed(self._engine(), _args.number(speed, "speed", 0.5, 2.0),
                                       _args.number(tween, "tween", 0.0, _FADE_MAX)))

    def pause_music(self) -> None:
        """Pauses the music alone where it is (effects play on; the track's grid holds still)."""
        _check(_c().ss_pause_music(self._engine()))

    def resume_music(self) -> None:
        """Resumes music paused by :meth:`pause_music` from the same place."""
        _check(_c().ss_resume_music(self._engine()))

    def stop_music(self, fade: float = 0.0) -> None:
        """Stops the music, at once or fading out over ``fade`` seconds."""
        _check(_c().ss_stop_music(self._engine(), _args.number(fade, "fade", 0.0, _FADE_MAX)))

    # ---- The mix ----

    def set_volume(self, bus: Union[Bus, str], gain: float) -> None:
        """Sets the volume of a bus (a :class:`Bus` or "master", "music", "effects", "voice") to a
        linear gain 0...16, gliding there over 20 ms."""
        bus = self._bus(bus)
        _check(_c().ss_set_volume(self._engine(), bus, _args.number(gain, "gain", 0.0, 16.0)))

    def pause_all(self) -> None:
        """Pauses every sound (a game's pause screen)."""
        _check(_c().ss_pause_all(self._engine()))

    def resume_all(self) -> None:
        """Resumes what :meth:`pause_all` paused."""
        _check(_c().ss_resume_all(self._engine()))

    @staticmethod
    def _bus(bus: Any) -> Bus:
        value = _args.member(bus, "bus", Bus)
        if value == Bus.DEFAULT:
            raise ValueError("bus Bus.DEFAULT is only for play(): name a bus (master, music, effects, voice)")
        return value

    def set_listener(self, x: float, y: float, glide: float = 0.0) -> None:
        """Moves the listener (where positioned sounds are heard from; it starts at (0, 0)), gliding
        over ``glide`` seconds (0 jumps)."""
        _check(_c().ss_set_listener(self._engine(), _args.number(x, "x", c_float=True),
                                    _args.number(y, "y", c_float=True),
                                    _args.number(glide, "glide", 0.0, _FADE_MAX)))

    def set_grid(self, columns: int, rows: int) -> None:
        """Lays positions out for a grid of cells: ``columns / 2`` cells left of the listener is hard
        left, and a sound fades to -12 dB at the grid's far corner."""
        _check(_c().ss_set_grid(self._engine(), _args.integer(columns, "columns", 1),
                                _args.integer(rows, "rows", 1)))

    def set_filter(self, bus: Union[Bus, str], kind: Optional[Union[FilterType, str]], hertz: float = 0.0,
                   q: float = 0.7071, glide: float = 0.0) -> None:
        """Filters every sound on a bus with a real cutoff in hertz (12 dB per octave), or stops.

        Args:
            bus: A :class:`Bus` or its name.
            kind: A :class:`FilterType` or "lowpass", "highpass", "bandpass"; None or "off" for none.
            hertz: The cutoff (a band-pass's centre), above 0 and at most half the sample rate.
            q: The resonance, above 0 and at most 100 (0.7071 is flat).
            glide: Seconds for the cutoff to move there; 0 switches at once (through a 10 ms crossfade).
                A change is heard about 85 ms later on a device (the filtered sounds' queue).

        Raises:
            ValueError: for an unknown kind or bus (InvalidArgumentError: a cutoff or q out of range).
        """
        bus = self._bus(bus)
        kind = FilterType.OFF if kind is None else _args.member(kind, "kind", FilterType)
        _check(_c().ss_set_filter(self._engine(), bus, kind, _args.number(hertz, "hertz", c_float=True),
                                  _args.number(q, "q", c_float=True), _args.number(glide, "glide", 0.0, _FADE_MAX)))

    def set_reverb(self, bus: Union[Bus, str], preset: Optional[str]) -> None:
        """Gives a bus a reverb from the EFX preset list ("cave", "hall", "room", "underwater", ...,
        26 in all: Docs/C.md), or takes it away (None or "off"). While nothing on the bus sends to it
        for longer than its tail, it rests and costs nothing; the next sound wakes it.

        Raises:
            UnknownNameError: for an unknown preset (the message lists the presets).
        """
        bus = self._bus(bus)
        _check(_c().ss_set_reverb(self._engine(), bus, _args.optional_text(preset, "preset")))

    def volume(self, bus: Union[Bus, str], gain: float) -> None:
        """Deprecated: :meth:`set_volume` (kept for one release; warns)."""
        _deprecated("volume", "set_volume")
        self.set_volume(bus, gain)

    def listener(self, x: float, y: float, glide: float = 0.0) -> None:
        """Deprecated: :meth:`set_listener` (kept for one release; warns)."""
        _deprecated("listener", "set_listener")
        self.set_listener(x, y, glide)

    def grid(self, columns: int, rows: int) -> None:
        """Deprecated: :meth:`set_grid` (kept for one release; warns)."""
        _deprecated("grid", "set_grid")
        self.set_grid(columns, rows)

    def filter(self, bus: Union[Bus, str], kind: Optional[Union[FilterType, str]], hertz: float = 0.0,
               q: float = 0.7071, glide: float = 0.0) -> None:
        """Deprecated: :meth:`set_filter` (kept for one release; warns)."""
        _deprecated("filter", "set_filter")
        self.set_filter(bus, kind, hertz, q, glide)

    def reverb(self, bus: Union[Bus, str], preset: Optional[str]) -> None:
        """Deprecated: :meth:`set_reverb` (kept for one release; warns)."""
        _deprecated("reverb", "set_reverb")
        self.set_reverb(bus, preset)

    # ---- Rendering, events, the clock ----

    def render(self, frames: int) -> RenderBlock:
        """Mixes the next ``frames`` frames of an offline engine. Blocks while it mixes, in pieces of
        10 ms of sound, so that Ctrl-C interrupts a long render within a piece (the frames mixed so
        far are then spent: the clock has moved on by them).

        Returns:
            A numpy float32 array of shape (frames, 2) when numpy is installed, else an
            ``array.array("f")`` of 2 * frames interleaved samples (left, right).

        Raises:
            NotOfflineError: for an engine that is not offline.
        """
        frames = _args.integer(frames, "frames")
        engine = self._engine()
        try:
            import numpy
        except ImportError:
            numpy = None  # type: ignore[assignment]
        if numpy is not None:
            out = numpy.zeros((frames, 2), dtype=numpy.float32)
            base = out.ctypes.data
        else:
            buffer = (ctypes.c_float * (2 * frames))()
            base = ctypes.addressof(buffer)
        piece = max(1, int(self._rate * _RENDER_PIECE_SECONDS))
        render = _c().ss_render
        pointer_type = ctypes.POINTER(ctypes.c_float)
        done = 0
        while True:  # once at least, so that a render of 0 frames still says NotOffline or Closed
            count = min(piece, frames - done)
            _check(render(engine, ctypes.cast(base + 8 * done, pointer_type), count))
            done += count
            if done >= frames:
                break
        if numpy is not None:
            return out
        return array.array("f", buffer)

    def events(self) -> Iterator[Event]:
        """The events not yet taken, oldest first (the iterator ends when there are none left)."""
        event = _library.Event()
        size = ctypes.sizeof(event)
        while _check(_c().ss_poll_event(self._engine(), ctypes.byref(event), size)) == 1:
            try:
                kind: Any = EventType(event.type)
            except ValueError:  # a kind from a newer 1.x library: passed on as its number
                kind = event.type
            reason: Any = None
            if kind == EventType.OVERFLOW:
                reason = event.reason
            elif kind == EventType.FINISHED:
                try:
                    reason = FinishReason(event.reason)
                except ValueError:
                    reason = event.reason
            yield Event(
                kind,
                event.name.decode("utf-8", "replace"),
                event.sound_id,
                event.time,
                reason,
                event.text.decode("utf-8", "replace"),
                self._voice(event.voice),
            )

    def _voice(self, voice_id: int) -> Optional[Voice]:
        """The Voice object of an id: the one play() returned while the game holds it, else a new one."""
        if voice_id == 0:
            return None
        known = self._voices.get(voice_id)
        if known is None:
            known = Voice(self, voice_id)
            self._voices[voice_id] = known
        return known

    @property
    def time(self) -> float:
        """Seconds on the engine clock (frames rendered / rate when offline)."""
        value = float(_c().ss_time(self._engine()))
        if value < 0:
            _check(int(value))
        return value

    @property
    def output(self) -> str:
        """Where the sound goes, as opened: "device:NAME", "silent" (also when "auto" found no device;
        a NOTICE event says why), "remote" ("auto" in an SSH session of the player's
        ``soundstation ssh``: the player's machine plays it) or "offline:RATE"."""
        output: bytes = _c().ss_output(self._engine())
        return output.decode("utf-8", "replace")

    @property
    def sample_rate(self) -> int:
        """The output rate in Hz."""
        return _check(_c().ss_sample_rate(self._engine()))


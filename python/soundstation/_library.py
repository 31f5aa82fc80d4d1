"""Finds and loads libsoundstation with ctypes, and declares its functions."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import subprocess
from typing import Any, Dict, List, Tuple

SONAME = "libsoundstation.so.1"
MAJOR = 1
"""The C ABI this package speaks: any 1.x library serves it (the structs it passes state their size)."""


class LibraryNotFoundError(ImportError):
    """libsoundstation could not be loaded; the message lists the places tried and what to do."""


class MusicalPosition(ctypes.Structure):
    """The C ``ss_musical_position``."""

    _fields_ = [("bar", ctypes.c_int32), ("beat", ctypes.c_int32), ("fraction", ctypes.c_double)]


class Event(ctypes.Structure):
    """The C ``ss_event`` (1.0's fields; ``ss_poll_event`` is told this struct's size)."""

    _fields_ = [
        ("type", ctypes.c_int32),
        ("sound_id", ctypes.c_int32),
        ("reason", ctypes.c_int32),
        ("reserved", ctypes.c_int32),
        ("time", ctypes.c_double),
        ("voice", ctypes.c_uint64),
        ("name", ctypes.c_char * 64),
        ("text", ctypes.c_char * 256),
    ]


class OpenOptions(ctypes.Structure):
    """The C ``ss_open_options`` (filled by ``ss_open_options_init``, which sets ``size``)."""

    _fields_ = [
        ("size", ctypes.c_uint32),
        ("output", ctypes.c_int32),
        ("device", ctypes.c_char_p),
        ("sample_rate", ctypes.c_int32),
        ("latency", ctypes.c_int32),
        ("assets_dir", ctypes.c_char_p),
    ]


class PlayOptions(ctypes.Structure):
    """The C ``ss_play_options`` (filled by ``ss_play_options_init``, which sets ``size``)."""

    _fields_ = [
        ("size", ctypes.c_uint32),
        ("volume", ctypes.c_float),
        ("pitch", ctypes.c_float),
        ("pan", ctypes.c_float),
        ("bus", ctypes.c_int32),
        ("loops", ctypes.c_int32),
        ("start_time", ctypes.c_double),
        ("fade_in_seconds", ctypes.c_double),
        ("priority", ctypes.c_int32),
        ("pitch_shift", ctypes.c_double),
    ]


class MusicOptions(ctypes.Structure):
    """The C ``ss_music_options`` (filled by ``ss_music_options_init``, which sets ``size``)."""

    _fields_ = [
        ("size", ctypes.c_uint32),
        ("point", ctypes.c_int32),
        ("crossfade_seconds", ctypes.c_double),
        ("bars", ctypes.c_int32),
        ("loops", ctypes.c_int32),
        ("marker", ctypes.c_char_p),
    ]


from .stream import StreamOptions  # noqa: E402 - after the structs above, which it does not need

STRUCTS = {
    "ss_event": Event,
    "ss_musical_position": MusicalPosition,
    "ss_open_options": OpenOptions,
    "ss_play_options": PlayOptions,
    "ss_music_options": MusicOptions,
    "ss_stream_options": StreamOptions,
}
"""Each C struct of the header and its ctypes twin (tests/test_layout.py compares them with C's)."""


PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_double, ctypes.c_void_p)


def _candidates() -> List[str]:
    """The paths to try, in order: the copy inside the package (the wheel from `make dist` carries
    one), $SOUNDSTATION_LIBRARY, pkg-config's libdir, the loader's search."""
    paths: List[str] = []
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), SONAME)
    if os.path.exists(bundled):
        paths.append(bundled)
    explicit = os.environ.get("SOUNDSTATION_LIBRARY")
    if explicit:
        paths.append(explicit)
    try:
        libdir = subprocess.run(
            ["pkg-config", "--variable=libdir", "soundstation"],
            capture_output=True, text=True, check=False, timeout=10,
        ).stdout.strip()
        if libdir:
            paths.append(os.path.join(libdir, SONAME))
    except (OSError, subprocess.SubprocessError):
        pass
    paths.append(SONAME)  # LD_LIBRARY_PATH and the ldconfig cache
    found = ctypes.util.find_library("soundstation")
    if found:
        paths.append(found)
    return paths


def load() -> ctypes.CDLL:
    """Loads libsoundstation and declares the signatures of its functions.

    Raises:
        LibraryNotFoundError: naming every path tried and how to install the library.
    """
    tried = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as error:
            tried.append(f"{path} ({error})")
            continue
        try:
            version = lib.ss_version()
        except AttributeError:
            tried.append(f"{path} (not libsoundstation: it has no ss_version)")
            continue
        if version // 10000 != MAJOR:
            # Another major version has other functions and struct layouts: calling it would be wrong.
            tried.append(f"{path} (version {version // 10000}.{version // 100 % 100}.{version % 100}; "
                         f"this package needs {MAJOR}.x)")
            continue
        try:
            _declare(lib)
        except AttributeError as error:
            tried.append(f"{path} (lacks a function of the {MAJOR}.0 header: {error})")
            continue
        return lib
    raise LibraryNotFoundError(
        "cannot load libsoundstation; tried: " + "; ".join(tried)
        + ". Install the wheel that carries it (`pip install soundstation-*.whl` from `make dist`), "
        "or the library: the libsoundstation1 package, or `make install-lib` (or `make install-lib "
        "PREFIX=$HOME/.local`) in the SoundStation repository, then make it findable: run `ldconfig`, "
        "add PREFIX/lib/pkgconfig to PKG_CONFIG_PATH, or set SOUNDSTATION_LIBRARY=/path/to/libsoundstation.so.1"
    )


def signatures() -> Dict[str, Tuple[Any, List[Any]]]:
    """Every function of the header: its name, and its return type and argument types in ctypes.
    (tests/test_header.py checks this against soundstation.h.)"""
    engine = ctypes.c_void_p
    c_str = ctypes.c_char_p
    voice = ctypes.c_uint64
    size = ctypes.c_size_t
    i32 = ctypes.c_int
    f32 = ctypes.c_float
    f64 = ctypes.c_double
    signatures: Dict[str, Tuple[Any, List[Any]]] = {
        "ss_version": (i32, []),
        "ss_last_error": (c_str, []),
        "ss_result_name": (c_str, [i32]),
        "ss_open_options_init": (i32, [ctypes.POINTER(OpenOptions), size]),
        "ss_open_with": (i32, [ctypes.POINTER(engine), ctypes.POINTER(OpenOptions)]),
        "ss_open": (i32, [ctypes.POINTER(engine), c_str, c_str]),
        "ss_close": (None, [engine]),
        "ss_preload": (i32, [engine, ctypes.POINTER(c_str), i32, PROGRESS, ctypes.c_void_p]),
        "ss_cancel_preload": (i32, [engine]),
        "ss_load_file": (i32, [engine, c_str, c_str]),
        "ss_load_music_file": (i32, [engine, c_str, c_str]),
        "ss_sound_id": (i32, [engine, c_str]),
        "ss_play": (i32, [engine, i32, f32, f32, f32]),
        "ss_play_at": (i32, [engine, i32, f64, f32, f32]),
        "ss_play_options_init": (i32, [ctypes.POINTER(PlayOptions), size]),
        "ss_play_voice": (i32, [engine, i32, ctypes.POINTER(PlayOptions), ctypes.POINTER(voice)]),
        "ss_voice_stop": (i32, [engine, voice, f64]),
        "ss_voice_set_volume": (i32, [engine, voice, f32, f64]),
        "ss_voice_set_pitch": (i32, [engine, voice, f32, f64]),
        "ss_voice_set_pan": (i32, [engine, voice, f32, f64]),
        "ss_voice_pause": (i32, [engine, voice]),
        "ss_voice_resume": (i32, [engine, voice]),
        "ss_voice_is_playing": (i32, [engine, voice]),
        "ss_stop_effects": (i32, [engine, f64]),
        "ss_music": (i32, [engine, c_str, f64]),
        "ss_music_options_init": (i32, [ctypes.POINTER(MusicOptions), size]),
        "ss_music_with": (i32, [engine, c_str, ctypes.POINTER(MusicOptions)]),
        "ss_music_position": (i32, [engine, ctypes.POINTER(MusicalPosition), size]),
        "ss_music_intensity": (i32, [engine, f64, f64]),
        "ss_pause_music": (i32, [engine]),
        "ss_resume_music": (i32, [engine]),
        "ss_stop_music": (i32, [engine, f64]),
        "ss_set_volume": (i32, [engine, i32, f32]),
        "ss_pause_all": (i32, [engine]),
        "ss_resume_all": (i32, [engine]),
        "ss_play_position": (i32, [engine, i32, f32, f32, f32, f32]),
        "ss_set_listener": (i32, [engine, f32, f32, f64]),
        "ss_set_grid": (i32, [engine, i32, i32]),
        "ss_set_filter": (i32, [engine, i32, i32, f32, f32, f64]),
        "ss_set_reverb": (i32, [engine, i32, c_str]),
        "ss_render": (i32, [engine, ctypes.POINTER(ctypes.c_float), i32]),
        "ss_poll_event": (i32, [engine, ctypes.POINTER(Event), size]),
        "ss_time": (f64, [engine]),
        "ss_sample_rate": (i32, [engine]),
        "ss_output": (c_str, [engine]),
        "ss_synth": (i32, [engine, c_str, c_str]),
        "ss_load_memory": (i32, [engine, c_str, ctypes.c_void_p, size]),
        "ss_load_pcm": (i32, [engine, c_str, ctypes.c_void_p, i32, i32, i32, i32]),
        "ss_stream_options_init": (i32, [ctypes.POINTER(StreamOptions), size]),
        "ss_stream_open": (i32, [engine, i32, i32, ctypes.POINTER(StreamOptions), ctypes.POINTER(ctypes.c_void_p)]),
        "ss_stream_write": (i32, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), i32]),
        "ss_stream_queued": (i32, [ctypes.c_void_p]),
        "ss_stream_underruns": (i32, [ctypes.c_void_p]),
        "ss_stream_refused": (i32, [ctypes.c_void_p]),
        "ss_stream_voice": (voice, [ctypes.c_void_p]),
        "ss_stream_close": (None, [ctypes.c_void_p]),
        "ss_set_music_speed": (i32, [engine, f64, f64]),
    }
    return signatures


def _declare(lib: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in signatures().items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes

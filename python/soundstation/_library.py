"""Finds and loads libsoundstation with ctypes, and declares its functions."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import subprocess
from typing import List

SONAME = "libsoundstation.so.0"


class LibraryNotFoundError(ImportError):
    """libsoundstation could not be loaded; the message lists the places tried and what to do."""


class MusicalPosition(ctypes.Structure):
    """The C ``ss_musical_position``."""

    _fields_ = [("bar", ctypes.c_int), ("beat", ctypes.c_int), ("fraction", ctypes.c_double)]


class Event(ctypes.Structure):
    """The C ``ss_event``."""

    _fields_ = [
        ("type", ctypes.c_int),
        ("sound_id", ctypes.c_int),
        ("reason", ctypes.c_int),
        ("time", ctypes.c_double),
        ("name", ctypes.c_char * 64),
        ("text", ctypes.c_char * 256),
    ]


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
        _declare(lib)
        return lib
    raise LibraryNotFoundError(
        "cannot load libsoundstation; tried: " + "; ".join(tried)
        + ". Install the wheel that carries it (`pip install soundstation-*.whl` from `make dist`), "
        "or the library: the libsoundstation0 package, or `make install-lib` (or `make install-lib "
        "PREFIX=$HOME/.local`) in the SoundStation repository, then make it findable: run `ldconfig`, "
        "add PREFIX/lib/pkgconfig to PKG_CONFIG_PATH, or set SOUNDSTATION_LIBRARY=/path/to/libsoundstation.so.0"
    )


def _declare(lib: ctypes.CDLL) -> None:
    engine = ctypes.c_void_p
    c_str = ctypes.c_char_p
    signatures = {
        "ss_version": (ctypes.c_int, []),
        "ss_last_error": (c_str, []),
        "ss_result_name": (c_str, [ctypes.c_int]),
        "ss_open": (ctypes.c_int, [ctypes.POINTER(engine), c_str, c_str]),
        "ss_close": (None, [engine]),
        "ss_preload": (ctypes.c_int, [engine, ctypes.POINTER(c_str), ctypes.c_int, PROGRESS, ctypes.c_void_p]),
        "ss_cancel_preload": (ctypes.c_int, [engine]),
        "ss_load_file": (ctypes.c_int, [engine, c_str, c_str]),
        "ss_sound_id": (ctypes.c_int, [engine, c_str]),
        "ss_play": (ctypes.c_int, [engine, ctypes.c_int, ctypes.c_float, ctypes.c_float, ctypes.c_float]),
        "ss_play_at": (ctypes.c_int, [engine, ctypes.c_int, ctypes.c_double, ctypes.c_float, ctypes.c_float]),
        "ss_music": (ctypes.c_int, [engine, c_str, ctypes.c_double]),
        "ss_music_at": (ctypes.c_int, [engine, c_str, ctypes.c_double, c_str]),
        "ss_music_position": (ctypes.c_int, [engine, ctypes.POINTER(MusicalPosition)]),
        "ss_music_intensity": (ctypes.c_int, [engine, ctypes.c_double, ctypes.c_double]),
        "ss_stop_music": (ctypes.c_int, [engine, ctypes.c_double]),
        "ss_stop_effects": (ctypes.c_int, [engine, ctypes.c_double]),
        "ss_set_volume": (ctypes.c_int, [engine, c_str, ctypes.c_float]),
        "ss_pause_all": (ctypes.c_int, [engine]),
        "ss_resume_all": (ctypes.c_int, [engine]),
        "ss_render": (ctypes.c_int, [engine, ctypes.POINTER(ctypes.c_float), ctypes.c_int]),
        "ss_poll_event": (ctypes.c_int, [engine, ctypes.POINTER(Event)]),
        "ss_time": (ctypes.c_double, [engine]),
        "ss_sample_rate": (ctypes.c_int, [engine]),
        "ss_output": (c_str, [engine]),
        "ss_play_position": (
            ctypes.c_int, [engine, ctypes.c_int, ctypes.c_float, ctypes.c_float, ctypes.c_float, ctypes.c_float]),
        "ss_set_listener": (ctypes.c_int, [engine, ctypes.c_float, ctypes.c_float, ctypes.c_double]),
        "ss_set_grid": (ctypes.c_int, [engine, ctypes.c_int, ctypes.c_int]),
        "ss_set_filter": (
            ctypes.c_int, [engine, c_str, ctypes.c_int, ctypes.c_float, ctypes.c_float, ctypes.c_double]),
        "ss_set_reverb": (ctypes.c_int, [engine, c_str, c_str]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes

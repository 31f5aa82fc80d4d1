"""Checks of every public argument before it reaches C: its type and its range.

ctypes converts what it is given silently (an int of 2**64 becomes 0 in a C int, a str with a NUL is
cut at the NUL, a float of 1e300 becomes inf in a C float), so each value is checked here first and a
bad one raises TypeError or ValueError naming the argument and the value.
"""

from __future__ import annotations

import enum
import math
import os
from typing import Any, Optional, Type, TypeVar

INT_MAX = 2**31 - 1
"""The largest C int."""
FLOAT_MAX = 3.4028234663852886e38
"""The largest finite C float."""

E = TypeVar("E", bound=enum.IntEnum)


def _shown(value: Any) -> str:
    """``value`` for a message: its repr, cut so that a huge argument does not make a huge message."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def integer(value: Any, name: str, low: int = 0, high: int = INT_MAX) -> int:
    """``value`` as an int in [low, high], else TypeError (not an int; bools are refused too) or
    ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__} ({_shown(value)})")
    if not low <= value <= high:
        raise ValueError(f"{name} {value} is out of range: expected {low}...{high}")
    return int(value)


def number(value: Any, name: str, low: float = -math.inf, high: float = math.inf, c_float: bool = False) -> float:
    """``value`` (an int or a float) as a finite float in [low, high], else TypeError or ValueError
    naming ``name``. ``c_float``: it goes into a C float, so it must fit one (1e300 would become inf)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__} ({_shown(value)})")
    try:
        result = float(value)
    except OverflowError:
        raise ValueError(f"{name} {_shown(value)} is too large for a float") from None
    if not math.isfinite(result):
        raise ValueError(f"invalid {name} {result}: expected a finite number")
    if c_float and abs(result) > FLOAT_MAX:
        raise ValueError(f"{name} {result} is too large for a C float (at most {FLOAT_MAX:g})")
    if not low <= result <= high:
        raise ValueError(f"{name} {result} is out of range: expected {low:g}...{high:g}")
    return result


def text(value: Any, name: str, path: bool = False) -> bytes:
    """``value`` (a str; an os.PathLike too when ``path``) as UTF-8 bytes for C, else TypeError; a
    string holding a NUL character is a ValueError (C would read only what comes before it)."""
    if isinstance(value, str) or (path and isinstance(value, os.PathLike)):
        encoded = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else os.fsencode(value)
        if b"\x00" in encoded:
            raise ValueError(f"{name} {_shown(value)} holds a NUL character, which C cannot pass")
        return encoded
    kinds = "a str or an os.PathLike" if path else "a str"
    raise TypeError(f"{name} must be {kinds}, not {type(value).__name__} ({_shown(value)})")


def optional_text(value: Any, name: str, path: bool = False) -> Optional[bytes]:
    """As :func:`text`, with None passed on as None (a C NULL)."""
    return None if value is None else text(value, name, path)


def member(value: Any, name: str, kind: Type[E]) -> E:
    """``value`` as a member of the IntEnum ``kind``: a member itself, its name as a str (any case,
    "-" for "_"), or its int value; else TypeError or ValueError listing the members."""
    choices = ", ".join(f'{kind.__name__}.{m.name} ("{m.name.lower().replace("_", "-")}")' for m in kind)
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        key = value.upper().replace("-", "_")
        if key in kind.__members__:
            return kind[key]
        raise ValueError(f"invalid {name} {_shown(value)}: expected one of {choices}")
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return kind(value)
        except ValueError:
            raise ValueError(f"invalid {name} {value}: expected one of {choices}") from None
    raise TypeError(f"{name} must be a {kind.__name__} or its name, not {type(value).__name__} ({_shown(value)})")

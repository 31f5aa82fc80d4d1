"""Synthesised effects: sfxr's generator in the engine (``Engine.synth``)."""
from __future__ import annotations

import json
from typing import Any, Mapping, Union

from . import _args
from .engine import Engine, _c, _check

Params = Union[str, Mapping[str, Any]]


def synth(self: Engine, name: str, params: Params) -> int:
    """Renders an sfxr effect and makes it an effect called ``name`` on the effects bus, with no
    file and no catalogue entry; returns its id. Blocks while it renders (about a millisecond per
    10 ms of sound).

    ``params`` is the catalogue's JSON form as a dict (``{"preset": "coin", "seed": 7}``, optionally
    with ``"mutate"``, ``"variation"`` and any sfxr slider such as ``"p_base_freq"``) or as text, or
    an sfxr parameter string as jsfxr and sfxr copy it (jsfxr's base58 share string, sfxr's
    comma-separated settings). The same parameters render the same samples in every language.

    Raises:
        InvalidArgumentError: for an empty name, one already in use, or parameters that do not read
            (the message names the value).
        TypeError: when ``params`` is neither a string nor a mapping.
    """
    if isinstance(params, Mapping):
        try:
            text = json.dumps(dict(params), allow_nan=False)
        except (TypeError, ValueError) as error:
            raise ValueError(f"synth params {_args._shown(params)} are not JSON: {error}") from None
    elif isinstance(params, str):
        text = params
    else:
        raise TypeError(f"params must be a str or a mapping, not {type(params).__name__}")
    sound_id = _check(_c().ss_synth(self._engine(), _args.text(name, "name"), _args.text(text, "params")))
    self._ids[name] = sound_id
    return sound_id


Engine.synth = synth  # type: ignore[attr-defined]

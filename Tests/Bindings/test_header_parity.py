"""Every function, error code, event kind and enum value of soundstation.h is in the Python, Rust
and Go bindings (header_parity.py says how each is looked for), and the checker itself finds an
item taken away."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import header_parity  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("binding", ["python", "rust", "go"])
def test_binding_has_everything_the_header_declares(binding: str) -> None:
    missing = header_parity.check(ROOT)[binding]
    assert not missing, f"the {binding} binding lacks: " + "; ".join(missing)


def test_header_is_read_whole() -> None:
    header = header_parity.parse_header((ROOT / header_parity.HEADER).read_text())
    for name in ("ss_open", "ss_close", "ss_play", "ss_poll_event", "ss_output", "ss_version"):
        assert name in header.functions
    names = {constant.name: constant for constant in header.constants}
    assert names["SS_ERR_UNKNOWN_NAME"].kind == "error"
    assert names["SS_ERR_UNKNOWN_NAME"].camel == "UnknownName"
    assert names["SS_EVENT_DEVICE_LOST"].kind == "event"
    assert names["SS_EVENT_DEVICE_LOST"].camel == "DeviceLost"
    assert "ss_event" in header.structs
    # A function pointer typedef is not a function.
    assert not any(name.endswith("_fn") for name in header.functions)


SAMPLE = """
/* ss_fake(int) in a comment is not a declaration */
typedef void (*ss_progress_fn)(double fraction, void *user);
enum { SS_OK = 0, SS_ERR_INVALID_ARGUMENT = -1, SS_ERR_UNKNOWN_NAME = -2 };
typedef enum ss_bus { SS_BUS_MASTER = 0, SS_BUS_MUSIC = 1 } ss_bus;
enum { SS_EVENT_STARTED = 1, SS_EVENT_NOTICE = 6 };
const char *ss_last_error(void);
int ss_play(ss_engine *engine, int sound_id,
            float volume);
"""


def test_parser_on_a_sample() -> None:
    header = header_parity.parse_header(SAMPLE)
    assert header.functions == ["ss_last_error", "ss_play"]
    assert [(c.name, c.group, c.kind) for c in header.constants] == [
        ("SS_OK", "SS_", "value"),
        ("SS_ERR_INVALID_ARGUMENT", "SS_ERR_", "error"),
        ("SS_ERR_UNKNOWN_NAME", "SS_ERR_", "error"),
        ("SS_BUS_MASTER", "SS_BUS_", "value"),
        ("SS_BUS_MUSIC", "SS_BUS_", "value"),
        ("SS_EVENT_STARTED", "SS_EVENT_", "event"),
        ("SS_EVENT_NOTICE", "SS_EVENT_", "event"),
    ]


def test_checker_names_what_a_binding_lost(tmp_path: Path) -> None:
    """Copies the header and the bindings, takes from each binding one function and one event kind
    that it has (every use of their C names, and Python's names for the kind), and expects the
    checker to name both."""
    for part in ("Sources/CSoundStation/include", "python/soundstation", "bindings/rust/src", "bindings/go"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("examples", "*_test.go"))
    header = header_parity.parse_header((tmp_path / header_parity.HEADER).read_text())
    before = header_parity.check(tmp_path)
    folders = {"python": "python/soundstation", "rust": "bindings/rust/src", "go": "bindings/go"}
    taken = {}
    for binding, folder in folders.items():
        had = lambda item: not any(item in line.split(" ")[:3] for line in before[binding])  # noqa: E731
        function = next(name for name in header.functions if had(name))
        event = next(c for c in header.constants if c.kind == "event" and had(c.name))
        taken[binding] = (function, event.name)
        for path in (tmp_path / folder).rglob("*"):
            if path.suffix in (".py", ".rs", ".go"):
                text = path.read_text().replace(function, "ss_gone").replace(event.name, "SS_GONE")
                if binding == "python":
                    for word in (event.stem.lower(), event.stem.lower().replace("_", "-")):
                        text = text.replace(f'"{word}"', '"gone"')
                    text = text.replace(event.stem, "GONE")
                path.write_text(text)
    after = header_parity.check(tmp_path)
    for binding, (function, event) in taken.items():
        assert f"function {function}" in after[binding], after[binding]
        assert any(event in item for item in after[binding]), (event, after[binding])

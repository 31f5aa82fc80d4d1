"""Reads soundstation.h and names what each binding (Python, Rust, Go) lacks of it.

The header is the one contract; the bindings are written by hand in each language's idiom, so this
reads both and compares names (the layout tests of each binding compare sizes, offsets and values).
A binding has a header item when:

- a function `ss_x`: Python names it in code (a `"ss_x"` string or `lib.ss_x`), Rust declares
  `fn ss_x`, Go calls `C.ss_x`;
- a constant `SS_GROUP_NAME` of an enum: Rust and Go name it in code (`SS_GROUP_NAME` in Rust's
  `sys`, `C.SS_GROUP_NAME` in Go, so its value comes from C) and give it an idiomatic name (Rust
  the variant `Name`, Go an exported identifier ending in `Name`: `ErrName`, `EventName`,
  `BusName`); Python names it in code, or has its idiomatic name (an error code: the class
  `NameError`; another: the member `NAME`, or the string "name" / "na-me" / "na_me").

Comments do not count: Rust and Go lose their comments before the search, Python is read as tokens.

Usage: python3 Tests/Bindings/header_parity.py [ROOT]   (prints what is missing; exit 1 if any)
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Set

HEADER = Path("Sources/CSoundStation/include/soundstation.h")


@dataclass
class Constant:
    """One enum constant of the header."""

    name: str  # SS_EVENT_NOTICE
    group: str  # the enum's common prefix, SS_EVENT_ (SS_ERR_ for the codes, SS_ for SS_OK)
    kind: str  # "error", "event" or "value"

    @property
    def stem(self) -> str:
        """The part after the group prefix: NOTICE, UNKNOWN_NAME."""
        return self.name[len(self.group):]

    @property
    def camel(self) -> str:
        """UnknownName, Notice."""
        return "".join(part.capitalize() for part in self.stem.split("_") if part)


@dataclass
class Header:
    """What a binding must have: the functions and the enum constants."""

    functions: List[str] = field(default_factory=list)
    constants: List[Constant] = field(default_factory=list)
    structs: List[str] = field(default_factory=list)


def strip_c_comments(text: str) -> str:
    """C, Rust and Go source without its comments (string literals kept; none here holds // or /*)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def common_prefix(names: List[str]) -> str:
    """The longest prefix ending in `_` that every name shares."""
    if not names:
        return ""
    prefix = names[0]
    for name in names[1:]:
        while not name.startswith(prefix):
            prefix = prefix[:-1]
    return prefix[: prefix.rfind("_") + 1]


def parse_header(text: str) -> Header:
    """The functions, enum constants and struct names of soundstation.h."""
    code = strip_c_comments(text)
    code = re.sub(r"^\s*#.*$", "", code, flags=re.M)  # preprocessor lines
    header = Header()
    for match in re.finditer(r"\benum\b\s*(\w*)\s*\{(.*?)\}", code, flags=re.S):
        names = re.findall(r"\b(SS_[A-Z0-9_]+)\b\s*(?:=[^,]*)?(?:,|$)", match.group(2).strip())
        errors = [name for name in names if name.startswith("SS_ERR_")]
        if errors:
            # The return codes: SS_OK and SS_REFUSED are not failures, each SS_ERR_* is one.
            for name in names:
                if name.startswith("SS_ERR_"):
                    header.constants.append(Constant(name, "SS_ERR_", "error"))
                else:
                    header.constants.append(Constant(name, "SS_", "value"))
            continue
        group = common_prefix(names) if len(names) > 1 else names[0][: names[0].rfind("_") + 1]
        if group in ("", "SS_"):
            # An enum whose members share no group name: each keeps its own first word.
            for name in names:
                parts = name.split("_")
                header.constants.append(Constant(name, "_".join(parts[:2]) + "_", "value"))
            continue
        kind = "event" if group == "SS_EVENT_" else "value"
        header.constants.extend(Constant(name, group, kind) for name in names)
    # Declarations: a return type, then ss_name( at the top level (not a typedef of a pointer).
    for match in re.finditer(r"(?:^|;|\})\s*(?!typedef)[A-Za-z_][\w\s\*]*?\b(ss_[a-z0-9_]+)\s*\(", code):
        if match.group(1) not in header.functions:
            header.functions.append(match.group(1))
    header.structs = re.findall(r"typedef\s+struct\s+(ss_\w+)\s*\{", code)
    return header


def read_sources(files: Iterable[Path]) -> str:
    return "\n".join(strip_c_comments(path.read_text()) for path in files)


def identifiers(code: str) -> Set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))


def python_tokens(files: Iterable[Path]) -> Set[str]:
    """Every name, and the value of every string that is not a docstring-like sentence, in the
    Python files (comments are not tokens of interest)."""
    found: Set[str] = set()
    for path in files:
        for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if token.type == tokenize.NAME:
                found.add(token.string)
            elif token.type == tokenize.STRING:
                try:
                    value = eval(token.string, {"__builtins__": {}})  # a literal, from our own files
                except Exception:  # f-strings and the like hold no single name
                    continue
                if isinstance(value, (str, bytes)):
                    text = value.decode("latin-1") if isinstance(value, bytes) else value
                    if re.fullmatch(r"[\w.\-:]+", text):
                        found.add(text)
    return found


def missing_python(header: Header, root: Path) -> List[str]:
    files = sorted((root / "python" / "soundstation").glob("*.py"))
    if not files:
        return ["python/soundstation: no Python files"]
    found = python_tokens(files)
    missing = [f"function {name}" for name in header.functions if name not in found]
    for constant in header.constants:
        if constant.name in found or constant.name == "SS_OK":
            continue  # success needs no name in Python: a call that returns is one
        stem = constant.stem
        if constant.kind == "error":
            wanted = {constant.camel + "Error"}
        else:
            wanted = {stem, stem.lower(), stem.lower().replace("_", "-")}
        if not wanted & found:
            what = {"error": "error code", "event": "event kind", "value": "enum value"}[constant.kind]
            missing.append(f"{what} {constant.name} (none of {', '.join(sorted(wanted))})")
    return missing


def missing_c_like(header: Header, files: List[Path], language: str) -> List[str]:
    """Rust and Go: the C names in code, and an idiomatic name for each constant."""
    if not files:
        return [f"{language}: no source files"]
    code = read_sources(files)
    names = identifiers(code)
    missing = []
    for function in header.functions:
        pattern = rf"\bfn\s+{function}\s*\(" if language == "Rust" else rf"\bC\.{function}\s*\("
        if not re.search(pattern, code):
            missing.append(f"function {function}")
    for constant in header.constants:
        pattern = rf"\b{constant.name}\b" if language == "Rust" else rf"\bC\.{constant.name}\b"
        what = {"error": "error code", "event": "event kind", "value": "enum value"}[constant.kind]
        if not re.search(pattern, code):
            missing.append(f"{what} {constant.name}")
            continue
        if constant.name in ("SS_OK", "SS_REFUSED"):
            continue  # return values the binding turns into Ok / a flag, not names of their own
        if language == "Rust":
            if constant.camel not in names:
                missing.append(f"{what} {constant.name} has no variant {constant.camel}")
        else:
            if not any(re.fullmatch(rf"[A-Z]\w*{constant.camel}", name) for name in names):
                missing.append(f"{what} {constant.name} has no Go name ending in {constant.camel}")
    return missing


def check(root: Path) -> Dict[str, List[str]]:
    """Each binding's missing items, by binding name."""
    header = parse_header((root / HEADER).read_text())
    rust = sorted((root / "bindings" / "rust" / "src").rglob("*.rs"))
    go = sorted(p for p in (root / "bindings" / "go").glob("*.go") if not p.name.endswith("_test.go"))
    return {
        "python": missing_python(header, root),
        "rust": missing_c_like(header, rust, "Rust"),
        "go": missing_c_like(header, go, "Go"),
    }


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    header = parse_header((root / HEADER).read_text())
    print(f"soundstation.h: {len(header.functions)} functions, {len(header.constants)} constants, "
          f"structs {', '.join(header.structs)}")
    status = 0
    for binding, missing in check(root).items():
        print(f"{binding}: {'complete' if not missing else f'{len(missing)} missing'}")
        for item in missing:
            print(f"    {item}")
        status |= bool(missing)
    return status


if __name__ == "__main__":
    sys.exit(main())

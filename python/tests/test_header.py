"""The binding checked against soundstation.h, so that it cannot drift from the C library:

- every function of the header is declared, with its argument count and types (tests/test_header.py),
- every enum constant (error codes, event kinds, finish reasons, buses, loops, outputs, latencies,
  music points, filter types) has its IntEnum member with the same value,
- every error code raises its own exported SoundStationError subclass,
- every struct's size and every field's offset and size in ctypes are C's, as a C compiler lays them
  out (a small C program prints sizeof/offsetof of each field the header declares).

The header is the repository's (Sources/CSoundStation/include/soundstation.h) or $SOUNDSTATION_HEADER.
No library is needed.
"""

import ctypes
import os
import pathlib
import re
import shutil
import subprocess

import pytest

import soundstation
from soundstation import _library

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADER = pathlib.Path(os.environ.get("SOUNDSTATION_HEADER")
                      or ROOT / "Sources" / "CSoundStation" / "include" / "soundstation.h")


def header_text():
    if not HEADER.exists():
        pytest.skip(f"no header at {HEADER} (set SOUNDSTATION_HEADER)")
    text = HEADER.read_text()
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)  # comments out


def functions():
    """{name: (return type, [parameter types])} of every prototype in the header."""
    found = {}
    for match in re.finditer(r"^\s*([A-Za-z_][\w\s\*]*?)\b(ss_\w+)\s*\(([^)]*)\)\s*;", header_text(), re.M):
        returns, name, parameters = match.group(1).strip(), match.group(2), match.group(3).strip()
        if returns.startswith("typedef"):
            continue
        types = []
        if parameters not in ("", "void"):
            for parameter in parameters.split(","):
                parameter = " ".join(parameter.split())
                # the parameter's type: everything but its name (a function pointer type is named whole)
                types.append(re.sub(r"\s*\b\w+$", "", parameter) if not parameter.endswith("*") else parameter)
        found[name] = (returns, types)
    return found


def c_type(spelling):
    """The ctypes type the header's C type is passed as."""
    spelling = " ".join(spelling.replace("const ", "").split())
    pointers = spelling.count("*")
    base = spelling.replace("*", "").strip()
    if pointers == 0:
        scalars = {
            "int": ctypes.c_int, "float": ctypes.c_float, "double": ctypes.c_double, "size_t": ctypes.c_size_t,
            "ss_voice": ctypes.c_uint64, "void": None, "ss_progress_fn": _library.PROGRESS,
            # named enum types are passed as int
            "ss_bus": ctypes.c_int, "ss_filter_type": ctypes.c_int, "ss_result": ctypes.c_int,
            "ss_sample_format": ctypes.c_int,
        }
        return scalars[base]
    if base == "char" and pointers == 1:
        return ctypes.c_char_p
    if base == "char" and pointers == 2:
        return ctypes.POINTER(ctypes.c_char_p)
    if base == "ss_engine" and pointers == 1:
        return ctypes.c_void_p
    if base == "ss_engine" and pointers == 2:
        return ctypes.POINTER(ctypes.c_void_p)
    if base == "ss_stream" and pointers == 1:
        return ctypes.c_void_p
    if base == "ss_stream" and pointers == 2:
        return ctypes.POINTER(ctypes.c_void_p)
    if base == "void" and pointers == 1:
        return ctypes.c_void_p
    if base == "float" and pointers == 1:
        return ctypes.POINTER(ctypes.c_float)
    if base == "ss_voice" and pointers == 1:
        return ctypes.POINTER(ctypes.c_uint64)
    if base in _library.STRUCTS and pointers == 1:
        return ctypes.POINTER(_library.STRUCTS[base])
    raise AssertionError(f"test_header.py does not know the C type {spelling!r}: teach c_type")


def test_every_function_is_declared_with_the_headers_types():
    declared = _library.signatures()
    prototypes = functions()
    assert len(prototypes) >= 40, f"only {len(prototypes)} prototypes parsed from {HEADER}"
    missing = sorted(set(prototypes) - set(declared))
    extra = sorted(set(declared) - set(prototypes))
    assert not missing, f"functions of the header that the binding lacks: {missing}"
    assert not extra, f"functions the binding declares that the header lacks: {extra}"
    for name, (returns, parameters) in prototypes.items():
        restype, argtypes = declared[name]
        assert restype == c_type(returns), f"{name} returns {returns}, declared {restype}"
        assert len(argtypes) == len(parameters), f"{name} takes {len(parameters)} arguments, declared {len(argtypes)}"
        for index, (spelling, declared_type) in enumerate(zip(parameters, argtypes)):
            assert declared_type == c_type(spelling), f"{name} argument {index} is {spelling}, declared {declared_type}"


ENUMS = [  # prefix of the C constants -> the IntEnum holding them (longest prefixes first)
    ("SS_ERR_", soundstation.Result), ("SS_EVENT_", soundstation.EventType), ("SS_FINISH_", soundstation.FinishReason),
    ("SS_BUS_", soundstation.Bus), ("SS_LOOPS_", soundstation.Loops), ("SS_OUTPUT_", soundstation.Output),
    ("SS_LATENCY_", soundstation.Latency), ("SS_MUSIC_", soundstation.MusicPoint),
    ("SS_FILTER_", soundstation.FilterType), ("SS_SAMPLE_", soundstation.SampleFormat), ("SS_", soundstation.Result),
]


def constants():
    """{C name: value} of every enum constant of the header."""
    found = {}
    for body in re.findall(r"\benum\b[^{]*\{(.*?)\}", header_text(), re.S):
        for name, value in re.findall(r"\b(SS_\w+)\s*=\s*(-?\d+)", body):
            found[name] = int(value)
    return found


def test_every_enum_constant_has_its_member():
    found = constants()
    assert len(found) >= 40, f"only {len(found)} enum constants parsed"
    for name, value in found.items():
        prefix, kind = next((p, k) for p, k in ENUMS if name.startswith(p))
        member = name[len(prefix):]
        assert member in kind.__members__, f"{name} has no member {kind.__name__}.{member}"
        assert kind[member] == value, f"{kind.__name__}.{member} is {int(kind[member])}, the header says {value}"
    for kind in {kind for _, kind in ENUMS}:  # and nothing in the enums that the header lacks
        for member in kind:
            names = [prefix + member.name for prefix, k in ENUMS if k is kind]
            assert any(name in found for name in names), f"{kind.__name__}.{member.name} is not in the header ({names})"


def test_every_error_code_raises_its_own_exported_subclass():
    codes = [value for name, value in constants().items() if name.startswith("SS_ERR_")]
    assert len(codes) == 9
    classes = {soundstation.SoundStationError.for_code(code) for code in codes}
    assert len(classes) == len(codes), "two codes share an exception class"
    for cls in classes:
        assert cls is not soundstation.SoundStationError
        assert issubclass(cls, soundstation.SoundStationError)
        assert getattr(soundstation, cls.__name__) is cls and cls.__name__ in soundstation.__all__


def struct_fields():
    """{struct name: [field names]} of every struct the header defines."""
    found = {}
    for body, name in re.findall(r"typedef\s+struct\s+\w+\s*\{(.*?)\}\s*(\w+)\s*;", header_text(), re.S):
        fields = []
        for declaration in body.split(";"):
            declaration = " ".join(declaration.split())
            if declaration:
                fields.append(re.search(r"(\w+)\s*(\[\d+\])?$", declaration).group(1))
        found[name] = fields
    return found


def test_struct_layouts_match_c(tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler")
    structs = struct_fields()
    assert set(structs) == set(_library.STRUCTS), "the header's structs and the binding's differ"
    lines = ["#include <stdio.h>", "#include <stddef.h>", f'#include "{HEADER}"', "int main(void) {"]
    for name, fields in structs.items():
        lines.append(f'    printf("{name} sizeof %zu\\n", sizeof({name}));')
        for field in fields:
            lines.append(f'    printf("{name} {field} %zu %zu\\n", offsetof({name}, {field}), '
                         f'sizeof((({name} *)0)->{field}));')
    lines += ["    return 0;", "}"]
    source = tmp_path / "layout.c"
    source.write_text("\n".join(lines) + "\n")
    program = tmp_path / "layout"
    subprocess.run([compiler, "-std=c99", "-Wall", "-Werror", "-o", str(program), str(source)], check=True)
    printed = subprocess.run([str(program)], check=True, capture_output=True, text=True).stdout.splitlines()
    checked = 0
    for line in printed:
        parts = line.split()
        structure = _library.STRUCTS[parts[0]]
        if parts[1] == "sizeof":
            assert ctypes.sizeof(structure) == int(parts[2]), \
                f"sizeof({parts[0]}): C {parts[2]}, ctypes {ctypes.sizeof(structure)}"
        else:
            field = getattr(structure, parts[1], None)
            assert field is not None, f"{structure.__name__} lacks {parts[0]}.{parts[1]}"
            assert (field.offset, field.size) == (int(parts[2]), int(parts[3])), \
                f"{parts[0]}.{parts[1]}: C offset {parts[2]} size {parts[3]}, ctypes {field.offset} {field.size}"
        checked += 1
    for name, structure in _library.STRUCTS.items():  # nothing in ctypes that C lacks
        assert [field[0] for field in structure._fields_] == structs[name], f"{name}: fields in another order or extra"
    assert checked == sum(len(fields) + 1 for fields in structs.values())


def test_the_library_writes_no_byte_past_the_size_it_is_told():
    """What an older binding gets: ss_poll_event told a struct that ends before `text` (or before
    `voice`) fills that much and leaves every byte after it alone."""
    import soundstation.engine as engine_module

    lib = engine_module._c()
    with soundstation.Engine("offline:48000") as engine:
        engine.load_file("coin", os.path.join(os.path.dirname(__file__), "..", "..", "Assets", "Effects", "coin.wav"))
        for _ in range(2):
            engine.play("coin")
        engine.render(4800)
        for cut in (_library.Event.text.offset, _library.Event.voice.offset):
            length = ctypes.sizeof(_library.Event) + 64
            buffer = (ctypes.c_ubyte * length)(*([0xAA] * length))
            pointer = ctypes.cast(buffer, ctypes.POINTER(_library.Event))
            assert lib.ss_poll_event(engine._engine(), pointer, cut) == 1
            assert pointer.contents.type == soundstation.EventType.STARTED
            assert all(byte == 0xAA for byte in buffer[cut:]), f"bytes written past a struct of {cut}"

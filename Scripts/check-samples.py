#!/usr/bin/env python3
"""Type-checks every Swift code sample in the README, Docs/*.md and the DocC articles against the built modules.

Usage: Scripts/check-samples.py [BUILD_DIR]   (BUILD_DIR defaults to .build/debug; run `swift build` first)

A sample that declares tests, extensions or an entry point is checked as a file of its own; any other
sample is checked as the body of an async throwing function whose parameters name what the text around
it has already made (`engine`, `sound`, `bank`, ...; see GIVEN), so fragments check as written.
Exit status 1 names each sample that does not compile, with the compiler's message.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug"))

# What a fragment may use without making it: the names the README and articles use for them.
GIVEN = [
    ("engine", "AudioEngine"),
    ("sound", "SoundSystem"),
    ("system", "SoundSystem"),
    ("bank", "SoundBank"),
    ("catalogue", "Catalogue"),
    ("music", "MusicStation"),
    ("effects", "EffectStation"),
    ("voice", "VoiceHandle?"),
    ("clock", "MusicClock"),
    ("game", "inout Game"),
    ("input", "Input"),
    ("tick", "Int"),
]
# The game's own pieces the samples call, declared beside a fragment (a fragment that makes its own
# shadows them).
GAME = """
enum Music: String, SoundResource { case main, game }
enum Effect: String, SoundResource { case reward, coin, explosion, click, hit }
func flashScreen() {}
func moveEnemies() {}
"""
IMPORTS = ["Foundation", "SoundStation", "SoundStationTesting", "StarfallCore", "VoiceNotes", "Testing"]
FILE_SCOPE = re.compile(r"^(@Test|@Suite|@main|extension |struct \w+Tests)", re.M)


def samples():
    """(file, line, code) for every ```swift block."""
    files = [os.path.join(ROOT, "README.md")]
    docs = os.path.join(ROOT, "Docs")
    files += [os.path.join(docs, n) for n in sorted(os.listdir(docs)) if n.endswith(".md")]
    for folder, _, names in os.walk(os.path.join(ROOT, "Sources")):
        if folder.endswith(".docc"):
            files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    for path in files:
        lines = open(path, encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            if lines[i].strip() == "```swift":
                start = i + 1
                j = start
                while lines[j].strip() != "```":
                    j += 1
                yield os.path.relpath(path, ROOT), start + 1, "\n".join(lines[start:j])
                i = j
            i += 1


def wrap(code):
    """The sample as a compilable file."""
    body = [l for l in code.split("\n") if not re.match(r"\s*import \w+", l)]
    header = "".join(f"import {m}\n" for m in IMPORTS)
    if FILE_SCOPE.search(code):
        return header + "\n".join(body) + "\n"
    params = ", ".join(f"{n}: {t}" for n, t in GIVEN)
    indented = "\n".join("    " + l for l in body)
    return f"{header}{GAME}\nfunc sample({params}) async throws {{\n{indented}\n}}\n"


def main():
    # The C targets the build made module maps for, then the system libraries' own maps.
    # Every one found, so a C target added later needs no line here.
    sources = os.path.join(ROOT, "Sources")
    maps = sorted(
        os.path.join(BUILD, f"{m}.build/module.modulemap") if os.path.isdir(os.path.join(sources, m, "include"))
        else os.path.join(sources, m, "module.modulemap")
        for m in os.listdir(sources)
        if m.startswith("C") and (os.path.isdir(os.path.join(sources, m, "include"))
                                  or os.path.exists(os.path.join(sources, m, "module.modulemap"))))
    maps = [m for m in maps if os.path.exists(m)]
    # The system libraries' include folders, as SwiftPM finds them (pkg-config).
    packages = re.findall(r'pkgConfig: "([^"]+)"', open(os.path.join(ROOT, "Package.swift")).read())
    includes = subprocess.run(["pkg-config", "--cflags-only-I", *packages], capture_output=True, text=True)
    flags = ["-I", os.path.join(BUILD, "Modules"), "-Xcc", "-I/usr/include/AL"]
    for flag in includes.stdout.split():
        flags += ["-Xcc", flag]
    for m in maps:
        flags += ["-Xcc", f"-fmodule-map-file={m}"]
    failures = 0
    count = 0
    with tempfile.TemporaryDirectory() as work:
        for path, line, code in samples():
            count += 1
            source = os.path.join(work, f"sample{count}.swift")
            with open(source, "w") as f:
                f.write(wrap(code))
            result = subprocess.run(
                ["swiftc", "-typecheck", "-swift-version", "6", *flags, source],
                capture_output=True, text=True)
            if result.returncode != 0:
                failures += 1
                errors = [l for l in result.stderr.split("\n") if ": error:" in l][:3]
                print(f"{path}:{line}: sample does not compile")
                for e in errors:
                    print("    " + e.split(": error: ", 1)[1])
    print(f"{count - failures} of {count} Swift samples compile")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

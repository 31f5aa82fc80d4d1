#!/usr/bin/env python3
"""Copies the figures the tools wrote (Docs/generated/*.md) into the pages that show them.

A page shows a generated file between two markers, which this script rewrites and
Tests/E2E/test_docs.py compares with the file:

    <!-- BEGIN Docs/generated/bench.md (written by make bench; copied by Scripts/generated-docs.py) -->
    ...the file's text...
    <!-- END Docs/generated/bench.md -->

    Scripts/generated-docs.py update    rewrite every page's blocks from the files
    Scripts/generated-docs.py check     list the blocks that differ from their files; exit 1 if any
"""
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- BEGIN (Docs/generated/[\w.-]+)[^>]*-->\n)(.*?)(<!-- END \2 -->)", re.S)


def pages():
    return [REPO / "README.md", *sorted((REPO / "Docs").glob("*.md"))]


def blocks(text):
    """(generated file, the text the page holds for it) for every block of a page."""
    return [(match.group(2), match.group(3)) for match in BLOCK.finditer(text)]


def update():
    for page in pages():
        text = page.read_text()
        new = BLOCK.sub(lambda m: m.group(1) + (REPO / m.group(2)).read_text() + m.group(4), text)
        if new != text:
            page.write_text(new)
            print("generated-docs: updated %s" % page.relative_to(REPO))


def check():
    stale = []
    for page in pages():
        for name, shown in blocks(page.read_text()):
            if shown != (REPO / name).read_text():
                stale.append("%s's copy of %s" % (page.relative_to(REPO), name))
    for line in stale:
        print("generated-docs: %s differs from the file (Scripts/generated-docs.py update)" % line)
    return 1 if stale else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["update"]:
        update()
    elif sys.argv[1:] == ["check"]:
        sys.exit(check())
    else:
        sys.exit(__doc__)

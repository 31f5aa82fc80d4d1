"""The pages quote figures the tools measured: a page that disagrees with the measurement fails."""

import re

from e2e import REPO


def measured_sizes():
    """Stripped installed sizes in bytes, as Scripts/size.sh last wrote them."""
    sizes = {}
    for line in (REPO / "Docs" / "generated" / "sizes.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, value = line.split()
            sizes[name] = int(value)
    return sizes


def test_the_readme_quotes_the_measured_library_size():
    size = measured_sizes()["libsoundstation.so"]
    readme = (REPO / "README.md").read_text()
    quoted = re.findall(r"(\d+) MB C library", readme)
    assert quoted, "README.md no longer says how big the C library is"
    mib = round(size / 1048576)
    assert all(int(q) == mib for q in quoted), f"README.md says {quoted} MB, Scripts/size.sh measured {size} bytes ({mib} MiB)"


def test_the_pages_quote_no_other_library_size():
    size = measured_sizes()["libsoundstation.so"]
    mib = round(size / 1048576)
    for page in [REPO / "README.md", *sorted((REPO / "Docs").glob("*.md"))]:
        for match in re.finditer(r"(\d+(?:\.\d+)?) MB (?:C )?library", page.read_text()):
            assert round(float(match.group(1))) == mib, f"{page.name}: {match.group(0)!r}, measured {size} bytes"


def test_building_says_what_make_dist_installs():
    text = (REPO / "Docs" / "Building.md").read_text()
    dist = re.search(r"dist=\(([^)]*)\)", (REPO / "Scripts" / "install-deps.sh").read_text()).group(1).split()
    missing = [pkg for pkg in dist if pkg not in text]
    assert not missing, f"Docs/Building.md does not name {missing}, which make dist installs"

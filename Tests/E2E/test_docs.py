"""The pages quote figures the tools measured: a page that disagrees with the measurement fails."""

import json
import re
import subprocess
import sys

import pytest
from e2e import BIN, REPO

GENERATED = REPO / "Docs" / "generated"
BLOCK = re.compile(r"<!-- BEGIN (Docs/generated/[\w.-]+)[^>]*-->\n(.*?)<!-- END \1 -->", re.S)


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


def pages():
    return [REPO / "README.md", *sorted((REPO / "Docs").glob("*.md"))]


def test_the_pages_show_the_generated_files_as_written():
    """Every block a page copies from Docs/generated/ is that file's text (Scripts/generated-docs.py)."""
    stale = [f"{page.name}'s copy of {name}" for page in pages()
             for name, shown in BLOCK.findall(page.read_text()) if shown != (REPO / name).read_text()]
    assert not stale, f"{stale} differ from the files: run Scripts/generated-docs.py update"


def test_performance_shows_one_table_the_bench_wrote():
    text = (REPO / "Docs" / "Performance.md").read_text()
    blocks = [name for name, _ in BLOCK.findall(text)]
    assert blocks == ["Docs/generated/bench.md"], f"Docs/Performance.md copies {blocks}, not the bench's table alone"
    outside = BLOCK.sub("", text)
    rows = [line for line in outside.splitlines() if line.startswith("|")]
    assert not rows, f"Docs/Performance.md has table rows of its own, not from make bench: {rows[:3]}"


def test_the_bench_table_judges_each_row_against_its_target(tmp_path):
    """bench.py report --doc, on the JSON lines the bench programs print: each row's medians, ratio,
    target and met/MISSED, the machine's lines, and the rows the run left out."""
    lines = [
        {"case": "mix-16", "side": "engine", "unit": "ms CPU", "label": "16 voices", "samples": [1.0, 1.2, 1.1]},
        {"case": "mix-16", "side": "peer", "peer": "raw-openal", "unit": "ms CPU", "label": "C", "samples": [1.0, 1.0]},
        {"case": "mix-64", "side": "engine", "unit": "ms CPU", "label": "64 voices", "samples": [2.0]},
        {"case": "mix-64", "side": "peer", "peer": "raw-openal", "unit": "ms CPU", "label": "C", "samples": [2.0]},
        {"case": "latency-device-low", "side": "engine", "unit": "ms", "label": "low", "samples": [7.0, 8.0]},
        {"case": "latency-device-low", "side": "engine-variant", "peer": "soundstation-normal", "unit": "ms",
         "label": "normal", "samples": [20.0]},
    ]
    (tmp_path / "lines.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (tmp_path / "machine.txt").write_text("load average (1, 5, 15 min) at the start: 0.5 0.4 0.3\n")
    subprocess.run([sys.executable, REPO / "Benchmarks" / "Scripts" / "bench.py", "report", tmp_path / "lines.jsonl",
                    "--json", tmp_path / "r.json", "--markdown", tmp_path / "r.md", "--doc", tmp_path / "doc.md",
                    "--machine", tmp_path / "machine.txt"], check=True, capture_output=True, cwd=REPO)
    doc = (tmp_path / "doc.md").read_text()
    rows = {line.split(" | ")[0].strip("| `"): line for line in doc.splitlines() if line.startswith("| `")}
    assert set(rows) == {"mix-16", "mix-64", "latency-device-low"}, doc
    assert "1.10x" in rows["mix-16"] and rows["mix-16"].endswith("| ratio <= 1.05 | **MISSED** |"), rows["mix-16"]
    assert rows["mix-64"].endswith("| ratio <= 1.05 | met |"), rows["mix-64"]
    assert rows["latency-device-low"].endswith("| engine <= 12 | met |"), rows["latency-device-low"]
    assert "2 of 3 targets met" in doc and "load average (1, 5, 15 min) at the start: 0.5 0.4 0.3" in doc, doc
    assert "`mix-1` against raw-openal" in doc.split("Not measured in this run:")[1], doc


def generated_counts():
    """The counts Scripts/test-counts.sh wrote: {"Swift": N, "of which the catalogue's": N, "end to end": N}."""
    counts = {}
    for line in (GENERATED / "tests.md").read_text().splitlines():
        match = re.match(r"\| (Swift|of which the catalogue's|end to end) \([^)]*\) \| (\d+) \|", line)
        if match:
            counts[match.group(1)] = int(match.group(2))
    assert set(counts) == {"Swift", "of which the catalogue's", "end to end"}, "Docs/generated/tests.md lacks a count"
    return counts


def test_the_generated_test_counts_are_the_runners_counts():
    counts = generated_counts()
    collected = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                                "Tests/E2E"], cwd=REPO, capture_output=True, text=True)
    e2e = sum(1 for line in collected.stdout.splitlines() if "::" in line)
    # What `swift test list` runs, without SwiftPM: SwiftPM would wait for its lock on .build while
    # another swift command (make e2e's other lanes install the library with one) holds it.
    bundle = BIN / "SoundStationPackageTests.xctest"
    if not bundle.exists():
        pytest.skip(f"the Swift tests are not built in {BIN} (swift build --build-tests)")
    testing = subprocess.run([bundle, "--testing-library", "swift-testing", "--list-tests"], capture_output=True,
                             text=True, check=True)
    xctest = subprocess.run([bundle, "--list-tests"], capture_output=True, text=True, check=True)
    swift = sum(1 for line in testing.stdout.splitlines() if line.strip())
    swift += int(re.search(r"Listing (\d+) tests?", xctest.stdout).group(1))
    catalogue = sum(1 for line in testing.stdout.splitlines() + xctest.stdout.splitlines()
                    if re.match(r"SoundStationTests\.Catalogue[A-Za-z]*Tests/", line))
    listed = (counts["Swift"], counts["of which the catalogue's"], counts["end to end"])
    assert listed == (swift, catalogue, e2e), (
        f"Docs/generated/tests.md says {listed} (Swift, of which the catalogue's, end to end); the runners count "
        f"{(swift, catalogue, e2e)}: run Scripts/test-counts.sh")


def test_the_pages_quote_the_counted_tests():
    counts = generated_counts()
    words = {"Swift": "Swift", "end-to-end": "end to end", "pytest": "end to end", "e2e": "end to end"}
    wrong = []
    for page in pages():
        text = page.read_text()
        for match in re.finditer(r"(\d+) (Swift|end-to-end|pytest|e2e) tests", text):
            if int(match.group(1)) != counts[words[match.group(2)]]:
                wrong.append(f"{page.name}: {match.group(0)!r}")
        for match in re.finditer(r"Catalogue tests \((\d+) tests", text):
            if int(match.group(1)) != counts["of which the catalogue's"]:
                wrong.append(f"{page.name}: {match.group(0)!r}")
    assert not wrong, f"{wrong}; counted: {counts} (Docs/generated/tests.md)"

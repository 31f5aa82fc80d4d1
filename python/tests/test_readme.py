"""The README's Python example runs as written from a folder outside the repository: taken from
README.md (and checked to be Examples/Python/hello.py), written into a temporary folder, and run
there with the repository's Assets folder as its argument, with no sound server ("auto" then plays
into silence and says so in a notice)."""

import os
import pathlib
import re
import subprocess
import sys

from conftest import ASSETS

ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_example():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("\n### Python\n"):]
    section = section[:section.index("\n### ", 1)]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    return section, code


def test_the_readme_example_is_the_example_file():
    _, code = readme_example()
    assert code.rstrip() == (ROOT / "Examples" / "Python" / "hello.py").read_text().rstrip()


def test_the_readme_example_runs_outside_the_repository(tmp_path):
    section, code = readme_example()
    assert "hello.py" in section and "pip install" in section
    (tmp_path / "hello.py").write_text(code)
    package = str(pathlib.Path(__import__("soundstation").__file__).resolve().parents[1])
    environment = dict(os.environ, PYTHONPATH=package, PULSE_SERVER="unix:/nonexistent/pulse")
    environment.pop("XDG_RUNTIME_DIR", None)
    result = subprocess.run([sys.executable, "hello.py", ASSETS], cwd=tmp_path, env=environment,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "started reward" in lines, result.stdout
    assert "started main" in lines, result.stdout
    assert result.stderr == "", result.stderr

"""Packaging: `pip install .` ships one top-level package, tosa_xdsl (lowering and tools inside).

The wheel is what a non-editable install puts into site-packages; its file list shows which
top-level names we would add there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory) -> list[str]:
    out = tmp_path_factory.mktemp("wheel")
    src = tmp_path_factory.mktemp("src") / "tosa-xdsl"
    # Build from a copy so the build's egg-info/build dirs never touch the work tree.
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", "__pycache__", "Output", ".hypothesis"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(out), str(src)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    (wheel,) = out.glob("tosa_xdsl-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


def test_only_tosa_xdsl_is_installed_at_top_level(wheel_files):
    top = {name.split("/")[0] for name in wheel_files if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"tosa_xdsl"}


def test_lowering_and_tools_are_subpackages(wheel_files):
    assert "tosa_xdsl/tools/tosa_opt.py" in wheel_files
    assert "tosa_xdsl/tools/tosa_run.py" in wheel_files
    assert "tosa_xdsl/lowering/__init__.py" in wheel_files


def test_spec_data_is_shipped(wheel_files):
    assert "tosa_xdsl/spec_tables/operators.json" in wheel_files


def test_console_scripts(wheel_files):
    entry = next(n for n in wheel_files if n.endswith("entry_points.txt"))
    assert entry  # the scripts themselves are checked in tests/test_tosa_opt_cli.py


def test_our_tosa_opt_is_on_path_in_the_venv():
    script = Path(sys.executable).parent / "tosa-opt"
    assert script.exists()
    assert "tosa_xdsl.tools.tosa_opt" in script.read_text(errors="replace")

"""The progress line (tosa_xdsl/progress.py): on a terminal, tosa-run --backend jit, tosa-opt
and tosa-translate rewrite one line on stderr with the stage they are in, and erase it at the
end; with stderr not a terminal, or with --quiet, they print nothing extra."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from codegen_model import cli_files, model

from tosa_xdsl import progress

BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} not installed next to {sys.executable}")
    return str(path)


@pytest.fixture
def jit_run(tmp_path):
    files, _ = cli_files(tmp_path)
    return [tool("tosa-run"), *files, "--backend", "jit", "--no-cache"]


def on_terminal(argv: list[str]) -> tuple[int, bytes]:
    """Run with stderr on a pseudo-terminal (stdout to a pipe); what the terminal received."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    proc.communicate(timeout=60)
    os.close(master)
    return proc.returncode, seen


def test_tosa_run_jit_shows_its_stages_on_a_terminal(jit_run):
    code, seen = on_terminal(jit_run)
    assert code == 0, seen
    # (the JIT's lowering stops at the direct road, codegen/direct_llvm/: no convert-to-llvm)
    assert b"\r\x1b[Ktosa-run: lowering [" in seen and b"outline-loop-nests" in seen
    assert b"tosa-run: LLVM optimising" in seen and b"generating machine code" in seen
    assert seen.endswith(b"\r\x1b[K")  # the line is erased at the end
    assert b"\n" not in seen  # one line, rewritten in place


@pytest.mark.parametrize("quiet", [False, True])
def test_nothing_when_not_a_terminal_or_quiet(jit_run, quiet):
    argv = jit_run + (["--quiet"] if quiet else [])
    if quiet:
        code, seen = on_terminal(argv)
        assert code == 0 and seen == b"", seen
    else:
        proc = subprocess.run(argv, capture_output=True, timeout=240)
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr


def test_tosa_opt_and_translate_lowering_progress(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text(model())
    code, seen = on_terminal([tool("tosa-opt"), str(src), "-p", "tosa-to-llvm", "-o", str(tmp_path / "o.mlir")])
    assert code == 0 and b"tosa-opt: lowering [" in seen, seen
    code, seen = on_terminal([tool("tosa-opt"), str(src), "-p", "tosa-to-llvm", "--quiet", "-o", os.devnull])
    assert code == 0 and seen == b"", seen
    code, seen = on_terminal([tool("tosa-translate"), "--emit-shared-library", str(src), "-o", str(tmp_path / "m.so")])
    if code == 0:  # needs a linker; the progress line is what this test is about
        assert b"tosa-translate: LLVM" in seen, seen


def test_library_use_is_silent():
    """Outside `reporting` (tosa_xdsl used as a library) every report is a no-op."""
    assert not progress.active()
    progress.stage("lowering", "x", 1, 2)
    progress.fraction("lowering", "x", 1, 2)


def test_reporting_needs_a_terminal():
    stream = io.StringIO()  # not a tty
    with progress.reporting("t", stream=stream):
        assert not progress.active()
        progress.stage("lowering", "x", force=True)
    assert stream.getvalue() == ""


def test_an_error_starts_on_a_clean_line(tmp_path):
    """A diagnostic printed while the line is shown erases it first."""
    files, _ = cli_files(tmp_path, text=model().replace("tensor<1x5x3x4xi32>) -> tensor<1x5x3x4xi32> {",
                                   "tensor<1x5x3x4xi32>) -> tensor<1x5x3x4xi32> {\n"
                                   "  %u = tosa.custom %y {domain_name = \"d\", implementation_attrs = \"\", "
                                   "operator_name = \"unknown\"} : (tensor<1x5x3x4xi32>) -> tensor<1x5x3x4xi32>", 1))
    src = files[0]
    code, seen = on_terminal([tool("tosa-run"), *files, "--backend", "jit", "--no-cache"])
    assert code == 1, seen
    text = seen.decode(errors="replace")
    assert "error" in text
    before_error = text[: text.index(src)]
    assert before_error == "" or before_error.endswith("\r\x1b[K"), text

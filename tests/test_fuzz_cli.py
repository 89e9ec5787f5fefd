"""Robustness fuzzing of the `tosa-opt` driver: mutated and truncated operator snippets.

Every operator's valid lit snippets (tests/filecheck/{dialect,verify,validate}) are mutated
(types, integers, list lengths, enum/bool words - see tests/test_fuzz_ops.py), truncated at
a random point, or have a random character deleted / duplicated / inserted, and run through
`tosa-opt` in-process (`tosa_xdsl.tools.tosa_opt.main(argv)`) with a few option sets
(plain, `-p tosa-validate`, `--tosa-syntax=attr-dict`, `--print-op-generic --split-input-file`).

Properties: no Python traceback; the exit code is 0 or 1, and 1 exactly when an `error:`
diagnostic is printed; every stderr line is a diagnostic `FILE:LINE:COL: severity: message`
(or `<unknown>:0: ...`), or the source line and caret line echoed after one. An
`internal error:` diagnostic (the driver's wrapping of an unexpected exception) is a bug
unless the same text, checked in-process by test_fuzz_ops.parse_and_check, is one of its
KNOWN_FOREIGN_CRASHES.

A few subprocess runs check the installed entry point the same way (stdin, truncated input).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from test_fuzz_ops import (
    FUZZ_SETTINGS,
    MUTATIONS,
    OP_IDS,
    SPEC_OPS,
    parse_and_check,
    seeds_of,
)

from tosa_xdsl.tools.tosa_opt import main

HEADER = re.compile(r"^(?:.+:\d+:\d+|<unknown>:0): (error|warning|note|remark): .*$")
CARET = re.compile(r"^[ \t]*\^~*$")
OPTION_SETS = (
    [],
    ["-p", "tosa-validate"],
    ["--tosa-syntax=attr-dict"],
    ["--print-op-generic", "--split-input-file"],
)


def run_tosa_opt(text: str, options: list[str]) -> tuple[int, str, str, str]:
    """Run tosa-opt in-process on `text` (from a file); (exit code, stdout, stderr, path)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False, encoding="utf-8") as f:
        f.write(text)
        path = f.name
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([path, *options])
    finally:
        os.unlink(path)
    return code, out.getvalue(), err.getvalue(), path


def check_output(text: str, code: int, stderr: str, path: str) -> None:
    assert "Traceback" not in stderr, stderr
    assert code in (0, 1), (code, stderr)
    lines = stderr.splitlines()
    i, errors = 0, 0
    while i < len(lines):
        m = HEADER.match(lines[i])
        assert m, f"stderr line {i + 1} is not a diagnostic: {lines[i]!r}\n{stderr}\n--- input:\n{text}"
        assert lines[i].startswith((path + ":", "<unknown>:0:")), lines[i]
        errors += m.group(1) == "error"
        i += 1
        if ": note: see current operation:" in lines[i - 1]:
            # mlir-opt's printOpOnDiagnostic: the op's generic text, over several lines
            while i < len(lines) and not HEADER.match(lines[i]):
                i += 1
            continue
        if i + 1 < len(lines) and not HEADER.match(lines[i]) and CARET.match(lines[i + 1]):
            i += 2  # the echoed source line and its caret
    assert (code == 1) == (errors > 0), (code, stderr)
    if "error: internal error:" in stderr:
        # Only crashes outside our code (xDSL's parser, dense.py; see test_fuzz_ops) may get
        # here: the in-process check raises for any other.
        parse_and_check(text)


# -------------------------------------------------------------------------- mutations


def _truncate(draw, text: str) -> str:
    return text[: draw(st.integers(0, max(len(text) - 1, 0)))]


def _edit_char(draw, text: str) -> str:
    if not text:
        return text
    i = draw(st.integers(0, len(text) - 1))
    how = draw(st.integers(0, 2))
    if how == 0:
        return text[:i] + text[i + 1:]
    if how == 1:
        return text[:i] + text[i] + text[i:]
    return text[:i] + draw(st.sampled_from(list("()[]{}<>,:=%@^\"-x?*!#0\n"))) + text[i:]


def _duplicate_line(draw, text: str) -> str:
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines) - 1))
    return "\n".join(lines[: i + 1] + [lines[i]] + lines[i + 1:])


CLI_MUTATIONS = (*MUTATIONS, _truncate, _truncate, _edit_char, _edit_char, _duplicate_line)


@st.composite
def cli_inputs(draw, op_type: type) -> tuple[str, list[str]]:
    text = draw(st.sampled_from(seeds_of(op_type)))
    for _ in range(draw(st.integers(1, 3))):
        text = draw(st.sampled_from(CLI_MUTATIONS))(draw, text)
    return text, draw(st.sampled_from(OPTION_SETS))


# ------------------------------------------------------------------------------ tests


@pytest.mark.parametrize("op_type", SPEC_OPS, ids=OP_IDS)
@FUZZ_SETTINGS
@given(data=st.data())
def test_mutated_snippet_through_tosa_opt(op_type, data):
    text, options = data.draw(cli_inputs(op_type), label="input")
    code, _, stderr, path = run_tosa_opt(text, options)
    check_output(text, code, stderr, path)


# Inputs that crashed the driver (a traceback or an internal error) before the fix noted.
REGRESSIONS = [
    # syntax.py: an out-of-range array element in a keyword clause raised ValueError from
    # DenseArrayBase.from_list (-> "internal error: ValueError"); now a located parse error.
    ("func.func @main(%0: tensor<i1>) {\n"
     "  %1 = tosa.transpose %0 perms([-9223372036854775808]) : (tensor<i1>) -> tensor<i1>\n"
     "  func.return\n}\n", []),
    # syntax.py: the same for an int32 clause (VerifyException from IntegerAttr's constructor).
    ("func.func @main(%0: tensor<2xf32>) {\n"
     "  %1 = tosa.reduce_sum %0 axis(99999999999) : (tensor<2xf32>) -> tensor<1xf32>\n"
     "  func.return\n}\n", []),
]


@given(case=st.sampled_from(REGRESSIONS))
@FUZZ_SETTINGS
@example(case=REGRESSIONS[0])
@example(case=REGRESSIONS[1])
def test_regressions_through_tosa_opt(case):
    text, options = case
    code, _, stderr, path = run_tosa_opt(text, options)
    check_output(text, code, stderr, path)
    assert code == 1 and "internal error" not in stderr, stderr


def _entry_point() -> list[str] | None:
    exe = os.path.join(os.path.dirname(sys.executable), "tosa-opt")
    return [exe] if os.path.exists(exe) else None


@pytest.mark.skipif(_entry_point() is None, reason="tosa-opt entry point not installed")
@pytest.mark.parametrize("op_type", SPEC_OPS[:: 15], ids=OP_IDS[:: 15])
def test_truncated_snippet_through_installed_tosa_opt(op_type):
    """The installed script on stdin: truncated halfway, no traceback, exit 1, located errors."""
    text = seeds_of(op_type)[0]
    cut = text[: len(text) // 2]
    p = subprocess.run([*_entry_point(), "-", "-p", "tosa-validate"], input=cut, text=True,
                       capture_output=True, timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == 1, p.stderr
    assert HEADER.match(p.stderr.splitlines()[0]) and p.stderr.startswith("<stdin>:"), p.stderr

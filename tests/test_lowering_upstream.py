"""Upstream acceptance of the whole linalg stage: `tosa-to-linalg-pipeline` output, printed
generically (as `tosa-opt -p tosa-to-linalg-pipeline --print-op-generic` does), parses and
verifies in iree-opt (newest upstream MLIR) and in MLIR 22's mlir-opt, for one module per
operator x type row (the staged cases of tests/test_lowering_stages.py) and for the example
model (tests/test_lowering_example.py). All modules go to each tool in one
`--split-input-file` run; a failure names the module (its operator and row)."""

from __future__ import annotations

import re
import subprocess

import pytest

import cases_elementwise as E
from lowering_harness import lower
from test_lowering_stages import CASES, FRAGMENTS, LINALG
from tosa_xdsl.printing import print_ir

SPLIT = "\n// -----\n"


@pytest.fixture(scope="module")
def lowered_modules() -> list[tuple[str, str]]:
    """(what, generic text) per operator x type-row module."""
    out = []
    for op, subs in sorted(FRAGMENTS.items()):
        src, _ = E.batch(subs)
        out.append((f"{op} ({len(subs)} rows)", print_ir(lower(src, LINALG), style="generic")))
    for case in CASES:
        out.append((case.id, print_ir(lower(case.mlir, LINALG), style="generic")))
    return out


def _accepts(tool, modules: list[tuple[str, str]], tmp_path) -> None:
    path = tmp_path / "all.mlir"
    text = SPLIT.join(t for _, t in modules)
    path.write_text(text)
    proc = subprocess.run([str(tool), "--split-input-file", str(path), "-o", "/dev/null"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        # name the module of the first error: its line in the joined file -> chunk index
        m = re.search(r":(\d+):\d+: error", proc.stderr)
        where = "?"
        if m:
            before = "".join(text.splitlines(keepends=True)[: int(m.group(1)) - 1])
            where = modules[before.count("// -----")][0]
        pytest.fail(f"{tool.name} rejects the lowered module of {where}:\n{proc.stderr[:3000]}")


def test_iree_opt_accepts_every_operator(lowered_modules, iree_opt, tmp_path):
    _accepts(iree_opt, lowered_modules, tmp_path)


def test_mlir_opt_22_accepts_every_operator(lowered_modules, mlir_opt_22, tmp_path):
    _accepts(mlir_opt_22, lowered_modules, tmp_path)

"""Upstream acceptance, for one module per operator x type row (the staged cases of
tests/test_lowering_stages.py; the example model is in tests/test_lowering_example.py):

* the linalg stage: `tosa-to-linalg-pipeline` output, printed generically (as
  `tosa-opt -p tosa-to-linalg-pipeline --print-op-generic` does), parses and verifies in
  iree-opt (newest upstream MLIR) and in MLIR 22's mlir-opt;
* the loops: `tosa-to-loops` output goes through MLIR 22's standard lowering to the llvm
  dialect and `mlir-translate --mlir-to-llvmir`;
* the llvm stage: `tosa-to-llvm` output translates with `mlir-translate` directly.

All modules go to each tool in one `--split-input-file` run; a failure names the module (its
operator and row)."""

from __future__ import annotations

import re
import subprocess

import cases_elementwise as E
import pytest
from lowering_harness import lower
from test_lowering_stages import CASES, FRAGMENTS, LINALG

from tosa_xdsl.lowering.pipelines import LLVM_STAGE
from tosa_xdsl.printing import print_ir

SPLIT = "\n// -----\n"
FP8_ROW = re.compile(r"fp8")
UPSTREAM_TO_LLVM = ["--lower-affine", "--convert-scf-to-cf", "--expand-strided-metadata",
                    "--finalize-memref-to-llvm", "--convert-to-llvm", "--reconcile-unrealized-casts"]


def _sources() -> list[tuple[str, str]]:
    """One module per operator's fragments (fp8 rows in a module of their own, see FP8 below)
    and one per graph case."""
    out = []
    for op, subs in sorted(FRAGMENTS.items()):
        fp8 = [s for s in subs if FP8_ROW.search(s.row)]
        rest = [s for s in subs if s not in fp8]
        for part, tag in ((rest, ""), (fp8, " fp8")):
            if part:
                out.append((f"{op}{tag} ({len(part)} rows)", E.batch(part)[0]))
    return out + [(case.id, case.mlir) for case in CASES]


def _lowered(pipeline: str) -> list[tuple[str, str]]:
    """(what, generic text) per operator x type-row module."""
    return [(what, print_ir(lower(src, pipeline), style="generic")) for what, src in _sources()]


@pytest.fixture(scope="module")
def loop_modules():
    """(what, module) after tosa-to-loops, lowered once for both the loop and the llvm test."""
    return [(what, lower(src, "tosa-to-loops{validation=false}")) for what, src in _sources()]


@pytest.fixture(scope="module")
def lowered_modules() -> list[tuple[str, str]]:
    return _lowered(LINALG)


def _accepts(tool, modules: list[tuple[str, str]], tmp_path, *args: str) -> str:
    """Run `tool --split-input-file ARGS` on all modules; its stdout."""
    path = tmp_path / "all.mlir"
    text = SPLIT.join(t for _, t in modules)
    path.write_text(text)
    proc = subprocess.run([str(tool), "--split-input-file", *args, str(path)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        # name the module of the first error: its line in the joined file -> chunk index
        m = re.search(r":(\d+):\d+: error", proc.stderr)
        where = "?"
        if m:
            before = "".join(text.splitlines(keepends=True)[: int(m.group(1)) - 1])
            where = modules[before.count("// -----")][0]
        pytest.fail(f"{tool.name} rejects the lowered module of {where}:\n{proc.stderr[:3000]}")
    return proc.stdout


def test_iree_opt_accepts_every_operator(lowered_modules, iree_opt, tmp_path):
    _accepts(iree_opt, lowered_modules, tmp_path)


def test_mlir_opt_22_accepts_every_operator(lowered_modules, mlir_opt_22, tmp_path):
    _accepts(mlir_opt_22, lowered_modules, tmp_path)


# MLIR 22's standard passes lower every module, fp8 and ERF rows included: tosa-to-loops ends
# with arith-emulate-fp8, which leaves no arith/math op on an f8E4M3FN/f8E5M2 value (LLVM has
# no such types and MLIR's arith-to-llvm no CPU emulation for them; memory and signatures keep
# their fp8 types, which MLIR's type converter stores as i8), and convert-math-to-libm, which
# turns math.erf (no LLVM lowering) into a call to erff.
FP8 = re.compile(r"f8E4M3FN|f8E5M2")


def _f8_arith_left(module) -> list[str]:
    """arith/math ops (other than bitcast/select) that still take or give an fp8 value."""
    return sorted({op.name for op in module.walk()
                   if op.name.split(".")[0] in ("arith", "math")
                   and op.name not in ("arith.bitcast", "arith.select")
                   and any(FP8.search(str(v.type)) for v in (*op.operands, *op.results))})


def test_mlir_22_lowers_and_translates_our_loops(mlir_opt_22, loop_modules, tmp_path):
    translate = mlir_opt_22.with_name("mlir-translate")
    loops = [(what, print_ir(m, style="generic")) for what, m in loop_modules]
    assert any(FP8.search(t) for _, t in loops), "no fp8 module: the fp8 rows are not covered"
    assert any("@erff" in t for _, t in loops), "no ERF module: the libm call is not covered"
    left = {w: _f8_arith_left(m) for w, m in loop_modules if _f8_arith_left(m)}
    assert not left, f"arith/math on fp8 left after tosa-to-loops: {left}"
    assert not any("math.erf" in t for _, t in loops)
    # the command line, every module at once
    llvm_dialect = _accepts(mlir_opt_22, loops, tmp_path, *UPSTREAM_TO_LLVM)
    chunks = llvm_dialect.split("// -----")
    assert len(chunks) == len(loops)
    _accepts(translate, list(zip([w for w, _ in loops], chunks)), tmp_path, "--mlir-to-llvmir")


def test_mlir_22_translates_our_llvm_dialect(mlir_opt_22, loop_modules, tmp_path):
    """tosa-to-llvm = tosa-to-loops + the LLVM stage, continued here from the loop modules."""
    translate = mlir_opt_22.with_name("mlir-translate")
    rest = ",".join(LLVM_STAGE)
    llvm = [(what, print_ir(lower(m.clone(), rest), style="generic")) for what, m in loop_modules]
    _accepts(translate, llvm, tmp_path, "--mlir-to-llvmir")


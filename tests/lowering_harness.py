"""What every lowering test does: parse a TOSA module, lower it with a pass pipeline (as
`tosa-opt -p` would), run both forms in the interpreter on the same inputs, and say which
TOSA ops a pass left behind. Expected values always come from the TOSA-level run (whose
interpreter is itself checked against Arm's reference model in tests/differential)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline

from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter import run
from tosa_xdsl.pass_registry import all_passes


def parse(src: str) -> ModuleOp:
    module = Parser(make_context(), src).parse_module()
    module.verify()
    return module


def lower(src_or_module: str | ModuleOp, pipeline: str) -> ModuleOp:
    """`pipeline` in tosa-opt's -p syntax; the result is verified."""
    module = parse(src_or_module) if isinstance(src_or_module, str) else src_or_module
    PassPipeline.parse_spec(all_passes(), pipeline).apply(make_context(), module)
    module.verify()
    return module


def tosa_ops_left(module: ModuleOp) -> list[str]:
    return sorted({op.name for op in module.walk() if op.name.startswith("tosa.")})


def run_both(src: str, pipeline: str, inputs: Sequence[np.ndarray], *, entry: str = "main",
             allow_unpredictable: bool = True) -> tuple[list, list, ModuleOp]:
    """(TOSA-level results, lowered results, the lowered module)."""
    want = run(parse(src), inputs, entry, allow_unpredictable=allow_unpredictable)
    lowered = lower(src, pipeline)
    got = run(lowered, inputs, entry, allow_unpredictable=allow_unpredictable)
    return want, got, lowered


def bits_equal(a: np.ndarray, b: np.ndarray, pm0: bool = False) -> np.ndarray:
    """Elementwise: integers equal; floats equal bit for bit (any NaN matches any NaN; with
    pm0, +0.0 matches -0.0)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "iub":
        return a.astype(np.int64) == b.astype(np.int64)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    same = (a64 == b64) | (np.isnan(a64) & np.isnan(b64))
    if not pm0:
        same &= np.signbit(a64) == np.signbit(b64)
    return same


def assert_same(got: Sequence, want: Sequence, what: str = "", pm0: bool = False) -> None:
    assert len(got) == len(want), (len(got), len(want))
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (what, k, g.shape, w.shape, g.dtype, w.dtype)
        ok = bits_equal(g, w, pm0)
        if not ok.all():
            i = tuple(np.argwhere(~ok)[0])
            raise AssertionError(f"{what} result {k}: {int((~ok).sum())} mismatches, first at {list(i)}: "
                                 f"lowered {g[i]!r} TOSA {w[i]!r}")

"""convert-math-to-libm: a math.erf replaced by a call to erff/erf computes the same bits in
the interpreter (so every stage stays comparable bit for bit), for every float type the
lowering emits; and a module without a math op it handles is left alone."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse

from tosa_xdsl.interpreter import run

ERF = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<64x{t}>) -> tensor<64x{t}> {{
  %e = tensor.empty() : tensor<64x{t}>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}}
      ins(%a : tensor<64x{t}>) outs(%e : tensor<64x{t}>) {{
  ^bb0(%x: {t}, %o: {t}):
    %v = math.erf %x : {t}
    linalg.yield %v : {t}
  }} -> tensor<64x{t}>
  return %r : tensor<64x{t}>
}}
"""
DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}


@pytest.mark.parametrize("t", sorted(DTYPES))
def test_erf_call_equals_math_erf(t):
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.standard_normal(56) * 3, [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 6.0, -6.0]])
    x = x.astype(DTYPES[t])
    src = ERF.format(t=t)
    lowered = lower(src, "convert-math-to-libm")
    text = str(lowered)
    assert "math.erf" not in text and ("@erf(" if t == "f64" else "@erff(") in text
    assert_same(run(lowered, [x]), run(parse(src), [x]), f"erf {t}")


def test_other_math_is_left_alone():
    src = ERF.format(t="f32").replace("math.erf", "math.tanh")
    assert "func.call" not in str(lower(src, "convert-math-to-libm"))

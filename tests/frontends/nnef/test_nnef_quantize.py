"""@quantize blocks (draft 2.14): a tensor with quantization info is replaced, where it is
defined (graph inputs and variables on entry, intermediates where assigned), by the result of
its quantization operator; the quant.* operators are the draft's fake quantization (4.6). The
expected values are numpy computations of the definitions' formulas (round to nearest even,
as TOSA's CAST and road 2's math.roundeven)."""

from __future__ import annotations

import numpy as np
import pytest

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(214)


def zero_point_ref(x, zp, scale, bits=8, signed=True, symmetric=False, axis=1):
    r = 2 ** (bits - 1) - 1 if signed else 2 ** bits - 1
    m = 0 if not signed else (-r if symmetric else -r - 1)
    shape = [1] * x.ndim
    shape[axis] = -1
    zp, scale = np.reshape(zp, shape if np.ndim(zp) else ()), np.reshape(scale, shape if np.ndim(scale) else ())
    return (np.clip(zp + np.rint(x / scale), m, r) - zp) * scale


def min_max_ref(x, lo, hi, bits=8, signed=True, symmetric=False):
    r = 2 ** bits - 1 - int(signed and symmetric)
    span = np.float32(hi) - np.float32(lo)
    q = np.rint((np.clip(x, lo, hi) - lo) / span * r)
    return q / r * span + lo


GRAPH = """import nn; import quant; import math; import layout;
graph G {
  @input { x: real[2,3,4]; }
  @variable { w: real[3]; }
  @output { y: real[2,3,4]; }
  @compose { a = math.mul{rhs_align=1}(x, w); y = nn.relu(a); }
  @quantize {
    x: quant.zero_point_linear_quantize{zero_point=0, scale=0.1, bits=8};
    w: quant.zero_point_linear_quantize{zero_point=0, scale=0.02, bits=8, symmetric=true, channel_axis=0};
    a: quant.zero_point_linear_quantize{zero_point=[10, 0, -5], scale=[0.05, 0.1, 0.025], bits=8};
  }
}
"""


@pytest.mark.parametrize("lower_all", [False, True])
def test_graph_inputs_variables_and_intermediates_are_quantized(lower_all):
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    w = RNG.standard_normal(3).astype(np.float32)
    module = import_nnef(GRAPH, variables={"w": w}, lower_all=lower_all, fake_quant=True)
    (y,) = run(module, [x], entry="G")
    xq = zero_point_ref(x, 0, 0.1)
    wq = zero_point_ref(w, 0, 0.02, symmetric=True, axis=0)
    a = zero_point_ref(xq * wq.reshape(1, 3, 1), [10, 0, -5], [0.05, 0.1, 0.025])
    np.testing.assert_allclose(y, np.maximum(a, 0), rtol=1e-5, atol=1e-6)


def test_min_max_quantization_of_an_output():
    src = """import quant; import math;
graph G {
  @input { x: real[5,2]; }
  @output { y: real[5,2]; }
  @compose { y = math.exp(x); }
  @quantize { y: quant.min_max_linear_quantize{min=0.0, max=4.0, bits=4, signed=false}; }
}
"""
    x = RNG.standard_normal((5, 2)).astype(np.float32)
    (y,) = run(import_nnef(src), [x], entry="G")
    np.testing.assert_allclose(y, min_max_ref(np.exp(x), 0.0, 4.0, bits=4, signed=False), rtol=1e-5, atol=1e-6)


def test_quantization_inside_a_user_operator():
    src = """import quant; import math;
operator scaled {
  @input { x: real[n]; }
  @output { y: real[n]; }
  @compose { t = math.mul(x, 0.3); y = math.add(t, 1.0); }
  @quantize { t: quant.zero_point_linear_quantize{zero_point=0, scale=0.125, bits=4, channel_axis=0}; }
}
graph G { @input { x: real[6]; } @output { y: real[6]; } @compose { y = scaled(x); } }
"""
    x = (RNG.standard_normal(6) * 3).astype(np.float32)
    (y,) = run(import_nnef(src), [x], entry="G")
    np.testing.assert_allclose(y, zero_point_ref(x * np.float32(0.3), 0, 0.125, bits=4, axis=0) + 1, rtol=1e-5)


@pytest.mark.parametrize("entry,message", [
    ("q: quant.zero_point_linear_quantize{zero_point=0, scale=0.1, bits=8};", "does not declare"),
    (("x: quant.zero_point_linear_quantize{zero_point=0, scale=0.1, bits=8};\n"
      "    x: quant.zero_point_linear_quantize{zero_point=0, scale=0.2, bits=8};"), "quantized twice"),
    ("n.t: quant.zero_point_linear_quantize{zero_point=0, scale=0.1, bits=8};", "no invocation in 'G' is labelled 'n'"),
    ("x: quant.zero_point_linear_quantize{zero_point=0, scale=-0.1, bits=8};", "scale must be positive"),
    ("x: quant.no_such_operator{bits=8};", "no_such_operator"),
    ("x: math.add;", "math.add"),
])
def test_bad_quantization_entries_are_located_errors(entry, message):
    src = f"""import quant; import math;
graph G {{
  @input {{ x: real[2,2]; }}
  @output {{ y: real[2,2]; }}
  @compose {{ y = math.exp(x); }}
  @quantize {{
    {entry}
  }}
}}
"""
    with pytest.raises(NnefError, match=r":\d+:\d+: error: ") as info:
        import_nnef(src, file="q.sknd")
    assert message in str(info.value)

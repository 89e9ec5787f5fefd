"""image.linear_upsample, whose text the draft garbles and stdlib/extract.py repairs from
Khronos' NNEF-Tools v2.0 library (the filter's `* ..,` and the target's `[i[axes] <- ..]`),
compiled from its formulas (a @constant filter defined per index, a deconvolution-like
`+=` at summed output positions): against onnxruntime's Resize linear (symmetric with
replicated border = half_pixel, asymmetric with replicated border = asymmetric) and numpy
from the formulas; and @constant blocks with index symbols (draft 2.7)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_nnef_gaps import run_both
from test_nnef_intrinsics import ort

from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(77)


def src(shape, axes, factor, symmetric, replicate):
    flag = {True: "true", False: "false"}
    return (f"import image;\ngraph G {{ @input {{ x: real[{','.join(map(str, shape))}]; }} @output {{ y: real; }}\n"
            f" @compose {{ y = image.linear_upsample{{axes={list(axes)}, factor={list(factor)}, "
            f"symmetric={flag[symmetric]}, replicate_border={flag[replicate]}}}(x); }} }}\n")


def upsample_ref(x, axes, factor, symmetric, replicate):
    """numpy from the formulas, one axis at a time (the filter is a product over the axes):
    out[f*i + j - padding] += in[i'] * filter[j], with i' = clamp(i - c) over s + c + 1
    positions when the border is replicated, else i over s (out-of-range targets skipped)."""
    y = x.astype(np.float64)
    for a, f in zip(axes, factor):
        s = y.shape[a]
        fs = 2 * f - f % 2 if symmetric else 2 * f - 1
        pad = (f + f // 2 if replicate else f // 2) if symmetric else f - 1
        off = 0.5 if symmetric and f % 2 == 0 else 1.0
        c = int(symmetric)
        filt = 1.0 - np.abs(np.arange(fs) - f + off) / f
        n_in = s + c + 1 if replicate else s
        m = np.zeros((f * s, s))
        for i in range(n_in):
            src_i = min(max(i - c, 0), s - 1) if replicate else i
            for j in range(fs):
                o = f * i + j - pad
                if 0 <= o < f * s:
                    m[o, src_i] += filt[j]
        y = np.moveaxis(np.tensordot(m, np.moveaxis(y, a, 0), axes=1), 0, a)
    return y


@pytest.mark.parametrize("symmetric", [True, False])
@pytest.mark.parametrize("replicate", [True, False])
@pytest.mark.parametrize("factor", [2, 3])
def test_linear_upsample(symmetric, replicate, factor):
    x = RNG.standard_normal((1, 1, 3, 4)).astype(np.float32)
    y = run(import_nnef(src(x.shape, [2, 3], [factor, factor], symmetric, replicate)), [x], entry="G")[0]
    np.testing.assert_allclose(y, upsample_ref(x, [2, 3], [factor] * 2, symmetric, replicate), rtol=1e-5, atol=1e-6)
    if replicate:
        mode = "half_pixel" if symmetric else "asymmetric"
        (want,) = ort("Resize", {"x": x, "r": np.zeros(0, np.float32), "s": np.array([1, 1, factor, factor], np.float32)},
                      mode="linear", coordinate_transformation_mode=mode)
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


def test_linear_upsample_one_axis_natively(tmp_path):
    """Unequal factors over some axes (here one), interpreter and JIT."""
    x = RNG.standard_normal((2, 5, 3)).astype(np.float32)
    (yi,), (yj,) = run_both(tmp_path, src(x.shape, [1], [4], True, True), [x])
    want = upsample_ref(x, [1], [4], True, True)
    np.testing.assert_allclose(yi, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(yj, want, rtol=1e-5, atol=1e-6)
    y = run(import_nnef(src((1, 1, 2, 3), [2, 3], [2, 3], False, True)), [x[:1, :2, :3].reshape(1, 1, 2, 3)],
            entry="G")[0]
    np.testing.assert_allclose(y, upsample_ref(x[:1, :2, :3].reshape(1, 1, 2, 3), [2, 3], [2, 3], False, True),
                               rtol=1e-5, atol=1e-6)


IDENTITY = """import math;
operator eye_add {{
    @attrib {{ n: int; }}
    @input {{ a: real[n,n]; }}
    @output {{ b: real[n,n]; }}
    @constant {{ I: real[n,n] = i == j ? 1.0 : 0.0, i < n, j < n; }}
    @compose {{ b = math.add(a, I); }}
}}
graph G {{ @input {{ a: real[3,3]; }} @output {{ b: real; }} @compose {{ b = eye_add{{n=3}}(a); }} }}
"""


@pytest.mark.parametrize("lower_all", [False, True])
def test_constant_with_index_symbols(lower_all):
    """The draft's identity-matrix constant (2.7: `I: real[n,n] = i == j ? 1.0 : 0.0, i < n,
    j < n`) in a composite operator."""
    a = RNG.standard_normal((3, 3)).astype(np.float32)
    b = run(import_nnef(IDENTITY.format(), lower_all=lower_all), [a], entry="G")[0]
    np.testing.assert_array_equal(b, a + np.eye(3, dtype=np.float32))


@pytest.mark.parametrize("decl,message", [
    ("I: real[n,n] = i == j ? 1.0 : 0.0, i < n, j < n + 1;", "differ from its shape"),
    ("I: real[n,n] = q ? 1.0 : 0.0, i < n, j < n;", "undefined identifier 'q'"),
])
def test_bad_indexed_constants_are_located(decl, message):
    from tosa_xdsl.frontends.nnef.errors import NnefError
    text = IDENTITY.format().replace("I: real[n,n] = i == j ? 1.0 : 0.0, i < n, j < n;", decl)
    with pytest.raises(NnefError, match=rf"^\S+:\d+:\d+: error: .*{message}"):
        import_nnef(text)

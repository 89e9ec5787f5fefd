"""Every committed test model: our TOSA, run in our interpreter, against LiteRT.

Floats within 1e-5 (relative) / 1e-5 (absolute); integers exact except where TFLite's
kernels round differently from TOSA's RESCALE, which is off by one LSB and counted per
model in KNOWN_LSB (docs/tflite.md explains each). Models whose operators have no
legalization yet must fail with a diagnostic naming the operator (never a leftover op).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ai_edge_litert")
pytest.importorskip("tflite")

from tflite_oracle import MODELS, inputs_for, run_litert  # noqa: E402
from tosa_xdsl.frontends.tflite import import_tflite  # noqa: E402
from tosa_xdsl.frontends.tflite.legalize import TflLegalizeError  # noqa: E402
from tosa_xdsl.interpreter import run  # noqa: E402

# model -> number of elements off by one LSB (never more than one)
KNOWN_LSB = {
    "average_pool_2d.int8": 1,  # TFLite rounds the average half away from zero, TOSA AVG_POOL2D's rescale differs
    "fully_connected.int16x8": 1,  # int16: TOSA rescales i48 with a 16-bit multiplier, TFLite with a 32-bit one
    "sum.int8": 1,  # TFLite's sum kernel derives its multiplier/shift differently from compute_scale_32
    "sqrt.int8": 9,
    "conv_2d_valid_dilated.int8": 1,  # TFLite's optimized dilated int8 conv (its reference kernel agrees with us)
    "leaky_relu.int8": 1,  # TFLite computes leaky_relu in fixed point, we use a TABLE of the rounded function  # TFLite's int8 SQRT computes in its own fixed point, we use a TABLE of rounded sqrt
}

# Models where TFLite's kernels disagree with each other: the oracle used instead of the
# builtin kernels. while.int8 (4 requantizing iterations) gives three different results
# with LiteRT's AUTO (XNNPACK), builtin and reference kernels (up to 3 LSB apart); ours
# equals AUTO, LiteRT's default, exactly.
ORACLE = {"while.int8": "AUTO"}

# model -> the operator its diagnostic must name
UNSUPPORTED = {
    "softmax.int16x8": "tfl.softmax",
    "net_attention.int16x8": "tfl.softmax",
    "logistic.int16x8": "tfl.logistic",
    "tanh.int16x8": "tfl.tanh",
    "exp.int16x8": "tfl.exp",
    "gelu.int16x8": "tfl.gelu",
    "gelu_approximate.int16x8": "tfl.gelu",
    "leaky_relu.int16x8": "tfl.leaky_relu",
    "log.int16x8": "tfl.abs",
    "rsqrt.int16x8": "tfl.abs",
    "div.int8": "tfl.div",
    "log_softmax.int8": "tfl.log_softmax",
    "resize_bilinear.int8": "tfl.resize_bilinear",
    "resize_bilinear.int16x8": "tfl.resize_bilinear",
    "resize_nearest_neighbor.int8": "tfl.resize_nearest_neighbor",
    "resize_nearest_neighbor.int16x8": "tfl.resize_nearest_neighbor",
}

PATHS = sorted(MODELS.glob("*.tflite"))


def _unsupported(stem: str) -> str | None:
    for key, op in UNSUPPORTED.items():
        if stem == key or stem.startswith(key + "."):
            return op
    return None


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_model_matches_litert(path):
    stem = path.stem
    op = _unsupported(stem)
    if op is not None:
        with pytest.raises(TflLegalizeError) as e:
            import_tflite(path.read_bytes(), None, path.name)
        assert f"'{op}'" in str(e.value) and str(e.value).startswith(f"{path.name}: error: ")
        return
    module = import_tflite(path.read_bytes(), None, path.name)
    module.verify()
    assert not any(o.name.startswith("tfl.") for o in module.walk())
    xs = inputs_for(path)
    expected = run_litert(path, xs, ORACLE.get(stem, "BUILTIN_WITHOUT_DEFAULT_DELEGATES"))
    # uint8 at the boundary: TOSA tensors are i8 bit patterns read as unsigned by RESCALE
    got = run(module, [x.view(np.int8) if x.dtype == np.uint8 else x for x in xs])
    got = [np.asarray(g).view(np.uint8) if e.dtype == np.uint8 else g for e, g in zip(expected, got)]
    off = 0
    for e, g in zip(expected, got, strict=True):
        g = np.asarray(g)
        assert g.shape == e.shape
        if e.dtype.kind == "f":
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)
        else:
            d = np.abs(g.astype(np.int64) - e.astype(np.int64))
            assert d.max(initial=0) <= 1, f"{stem}: off by {d.max()} LSB"
            off += int((d > 0).sum())
    assert off == KNOWN_LSB.get(stem, 0), f"{stem}: {off} elements off by one LSB"

"""Integer forms of @quantize for the operators beyond conv/linear/add (to_tosa/
integer_functions.py, integer_layout.py), their limits, label.tensor entries and
quantized values around cond_if / while_loop regions.

Oracles: LiteRT's builtin kernels on the Khronos-converted TFLite models (every one of the 256
int8 levels through the TABLE functions), otherwise numpy computations of the definitions'
formulas (dequantize, compute in reals, quantize), within the 1 LSB by which RESCALE's fixed
point rounding may differ from rounding the real quotient."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import AnyFloat

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

HERE = Path(__file__).parent
TFLITE = HERE.parent / "tflite"
sys.path.insert(0, str(TFLITE))
from tflite_oracle import inputs_for, run_litert


def names(module) -> set[str]:
    return {op.name for op in module.walk()}


def integer_only(module) -> bool:
    return not [op.name for op in module.walk() for r in op.results
                if isinstance(getattr(r.type, "element_type", None), AnyFloat)]


@pytest.mark.parametrize("model", ["logistic.int8", "tanh.int8", "exp.int8", "leaky_relu.int8"])
def test_element_wise_functions_equal_litert_on_every_int8_level(model):
    """The 256-entry TABLE (TFLite's LUT: dequantize, the function in reals, requantize,
    saturate) and leaky relu's two RESCALEs against LiteRT's builtin kernel for every input level."""
    module = import_nnef(HERE / "models" / model)
    assert ("tosa.select" if model == "leaky_relu.int8" else "tosa.table") in names(module)
    assert integer_only(module)
    tfl = TFLITE / "models" / f"{model}.tflite"
    shape = inputs_for(tfl, 0)[0].shape
    n = int(np.prod(shape))
    levels = np.arange(-128, 128, dtype=np.int64)
    for start in range(0, 256, n):
        x = np.resize(np.roll(levels, -start), n).astype(np.int8).reshape(shape)
        (got,) = run(module, [x], entry="main")
        np.testing.assert_array_equal(got, run_litert(tfl, [x])[0])


def test_softmax_int8_equals_litert_on_extreme_rows():
    """Rows of equal values, a single maximum, the full range, and ramps: the Q16 exp table
    and the one rounded INTDIV per element are TFLite's int8 softmax."""
    module = import_nnef(HERE / "models" / "softmax.int8")
    assert {"tosa.gather", "tosa.intdiv"} <= names(module) and integer_only(module)
    tfl = TFLITE / "models" / "softmax.int8.tflite"
    rows = [np.full(10, 7), np.r_[127, np.full(9, -128)], np.linspace(-128, 127, 10).round(),
            np.arange(10) * 3 - 50, np.full(10, -128), np.r_[np.full(9, 127), -128]]
    for a, b in zip(rows[::2], rows[1::2]):
        x = np.stack([a, b]).astype(np.int8)
        (got,) = run(module, [x], entry="main")
        np.testing.assert_array_equal(got, run_litert(tfl, [x])[0])


def test_fake_quant_keeps_softmax_a_composite_in_reals():
    """`fake_quant=True`: nn.softmax expands from its @compose (no integer form is kept whole)
    and computes in reals; dequantized and requantized it is within 1 LSB of LiteRT."""
    folder = HERE / "models" / "softmax.int8"
    module = import_nnef(folder, fake_quant=True)
    assert not {"tosa.gather", "tosa.rescale"} & names(module) and "tosa.exp" in names(module)
    tfl = TFLITE / "models" / "softmax.int8.tflite"
    xs = inputs_for(tfl, 2)
    x_real = (xs[0].astype(np.float32) + 1) * np.float32(0.015661615878343582)
    (y,) = run(module, [x_real], entry="main")
    q = np.rint(y / np.float32(0.00390625)) - 128
    assert np.abs(q - run_litert(tfl, xs)[0]).max() <= 1


def zp_quant(x, zp, scale, bits=8):
    r = 2 ** (bits - 1) - 1
    return np.clip(zp + np.rint(np.asarray(x, np.float64) / scale), -r - 1, r)


def graph(inputs, outputs, compose, quantize, operators=""):
    return (f"import nn; import quant; import math; import layout; import image;\n{operators}\n"
            f"graph G {{\n  @input {{ {inputs} }}\n  @output {{ {outputs} }}\n  @compose {{ {compose} }}\n"
            f"  @quantize {{\n{quantize}\n  }}\n}}\n")


def entry(name, zp, scale, bits=8, axis=0):
    scale = scale if isinstance(scale, str) else repr(scale)
    return f"    {name}: quant.zero_point_linear_quantize{{zero_point={zp}, scale={scale}, bits={bits}, " \
           f"channel_axis={axis}}};"


def test_per_channel_output_is_one_per_channel_rescale():
    """x per tensor -> relu -> y with a scale per channel (axis 1): one RESCALE with a
    multiplier per channel (per_channel = true), then the clamp at the zero point."""
    scales = [0.01, 0.02, 0.05]
    src = graph("x: real[2,3];", "y: real[2,3];", "y = nn.relu(x);",
                entry("x", 0, 0.04) + "\n" + entry("y", -128, str(scales), axis=1))
    module = import_nnef(src)
    assert integer_only(module) and "per_channel(true)" in str(module)
    xq = np.array([[-100, 3, 60], [127, -5, 20]], np.int8)
    (y,) = run(module, [xq], entry="G")
    ref = zp_quant(np.maximum(xq * 0.04, 0), -128, np.array(scales))
    assert np.abs(y - ref).max() <= 1


def test_per_channel_relu_with_max_computes_in_reals():
    """relu{max} on per-channel scales would need a clamp bound per channel (TOSA CLAMP has
    one): the relu computes in reals between the quantized tensors, as the definitions say."""
    scales = "[0.01, 0.02, 0.05]"
    src = graph("x: real[2,3];", "y: real[2,3];", "y = nn.relu{max=1.0}(x);",
                entry("x", -128, scales, axis=1) + "\n" + entry("y", -128, scales, axis=1))
    module = import_nnef(src)
    assert not integer_only(module)
    xq = np.array([[-100, 3, 60], [127, -5, 20]], np.int8)
    (y,) = run(module, [xq], entry="G")
    s = np.array([0.01, 0.02, 0.05])
    ref = zp_quant(np.clip((xq + 128.0) * s, 0, 1), -128, s)
    assert y.dtype == np.int8 and np.abs(y - ref).max() <= 1


def test_conv_of_16_bit_activations_accumulates_in_i48():
    """nn.conv of i16 activations and i8 weights: TOSA CONV2D i16 x i8 -> i48, one RESCALE
    with a 16-bit multiplier (scale32 = false for i48) to the i16 output."""
    src = graph("x: real[1,2,5,5];", "y: real[1,3,5,5];", "y = nn.conv(x, w);",
                entry("x", 0, 0.001, 16) + "\n" + entry("w", 0, 0.02) + "\n" + entry("y", 0, 0.004, 16),
                ).replace("@compose", "@variable { w: real[3,2,3,3]; }\n  @compose")
    rng = np.random.default_rng(8)
    wq = rng.integers(-127, 128, (3, 2, 3, 3)).astype(np.int8)
    module = import_nnef(src, variables={"w": wq})
    assert integer_only(module) and "xi48>" in str(module) and "scale32(false)" in str(module)
    xq = rng.integers(-32768, 32768, (1, 2, 5, 5)).astype(np.int16)
    (y,) = run(module, [xq], entry="G")
    xp = np.pad(xq[0].astype(np.int64), [(0, 0), (1, 1), (1, 1)])      # the default (same) padding, zero point 0
    acc = np.zeros((1, 3, 5, 5), np.int64)
    for i in range(5):
        for j in range(5):
            acc[0, :, i, j] = np.einsum("chw,ochw->o", xp[:, i:i + 3, j:j + 3], wq.astype(np.int64))
    ref = zp_quant(acc * 0.001 * 0.02, 0, 0.004, 16)
    assert y.dtype == np.int16 and np.abs(y - ref).max() <= 1


def test_linear_of_16_bit_activations_with_a_bias_computes_in_reals():
    """A bias of 16-bit activations would be an i48 operand, which nn.linear's MATMUL has no
    place for (TOSA ADD takes no i48): the operator computes in reals between the quantized
    tensors."""
    src = graph("x: real[2,4];", "y: real[2,3];", "y = nn.linear(x, w, b);",
                entry("x", 0, 0.001, 16) + "\n" + entry("w", 0, 0.02) + "\n" + entry("b", 0, 0.00002, 32) +
                "\n" + entry("y", 0, 0.004, 16)).replace("@compose", "@variable { w: real[3,4]; b: real[3]; }\n  @compose")
    rng = np.random.default_rng(9)
    wq = rng.integers(-127, 128, (3, 4)).astype(np.int8)
    bq = rng.integers(-5000, 5000, 3).astype(np.int32)
    module = import_nnef(src, variables={"w": wq, "b": bq})
    assert not integer_only(module)
    xq = rng.integers(-32768, 32768, (2, 4)).astype(np.int16)
    (y,) = run(module, [xq], entry="G")
    ref = zp_quant(xq * 0.001 @ (wq * 0.02).T + bq * 0.00002, 0, 0.004, 16)
    assert y.dtype == np.int16 and np.abs(y - ref).max() <= 1


def test_softmax_whose_output_scale_is_not_1_over_k_is_expanded_in_reals():
    """The integer softmax divides into units of 1/K: an output scale 0.003 has none, so the
    composite expands (max, exp, sum, div in reals) between the quantized tensors."""
    src = graph("x: real[2,5];", "y: real[2,5];", "y = nn.softmax{axes=[1]}(x);",
                entry("x", 0, 0.05) + "\n" + entry("y", -128, 0.003))
    module = import_nnef(src)
    assert "tosa.gather" not in names(module) and "tosa.exp" in names(module)
    xq = np.random.default_rng(10).integers(-128, 128, (2, 5)).astype(np.int8)
    (y,) = run(module, [xq], entry="G")
    e = np.exp(xq * 0.05 - (xq * 0.05).max(axis=1, keepdims=True))
    ref = zp_quant(e / e.sum(axis=1, keepdims=True), -128, 0.003)
    assert np.abs(y - ref).max() <= 1


def test_softmax_along_a_middle_axis_and_mean_keeping_axes():
    """Softmax along axis 1 of a rank-3 tensor (transposed last and back) and mean_reduce over
    two axes: integers only, within 1 LSB of the formulas."""
    src = graph("x: real[2,6,3];", "y: real[2,6,3]; m: real[2,1,1];",
                "y = nn.softmax{axes=[1]}(x); m = math.mean_reduce{axes=[1, 2]}(x);",
                entry("x", 5, 0.04) + "\n" + entry("y", -128, 1 / 256) + "\n" + entry("m", -3, 0.02))
    module = import_nnef(src)
    assert integer_only(module) and {"tosa.gather", "tosa.reduce_sum"} <= names(module)
    xq = np.random.default_rng(11).integers(-128, 128, (2, 6, 3)).astype(np.int8)
    y, m = run(module, [xq], entry="G")
    xr = (xq - 5.0) * 0.04
    e = np.exp(xr - xr.max(axis=1, keepdims=True))
    assert np.abs(y - zp_quant(e / e.sum(axis=1, keepdims=True), -128, 1 / 256)).max() <= 1
    assert np.abs(m - zp_quant(xr.mean(axis=(1, 2), keepdims=True), -3, 0.02)).max() <= 1


def test_pad_uses_the_zero_point_and_a_value_input_computes_in_reals():
    """CONSTANT padding of quantized values pads with the zero point (the real 0); an explicit
    `value` input is a real tensor the integer form does not take (reals, then requantized)."""
    q = entry("x", 7, 0.1) + "\n" + entry("y", 7, 0.1)
    module = import_nnef(graph("x: real[2,3];", "y: real[4,4];", "y = layout.pad{padding=[1, 0, 1, 1]}(x);", q))
    assert integer_only(module)
    xq = np.arange(6, dtype=np.int8).reshape(2, 3) * 20
    (y,) = run(module, [xq], entry="G")
    np.testing.assert_array_equal(y, np.pad(xq, [(1, 1), (0, 1)], constant_values=7))
    src = graph("x: real[2,3];", "y: real[4,4];", "y = layout.pad{padding=[1, 0, 1, 1]}(x, 0.5);", q)
    module = import_nnef(src)
    assert not integer_only(module)
    (y,) = run(module, [xq], entry="G")
    np.testing.assert_array_equal(y, np.pad(xq, [(1, 1), (0, 1)], constant_values=12))


def test_leaky_relu_with_a_max():
    """max(x, alpha x) with relu{max}: two RESCALEs and a SELECT, then the output clamps at
    max, within 1 LSB of the formula."""
    src = graph("x: real[2,4];", "y: real[2,4];", "y = nn.relu{alpha=0.25, max=1.5}(x);",
                entry("x", 10, 0.02) + "\n" + entry("y", -20, 0.03))
    module = import_nnef(src)
    assert integer_only(module) and "tosa.select" in names(module)
    xq = np.array([[-128, -60, 0, 10], [11, 50, 100, 127]], np.int8)
    (y,) = run(module, [xq], entry="G")
    xr = (xq - 10.0) * 0.02
    ref = zp_quant(np.minimum(np.maximum(xr, 0.25 * xr), 1.5), -20, 0.03)
    assert np.abs(y - ref).max() <= 1


LABELLED = """
operator block {
  @input { x: real[s..]; }
  @output { y: real[s..]; }
  @compose { h = math.exp(x); y = nn.relu(h); }
}"""


def test_label_tensor_entry_quantizes_the_tensor_inside_the_invocation():
    """`b1.h` names h inside the invocation labelled b1: h is quantized where block defines it,
    so exp is a TABLE and the relu a RESCALE + clamp (integers only)."""
    q = entry("x", 0, 0.02) + "\n" + entry("b1.h", -128, 0.03) + "\n" + entry("y", -128, 0.02)
    module = import_nnef(graph("x: real[2,3];", "y: real[2,3];", "y = b1: block(x);", q, LABELLED))
    assert integer_only(module) and "tosa.table" in names(module)
    xq = np.arange(-3, 3, dtype=np.int8).reshape(2, 3) * 40
    (y,) = run(module, [xq], entry="G")
    h = zp_quant(np.exp(xq * 0.02), -128, 0.03)
    ref = zp_quant(np.maximum((h + 128) * 0.03, 0), -128, 0.02)
    assert np.abs(y - ref).max() <= 1
    without = import_nnef(graph("x: real[2,3];", "y: real[2,3];", "y = b1: block(x);",
                                entry("x", 0, 0.02) + "\n" + entry("y", -128, 0.02), LABELLED))
    assert "tosa.table" not in names(without)     # h then stays real: exp computes in reals


@pytest.mark.parametrize("name,compose,message", [
    ("b2.h", "y = b1: block(x);", "no invocation in 'G' is labelled 'b2'"),
    ("b1.zz", "y = b1: block(x);", "'b1.zz', which 'main.block' does not declare"),
    ("r.t", "y = r: nn.relu(x);", "a tensor inside 'nn.relu', which has no @compose"),
])
def test_bad_label_tensor_entries_are_located_errors(name, compose, message):
    q = entry("x", 0, 0.02) + "\n" + entry(name, -128, 0.03)
    with pytest.raises(NnefError, match=r"g\.sknd:\d+:\d+: error: ") as info:
        import_nnef(graph("x: real[2,3];", "y: real[2,3];", compose, q, LABELLED), file="g.sknd")
    assert message in str(info.value)


REGIONS = graph("x: real[4]; b: real[4]; lim: real[];", "y: real[4]; q: real[4];",
                "g = math.gt(x, b); c = math.any_reduce{axes=[0], squeeze=true}(g);\n"
                "    y = if c then nn.relu(x) else { d = math.add(x, b); yield d; };\n"
                "    q = with s = x while { m = math.max_reduce{axes=[0], squeeze=true}(s); k = math.lt(m, lim); "
                "yield k; } do math.add(s, b);",
                entry("x", 3, 0.05) + "\n" + entry("b", -2, 0.03) + "\n" + entry("y", -10, 0.04) + "\n" +
                entry("q", 0, 0.1))


def test_quantized_values_cross_cond_if_and_while_loop_as_reals():
    """Values enter the regions dequantized and leave them as reals (both branches and every
    iteration have one type; their quantizations could differ), and the results' entries
    quantize them after (a branch result's entry was not applied before)."""
    module = import_nnef(REGIONS)
    assert {"tosa.cond_if", "tosa.while_loop"} <= names(module)
    for xv, bv, lim in (([1, 2, 3, 4], [0, 5, 5, 5], 1.0), ([1, -2, 3, -4], [4, 5, 6, 7], 0.5)):
        xq, bq = np.array(xv, np.int8) * 5, np.array(bv, np.int8) * 7
        y, q = run(module, [xq, bq, np.array(lim, np.float32)], entry="G")
        assert y.dtype == q.dtype == np.int8
        xr, br = ((xq - 3) * np.float32(0.05)).astype(np.float32), ((bq + 2) * np.float32(0.03)).astype(np.float32)
        ref_y = np.maximum(xr, 0) if (xr > br).any() else xr + br
        s = xr
        while s.max() < lim:
            s = s + br
        assert np.abs(y - zp_quant(ref_y, -10, 0.04)).max() <= 1
        assert np.abs(q - zp_quant(s, 0, 0.1)).max() <= 1


def _edited(tmp_path, model, old, new, count=1):
    import shutil

    folder = tmp_path / model
    shutil.copytree(HERE / "models" / model, folder)
    text = (folder / "main.sknd").read_text()
    block = text.index("@quantize")
    (folder / "main.sknd").write_text(text[:block] + text[block:].replace(old, new, count))
    return folder


def test_fuzz_findings_are_diagnostics_or_reals(tmp_path):
    """Found by seeded mutation of the @quantize blocks: 33 quantization bits (levels beyond
    i32) were an invalid module, now a located error at the entry; a scale of inf gave an
    OverflowError computing the RESCALE multiplier, and i8 weights with a zero point were
    cast to i16 for MATMUL (which takes zero points of i8 only): both now compute in reals."""
    with pytest.raises(NnefError, match=r"main\.sknd:\d+:\d+: error: quantization to 33 signed bits"):
        import_nnef(_edited(tmp_path, "tanh.int16x8", "bits=16", "bits=33"))
    folder = _edited(tmp_path, "fully_connected.int16x8", "nn_linear1: quant.zero_point_linear_quantize{zero_point=0, "
                     "scale=0.00022450120013672858", "nn_linear1: quant.zero_point_linear_quantize{zero_point=0, scale=inf")
    import_nnef(folder).verify()
    tfl = TFLITE / "models" / "fully_connected.int16x8.tflite"
    xs = inputs_for(tfl, 0)
    (tmp_path / "zp").mkdir()
    folder = _edited(tmp_path / "zp", "fully_connected.int16x8", "zero_point=[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]", "zero_point=0")
    module = import_nnef(folder)
    assert integer_only(module)
    (y,) = run(module, xs, entry="main")
    assert np.abs(y.astype(np.int32) - run_litert(tfl, xs)[0]).max() <= 1
    (tmp_path / "zp1").mkdir()
    module = import_nnef(_edited(tmp_path / "zp1", "fully_connected.int16x8", "zero_point=[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]",
                                 "zero_point=-1"))
    assert not integer_only(module) and "tosa.matmul" in names(module)


def test_prelu_is_two_rescales_and_a_select():
    """nn.prelu with a quantized alpha per channel (axis 1): TFLite's int8 prelu kernel, within
    1 LSB of the formula (x < 0 ? alpha * x : x)."""
    src = graph("x: real[2,3,2];", "y: real[2,3,2];", "y = nn.prelu(x, a);",
                entry("x", 4, 0.05) + "\n" + entry("a", -100, 0.002) + "\n" + entry("y", 9, 0.03),
                ).replace("@compose", "@variable { a: real[3]; }\n  @compose")
    aq = np.array([-128, 0, 120], np.int8)
    module = import_nnef(src, variables={"a": aq})
    assert integer_only(module) and "tosa.select" in names(module)
    xq = np.random.default_rng(12).integers(-128, 128, (2, 3, 2)).astype(np.int8)
    (y,) = run(module, [xq], entry="G")
    xr, ar = (xq - 4.0) * 0.05, ((aq + 100.0) * 0.002).reshape(1, 3, 1)
    assert np.abs(y - zp_quant(np.where(xr < 0, ar * xr, xr), 9, 0.03)).max() <= 1


def test_label_tensor_entries_keep_an_inner_softmax_whole():
    """An entry on a tensor inside the labelled invocation may be the result of a composite
    with an integer form (nn.softmax inside `block2`): it is kept whole for it there."""
    ops = """
operator block2 {
  @input { x: real[s..]; }
  @output { y: real[s..]; }
  @compose { h = nn.softmax{axes=[1]}(x); y = nn.relu(h); }
}"""
    q = entry("x", 0, 0.05) + "\n" + entry("b.h", -128, 1 / 256) + "\n" + entry("y", -128, 1 / 256)
    module = import_nnef(graph("x: real[2,5];", "y: real[2,5];", "y = b: block2(x);", q, ops))
    assert integer_only(module) and "tosa.gather" in names(module)
    xq = np.random.default_rng(13).integers(-128, 128, (2, 5)).astype(np.int8)
    (y,) = run(module, [xq], entry="G")
    e = np.exp(xq * 0.05 - (xq * 0.05).max(axis=1, keepdims=True))
    assert np.abs(y - zp_quant(e / e.sum(axis=1, keepdims=True), -128, 1 / 256)).max() <= 1

"""@quantize as integer TOSA (to_tosa/integer.py).

Real models written by someone else: the int8 TFLite test models conv_2d.int8 (conv + relu,
per-channel weights) and net_mobilenet.int8 (conv, depthwise conv, relu6, residual add,
average pool, reshape, fully connected) converted to SkriptND by Khronos' tflite -> sknd
converter (convert_models.py, run by hand; it prints the converter's quantization parameters
as the @quantize block its writer omits). The import computes on integers only, and its int8
outputs equal LiteRT's (its builtin kernels, the TFLite frontend's oracle) bit for bit.
Small graphs check the mixed path (operators without an integer form dequantize, compute in
reals and requantize) against numpy computations of the definitions' formulas.
test_nnef_quantized_forms.py checks the integer forms of the other operators further."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import AnyFloat

from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

HERE = Path(__file__).parent
TFLITE = HERE.parent / "tflite"
sys.path.insert(0, str(TFLITE))
from tflite_oracle import inputs_for, run_litert

# The TFLite tests' int8 (and 16x8) models converted by Khronos' converter (models/<name>/):
# computed on integers only, equal to LiteRT's builtin kernels except where listed in
# KNOWN_LSB: (elements that differ over the seeds below, by at most this many LSB), each
# where TFLite's kernel computes differently from the integer TOSA form:
INTEGER_MODELS = ["conv_2d.int8", "net_mobilenet.int8", "depthwise_conv_2d.int8", "fully_connected.int8",
                  "add.int8", "sub.int8", "mul.int8", "maximum.int8", "relu.int8", "average_pool_2d.int8",
                  "max_pool_2d.int8", "concatenation.int8", "reshape.int8", "transpose.int8", "squeeze.int8",
                  "expand_dims.int8", "slice.int8",
                  # integer forms of to_tosa/integer_functions.py and integer_layout.py
                  "softmax.int8", "logistic.int8", "pad.int8", "mean.int8", "leaky_relu.int8", "tanh.int8",
                  "exp.int8", "log.int8", "resize_nearest_neighbor.int8", "resize_bilinear.int8", "sum.int8",
                  "reduce_max.int8", "rsqrt.int8", "sqrt.int8", "abs.int8", "minimum.int8", "mirror_pad.int8",
                  "tile.int8",
                  "fully_connected.int16x8", "add.int16x8", "mean.int16x8", "leaky_relu.int16x8", "pad.int16x8",
                  "max_pool_2d.int16x8", "resize_nearest_neighbor.int16x8", "logistic.int16x8", "tanh.int16x8",
                  "softmax.int16x8"]
KNOWN_LSB = {
    # TFLite's int8 bilinear kernel weighs with 10-bit fixed-point fractions; RESIZE's
    # weights are exact (scale_n units) and the one RESCALE rounds once
    "resize_bilinear.int8": (61, 1),
    # TFLite's sum kernel derives its multiplier and shift otherwise than compute_scale_32
    "sum.int8": (7, 1),
    # TFLite's int8 SQRT computes in its own fixed point; the TABLE holds the rounded sqrt
    "sqrt.int8": (25, 1),
    # i48 accumulators: TOSA RESCALEs them with a 16-bit multiplier (scale32 = false, its
    # ERROR_IF), TFLite with a 32-bit one
    "fully_connected.int16x8": (1, 1),
    # int16 functions: TOSA's interpolated 513-entry TABLE vs TFLite's own int16 kernels
    # (logistic/tanh: fixed-point polynomials; softmax: its exp and 1/(1+x) LUTs, ours a TABLE
    # exp and one rounded INTDIV); the TFLite frontend's forms, with the same differences
    "logistic.int16x8": (32, 1),
    "tanh.int16x8": (44, 2),
    "softmax.int16x8": (24, 2),
}
SEEDS = (0, 1, 2, 3)


def integer_only(module) -> bool:
    return not [op.name for op in module.walk() for r in op.results
                if isinstance(getattr(r.type, "element_type", None), AnyFloat)]


@pytest.mark.parametrize("model", INTEGER_MODELS)
def test_quantized_tflite_model_via_khronos_matches_litert(model):
    module = import_nnef(HERE / "models" / model)
    names = {op.name for op in module.walk()}
    assert "linalg.generic" not in names
    assert integer_only(module)
    if model in ("conv_2d.int8", "net_mobilenet.int8"):
        assert {"tosa.rescale", "tosa.conv2d"} <= names
    tfl = TFLITE / "models" / f"{model}.tflite"
    off = worst = 0
    for seed in SEEDS:
        xs = inputs_for(tfl, seed)
        got = run(module, xs, entry="main")
        for g, e in zip(got, run_litert(tfl, xs)):
            assert g.dtype == e.dtype and e.dtype in (np.int8, np.int16) and g.shape == e.shape
            d = np.abs(g.astype(np.int32) - e.astype(np.int32))
            off, worst = off + int((d > 0).sum()), max(worst, int(d.max()))
    assert (off, worst) == KNOWN_LSB.get(model, (0, 0))


def test_fake_quant_import_of_the_same_model_stays_real():
    """`fake_quant=True`: the definitions' fake quantization (reals); dequantized, it agrees
    with LiteRT within 1 LSB (float rounding of the requantization vs RESCALE's fixed point)."""
    folder = HERE / "models" / "conv_2d.int8"
    module = import_nnef(folder, fake_quant=True)
    assert "tosa.rescale" not in {op.name for op in module.walk()}
    tfl = TFLITE / "models" / "conv_2d.int8.tflite"
    xs = inputs_for(tfl, 0)
    x_real = (xs[0].astype(np.float32) + 1) * np.float32(0.01568404957652092)     # the input's @quantize
    (y,) = run(module, [x_real], entry="main")
    (ref,) = run_litert(tfl, xs)
    q = np.rint(y / np.float32(0.0434088297188282)) - 128
    assert np.abs(q - ref).max() <= 1


def zp_quant(x, zp, scale, bits=8, symmetric=False):
    r = 2 ** (bits - 1) - 1
    return np.clip(zp + np.rint(x / scale), -r if symmetric else -r - 1, r)


MIXED = """import nn; import quant; import math;
graph G {
  @input { x: real[2,6]; }
  @output { y: real[2,6]; }
  @compose { e = math.sqr(x); y = nn.relu{max=2.0}(e); }
  @quantize {
    x: quant.zero_point_linear_quantize{zero_point=3, scale=0.02, bits=8, channel_axis=0};
    e: quant.zero_point_linear_quantize{zero_point=-100, scale=0.015, bits=8, channel_axis=0};
    y: quant.zero_point_linear_quantize{zero_point=-128, scale=0.01, bits=8, channel_axis=0};
  }
}
"""


def test_operator_without_integer_form_computes_in_reals_between_quantized_tensors():
    """math.sqr has no integer form: its input is dequantized, sqr runs in reals and the
    result is requantized as e's entry says; the relu then requantizes to y (RESCALE) and clamps."""
    module = import_nnef(MIXED)
    names = {op.name for op in module.walk()}
    assert {"tosa.mul", "tosa.cast", "tosa.rescale", "tosa.clamp"} <= names
    xq = np.random.default_rng(3).integers(-128, 128, (2, 6)).astype(np.int8)
    (y,) = run(module, [xq], entry="G")
    assert y.dtype == np.int8
    xr = (xq.astype(np.float32) - 3) * np.float32(0.02)
    # the quantization multiplies by the reciprocal of the scale (quant.py: 1 ulp from x / scale)
    e = np.clip(-100 + np.rint(xr * xr * np.float32(1 / 0.015)), -128, 127)
    # relu{max=2}: e rescaled to y's parameters (round to nearest), clamped to [0, 2] there
    # (0.015 / 0.01 as a 32-bit RESCALE multiplier is 1.5 exactly; in doubles 1.4999999999999998)
    ref = np.clip(np.floor((e + 100) * 1.5 + 0.5) - 128, -128, -128 + 200)
    np.testing.assert_array_equal(y, ref)


def test_unsigned_16_bit_and_per_channel_zero_points_stay_fake_quantized():
    """Tensors integer TOSA cannot hold (u16, several zero points) keep the fake
    quantization in reals."""
    src = """import nn; import quant;
graph G {
  @input { x: real[2,3]; }
  @output { y: real[2,3]; }
  @compose { y = nn.relu(x); }
  @quantize {
    x: quant.zero_point_linear_quantize{zero_point=[1, 2, 3], scale=0.1, bits=8, channel_axis=1};
    y: quant.zero_point_linear_quantize{zero_point=0, scale=0.1, bits=16, signed=false, channel_axis=1};
  }
}
"""
    module = import_nnef(src)
    assert "tosa.rescale" not in {op.name for op in module.walk()}
    x = np.random.default_rng(4).uniform(-2, 2, (2, 3)).astype(np.float32)
    (y,) = run(module, [x], entry="G")
    xq = (zp_quant(x, np.array([1, 2, 3]), 0.1) - [1, 2, 3]) * np.float32(0.1)
    ref = np.clip(np.rint(np.maximum(xq, 0) / 0.1), 0, 65535) * np.float32(0.1)
    np.testing.assert_allclose(y, ref, rtol=1e-6, atol=1e-6)


def test_real_variable_data_is_quantized_at_import():
    """A quantized variable given in reals is stored quantized (round half to even, clamp);
    integer data under a real declaration is taken as the storage (Khronos' files)."""
    src = """import nn; import quant;
graph G {
  @input { x: real[1,4]; }
  @variable { w: real[3,4]; }
  @output { y: real[1,3]; }
  @compose { y = nn.linear(x, w); }
  @quantize {
    x: quant.zero_point_linear_quantize{zero_point=0, scale=0.05, bits=8, channel_axis=0};
    w: quant.zero_point_linear_quantize{zero_point=0, scale=[0.01, 0.02, 0.04], bits=8, symmetric=true, channel_axis=0};
    y: quant.zero_point_linear_quantize{zero_point=-10, scale=0.1, bits=8, channel_axis=0};
  }
}
"""
    rng = np.random.default_rng(5)
    w = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
    xq = rng.integers(-128, 128, (1, 4)).astype(np.int8)
    wq = zp_quant(w, 0, np.array([[0.01], [0.02], [0.04]]), symmetric=True)
    acc = xq.astype(np.int64) @ wq.T.astype(np.int64)
    ref = np.clip(np.floor(acc * 0.05 * np.array([0.01, 0.02, 0.04]) / 0.1 + 0.5) - 10, -128, 127)
    for data in (w, wq.astype(np.int8)):
        module = import_nnef(src, variables={"w": data})
        assert "tosa.matmul" in {op.name for op in module.walk()}
        (y,) = run(module, [xq], entry="G")
        np.testing.assert_array_equal(y, ref)


def test_tools_import_integer_by_default_and_fake_quant_on_request(tmp_path, capsys):
    from tosa_xdsl.tools import tosa_run, tosa_translate

    folder = HERE / "models" / "conv_2d.int8"
    for flags, rescales in (([], True), (["--nnef-fake-quant"], False)):
        out = tmp_path / "m.mlir"
        assert tosa_translate.main(["--import-nnef", str(folder), "-o", str(out)] + flags) == 0
        assert ("tosa.rescale" in out.read_text()) == rescales
    tfl = TFLITE / "models" / "conv_2d.int8.tflite"
    xs = inputs_for(tfl, 4)
    np.save(tmp_path / "x.npy", xs[0])
    args = [str(folder / "main.sknd"), "-i", str(tmp_path / "x.npy"), "-o", str(tmp_path / "y.npy"), "--entry", "main"]
    assert tosa_run.main(args) == 0, capsys.readouterr().err
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), run_litert(tfl, xs)[0])


@pytest.mark.parametrize("model", ["add.uint8io", "conv_2d.uint8io"])
def test_uint8_io_model_takes_and_gives_uint8(tmp_path, model, capsys):
    """u8 graph inputs/outputs (TFLite's uint8io models, converted by Khronos): i8 storage read
    and written only by RESCALEs with input_unsigned/output_unsigned, which tosa-run turns
    into uint8 arrays; integers only, equal to LiteRT."""
    from tosa_xdsl.tools import tosa_run

    folder = HERE / "models" / model
    assert integer_only(import_nnef(folder))
    tfl = TFLITE / "models" / f"{model}.tflite"
    xs = inputs_for(tfl, 1)
    args = [str(folder / "main.sknd"), "--entry", "main"]
    for i, x in enumerate(xs):
        assert x.dtype == np.uint8
        np.save(tmp_path / f"i{i}.npy", x)
        args += ["-i", str(tmp_path / f"i{i}.npy")]
    want = run_litert(tfl, xs)
    args += [a for i in range(len(want)) for a in ("-o", str(tmp_path / f"o{i}.npy"))]
    assert tosa_run.main(args) == 0, capsys.readouterr().err
    for i, w in enumerate(want):
        got = np.load(tmp_path / f"o{i}.npy")
        assert got.dtype == w.dtype == np.uint8
        np.testing.assert_array_equal(got, w)


def test_bias_at_another_scale_computes_in_reals():
    """A bias whose scale is not input_scale * weight_scale cannot be added to the i32
    accumulator as is: nn.linear then computes in reals between the quantized tensors (the
    definitions' meaning), and only the requantization is integer-typed."""
    src = """import nn; import quant;
graph G {
  @input { x: real[2,4]; }
  @variable { w: real[3,4]; b: real[3]; }
  @output { y: real[2,3]; }
  @compose { y = nn.linear(x, w, b); }
  @quantize {
    x: quant.zero_point_linear_quantize{zero_point=2, scale=0.05, bits=8, channel_axis=0};
    w: quant.zero_point_linear_quantize{zero_point=0, scale=0.01, bits=8, symmetric=true, channel_axis=0};
    b: quant.zero_point_linear_quantize{zero_point=0, scale=0.001, bits=32, channel_axis=0};
    y: quant.zero_point_linear_quantize{zero_point=-3, scale=0.02, bits=8, channel_axis=0};
  }
}
"""
    rng = np.random.default_rng(6)
    wq = rng.integers(-127, 128, (3, 4)).astype(np.int8)
    bq = rng.integers(-500, 500, 3).astype(np.int32)
    xq = rng.integers(-128, 128, (2, 4)).astype(np.int8)
    module = import_nnef(src, variables={"w": wq, "b": bq})
    names = {op.name for op in module.walk()}
    assert "tosa.matmul" in names and not integer_only(module)
    (y,) = run(module, [xq], entry="G")
    real = (xq - 2.0) * 0.05 @ (wq * 0.01).T + bq * 0.001
    ref = np.clip(np.rint(real / 0.02) - 3, -128, 127)
    assert y.dtype == np.int8 and np.abs(y - ref).max() <= 1


@pytest.mark.parametrize("entry", ["zero_point=300, scale=0.1, bits=8", "zero_point=5, scale=0.1, bits=16"])
def test_parameters_integer_tosa_cannot_hold_stay_fake_quantized(entry):
    """A zero point outside the storage range or a non-zero zero point of a 16-bit value:
    the tensor keeps the definitions' fake quantization (reals)."""
    (y,) = run(import_nnef(RELU.format(entry=entry)), [np.arange(-3, 3, dtype=np.int8).reshape(2, 3)], entry="G")
    assert y.dtype == np.float32 and y.shape == (2, 3)


def test_rescale_beyond_a_32_bit_multiplier_computes_in_reals():
    """x.scale / y.scale = 1e11 has no RESCALE multiplier/shift (compute_scale_32 refuses
    it): the relu computes in reals and y is quantized from them."""
    (y,) = run(import_nnef(RELU.format(entry="zero_point=0, scale=1e-12, bits=8")),
               [np.arange(-3, 3, dtype=np.int8).reshape(2, 3)], entry="G")
    np.testing.assert_array_equal(y, np.array([[0, 0, 0], [0, 127, 127]], np.int8))


RELU = """import nn; import quant;
graph G {{
  @input {{ x: real[2,3]; }}
  @output {{ y: real[2,3]; }}
  @compose {{ y = nn.relu(x); }}
  @quantize {{
    x: quant.zero_point_linear_quantize{{zero_point=0, scale=0.1, bits=8, channel_axis=0}};
    y: quant.zero_point_linear_quantize{{{entry}, channel_axis=0}};
  }}
}}
"""


def test_quantize_block_fuzz_gives_located_errors_only(tmp_path):
    """Seeded mutations of the real models' @quantize entries (zero points, scales, bits,
    signedness, channel axes, per-channel lengths) through the integer import: each import
    succeeds (and then verifies) or raises NnefError with a location; nothing else escapes."""
    import random
    import re
    import shutil
    import time

    from tosa_xdsl.frontends.nnef.errors import NnefError

    rng = random.Random(7)
    models = ["conv_2d.int8", "add.int8", "average_pool_2d.int8", "fully_connected.int8", "conv_2d.uint8io",
              "mean.int8", "concatenation.int8", "softmax.int8", "leaky_relu.int8", "fully_connected.int16x8",
              "tanh.int16x8", "softmax.int16x8"]
    values = ["0", "-1", "255", "-129", "2147483648", "0.0", "-0.5", "1e-45", "1e38", "inf", "[]", "[1, 2]",
              "[0, 0, 0, 0, 0, 0, 0, 0, 0]", "true", "false", "3", "33", "64", "-2", "x"]
    deadline = time.monotonic() + 6.0
    runs = 0
    while time.monotonic() < deadline:
        model = rng.choice(models)
        folder = tmp_path / f"{runs}"
        shutil.copytree(HERE / "models" / model, folder)
        text = (folder / "main.sknd").read_text()
        block = text.index("@quantize")
        spots = list(re.finditer(r"(?<==)(\[[^\]]*\]|[^,}\s]+)", text[block:]))
        for _ in range(rng.randint(1, 3)):
            m = rng.choice(spots)
            a, b = block + m.start(), block + m.end()
            text = text[:a] + rng.choice(values) + text[b:]
            spots = list(re.finditer(r"(?<==)(\[[^\]]*\]|[^,}\s]+)", text[block:]))
        (folder / "main.sknd").write_text(text)
        try:
            import_nnef(folder).verify()
        except NnefError as err:
            assert re.search(r"error: ", str(err)), str(err)
        runs += 1
    assert runs > 5


def test_zero_point_beyond_int32_is_an_nnef_error(tmp_path):
    """A @quantize zero point of 2^31 (found by the fuzz above) was an OverflowError from numpy."""
    import re
    import shutil

    from tosa_xdsl.frontends.nnef.errors import NnefError

    folder = tmp_path / "m"
    shutil.copytree(HERE / "models" / "add.int8", folder)
    text = (folder / "main.sknd").read_text()
    block = text.index("@quantize")
    (folder / "main.sknd").write_text(text[:block] + re.sub(r"zero_point=-?\d+", "zero_point=2147483648",
                                                            text[block:], count=1))
    with pytest.raises(NnefError, match=r"main\.sknd:\d+:\d+: error: value \[2147483648\] does not fit"):
        import_nnef(folder)

"""TOSA -> NNEF export of TRANSPOSE_CONV2D (nn.deconv, padding = -out_pad) and RESIZE
(image.nearest_resize / linear_resize with the coordinate transform and rounding that reproduce
RESIZE's scale/offset/border): the round trip is a fixpoint; Khronos' conversion of an ONNX
model (small_cnn: ConvTranspose, nearest and linear Resize, ...) re-imported equals onnxruntime's
committed outputs; deconvolutions with paddings against numpy written from the draft's
definition (output[b, oc, stride * i + j - offset] += input[b, ic, i] * filter[ic, oc, j])."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from nnef_cases import export_mutant

from tosa_xdsl.frontends.nnef.export import ExportError, export_nnef, export_nnef_folder
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

MODELS = Path(__file__).parent / "models"
RNG = np.random.default_rng(1602)
IMPORTS = "import math; import nn; import layout; import linalg; import image;"


def _normal_inputs(fn, seed: int) -> list:
    """Standard normal float32 inputs of `fn`'s argument shapes, a `?` extent as 2."""
    gen = np.random.default_rng(seed)
    return [gen.standard_normal([2 if d < 0 else d for d in a.type.get_shape()]).astype(np.float32)
            for a in fn.body.block.args]


def round_trip(m1, tmp_path):
    export_nnef_folder(m1, tmp_path / "a")
    m2 = import_nnef(tmp_path / "a")
    export_nnef_folder(m2, tmp_path / "b")
    m3 = import_nnef(tmp_path / "b")
    text = (tmp_path / "a" / "main.sknd").read_text()
    assert (tmp_path / "b" / "main.sknd").read_text() == text
    assert str(m3) == str(m2)
    return text, m2


def deconv_ref(x, w, b, stride, pad_begin, out_size):
    """The definition, 2-d, groups 1: terms landing outside the output are dropped."""
    n, _, ih, iw = x.shape
    _, oc, kh, kw = w.shape
    y = np.zeros((n, oc) + tuple(out_size), np.float64) + b[None, :, None, None]
    for i in range(ih):
        for j in range(iw):
            for p in range(kh):
                for q in range(kw):
                    oy, ox = stride[0] * i + p - pad_begin[0], stride[1] * j + q - pad_begin[1]
                    if 0 <= oy < out_size[0] and 0 <= ox < out_size[1]:
                        y[:, :, oy, ox] += x[:, :, i, j] @ w[:, :, p, q]
    return y.astype(np.float32)


def test_small_cnn_round_trip_matches_onnxruntime(tmp_path):
    text, m2 = round_trip(import_nnef(MODELS / "small_cnn"), tmp_path)
    assert "nn.deconv{stride=[2, 2], padding=[0, 0, 0, 0]}" in text
    assert "image.nearest_resize{axes=[2, 3], size=[16, 16]" in text
    assert "image.linear_resize{axes=[2, 3], size=[16, 16], coordinate_transform=\"SYMMETRIC\"" in text
    names = {op.name for op in m2.walk()}
    assert {"tosa.transpose_conv2d", "tosa.resize"} <= names
    outs = run(m2, [np.load(MODELS / "small_cnn.input_0.npy")], entry="small_cnn")
    for i, got in enumerate(outs):
        ref = np.load(MODELS / f"small_cnn.expected_{i}.npy")
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5 * float(np.abs(ref).max()))


@pytest.mark.parametrize("attrs,ih,out", [
    ("stride=[2, 2], padding=[1, 0, 1, 1]", (3, 4), None),
    ("stride=[1, 2], padding=[0, 1, 0, 0]", (3, 3), None),
    ("stride=[2, 2], padding=[1, 1, 0, 0], output_size=[6, 6]", (3, 3), (6, 6)),
])
def test_deconv_paddings_round_trip_against_numpy(attrs, ih, out, tmp_path):
    x = RNG.standard_normal((2, 3) + ih).astype(np.float32)
    w = RNG.standard_normal((3, 2, 3, 3)).astype(np.float32)
    b = RNG.standard_normal(2).astype(np.float32)
    src = f"""{IMPORTS}
graph G {{ @input {{ x: real[2, 3, {ih[0]}, {ih[1]}]; }} @output {{ y: real; }}
  @variable {{ w: real[3, 2, 3, 3]; b: real[2]; }}
  @compose {{ y = nn.deconv{{{attrs}}}(x, w, b); }} }}"""
    text, m2 = round_trip(import_nnef(src, variables={"w": w, "b": b}), tmp_path)
    assert "nn.deconv" in text
    stride = [int(v) for v in attrs.split("stride=[")[1].split("]")[0].split(",")]
    pad = [int(v) for v in attrs.split("padding=[")[1].split("]")[0].split(",")]
    size = out or [(i - 1) * s + 3 - p - q for i, s, p, q in zip(ih, stride, pad[:2], pad[2:])]
    np.testing.assert_allclose(run(m2, [x], entry="G")[0], deconv_ref(x, w, b, stride, pad[:2], size),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("op", [
    'image.nearest_resize{axes=[2, 3], size=[7, 5], coordinate_transform="SYMMETRIC", rounding_method="CEIL"}',
    'image.nearest_resize{axes=[3], size=[8], coordinate_transform="ALIGNED", rounding_method="FLOOR"}',
    'image.linear_resize{axes=[2, 3], size=[8, 3], coordinate_transform="ASYMMETRIC", antialias=false}',
    'image.nearest_upsample{axes=[1, 2], factor=[2, 3]}',
])
def test_resize_round_trip_computes_the_same(op, tmp_path):
    """The re-imported graph computes what the first import computes (that mapping is
    checked against numpy in test_nnef_to_tosa.py); the second export is the same text."""
    src = f"{IMPORTS}\ngraph G {{ @input {{ x: real[2, 3, 4, 6]; }} @output {{ y: real; }} @compose {{ y = {op}(x); }} }}"
    m1 = import_nnef(src)
    _, m2 = round_trip(m1, tmp_path)
    x = RNG.standard_normal((2, 3, 4, 6)).astype(np.float32)
    np.testing.assert_array_equal(run(m2, [x], entry="G")[0], run(m1, [x], entry="G")[0])


def test_channels_last_resize_exports_as_nchw(tmp_path):
    """A RESIZE on NHWC with C > 1 (as the TFLite legalization writes it) is resized over
    NCHW's axes 2, 3; the interpreter's TOSA RESIZE of the original is the expected value."""
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context
    src = """func.func @main(%x: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
      %s = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
      %o = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %b = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x3xf32>
      return %y : tensor<1x8x8x3xf32>
    }"""
    m1 = Parser(make_context(), src).parse_module()
    text, _ = export_nnef(m1)
    assert "image.linear_resize{axes=[2, 3], size=[8, 8], coordinate_transform=\"SYMMETRIC\"" in text
    export_nnef_folder(m1, tmp_path / "a")
    m2 = import_nnef(tmp_path / "a")
    x = RNG.standard_normal((1, 4, 4, 3)).astype(np.float32)
    np.testing.assert_allclose(run(m2, [x], entry="main")[0], run(m1, [x], entry="main")[0], rtol=1e-6, atol=1e-6)


def test_resize_without_an_nnef_transform_is_one_line():
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context
    src = """func.func @main(%x: tensor<1x4x4x1xf32>) -> tensor<1x8x8x1xf32> {
      %s = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
      %o = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %b = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x4x4x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x1xf32>
      return %y : tensor<1x8x8x1xf32>
    }"""
    with pytest.raises(ExportError, match=r"@main, operation 3: 'tosa.resize': .* match no NNEF coordinate") as info:
        export_nnef(Parser(make_context(), src).parse_module())
    assert "\n" not in str(info.value)


def test_khronos_reader_reads_deconv_and_resizes(tmp_path):
    skriptnd = pytest.importorskip("skriptnd")
    export_nnef_folder(import_nnef(MODELS / "small_cnn"), tmp_path)
    g = skriptnd.read_model(str(tmp_path)).graphs[0]
    names = [op.name for op in g.operations]
    assert [tuple(t.shape) for t in g.outputs] == [(1, 4, 16, 16), (1, 5)]
    assert {"nn.deconv", "image.nearest_resize", "image.linear_resize"} <= set(names)


def avg_pool_ref(x, size, stride, pad, count_border):
    """Average over the window inside the input (TOSA AVG_POOL2D, NNEF ignore_border=true) or
    over the whole window, the zero border counted (ignore_border=false)."""
    t, lft, b, r = pad
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (t, b), (lft, r)))
    ones = np.pad(np.ones(x.shape[2:]), ((t, b), (lft, r)))
    oh, ow = (xp.shape[2] - size) // stride + 1, (xp.shape[3] - size) // stride + 1
    y = np.zeros(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = (slice(i * stride, i * stride + size), slice(j * stride, j * stride + size))
            n = size * size if count_border else ones[win].sum()
            y[:, :, i, j] = xp[:, :, win[0], win[1]].sum(axis=(2, 3)) / n
    return y.astype(np.float32)


@pytest.mark.parametrize("ignore_border", [True, False])
def test_avg_pool_padding_border_count_against_numpy(ignore_border, tmp_path):
    """nn.avg_pool with padding: TOSA AVG_POOL2D divides by the window's elements inside the
    input, which is the definition's ignore_border=true (its default, what the export writes);
    ignore_border=false imports as an explicit zero pad, exported as layout.pad."""
    src = f"""{IMPORTS}
graph G {{ @input {{ x: real[1, 2, 5, 6]; }} @output {{ y: real; }}
  @compose {{ y = nn.avg_pool{{size=[3, 3], stride=[2, 2], padding=[1, 0, 1, 2],
                                ignore_border={'true' if ignore_border else 'false'}}}(x); }} }}"""
    text, m2 = round_trip(import_nnef(src), tmp_path)
    assert "ignore_border" not in text and ("layout.pad" in text) != ignore_border
    x = RNG.standard_normal((1, 2, 5, 6)).astype(np.float32)
    want = avg_pool_ref(x, 3, 2, [1, 0, 1, 2], not ignore_border)
    np.testing.assert_allclose(run(m2, [x], entry="G")[0], want, rtol=1e-5, atol=1e-6)


def test_export_fuzz_on_mutated_float_tosa(tmp_path):
    """Seeded, time-bounded mutations of float TOSA with TRANSPOSE_CONV2D, RESIZE and `?`
    dims (dyn_batch, a strided deconvolution and resizes: shape operands, out_pad,
    stride, kernel, permutations, resize modes, operations deleted): each export raises a
    one-line ExportError or writes a model that imports again and computes what the mutated
    TOSA computes (the interpreter's TOSA semantics as the reference)."""
    import random
    import re
    import time

    from tosa_xdsl.context import make_context
    rng = random.Random(1616)
    src = f"""{IMPORTS}
graph G {{ @input {{ x: real[1, 2, 3, 4]; }} @output {{ y: real; z: real; }}
  @variable {{ w: real[2, 3, 3, 3]; }}
  @compose {{ y = nn.deconv{{stride=[2, 2], padding=[1, 0, 1, 1]}}(x, w);
             z = image.nearest_resize{{axes=[2, 3], size=[5, 9], coordinate_transform="ALIGNED"}}(x); }} }}"""
    texts = [str(import_nnef(MODELS / "dyn_batch")),
             str(import_nnef(src, variables={"w": RNG.standard_normal((2, 3, 3, 3)).astype(np.float32)}))]
    ctx = make_context()
    spots = (r"dense<\[[-\d, ]+\]> : tensor<\d+xindex>|out_pad\(\[[-\d, ]+\]\)|stride\(\[[\d, ]+\]\)|"
             r"kernel\(\[[\d, ]+\]\)|perms\(\[[\d, ]+\]\)|mode<\w+>")
    values = ["dense<[1, 1, 1, 1]> : tensor<4xindex>", "dense<[4, 2, 4, 2]> : tensor<4xindex>",
              "dense<[0, 0]> : tensor<2xindex>", "dense<[-1, 1]> : tensor<2xindex>", "dense<[-1, 64]> : tensor<2xindex>",
              "out_pad([0, 0, 0, 0])", "out_pad([-1, 0, 1, 0])", "stride([1, 1])", "stride([2, 1])",
              "kernel([1, 1])", "perms([0, 2, 3, 1])", "perms([0, 3, 1, 2])", "mode<BILINEAR>", "mode<NEAREST_NEIGHBOR>"]
    deadline = time.monotonic() + 5.0
    runs = exported = compared = 0
    while time.monotonic() < deadline:
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.8:
                m = rng.choice(list(re.finditer(spots, text)))
                text = text[:m.start()] + rng.choice(values) + text[m.end():]
            else:
                lines = text.splitlines()
                del lines[rng.randrange(2, len(lines) - 2)]
                text = "\n".join(lines)
        outcome = export_mutant(text, ctx, tmp_path / f"{runs}", lambda fn, n=runs: _normal_inputs(fn, n),
                                lambda g, w: np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5))
        runs += outcome != "invalid"
        exported += outcome in ("no reference", "compared")
        compared += outcome == "compared"
    assert runs >= 2 and exported > 0 and compared > 0     # ~10 runs in 5 s on an idle core

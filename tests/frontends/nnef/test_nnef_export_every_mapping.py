"""Issue 16: every standard-library operator with a TOSA mapping (nnef_cases.py's CASES and
COMPOSITES, one small graph each) survives NNEF -> TOSA -> NNEF -> TOSA: the re-import is the
first import again after one round, or after two (TWO_ROUNDS, each with its reason), and it
computes what the first import computes on random inputs (integers exactly, floats within 1e-5
relative). The first import itself is checked against the definitions' formulas and numpy by
test_nnef_roads.py, so the expected values here are independent of the export.

The export's own forms for TOSA operators no importer form explains (a bare CAST, a SCATTER
with C > 1, an ARGMAX) are checked against the TOSA 1.0.1 spec's pseudocode written in numpy."""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from nnef_cases import CASES, COMPOSITES, INT_INPUTS, SIGNED_INPUTS, source
from test_nnef_roads import inputs_for
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.frontends.nnef import modules
from tosa_xdsl.frontends.nnef.export import export_nnef
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.frontends.nnef.stdlib import HERE
from tosa_xdsl.interpreter import run

# The re-import is the first import again only after a second round, because the first export
# writes the graph differently from the importer's TOSA:
# - a literal of the model (e.g. `math.mul(x, 3.0)`, an attribute such as leaky relu's alpha or
#   an epsilon) imports as a scalar constant RESHAPEd to the rank; the export writes it as a
#   variable of that rank, which re-imports without the RESHAPE
SCALAR_LITERALS = {"layout.cast", "math.round", "math.sqrt", "math.lp_reduce", "math.mean_reduce",
                   "math.moments", "nn.batch_norm", "nn.gelu", "nn.l1_norm", "nn.l2_norm",
                   "nn.local_response_norm", "nn.lp_pool", "nn.mean_variance_norm", "nn.relu", "nn.rms_pool",
                   "nn.selu", "nn.softplus", "nn.sum_pool", "nn.thresholded_relu", "image.area_downsample"}
# - the NNEF operations (and the variables declared at their first use) come in another
#   order than the importer's TOSA (a constant before the operation that reads it)
REORDERED = {"math.log2", "nn.elu", "nn.linear", "nn.prelu"}
# - the export writes other operators than the definition's composition: a resize of the
#   importer's NHWC view written over the source's axes (nearest_upsample, cubic_resize's
#   matrix product), a bare CAST (round to nearest, saturating) written by its composition of
#   math.round, clamps and layout.cast (the grid sample's and the quantizers' roundings)
OTHER_FORMS = {"image.nearest_upsample", "image.cubic_resize", "image._nearest_grid_sample",
               "quant.min_max_linear_quantize", "quant.zero_point_linear_quantize"}
TWO_ROUNDS = SCALAR_LITERALS | REORDERED | OTHER_FORMS

OPERATORS = sorted(set(CASES) | set(COMPOSITES))


@pytest.fixture(scope="module", autouse=True)
def parsed_stdlib_once():
    """Each import parses the standard library again; reuse its documents (keeps this fast)."""
    parse, memo = modules.parse, {}

    def cached(text, file):
        if not str(file).startswith(str(HERE)):
            return parse(text, file)
        if (text, file) not in memo:
            memo[text, file] = parse(text, file)
        return memo[text, file]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(modules, "parse", cached)
        yield


def same_values(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype
    if a.dtype.kind in "ib":
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_two_rounds_names_operators():
    assert TWO_ROUNDS <= set(OPERATORS)


@pytest.mark.parametrize("op", OPERATORS)
def test_round_trip_is_a_fixpoint(op):
    src = source(op)
    first = import_nnef(src)
    text, variables = export_nnef(first)
    second = import_nnef(text, variables=variables)
    if op in TWO_ROUNDS:
        assert str(second) != str(first), f"{op} now settles in one round: remove it from TWO_ROUNDS"
        text2, variables2 = export_nnef(second)
        third = import_nnef(text2, variables=variables2)
        assert str(third) == str(second)
    else:
        assert str(second) == str(first)
    arrays = inputs_for(src, zlib.crc32(op.encode()) % 1000, INT_INPUTS.get(op), op in SIGNED_INPUTS)
    for a, b in zip(run(first, arrays, entry="G"), run(second, arrays, entry="G")):
        same_values(a, b)


def round_trip(mlir: str, arrays):
    """The TOSA function's outputs, and those of its NNEF export re-imported."""
    module = Parser(make_context(), mlir).parse_module()
    text, variables = export_nnef(module)
    again = import_nnef(text, variables=variables)
    return run(module, arrays, entry="f"), run(again, arrays, entry="f"), text


def test_bare_cast_to_int_rounds_half_to_even_and_saturates():
    # TOSA 1.0.1 CAST fp32 -> i32: apply_clip_s(round_to_nearest_int(in)), ties to even
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.49, 2.51, 1e10, -1e10, 2.0 ** 31, -2.0 ** 31,
                  2147483520.0, 8388609.0, -3.0, 0.0, 7.75], np.float32)
    expected = np.clip(np.rint(x.astype(np.float64)), -2.0 ** 31, 2.0 ** 31 - 1).astype(np.int32)
    ours, again, text = round_trip(
        "func.func @f(%x: tensor<16xf32>) -> tensor<16xi32> {\n"
        "  %y = tosa.cast %x : (tensor<16xf32>) -> tensor<16xi32>\n"
        "  return %y : tensor<16xi32>\n}", [x])
    assert "math.round(" in text and "layout.cast<int>(" in text
    np.testing.assert_array_equal(ours[0], expected)
    np.testing.assert_array_equal(again[0], expected)


@pytest.mark.parametrize("src, dst, values", [
    ("i32", "f32", [0, 7, -9, 16777217, -2147483648]),
    ("i1", "i32", [True, False, True]),
    ("i1", "f32", [False, True]),
    ("i32", "i1", [0, 3, -1, 0]),
    ("f32", "i1", [0.0, -0.0, 0.25, -7.0, np.inf]),
])
def test_other_casts(src, dst, values):
    # TOSA 1.0.1 CAST: -> bool is `in != 0`, bool -> 1/0, int -> float rounds to nearest
    npt = {"i32": np.int32, "f32": np.float32, "i1": np.bool_}
    x = np.array(values, npt[src])
    expected = (x != 0) if dst == "i1" else x.astype(npt[dst])
    n = len(values)
    ours, again, _ = round_trip(
        f"func.func @f(%x: tensor<{n}x{src}>) -> tensor<{n}x{dst}> {{\n"
        f"  %y = tosa.cast %x : (tensor<{n}x{src}>) -> tensor<{n}x{dst}>\n"
        f"  return %y : tensor<{n}x{dst}>\n}}", [x])
    np.testing.assert_array_equal(ours[0], expected)
    np.testing.assert_array_equal(again[0], expected)


def test_general_scatter():
    # TOSA 1.0.1 SCATTER: output[n, indices[n, w], c] = input[n, w, c] (unique indices)
    rng = np.random.default_rng(16)
    values = rng.standard_normal((2, 5, 3)).astype(np.float32)
    indices = np.array([[4, 1], [0, 2]], np.int32)
    updates = rng.standard_normal((2, 2, 3)).astype(np.float32)
    expected = values.copy()
    for n in range(2):
        for w in range(2):
            expected[n, indices[n, w], :] = updates[n, w, :]
    ours, again, text = round_trip(
        "func.func @f(%v: tensor<2x5x3xf32>, %i: tensor<2x2xi32>, %u: tensor<2x2x3xf32>) -> tensor<2x5x3xf32> {\n"
        "  %y = tosa.scatter %v, %i, %u : (tensor<2x5x3xf32>, tensor<2x2xi32>, tensor<2x2x3xf32>)"
        " -> tensor<2x5x3xf32>\n  return %y : tensor<2x5x3xf32>\n}", [values, indices, updates])
    assert "layout.scatter{axis=1}" in text
    np.testing.assert_array_equal(ours[0], expected)
    np.testing.assert_array_equal(again[0], expected)


def test_argmax_drops_its_axis():
    # TOSA 1.0.1 ARGMAX: the first index of the largest value, the axis removed
    x = np.array([[[1.0, 5.0], [5.0, 2.0], [3.0, 5.0]]], np.float32)
    ours, again, text = round_trip(
        "func.func @f(%x: tensor<1x3x2xf32>) -> tensor<1x2xi32> {\n"
        "  %y = tosa.argmax %x {axis = 1 : i32} : (tensor<1x3x2xf32>) -> tensor<1x2xi32>\n"
        "  return %y : tensor<1x2xi32>\n}", [x])
    assert "squeeze=true" in text
    np.testing.assert_array_equal(ours[0], [[1, 0]])
    np.testing.assert_array_equal(again[0], [[1, 0]])


def test_scatter_view_not_transposed_back_is_no_layout_scatter():
    # the importer's views around SCATTER, but the result left transposed: extents equal to
    # the data's (square), values not; written as a general SCATTER, not layout.scatter{axis=0}
    d = np.arange(9, dtype=np.float32).reshape(3, 3)
    i = np.array([[2, 0, 1]], np.int32)
    u = np.array([[10, 20, 30]], np.float32)
    t = d.T.reshape(3, 3, 1).copy()                 # SCATTER [N=3, K=3, C=1], index [3, 1]
    for n in range(3):
        t[n, i.T[n, 0], 0] = u.T[n, 0]
    expected = t.reshape(3, 3)
    mlir = """func.func @f(%d: tensor<3x3xf32>, %i: tensor<1x3xi32>, %u: tensor<1x3xf32>) -> tensor<3x3xf32> {
  %dt = tosa.transpose %d {perms = array<i32: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %s3 = tosa.const_shape {values = dense<[3, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %dv = tosa.reshape %dt, %s3 : (tensor<3x3xf32>, !tosa.shape<3>) -> tensor<3x3x1xf32>
  %it = tosa.transpose %i {perms = array<i32: 1, 0>} : (tensor<1x3xi32>) -> tensor<3x1xi32>
  %ut = tosa.transpose %u {perms = array<i32: 1, 0>} : (tensor<1x3xf32>) -> tensor<3x1xf32>
  %s31 = tosa.const_shape {values = dense<[3, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %uv = tosa.reshape %ut, %s31 : (tensor<3x1xf32>, !tosa.shape<3>) -> tensor<3x1x1xf32>
  %y = tosa.scatter %dv, %it, %uv : (tensor<3x3x1xf32>, tensor<3x1xi32>, tensor<3x1x1xf32>) -> tensor<3x3x1xf32>
  %s2 = tosa.const_shape {values = dense<[3, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %y, %s2 : (tensor<3x3x1xf32>, !tosa.shape<2>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}"""
    ours, again, text = round_trip(mlir, [d, i, u])
    assert "layout.scatter{axis=1}" in text
    np.testing.assert_array_equal(ours[0], expected)
    np.testing.assert_array_equal(again[0], expected)

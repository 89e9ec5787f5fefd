"""Packed run-time input extents (draft 2.6.1: `input: real[s|10 ..(3)]`, or `real[~|10 ..(3)]`,
"declare a dynamic input of rank 3 with upper bound 10 for each component"): each component is a
`?` dim of the function's argument, `s` a pack of three run-time extents that later inputs and
the outputs use (`s..`). Expected values: numpy written from the operators' definitions, at two
different actual shapes, through the interpreter and natively (tosa-run takes the shapes from
the .npy files)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_nnef_gaps import run_both

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(2610)


def graph(inputs: str, body: str, outputs: str) -> str:
    return (f"import math; import layout;\ngraph G {{\n @input {{ {inputs} }}\n @output {{ {outputs} }}\n"
            f" @compose {{ {body} }}\n}}\n")


def signature(module) -> str:
    return str(next(o for o in module.walk() if o.name == "func.func").function_type)


# (inputs, body, outputs, numpy reference, signature, two runs' input shapes)
CASES = {
    "exp_rank3": ("x: real[s|10 ..(3)];", "y = math.exp(x);", "y: real[s..];", lambda x: np.exp(x),
                  "(tensor<?x?x?xf32>) -> tensor<?x?x?xf32>", [[(2, 3, 4)], [(5, 1, 2)]]),
    # `z: real[s..]` is the same pack of extents: one symbol, no broadcasting between different ones
    "shared_pack": ("x: real[s|6 ..(2)]; z: real[s..];", "t = math.add(x, z); y = math.mul(t, 2.0);", "y: real[s..];",
                    lambda x, z: (x + z) * 2, "(tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>",
                    [[(2, 3), (2, 3)], [(4, 1), (4, 1)]]),
    # a static extent before the pack, `~` components, a reduction over the run-time axes
    "tilde_sum": ("x: real[4, ~|8 ..(2)];", "y = math.sum_reduce{axes=[1, 2], squeeze=true}(x);", "y: real[4];",
                  lambda x: x.sum(axis=(1, 2)), "(tensor<4x?x?xf32>) -> tensor<4xf32>",
                  [[(4, 2, 3)], [(4, 5, 1)]]),
    "transpose": ("x: real[s|5 ..(3)];", "y = layout.transpose{perm=[2, 0, 1]}(x);", "y: real[s[2], s[0], s[1]];",
                  lambda x: np.transpose(x, (2, 0, 1)), "(tensor<?x?x?xf32>) -> tensor<?x?x?xf32>",
                  [[(1, 2, 3)], [(3, 2, 1)]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_packed_runtime_extents_interpreter(name):
    ins, body, outs, ref, sig, runs = CASES[name]
    m = import_nnef(graph(ins, body, outs))
    assert signature(m) == sig
    for shapes in runs:
        xs = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
        np.testing.assert_allclose(run(m, xs, entry="G")[0], ref(*xs), rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["exp_rank3", "tilde_sum"])
def test_packed_runtime_extents_native(tmp_path, name):
    ins, body, outs, ref, _, runs = CASES[name]
    for shapes in runs:
        xs = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
        (yi,), (yj,) = run_both(tmp_path, graph(ins, body, outs), xs)
        np.testing.assert_allclose(yi, ref(*xs), rtol=2e-6, atol=1e-6)
        np.testing.assert_allclose(yj, ref(*xs), rtol=2e-6, atol=1e-5)


def test_input_shapes_fix_packed_extents():
    """input_shapes fixes the components (each checked against the bound); the pack `s` then
    holds the given ints, which the second input and the output agree with."""
    src = graph("x: real[s|6 ..(2)]; z: real[s..];", "y = math.add(x, z);", "y: real[s..];")
    m = import_nnef(src, input_shapes={"x": [2, 3]})
    assert signature(m) == "(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"
    for shapes, message in [({"x": [7, 3]}, r"the given extent 7 \(axis 0\) is outside 0\.\.6"),
                            ({"x": [2]}, r"input 'x' has rank 2, the given shape \[2\] has rank 1")]:
        with pytest.raises(NnefError, match=message):
            import_nnef(src, input_shapes=shapes)


@pytest.mark.parametrize("inputs, body, outputs, message", [
    # a pack given twice with different lengths, and different bounds
    ("x: real[s|6 ..(2)]; z: real[s|6 ..(3)];", "y = math.exp(x);", "y: real[s..];",
     r"<input>:3:\d+: error: 's' is \[s\[0\], s\[1\]\] elsewhere, here a pack of 3 extents"),
    ("x: real[s|6 ..(2)]; z: real[s|7 ..(2)];", "y = math.exp(x);", "y: real[s..];",
     r"<input>:3:\d+: error: 's\[0\]' has upper bound 6 elsewhere, 7 here"),
    ("x: real[s|6 ..(n)];", "y = math.exp(x);", "y: real[s..];",
     r"<input>:3:\d+: error: undefined identifier 'n' in the shape of 'x'"),
    ("x: real[s|6 ..(100)];", "y = math.exp(x);", "y: real[s..];",
     r"<input>:3:\d+: error: the length of a packed extent of 'x' must be an int in 0\.\.64, got 100"),
    ("x: real[2 * s|6 ..(2)];", "y = math.exp(x);", "y: real[s..];",
     r"<input>:3:\d+: error: an extent with an upper bound is a new symbol or '~'"),
    # TOSA 1.0.1's RESHAPE takes one -1: two run-time extents into a new shape cannot be carried
    ("x: real[s|6 ..(3)];", "y = layout.reshape{axis=1, rank=1, shape=[1, -1]}(x);", "y: real[s[0], 1, s[1], s[2]];",
     r"<input>:5:\d+: error: .*RESHAPE resolves at most one run-time extent"),
    # a graph input that is a pack of tensors (one function argument is one tensor)
    ("xs: real[3]..(2);", "y = math.exp(xs[0]);", "y: real[3];",
     r"<input>:3:\d+: error: graph input 'xs' is a pack of tensors; a graph input must be one tensor"),
])
def test_packed_extent_errors_are_located(inputs, body, outputs, message):
    with pytest.raises(NnefError, match=message):
        import_nnef(graph(inputs, body, outputs))


def test_bounded_output_extents_take_static_ones_up_to_the_bound():
    """An output declared `~|6` (2.6.1: dynamic, at most 6) agrees with a static composed extent
    up to 6 (a given input shape makes it static; it was compared with 6 itself and refused),
    packed too, and a composed extent above the bound is a located error."""
    src = graph("x: real[~|6 ..(2)];", "y = math.exp(x);", "y: real[~|6 ..(2)];")
    assert signature(import_nnef(src, input_shapes={"x": [2, 3]})) == "(tensor<2x3xf32>) -> tensor<2x3xf32>"
    src = graph("x: real[~|6];", "y = math.exp(x);", "y: real[~|6];")
    assert signature(import_nnef(src, input_shapes={"x": [6]})) == "(tensor<6xf32>) -> tensor<6xf32>"
    with pytest.raises(NnefError, match=r"<input>:4:\d+: error: output 'y' has extent 3 at axis 0, above its "
                                        r"upper bound 2"):
        import_nnef(graph("x: real[3];", "y = math.exp(x);", "y: real[~|2];"))

"""The dims issue 12 added to the dynamic lowering, natively: run-time shapes the graph forbids
are refused before native code runs (NativeModule specialises the graph to the input shapes
and verifies it), and the data-dependent addresses (GATHER/SCATTER indices against a dynamic
K) stay inside their buffers even past that check (issue 18)."""

from __future__ import annotations

import numpy as np
import pytest
from lowering_harness import parse

from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.errors import TosaRunError
from tosa_xdsl.jit import NativeModule

LLVM = "tosa-to-llvm{validation=false}"

GATHER_SCATTER = """
func.func @main(%v: tensor<?x?x?xf32>, %i: tensor<?x?xi32>, %x: tensor<?x?x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>) {
  %0 = tosa.gather %v, %i : (tensor<?x?x?xf32>, tensor<?x?xi32>) -> tensor<?x?x?xf32>
  %1 = tosa.scatter %v, %i, %x : (tensor<?x?x?xf32>, tensor<?x?xi32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0, %1 : tensor<?x?x?xf32>, tensor<?x?x?xf32>
}"""

CONV_RESCALE = """
func.func @main(%x: tensor<?x?x?x?xf32>, %q: tensor<?x?xi16>) -> (tensor<?x?x?x?xf32>, tensor<?x?xi8>) {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<3x1x1x2xf32>}> : () -> tensor<3x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<3xf32>}> : () -> tensor<3xf32>
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %pm = "tosa.const"() <{values = dense<[1073741824, 1518500250]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %ps = "tosa.const"() <{values = dense<[33, 40]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z16 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %0 = tosa.conv2d %x, %w, %b, %zf, %zf {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x?x?x?xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x?xf32>
  %1 = tosa.rescale %q, %pm, %ps, %z16, %z8 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<?x?xi16>, tensor<2xi32>, tensor<2xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<?x?xi8>
  return %0, %1 : tensor<?x?x?x?xf32>, tensor<?x?xi8>
}"""


@pytest.fixture(scope="module")
def gather_scatter():
    return NativeModule(parse(GATHER_SCATTER), pipeline=LLVM)


def test_refuses_channel_counts_the_weights_and_parameters_forbid():
    """conv2d's input channels must be the weights' IC, a per-channel rescale's channel count
    the parameters' size (the verifier's rules): other run-time shapes never reach native
    code, whose loops read the static weights/parameters."""
    native = NativeModule(parse(CONV_RESCALE), pipeline=LLVM)
    x = np.arange(2 * 3 * 2 * 2, dtype=np.float32).reshape(2, 3, 2, 2)
    q = np.arange(8, dtype=np.int16).reshape(4, 2) * 1000
    conv, resc = native.call([x, q])
    assert conv.shape == (2, 3, 2, 3)  # OC is the weights' 3, not the input's 2
    np.testing.assert_array_equal(conv, np.repeat(x.sum(axis=3, keepdims=True) + 0.5, 3, axis=3))
    for got, want in zip((conv, resc), run(parse(CONV_RESCALE), [x, q])):
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="break the graph's shape rules"):
        native.call([np.ones((1, 2, 2, 3), np.float32), q])  # IC 3 vs the weights' 2
    with pytest.raises(ValueError, match="break the graph's shape rules"):
        native.call([x, np.ones((4, 3), np.int16)])  # 3 channels vs 2 parameters


def test_refuses_gather_scatter_operands_that_disagree(gather_scatter):
    v = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    i = np.array([[4, 0], [1, 3]], np.int32)
    x = -np.arange(2 * 2 * 3, dtype=np.float32).reshape(2, 2, 3)
    gathered, scattered = gather_scatter.call([v, i, x])
    want = run(parse(GATHER_SCATTER), [v, i, x])
    np.testing.assert_array_equal(gathered, want[0])
    np.testing.assert_array_equal(scattered, want[1])
    with pytest.raises(ValueError, match="break the graph's shape rules"):
        gather_scatter.call([v, i, x[:, :1]])  # SCATTER's input W 1 vs the indices' 2
    with pytest.raises(ValueError, match="break the graph's shape rules"):
        gather_scatter.call([v, i, x[:, :, :2]])  # C 2 vs values' 3


def test_out_of_range_indices_stay_inside_a_dynamic_k(gather_scatter):
    """Indices outside [0, K) break a REQUIRE the interpreter reports; native code cannot, and
    clamps them to the run-time K - 1 (or 0): reads and writes stay inside values."""
    v = np.arange(2 * 3 * 2, dtype=np.float32).reshape(2, 3, 2)
    i = np.array([[7, -4]], np.int32).repeat(2, axis=0)
    x = np.full((2, 2, 2), -1.0, np.float32)
    with pytest.raises(TosaRunError):
        run(parse(GATHER_SCATTER), [v, i, x])
    gathered, scattered = gather_scatter.call([v, i, x])
    np.testing.assert_array_equal(gathered, v[:, [2, 0]])  # 7 -> K - 1 = 2, -4 -> 0
    want = v.copy()
    want[:, [2, 0]] = -1.0
    np.testing.assert_array_equal(scattered, want)


def test_refusal_is_one_error_naming_the_rule(capsys):
    """The refusal is the ValueError alone, naming the broken rule; the specialising passes'
    own diagnostics are not printed (they were, as a stray `<unknown>:0: error:` line)."""
    native = NativeModule(parse(CONV_RESCALE), pipeline=LLVM)
    with pytest.raises(ValueError, match="weight dim 3 is 2 but input dim 3 gives IC = 3"):
        native.call([np.ones((1, 2, 2, 3), np.float32), np.ones((4, 2), np.int16)])
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""

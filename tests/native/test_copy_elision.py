"""linalg-write-into-copy-target (tosa_xdsl/lowering/linalg_transforms/copy_elision.py, in
tosa-to-loops): the op producing a padded tensor's interior writes into the padded buffer
instead of a temporary that is copied. The same values reach the same elements, so native
results must equal those of the pipeline without the pass bit for bit (floats too), and
integer results the interpreter's; the copy must be gone where the pattern applies. The
MobileNet-style bench model (a smaller width, 8 depthwise pads) is checked the same way."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from native_programs import random_inputs

from tosa_xdsl import jit
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering.pipelines import expanded

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from mobilenet import mobilenet_mlir  # noqa: E402

WITHOUT = ",".join(s for s in expanded("tosa-to-llvm") if s != "linalg-write-into-copy-target")


def _t(shape, et):
    return "tensor<" + "x".join(map(str, shape)) + f"x{et}>"


def relu_pad_depthwise(h: int, w: int, c: int, et: str = "f32") -> str:
    """CLAMP -> PAD (1 on each side of H and W) -> 3x3 DEPTHWISE_CONV2D without padding."""
    x, p, o = _t((1, h, w, c), et), _t((1, h + 2, w + 2, c), et), _t((1, h, w, c), "i32" if et == "i8" else et)
    zero = "0" if et == "i8" else "0.0"
    lo, hi = ("-5 : i8", "100 : i8") if et == "i8" else ("0.0 : f32", "6.0 : f32")
    bias = _t((c,), "i32" if et == "i8" else et)
    return f"""
func.func @main(%x: {x}, %w: {_t((3, 3, c, 1), et)}, %b: {bias}) -> {o} {{
  %r = tosa.clamp %x {{min_val = {lo}, max_val = {hi}}} : ({x}) -> {x}
  %pads = tosa.const_shape {{values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>}} : () -> !tosa.shape<8>
  %pv = "tosa.const"() <{{values = dense<{zero}> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %p = tosa.pad %r, %pads, %pv : ({x}, !tosa.shape<8>, tensor<1x{et}>) -> {p}
  %z = "tosa.const"() <{{values = dense<{zero}> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %0 = tosa.depthwise_conv2d %p, %w, %b, %z, %z {{acc_type = {'i32' if et == 'i8' else et}, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : ({p}, {_t((3, 3, c, 1), et)}, {bias}, tensor<1x{et}>, tensor<1x{et}>) -> {o}
  return %0 : {o}
}}"""


def two_readers(h: int, w: int, c: int, et: str = "f32", channel_pad: bool = False) -> str:
    """CLAMP whose result is padded for a 3x3 DEPTHWISE_CONV2D and also read by a second op:
    an ADD (a CLAMP for i8: ADD is i32-only), or with `channel_pad` a second PAD (4 more
    channels, as the example's residual branches) -- the copy the pass removes has readers
    of its source after it, which then read the padded buffer's interior."""
    x, p, o = _t((1, h, w, c), et), _t((1, h + 2, w + 2, c), et), _t((1, h, w, c), "i32" if et == "i8" else et)
    zero = "0" if et == "i8" else "0.0"
    lo, hi = ("-5 : i8", "100 : i8") if et == "i8" else ("0.0 : f32", "6.0 : f32")
    bias = _t((c,), "i32" if et == "i8" else et)
    if channel_pad:
        second_t = _t((1, h, w, c + 4), et)
        second = (f'  %cp = tosa.const_shape {{values = dense<[0, 0, 0, 0, 0, 0, 0, 4]> : tensor<8xindex>}} : () -> !tosa.shape<8>\n'
                  f'  %s = tosa.pad %r, %cp, %pv : ({x}, !tosa.shape<8>, tensor<1x{et}>) -> {second_t}\n')
    elif et == "i8":
        second_t = x
        second = f"  %s = tosa.clamp %r {{min_val = 0 : i8, max_val = 50 : i8}} : ({x}) -> {x}\n"
    else:
        second_t = x
        second = f"  %s = tosa.add %r, %x : ({x}, {x}) -> {x}\n"
    return f"""
func.func @main(%x: {x}, %w: {_t((3, 3, c, 1), et)}, %b: {bias}) -> ({o}, {second_t}) {{
  %r = tosa.clamp %x {{min_val = {lo}, max_val = {hi}}} : ({x}) -> {x}
  %pads = tosa.const_shape {{values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>}} : () -> !tosa.shape<8>
  %pv = "tosa.const"() <{{values = dense<{zero}> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %p = tosa.pad %r, %pads, %pv : ({x}, !tosa.shape<8>, tensor<1x{et}>) -> {p}
  %z = "tosa.const"() <{{values = dense<{zero}> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %0 = tosa.depthwise_conv2d %p, %w, %b, %z, %z {{acc_type = {'i32' if et == 'i8' else et}, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : ({p}, {_t((3, 3, c, 1), et)}, {bias}, tensor<1x{et}>, tensor<1x{et}>) -> {o}
{second}  return %0, %s : {o}, {second_t}
}}"""


def _copies(src: str, pipeline: str) -> int:
    return sum(1 for op in lower(src, pipeline).walk() if op.name == "memref.copy")


CASES = {"f32": relu_pad_depthwise(5, 7, 24), "i8": relu_pad_depthwise(6, 5, 16, "i8"),
         "f32_odd_channels": relu_pad_depthwise(3, 9, 13),
         # the padded tensor has another reader after the pad (it then reads the interior)
         "f32_second_reader": two_readers(5, 7, 24), "i8_second_reader": two_readers(4, 6, 16, "i8"),
         "f32_second_pad": two_readers(3, 5, 12, channel_pad=True),
         "i8_second_pad": two_readers(5, 3, 8, "i8", channel_pad=True)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pad_written_in_place(name):
    src = CASES[name]
    module = parse(src)
    inputs = random_inputs(module, seed=len(name))
    got = jit.NativeModule(parse(src)).call(inputs)
    assert_same(got, jit.NativeModule(parse(src), pipeline=WITHOUT).call(inputs), f"{name}: with vs without")
    if name.startswith("i8"):
        assert_same(got, run(module, inputs), f"{name}: vs interpreter")
    loops = ",".join(expanded("tosa-to-loops"))
    assert _copies(src, loops) < _copies(src, loops.replace("linalg-write-into-copy-target,", ""))


def test_mobilenet_style():
    src = mobilenet_mlir(width=0.25)
    x = np.random.default_rng(0).standard_normal((1, 224, 224, 3)).astype(np.float32)
    got = jit.NativeModule(parse(src)).call([x])
    assert_same(got, jit.NativeModule(parse(src), pipeline=WITHOUT).call([x]), "MobileNet-style")

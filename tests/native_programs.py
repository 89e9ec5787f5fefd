"""TOSA programs for the native-code tests (tests/native/): one CONV2D, DEPTHWISE_CONV2D, MATMUL
or MAX_POOL2D as @main, any sizes and element types, and seeded random inputs for them."""

from __future__ import annotations

import numpy as np


def _t(shape, et):
    return "tensor<" + "x".join(map(str, shape)) + f"x{et}>"


def conv(n, h, w, cin, cout, k, stride, et="f32", acc="f32", out_et=None, zp="0"):
    out_et = out_et or et
    oh, ow = (h + 2 * (k // 2) - k) // stride + 1, (w + 2 * (k // 2) - k) // stride + 1
    p = k // 2
    bias_et = "i32" if et == "i8" else et
    zlit = zp if et == "i8" else "0.0"
    return f"""
func.func @main(%x: {_t((n, h, w, cin), et)}, %w: {_t((cout, k, k, cin), et)}, %b: {_t((cout,), bias_et)}) -> {_t((n, oh, ow, cout), out_et)} {{
  %z = "tosa.const"() <{{values = dense<{zlit}> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %wz = "tosa.const"() <{{values = dense<{'0' if et == 'i8' else '0.0'}> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %0 = tosa.conv2d %x, %w, %b, %z, %wz {{acc_type = {acc}, dilation = array<i64: 1, 1>, pad = array<i64: {p}, {p}, {p}, {p}>, stride = array<i64: {stride}, {stride}>}} : ({_t((n, h, w, cin), et)}, {_t((cout, k, k, cin), et)}, {_t((cout,), bias_et)}, tensor<1x{et}>, tensor<1x{et}>) -> {_t((n, oh, ow, cout), out_et)}
  return %0 : {_t((n, oh, ow, cout), out_et)}
}}"""


def depthwise(h, w, c, m, et="f32"):
    return f"""
func.func @main(%x: {_t((1, h, w, c), et)}, %w: {_t((3, 3, c, m), et)}, %b: {_t((c * m,), et)}) -> {_t((1, h, w, c * m), et)} {{
  %z = "tosa.const"() <{{values = dense<0.0> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %z, %z {{acc_type = {et}, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}} : ({_t((1, h, w, c), et)}, {_t((3, 3, c, m), et)}, {_t((c * m,), et)}, tensor<1x{et}>, tensor<1x{et}>) -> {_t((1, h, w, c * m), et)}
  return %0 : {_t((1, h, w, c * m), et)}
}}"""


def matmul(b, m, k, n, et="f32", out_et=None):
    out_et = out_et or et
    zero = "0" if et.startswith("i") else "0.0"
    return f"""
func.func @main(%a: {_t((b, m, k), et)}, %c: {_t((b, k, n), et)}) -> {_t((b, m, n), out_et)} {{
  %z = "tosa.const"() <{{values = dense<{zero}> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %0 = tosa.matmul %a, %c, %z, %z : ({_t((b, m, k), et)}, {_t((b, k, n), et)}, tensor<1x{et}>, tensor<1x{et}>) -> {_t((b, m, n), out_et)}
  return %0 : {_t((b, m, n), out_et)}
}}"""


def max_pool(h, w, c):
    return f"""
func.func @main(%x: {_t((1, h, w, c), 'f32')}) -> {_t((1, h, w, c), 'f32')} {{
  %0 = tosa.max_pool2d %x {{kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}} : ({_t((1, h, w, c), 'f32')}) -> {_t((1, h, w, c), 'f32')}
  return %0 : {_t((1, h, w, c), 'f32')}
}}"""


def random_inputs(module, seed: int) -> list[np.ndarray]:
    """Seeded inputs for @main: integers over int8's range (else +-1000), floats standard normal."""
    from tosa_xdsl.interpreter.values import dtype_of

    rng = np.random.default_rng(seed)
    fn = next(op for op in module.body.block.ops if op.name == "func.func")
    out = []
    for t in fn.function_type.inputs.data:
        dt, shape = dtype_of(t.element_type), tuple(t.get_shape())
        if np.issubdtype(dt, np.integer):
            info = np.iinfo(dt)
            lo, hi = (info.min, info.max) if dt == np.int8 else (-1000, 1000)
            out.append(rng.integers(lo, hi, shape, endpoint=True).astype(dt))
        else:
            out.append(rng.standard_normal(shape).astype(dt))
    return out


def pad_program(shape, pads, et="f32", second_reader=False) -> str:
    """PAD of the argument (or of CLAMP(argument) that an ADD also reads)."""
    out = [d + pads[2 * k] + pads[2 * k + 1] for k, d in enumerate(shape)]
    x, p = _t(shape, et), _t(out, et)
    zero = "0" if et == "i8" else "0.5"
    lo, hi = ("-5 : i8", "100 : i8") if et == "i8" else ("0.0 : f32", "6.0 : f32")
    src, body = "%x", ""
    ret, rtypes = "%p", p
    if second_reader:
        body = f"  %r = tosa.clamp %x {{min_val = {lo}, max_val = {hi}}} : ({x}) -> {x}\n"
        src = "%r"
        body2 = (f"  %a = tosa.clamp %r {{min_val = -3 : i8, max_val = 50 : i8}} : ({x}) -> {x}\n" if et == "i8"
                 else f"  %a = tosa.add %r, %x : ({x}, {x}) -> {x}\n")
        ret, rtypes = "%p, %a", f"{p}, {x}"
    else:
        body2 = ""
    pads_s = ", ".join(map(str, pads))
    return f"""
func.func @main(%x: {x}) -> ({rtypes}) {{
{body}  %pads = tosa.const_shape {{values = dense<[{pads_s}]> : tensor<{len(pads)}xindex>}} : () -> !tosa.shape<{len(pads)}>
  %pv = "tosa.const"() <{{values = dense<{zero}> : tensor<1x{et}>}}> : () -> tensor<1x{et}>
  %p = tosa.pad {src}, %pads, %pv : ({x}, !tosa.shape<{len(pads)}>, tensor<1x{et}>) -> {p}
{body2}  return {ret} : {rtypes}
}}"""

"""ERROR_IF checks of spec 2.3 (tensor), 2.12 (RESIZE) and 2.13 (RESCALE): per condition, a
valid graph and a graph breaking just that condition.

Each case is verified by our verifier (module.verify()) and, where the graph is concrete (no
dynamic dims, no non-constant operands), also run through the tosa-tools reference model
(tests/oracle.py, translator verification off) whose verdict must agree: VALID for the valid
graph, ERROR for the broken one.

The negative lit tests tests/filecheck/verify/{tensor,image,type_conversion}_error_if.mlir are
generated from the same table:  python tests/test_verify_tensor.py --write-lit
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tosa_xdsl import spec_tables
from tosa_xdsl.context import make_context  # noqa: E402
from tosa_xdsl.spec_tables import op_spec  # noqa: E402

# -- a tiny graph builder (attribute-dictionary syntax: both tosa-opts read it) -------------


def T(shape, et: str) -> str:
    if shape is None:
        return f"tensor<*x{et}>"
    if len(shape) == 0:
        return f"tensor<{et}>"
    return "tensor<" + "x".join("?" if d is None else str(d) for d in shape) + f"x{et}>"


def _lit(value, et: str) -> str:
    if et.startswith(("f", "bf")):
        return repr(float(value))
    return str(int(value))


class G:
    """func.func @main: arguments, body lines, one op line (remembered for expected-error)."""

    def __init__(self):
        self.args: list[str] = []
        self.body: list[str] = []
        self.op_line = 0
        self.concrete = True  # no dynamic dims / non-constant operands: the oracle can run it

    def arg(self, name: str, ty: str) -> str:
        if "?" in ty or "*" in ty or "!tosa.shape" in ty:
            self.concrete = False
        self.args.append(f"%{name}: {ty}")
        return f"%{name}"

    def zp(self, name: str, value, et: str) -> str:
        """A zero point (or shift, multiplier) tensor<1xT> / tensor<NxT>: constant, or an
        argument when value is None."""
        if value is None:
            self.concrete = False
            return self.arg(name, f"tensor<1x{et}>")
        values = value if isinstance(value, (list, tuple)) else [value]
        lits = ", ".join(_lit(v, et) for v in values)
        ty = f"tensor<{len(values)}x{et}>"
        self.body.append(f'%{name} = "tosa.const"() <{{values = dense<[{lits}]> : {ty}}}> : () -> {ty}')
        return f"%{name}"

    def shape(self, name: str, values) -> str:
        n = len(values) if values is not None else {"scale": 4}.get(name, 2)
        if values is None:
            return self.arg(name, f"!tosa.shape<{n}>")
        lits = ", ".join(str(v) for v in values)
        self.body.append(f"%{name} = tosa.const_shape {{values = dense<[{lits}]> : tensor<{n}xindex>}}"
                         f" : () -> !tosa.shape<{n}>")
        return f"%{name}"

    def render(self, op: str, results: list[str]) -> str:
        for r in results:
            if "?" in r or "*" in r:
                self.concrete = False
        res = ", ".join(f"%r{i}" for i in range(len(results)))
        lines = [f"func.func @main({', '.join(self.args)}) -> ({', '.join(results)}) {{"]
        lines += ["  " + b for b in self.body]
        self.op_line = len(lines)
        lines.append(f"  {res} = {op}")
        lines.append(f"  return {res} : {', '.join(results)}")
        lines.append("}")
        return "\n".join(lines)


def _arr(values) -> str:
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


# Element types of the integer / float rows: in_t -> (weight_t, out_t, acc_t).
_CONV_TYPES = {"f32": ("f32", "f32", "f32"), "f16": ("f16", "f16", "f16"),
               "bf16": ("bf16", "bf16", "f32"), "i8": ("i8", "i32", "i32"),
               "i16": ("i8", "i48", "i48")}


def _fdiv(a, b):
    return a // b if b > 0 else 1


def conv2d(et="f32", N=1, IH=8, IW=8, IC=3, OC=4, KH=3, KW=3, pad=(1, 1, 1, 1), stride=(1, 1),
           dilation=(1, 1), OH="auto", OW="auto", BC="auto", input_zp=0, weight_zp=0, w_et=None):
    wt, ot, acc = _CONV_TYPES[et]
    wt = w_et or wt
    if OH == "auto":
        OH = _fdiv(IH - 1 + pad[0] + pad[1] - (KH - 1) * dilation[0], stride[0]) + 1
    if OW == "auto":
        OW = _fdiv(IW - 1 + pad[2] + pad[3] - (KW - 1) * dilation[1], stride[1]) + 1
    BC = OC if BC == "auto" else BC
    g = G()
    i, w, b = (g.arg("input", T([N, IH, IW, IC], et)), g.arg("weight", T([OC, KH, KW, IC], wt)),
               g.arg("bias", T([BC], ot)))
    iz, wz = g.zp("input_zp", input_zp, et), g.zp("weight_zp", weight_zp, wt)
    out = T([N, OH, OW, OC], ot)
    return g, g.render(
        f"tosa.conv2d {i}, {w}, {b}, {iz}, {wz} {{acc_type = {acc}, dilation = {_arr(dilation)}, "
        f"pad = {_arr(pad)}, stride = {_arr(stride)}}} : ({T([N, IH, IW, IC], et)}, "
        f"{T([OC, KH, KW, IC], wt)}, {T([BC], ot)}, tensor<1x{et}>, tensor<1x{wt}>) -> {out}", [out])


def conv3d(et="f32", N=1, ID=4, IH=6, IW=6, IC=2, OC=3, KD=2, KH=3, KW=3, pad=(0, 0, 1, 1, 1, 1),
           stride=(1, 1, 1), dilation=(1, 1, 1), OD="auto", OH="auto", OW="auto", BC="auto",
           input_zp=0, weight_zp=0):
    wt, ot, acc = _CONV_TYPES[et]
    I, K = (ID, IH, IW), (KD, KH, KW)
    O = [OD, OH, OW]
    for k in range(3):
        if O[k] == "auto":
            O[k] = _fdiv(I[k] - 1 + pad[2 * k] + pad[2 * k + 1] - (K[k] - 1) * dilation[k], stride[k]) + 1
    BC = OC if BC == "auto" else BC
    g = G()
    ti, tw, tb = T([N, *I, IC], et), T([OC, *K, IC], wt), T([BC], ot)
    i, w, b = g.arg("input", ti), g.arg("weight", tw), g.arg("bias", tb)
    iz, wz = g.zp("input_zp", input_zp, et), g.zp("weight_zp", weight_zp, wt)
    out = T([N, *O, OC], ot)
    return g, g.render(
        f"tosa.conv3d {i}, {w}, {b}, {iz}, {wz} {{acc_type = {acc}, dilation = {_arr(dilation)}, "
        f"pad = {_arr(pad)}, stride = {_arr(stride)}}} : ({ti}, {tw}, {tb}, tensor<1x{et}>, "
        f"tensor<1x{wt}>) -> {out}", [out])


def depthwise(et="f32", N=1, IH=8, IW=8, C=3, M=2, KH=3, KW=3, pad=(1, 1, 1, 1), stride=(1, 1),
              dilation=(1, 1), OH="auto", OW="auto", BC="auto", input_zp=0, weight_zp=0):
    wt, ot, acc = _CONV_TYPES[et]
    if OH == "auto":
        OH = _fdiv(IH - 1 + pad[0] + pad[1] - (KH - 1) * dilation[0], stride[0]) + 1
    if OW == "auto":
        OW = _fdiv(IW - 1 + pad[2] + pad[3] - (KW - 1) * dilation[1], stride[1]) + 1
    BC = C * M if BC == "auto" else BC
    g = G()
    ti, tw, tb = T([N, IH, IW, C], et), T([KH, KW, C, M], wt), T([BC], ot)
    i, w, b = g.arg("input", ti), g.arg("weight", tw), g.arg("bias", tb)
    iz, wz = g.zp("input_zp", input_zp, et), g.zp("weight_zp", weight_zp, wt)
    out = T([N, OH, OW, C * M], ot)
    return g, g.render(
        f"tosa.depthwise_conv2d {i}, {w}, {b}, {iz}, {wz} {{acc_type = {acc}, dilation = "
        f"{_arr(dilation)}, pad = {_arr(pad)}, stride = {_arr(stride)}}} : ({ti}, {tw}, {tb}, "
        f"tensor<1x{et}>, tensor<1x{wt}>) -> {out}", [out])


def transpose_conv2d(et="f32", N=1, IH=4, IW=4, IC=2, OC=3, KH=3, KW=3, out_pad=(0, 0, 0, 0),
                     stride=(2, 2), OH="auto", OW="auto", BC="auto", input_zp=0, weight_zp=0):
    wt, ot, acc = _CONV_TYPES[et]
    if OH == "auto":
        OH = (IH - 1) * stride[0] + out_pad[0] + out_pad[1] + KH
    if OW == "auto":
        OW = (IW - 1) * stride[1] + out_pad[2] + out_pad[3] + KW
    BC = OC if BC == "auto" else BC
    g = G()
    ti, tw, tb = T([N, IH, IW, IC], et), T([OC, KH, KW, IC], wt), T([BC], ot)
    i, w, b = g.arg("input", ti), g.arg("weight", tw), g.arg("bias", tb)
    iz, wz = g.zp("input_zp", input_zp, et), g.zp("weight_zp", weight_zp, wt)
    out = T([N, OH, OW, OC], ot)
    return g, g.render(
        f"tosa.transpose_conv2d {i}, {w}, {b}, {iz}, {wz} {{acc_type = {acc}, out_pad = "
        f"{_arr(out_pad)}, stride = {_arr(stride)}}} : ({ti}, {tw}, {tb}, tensor<1x{et}>, "
        f"tensor<1x{wt}>) -> {out}", [out])


def _pool_out(IH, IW, kernel, stride, pad, OH, OW):
    if OH == "auto":
        OH = _fdiv(IH + pad[0] + pad[1] - kernel[0], stride[0]) + 1
    if OW == "auto":
        OW = _fdiv(IW + pad[2] + pad[3] - kernel[1], stride[1]) + 1
    return OH, OW


def avg_pool2d(et="f32", N=1, IH=7, IW=7, C=2, kernel=(3, 3), stride=(2, 2), pad=(1, 1, 1, 1),
               OH="auto", OW="auto", input_zp=0, output_zp=0):
    acc = {"f32": "f32", "f16": "f16", "i8": "i32", "i16": "i32", "bf16": "f32"}[et]
    OH, OW = _pool_out(IH, IW, kernel, stride, pad, OH, OW)
    g = G()
    ti, to = T([N, IH, IW, C], et), T([N, OH, OW, C], et)
    i = g.arg("input", ti)
    iz, oz = g.zp("input_zp", input_zp, et), g.zp("output_zp", output_zp, et)
    return g, g.render(
        f"tosa.avg_pool2d {i}, {iz}, {oz} {{acc_type = {acc}, kernel = {_arr(kernel)}, pad = "
        f"{_arr(pad)}, stride = {_arr(stride)}}} : ({ti}, tensor<1x{et}>, tensor<1x{et}>) -> {to}",
        [to])


def max_pool2d(et="f32", N=1, IH=7, IW=7, C=2, kernel=(3, 3), stride=(2, 2), pad=(1, 1, 1, 1),
               OH="auto", OW="auto"):
    OH, OW = _pool_out(IH, IW, kernel, stride, pad, OH, OW)
    g = G()
    ti, to = T([N, IH, IW, C], et), T([N, OH, OW, C], et)
    i = g.arg("input", ti)
    return g, g.render(
        f"tosa.max_pool2d {i} {{kernel = {_arr(kernel)}, pad = {_arr(pad)}, stride = "
        f"{_arr(stride)}}} : ({ti}) -> {to}", [to])


def argmax(shape=(3, 4, 5), axis=1, out="auto", et="f32"):
    if out == "auto":
        out = [d for i, d in enumerate(shape) if i != axis]
    g = G()
    ti, to = T(shape, et), T(out, "i32")
    i = g.arg("input", ti)
    return g, g.render(f"tosa.argmax {i} {{axis = {axis} : i32}} : ({ti}) -> {to}", [to])


def fft2d(N=1, H=8, W=16, OH=None, OW=None):
    g = G()
    ti, to = T([N, H, W], "f32"), T([N, OH or H, OW or W], "f32")
    r, i = g.arg("input_real", ti), g.arg("input_imag", ti)
    return g, g.render(f"tosa.fft2d {r}, {i} {{inverse = false}} : ({ti}, {ti}) -> ({to}, {to})",
                       [to, to])


def rfft2d(N=1, H=8, W=16):
    g = G()
    ti, to = T([N, H, W], "f32"), T([N, H, (W // 2 + 1) if W is not None else None], "f32")
    r = g.arg("input_real", ti)
    return g, g.render(f"tosa.rfft2d {r} : ({ti}) -> ({to}, {to})", [to, to])


def matmul(et="i8", a_zp=0, b_zp=0, N=1, H=2, C=3, W=4):
    ot = {"i8": "i32", "i16": "i48", "f32": "f32", "f16": "f16", "bf16": "f32"}[et]
    g = G()
    ta, tb, to = T([N, H, C], et), T([N, C, W], et), T([N, H, W], ot)
    a, b = g.arg("a", ta), g.arg("b", tb)
    az, bz = g.zp("a_zp", a_zp, et), g.zp("b_zp", b_zp, et)
    return g, g.render(f"tosa.matmul {a}, {b}, {az}, {bz} : ({ta}, {tb}, tensor<1x{et}>, "
                       f"tensor<1x{et}>) -> {to}", [to])


def resize(et="f32", N=1, IH=4, IW=4, C=1, scale=(4, 2, 4, 2), offset=(-1, -1), border=(1, 1),
           OH="auto", OW="auto", mode="BILINEAR"):
    out_et = {"f32": "f32", "f16": "f16", "i8": "i32" if mode == "BILINEAR" else "i8",
              "i16": "i48" if mode == "BILINEAR" else "i16"}[et]
    if OH == "auto":
        OH = _fdiv((IH - 1) * scale[0] - offset[0] + border[0], scale[1]) + 1
    if OW == "auto":
        OW = _fdiv((IW - 1) * scale[2] - offset[1] + border[1], scale[3]) + 1
    g = G()
    ti, to = T([N, IH, IW, C], et), T([N, OH, OW, C], out_et)
    i = g.arg("input", ti)
    s, o, b = g.shape("scale", scale), g.shape("offset", offset), g.shape("border", border)
    return g, g.render(f"tosa.resize {i}, {s}, {o}, {b} {{mode = {mode}}} : ({ti}, !tosa.shape<4>, "
                       f"!tosa.shape<2>, !tosa.shape<2>) -> {to}", [to])


def rescale(in_et="i8", out_et="i8", shape=(2, 3), scale32=True, rounding_mode="SINGLE_ROUND",
            per_channel=False, input_unsigned=False, output_unsigned=False, input_zp=0,
            output_zp=0, multiplier="auto", shift="auto"):
    nc = shape[-1] if per_channel and shape else 1
    mul_t = "i32" if scale32 else "i16"
    if multiplier == "auto":
        multiplier = [1 << 30 if scale32 else 1 << 14] * nc
    if shift == "auto":
        shift = [30 if scale32 else 14] * nc
    g = G()
    ti, to = T(shape, in_et), T(shape, out_et)
    i = g.arg("input", ti)
    m, s = g.zp("multiplier", multiplier, mul_t), g.zp("shift", shift, "i8")
    iz, oz = g.zp("input_zp", input_zp, in_et), g.zp("output_zp", output_zp, out_et)
    b = lambda v: "true" if v else "false"  # noqa: E731
    return g, g.render(
        f"tosa.rescale {i}, {m}, {s}, {iz}, {oz} {{input_unsigned = {b(input_unsigned)}, "
        f"output_unsigned = {b(output_unsigned)}, per_channel = {b(per_channel)}, rounding_mode = "
        f"{rounding_mode}, scale32 = {b(scale32)}}} : ({ti}, tensor<{len(multiplier)}x{mul_t}>, "
        f"tensor<{len(shift)}xi8>, tensor<1x{in_et}>, tensor<1x{out_et}>) -> {to}", [to])


# -- the case table ----------------------------------------------------------------------------


@dataclass
class Case:
    cid: str              # condition id, e.g. "CONV2D#6"
    valid: tuple          # (builder, kwargs): a graph that must verify (borderline if possible)
    invalid: tuple        # (builder, kwargs): the same graph breaking just `cid`
    message: str          # a substring of our diagnostic
    oracle: bool = True   # run the reference model too
    note: str = ""


def C(cid, builder, valid: dict, invalid: dict, message: str, **kw) -> Case:
    return Case(cid, (builder, valid), (builder, invalid), message, **kw)


CASES: list[Case] = [
    # 2.3.1 ARGMAX
    C("ARGMAX#1", argmax, dict(axis=2), dict(axis=3, out=[3, 4]), "axis 3 is out of range"),
    C("ARGMAX#2", argmax, dict(axis=0), dict(axis=0, out=[3, 5]), "without axis 0"),
    # 2.3.2 AVG_POOL2D
    C("AVG_POOL2D#1", avg_pool2d, dict(et="i8", input_zp=-128), dict(et="i16", input_zp=1),
      "input_zp is 1 but must be 0 for in_out_t = i16"),
    C("AVG_POOL2D#2", avg_pool2d, dict(et="i8", output_zp=127), dict(et="f32", output_zp=0.5),
      "output_zp is 0.5 but must be 0 for in_out_t = f32"),
    C("AVG_POOL2D#3", avg_pool2d, dict(kernel=(1, 1), pad=(0, 0, 0, 0)),
      dict(kernel=(1, 0), pad=(0, 0, 0, 0), OW=4), "kernel size must be >= 1, got kernel_x = 0"),
    C("AVG_POOL2D#4", avg_pool2d, dict(stride=(1, 1)), dict(stride=(0, 1), OH=7),
      "stride must be >= 1, got stride_y = 0"),
    C("AVG_POOL2D#5", avg_pool2d, dict(pad=(0, 0, 0, 0), IH=7, IW=7),
      dict(pad=(0, -1, 0, 0), OH=3), "padding must be >= 0, got pad_bottom = -1"),
    C("AVG_POOL2D#6", avg_pool2d, dict(kernel=(3, 3), pad=(1, 1, 2, 2), IW=5),
      dict(kernel=(3, 3), pad=(1, 1, 3, 1), IW=6), "pad_left = 3 >= kernel_x = 3"),
    C("AVG_POOL2D#7", avg_pool2d, dict(kernel=(3, 3), pad=(2, 2, 1, 1), IH=5),
      dict(kernel=(3, 3), pad=(1, 3, 1, 1), IH=6), "pad_bottom = 3 >= kernel_y = 3"),
    C("AVG_POOL2D#8", avg_pool2d, dict(), dict(OH=5),
      "output height 5 does not equal (IH + pad_top + pad_bottom - kernel_y) / stride_y + 1 = 4"),
    C("AVG_POOL2D#9", avg_pool2d, dict(), dict(IW=8, OW=4),
      "IW + pad_left + pad_right - kernel_x = 7 is not divisible by stride_x = 2"),
    # 2.3.3 CONV2D
    C("CONV2D#1", conv2d, dict(et="i8", input_zp=-128), dict(et="i16", input_zp=-3),
      "input_zp is -3 but must be 0 for in_t = i16"),
    C("CONV2D#2", conv2d, dict(et="i16", weight_zp=5), dict(et="f16", weight_zp=1.0),
      "weight_zp is 1.0 but must be 0 for weight_t = f16"),
    C("CONV2D#3", conv2d, dict(pad=(0, 0, 0, 0)), dict(pad=(1, 1, -1, 1), OW=7),
      "padding must be >= 0, got pad_left = -1"),
    C("CONV2D#4", conv2d, dict(stride=(1, 1)), dict(stride=(1, 0), OW=8),
      "stride must be >= 1, got stride_x = 0"),
    C("CONV2D#5", conv2d, dict(dilation=(1, 1)), dict(dilation=(0, 1), OH=8),
      "dilation must be >= 1, got dilation_y = 0"),
    C("CONV2D#6", conv2d, dict(IH=9, stride=(2, 1), dilation=(2, 1)), dict(OH=7),
      "output height 7 does not equal (IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y) "
      "/ stride_y + 1 = 8"),
    C("CONV2D#7", conv2d, dict(IW=9, stride=(1, 2)), dict(IW=8, stride=(1, 2), OW=4),
      "IW - 1 + pad_left + pad_right - (KW - 1) * dilation_x = 7 is not divisible by stride_x = 2"),
    C("CONV2D#8", conv2d, dict(BC=1), dict(BC=2), "bias has 2 elements (BC) but must have OC = 4 or 1"),
    # 2.3.4 CONV3D
    C("CONV3D#1", conv3d, dict(et="i8", input_zp=7), dict(et="f32", input_zp=7.0),
      "input_zp is 7.0 but must be 0 for in_t = f32"),
    C("CONV3D#2", conv3d, dict(et="i8", weight_zp=-7), dict(et="i16", input_zp=0, weight_zp=0),
      "", note="i16 x i8 takes weight_zp; replaced below"),
    C("CONV3D#3", conv3d, dict(pad=(0, 0, 0, 0, 0, 0), IH=4, IW=4),
      dict(pad=(-1, 0, 1, 1, 1, 1), OD=2), "padding must be >= 0, got pad_d0 = -1"),
    C("CONV3D#4", conv3d, dict(stride=(1, 1, 1)), dict(stride=(0, 1, 1), OD=3),
      "stride must be >= 1, got stride_d = 0"),
    C("CONV3D#5", conv3d, dict(dilation=(1, 1, 1)), dict(dilation=(1, 1, 0), OW=6),
      "dilation must be >= 1, got dilation_x = 0"),
    C("CONV3D#6", conv3d, dict(ID=6, stride=(2, 1, 1)), dict(OD=4),
      "output depth 4 does not equal (ID - 1 + pad_d0 + pad_d1 - (KD - 1) * dilation_d) / stride_d + 1 = 3"),
    C("CONV3D#7", conv3d, dict(IH=7, stride=(1, 2, 1)), dict(IH=6, stride=(1, 2, 1), OH=3),
      "is not divisible by stride_y = 2"),
    C("CONV3D#8", conv3d, dict(IW=6, dilation=(1, 1, 2), pad=(0, 0, 1, 1, 2, 2)), dict(OW=5),
      "output width 5 does not equal"),
    C("CONV3D#9", conv3d, dict(BC=3), dict(BC=4), "bias has 4 elements (BC) but must have OC = 3 or 1"),
    # 2.3.5 DEPTHWISE_CONV2D
    C("DEPTHWISE_CONV2D#1", depthwise, dict(et="i8", input_zp=1), dict(et="bf16", input_zp=1.0),
      "input_zp is 1.0 but must be 0 for in_t = bf16"),
    C("DEPTHWISE_CONV2D#2", depthwise, dict(et="i8", weight_zp=1), dict(et="f32", weight_zp=-1.0),
      "weight_zp is -1.0 but must be 0 for weight_t = f32"),
    C("DEPTHWISE_CONV2D#3", depthwise, dict(pad=(0, 0, 0, 0)), dict(pad=(0, 0, 0, -1), OW=6),
      "padding must be >= 0, got pad_right = -1"),
    C("DEPTHWISE_CONV2D#4", depthwise, dict(stride=(1, 1)), dict(stride=(-1, 1), OH=8),
      "stride must be >= 1, got stride_y = -1"),
    C("DEPTHWISE_CONV2D#5", depthwise, dict(dilation=(1, 1)), dict(dilation=(1, 0), OW=8),
      "dilation must be >= 1, got dilation_x = 0"),
    C("DEPTHWISE_CONV2D#6", depthwise, dict(IH=9, stride=(2, 1)), dict(IH=9, stride=(2, 1), OH=4),
      "output height 4 does not equal"),
    C("DEPTHWISE_CONV2D#7", depthwise, dict(), dict(OW=9), "output width 9 does not equal"),
    C("DEPTHWISE_CONV2D#8", depthwise, dict(BC=6), dict(BC=3),
      "bias has 3 elements (BC) but must have C*M = 6 or 1"),
    # 2.3.6 FFT2D
    C("FFT2D#1", fft2d, dict(H=1, W=2), dict(H=6), "H = 6 (input_real dim 1) must be a power of two"),
    C("FFT2D#2", fft2d, dict(H=4, W=32), dict(W=12), "W = 12 (input_real dim 2) must be a power of two"),
    # 2.3.7 MATMUL
    C("MATMUL#1", matmul, dict(et="i8", a_zp=-5, b_zp=7), dict(et="i16", a_zp=0, b_zp=3),
      "b_zp is 3 but must be 0 for in_t = i16"),
    # 2.3.8 MAX_POOL2D
    C("MAX_POOL2D#1", max_pool2d, dict(kernel=(1, 1), pad=(0, 0, 0, 0), stride=(1, 1)),
      dict(kernel=(0, 1), pad=(0, 0, 0, 0), stride=(1, 1), OH=8), "kernel size must be >= 1"),
    C("MAX_POOL2D#2", max_pool2d, dict(stride=(1, 1)), dict(stride=(2, 0), OW=7),
      "stride must be >= 1, got stride_x = 0"),
    C("MAX_POOL2D#3", max_pool2d, dict(pad=(0, 0, 0, 0), IH=5, IW=5),
      dict(pad=(-1, 0, 0, 0), IH=6, IW=5), "padding must be >= 0, got pad_top = -1"),
    C("MAX_POOL2D#4", max_pool2d, dict(pad=(0, 0, 2, 2), IW=5), dict(pad=(0, 0, 1, 3), IW=5, OW=4),
      "pad_right = 3 >= kernel_x = 3"),
    C("MAX_POOL2D#5", max_pool2d, dict(pad=(2, 0, 0, 0), IH=7, IW=5), dict(pad=(3, 0, 0, 0), IH=6, IW=5),
      "pad_top = 3 >= kernel_y = 3"),
    C("MAX_POOL2D#6", max_pool2d, dict(), dict(OH=3),
      "output height 3 does not equal (IH + pad_top + pad_bottom - kernel_y) / stride_y + 1 = 4"),
    C("MAX_POOL2D#7", max_pool2d, dict(), dict(IW=6, OW=3), "is not divisible by stride_x = 2"),
    # 2.3.9 RFFT2D
    C("RFFT2D#1", rfft2d, dict(H=2), dict(H=3), "H = 3 (input_real dim 1) must be a power of two"),
    C("RFFT2D#2", rfft2d, dict(W=2), dict(W=10), "W = 10 (input_real dim 2) must be a power of two"),
    # 2.3.10 TRANSPOSE_CONV2D
    C("TRANSPOSE_CONV2D#1", transpose_conv2d, dict(et="i8", input_zp=-1),
      dict(et="f16", input_zp=-1.0), "input_zp is -1.0 but must be 0 for in_t = f16"),
    C("TRANSPOSE_CONV2D#2", transpose_conv2d, dict(et="i16", weight_zp=3), dict(et="f32", weight_zp=2.0),
      "weight_zp is 2.0 but must be 0 for weight_t = f32"),
    C("TRANSPOSE_CONV2D#3", transpose_conv2d, dict(out_pad=(-2, -2, 0, 0)),
      dict(out_pad=(-3, 0, 0, 0)), "out_pad_top = -3 must be greater than -KH = -3"),
    C("TRANSPOSE_CONV2D#4", transpose_conv2d, dict(out_pad=(0, 0, 1, -2)),
      dict(out_pad=(0, 0, 0, -3)), "out_pad_right = -3 must be greater than -KW = -3"),
    C("TRANSPOSE_CONV2D#5", transpose_conv2d, dict(stride=(1, 1)), dict(stride=(0, 1), OH=3),
      "stride must be >= 1, got stride_y = 0"),
    C("TRANSPOSE_CONV2D#6", transpose_conv2d, dict(out_pad=(1, 2, 0, 0)), dict(OH=10),
      "output height 10 does not equal (IH - 1) * stride_y + out_pad_top + out_pad_bottom + KH = 9"),
    C("TRANSPOSE_CONV2D#7", transpose_conv2d, dict(stride=(2, 3)), dict(stride=(2, 3), OW=11),
      "output width 11 does not equal (IW - 1) * stride_x + out_pad_left + out_pad_right + KW = 12"),
    C("TRANSPOSE_CONV2D#8", transpose_conv2d, dict(BC=1), dict(BC=2),
      "bias has 2 elements (BC) but must have OC = 3 or 1"),
    # 2.12.1 RESIZE
    C("RESIZE#1", resize, dict(IH=16383, IW=1, scale=(1, 1, 1, 1), offset=(0, 0), border=(0, 0)),
      dict(IH=16384, IW=1, scale=(1, 1, 1, 1), offset=(0, 0), border=(0, 0)),
      "IH = 16384 must be less than 16384"),
    C("RESIZE#2", resize, dict(scale=(1, 1, 1, 1), offset=(0, 0), border=(0, 0)),
      dict(scale=(1, 0, 1, 1), offset=(0, 0), border=(0, 0), OH=4),
      "scale values must be positive, got scale_y_d = 0"),
    C("RESIZE#3", resize, dict(IH=2, IW=2, scale=(2048, 2048, 2048, 2048), offset=(0, 0), border=(0, 0)),
      dict(IH=2, IW=2, scale=(2049, 2049, 2048, 2048), offset=(0, 0), border=(0, 0)),
      "scale_y_n = 2049 must be at most 2048"),
    C("RESIZE#4", resize, dict(IH=16, IW=16, scale=(1, 15, 1, 1), offset=(0, 0), border=(0, 0)),
      dict(IH=17, IW=16, scale=(1, 16, 1, 1), offset=(0, 0), border=(0, 0)),
      "scale_y_d = 16 must be less than 16 * scale_y_n = 16"),
    C("RESIZE#5", resize, dict(scale=(2, 1, 2, 1), offset=(-2, 0), border=(0, 0)),
      dict(scale=(2, 1, 2, 1), offset=(-3, 0), border=(0, 0)),
      "offset_y = -3 must be in [-scale_y_n, 16 * scale_y_n) = [-2, 32)"),
    C("RESIZE#6", resize, dict(IW=17, scale=(2, 1, 2, 1), offset=(0, 31), border=(0, 1)),
      dict(IW=17, scale=(2, 1, 2, 1), offset=(0, 32), border=(0, 0)),
      "offset_x = 32 must be in [-scale_x_n, 16 * scale_x_n) = [-2, 32)"),
    C("RESIZE#7", resize, dict(IH=8, scale=(1, 1, 1, 1), offset=(0, 0), border=(-7, 0)),
      dict(IH=8, scale=(1, 1, 1, 1), offset=(0, 0), border=(1, 0)),
      "border_y = 1 must be in [-16 * scale_y_n, scale_y_n) = [-16, 1)"),
    C("RESIZE#8", resize, dict(IW=17, scale=(1, 1, 1, 1), offset=(0, 0), border=(0, -16)),
      dict(IW=18, scale=(1, 1, 1, 1), offset=(0, 0), border=(0, -17)),
      "border_x = -17 must be in [-16 * scale_x_n, scale_x_n) = [-16, 1)"),
    C("RESIZE#9", resize, dict(), dict(OH=9),
      "output height 9 does not equal ((IH - 1) * scale_y_n - offset_y + border_y) / scale_y_d + 1 = 8"),
    C("RESIZE#10", resize, dict(scale=(4, 2, 3, 2), offset=(-1, 0), border=(1, 1)),
      dict(scale=(4, 2, 3, 2), offset=(-1, 0), border=(1, 0), OW=5),
      "(IW - 1) * scale_x_n - offset_x + border_x = 9 is not divisible by scale_x_d = 2"),
    # 2.13.2 RESCALE
    C("RESCALE#1", rescale, dict(in_et="i16", out_et="i8", input_unsigned=True, input_zp=32768),
      dict(in_et="i16", out_et="i8", input_zp=1), "input_zp is 1 but must be 0 for input type signed i16"),
    C("RESCALE#2", rescale, dict(in_et="i32", out_et="i8", output_zp=-128),
      dict(in_et="i8", out_et="i32", output_zp=1), "output_zp is 1 but must be 0 for output type i32"),
    C("RESCALE#3", rescale, dict(in_et="i16", out_et="i16", input_unsigned=True, input_zp=0),
      dict(in_et="i16", out_et="i16", input_unsigned=True, input_zp=1),
      "input_zp is 1 but a u16 (input_unsigned = true, i16) zero point must be 0 or 32768"),
    C("RESCALE#4", rescale, dict(in_et="i8", out_et="i16", output_unsigned=True, output_zp=-32768),
      dict(in_et="i8", out_et="i16", output_unsigned=True, output_zp=-32767),
      "output_zp is 32769 but a u16"),
    C("RESCALE#5", rescale, dict(in_et="i48", out_et="i32", scale32=False),
      dict(in_et="i48", out_et="i32", scale32=True), "scale32 must be false for an i48 input"),
    C("RESCALE#6", rescale, dict(scale32=True, rounding_mode="DOUBLE_ROUND"),
      dict(scale32=False, rounding_mode="DOUBLE_ROUND"), "DOUBLE_ROUND requires scale32 = true"),
    C("RESCALE#7", rescale, dict(in_et="i8", out_et="i16", input_unsigned=True),
      dict(in_et="i8", out_et="i16", input_unsigned=True, output_unsigned=True),
      "input_unsigned and output_unsigned cannot both be true"),
    C("RESCALE#8", rescale, dict(in_et="i8", out_et="i32"),
      dict(in_et="i8", out_et="i32", input_unsigned=True),
      "input_unsigned must be false when output type is i32"),
    C("RESCALE#9", rescale, dict(in_et="i32", out_et="i8"),
      dict(in_et="i32", out_et="i8", output_unsigned=True),
      "output_unsigned must be false when input type is i32"),
    C("RESCALE#10", rescale, dict(in_et="i48", out_et="i16", scale32=False),
      dict(in_et="i48", out_et="i16", scale32=False, output_unsigned=True),
      "output_unsigned must be false when input type is i48"),
    C("RESCALE#11", rescale, dict(in_et="i48", out_et="i8", scale32=False),
      dict(in_et="i48", out_et="i8", scale32=False, input_unsigned=True),
      "input_unsigned must be false when input type is i48"),
    C("RESCALE#12", rescale, dict(in_et="i32", out_et="i16"),
      dict(in_et="i32", out_et="i16", input_unsigned=True),
      "input_unsigned must be false when input type is i32"),
    C("RESCALE#13", rescale, dict(in_et="i16", out_et="i32"),
      dict(in_et="i16", out_et="i32", output_unsigned=True),
      "output_unsigned must be false when output type is i32"),
    C("RESCALE#14", rescale, dict(shape=(3,), per_channel=True),
      dict(shape=(), per_channel=True, multiplier=[1 << 30], shift=[30]),
      "per_channel requires an input of rank >= 1, got rank 0"),
]

# CONV3D#2: weight_t is i8 in every integer row, so break it with a float weight.
CASES[[c.cid for c in CASES].index("CONV3D#2")] = C(
    "CONV3D#2", conv3d, dict(et="i16", weight_zp=-7), dict(et="f16", weight_zp=0.25),
    "weight_zp is 0.25 but must be 0 for weight_t = f16")

# Valid graphs that must verify although they look close to an error: dynamic dims skip shape
# formulas, non-constant zero points / shape operands skip value checks.
POSITIVE: list[tuple[str, tuple]] = [
    ("conv2d dynamic OH", (conv2d, dict(OH=None))),
    ("conv2d dynamic IH with a wrong-looking OH", (conv2d, dict(IH=None, OH=3))),
    ("conv2d non-constant zero points on f32", (conv2d, dict(input_zp=None, weight_zp=None))),
    ("conv2d i8 x i4 weight zero point 0", (conv2d, dict(et="i8", w_et="i4"))),
    ("conv3d dynamic OD", (conv3d, dict(OD=None))),
    ("depthwise dynamic bias", (depthwise, dict(BC=None))),
    ("transpose_conv2d dynamic KH skips out_pad", (transpose_conv2d, dict(KH=None, OH=2, out_pad=(-5, 0, 0, 0)))),
    ("avg_pool2d non-constant zero points on i16", (avg_pool2d, dict(et="i16", input_zp=None, output_zp=None))),
    ("max_pool2d dynamic IW", (max_pool2d, dict(IW=None, OW=2))),
    ("matmul non-constant zp on f32", (matmul, dict(et="f32", a_zp=None, b_zp=None))),
    ("fft2d dynamic H", (fft2d, dict(H=None))),
    ("rfft2d dynamic W", (rfft2d, dict(W=None))),
    ("argmax dynamic dims", (argmax, dict(shape=(None, 4, None), axis=1, out=[None, 5]))),
    ("resize non-constant scale", (resize, dict(scale=None, OH=3, OW=3))),
    ("resize non-constant border", (resize, dict(border=None, OH=3, OW=3))),
    ("resize dynamic OH", (resize, dict(OH=None))),
    ("rescale u8 -> i8 zero points", (rescale, dict(in_et="i8", out_et="i8", input_unsigned=True,
                                                  input_zp=-1, output_zp=-128))),
    ("rescale i8 -> u16 output_zp 32768", (rescale, dict(in_et="i8", out_et="i16", output_unsigned=True,
                                                      output_zp=-32768))),
    ("rescale non-constant zero points on i32", (rescale, dict(in_et="i32", out_et="i32", input_zp=None,
                                                             output_zp=None))),
    ("rescale per_channel", (rescale, dict(shape=(2, 3), per_channel=True))),
    ("rescale 16-bit multiplier", (rescale, dict(scale32=False, rounding_mode="INEXACT_ROUND"))),
]

# Beyond the ERROR_IF lines: RESCALE's Arguments (tosa_execute_graph#3).
EXTRA_NEGATIVE: list[tuple[str, tuple, str]] = [
    ("tosa_execute_graph#3", (rescale, dict(shape=(2, 3), per_channel=True, multiplier=[1 << 30] * 2,
                                            shift=[30] * 2)),
     "multiplier has 2 elements but must have NC = 3"),
    ("tosa_execute_graph#3", (rescale, dict(per_channel=False, multiplier=[1 << 30] * 3, shift=[30] * 3)),
     "multiplier has 3 elements but must have NC = 1 (per_channel = false: NC = 1)"),
    ("tosa_execute_graph#3", (rescale, dict(scale32=False, multiplier="auto")), None),
    ("make_unsigned#1", (rescale, dict(in_et="i8", out_et="i32", output_unsigned=True)),
     "output_unsigned must be false when output type is i32"),
    ("idiv_check#1", (conv2d, dict(IH=8, stride=(2, 1), OH=None)),
     "IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y = 7 is not divisible by stride_y = 2"),
    ("idiv_check#1", (resize, dict(scale=(4, 2, 3, 2), offset=(-1, 0), border=(1, 0), OW=None)),
     "is not divisible by scale_x_d = 2"),
]
EXTRA_NEGATIVE = [e for e in EXTRA_NEGATIVE if e[2] is not None]


def build(spec):
    builder, kwargs = spec
    return builder(**kwargs)


# -- our verdict -------------------------------------------------------------------------------


def our_error(mlir: str) -> str | None:
    """None when the module verifies, else the verifier's message."""
    module = Parser(make_context(), mlir).parse_module()
    try:
        module.verify()
    except VerifyException as e:
        return str(e)
    return None


# -- the reference model's verdict -------------------------------------------------------------

_NP = {"i1": np.bool_, "i4": np.int8, "i8": np.int8, "i16": np.int16, "i32": np.int32,
       "i48": np.int64, "f16": np.float16, "f32": np.float32}


def _zeros(mlir: str) -> list[np.ndarray]:
    sig = re.search(r"func\.func @main\((.*?)\) ->", mlir).group(1)
    arrays = []
    for m in re.finditer(r"tensor<([^>]*)>", sig):
        parts = m.group(1).split("x")
        shape, et = [int(p) for p in parts[:-1]], parts[-1]
        if et == "bf16":
            import ml_dtypes
            arrays.append(np.zeros(shape, ml_dtypes.bfloat16))
        else:
            arrays.append(np.zeros(shape, _NP[et]))
    return arrays


def reference_verdict(mlir: str) -> tuple[str, list[str]]:
    """The reference model's verdict and the ERROR_IF lines it logged (its own C++ condition
    text, e.g. `ERROR_IF() fails AT .../image.cpp:131 eval(): ((border_y < ...))`)."""
    from oracle import run_mlir
    result = run_mlir(mlir, _zeros(mlir), verify=False)
    return result.verdict, [ln for ln in result.stderr.splitlines() if "ERROR_IF" in ln]


def _have_oracle() -> bool:
    try:
        from oracle import REFERENCE_MODEL, TRANSLATOR
    except ImportError:
        return False
    return REFERENCE_MODEL.exists() and TRANSLATOR.exists()


needs_oracle = pytest.mark.skipif(not _have_oracle(), reason="tosa-tools reference model missing")

# -- tests ---------------------------------------------------------------------------------------

_IDS = [c.cid for c in CASES]


# The chapters this file covers, and the lit file each one's cases are written to.
_LIT_CHAPTERS = {"tensor_error_if.mlir": "2.3", "image_error_if.mlir": "2.12",
                 "type_conversion_error_if.mlir": "2.13"}


def _chapter_ops(section: str) -> tuple[str, ...]:
    return tuple(o.name for o in spec_tables.ops() if o.chapter_section == section)


def test_every_condition_has_a_case():
    ops = [op for section in _LIT_CHAPTERS.values() for op in _chapter_ops(section)]
    wanted = [f"{o}#{i + 1}" for o in ops for i in range(len(op_spec(o).error_ifs))]
    assert len(wanted) == 80
    assert sorted(_IDS) == sorted(wanted)


def test_every_condition_is_registered():
    import tosa_xdsl.verification as v
    assert set(_IDS) <= v.checked_condition_ids()


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_valid_graph_verifies(case):
    _, mlir = build(case.valid)
    assert our_error(mlir) is None, mlir


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_invalid_graph_fails_with_condition(case):
    _, mlir = build(case.invalid)
    message = our_error(mlir)
    assert message is not None, f"{case.cid} not detected:\n{mlir}"
    assert case.message in message, message


@pytest.mark.parametrize("name,spec", POSITIVE, ids=[p[0] for p in POSITIVE])
def test_positive(name, spec):
    _, mlir = build(spec)
    assert our_error(mlir) is None, mlir


@pytest.mark.parametrize("cid,spec,message", EXTRA_NEGATIVE, ids=[e[0] for e in EXTRA_NEGATIVE])
def test_extra_negative(cid, spec, message):
    _, mlir = build(spec)
    error = our_error(mlir)
    assert error is not None and message in error, (error, mlir)


def test_rescale_16_bit_multiplier_type():
    # scale32 = false with an i32 multiplier: mul_t must be i16
    _, mlir = rescale(scale32=False)
    mlir = mlir.replace("tensor<1xi16>", "tensor<1xi32>")
    error = our_error(mlir)
    assert error is not None and "multiplier element type must be i16" in error


@needs_oracle
@pytest.mark.parametrize("case", [c for c in CASES if c.oracle], ids=[c.cid for c in CASES if c.oracle])
def test_reference_model_agrees(case):
    g_valid, valid = build(case.valid)
    g_invalid, invalid = build(case.invalid)
    assert g_valid.concrete and g_invalid.concrete
    assert reference_verdict(valid)[0] == "VALID", valid
    verdict, error_ifs = reference_verdict(invalid)
    assert verdict == "ERROR" and error_ifs, invalid


# -- lit file generation -------------------------------------------------------------------------

_LIT_FILES = {filename: _chapter_ops(section) for filename, section in _LIT_CHAPTERS.items()}
_HEADER = """// Negative tests of the spec {chapters} ERROR_IF checks, one chunk per condition (marked
// `// ERROR_IF: <id>`), then valid graphs that must verify. Generated by
// `python tests/test_verify_tensor.py --write-lit` from the case table there.
// RUN: tosa-opt %s --split-input-file --verify-diagnostics
"""


def _escape(message: str) -> str:
    return message.replace("{{", "{ {").replace("}}", "} }")


def _named(mlir: str, name: str) -> str:
    return mlir.replace("func.func @main(", f"func.func @{name}(", 1)


def write_lit(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    chapters = {"tensor_error_if.mlir": "2.3 (tensor operators)", "image_error_if.mlir": "2.12 (RESIZE)",
                "type_conversion_error_if.mlir": "2.13 (RESCALE)"}
    for filename, ops in _LIT_FILES.items():
        chunks = []
        cases = [c for c in CASES if c.cid.split("#")[0] in ops]
        for case in cases:
            g, mlir = build(case.invalid)
            lines = _named(mlir, case.cid.lower().replace("#", "_")).split("\n")
            lines.insert(g.op_line, f"  // expected-error @+1 {{{{{_escape(case.message)}}}}}")
            chunks.append(f"// ERROR_IF: {case.cid}\n" + "\n".join(lines))
        extra = [e for e in EXTRA_NEGATIVE if e[1][0].__name__ in {c.invalid[0].__name__ for c in cases}]
        for cid, spec, message in extra:
            g, mlir = build(spec)
            lines = _named(mlir, cid.replace("#", "_")).split("\n")
            lines.insert(g.op_line, f"  // expected-error @+1 {{{{{_escape(message)}}}}}")
            chunks.append(f"// ERROR_IF: {cid}\n" + "\n".join(lines))
        for case in cases:
            _, mlir = build(case.valid)
            chunks.append(f"// Valid (borderline for {case.cid}).\n"
                          + _named(mlir, "valid_" + case.cid.lower().replace("#", "_")))
        builders = {c.invalid[0].__name__ for c in cases}
        for i, (name, spec) in enumerate(POSITIVE):
            if spec[0].__name__ in builders:
                _, mlir = build(spec)
                chunks.append(f"// Valid: {name}.\n" + _named(mlir, f"positive_{i}"))
        text = _HEADER.format(chapters=chapters[filename]) + "\n" + "\n\n// -----\n\n".join(chunks) + "\n"
        (directory / filename).write_text(text)


if __name__ == "__main__":
    if "--write-lit" in sys.argv:
        write_lit(Path(__file__).resolve().parent / "filecheck" / "verify")
    else:
        print(__doc__)

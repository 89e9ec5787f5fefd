"""Invocations used to compare road 1 (TOSA mapping) with road 2 (the definition's @lower
formulas) on random inputs: operator -> (inputs "name: type[shape]", invocation, kinds)."""

from __future__ import annotations

R = "real"
CASES: dict[str, tuple[str, str]] = {
    # unary
    **{f"math.{n}": ("x: real[2,3];", f"y = math.{n}(x);") for n in
       ("iden", "neg", "rcp", "sqr", "sqrt", "rsqrt", "exp", "log", "sin", "cos", "tanh", "abs", "floor", "ceil")},
    "math.not": ("x: bool[2,3];", "y = math.not(x);"),
    "nn.sigmoid": ("x: real[2,3];", "y = nn.sigmoid(x);"),
    "nn.erf": ("x: real[2,3];", "y = nn.erf(x);"),
    "nn.relu": ("x: real[2,3];", "y = nn.relu{alpha=0.25}(x);"),
    # binary, with broadcasting
    **{f"math.{n}": ("x: real[2,3,4]; b: real[3,4];", f"y = math.{n}(x, b);") for n in
       ("add", "sub", "mul", "div", "min", "max", "lt", "gt", "le", "ge", "eq", "ne")},
    "math.pow": ("x: real[2,3]; b: real[2,3];", "y = math.pow(x, b);"),
    **{f"math.{n}": ("x: bool[2,3]; b: bool[2,3];", f"y = math.{n}(x, b);") for n in ("and", "or", "xor")},
    "math.select": ("c: bool[2,3]; x: real[2,3]; b: real[2,3];", "y = math.select(c, x, b);"),
    # reductions
    "math.sum_reduce": ("x: real[2,3,4];", "y = math.sum_reduce{axes=[1]}(x);"),
    "math.max_reduce": ("x: real[2,3,4];", "y = math.max_reduce{axes=[0, 2], squeeze=true}(x);"),
    "math.min_reduce": ("x: real[2,3,4];", "y = math.min_reduce{axes=[2]}(x);"),
    "math.prod_reduce": ("x: real[2,3,4];", "y = math.prod_reduce{axes=[1]}(x);"),
    "math.any_reduce": ("x: bool[2,3];", "y = math.any_reduce{axes=[1]}(x);"),
    "math.all_reduce": ("x: bool[2,3];", "y = math.all_reduce{axes=[0]}(x);"),
    # linear algebra, nn
    "linalg.matmul": ("a: real[3,4]; b: real[4,5];", "y = linalg.matmul(a, b);"),
    "nn.linear": ("x: real[2,4]; w: real[3,4]; b: real[3];", "y = nn.linear(x, w, b);"),
    "nn.conv": ("x: real[1,2,6,6]; w: real[3,2,3,3]; b: real[3];", "y = nn.conv{padding=1}(x, w, b);"),
    "nn.max_pool": ("x: real[1,2,6,6];", "y = nn.max_pool{size=3, stride=2, padding=1}(x);"),
    "nn.avg_pool": ("x: real[1,2,6,6];", "y = nn.avg_pool{size=2, stride=2, padding=0}(x);"),
    "math.clamp": ("x: real[2,3]; a: real[3]; b: real[2,3];", "s = math.add(a, b); y = math.clamp(x, a, s);"),
    "math.argmax": ("x: real[2,5,3];", "y = math.argmax{axis=1}(x);"),
    "math.argmin": ("x: real[2,5,3];", "y = math.argmin{axis=-1, squeeze=true}(x);"),
    # layout
    "layout.cast": ("x: real[2,3];", "m = math.mul(x, 3.0); s = math.sub(m, 3.0); y = layout.cast<int>(s);"),
    "layout.tile": ("x: real[2,3];", "y = layout.tile{axes=[1], repeats=[3]}(x);"),
    "layout.transpose": ("x: real[2,3,4];", "y = layout.transpose{perm=[2, 0, 1]}(x);"),
    "layout.flatten": ("x: real[2,3,4];", "y = layout.flatten{axis=1}(x);"),
    "layout.unflatten": ("x: real[2,12];", "y = layout.unflatten{axis=1, shape=[3, 4]}(x);"),
    "layout.squeeze": ("x: real[2,1,4];", "y = layout.squeeze{axes=[1]}(x);"),
    "layout.unsqueeze": ("x: real[2,4];", "y = layout.unsqueeze{axes=[1]}(x);"),
    "layout.reshape": ("x: real[2,3,4];", "y = layout.reshape{shape=[6, 4]}(x);"),
    "layout.slice": ("x: real[2,3,4];", "y = layout.slice{axes=[2], begin=[1], end=[3]}(x);"),
    "layout.pad": ("x: real[2,3];", "y = layout.pad{axes=[1], padding=[1, 2]}(x);"),
    "layout.concat": ("a: real[2,3]; b: real[2,2];", "y = layout.concat{axis=1}([a, b]);"),
}


def source(op: str) -> str:
    inputs, body = CASES[op]
    return (f"import nn; import math; import linalg; import layout;\n"
            f"graph G {{\n @input {{ {inputs} }}\n @output {{ y: real; }}\n @compose {{ {body} }}\n}}\n")

"""A MobileNet-style float32 network at 224x224 as TOSA MLIR, for bench/native.py's larger model.

    python bench/mobilenet.py OUT.mlir [--input OUT_INPUT.npy] [--width 0.5] [--seed 0]

MobileNet v1's shape (Howard et al. 2017): a 3x3 stride-2 convolution, then depthwise-separable
blocks (3x3 depthwise convolution + RELU6, 1x1 pointwise convolution + RELU6), global average
pooling and a 1x1 classifier; TF's SAME padding. `--width` is the paper's width multiplier
(0.5 by default: 8 blocks, 0.3 M weights, ~80 M multiply-adds, so our textual LLVM stage stays
a few MB). Weights are random (He-scaled, fixed seed), written as hex `dense` constants: the
file is generated at bench time into a temporary directory rather than committed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

# (output channels at width 1, stride) of the depthwise-separable blocks used here
BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (1024, 2)]
CLASSES = 100
SIZE = 224


def _t(shape) -> str:
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def _dense(a: np.ndarray) -> str:
    return f'dense<"0x{np.ascontiguousarray(a, "<f4").tobytes().hex().upper()}"> : {_t(a.shape)}'


def _same_pad(size: int, stride: int, k: int = 3) -> tuple[int, int]:
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return total // 2, total - total // 2


class _Builder:
    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self.lines: list[str] = []
        self.n = 0
        self.zero = self.emit("tosa.const", "", "{values = dense<0.0> : tensor<1xf32>}", "() -> tensor<1xf32>")

    def emit(self, op: str, operands: str, attrs: str, sig: str) -> str:
        name = f"%{self.n}"
        self.n += 1
        self.lines.append(f"    {name} = {op} {operands} {attrs} : {sig}".replace("  ", " "))
        return name

    def const(self, a: np.ndarray) -> str:
        return self.emit("tosa.const", "", "{values = " + _dense(a) + "}", f"() -> {_t(a.shape)}")

    def relu6(self, x: str, shape) -> str:
        return self.emit("tosa.clamp", x, "{max_val = 6.0 : f32, min_val = 0.0 : f32}", f"({_t(shape)}) -> {_t(shape)}")

    def conv(self, x: str, shape, cout: int, k: int, stride: int) -> tuple[str, tuple]:
        n, h, w, cin = shape
        wt = self.rng.standard_normal((cout, k, k, cin)).astype(np.float32) * np.float32(np.sqrt(2.0 / (k * k * cin)))
        bias = self.rng.standard_normal(cout).astype(np.float32) * np.float32(0.1)
        ph, pw = (_same_pad(h, stride, k), _same_pad(w, stride, k)) if k > 1 else ((0, 0), (0, 0))
        out = (n, -(-h // stride), -(-w // stride), cout)
        r = self.emit("tosa.conv2d", f"{x}, {self.const(wt)}, {self.const(bias)}, {self.zero}, {self.zero}",
                      f"{{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: {ph[0]}, {ph[1]}, {pw[0]}, {pw[1]}>, "
                      f"stride = array<i64: {stride}, {stride}>}}",
                      f"({_t(shape)}, {_t(wt.shape)}, {_t(bias.shape)}, tensor<1xf32>, tensor<1xf32>) -> {_t(out)}")
        return r, out

    def depthwise(self, x: str, shape, stride: int) -> tuple[str, tuple]:
        n, h, w, c = shape
        wt = self.rng.standard_normal((3, 3, c, 1)).astype(np.float32) * np.float32(np.sqrt(2.0 / 9))
        bias = self.rng.standard_normal(c).astype(np.float32) * np.float32(0.1)
        ph, pw = _same_pad(h, stride), _same_pad(w, stride)
        out = (n, -(-h // stride), -(-w // stride), c)
        r = self.emit("tosa.depthwise_conv2d", f"{x}, {self.const(wt)}, {self.const(bias)}, {self.zero}, {self.zero}",
                      f"{{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: {ph[0]}, {ph[1]}, {pw[0]}, {pw[1]}>, "
                      f"stride = array<i64: {stride}, {stride}>}}",
                      f"({_t(shape)}, {_t(wt.shape)}, {_t(bias.shape)}, tensor<1xf32>, tensor<1xf32>) -> {_t(out)}")
        return r, out


def mobilenet_mlir(width: float = 0.5, seed: int = 0) -> str:
    b = _Builder(np.random.default_rng(seed))
    shape: tuple = (1, SIZE, SIZE, 3)
    x, shape = b.conv("%arg0", shape, int(32 * width), 3, 2)
    x = b.relu6(x, shape)
    for cout, stride in BLOCKS:
        x, shape = b.depthwise(x, shape, stride)
        x = b.relu6(x, shape)
        x, shape = b.conv(x, shape, int(cout * width), 1, 1)
        x = b.relu6(x, shape)
    n, h, w, c = shape
    pooled = (n, 1, 1, c)
    x = b.emit("tosa.avg_pool2d", f"{x}, {b.zero}, {b.zero}",
               f"{{acc_type = f32, kernel = array<i64: {h}, {w}>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}}",
               f"({_t(shape)}, tensor<1xf32>, tensor<1xf32>) -> {_t(pooled)}")
    x, shape = b.conv(x, pooled, CLASSES, 1, 1)
    s = b.emit("tosa.const_shape", "", f"{{values = dense<[1, {CLASSES}]> : tensor<2xindex>}}", "() -> !tosa.shape<2>")
    x = b.emit("tosa.reshape", f"{x}, {s}", "", f"({_t(shape)}, !tosa.shape<2>) -> {_t((1, CLASSES))}")
    body = "\n".join(b.lines)
    return (f"module {{\n  func.func @main(%arg0: {_t((1, SIZE, SIZE, 3))}) -> {_t((1, CLASSES))} {{\n{body}\n"
            f"    return {x} : {_t((1, CLASSES))}\n  }}\n}}\n")


def mobilenet_input(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed + 1).uniform(-1.0, 1.0, (1, SIZE, SIZE, 3)).astype(np.float32)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--input")
    ap.add_argument("--width", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    Path(args.out).write_text(mobilenet_mlir(args.width, args.seed))
    if args.input:
        np.save(args.input, mobilenet_input(args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

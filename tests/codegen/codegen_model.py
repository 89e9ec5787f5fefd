"""A small quantized model for the compile-path tests: an int8 CONV2D with constant weights
(they become byte-string globals), bias and an i32 ADD of a second input. Integer results, so
the native code must equal the interpreter exactly."""

from __future__ import annotations

import numpy as np

WEIGHTS = np.arange(-12, 12, dtype=np.int8).reshape(4, 1, 3, 2)  # OHWI, 4 output channels


def model(weights: np.ndarray = WEIGHTS, entry: str = "main") -> str:
    w = ", ".join(str(int(v)) for v in weights.reshape(-1))
    return f"""func.func @{entry}(%x: tensor<1x5x5x2xi8>, %y: tensor<1x5x3x4xi32>) -> tensor<1x5x3x4xi32> {{
  %w = tosa.const values(dense<[{w}]> : tensor<24xi8>) : () -> tensor<24xi8>
  %shape = tosa.const_shape values(dense<[4, 1, 3, 2]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %w4 = tosa.reshape %w, %shape : (tensor<24xi8>, !tosa.shape<4>) -> tensor<4x1x3x2xi8>
  %b = tosa.const values(dense<[100, -100, 7, 0]> : tensor<4xi32>) : () -> tensor<4xi32>
  %izp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %wzp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w4, %b, %izp, %wzp {{acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : (tensor<1x5x5x2xi8>, tensor<4x1x3x2xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x3x4xi32>
  %r = tosa.add %c, %y : (tensor<1x5x3x4xi32>, tensor<1x5x3x4xi32>) -> tensor<1x5x3x4xi32>
  return %r : tensor<1x5x3x4xi32>
}}
"""


def inputs(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.integers(-128, 128, (1, 5, 5, 2)).astype(np.int8),
            rng.integers(-2**20, 2**20, (1, 5, 3, 4)).astype(np.int32)]


def cli_files(folder, seed: int = 0, text: str | None = None) -> tuple[list[str], list[np.ndarray]]:
    """The model (or `text`) and its inputs(seed) written to `folder` for a tosa-run command
    line: (["m.mlir", "-i", "x.npy", "-i", "y.npy"] as paths, the inputs)."""
    src = folder / "m.mlir"
    src.write_text(model() if text is None else text)
    args = inputs(seed)
    argv = [str(src)]
    for name, a in zip(("x.npy", "y.npy"), args):
        np.save(folder / name, a)
        argv += ["-i", str(folder / name)]
    return argv, args


def parse(text: str):
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context

    return Parser(make_context(), text).parse_module()


def interpret(text: str, args: list[np.ndarray], entry: str = "main") -> list[np.ndarray]:
    from tosa_xdsl.interpreter.runner import run

    return [np.asarray(o) for o in run(parse(text), args, entry)]

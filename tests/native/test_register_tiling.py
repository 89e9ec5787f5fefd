"""Register tiling (convert-linalg-to-affine-loops{register-tiling=true}, which tosa-to-loops
and tosa-to-llvm use): the tiled loop nests give the same bits as the plain ones.

Only parallel loops are split and reordered, so every output element sums its reduction terms
in the same order: the native results of the tiled pipeline must equal, bit for bit and for
floats too, those of the same pipeline without tiling (itself checked against the interpreter
in tests/test_lowering_stages.py and tests/test_upstream_native.py); integer results must also
equal the TOSA interpreter's. Shapes are chosen so that tiling applies (a contiguous output dim
of >= 8, a reduction) -- the test checks that it did -- and one where no tile divides.
"""

from __future__ import annotations

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from native_programs import conv, depthwise, matmul, max_pool, random_inputs

from tosa_xdsl import jit
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering.pipelines import LLVM_STAGE, linalg_stage
from tosa_xdsl.lowering.to_loops.register_tiling import (
    TiledLoop,
    register_tiled_order,
    split_of,
)

UNTILED = ",".join(linalg_stage(hwcf=True) + ["one-shot-bufferize", "convert-linalg-to-affine-loops",
                                              "arith-emulate-fp8", "convert-math-to-libm"] + LLVM_STAGE)


CASES = {
    "conv_f32": (conv(1, 8, 8, 3, 16, 3, 1), True),
    "conv_f32_stride2": (conv(2, 9, 13, 5, 24, 3, 2), True),
    "conv_i8": (conv(1, 6, 10, 7, 32, 3, 1, et="i8", acc="i32", out_et="i32", zp="-3"), True),
    "conv1x1_f32": (conv(1, 7, 7, 12, 48, 1, 1), True),
    "depthwise_f32": (depthwise(6, 8, 16, 1), True),
    # a contiguous output dim shorter than a vector (m = 2, 6 or 3 columns, 5 channels): unrolled
    # into the reduction loops' body under a single-iteration `step V` loop
    "depthwise_m2_f32": (depthwise(5, 6, 8, 2), True),
    "matmul_f32_short_v": (matmul(1, 9, 13, 6), True),
    "matmul_i8_short_v": (matmul(2, 5, 7, 3, "i8", "i32"), True),
    "conv_f32_short_v": (conv(1, 5, 7, 4, 5, 3, 1), True),
    "matmul_i8": (matmul(1, 12, 7, 40, "i8", "i32"), True),
    "matmul_f32_batch": (matmul(2, 9, 5, 64), True),
    "matmul_f32_no_tile_divides": (matmul(1, 6, 5, 100), False),
    "max_pool_f32": (max_pool(6, 8, 16), True),
    # V tiles that are no multiple of 8 lanes: two sibling loops (24 + 4, 8 + 5, 16 + 4, 40 + 2)
    "conv1x1_f32_split": (conv(1, 5, 7, 12, 28, 1, 1), True),
    "matmul_f32_split_13": (matmul(1, 9, 5, 13), True),
    "depthwise_f32_split": (depthwise(5, 7, 20, 1), True),
    "conv_i8_split": (conv(1, 5, 7, 3, 42, 3, 2, et="i8", acc="i32", out_et="i32", zp="5"), True),
    # 49 rows (7x7) and 64 columns: no row tile divides 49 next to TV = 64, so the V tile narrows
    # to 16 and the rows are jammed by 7 (_narrower_v)
    "matmul_f32_49_rows": (matmul(1, 49, 9, 64), True),
    "conv1x1_i8_7x7": (conv(1, 7, 7, 12, 64, 1, 1, et="i8", acc="i32", out_et="i32", zp="-7"), True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tiled_native_equals_untiled(name):
    src, tiles = CASES[name]
    module = parse(src)
    inputs = random_inputs(module, seed=len(name))
    tiled = jit.NativeModule(parse(src), fp_contract="off").call(inputs)  # UNTILED has no FMA
    untiled = jit.NativeModule(parse(src), pipeline=UNTILED).call(inputs)
    assert_same(tiled, untiled, f"{name}: tiled vs untiled")
    if all(np.issubdtype(r.dtype, np.integer) for r in tiled):
        assert_same(tiled, run(module, inputs), f"{name}: tiled vs interpreter")
    loops = lower(src, "tosa-to-loops")
    steps = [op.step.value.data for op in loops.walk() if op.name == "affine.for"]
    assert (max(steps) > 1) == tiles, steps  # a split loop exists exactly when tiling applies


def test_plan_matmul():
    # d0 batch (1), d1 rows (12), d2 columns (40), d3 reduction: rows jammed by 3 (3 x 40 <= 128)
    order = register_tiled_order([0, 1, 3, 2], [1, 12, 40, 7], {3}, [2])
    assert order == [TiledLoop(0), TiledLoop(1, step=3), TiledLoop(2, step=40), TiledLoop(3),
                     TiledLoop(2, tile=40), TiledLoop(1, tile=3, jam=True)]


def test_plan_split_tile():
    # 28 columns: one V tile of 28 (rows jammed by 4: 4 x 28 <= 128) split after 24
    order = register_tiled_order([0, 1, 3, 2], [1, 12, 28, 7], {3}, [2])
    assert order == [TiledLoop(0), TiledLoop(1, step=4), TiledLoop(2, step=28), TiledLoop(3),
                     TiledLoop(2, tile=28, split=24), TiledLoop(1, tile=4, jam=True)]
    assert [split_of(t) for t in (8, 16, 13, 28, 42, 64, 7)] == [0, 0, 8, 24, 40, 0, 0]


def test_plan_short_v():
    # 6 columns: no row tiling, the column dim unrolled (jammed) under a step-6 loop
    order = register_tiled_order([0, 1, 3, 2], [1, 12, 6, 7], {3}, [2])
    assert order == [TiledLoop(0), TiledLoop(1), TiledLoop(2, step=6), TiledLoop(3),
                     TiledLoop(2, tile=6, jam=True)]


def test_plan_declines():
    assert register_tiled_order([0, 1], [4, 8], set(), [1]) is None  # no reduction
    assert register_tiled_order([0, 2, 1], [4, -1, 8], {2}, [1]) is None  # dynamic size
    assert register_tiled_order([0, 2, 1], [4, 100, 5], {2}, [1]) is None  # no tile divides 100


def test_plan_narrower_v():
    # MobileNet's 7x7x256 -> 512 1x1 convolution as a matmul: 49 rows, 512 columns. TV = 64 would
    # leave TU = 1 (nothing in 2..2 divides 49: every weight vector loaded feeds one multiply-add);
    # TV = 16 lets the rows be jammed by 7
    order = register_tiled_order([0, 1, 3, 2], [1, 49, 512, 256], {3}, [2])
    assert order == [TiledLoop(0), TiledLoop(1, step=7), TiledLoop(2, step=16), TiledLoop(3),
                     TiledLoop(2, tile=16), TiledLoop(1, tile=7, jam=True)]
    # 13 rows: no tile of 2..8 divides 13 at any V tile, so the widest V tile stays
    order = register_tiled_order([0, 1, 3, 2], [1, 13, 64, 9], {3}, [2])
    assert order == [TiledLoop(0), TiledLoop(1), TiledLoop(2, step=64), TiledLoop(3),
                     TiledLoop(2, tile=64)]
    # rows a TV = 64 tile can jam (12 by 2) keep TV = 64
    order = register_tiled_order([0, 1, 3, 2], [1, 12, 64, 9], {3}, [2])
    assert order[1:3] == [TiledLoop(1, step=2), TiledLoop(2, step=64)]

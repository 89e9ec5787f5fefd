"""Init and epilogue fusion into register-tiled nests (convert-linalg-to-affine-loops{register-
tiling=true fuse-init-and-epilogue=true}; tosa_xdsl/lowering/to_loops/nest_fusion.py; not in the
default pipelines since issue 15's fourth round; these tests take it out of tosa-to-llvm's list for
the reference).

The fused op runs element by element inside the reduction's nest, on the same values in the same
order per element, so the native results must equal, bit for bit and for floats too, those of
the same pipeline without the fusion (register tiling alone, itself checked in
test_register_tiling.py); integer results must also equal the interpreter's. Each case checks
that the fusion happened (fewer top-level loop nests) or, where no tile divides, that it did not.
`reshape_correspondence` is checked against numpy's own index arithmetic.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from native_programs import conv, depthwise, matmul, max_pool, random_inputs

from tosa_xdsl import jit
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering.pipelines import expanded
from tosa_xdsl.lowering.to_loops.nest_fusion import reshape_correspondence

TILED = "convert-linalg-to-affine-loops{register-tiling=true}"
FUSING = "convert-linalg-to-affine-loops{register-tiling=true fuse-init-and-epilogue=true}"


def _unfused(pipeline: str) -> str:
    """`pipeline`'s stages with the fusion left out (register tiling alone)."""
    stages = expanded(pipeline)
    assert FUSING in stages  # the default since issue 15's fourth round
    return ",".join(TILED if s == FUSING else s for s in stages)


FUSED = ",".join(expanded("tosa-to-llvm"))
UNFUSED = _unfused("tosa-to-llvm")


def _then(src: str, lines: list[str], result: str, rtype: str) -> str:
    """`src` (one op as %0, native_programs' builders) with `lines` appended, returning `result`."""
    head, ret = src.rsplit("  return %0 : ", 1)
    old = ret.split("\n")[0]
    head = head.replace(f"-> {old} {{", f"-> {rtype} {{")
    return head + "".join(f"  {line}\n" for line in lines) + f"  return {result} : {rtype}\n}}"


def _clamp(t: str, x: str = "%0", out: str = "%1") -> str:
    return f"{out} = tosa.clamp {x} {{min_val = 0.0 : f32, max_val = 6.0 : f32}} : ({t}) -> {t}"


def _f(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _rescale_i32_to_i8(shape) -> list[str]:
    ti, to = "tensor<" + "x".join(map(str, shape)) + "xi32>", "tensor<" + "x".join(map(str, shape)) + "xi8>"
    return [
        '%m = "tosa.const"() <{values = dense<1518500250> : tensor<1xi32>}> : () -> tensor<1xi32>',
        '%sh = "tosa.const"() <{values = dense<38> : tensor<1xi8>}> : () -> tensor<1xi8>',
        '%zi = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>',
        '%zo = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>',
        f"%1 = tosa.rescale %0, %m, %sh, %zi, %zo {{scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, "
        f"input_unsigned = false, output_unsigned = false}} : ({ti}, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, "
        f"tensor<1xi8>) -> {to}",
    ]


CONV = _f((1, 9, 7, 24))
DW = _f((1, 7, 9, 24))
MM = _f((1, 12, 40))
CONV1 = _f((1, 7, 5, 48))
POOL = _f((1, 6, 10, 16))
RAGGED = _f((1, 6, 100))
# name: (program, fused?)
CASES = {
    "conv3x3_clamp": (_then(conv(1, 9, 7, 5, 24, 3, 1), [_clamp(CONV)], "%1", CONV), True),
    "conv1x1_clamp_through_reshapes": (_then(conv(1, 7, 5, 33, 48, 1, 1), [_clamp(CONV1)], "%1", CONV1), True),
    "depthwise_clamp": (_then(depthwise(7, 9, 24, 1), [_clamp(DW)], "%1", DW), True),
    "matmul_add_self_clamp": (_then(matmul(1, 12, 7, 40), [f"%2 = tosa.add %0, %0 : ({MM}, {MM}) -> {MM}",
                                                          _clamp(MM, "%2")], "%1", MM), True),
    "conv_i8_rescale": (_then(conv(1, 6, 10, 7, 32, 3, 1, et="i8", acc="i32", out_et="i32", zp="-3"),
                              _rescale_i32_to_i8((1, 6, 10, 32)), "%1", "tensor<1x6x10x32xi8>"), True),
    "max_pool_clamp": (_then(max_pool(6, 10, 16), [_clamp(POOL)], "%1", POOL), True),
    # a short V (6 columns, unrolled into the reduction body): the fusion covers all 6
    "matmul_short_v_clamp": (_then(matmul(1, 12, 7, 6), [_clamp(_f((1, 12, 6)))], "%1", _f((1, 12, 6))), True),
    # a split V tile (24 + 4): the fused init and epilogue cover the whole tile
    "conv1x1_clamp_split_tile": (_then(conv(1, 5, 3, 6, 28, 1, 1), [_clamp(_f((1, 5, 3, 28)))], "%1",
                                       _f((1, 5, 3, 28))), True),
    "matmul_no_tile_divides": (_then(matmul(1, 6, 5, 100), [_clamp(RAGGED)], "%1", RAGGED), False),
    # int8 without a pad between the init and the reduction: the i32 accumulator in the scratch block
    "conv1x1_i8_rescale": (_then(conv(1, 6, 10, 7, 32, 1, 1, et="i8", acc="i32", out_et="i32", zp="-3"),
                                 _rescale_i32_to_i8((1, 6, 10, 32)), "%1", "tensor<1x6x10x32xi8>"), True),
    # MobileNet's depthwise block: the bias broadcast as the init, RELU6 as the epilogue
    "depthwise_bias_clamp_112": (_then(depthwise(4, 112, 16, 1), [_clamp(_f((1, 4, 112, 16)))], "%1",
                                       _f((1, 4, 112, 16))), True),
}
# the cases whose accumulator only the fused ops use (nest_fusion.scratch_ok): a stack block
SCRATCH = {"conv1x1_clamp_split_tile", "conv1x1_clamp_through_reshapes", "conv1x1_i8_rescale",
           "depthwise_bias_clamp_112", "depthwise_clamp", "matmul_add_self_clamp", "matmul_short_v_clamp",
           "max_pool_clamp"}


def _nests(module) -> int:
    fn = next(op for op in module.walk() if op.name == "func.func")
    return sum(1 for op in fn.body.block.ops if op.name == "affine.for")


@pytest.mark.parametrize("name", sorted(CASES))
def test_fused_native_equals_unfused(name):
    src, fused = CASES[name]
    module = parse(src)
    inputs = random_inputs(module, seed=len(name))
    got = jit.NativeModule(parse(src), pipeline=FUSED).call(inputs)
    assert_same(got, jit.NativeModule(parse(src), pipeline=UNFUSED).call(inputs), f"{name}: fused vs unfused")
    if all(np.issubdtype(r.dtype, np.integer) for r in got):
        assert_same(got, run(module, inputs), f"{name}: fused vs interpreter")
    loops = lower(src, "tosa-to-loops")
    unfused = lower(src, _unfused("tosa-to-loops"))
    assert (_nests(loops) < _nests(unfused)) == fused, (_nests(loops), _nests(unfused))
    # init and epilogue both fused: the output block lives in a stack scratch buffer, the
    # accumulator's allocation is gone
    scratch = sum(1 for op in loops.walk() if op.name == "memref.alloca")
    allocs = [sum(1 for op in m.walk() if op.name == "memref.alloc") for m in (loops, unfused)]
    assert (scratch == 1 and allocs[0] == allocs[1] - 1) == (name in SCRATCH), (scratch, allocs)


@pytest.mark.parametrize("src,dst", [((1, 63, 8), (1, 7, 9, 8)), ((1, 5, 6, 16, 1), (1, 5, 6, 16)),
                                     ((6, 4), (2, 3, 4)), ((2, 3, 4), (6, 4)), ((4, 6), (4, 2, 3)), ((3, 8), (3, 2, 4)),
                                     ((1, 1, 5), (5,)), ((5,), (1, 5, 1))])
def test_reshape_correspondence(src, dst):
    exprs = reshape_correspondence(src, dst)
    assert exprs is not None
    for index in itertools.product(*(range(n) for n in src)):
        flat = np.ravel_multi_index(index, src)
        want = np.unravel_index(flat, dst)
        got = [e.eval(list(index), []) for e in exprs]
        assert tuple(int(g) for g in got) == tuple(int(w) for w in want), (index, got, want)


def test_reshape_correspondence_declines_straddling_dims():
    assert reshape_correspondence((2, 6), (3, 4)) is None  # 6 = 2 x 3 across a dst dim boundary
    assert reshape_correspondence((2, 3), (7,)) is None  # not the same number of elements


MODELS = Path(__file__).resolve().parents[1] / "frontends" / "tflite" / "models"


def _without_validation(pipeline: str) -> str:  # the TFLite models' DOUBLE_ROUND rescales
    return ",".join(s for s in pipeline.split(",") if s != "tosa-validate")


def test_int8_mobilenet_fused_equals_unfused_and_interpreter():
    """A quantized MobileNet block net (conv, depthwise conv, RELU6, residual add; TFLite's own
    int8 model): the fused nests (most with a scratch block) give the interpreter's integers."""
    from tosa_xdsl.tools.tosa_run import load_module

    path = MODELS / "net_mobilenet.int8.tflite"
    module = load_module(str(path), path.read_bytes(), []).module
    inputs = random_inputs(module, seed=3)
    got = jit.NativeModule(module, pipeline=_without_validation(FUSED)).call(inputs)
    assert_same(got, jit.NativeModule(module, pipeline=_without_validation(UNFUSED)).call(inputs), "fused vs unfused")
    assert_same(got, run(module, inputs), "fused vs interpreter")
    loops = module.clone()
    jit.lower_to_llvm(loops, _without_validation(",".join(expanded("tosa-to-loops"))))
    assert sum(1 for op in loops.walk() if op.name == "memref.alloca") >= 2


@pytest.mark.parametrize("name", ["depthwise_bias_clamp_112", "conv1x1_clamp_through_reshapes", "matmul_add_self_clamp"])
def test_fused_equals_unfused_without_fp_contract(name):
    """With `--fp-contract=off` too the fused nest's floats are the unfused nest's, bit for bit."""
    def off(pipeline: str) -> str:
        return ",".join(s for s in pipeline.split(",") if s != "linalg-fp-contract")

    assert "linalg-fp-contract" in FUSED.split(",")
    src = CASES[name][0]
    inputs = random_inputs(parse(src), seed=len(name))
    got = jit.NativeModule(parse(src), pipeline=off(FUSED)).call(inputs)
    assert_same(got, jit.NativeModule(parse(src), pipeline=off(UNFUSED)).call(inputs), f"{name}: fused vs unfused, off")

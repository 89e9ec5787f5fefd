"""linalg-fill-pad-border (tosa_xdsl/lowering/linalg_transforms/fill_border.py; in the default
pipelines after linalg-write-into-copy-target; these tests compare with the pipelines without it):
a padded buffer whose interior is then written whole (a copy, or the elementwise op that
linalg-write-into-copy-target made write it) is filled only on its border.

Every element keeps the value it had (pad value outside, the written value inside), so native
results must equal the interpreter's bit for bit, floats included: pads of arguments, of
tensors with a second reader, channel pads, one-sided pads, int8; the MobileNet-style model
against the pipeline without the pass. The border nest is checked on random boxes (1-pixel,
one-sided, channel-only, all-dims pads, rank 1 to 4): the pass's output, interpreted, against
numpy's pad of the same box, with one nest per pad; both JIT roads give the same object code;
nest fusion still fuses the epilogues the border nest sits between."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from native_programs import pad_program, random_inputs

from tosa_xdsl import jit
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering.pipelines import expanded

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_copy_elision import relu_pad_depthwise

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from mobilenet import mobilenet_mlir

def _without_pass(stages: list[str]) -> list[str]:
    """`stages` (a default pipeline, which runs linalg-fill-pad-border after
    linalg-write-into-copy-target: docs/native.md) without the pass."""
    assert stages[stages.index("linalg-write-into-copy-target") + 1] == "linalg-fill-pad-border"
    return [s for s in stages if s != "linalg-fill-pad-border"]


WITHOUT = ",".join(_without_pass(expanded("tosa-to-llvm")))
WITH = ",".join(expanded("tosa-to-llvm"))
LOOPS = expanded("tosa-to-loops")
UP_TO = ",".join(LOOPS[:LOOPS.index("linalg-fill-pad-border") + 1])
BEFORE = ",".join(LOOPS[:LOOPS.index("linalg-fill-pad-border")])

CASES = {
    "argument_spatial": pad_program((1, 7, 5, 3), [0, 0, 1, 2, 2, 1, 0, 0]),
    "argument_one_sided": pad_program((1, 9, 9, 4), [0, 0, 0, 1, 0, 1, 0, 0]),
    "second_reader_channels": pad_program((1, 5, 3, 7), [0, 0, 0, 1, 0, 0, 0, 4], second_reader=True),
    "i8_spatial": pad_program((1, 6, 5, 16), [0, 0, 2, 0, 0, 3, 0, 0], "i8", second_reader=True),
    "rank3_all_dims": pad_program((3, 4, 5), [1, 1, 0, 2, 3, 0]),
    # integers: a 1-pixel pad of an argument (the gap nest), a batch + H + W pad (the row nest),
    # H, W and channels at once (the row nest over pixels)
    "i8_argument_one_pixel": pad_program((1, 5, 7, 8), [0, 0, 1, 1, 1, 1, 0, 0], "i8"),
    "i8_batch_and_spatial": pad_program((2, 4, 5, 3), [1, 0, 0, 2, 1, 1, 0, 0], "i8"),
    "i8_spatial_and_channels": pad_program((1, 3, 4, 5), [0, 0, 1, 0, 0, 1, 0, 3], "i8", second_reader=True),
    "generic_writes_interior": relu_pad_depthwise(5, 7, 13),
    "generic_writes_interior_i8": relu_pad_depthwise(6, 5, 16, "i8"),
}


def _whole_fills(module) -> int:
    """Fills of a whole buffer (an allocation or a function's result buffer)."""
    return sum(1 for op in module.walk() if op.name == "linalg.fill"
               and getattr(op.operands[-1].owner, "name", "memref.alloc") == "memref.alloc")


@pytest.mark.parametrize("name", sorted(CASES))
def test_border_fill_is_exact(name):
    src = CASES[name]
    module = parse(src)
    inputs = random_inputs(module, seed=len(name) + 7)
    want = run(module, inputs)
    got = jit.NativeModule(parse(src), pipeline=WITH).call(inputs)
    if name.startswith("generic"):  # a depthwise convolution: against the pipeline without the pass
        assert_same(got, jit.NativeModule(parse(src), pipeline=WITHOUT).call(inputs), name)
        if name.endswith("i8"):
            assert_same(got, want, f"{name}: native vs interpreter")
    else:
        assert_same(got, want, f"{name}: native vs interpreter")
    assert _whole_fills(lower(src, UP_TO)) < _whole_fills(lower(src, BEFORE)), "the pass must apply"
    assert_same(run(lower(src, UP_TO), inputs), run(lower(src, BEFORE), inputs), f"{name}: the stage, interpreted")


def test_interior_read_before_written_keeps_the_fill():
    """A pad whose interior is read (here: by nothing but a later op) before any write of it
    is not a candidate: a fill followed by a copy out of the subview."""
    src = """
func.func @keep(%p: memref<6x6xf32>, %o: memref<4x4xf32>) {
  %a = memref.alloc() : memref<6x6xf32>
  %c = arith.constant 1.5 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<6x6xf32>)
  %s = memref.subview %a[1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  "memref.copy"(%s, %o) : (memref<4x4xf32, strided<[6, 1], offset: 7>>, memref<4x4xf32>) -> ()
  "memref.copy"(%o, %s) : (memref<4x4xf32>, memref<4x4xf32, strided<[6, 1], offset: 7>>) -> ()
  "memref.copy"(%a, %p) : (memref<6x6xf32>, memref<6x6xf32>) -> ()
  memref.dealloc %a : memref<6x6xf32>
  func.return
}"""
    out = lower(src, "linalg-fill-pad-border")
    assert _whole_fills(out) == 1


def test_mobilenet_style():
    src = mobilenet_mlir(width=0.25)
    x = np.random.default_rng(1).standard_normal((1, 224, 224, 3)).astype(np.float32)
    got = jit.NativeModule(parse(src), pipeline=WITH).call([x])
    assert_same(got, jit.NativeModule(parse(src), pipeline=WITHOUT).call([x]), "MobileNet-style")


def _box_program(shape: list[int], offsets: list[int], sizes: list[int]) -> str:
    """A buffer filled with 7.0 whose interior box is then overwritten by a copy of %x."""
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    offset = sum(o * st for o, st in zip(offsets, strides))
    dims = lambda ds: "x".join(map(str, ds)) + "x"
    full, inner = f"memref<{dims(shape)}f32>", f"memref<{dims(sizes)}f32>"
    view = f"memref<{dims(sizes)}f32, strided<{strides}, offset: {offset}>>"
    ones = ", ".join("1" for _ in shape)
    return f"""
func.func @main(%x: {inner}) -> {full} {{
  %c = arith.constant 7.0 : f32
  %p = memref.alloc() : {full}
  linalg.fill ins(%c : f32) outs(%p : {full})
  %s = memref.subview %p{offsets} {sizes} [{ones}] : {full} to {view}
  "memref.copy"(%x, %s) : ({inner}, {view}) -> ()
  func.return %p : {full}
}}"""


@pytest.mark.parametrize("seed", range(24))
def test_border_nest_fills_exactly_the_border(seed):
    rng = np.random.default_rng(seed)
    shape = [int(rng.integers(1, 6)) for _ in range(int(rng.integers(1, 5)))]
    sizes = [int(rng.integers(1, d + 1)) for d in shape]
    offsets = [int(rng.integers(0, d - s + 1)) for d, s in zip(shape, sizes)]
    x = rng.standard_normal(sizes).astype(np.float32)
    want = np.full(shape, 7.0, np.float32)
    want[tuple(slice(o, o + s) for o, s in zip(offsets, sizes))] = x
    out = lower(_box_program(shape, offsets, sizes), "linalg-fill-pad-border")
    partial = [k for k, (o, s, d) in enumerate(zip(offsets, sizes, shape)) if o != 0 or s != d]
    nests = sum(op.name == "scf.for" and op.parent_op().name == "func.func" for op in out.walk())
    if partial == [len(shape) - 1]:  # a pad of the last dim only (channels) keeps its whole fill
        assert (_whole_fills(out), nests) == (1, 0)
    else:  # one nest per pad, none when there is no border
        assert (_whole_fills(out), nests) == (0, 1 if partial else 0)
    got = run(out, [x])
    assert_same(got, [want], f"shape {shape} offsets {offsets} sizes {sizes}")


@pytest.mark.parametrize("name", ["argument_spatial", "rank3_all_dims", "i8_spatial"])
def test_direct_road_same_object_code(name, monkeypatch):
    """The border nests (the gap nest; the row nest with its scf.if for rank3_all_dims) on the
    JIT's direct road (codegen/direct_llvm/) give byte for byte the llvm-dialect road's object."""
    from tosa_xdsl.codegen import direct_llvm

    stages = expanded("tosa-to-llvm")
    head = stages[:-len(direct_llvm.REPLACED)]
    assert stages[len(head):] == list(direct_llvm.REPLACED)
    direct = parse(CASES[name])
    direct_llvm.lower(direct, head)
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    dialect, _ = jit.lower_and_compile(parse(CASES[name]), WITH, "main", 2)
    assert direct_llvm.compile_loop_level(direct, "main", 2) == dialect


def test_epilogues_still_fuse():
    """The border nest sits where the fill was, between a depthwise reduction and the epilogue
    writing into the next pad: nest fusion must move it like the fill (else the epilogues stop
    fusing, +8% per inference): as many scratch blocks (fused nests) with the pass as without."""
    src = mobilenet_mlir(width=0.25)
    without = ",".join(_without_pass(expanded("tosa-to-loops")))

    def scratch_blocks(module) -> int:
        return sum(op.name == "memref.alloca" for op in module.walk())

    fused = scratch_blocks(lower(src, ",".join(LOOPS)))
    assert fused == scratch_blocks(lower(src, without)) > 0

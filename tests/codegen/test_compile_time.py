"""What the compile-time work (issue 15, docs/native.md "Where the time goes") relies on, each
checked against xDSL's own result: `tosa_xdsl.ir.walk.all_ops` lists exactly what
`Operation.walk` yields, in the same order, on IR with nested regions, several blocks and empty
regions and on the example model's loop stage; `lowering/to_loops/affine_ops` builds the ops
xDSL's constructors build; linalg-fill-pad-border's kept op numbering still rewrites every pad
of a block; `jit._c_signature` is xDSL's JIT backend's signature without importing that
backend (and its Python frontend)."""

from __future__ import annotations

from pathlib import Path

from codegen_model import parse

from tosa_xdsl.ir.walk import all_ops

ROOT = Path(__file__).resolve().parents[2]

NESTED = """
func.func @f(%a: memref<4x4xf32>, %c: i1) -> f32 {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %x = affine.load %a[%i, %j] : memref<4x4xf32>
      %y = scf.if %c -> (f32) {
        %s = arith.addf %x, %x : f32
        scf.yield %s : f32
      } else {
        scf.yield %x : f32
      }
      affine.store %y, %a[%i, %j] : memref<4x4xf32>
    }
  }
  cf.br ^next(%z : f32)
^next(%v: f32):
  %w = scf.execute_region -> f32 {
    scf.yield %v : f32
  }
  func.return %w : f32
}
func.func private @declared(f32) -> f32
"""


def _same(root) -> None:
    expected = list(root.walk())
    got = all_ops(root)
    assert len(got) == len(expected)
    assert all(a is b for a, b in zip(got, expected))


def test_all_ops_is_walk_on_nested_regions_and_blocks():
    module = parse(NESTED)
    _same(module)
    for op in module.walk():  # from every root, leaves included
        _same(op)


def test_all_ops_is_walk_on_the_example_loop_stage():
    import tosa_xdsl
    from tosa_xdsl.codegen import direct_llvm

    module = tosa_xdsl.load(ROOT / "examples" / "face_detection_front.tosa.mlir")
    head, _ = direct_llvm.split_pipeline("tosa-to-llvm")
    direct_llvm.lower(module, head)
    _same(module)
    assert len(all_ops(module)) > 3000  # loop nests 10+ levels deep, ~80 functions


def test_affine_ops_are_the_constructors_ops():
    """affine_ops builds through Operation.create what xDSL's constructors build (operands,
    result types, properties in the same order, attributes, one region for the loop)."""
    from xdsl.dialects import affine
    from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, f32
    from xdsl.ir import Block, Region
    from xdsl.ir.affine import AffineExpr, AffineMap

    from tosa_xdsl.lowering.to_loops import affine_ops

    args = Block(arg_types=[MemRefType(f32, [4, 8]), IndexType(), IndexType(), f32])
    mem, i, j, x = args.args
    d0, d1, s0 = AffineExpr.dimension(0), AffineExpr.dimension(1), AffineExpr.symbol(0)
    access = AffineMapAttr(AffineMap(2, 0, (d0 + 1, d1 * 2)))

    def same(a, b) -> None:
        assert type(a) is type(b)
        assert list(a.operands) == list(b.operands)
        assert list(a.result_types) == list(b.result_types)
        assert list(a.properties.items()) == list(b.properties.items())
        assert a.attributes == b.attributes
        assert len(a.regions) == len(b.regions)

    same(affine_ops.load(mem, [i, j], access), affine.LoadOp(mem, [i, j], access))
    same(affine_ops.store(x, mem, [i, j], access), affine.StoreOp(x, mem, [i, j], access))
    shift = AffineMapAttr(AffineMap(1, 0, (d0 + 3,)))
    same(affine_ops.apply([i], shift), affine.ApplyOp([i], shift))
    lower, upper = AffineMapAttr(AffineMap.constant_map(0)), AffineMapAttr(AffineMap(0, 1, (s0,)))
    for lo_ops, up_ops, lo, up, step in (([], [j], lower, upper, 1), ([i], [i], shift, shift, 4),
                                         ([], [], lower, AffineMapAttr(AffineMap.constant_map(7)), 2)):
        built = affine_ops.for_op(lo_ops, up_ops, lo, up, Block([affine.YieldOp.get()], arg_types=[IndexType()]), step)
        same(built, affine.ForOp.from_region(lo_ops, up_ops, [], [], lo, up,
                                             Region(Block(arg_types=[IndexType()])), step))
        built.verify()


def test_fill_pad_border_numbers_a_block_again_after_each_rewrite():
    """linalg-fill-pad-border numbers a block's ops once and again after each of its rewrites
    (which insert ops): two padded buffers in one block both get their border fills, as a
    run of the pass per buffer gives them."""
    from xdsl.dialects import func, linalg, scf

    from tosa_xdsl.context import make_context
    from tosa_xdsl.lowering.linalg_transforms.fill_border import FillPadBorder, LinalgFillPadBorderPass

    text = """
func.func @f(%a: memref<2x2xf32>, %b: memref<3x3xf32>, %oa: memref<4x4xf32>, %ob: memref<5x5xf32>) {
  %z = arith.constant 0.0 : f32
  %pa = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%z : f32) outs(%pa : memref<4x4xf32>)
  %sa = memref.subview %pa[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  "memref.copy"(%a, %sa) : (memref<2x2xf32>, memref<2x2xf32, strided<[4, 1], offset: 5>>) -> ()
  %pb = memref.alloc() : memref<5x5xf32>
  linalg.fill ins(%z : f32) outs(%pb : memref<5x5xf32>)
  %sb = memref.subview %pb[1, 1] [3, 3] [1, 1] : memref<5x5xf32> to memref<3x3xf32, strided<[5, 1], offset: 6>>
  "memref.copy"(%b, %sb) : (memref<3x3xf32>, memref<3x3xf32, strided<[5, 1], offset: 6>>) -> ()
  "memref.copy"(%pa, %oa) : (memref<4x4xf32>, memref<4x4xf32>) -> ()
  "memref.copy"(%pb, %ob) : (memref<5x5xf32>, memref<5x5xf32>) -> ()
  memref.dealloc %pa : memref<4x4xf32>
  memref.dealloc %pb : memref<5x5xf32>
  func.return
}
"""
    module = parse(text)
    LinalgFillPadBorderPass().apply(make_context(), module)
    ops = all_ops(module)
    assert not any(isinstance(o, linalg.FillOp) for o in ops)  # both borders as loop nests
    assert sum(isinstance(o, scf.ForOp) for o in ops) >= 2
    module.verify()
    pattern = FillPadBorder()
    block = next(o for o in ops if isinstance(o, func.FuncOp)).body.block
    top = list(block.ops)
    assert [pattern._position(block, o) for o in top] == list(range(len(top)))


def test_binding_a_compiled_function_does_not_import_xdsls_jit_frontend():
    """jit.from_object maps the llvm function type to a C signature with xDSL's type tables
    and not through xdsl.jit.llvm.backend, which imports xDSL's Python frontend (~0.3 s of a
    process's first compile, cached or not); the signature is the backend's."""
    import subprocess
    import sys

    code = """
import sys
import numpy as np
from codegen_model import inputs, model, parse
from tosa_xdsl.jit import NativeModule
native = NativeModule(parse(model()), cache=None)
native.call(inputs())
print(sorted(m for m in sys.modules if m.startswith(("xdsl.jit.llvm.backend", "xdsl.frontend", "xdsl.jit.context"))))
"""
    env_path = [str(ROOT / "tests" / "codegen"), *sys.path]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": ":".join(env_path), "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"

    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import f32, f64, i1, i8, i32, i64
    from xdsl.jit.llvm.backend import LLVMJITBackend
    from xdsl.jit.llvm.c_type_context import to_c_func_type

    from tosa_xdsl import jit

    ptr = llvm.LLVMPointerType()
    for ft in (llvm.LLVMFunctionType([ptr, ptr, ptr]), llvm.LLVMFunctionType([ptr, i64, f32], i32),
               llvm.LLVMFunctionType([i1, i8, f64, ptr], f64)):
        ours = jit._c_signature(ft)
        assert ours == to_c_func_type(LLVMJITBackend(lowering=()).c_type_context, ft)

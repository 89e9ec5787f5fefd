"""What the compile-time work (issue 15, docs/native.md "The compile path") relies on:
`tosa_xdsl.ir.walk.all_ops` lists exactly what xDSL's `Operation.walk` yields, in the same
order (the passes that scan with it must see the same ops), on IR with nested regions,
several blocks and empty regions, and on the example model's loop stage."""

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

"""outline-loop-nests (tosa_xdsl/lowering/to_llvm/outline_loop_nests.py): each top-level loop
nest becomes a private function called in its place; constants, globals and views are
re-created inside, whole buffers and scalars are passed; what cannot be passed stays inline.
The module computes the same values (interpreter before/after, expected values worked out by
hand below), and LLVM sees internal `noinline` functions with `noalias` buffer arguments."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func

from codegen_model import inputs, interpret, model, parse
from tosa_xdsl import jit
from tosa_xdsl.codegen.llvm import llvm_ir, target_machine
from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter.runner import build_interpreter
from tosa_xdsl.lowering.to_llvm.outline_loop_nests import OutlineLoopNestsPass

KERNEL = """
"memref.global"() <{sym_name = "w", type = memref<4xi32>, initial_value = dense<[1, 2, 3, 4]> : tensor<4xi32>, sym_visibility = "private", constant}> : () -> ()
func.func @k(%a: memref<2x4xi32>, %out: memref<4xi32>, %s: i32) {
  %w = memref.get_global @w : memref<4xi32>
  %c1i = arith.constant 1 : i32
  %t = memref.alloc() : memref<4xi32>
  %row = memref.subview %a[1, 0] [1, 4] [1, 1] : memref<2x4xi32> to memref<4xi32, strided<[1], offset: 4>>
  affine.for %i = 0 to 4 {
    %x = affine.load %row[%i] : memref<4xi32, strided<[1], offset: 4>>
    %y = affine.load %w[%i] : memref<4xi32>
    %z = arith.muli %x, %y : i32
    %u = arith.addi %z, %s : i32
    %u2 = arith.subi %u, %s : i32
    %u3 = arith.addi %u2, %s : i32
    memref.store %u3, %t[%i] : memref<4xi32>
  }
  affine.for %j = 0 to 4 {
    %x = memref.load %t[%j] : memref<4xi32>
    %y = arith.addi %x, %x : i32
    %v = arith.subi %y, %s : i32
    %q = arith.addi %v, %s : i32
    %q2 = arith.muli %q, %c1i : i32
    memref.store %q2, %out[%j] : memref<4xi32>
  }
  memref.dealloc %t : memref<4xi32>
  func.return
}
"""


def run_kernel(module) -> np.ndarray:
    a = np.array([[9, 9, 9, 9], [10, 20, 30, 40]], np.int32)
    out = np.full(4, -1, np.int32)
    build_interpreter(module).call_op("k", (a, out, 5))
    return out


def test_nests_become_functions_with_the_same_results():
    module = parse(KERNEL)
    # row 1 of a times w plus s, doubled: 2 * (a[1][i] * w[i] + 5)
    np.testing.assert_array_equal(run_kernel(module), [30, 90, 190, 330])
    OutlineLoopNestsPass().apply(make_context(), module)
    fns = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    assert set(fns) == {"k", "k_nest0", "k_nest1"}
    for name in ("k_nest0", "k_nest1"):
        fn = fns[name]
        assert fn.sym_visibility is not None and fn.sym_visibility.data == "private"
        assert "no_inline" in fn.attributes
        # the view and the global are re-created inside: only whole buffers and the scalar pass
        assert [str(t) for t in fn.function_type.inputs] in (
            ["memref<2x4xi32>", "i32", "memref<4xi32>"], ["memref<4xi32>", "i32", "memref<4xi32>"])
    calls = [op for op in fns["k"].walk() if isinstance(op, func.CallOp)]
    assert [c.callee.string_value() for c in calls] == ["k_nest0", "k_nest1"]
    np.testing.assert_array_equal(run_kernel(module), [30, 90, 190, 330])


def test_a_nest_on_a_view_of_an_unknown_buffer_stays_inline():
    # the view's source is a call result: neither an allocation nor an argument, so its
    # extent and aliasing are unknown; the nest is left where it is
    text = """
func.func private @get() -> memref<8xi32>
func.func @k(%out: memref<4xi32>) {
  %b = func.call @get() : () -> memref<8xi32>
  %v = memref.subview %b[2] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 2>>
  affine.for %i = 0 to 4 {
    %x = affine.load %v[%i] : memref<4xi32, strided<[1], offset: 2>>
    %y = arith.addi %x, %x : i32
    %z = arith.addi %y, %x : i32
    %q = arith.addi %z, %x : i32
    affine.store %q, %out[%i] : memref<4xi32>
  }
  func.return
}
"""
    module = parse(text)
    OutlineLoopNestsPass().apply(make_context(), module)
    assert len([f for f in module.ops if isinstance(f, func.FuncOp)]) == 2


def test_llvm_sees_internal_noinline_noalias_functions():
    lowered = jit.lower_to_llvm(parse(model()))
    text = llvm_ir(lowered, target_machine(2))
    nests = [line for line in text.splitlines() if line.startswith("define internal")]
    assert nests, "no outlined function"
    for line in nests:
        assert line.endswith("noinline") and "ptr noalias" in line
    assert 'define void @"main"' in text


def test_native_results_equal_the_interpreter():
    text = model()
    native = jit.NativeModule(parse(text))
    for seed in range(3):
        args = inputs(seed)
        np.testing.assert_array_equal(native.call(args)[0], interpret(text, args)[0])

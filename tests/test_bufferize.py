"""one-shot-bufferize keeps semantics and frees its buffers.

Each module (hand-written linalg-on-tensors IR, one per op kind, and lowered TOSA graphs) runs
in the interpreter before and after the pass on the same inputs; the results must be
bit-identical. Expected values come from the tensor-level run (for lowered TOSA graphs, from
the TOSA-level run: its interpreter is checked against Arm's reference model). After every
call the interpreter's live-allocation counter must be back to zero (no leak), every
`memref.alloc` must have a `memref.dealloc`, no tensor may be left, and the generic output
must be accepted by MLIR 22's mlir-opt and by iree-opt.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from xdsl.dialects import memref
from xdsl.dialects.builtin import TensorType

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.runner import Session
from tosa_xdsl.printing import print_ir

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
T2 = "affine_map<(d0, d1) -> (d1, d0)>"

CASES: dict[str, tuple[str, list]] = {}
F23 = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
G23 = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)


def case(name: str, inputs: list):
    def add(src: str) -> str:
        CASES[name] = (src, inputs)
        return src

    return add


def _gen(ins: str, ins_t: str, out: str, out_t: str, maps: str, iters: str, body: str, res_t: str) -> str:
    return (f"linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}} "
            f"ins({ins} : {ins_t}) outs({out} : {out_t}) {{\n{body.replace('; ', chr(10))}\n}} -> {res_t}")


case("elementwise_chain", [F23, G23])(f"""
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {{
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = {_gen("%a, %b", "tensor<2x3xf32>, tensor<2x3xf32>", "%e", "tensor<2x3xf32>", f"{ID2}, {ID2}, {ID2}",
             '"parallel", "parallel"', "^bb0(%x: f32, %y: f32, %o: f32):; %s = arith.addf %x, %y : f32; linalg.yield %s : f32",
             "tensor<2x3xf32>")}
  %c = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %1 = {_gen("%0, %c", "tensor<2x3xf32>, tensor<2x3xf32>", "%e2", "tensor<2x3xf32>", f"{ID2}, {ID2}, {ID2}",
             '"parallel", "parallel"', "^bb0(%x: f32, %y: f32, %o: f32):; %s = arith.mulf %x, %y : f32; linalg.yield %s : f32",
             "tensor<2x3xf32>")}
  %2 = {_gen("%1", "tensor<2x3xf32>", "%1", "tensor<2x3xf32>", f"{ID2}, {ID2}",
             '"parallel", "parallel"', "^bb0(%x: f32, %o: f32):; %s = arith.addf %x, %o : f32; linalg.yield %s : f32",
             "tensor<2x3xf32>")}
  return %2 : tensor<2x3xf32>
}}""")

# a generic reading its init through a transposed map must not run in place
case("transposed_self_read", [np.arange(9, dtype=np.int32).reshape(3, 3)])(f"""
func.func @main(%a: tensor<3x3xi32>) -> tensor<3x3xi32> {{
  %e = tensor.empty() : tensor<3x3xi32>
  %0 = {_gen("%a", "tensor<3x3xi32>", "%e", "tensor<3x3xi32>", f"{ID2}, {ID2}", '"parallel", "parallel"',
             "^bb0(%x: i32, %o: i32):; linalg.yield %x : i32", "tensor<3x3xi32>")}
  %1 = {_gen("%0", "tensor<3x3xi32>", "%0", "tensor<3x3xi32>", f"{T2}, {ID2}", '"parallel", "parallel"',
             "^bb0(%x: i32, %o: i32):; %s = arith.addi %x, %o : i32; linalg.yield %s : i32", "tensor<3x3xi32>")}
  return %1 : tensor<3x3xi32>
}}""")

# the init is still used after the op: the op writes a copy; a constant init is never written
case("init_live_after", [F23])(f"""
func.func @main(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {{
  %z = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = {_gen("%a", "tensor<2x3xf32>", "%f", "tensor<2x3xf32>", f"{ID2}, {ID2}", '"parallel", "parallel"',
             "^bb0(%x: f32, %o: f32):; %s = arith.addf %x, %o : f32; linalg.yield %s : f32", "tensor<2x3xf32>")}
  %c = arith.constant dense<2.0> : tensor<2x3xf32>
  %1 = {_gen("%a", "tensor<2x3xf32>", "%c", "tensor<2x3xf32>", f"{ID2}, {ID2}", '"parallel", "parallel"',
             "^bb0(%x: f32, %o: f32):; %s = arith.mulf %x, %o : f32; linalg.yield %s : f32", "tensor<2x3xf32>")}
  return %0, %f, %1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}}""")

case("matmul_fill", [np.arange(6, dtype=np.int32).reshape(2, 3), np.arange(12, dtype=np.int32).reshape(3, 4) - 5])("""
func.func @main(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
  %z = arith.constant 7 : i32
  %e = tensor.empty() : tensor<2x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<2x4xi32>) -> tensor<2x4xi32>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xi32>, tensor<3x4xi32>) outs(%f : tensor<2x4xi32>) -> tensor<2x4xi32>
  return %m : tensor<2x4xi32>
}""")

case("batch_matmul", [np.ones((2, 2, 3), np.float32), np.arange(24, dtype=np.float32).reshape(2, 3, 4)])("""
func.func @main(%a: tensor<2x2x3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x2x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x2x3xf32>, tensor<2x3x4xf32>) outs(%f : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  return %m : tensor<2x2x4xf32>
}""")

case("conv_pool", [np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2), np.ones((3, 2, 2, 2), np.float32)])("""
func.func @main(%x: tensor<1x4x4x2xf32>, %w: tensor<3x2x2x2xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x2x2x2xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x2xf32>, tensor<3x2x2x2xf32>) outs(%f : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %m = arith.constant -3.40282347E+38 : f32
  %e2 = tensor.empty() : tensor<1x2x2x2xf32>
  %f2 = linalg.fill ins(%m : f32) outs(%e2 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %k : tensor<1x4x4x2xf32>, tensor<2x2xf32>) outs(%f2 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %c, %p : tensor<1x3x3x3xf32>, tensor<1x2x2x2xf32>
}""")

case("reduce_transpose_broadcast", [F23])("""
func.func @main(%a: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<3x2xf32>, tensor<4x2x3xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%f : tensor<3xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e2 : tensor<3x2xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<4x2x3xf32>
  %b = linalg.broadcast ins(%a : tensor<2x3xf32>) outs(%e3 : tensor<4x2x3xf32>) dimensions = [0]
  return %r, %t, %b : tensor<3xf32>, tensor<3x2xf32>, tensor<4x2x3xf32>
}""")

case("extract_insert", [np.arange(4, dtype=np.int16)])("""
func.func @main(%a: tensor<4xi16>) -> (tensor<4xi16>, tensor<4xi16>) {
  %i = arith.constant 1 : index
  %j = arith.constant 3 : index
  %v = tensor.extract %a[%i] : tensor<4xi16>
  %0 = tensor.insert %v into %a[%j] : tensor<4xi16>
  %w = tensor.extract %0[%j] : tensor<4xi16>
  %s = arith.addi %w, %v : i16
  %1 = tensor.insert %s into %0[%i] : tensor<4xi16>
  return %1, %a : tensor<4xi16>, tensor<4xi16>
}""")

case("slices", [np.arange(24, dtype=np.int32).reshape(4, 6), np.full((2, 3), -1, np.int32)])("""
func.func @main(%a: tensor<4x6xi32>, %b: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<4x6xi32>, tensor<3xi32>) {
  %0 = tensor.extract_slice %a[1, 2] [2, 3] [2, 1] : tensor<4x6xi32> to tensor<2x3xi32>
  %1 = tensor.insert_slice %b into %a[2, 3] [2, 3] [1, 1] : tensor<2x3xi32> into tensor<4x6xi32>
  %2 = tensor.extract_slice %1[3, 0] [1, 6] [1, 1] : tensor<4x6xi32> to tensor<6xi32>
  %3 = tensor.extract_slice %2[1] [3] [2] : tensor<6xi32> to tensor<3xi32>
  return %0, %1, %3 : tensor<2x3xi32>, tensor<4x6xi32>, tensor<3xi32>
}""")

case("pad_reshape_concat", [F23, G23])("""
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<4x4xf32>, tensor<6xf32>, tensor<1x2x3xf32>, tensor<4x3xf32>) {
  %p = arith.constant -9.0 : f32
  %0 = tensor.pad %a low[1, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %p : f32
  } : tensor<2x3xf32> to tensor<4x4xf32>
  %1 = tensor.collapse_shape %b [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %2 = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 2, 3] : tensor<2x3xf32> into tensor<1x2x3xf32>
  %3 = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0, %1, %2, %3 : tensor<4x4xf32>, tensor<6xf32>, tensor<1x2x3xf32>, tensor<4x3xf32>
}""")

case("from_elements_splat", [np.array([3, -4], np.int8)])("""
func.func @main(%a: tensor<2xi8>) -> (tensor<2x2xi8>, tensor<3xi8>) {
  %i = arith.constant 0 : index
  %j = arith.constant 1 : index
  %x = tensor.extract %a[%i] : tensor<2xi8>
  %y = tensor.extract %a[%j] : tensor<2xi8>
  %0 = tensor.from_elements %x, %y, %y, %x : tensor<2x2xi8>
  %1 = tensor.splat %y : tensor<3xi8>
  return %0, %1 : tensor<2x2xi8>, tensor<3xi8>
}""")

case("scf_if", [F23, np.array([True]), np.array([False])])(f"""
func.func @main(%a: tensor<2x3xf32>, %c: tensor<1xi1>, %d: tensor<1xi1>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {{
  %i = arith.constant 0 : index
  %b = tensor.extract %c[%i] : tensor<1xi1>
  %b2 = tensor.extract %d[%i] : tensor<1xi1>
  %r:2 = scf.if %b -> (tensor<2x3xf32>, tensor<2x3xf32>) {{
    %e = tensor.empty() : tensor<2x3xf32>
    %0 = {_gen("%a", "tensor<2x3xf32>", "%e", "tensor<2x3xf32>", f"{ID2}, {ID2}", '"parallel", "parallel"',
               "^bb0(%x: f32, %o: f32):; %s = arith.negf %x : f32; linalg.yield %s : f32", "tensor<2x3xf32>")}
    scf.yield %0, %a : tensor<2x3xf32>, tensor<2x3xf32>
  }} else {{
    scf.yield %a, %a : tensor<2x3xf32>, tensor<2x3xf32>
  }}
  %s = scf.if %b2 -> (tensor<2x3xf32>) {{
    scf.yield %a : tensor<2x3xf32>
  }} else {{
    scf.yield %r#0 : tensor<2x3xf32>
  }}
  return %s, %r#1 : tensor<2x3xf32>, tensor<2x3xf32>
}}""")

case("scf_for", [np.arange(3, dtype=np.int32), np.ones(3, np.int32)])("""
func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %r:2 = scf.for %iv = %lb to %ub step %st iter_args(%x = %a, %y = %b) -> (tensor<3xi32>, tensor<3xi32>) {
    %e = tensor.empty() : tensor<3xi32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<3xi32>, tensor<3xi32>) outs(%e : tensor<3xi32>) {
    ^bb0(%p: i32, %q: i32, %o: i32):
      %t = arith.addi %p, %q : i32
      linalg.yield %t : i32
    } -> tensor<3xi32>
    scf.yield %s, %x : tensor<3xi32>, tensor<3xi32>
  }
  return %r#0, %r#1 : tensor<3xi32>, tensor<3xi32>
}""")

case("scf_while", [np.array(0, np.int32), np.array([1.0, 2.0], np.float32)])("""
func.func @main(%i0: tensor<i32>, %x0: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %r:2 = scf.while (%i = %i0, %x = %x0) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
    %v = tensor.extract %i[] : tensor<i32>
    %five = arith.constant 5 : i32
    %c = arith.cmpi slt, %v, %five : i32
    scf.condition(%c) %i, %x : tensor<i32>, tensor<2xf32>
  } do {
  ^bb0(%i1: tensor<i32>, %x1: tensor<2xf32>):
    %v = tensor.extract %i1[] : tensor<i32>
    %one = arith.constant 1 : i32
    %n = arith.addi %v, %one : i32
    %i2 = tensor.insert %n into %i1[] : tensor<i32>
    %e = tensor.empty() : tensor<2xf32>
    %x2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : tensor<2xf32>) outs(%e : tensor<2xf32>) {
    ^bb0(%p: f32, %o: f32):
      %t = arith.addf %p, %p : f32
      linalg.yield %t : f32
    } -> tensor<2xf32>
    scf.yield %i2, %x2 : tensor<i32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<2xf32>
}""")

case("call", [F23])(f"""
func.func @twice(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {{
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = {_gen("%a", "tensor<2x3xf32>", "%e", "tensor<2x3xf32>", f"{ID2}, {ID2}", '"parallel", "parallel"',
             "^bb0(%x: f32, %o: f32):; %s = arith.addf %x, %x : f32; linalg.yield %s : f32", "tensor<2x3xf32>")}
  return %0 : tensor<2x3xf32>
}}
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {{
  %0 = func.call @twice(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = tensor.extract_slice %0[0, 0] [2, 3] [1, 1] : tensor<2x3xf32> to tensor<2x3xf32>
  %1 = func.call @twice(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}}""")

# ml_program globals (tosa variables): the state persists across calls of one session
case("globals", [np.array([2], np.int32)])("""
ml_program.global private mutable @v(dense<[10]> : tensor<1xi32>) : tensor<1xi32>
func.func @main(%a: tensor<1xi32>) -> tensor<1xi32> {
  %0 = ml_program.global_load @v : tensor<1xi32>
  %e = tensor.empty() : tensor<1xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0, %a : tensor<1xi32>, tensor<1xi32>) outs(%e : tensor<1xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %t = arith.muli %p, %q : i32
    linalg.yield %t : i32
  } -> tensor<1xi32>
  ml_program.global_store @v = %1 : tensor<1xi32>
  return %0 : tensor<1xi32>
}""")


def _live(session: Session) -> int:
    impls = session.interpreter._impls._impl_dict  # pyright: ignore[reportPrivateUsage]
    return impls[memref.AllocOp][0].live_allocations


def check_bufferized(src: str, inputs: list, calls: int = 2, want_module=None):
    """Bit-exact against the tensor-level session, call after call; no leak."""
    bufferized = lower(src, "one-shot-bufferize")
    ops = list(bufferized.walk())
    assert not [o.name for o in ops if any(isinstance(v.type, TensorType) for v in (*o.operands, *o.results))]
    assert sum(isinstance(o, memref.AllocOp) for o in ops) == sum(isinstance(o, memref.DeallocOp) for o in ops)
    want_session = Session(want_module if want_module is not None else parse(src), allow_unpredictable=True)
    got_session = Session(bufferized, allow_unpredictable=True)
    for k in range(calls):
        want = want_session.call(inputs)
        got = got_session.call(inputs)
        assert_same(got, want, f"call {k}")
        assert _live(got_session) == 0, f"call {k}: {_live(got_session)} buffers leaked"
    return bufferized


@pytest.mark.parametrize("name", sorted(CASES))
def test_bufferized_matches_tensor_stage(name):
    src, inputs = CASES[name]
    check_bufferized(src, inputs)


def _has_mlir():
    return shutil.which(MLIR_OPT) is not None


@pytest.mark.skipif(not _has_mlir(), reason="MLIR 22 mlir-opt not installed")
def test_mlir_and_iree_accept_the_output():
    for name, (src, _) in sorted(CASES.items()):
        text = print_ir(lower(src, "one-shot-bufferize"), style="generic")
        for tool in (MLIR_OPT, shutil.which("iree-opt")):
            if tool is None:
                continue
            done = subprocess.run([tool, "-"], input=text, capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, (name, tool, done.stderr[:2000])


def _count(module, cls) -> int:
    return sum(isinstance(o, cls) for o in module.walk())


def test_destination_passing_chain_has_no_copy_and_writes_the_out_param():
    m = lower(CASES["elementwise_chain"][0], "one-shot-bufferize")
    assert _count(m, memref.CopyOp) == 0
    assert _count(m, memref.AllocOp) == 1  # the first generic's; the others write the out-param
    m = lower(CASES["matmul_fill"][0], "one-shot-bufferize")
    assert _count(m, memref.CopyOp) == 0 and _count(m, memref.AllocOp) == 0


def test_hazards_copy():
    # the fill result is returned too, so the generic writing into its init needs a copy,
    # and the constant init is copied (never written)
    m = lower(CASES["init_live_after"][0], "one-shot-bufferize")
    assert _count(m, memref.CopyOp) >= 2
    # an input argument is never written: tensor.insert into it copies
    m = lower(CASES["extract_insert"][0], "one-shot-bufferize")
    assert _count(m, memref.CopyOp) >= 1


def test_inputs_are_never_written():
    # the runner passes read-only input buffers: a write would raise
    src, inputs = CASES["extract_insert"]
    run(lower(src, "one-shot-bufferize"), inputs)


def test_out_param_convention():
    m = lower(CASES["reduce_transpose_broadcast"][0], "one-shot-bufferize")
    fn = next(o for o in m.ops if o.name == "func.func")
    assert fn.attributes["tosa_xdsl.out_params"].value.data == 3
    assert len(fn.function_type.inputs.data) == 4 and not fn.function_type.outputs.data


# ------------------------------------------------------------------ lowered TOSA graphs

STAGE1 = ("tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith,tosa-to-scf,"
          "tosa-to-mlprogram")

TOSA_GRAPHS = {
    "chain_branch": ("""
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<1xi1>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.cond_if %c (%x = %0, %y = %b) : tensor<1xi1> (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> {
  ^bb0(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>):
    %2 = tosa.maximum %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    tosa.yield %2 : tensor<2x3xf32>
  } else {
  ^bb0(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>):
    %2 = tosa.sub %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    tosa.yield %2 : tensor<2x3xf32>
  }
  %3 = tosa.transpose %1 {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %1, %3 : tensor<2x3xf32>, tensor<3x2xf32>
}""", [F23, G23, np.array([True])]),
    "while_loop": ("""
func.func @main(%i0: tensor<i32>, %x0: tensor<2xi32>) -> (tensor<i32>, tensor<2xi32>) {
  %r:2 = tosa.while_loop (%i = %i0, %x = %x0) : (tensor<i32>, tensor<2xi32>) -> (tensor<i32>, tensor<2xi32>) {
    %five = "tosa.const"() <{values = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %c = tosa.greater %five, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %x: tensor<2xi32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %i1 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %x1 = tosa.add %x, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    tosa.yield %i1, %x1 : tensor<i32>, tensor<2xi32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<2xi32>
}""", [np.array(0, np.int32), np.array([1, -3], np.int32)]),
    "variable": ("""
tosa.variable @v = dense<[1.5, 2.0]> : tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.variable_read @v : tensor<2xf32>
  %1 = tosa.add %0, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  tosa.variable_write @v, %1 : tensor<2xf32>
  return %0 : tensor<2xf32>
}""", [np.array([0.25, -1.0], np.float32)]),
}


@pytest.mark.parametrize("name", sorted(TOSA_GRAPHS))
def test_lowered_tosa_graphs(name):
    src, inputs = TOSA_GRAPHS[name]
    try:
        stage1 = lower(src, STAGE1)
    except LocatedError as err:  # stage 1 is still being completed by other developers
        pytest.skip(f"stage 1 cannot lower this graph yet: {err}")
    text = str(stage1)
    check_bufferized(text, inputs, calls=3, want_module=parse(src))


# ------------------------------------------------------------------ diagnostics


@pytest.mark.parametrize("src, message", [
    ("""func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tensor.concat dim(0) %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}""", "static shapes are required"),
    ("""func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.abs %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}""", "cannot lower 'tosa.abs'"),
    ("""func.func @main(%a: tensor<2xi32>) -> tensor<4xi32> {
  %0 = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    tensor.yield %v : i32
  } : tensor<2xi32> to tensor<4xi32>
  return %0 : tensor<4xi32>
}""", "cannot lower 'tensor.pad': the padding value depends on the index"),
    ("""func.func @main(%a: tensor<4xi32>) -> tensor<2x2xi32> {
  %s = arith.constant dense<[2, 2]> : tensor<2xi64>
  %0 = tensor.reshape %a(%s) : (tensor<4xi32>, tensor<2xi64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}""", "cannot lower 'tensor.reshape': no bufferization rule"),
])
def test_diagnostics(src, message):
    with pytest.raises(LocatedError) as info:
        lower(src, "one-shot-bufferize")
    assert "one-shot-bufferize: " in str(info.value) and message in str(info.value), str(info.value)

"""COND_IF and WHILE_LOOP with `?` dims (EXT-DYNAMIC + EXT-CONTROLFLOW) through every stage:
the TOSA-level interpreter (the oracle: it follows the spec's pseudocode) against each lowered
stage in the interpreter (linalg on tensors, buffers, loops, cf) and the llvm stage natively
(one compile, several run-time shapes). After bufferization scf.if results and scf.while
arguments are memrefs each block owns (docs/bufferization.md): every bufferized stage must
end a call with no live allocation.
"""

from __future__ import annotations

import numpy as np
import pytest
from lowering_harness import lower, parse
from test_dynamic_stages import LLVM, STAGES, _close

from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.errors import TosaRunError
from tosa_xdsl.interpreter.runner import Session
from tosa_xdsl.jit import NativeModule

# COND_IF with a dynamic and a static result: the then branch computes its values, the else
# branch yields an argument (a buffer it does not own: copied); the result is used after it.
COND_IF = """
func.func @main(%c: tensor<i1>, %a: tensor<?x3xi32>, %b: tensor<?x3xi32>) -> (tensor<?x3xi32>, tensor<1x3xi32>, tensor<?x3xi32>) {
  %0:2 = tosa.cond_if %c (%x = %a, %y = %b) : tensor<i1> (tensor<?x3xi32>, tensor<?x3xi32>) -> (tensor<?x3xi32>, tensor<1x3xi32>) {
  ^bb0(%x: tensor<?x3xi32>, %y: tensor<?x3xi32>):
    %1 = tosa.add %x, %y : (tensor<?x3xi32>, tensor<?x3xi32>) -> tensor<?x3xi32>
    %2 = tosa.reduce_sum %1 {axis = 0 : i32} : (tensor<?x3xi32>) -> tensor<1x3xi32>
    tosa.yield %1, %2 : tensor<?x3xi32>, tensor<1x3xi32>
  } else {
  ^bb0(%x: tensor<?x3xi32>, %y: tensor<?x3xi32>):
    %2 = tosa.reduce_max %y {axis = 0 : i32} : (tensor<?x3xi32>) -> tensor<1x3xi32>
    tosa.yield %x, %2 : tensor<?x3xi32>, tensor<1x3xi32>
  }
  %3 = tosa.sub %0#0, %b : (tensor<?x3xi32>, tensor<?x3xi32>) -> tensor<?x3xi32>
  return %0#0, %0#1, %3 : tensor<?x3xi32>, tensor<1x3xi32>, tensor<?x3xi32>
}"""

# WHILE_LOOP carrying a static counter and bound, a tensor updated each iteration, and two
# dynamic tensors that swap places (each iteration hands the buffers it received back)
WHILE_LOOP = """
func.func @main(%n0: tensor<i32>, %x0: tensor<?x2xi32>, %p0: tensor<?x?xf32>, %q0: tensor<?x?xf32>) -> (tensor<i32>, tensor<?x2xi32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %zero = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:5 = tosa.while_loop (%n = %n0, %i = %zero, %x = %x0, %p = %p0, %q = %q0) : (tensor<i32>, tensor<i32>, tensor<?x2xi32>, tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<i32>, tensor<i32>, tensor<?x2xi32>, tensor<?x?xf32>, tensor<?x?xf32>) {
    %c = tosa.greater %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%n: tensor<i32>, %i: tensor<i32>, %x: tensor<?x2xi32>, %p: tensor<?x?xf32>, %q: tensor<?x?xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %i1 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %x1 = tosa.add %x, %x : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
    tosa.yield %n, %i1, %x1, %q, %p : tensor<i32>, tensor<i32>, tensor<?x2xi32>, tensor<?x?xf32>, tensor<?x?xf32>
  }
  return %r#1, %r#2, %r#3, %r#4 : tensor<i32>, tensor<?x2xi32>, tensor<?x?xf32>, tensor<?x?xf32>
}"""

# a data-dependent trip count (until column 0 sums to 100 or more) and a COND_IF on dynamic
# tensors inside the body (ownership through nested regions)
NESTED = """
func.func @main(%x0: tensor<?x2xi32>) -> tensor<?x2xi32> {
  %r = tosa.while_loop (%x = %x0) : (tensor<?x2xi32>) -> tensor<?x2xi32> {
    %s = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<?x2xi32>) -> tensor<1x2xi32>
    %b = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
    %z = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
    %s0 = tosa.slice %s, %b, %z : (tensor<1x2xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xi32>
    %lim = "tosa.const"() <{values = dense<100> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %c = tosa.greater %lim, %s0 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    tosa.yield %c : tensor<1x1xi1>
  } do {
  ^bb0(%x: tensor<?x2xi32>):
    %s = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<?x2xi32>) -> tensor<1x2xi32>
    %t = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<1x2xi32>) -> tensor<1x1xi32>
    %zero = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %odd = tosa.bitwise_and %t, %one1 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
    %c = tosa.equal %odd, %zero : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    %y = tosa.cond_if %c (%u = %x) : tensor<1x1xi1> (tensor<?x2xi32>) -> tensor<?x2xi32> {
    ^bb0(%u: tensor<?x2xi32>):
      %v = tosa.add %u, %u : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
      tosa.yield %v : tensor<?x2xi32>
    } else {
    ^bb0(%u: tensor<?x2xi32>):
      %one = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
      %v = tosa.add %u, %one : (tensor<?x2xi32>, tensor<1x1xi32>) -> tensor<?x2xi32>
      tosa.yield %v : tensor<?x2xi32>
    }
    tosa.yield %y : tensor<?x2xi32>
  }
  return %r : tensor<?x2xi32>
}""".replace("%odd = tosa.bitwise_and %t, %one1",
             '%one1 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>\n'
             "    %odd = tosa.bitwise_and %t, %one1")


# one buffer yielded twice (the second is a copy), an argument yielded twice (two copies);
# one result is freed after its last use, the other returned to the caller
COND_IF_TWICE = """
func.func @main(%c: tensor<i1>, %x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %0:2 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  ^bb0(%a: tensor<?x3xf32>):
    %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = tosa.negate %a, %z, %z : (tensor<?x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xf32>
    tosa.yield %1, %1 : tensor<?x3xf32>, tensor<?x3xf32>
  } else {
  ^bb0(%a: tensor<?x3xf32>):
    tosa.yield %a, %a : tensor<?x3xf32>, tensor<?x3xf32>
  }
  %2 = tosa.add %0#0, %0#1 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %2, %0#1 : tensor<?x3xf32>, tensor<?x3xf32>
}"""


def _twice_inputs(rng, n: int) -> list[np.ndarray]:
    return [np.array(rng.random() < 0.5), rng.standard_normal((n, 3)).astype(np.float32)]


def _cond_if_inputs(rng, n: int) -> list[np.ndarray]:
    return [np.array(rng.random() < 0.5), rng.integers(-50, 50, (n, 3)).astype(np.int32),
            rng.integers(-50, 50, (n, 3)).astype(np.int32)]


def _while_inputs(rng, n: int) -> list[np.ndarray]:
    m = int(rng.integers(1, 5))
    return [np.array(rng.integers(0, 5), np.int32), rng.integers(-50, 50, (n, 2)).astype(np.int32),
            rng.standard_normal((m, n)).astype(np.float32), rng.standard_normal((m, n)).astype(np.float32)]


def _nested_inputs(rng, n: int) -> list[np.ndarray]:
    return [rng.integers(0, 9, (n, 2)).astype(np.int32)]


PROGRAMS = [
    ("cond_if", COND_IF, _cond_if_inputs),
    ("cond_if_same_value_twice", COND_IF_TWICE, _twice_inputs),
    ("while_loop", WHILE_LOOP, _while_inputs),
    ("while_loop_nested_cond_if", NESTED, _nested_inputs),
]


@pytest.mark.parametrize("name, src, make_inputs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_every_stage_matches_the_tosa_level(name, src, make_inputs):
    rng = np.random.default_rng(sum(map(ord, name)))
    tosa_module = parse(src)
    lowered = {stage: lower(src, stage) for stage in STAGES}
    native = NativeModule(parse(src), pipeline=LLVM)  # compiled once, called at every shape
    for n in (1, 2, 3, 5):
        xs = make_inputs(rng, n)
        want = run(tosa_module, xs)
        for stage, module in lowered.items():
            session = Session(module)
            _close(session.call(xs), want, True, f"{name} {stage} n={n}")
            if "one-shot-bufferize" in stage or "tosa-to-loops" in stage:
                assert session.interpreter.allocations.live_allocations == 0, (name, stage, n)
        _close(native.call(xs), want, True, f"{name} jit n={n}")


# The carried tensor doubles its rows each iteration (CONCAT with itself) until column 0
# sums to 100 or more. TOSA forbids it (ERROR_IF(tensor_list_shape(input_list) !=
# tosa_output_shape(body_graph))); upstream's scf.while carries the new size.
GROWING = """
func.func @main(%x0: tensor<?x2xi32>) -> tensor<?x2xi32> {
  %r = tosa.while_loop (%x = %x0) : (tensor<?x2xi32>) -> tensor<?x2xi32> {
    %s = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<?x2xi32>) -> tensor<1x2xi32>
    %b = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
    %z = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
    %s0 = tosa.slice %s, %b, %z : (tensor<1x2xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xi32>
    %lim = "tosa.const"() <{values = dense<100> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %c = tosa.greater %lim, %s0 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    tosa.yield %c : tensor<1x1xi1>
  } do {
  ^bb0(%x: tensor<?x2xi32>):
    %y = tosa.concat %x, %x {axis = 0 : i32} : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
    tosa.yield %y : tensor<?x2xi32>
  }
  return %r : tensor<?x2xi32>
}"""


def _growing_oracle(x: np.ndarray) -> np.ndarray:
    while x[:, 0].sum() < 100:
        x = np.concatenate([x, x])
    return x


def test_carried_tensor_that_changes_size():
    """The interpreter reports the spec's ERROR_IF; the lowered stages compute what upstream's
    scf.while semantics give (each iteration's buffer has its own size: no write past a
    buffer); native code refuses the shapes up front (shape inference of the specialised
    graph finds the carried value changing shape) and, past that check, stays in bounds."""
    x = np.array([[3, 1], [4, 1], [5, 9]], np.int32)
    with pytest.raises(TosaRunError, match="tosa_output_shape"):
        run(parse(GROWING), [x])
    want = [_growing_oracle(x)]
    assert want[0].shape == (48, 2)  # 3 rows, column 0 sums 12 -> 24 -> 48 -> 96 -> 192
    for stage in STAGES:
        session = Session(lower(GROWING, stage))
        _close(session.call([x]), want, True, stage)
        if "one-shot-bufferize" in stage or "tosa-to-loops" in stage:
            assert session.interpreter.allocations.live_allocations == 0, stage
    native = NativeModule(parse(GROWING), pipeline=LLVM)
    with pytest.raises(ValueError, match="break the graph's shape rules"):
        native.call([x])
    native._checked.add((x.shape,))
    _close(native.call([x]), want, True, "jit past the shape check")


def test_bufferized_forms_follow_upstream():
    """scf.if has a memref result, scf.while memref arguments and results (upstream's
    one-shot-bufferize with allow-return-allocs-from-loops, checked in
    tests/filecheck/lowering/bufferize_dynamic_control_flow.mlir); allocs and deallocs pair
    up except the buffers handed over."""
    from xdsl.dialects import scf
    from xdsl.dialects.builtin import MemRefType

    module = lower(WHILE_LOOP, STAGES[1])
    (loop,) = [o for o in module.walk() if isinstance(o, scf.WhileOp)]
    assert [str(t) for t in loop.result_types] == ["memref<?x2xi32>", "memref<?x?xf32>", "memref<?x?xf32>"]
    assert all(isinstance(a.type, MemRefType) for a in loop.before_region.block.args)
    module = lower(COND_IF, STAGES[1])
    (branch,) = [o for o in module.walk() if isinstance(o, scf.IfOp)]
    assert [str(t) for t in branch.result_types] == ["memref<?x3xi32>"]  # the static one: allocated before

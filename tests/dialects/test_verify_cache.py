"""The verdict cache (tosa_xdsl/dialects/tosa/ops/verify_cache.py) never lets a bad op
through because an op of the same class and types passed before: what a check reads beyond
the op's own types and attributes (constant producers, the variable a read refers to, an
attribute replaced in place) is part of the signature or disables caching.

The expected verdicts are the spec's: MUL's shift must be 0 for float (ERROR_IF in 2.5.7
MUL: `in_t != i32 && shift != 0`); VARIABLE_READ's type must equal the variable's
(upstream's verifier, see tosa_xdsl/verification/variable.py)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl.context import make_context
from tosa_xdsl.dialects.tosa.ops import verify_cache

T = "tensor<2x3xf32>"


def _mul(shift: int) -> str:
    return f"""
func.func @f(%a: {T}, %b: {T}) -> {T} {{
  %sh = tosa.const values(dense<{shift}> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.mul %a, %b, %sh : ({T}, {T}, tensor<1xi8>) -> {T}
  func.return %r : {T}
}}"""


def _parse(text: str):
    return Parser(make_context(), text).parse_module()


def test_constant_producer_is_part_of_the_signature():
    _parse(_mul(0)).verify()  # records the signature of a valid float MUL
    with pytest.raises(VerifyException, match="shift"):
        _parse(_mul(1)).verify()


def test_repeated_ops_are_verified_once_and_bad_ones_always():
    body = "\n".join(f"  %r{i} = tosa.add %a, %b : ({T}, {T}) -> {T}" for i in range(50))
    good = f"func.func @f(%a: {T}, %b: {T}) {{\n{body}\n  func.return\n}}"
    _parse(good).verify()
    bad = good.replace(f"%r7 = tosa.add %a, %b : ({T}, {T}) -> {T}",
                       f"%r7 = tosa.add %a, %b : ({T}, {T}) -> tensor<2x3xi32>")
    with pytest.raises(VerifyException):
        _parse(bad).verify()


def test_attribute_replaced_in_place_is_checked_again():
    text = f"""
func.func @f(%x: tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32> {{
  %r = tosa.max_pool2d %x kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) :
    (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %r : tensor<1x2x2x1xf32>
}}"""
    module = _parse(text)
    module.verify()
    pool = next(op for op in module.walk() if op.name == "tosa.max_pool2d")
    pool.properties["stride"] = DenseArrayBase.from_list(i64, [0, 2])  # stride < 1: ERROR_IF
    with pytest.raises(VerifyException):
        module.verify()


def _variable(var_type: str) -> str:
    return f"""
module {{
  tosa.variable @v : {var_type}
  func.func @f() -> tensor<2xf32> {{
    %0 = tosa.variable_read @v : tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }}
}}"""


def test_ops_that_read_their_context_are_never_cached():
    _parse(_variable("tensor<2xf32>")).verify()
    with pytest.raises(VerifyException, match="same element type"):
        _parse(_variable("tensor<2xi8>")).verify()


def test_disabling_the_cache_gives_the_same_verdicts():
    previous = verify_cache.set_enabled(False)
    try:
        _parse(_mul(0)).verify()
        with pytest.raises(VerifyException, match="shift"):
            _parse(_mul(1)).verify()
    finally:
        verify_cache.set_enabled(previous)


def test_dominance_with_block_positions_matches_the_walk():
    # driver.verify numbers each block once (dominance_error(op, order)) instead of walking
    # the block per operand; the verdicts are the walk's (MLIR: a use before its definition
    # in a function body does not dominate; in a module body, a graph region, it may)
    from tosa_xdsl.verification.dominance import dominance_error

    text = f"""
func.func @f(%a: {T}) -> {T} {{
  %p = "tosa.negate"(%m) : ({T}) -> {T}
  %m = tosa.negate %a : ({T}) -> {T}
  %q = tosa.add %m, %a : ({T}, {T}) -> {T}
  func.return %q : {T}
}}"""
    from xdsl.context import Context

    ctx = make_context()
    assert isinstance(ctx, Context)
    module = Parser(ctx, text).parse_module()
    order: dict = {}
    verdicts = [(dominance_error(op), dominance_error(op, order)) for op in module.walk()]
    assert all(walk == numbered for walk, numbered in verdicts)
    assert [v for v, _ in verdicts if v] == ["operand #0 does not dominate this use"]


def test_traits_run_on_every_cached_op():
    # tosa.yield's verdict is cached inside a cond_if; the same signature outside one must
    # still fail its HasParent trait (MLIR: "expects parent op to be one of ...")
    good = """
func.func @f(%c: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  %0 = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<f32>) -> tensor<f32> {
  ^bb0(%x: tensor<f32>):
    tosa.yield %x : tensor<f32>
  } else {
  ^bb0(%x: tensor<f32>):
    tosa.yield %x : tensor<f32>
  }
  return %0 : tensor<f32>
}"""
    _parse(good).verify()
    bad = """
"test.region"() ({
^bb0(%x: tensor<f32>):
  tosa.yield %x : tensor<f32>
}) : () -> ()"""
    ctx = make_context(allow_unregistered=True)
    with pytest.raises(VerifyException, match="parent"):
        Parser(ctx, bad).parse_module().verify()


def test_a_verdict_under_make_broadcastable_input_mode_is_not_reused_outside():
    """tosa-make-broadcastable's input reads lower-rank operands as if padded with 1s; an op
    accepted that way must still be rejected by an ordinary verification later."""
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import VerifyException

    from tosa_xdsl.context import make_context
    from tosa_xdsl.dialects.tosa.ops.base import rank_broadcast_allowed

    text = """func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
      %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
      return %0 : tensor<2x3xf32>
    }"""
    with rank_broadcast_allowed():
        Parser(make_context(), text).parse_module().verify()
    with pytest.raises(VerifyException, match="same rank"):
        Parser(make_context(), text).parse_module().verify()

"""The arith-IR builders of lowering/numerics_ir.py equal tosa_xdsl/numerics.py exactly.

Each test builds `func.func @main` holding one linalg.generic whose body is the builder's
IR, runs it through our interpreter on random arrays (hypothesis) and compares it with the
numpy helper, which implements the spec's chapter-4 pseudocode. Inputs are drawn where the
helper's REQUIREs hold (multiplier >= 0, 2 <= shift <= 62, value in range for the shift),
with INT32_MIN/MAX, shift 2/31/32/62 and multiplier 0/2^31-1 as explicit edge examples.
Compile-time (Python int) multiplier/shift arguments are tested as well as SSA ones.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    FunctionType,
    IntegerType,
    ModuleOp,
    TensorType,
    f32,
    i8,
    i16,
    i32,
)
from xdsl.ir import Block, Region

from tosa_xdsl import numerics
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering import numerics_ir as nir

i48 = IntegerType(48)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def run_body(in_types, out_type, body, inputs):
    """Run a one-generic function: elementwise over `inputs` (1-D), body(b, args) -> value."""
    n = len(inputs[0])
    arg_types = [TensorType(t, [n]) for t in in_types]
    out_t = TensorType(out_type, [n])
    block = Block(arg_types=arg_types)
    ops, res = lb.elementwise(list(block.args), [n], out_type, lambda b, args: [body(b, args)])
    for op in ops:
        block.add_op(op)
    block.add_op(func.ReturnOp(res))
    fn = func.FuncOp("main", FunctionType.from_lists(arg_types, [out_t]), Region(block))
    module = ModuleOp([fn])
    module.verify()
    (out,) = run(module, inputs, "main")
    return np.asarray(out)


def scale32_case(draw_shift):
    """(value, multiplier, shift) with apply_scale_32's REQUIREs holding."""
    return draw_shift.flatmap(
        lambda s: st.tuples(
            st.integers(max(-(1 << (s - 1)), INT32_MIN), min((1 << (s - 1)) - 1, INT32_MAX)),
            st.integers(0, INT32_MAX),
            st.just(s),
        )
    )


cases32 = st.lists(scale32_case(st.integers(2, 62)), min_size=1, max_size=24)


@SETTINGS
@given(cases32, st.booleans())
@example([(INT32_MIN, INT32_MAX, 62), (INT32_MAX, INT32_MAX, 32), (-1, 0, 2), (1, 1, 2),
          (INT32_MIN, 1 << 30, 33), (-(1 << 30), INT32_MAX, 31), (0, 0, 62)], True)
@example([(INT32_MIN, INT32_MAX, 62), (INT32_MAX, INT32_MAX, 32), (-(1 << 30), INT32_MAX, 31)], False)
def test_apply_scale_32_ssa(cases, double_round):
    v, m, s = (np.array(c) for c in zip(*cases))
    v, m, s = v.astype(np.int32), m.astype(np.int32), s.astype(np.int8)
    got = run_body([i32, i32, i8], i32,
                   lambda b, a: nir.apply_scale_32(b, a[0], a[1], a[2], double_round), [v, m, s])
    want = numerics.apply_scale_32(v, m, s, double_round)
    np.testing.assert_array_equal(got, want)


@SETTINGS
@given(st.integers(2, 62).flatmap(lambda s: st.tuples(st.just(s), st.integers(0, INT32_MAX))),
       st.booleans(), st.data())
@example((31, INT32_MAX), True, None)
@example((32, 1 << 30), True, None)
def test_apply_scale_32_constant_params(sm, double_round, data):
    s, m = sm
    lo, hi = max(-(1 << (s - 1)), INT32_MIN), min((1 << (s - 1)) - 1, INT32_MAX)
    if data is None:
        vals = [lo, hi, 0, -1, 1]
    else:
        vals = data.draw(st.lists(st.integers(lo, hi), min_size=1, max_size=24))
    v = np.array(vals, np.int32)
    got = run_body([i32], i32, lambda b, a: nir.apply_scale_32(b, a[0], m, s, double_round), [v])
    np.testing.assert_array_equal(got, numerics.apply_scale_32(v, m, s, double_round))


def scale16_case():
    def ok(c):
        v, m, s = c
        r = (v * m + (1 << (s - 1))) >> s
        return INT32_MIN <= r <= INT32_MAX

    return st.tuples(
        st.integers(-(1 << 47), (1 << 47) - 1) | st.sampled_from([-(1 << 47), (1 << 47) - 1, 0, -1]),
        st.integers(0, (1 << 15) - 1),
        st.integers(2, 62),
    ).filter(ok)


@SETTINGS
@given(st.lists(scale16_case(), min_size=1, max_size=24))
@example([((1 << 47) - 1, 32767, 62), (-(1 << 47), 32767, 31), (-(1 << 47), 1, 16), (5, 0, 2)])
def test_apply_scale_16(cases):
    v, m, s = (np.array(c) for c in zip(*cases))
    v, m, s = v.astype(np.int64), m.astype(np.int16), s.astype(np.int8)
    got = run_body([i48, i16, i8], i32, lambda b, a: nir.apply_scale_16(b, a[0], a[1], a[2]), [v, m, s])
    np.testing.assert_array_equal(got, numerics.apply_scale_16(v, m, s))


@SETTINGS
@given(st.lists(st.integers(INT32_MIN, INT32_MAX), min_size=1, max_size=24),
       st.sampled_from([(i8, "i8", False), (i16, "i16", False), (i8, "ui8", True), (i16, "ui16", True)]))
@example([INT32_MIN, INT32_MAX, 0, 255, 256, -129, 65535, 32768], (i8, "ui8", True))
def test_saturate(vals, out):
    t, name, unsigned = out
    v = np.array(vals, np.int32)
    got = run_body([i32], t, lambda b, a: nir.saturate_s(b, a[0], t, unsigned), [v])
    lo = numerics.minimum_u(name) if unsigned else numerics.minimum_s(name)
    hi = numerics.maximum_u(name) if unsigned else numerics.maximum_s(name)
    want = numerics.truncate(np.clip(v.astype(np.int64), lo, hi), name)
    np.testing.assert_array_equal(got.astype(np.int64), numerics.sign_extend(want, name))


@SETTINGS
@given(st.lists(st.integers(INT32_MIN, INT32_MAX), min_size=1, max_size=24),
       st.integers(-1000, 1000), st.integers(0, 1000))
def test_apply_clip_s_int(vals, lo, span):
    v = np.array(vals, np.int32)
    got = run_body([i32], i32, lambda b, a: nir.apply_clip_s(b, a[0], lo, lo + span), [v])
    np.testing.assert_array_equal(got, numerics.apply_clip_s(v, np.int32(lo), np.int32(lo + span), "i32"))


@SETTINGS
@given(st.lists(st.integers(0, (1 << 32) - 1), min_size=1, max_size=24), st.integers(0, 100), st.integers(0, 1000))
def test_apply_clip_u(vals, lo, span):
    v = np.array(vals, np.uint32).view(np.int32)
    got = run_body([i32], i32, lambda b, a: nir.apply_clip_u(b, a[0], lo, lo + span), [v])
    want = np.clip(v.view(np.uint32).astype(np.int64), lo, lo + span)
    np.testing.assert_array_equal(got.view(np.uint32), want)


FLOATS = st.floats(width=32, allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, -0.0, float("nan")])


@SETTINGS
@given(st.lists(st.tuples(FLOATS, FLOATS), min_size=1, max_size=24), st.sampled_from(["PROPAGATE", "IGNORE"]))
@example([(-0.0, 0.0), (0.0, -0.0), (float("nan"), 1.0), (1.0, float("nan"))], "PROPAGATE")
@example([(-0.0, 0.0), (0.0, -0.0), (float("nan"), 1.0), (1.0, float("nan"))], "IGNORE")
def test_apply_max_min_float(pairs, nan_mode):
    a, c = (np.array(x, np.float32) for x in zip(*pairs))
    for ir_fn, np_fn in ((nir.apply_max_s, numerics.apply_max_s), (nir.apply_min_s, numerics.apply_min_s)):
        got = run_body([f32, f32], f32, lambda b, x: ir_fn(b, x[0], x[1], nan_mode), [a, c])
        want = np_fn(a, c, "fp32", nan_mode)
        same = (got == want) & (np.signbit(got) == np.signbit(want)) | (np.isnan(got) & np.isnan(want))
        assert same.all(), (ir_fn.__name__, a, c, got, want)


@SETTINGS
@given(st.lists(st.integers(1, (1 << 32) - 1) | st.sampled_from([1, 2, 3, 255, 1 << 31, (1 << 32) - 1]),
                min_size=1, max_size=24))
def test_reciprocal_scale(vals):
    v = np.array(vals, np.uint32).view(np.int32)

    def mult(b, a):
        return nir.reciprocal_scale(b, a[0])[0]

    def shift(b, a):
        return nir.reciprocal_scale(b, a[0])[1]

    want_m, want_s = numerics.reciprocal_scale(np.array(vals, np.int64))
    np.testing.assert_array_equal(run_body([i32], i32, mult, [v]), want_m)
    np.testing.assert_array_equal(run_body([i32], i8, shift, [v]), want_s)


@SETTINGS
@given(st.lists(st.tuples(st.integers(INT32_MIN, INT32_MAX), st.integers(0, 31)), min_size=1, max_size=24))
def test_rounding_right_shift(pairs):
    a, s = (np.array(x, np.int32) for x in zip(*pairs))
    got = run_body([i32, i32], i32, lambda b, x: nir.rounding_right_shift(b, x[0], x[1]), [a, s])
    np.testing.assert_array_equal(got, numerics.arithmetic_right_shift(a, s, "i32", round=True))

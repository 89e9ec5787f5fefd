"""`tosa-to-linalg`, elementwise half: spec 2.4 activation, 2.5 elementwise binary (but
TABLE), 2.6 elementwise unary, 2.7 SELECT, 2.8 comparison and 2.13.1 CAST.

Every operator becomes `tensor.empty` + one parallel `linalg.generic` whose body is arith/math
on scalars; size-1 operand dims that the result stretches are broadcast through the indexing
maps (operands have equal ranks, spec 1.11.3; tosa-make-broadcastable makes them so). A
`tensor<1xT>` side operand (MUL's shift, NEGATE's zero points) that is a constant is folded
into the body as an `arith.constant`; otherwise it becomes one more generic input read at
index 0.

Integer bodies compute exactly what the operator function computes wherever the spec defines
the result (a failing REQUIRE may give any value, but the IR never hits undefined behaviour on
valid inputs: shift amounts stay in range, MUL's rounding product is formed in i64, NEGATE
widens to i32 and saturates). Float bodies:

* ADD/SUB/MUL/RECIPROCAL/ABS/NEGATE/CEIL/FLOOR/comparisons, and the single-function ops EXP,
  LOG, SIN, COS, TANH, ERF, POW, RSQRT are computed in the operator's own type, as upstream;
* SIGMOID is computed in f32 for fp16/bf16 and as `e/(1+e)` with `e = exp(-|x|)` for
  negative x, because the textbook `1/(1+exp(-x))` overflows exp for x < -11 (fp16) or
  x < -88 (fp32) and loses the tiny result the spec's error bound still asks for;
* MAXIMUM/MINIMUM/CLAMP: PROPAGATE -> arith.maximumf/minimumf, IGNORE -> arith.maxnumf/
  minnumf (either sign of a zero result is permitted by their precision rules);
* CAST follows 2.13.1: float -> int rounds to nearest even (math.roundeven) and saturates
  (NaN, unpredictable in the spec, gives the type's minimum); int -> float and float
  narrowing are a single round-to-nearest-even step (arith.sitofp / arith.truncf, whose
  APFloat semantics give +-inf on overflow for fp16/bf16/fp32/fp8e5m2 and NaN for fp8e4m3,
  which has no infinity: OCP's non-saturating mode); -> bool is `!= 0`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    FloatAttr,
    UnrealizedConversionCastOp,
    IntegerAttr,
    IntegerType,
    Signedness,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr
from xdsl.rewriter import Rewriter

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops import activation as act
from tosa_xdsl.dialects.tosa.ops import comparison as cmp
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import elementwise_ternary as et
from tosa_xdsl.dialects.tosa.ops import elementwise_unary as eu
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.dialects.tosa.ops.type_conversion import CastOp
from tosa_xdsl.interpreter.common import (
    tname,  # numerics' name of a type ("fp16", "i8")
)
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering import numerics_ir as nir
from tosa_xdsl.lowering.linalg_build import (
    broadcast_map,
    empty,
    generic,
    identity,
    map_of,
    parallel,
)
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg.common import fail, is_float

Body = Callable[[Builder, Sequence[SSAValue]], SSAValue]


# ------------------------------------------------------------------ types


def _bits(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    return t.bitwidth


def _check_type(op: Operation, t: Attribute, what: str) -> None:
    """arith works on signless integers and floats; TOSA's integers are signless (an unsigned
    reading is an attribute: CAST's input_unsigned)."""
    if isinstance(t, IntegerType):
        if t.signedness.data == Signedness.UNSIGNED and isinstance(op, _UNSIGNED_OK):
            return  # computed on the signless bits (upstream's unrealized casts; _emit_unsigned)
        if t.signedness.data != Signedness.SIGNLESS:
            raise fail(op, f"{what} has the {'un' if t.signedness.data == Signedness.UNSIGNED else ''}signed "
                           f"element type {t}; only signless integers are supported")
        return
    if not is_float(t):
        raise fail(op, f"{what} has the element type {t}, which has no arith lowering")


# Operators on unsigned tensors (upstream's rows, verification/producer_types.py): computed
# on the signless bits, with the unsigned arith ops where signedness matters (maxui/minui,
# cmpi ugt/uge, shrui: the unsigned values' meaning); ADD/SUB/MUL/NEGATE modulo 2^width
_UNSIGNED_OK = (eb.AddOp, eb.SubOp, eb.MulOp, eb.MaximumOp, eb.MinimumOp, eb.BitwiseAndOp, eb.BitwiseOrOp,
                eb.BitwiseXorOp, eb.LogicalLeftShiftOp, eb.LogicalRightShiftOp, eb.ArithmeticRightShiftOp,
                eu.AbsOp, eu.BitwiseNotOp, eu.ClzOp, eu.NegateOp, act.ClampOp, et.SelectOp, cmp.EqualOp,
                cmp.GreaterOp, cmp.GreaterEqualOp, CastOp)


def _signless(t: Attribute) -> Attribute:
    if isinstance(t, IntegerType) and t.signedness.data != Signedness.SIGNLESS:
        return IntegerType(t.width.data)
    return t


def _is_unsigned(v: SSAValue) -> bool:
    t = lb.element_type(v)
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def _emit_unsigned(op: Operation, inputs: Sequence[SSAValue], body: Body, scalars: Sequence[SSAValue]) -> None:
    """`_emit` for unsigned tensors, as upstream: `builtin.unrealized_conversion_cast` to the
    signless type, the generic on the bits, a cast back to the unsigned result type."""
    ops: list[Operation] = []

    def cast(v: SSAValue) -> SSAValue:
        if not _is_unsigned(v):
            return v
        t = v.type
        c = UnrealizedConversionCastOp.get([v], [lb.tensor_type(_signless(t.element_type), lb.dims_of(v))])
        ops.append(c)
        return c.results[0]

    ins, scs = [cast(v) for v in inputs], [cast(v) for v in scalars]
    out = op.results[0]
    n = len(inputs) + len(scalars)
    res = lb.dynamic_elementwise(ins, scs, lb.dims_of(out), _signless(lb.element_type(out)),
                                 lambda b, a: [body(b, list(a[:n]))], ops)
    back = UnrealizedConversionCastOp.get([res], [out.type])
    ops.append(back)
    Rewriter.replace_op(op, ops, [back.results[0]])


# ------------------------------------------------------------------ compile-time operands


def _const_scalar(value: SSAValue) -> int | float | None:
    """The single element of a tensor<1xT> constant operand, or None when it is only known
    at run time."""
    arr = lb.const_values(value)
    if arr is None or arr.size != 1:
        return None
    return int(arr[0]) if arr.dtype.kind in "iub" else float(arr[0])


def _erase_if_dead(values: Sequence[SSAValue]) -> None:
    """A tosa.const whose value was folded into a body and has no other user goes too."""
    for v in values:
        owner = v.owner
        if isinstance(owner, ConstOp) and not owner.output.uses:
            Rewriter.erase_op(owner)


# ------------------------------------------------------------------ the generic


def _emit(op: Operation, inputs: Sequence[SSAValue], body: Body, scalars: Sequence[SSAValue] = ()) -> None:
    """Replace `op` by tensor.empty + a parallel linalg.generic over its result shape.

    `inputs` broadcast to the result (equal ranks); `scalars` are tensor<1xT> side operands
    read at index 0 for every element. `body(b, args)` gets the input elements followed by the
    scalar elements and returns the result element."""
    out = op.results[0]
    if any(_is_unsigned(v) for v in (out, *inputs)):
        _emit_unsigned(op, inputs, body, scalars)
        return
    if lb.is_dynamic(out, *inputs):
        _emit_dynamic(op, inputs, body, scalars)
        return
    out_shape = lb.shape_of(out)
    rank = len(out_shape)
    maps = []
    for i, v in enumerate(inputs):
        s = lb.shape_of(v)
        if len(s) != rank:
            raise fail(op, f"operand #{i} has rank {len(s)} but the result has rank {rank}; "
                           "TOSA broadcasting needs equal ranks (run tosa-make-broadcastable first)")
        if any(d != o and d != 1 for d, o in zip(s, out_shape)):
            raise fail(op, f"operand #{i} of shape {list(s)} does not broadcast to the result shape {list(out_shape)}")
        maps.append(broadcast_map(s, out_shape))
    for v in scalars:
        if lb.shape_of(v) != (1,):
            raise fail(op, f"side operand of type {v.type} must be a tensor<1xT>")
        maps.append(map_of(rank, [AffineConstantExpr(0)]))
    maps.append(identity(rank))
    init = empty(out_shape, lb.element_type(out))
    n = len(inputs) + len(scalars)
    gen = generic([*inputs, *scalars], [init.tensor], maps, parallel(rank),
                  lambda b, args: [body(b, list(args[:n]))])
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])


def _emit_dynamic(op: Operation, inputs: Sequence[SSAValue], body: Body, scalars: Sequence[SSAValue]) -> None:
    """`_emit` with dynamic dims: the result's sizes from the operands' `tensor.dim`s and
    run-time broadcasting (linalg_build.dynamic_elementwise)."""
    out = op.results[0]
    out_shape = lb.dims_of(out)
    rank = len(out_shape)
    for i, v in enumerate(inputs):
        s = lb.dims_of(v)
        if len(s) != rank:
            raise fail(op, f"operand #{i} has rank {len(s)} but the result has rank {rank}; "
                           "TOSA broadcasting needs equal ranks (run tosa-make-broadcastable first)")
        if any(d >= 0 and o >= 0 and d != o and d != 1 for d, o in zip(s, out_shape)):
            raise fail(op, f"operand #{i} of shape {list(s)} does not broadcast to the result shape {list(out_shape)}")
    for v in scalars:
        if lb.dims_of(v) != (1,):
            raise fail(op, f"side operand of type {v.type} must be a tensor<1xT>")
    n = len(inputs) + len(scalars)
    ops: list[Operation] = []
    res = lb.dynamic_elementwise(inputs, scalars, out_shape, lb.element_type(out), lambda b, a: [body(b, list(a[:n]))], ops)
    Rewriter.replace_op(op, ops, [res])


def _ins(b: Builder, o: Operation) -> SSAValue:
    return b.insert(o).results[0]


def _kind(op: Operation, *values: SSAValue) -> bool:
    """True for a float operator, False for an integer one; checks every element type."""
    for i, v in enumerate((*values, *op.results)):
        _check_type(op, lb.element_type(v), "operand" if i < len(values) else "the result")
    return is_float(lb.element_type(values[0]))


# ------------------------------------------------------------------ binary


def _binary(float_op: Callable | None, int_op: Callable | None, what: str = "") -> Callable[[Operation], None]:
    """An operator that is one arith op on (input1, input2): `float_op` / `int_op` are arith
    op classes (None: that kind is not in the operator's type table)."""

    def lower(op: Operation) -> None:
        is_f = _kind(op, op.input1, op.input2)
        cls = float_op if is_f else int_op
        if cls is None:
            raise fail(op, f"{'floating-point' if is_f else 'integer'} element type {lb.element_type(op.input1)} "
                           f"is not supported{what}")
        _emit(op, [op.input1, op.input2], lambda b, a: _ins(b, cls(a[0], a[1])))

    return lower


def _nan_mode(op: Operation) -> str:
    mode = op.properties.get("nan_mode")
    return "PROPAGATE" if mode is None else str(mode.data)


def _minmax(is_max: bool) -> Callable[[Operation], None]:
    """Spec 2.5.12 / 2.5.13: apply_max_s / apply_min_s with nan_mode."""

    def lower(op: Operation) -> None:
        is_f = _kind(op, op.input1, op.input2)
        if is_f:
            ignore = _nan_mode(op) == "IGNORE"
            cls = (arith.MaxnumfOp if ignore else arith.MaximumfOp) if is_max else \
                (arith.MinnumfOp if ignore else arith.MinimumfOp)
        elif _is_unsigned(op.input1):
            cls = arith.MaxUIOp if is_max else arith.MinUIOp
        else:
            cls = arith.MaxSIOp if is_max else arith.MinSIOp
        _emit(op, [op.input1, op.input2], lambda b, a: _ins(b, cls(a[0], a[1])))

    return lower


def lower_arithmetic_right_shift(op: eb.ArithmeticRightShiftOp) -> None:
    """Spec 2.5.2: a >> b (arith.shrsi); with round, + ((a >> (b - 1)) & 1) when b > 0. The
    shift amount is REQUIREd in 0..bits-1, where shrsi is defined."""
    if _kind(op, op.input1, op.input2):
        raise fail(op, "floating-point element types are not supported")
    rnd = op.properties.get("round")
    rounding = bool(rnd is not None and rnd.value.data)
    if _is_unsigned(op.input1):  # unsigned values shift in zeros (upstream's rows)
        def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
            r = _ins(b, arith.ShRUIOp(a[0], a[1]))
            if not rounding:
                return r
            # + bit (b - 1) of a when b > 0 (a >> (b - 1) & 1; b - 1 clamped at 0, masked off)
            one, zero = nir.const(b, 1, a[1].type), nir.const(b, 0, a[1].type)
            prev = _ins(b, arith.ShRUIOp(a[0], _ins(b, arith.MaxSIOp(_ins(b, arith.SubiOp(a[1], one)), zero))))
            bit = _ins(b, arith.AndIOp(prev, one))
            pos = _ins(b, arith.CmpiOp(a[1], zero, "sgt"))
            return _ins(b, arith.AddiOp(r, _ins(b, arith.SelectOp(pos, bit, zero))))
        _emit(op, [op.input1, op.input2], body)
        return
    if rounding:
        body = lambda b, a: nir.rounding_right_shift(b, a[0], a[1])  # noqa: E731
    else:
        body = lambda b, a: _ins(b, arith.ShRSIOp(a[0], a[1]))  # noqa: E731
    _emit(op, [op.input1, op.input2], body)


def lower_mul(op: eb.MulOp) -> None:
    """Spec 2.5.14. Floats: mulf. i8/i16 -> i32: both sign-extended, muli in i32. i32 with
    shift > 0: the i64 product (1 << (shift - 1)) + sext(a) * sext(b), arithmetic-shifted
    right by shift, truncated (the REQUIRE says it fits); shift = 0: muli in i32, i.e. the
    low 32 bits of the product. A run-time shift takes the i64 path with round computed as
    (1 << shift) >> 1, which is 0 for shift = 0."""
    is_f = _kind(op, op.input1, op.input2)
    in_t, out_t = _signless(lb.element_type(op.input1)), _signless(lb.element_type(op.output))
    if is_f:
        _emit(op, [op.input1, op.input2], lambda b, a: _ins(b, arith.MulfOp(a[0], a[1])))
        _erase_if_dead([op.shift])
        return
    _check_type(op, lb.element_type(op.shift), "shift")
    unsigned = _is_unsigned(op.input1)  # ui8 x ui8 -> ui32 (upstream's rows): zero extension
    if not isinstance(out_t, IntegerType) or out_t.width.data < _bits(in_t):
        raise fail(op, f"integer result type {out_t} is narrower than the input type {in_t}")
    ins = [op.input1, op.input2]
    shift = _const_scalar(op.shift) if in_t == i32 else 0

    def widen(b: Builder, v: SSAValue, t: IntegerType) -> SSAValue:
        if unsigned and nir.width(v) < t.width.data:
            return _ins(b, arith.ExtUIOp(v, t))
        return nir.sign_extend(b, v, t)

    if shift == 0:
        _emit(op, ins, lambda b, a: _ins(b, arith.MuliOp(widen(b, a[0], out_t), widen(b, a[1], out_t))))
    elif shift is not None:
        if not 0 < shift <= 63:
            raise fail(op, f"shift {shift} is outside 0..63 (a REQUIRE of MUL)")

        def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
            p = _ins(b, arith.MuliOp(widen(b, a[0], i64), widen(b, a[1], i64)))
            p = _ins(b, arith.AddiOp(p, nir.const(b, 1 << (shift - 1), i64)))
            p = _ins(b, arith.ShRSIOp(p, nir.const(b, shift, i64)))
            return nir.truncate(b, p, out_t)

        _emit(op, ins, body)
    else:
        def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
            s = widen(b, a[2], i64)
            p = _ins(b, arith.MuliOp(widen(b, a[0], i64), widen(b, a[1], i64)))
            one = nir.const(b, 1, i64)
            rnd = _ins(b, arith.ShRUIOp(_ins(b, arith.ShLIOp(one, s)), one))
            p = _ins(b, arith.AddiOp(p, rnd))
            p = _ins(b, arith.ShRSIOp(p, s))
            return nir.truncate(b, p, out_t)

        _emit(op, ins, body, scalars=[op.shift])
        return
    _erase_if_dead([op.shift])


def lower_pow(op: eb.PowOp) -> None:
    if _is_unsigned(op.input1) or not _kind(op, op.input1, op.input2):
        _emit(op, [op.input1, op.input2], _ipow_body(_is_unsigned(op.input1)))
        return
    _emit(op, [op.input1, op.input2], lambda b, a: _ins(b, math.PowFOp(a[0], a[1])))


def _ipow_body(unsigned: bool) -> Body:
    """Integer POW (upstream's rows; its lowering has none): math.ipowi's definition, as the
    interpreter's int_pow: square and multiply over the exponent's bits (unrolled, one step
    per bit), modulo 2^width; a negative exponent gives 1 for base 1, +-1 for base -1 and 0
    otherwise (0 to a negative power is unpredictable: 0 here)."""

    def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
        x, e = a
        t = x.type
        w = nir.width(x)
        one, zero = nir.const(b, 1, t), nir.const(b, 0, t)
        result, base = one, x
        for i in range(w):
            bit = _ins(b, arith.AndIOp(_ins(b, arith.ShRUIOp(e, nir.const(b, i, t))), one)) if w > 1 else e
            take = _ins(b, arith.CmpiOp(bit, zero, "ne"))
            result = _ins(b, arith.SelectOp(take, _ins(b, arith.MuliOp(result, base)), result))
            if i + 1 < w:
                base = _ins(b, arith.MuliOp(base, base))
        if unsigned:
            return result
        minus_one = nir.const(b, -1, t)
        odd = _ins(b, arith.CmpiOp(_ins(b, arith.AndIOp(e, one)) if w > 1 else e, zero, "ne"))
        special = _ins(b, arith.SelectOp(_ins(b, arith.CmpiOp(x, minus_one, "eq")),
                                         _ins(b, arith.SelectOp(odd, minus_one, one)), zero))
        if w > 1:
            special = _ins(b, arith.SelectOp(_ins(b, arith.CmpiOp(x, one, "eq")), one, special))
        negative = _ins(b, arith.CmpiOp(e, zero, "slt"))
        return _ins(b, arith.SelectOp(negative, special, result))

    return body


# ------------------------------------------------------------------ comparison, select


def _compare(fpred: str, ipred: str) -> Callable[[Operation], None]:
    """Spec 2.8: ordered float predicates (false with a NaN operand), signed integer ones."""

    def lower(op: Operation) -> None:
        for i, v in enumerate((op.input1, op.input2)):
            _check_type(op, lb.element_type(v), f"operand #{i}")
        if lb.element_type(op.output) != i1:
            raise fail(op, f"the result element type must be i1, got {lb.element_type(op.output)}")
        if is_float(lb.element_type(op.input1)):
            _emit(op, [op.input1, op.input2], lambda b, a: _ins(b, arith.CmpfOp(a[0], a[1], fpred)))
        else:  # unsigned values compare unsigned (upstream's rows)
            pred = ipred.replace("s", "u", 1) if _is_unsigned(op.input1) else ipred
            _emit(op, [op.input1, op.input2], lambda b, a: _ins(b, arith.CmpiOp(a[0], a[1], pred)))

    return lower


def lower_select(op: et.SelectOp) -> None:
    if lb.element_type(op.input1) != i1:
        raise fail(op, f"input1 (the condition) must have element type i1, got {lb.element_type(op.input1)}")
    _kind(op, op.input2, op.input3)
    _emit(op, [op.input1, op.input2, op.input3], lambda b, a: _ins(b, arith.SelectOp(a[0], a[1], a[2])))


# ------------------------------------------------------------------ unary


def _unary(float_op: type | None, int_op: Callable | None = None) -> Callable[[Operation], None]:
    """`float_op(x)` (a math/arith op class) or `int_op(b, x)` (a body builder)."""

    def lower(op: Operation) -> None:
        is_f = _kind(op, op.input1)
        if is_f and float_op is not None:
            _emit(op, [op.input1], lambda b, a: _ins(b, float_op(a[0])))
        elif not is_f and int_op is not None:
            _emit(op, [op.input1], lambda b, a: int_op(b, a[0]))
        else:
            raise fail(op, f"element type {lb.element_type(op.input1)} is not supported")

    return lower


def _activation(float_op: type) -> Callable[[Operation], None]:
    def lower(op: Operation) -> None:
        if not _kind(op, op.input):
            raise fail(op, f"element type {lb.element_type(op.input)} is not supported")
        _emit(op, [op.input], lambda b, a: _ins(b, float_op(a[0])))

    return lower


def _bitwise_not(b: Builder, x: SSAValue) -> SSAValue:
    return _ins(b, arith.XOrIOp(x, nir.const(b, -1, x.type)))


def _logical_not(b: Builder, x: SSAValue) -> SSAValue:
    if x.type != i1:
        return _bitwise_not(b, x)
    return _ins(b, arith.XOrIOp(x, _ins(b, arith.ConstantOp(IntegerAttr(-1, i1)))))


def lower_reciprocal(op: eu.ReciprocalOp) -> None:
    """Spec 2.6.11: 1 / x (arith.divf, correctly rounded, within the 1 ulp allowed)."""
    if not _kind(op, op.input1):
        raise fail(op, f"element type {lb.element_type(op.input1)} is not supported")
    _emit(op, [op.input1], lambda b, a: _ins(b, arith.DivfOp(nir.const(b, 1.0, a[0].type), a[0])))


def lower_negate(op: eu.NegateOp) -> None:
    """Spec 2.6.10. Floats: arith.negf (exact, NaN -> NaN). Integers: in acc_t = i32,
    value = (input1_zp - x) + output_zp (= -(x - input1_zp) + output_zp, exact in i32 for
    i8/i16), clipped to in_out_t's range and truncated. i32 (zero points 0 by ERROR_IF):
    0 - x, whose only overflow (x = minimum) is a REQUIRE failure."""
    is_f = _kind(op, op.input1)
    zps = [op.input1_zp, op.output_zp]
    for name, v in zip(("input1_zp", "output_zp"), zps):
        _check_type(op, lb.element_type(v), name)
    if is_f:
        _emit(op, [op.input1], lambda b, a: _ins(b, arith.NegfOp(a[0])))
        _erase_if_dead(zps)
        return
    t = lb.element_type(op.input1)
    assert isinstance(t, IntegerType)
    if _is_unsigned(op.input1) or t.width.data not in (8, 16, 32):
        # upstream's rows (i1, i4, i48, unsigned; zero points 0 by ERROR_IF): -x in i64,
        # saturated to the type's range as upstream's lowering does (unsigned: always 0)
        unsigned = _is_unsigned(op.input1)
        w = t.width.data
        lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)

        def saturated(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
            x = a[0] if w == 64 else _ins(b, (arith.ExtUIOp if unsigned else arith.ExtSIOp)(a[0], i64))
            v = nir.apply_clip_s(b, _ins(b, arith.SubiOp(nir.const(b, 0, i64), x)), lo, hi)
            return v if w == 64 else _ins(b, arith.TruncIOp(v, a[0].type))

        _emit(op, [op.input1], saturated)
        _erase_if_dead(zps)
        return
    if t.width.data > 32:
        raise fail(op, f"element type {t} is wider than the i32 accumulator")
    izp, ozp = (_const_scalar(v) for v in zps)
    scalars = [v for v, c in zip(zps, (izp, ozp)) if c is None]
    bits = t.width.data
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1

    def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
        rest = iter(a[1:])
        x = nir.sign_extend(b, a[0], i32)
        z_in = nir.const(b, izp, i32) if izp is not None else nir.sign_extend(b, next(rest), i32)
        v = _ins(b, arith.SubiOp(z_in, x))
        if ozp is None:
            v = _ins(b, arith.AddiOp(v, nir.sign_extend(b, next(rest), i32)))
        elif ozp != 0:
            v = _ins(b, arith.AddiOp(v, nir.const(b, ozp, i32)))
        if bits < 32:
            v = nir.apply_clip_s(b, v, lo, hi)
        return nir.truncate(b, v, t)

    _emit(op, [op.input1], body, scalars=scalars)
    _erase_if_dead(zps)


# ------------------------------------------------------------------ activation


def _round_attr(op: Operation, name: str, t: Attribute) -> int | float:
    """CLAMP's min_val/max_val as a value of the element type t (floats rounded to nearest
    even, as the interpreter and the reference model read them; ints truncated)."""
    attr = op.properties.get(name)
    if isinstance(attr, FloatAttr) and is_float(t):
        v = float(attr.value.data)
        if np.isnan(v):
            raise fail(op, f"{name} is NaN")
        return float(nx.round_to_nearest_float(np.float64(v), tname(t)))
    if isinstance(attr, IntegerAttr) and isinstance(t, IntegerType):
        return int(nx.wrap(np.int64(int(attr.value.data)), t.width.data))
    raise fail(op, f"{name} ({attr}) does not match the element type {t}")


def lower_clamp(op: act.ClampOp) -> None:
    """Spec 2.4.1: apply_clip_s(x, min_val, max_val) = min(max(x, min_val), max_val)."""
    is_f = _kind(op, op.input)
    t = lb.element_type(op.input)
    lo, hi = _round_attr(op, "min_val", t), _round_attr(op, "max_val", t)
    if is_f:
        ignore = _nan_mode(op) == "IGNORE"
        mx, mn = (arith.MaxnumfOp, arith.MinnumfOp) if ignore else (arith.MaximumfOp, arith.MinimumfOp)

        def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
            v = _ins(b, mx(a[0], nir.const(b, lo, t)))
            return _ins(b, mn(v, nir.const(b, hi, t)))
    elif _is_unsigned(op.input):  # unsigned bounds and values (upstream's rows)
        bits = t.width.data

        def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
            v = _ins(b, arith.MaxUIOp(a[0], nir.const(b, lo % (1 << bits), a[0].type)))
            return _ins(b, arith.MinUIOp(v, nir.const(b, hi % (1 << bits), a[0].type)))
    else:
        def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
            return nir.apply_clip_s(b, a[0], lo, hi)

    _emit(op, [op.input], body)


def lower_sigmoid(op: act.SigmoidOp) -> None:
    """Spec 2.4.3: 1 / (1 + exp(-x)), evaluated without overflow: with e = exp(-|x|) (in
    (0, 1]), s = 1 / (1 + e) for x >= 0 and e * s = e / (1 + e) for x < 0. fp16/bf16 are
    computed in f32 and rounded once at the end."""
    if not _kind(op, op.input):
        raise fail(op, f"element type {lb.element_type(op.input)} is not supported")
    t = lb.element_type(op.input)
    ct = t if _bits(t) >= 32 else f32

    def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
        x = a[0] if ct == t else _ins(b, arith.ExtFOp(a[0], ct))
        e = _ins(b, math.ExpOp(_ins(b, arith.NegfOp(_ins(b, math.AbsFOp(x))))))
        one = nir.const(b, 1.0, ct)
        s = _ins(b, arith.DivfOp(one, _ins(b, arith.AddfOp(one, e))))
        neg = _ins(b, arith.CmpfOp(x, nir.const(b, 0.0, ct), "olt"))
        r = _ins(b, arith.SelectOp(neg, _ins(b, arith.MulfOp(e, s)), s))
        return r if ct == t else _ins(b, arith.TruncFOp(r, t))

    _emit(op, [op.input], body)


# ------------------------------------------------------------------ CAST


def _float_to_int(b: Builder, x: SSAValue, out_t: IntegerType, unsigned: bool = False) -> SSAValue:
    """round_to_nearest_int then saturate (2.13.1), in f32 (extf of a narrower float is exact,
    and f32 holds every rounded value of fp16/bf16/fp8). The clamp uses maxnumf/minnumf so a
    NaN (unpredictable) becomes the minimum instead of a poison fptosi. Bounds that f32 cannot
    hold (i32's 2**31 - 1) are handled by clamping below 2**31 and selecting the maximum for
    values >= 2**31."""
    if _bits(x.type) < 32:
        x = _ins(b, arith.ExtFOp(x, f32))
    ft = x.type
    r = _ins(b, math.RoundEvenOp(x))
    bits = out_t.width.data
    lo, hi = -(2.0 ** (bits - 1)), 2 ** (bits - 1) - 1  # hi as an int: i64's 2**63 - 1 is no float64
    if unsigned:  # an unsigned result (upstream's rows): 0 .. 2^bits - 1
        lo, hi = 0.0, (1 << bits) - 1
    # the largest float of type ft not above hi (hi itself when exact)
    hi_f = float(nx.round_to_nearest_float(np.float64(hi), tname(ft)))
    exact = hi_f == hi
    if hi_f > hi:
        hi_f = float(np.nextafter(np.asarray(hi_f, dtype=np.float32 if ft == f32 else np.float64), -np.inf))
    c = _ins(b, arith.MaxnumfOp(r, nir.const(b, lo, ft)))
    c = _ins(b, arith.MinnumfOp(c, nir.const(b, hi_f, ft)))
    v = _ins(b, (arith.FPToUIOp if unsigned else arith.FPToSIOp)(c, out_t))
    if not exact:
        big = _ins(b, arith.CmpfOp(r, nir.const(b, float(hi + 1), ft), "oge"))
        v = _ins(b, arith.SelectOp(big, nir.const(b, hi, out_t), v))
    return v


def _cast_body(op: CastOp, in_t: Attribute, out_t: Attribute, unsigned: bool, unsigned_out: bool = False) -> Body:
    fi, fo = is_float(in_t), is_float(out_t)

    def body(b: Builder, a: Sequence[SSAValue]) -> SSAValue:
        x = a[0]
        if out_t == i1:  # casting to bool: value != 0 (NaN != 0 too)
            if fi:
                return _ins(b, arith.CmpfOp(x, nir.const(b, 0.0, in_t), "une"))
            return _ins(b, arith.CmpiOp(x, nir.const(b, 0, in_t), "ne"))
        # bool is read as 0/1
        zext = unsigned or in_t == i1
        if not fi and not fo:
            wi, wo = _bits(in_t), _bits(out_t)
            if wi < wo:
                return _ins(b, (arith.ExtUIOp if zext else arith.ExtSIOp)(x, out_t))
            return _ins(b, arith.TruncIOp(x, out_t)) if wi > wo else x
        if not fi and fo:
            return _ins(b, (arith.UIToFPOp if zext else arith.SIToFPOp)(x, out_t))
        if fi and not fo:
            return _float_to_int(b, x, out_t, unsigned_out)
        # float -> float: one rounding step; equal widths (fp16 <-> bf16, fp8 <-> fp8)
        # through f32, which holds both exactly
        wi, wo = _bits(in_t), _bits(out_t)
        if wi < wo:
            return _ins(b, arith.ExtFOp(x, out_t))
        if wi > wo:
            return _ins(b, arith.TruncFOp(x, out_t))
        return _ins(b, arith.TruncFOp(_ins(b, arith.ExtFOp(x, f32)), out_t))

    return body


def lower_cast(op: CastOp) -> None:
    """Spec 2.13.1 CAST, every row of its table (and the other bool/int/float pairs)."""
    in_t, out_t = lb.element_type(op.input), lb.element_type(op.output)
    _check_type(op, in_t, "input")
    _check_type(op, out_t, "the result")
    u = op.properties.get("input_unsigned")
    unsigned = bool(u is not None and u.value.data) and isinstance(in_t, IntegerType)
    if in_t == out_t and not (unsigned and is_float(out_t)):
        Rewriter.replace_op(op, [], [op.input])
        return
    # unsigned tensors (upstream's rows): their bits, zero-extended; an unsigned float result
    # saturates to the unsigned range
    unsigned = unsigned or _is_unsigned(op.input)
    _emit(op, [op.input], _cast_body(op, _signless(in_t), _signless(out_t), unsigned, _is_unsigned(op.output)))


# ------------------------------------------------------------------ the table


def _absi(b: Builder, x: SSAValue) -> SSAValue:
    """ABS on i32: math.absi wraps the minimum, whose ABS is a REQUIRE failure (upstream's
    other signless rows: modulo 2^width, as the interpreter)."""
    return _ins(b, math.AbsIOp(x))


def lower_abs(op: eu.AbsOp) -> None:
    if _is_unsigned(op.input1):  # every unsigned value is its own absolute value
        _check_type(op, lb.element_type(op.input1), "operand")
        Rewriter.replace_op(op, [], [op.input1])
        return
    _unary(math.AbsFOp, _absi)(op)


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {
    # 2.4 activation
    act.ClampOp: lower_clamp,
    act.ErfOp: _activation(math.ErfOp),
    act.SigmoidOp: lower_sigmoid,
    act.TanhOp: _activation(math.TanhOp),
    # 2.5 elementwise binary (TABLE is in linalg_table)
    eb.AddOp: _binary(arith.AddfOp, arith.AddiOp),
    eb.ArithmeticRightShiftOp: lower_arithmetic_right_shift,
    eb.BitwiseAndOp: _binary(None, arith.AndIOp),
    eb.BitwiseOrOp: _binary(None, arith.OrIOp),
    eb.BitwiseXorOp: _binary(None, arith.XOrIOp),
    eb.IntDivOp: _binary(None, arith.DivSIOp),
    eb.LogicalAndOp: _binary(None, arith.AndIOp),
    eb.LogicalLeftShiftOp: _binary(None, arith.ShLIOp),
    eb.LogicalRightShiftOp: _binary(None, arith.ShRUIOp),
    eb.LogicalOrOp: _binary(None, arith.OrIOp),
    eb.LogicalXorOp: _binary(None, arith.XOrIOp),
    eb.MaximumOp: _minmax(True),
    eb.MinimumOp: _minmax(False),
    eb.MulOp: lower_mul,
    eb.PowOp: lower_pow,
    eb.SubOp: _binary(arith.SubfOp, arith.SubiOp),
    # 2.6 elementwise unary
    eu.AbsOp: lower_abs,
    eu.BitwiseNotOp: _unary(None, _bitwise_not),
    eu.CeilOp: _unary(math.CeilOp),
    eu.ClzOp: _unary(None, nir.count_leading_zeros),
    eu.CosOp: _unary(math.CosOp),
    eu.ExpOp: _unary(math.ExpOp),
    eu.FloorOp: _unary(math.FloorOp),
    eu.LogOp: _unary(math.LogOp),
    eu.LogicalNotOp: _unary(None, _logical_not),
    eu.NegateOp: lower_negate,
    eu.ReciprocalOp: lower_reciprocal,
    eu.RsqrtOp: _unary(math.RsqrtOp),
    eu.SinOp: _unary(math.SinOp),
    # 2.7 / 2.8
    et.SelectOp: lower_select,
    cmp.EqualOp: _compare("oeq", "eq"),
    cmp.GreaterOp: _compare("ogt", "sgt"),
    cmp.GreaterEqualOp: _compare("oge", "sge"),
    # 2.13.1
    CastOp: lower_cast,
}

# every operator above lowers with dynamic dims (and run-time broadcasting) through _emit
DYNAMIC: dict[type[Operation], DynamicDims] = {cls: EVERY_DIM for cls in LOWERINGS}

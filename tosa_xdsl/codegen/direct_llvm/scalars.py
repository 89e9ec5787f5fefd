"""arith and math on scalars -> LLVM IR text (direct road), as lowering/to_llvm/arith_math.py
emits them: the same instructions, in the same order."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Operation

from tosa_xdsl.codegen.direct_llvm.text import (
    _SUFFIX,
    HANDLERS,
    Function,
    Unsupported,
    float_literal,
    ir_type,
)

_INT_BINARY = {arith.AddiOp: "add", arith.SubiOp: "sub", arith.MuliOp: "mul", arith.AndIOp: "and",
               arith.OrIOp: "or", arith.XOrIOp: "xor"}
_INT_MINMAX = {arith.MaxSIOp: "smax", arith.MinSIOp: "smin", arith.MaxUIOp: "umax", arith.MinUIOp: "umin"}
_FLOAT_BINARY = {arith.AddfOp: "fadd", arith.SubfOp: "fsub", arith.MulfOp: "fmul", arith.DivfOp: "fdiv"}
_FLOAT_MINMAX = {arith.MaximumfOp: "maximum", arith.MinimumfOp: "minimum",
                 arith.MaxnumfOp: "maximumnum", arith.MinnumfOp: "minimumnum"}
_MATH_INTRINSIC = {
    math.ExpOp: "exp", math.Exp2Op: "exp2", math.LogOp: "log", math.Log2Op: "log2",
    math.Log10Op: "log10", math.SinOp: "sin", math.CosOp: "cos", math.SqrtOp: "sqrt",
    math.AbsFOp: "fabs", math.CeilOp: "ceil", math.FloorOp: "floor", math.TruncOp: "trunc",
    math.RoundEvenOp: "roundeven", math.RoundOp: "round", math.PowFOp: "pow",
    math.CopySignOp: "copysign", math.FmaOp: "fma",
}
_MATH_LIBM = {  # as arith_math._MATH_LIBM (f32: the `f` name)
    math.TanhOp: "tanh", math.ErfOp: "erf", math.TanOp: "tan", math.AtanOp: "atan",
    math.Atan2Op: "atan2", math.SinhOp: "sinh", math.CoshOp: "cosh", math.AsinOp: "asin",
    math.AcosOp: "acos", math.AsinhOp: "asinh", math.AcoshOp: "acosh", math.AtanhOp: "atanh",
    math.ExpM1Op: "expm1", math.Log1pOp: "log1p", math.CbrtOp: "cbrt",
}
_ICMP = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_FCMP = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
         "une", "uno", "true")


def _constant(fn: Function, op: arith.ConstantOp) -> None:
    attr, t = op.value, op.result.type
    ty = ir_type(t)
    if isinstance(attr, IntegerAttr) and ty[0] == "i":
        w = 64 if isinstance(t, IndexType) else int(ty[1:])
        v = attr.value.data & ((1 << w) - 1)
        if w == 1:
            fn.names[op.result] = "true" if v else "false"
            return
        fn.names[op.result] = fn.const(v - (1 << w) if v >= 1 << (w - 1) else v)
    elif isinstance(attr, FloatAttr) and ty in _SUFFIX:
        fn.names[op.result] = float_literal(attr.value.data, ty)
        fn.constants.add(f"{ty}{fn.names[op.result]}")
    else:
        raise Unsupported(f"constant {attr}")


def _int_binary(fn: Function, op: Operation) -> None:
    a, b = (fn.get(v) for v in op.operands)
    fn.names[op.results[0]] = fn.emit(f"{_INT_BINARY[type(op)]} {ir_type(op.results[0].type)} {a}, {b}")


def _intrinsic(fn: Function, name: str, ty: str, args: Sequence[str]) -> str:
    suffix = _SUFFIX.get(ty, ty)
    r = fn.call(f"llvm.{name}.{suffix}", ty, [(ty, a) for a in args])
    assert r is not None
    return r


def _int_minmax(fn: Function, op: Operation) -> None:
    ty = ir_type(op.results[0].type)
    fn.names[op.results[0]] = _intrinsic(fn, _INT_MINMAX[type(op)], ty, [fn.get(v) for v in op.operands])


def _int_operands(fn: Function, op: Operation) -> tuple[str, str, str, int]:
    a, b = (fn.get(v) for v in op.operands)
    ty = ir_type(op.operands[0].type)
    return a, b, ty, int(ty[1:])


def _signed(v: int, w: int) -> str:
    v &= (1 << w) - 1
    return str(v - (1 << w) if w > 1 and v >= 1 << (w - 1) else v)


def _safe_divisor(fn: Function, a: str, b: str, ty: str, w: int, signed: bool) -> tuple[str, str]:
    """arith_math._safe_divisor: (b with 0 -> 1 and, signed, -1 -> 1 where a is INT_MIN; b == 0)."""
    zero = fn.emit(f"icmp eq {ty} {b}, 0")
    safe = fn.emit(f"select i1 {zero}, {ty} 1, {ty} {b}")
    if signed:
        is_min = fn.emit(f"icmp eq {ty} {a}, {_signed(1 << (w - 1), w)}")
        minus_one = fn.emit(f"icmp eq {ty} {b}, {_signed(-1, w)}")
        overflow = fn.emit(f"and i1 {is_min}, {minus_one}")
        safe = fn.emit(f"select i1 {overflow}, {ty} 1, {ty} {safe}")
    return safe, zero


def _zero_if(fn: Function, cond: str, v: str, ty: str) -> str:
    return fn.emit(f"select i1 {cond}, {ty} 0, {ty} {v}")


_DIV_REM = {arith.DivSIOp: ("sdiv", True), arith.DivUIOp: ("udiv", False), arith.RemSIOp: ("srem", True),
            arith.RemUIOp: ("urem", False)}


def _div_rem(fn: Function, op: Operation) -> None:
    """Division by zero gives 0 and INT_MIN / -1 wraps, as convert-to-llvm (arith_math) defines them."""
    a, b, ty, w = _int_operands(fn, op)
    kind, signed = _DIV_REM[type(op)]
    safe, zero = _safe_divisor(fn, a, b, ty, w, signed)
    fn.names[op.results[0]] = _zero_if(fn, zero, fn.emit(f"{kind} {ty} {a}, {safe}"), ty)


def _floordiv(fn: Function, a: str, safe: str, ty: str) -> str:
    q = fn.emit(f"sdiv {ty} {a}, {safe}")
    r = fn.emit(f"srem {ty} {a}, {safe}")
    signs_differ = fn.emit(f"icmp slt {ty} {fn.emit(f'xor {ty} {r}, {safe}')}, 0")
    adjust = fn.emit(f"and i1 {fn.emit(f'icmp ne {ty} {r}, 0')}, {signs_differ}")
    return fn.emit(f"sub {ty} {q}, {fn.emit(f'zext i1 {adjust} to {ty}')}")


def _floordivsi(fn: Function, op: Operation) -> None:
    a, b, ty, w = _int_operands(fn, op)
    safe, zero = _safe_divisor(fn, a, b, ty, w, True)
    fn.names[op.results[0]] = _zero_if(fn, zero, _floordiv(fn, a, safe, ty), ty)


def _ceildivsi(fn: Function, op: Operation) -> None:
    a, b, ty, w = _int_operands(fn, op)
    safe, zero = _safe_divisor(fn, a, b, ty, w, True)
    q = _floordiv(fn, a, safe, ty)
    inexact = fn.emit(f"icmp ne {ty} {fn.emit(f'mul {ty} {q}, {safe}')}, {a}")
    q = fn.emit(f"add {ty} {q}, {fn.emit(f'zext i1 {inexact} to {ty}')}")
    fn.names[op.results[0]] = _zero_if(fn, zero, q, ty)


def _ceildivui(fn: Function, op: Operation) -> None:
    a, b, ty, w = _int_operands(fn, op)
    safe, zero = _safe_divisor(fn, a, b, ty, w, False)
    q = fn.emit(f"udiv {ty} {a}, {safe}")
    inexact = fn.emit(f"icmp ne {ty} {fn.emit(f'urem {ty} {a}, {safe}')}, 0")
    q = fn.emit(f"add {ty} {q}, {fn.emit(f'zext i1 {inexact} to {ty}')}")
    fn.names[op.results[0]] = _zero_if(fn, zero, q, ty)


def _shift(fn: Function, op: Operation) -> None:
    """A shift by >= the width gives 0 (shl, shrui) or the sign fill (shrsi), as arith_math."""
    a, b, ty, w = _int_operands(fn, op)
    too_far = fn.emit(f"icmp uge {ty} {b}, {w}")
    if isinstance(op, arith.ShRSIOp):
        amount = fn.emit(f"select i1 {too_far}, {ty} {w - 1}, {ty} {b}")
        fn.names[op.results[0]] = fn.emit(f"ashr {ty} {a}, {amount}")
        return
    amount = fn.emit(f"select i1 {too_far}, {ty} 0, {ty} {b}")
    kind = "shl" if isinstance(op, arith.ShLIOp) else "lshr"
    fn.names[op.results[0]] = _zero_if(fn, too_far, fn.emit(f"{kind} {ty} {a}, {amount}"), ty)


def _int_intrinsic(fn: Function, op: Operation) -> None:
    """abs / ctlz / cttz (poison flags false, as arith_math) and ctpop."""
    name = {math.AbsIOp: "abs", math.CountLeadingZerosOp: "ctlz", math.CountTrailingZerosOp: "cttz",
            math.CtPopOp: "ctpop"}[type(op)]
    ty = ir_type(op.operands[0].type)
    args = [(ty, fn.get(op.operands[0]))] + ([] if name == "ctpop" else [("i1", "false")])
    fn.names[op.results[0]] = fn.call(f"llvm.{name}.{ty}", ty, args)  # pyright: ignore[reportArgumentType]


def _resize(fn: Function, v: str, have: int, want: int, signed: bool) -> str:
    if have == want:
        return v
    if have > want:
        return fn.emit(f"trunc i{have} {v} to i{want}")
    return fn.emit(f"{'sext' if signed else 'zext'} i{have} {v} to i{want}")


def _width(t: Attribute) -> int:
    return 64 if isinstance(t, IndexType) else int(ir_type(t)[1:])


def _int_resize(fn: Function, op: Operation) -> None:
    src, res = op.operands[0], op.results[0]
    signed = not isinstance(op, arith.ExtUIOp | _INDEX_CASTUI)
    fn.names[res] = _resize(fn, fn.get(src), _width(src.type), _width(res.type), signed)


def _cmpi(fn: Function, op: arith.CmpiOp) -> None:
    ty = ir_type(op.lhs.type)
    fn.names[op.result] = fn.emit(f"icmp {_ICMP[op.predicate.value.data]} {ty} {fn.get(op.lhs)}, {fn.get(op.rhs)}")


def _select(fn: Function, op: arith.SelectOp) -> None:
    c, a, b = (fn.get(v) for v in op.operands)
    if op.cond.type != IntegerType(1):
        raise Unsupported("a non-scalar select")
    ty = ir_type(op.result.type)
    fn.names[op.result] = fn.emit(f"select i1 {c}, {ty} {a}, {ty} {b}")


def _float_type(t: Attribute) -> str:
    ty = ir_type(t)
    if ty not in _SUFFIX:
        raise Unsupported(f"float type {t}")
    return ty


def _float_binary(fn: Function, op: Operation) -> None:
    ty = _float_type(op.results[0].type)
    contract = arith.FastMathFlag.ALLOW_CONTRACT in op.fastmath.data  # pyright: ignore[reportAttributeAccessIssue]
    a, b = (fn.get(v) for v in op.operands)
    flag = " contract" if contract else ""
    fn.names[op.results[0]] = fn.emit(f"{_FLOAT_BINARY[type(op)]}{flag} {ty} {a}, {b}")


def _float_minmax(fn: Function, op: Operation) -> None:
    ty = _float_type(op.results[0].type)
    fn.names[op.results[0]] = _intrinsic(fn, _FLOAT_MINMAX[type(op)], ty, [fn.get(v) for v in op.operands])


def _math_intrinsic(fn: Function, op: Operation) -> None:
    ty = _float_type(op.results[0].type)
    if ty == "half" and isinstance(op, math.FmaOp):
        raise Unsupported("f16 fma")
    fn.names[op.results[0]] = _intrinsic(fn, _MATH_INTRINSIC[type(op)], ty, [fn.get(v) for v in op.operands])


def _math_libm(fn: Function, op: Operation) -> None:
    ty = _float_type(op.results[0].type)
    if ty == "half":
        raise Unsupported("f16 libm call")
    name = _MATH_LIBM[type(op)] + ("f" if ty == "float" else "")
    fn.names[op.results[0]] = fn.call(name, ty, [(ty, fn.get(v)) for v in op.operands])  # pyright: ignore


def _rsqrt(fn: Function, op: Operation) -> None:
    ty = _float_type(op.results[0].type)
    s = _intrinsic(fn, "sqrt", ty, [fn.get(op.operands[0])])
    fn.names[op.results[0]] = fn.emit(f"fdiv {ty} {float_literal(1.0, ty)}, {s}")


def _negf(fn: Function, op: Operation) -> None:
    ty = _float_type(op.results[0].type)
    fn.names[op.results[0]] = fn.emit(f"fneg {ty} {fn.get(op.operands[0])}")


def _cmpf(fn: Function, op: arith.CmpfOp) -> None:
    pred = op.predicate.value.data
    if pred in (0, 15):
        fn.names[op.result] = "true" if pred == 15 else "false"
        return
    ty = _float_type(op.lhs.type)
    fn.names[op.result] = fn.emit(f"fcmp {_FCMP[pred]} {ty} {fn.get(op.lhs)}, {fn.get(op.rhs)}")


def _ext_trunc_f(fn: Function, op: Operation) -> None:
    src, dst = _float_type(op.operands[0].type), _float_type(op.results[0].type)
    if dst == "half" and src != "float":
        raise Unsupported("f64 -> f16")  # convert-to-llvm rounds it with integer code
    v = fn.get(op.operands[0])
    widths = {"half": 16, "float": 32, "double": 64}
    if src == dst:
        fn.names[op.results[0]] = v
    else:
        kind = "fpext" if widths[dst] > widths[src] else "fptrunc"
        fn.names[op.results[0]] = fn.emit(f"{kind} {src} {v} to {dst}")


def _int_to_float(fn: Function, op: Operation) -> None:
    dst = _float_type(op.results[0].type)
    if dst == "half":
        raise Unsupported("int -> f16")
    src = ir_type(op.operands[0].type)
    kind = "sitofp" if isinstance(op, arith.SIToFPOp) else "uitofp"
    fn.names[op.results[0]] = fn.emit(f"{kind} {src} {fn.get(op.operands[0])} to {dst}")


def _float_to_int(fn: Function, op: Operation) -> None:
    src = _float_type(op.operands[0].type)
    if src == "half":
        raise Unsupported("f16 -> int")
    kind = "fptosi" if isinstance(op, arith.FPToSIOp) else "fptoui"
    fn.names[op.results[0]] = fn.emit(f"{kind} {src} {fn.get(op.operands[0])} to {ir_type(op.results[0].type)}")


def _bitcast(fn: Function, op: Operation) -> None:
    src, dst = ir_type(op.operands[0].type), ir_type(op.results[0].type)
    v = fn.get(op.operands[0])
    fn.names[op.results[0]] = v if src == dst else fn.emit(f"bitcast {src} {v} to {dst}")



_INDEX_CASTUI = getattr(arith, "IndexCastUIOp", arith.ExtUIOp)
HANDLERS.update({
    arith.ConstantOp: _constant,
    **dict.fromkeys(_INT_BINARY, _int_binary),
    **dict.fromkeys(_INT_MINMAX, _int_minmax),
    **dict.fromkeys((arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp, _INDEX_CASTUI), _int_resize),
    arith.CmpiOp: _cmpi,
    **dict.fromkeys(_DIV_REM, _div_rem),
    arith.FloorDivSIOp: _floordivsi,
    arith.CeilDivSIOp: _ceildivsi,
    arith.CeilDivUIOp: _ceildivui,
    **dict.fromkeys((arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp), _shift),
    **dict.fromkeys((math.AbsIOp, math.CountLeadingZerosOp, math.CountTrailingZerosOp, math.CtPopOp), _int_intrinsic),
    arith.SelectOp: _select,
    **dict.fromkeys(_FLOAT_BINARY, _float_binary),
    **dict.fromkeys(_FLOAT_MINMAX, _float_minmax),
    **dict.fromkeys(_MATH_INTRINSIC, _math_intrinsic),
    **dict.fromkeys(_MATH_LIBM, _math_libm),
    math.RsqrtOp: _rsqrt,
    arith.NegfOp: _negf,
    arith.CmpfOp: _cmpf,
    **dict.fromkeys((arith.ExtFOp, arith.TruncFOp), _ext_trunc_f),
    **dict.fromkeys((arith.SIToFPOp, arith.UIToFPOp), _int_to_float),
    **dict.fromkeys((arith.FPToSIOp, arith.FPToUIOp), _float_to_int),
    arith.BitcastOp: _bitcast,
})

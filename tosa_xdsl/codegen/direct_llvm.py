"""LLVM IR text straight from the loop level: the direct road (compile time, issue 15).

`tosa-to-llvm` ends with `lower-affine`, `bound-while-loops`, `convert-scf-to-cf`,
`convert-to-llvm` and `reconcile-unrealized-casts`, which build an llvm-dialect xDSL module
that xDSL's LLVM backend then turns into llvmlite objects and prints (codegen/llvm.py). On the
example model those steps took ~1 s of the ~3 s compile, nearly all of it in constructing
xDSL and llvmlite objects that exist only to be printed. Here the module as it is after
`outline-loop-nests` (affine / scf / memref / arith / math on scalars / func, static shapes)
is printed as LLVM IR text directly, one string per instruction, and llvmlite parses that.

The instructions are the ones those passes give for the same ops, in the same order:
lower-affine's expansion of affine maps (single-iteration loops inlined), the bare-pointer
ABI, element addressing `getelementptr T, ptr p, i64 sum(i_k * s_k)` in memref.py's operand
order, malloc/free, llvm.memcpy or the same copy loop, arith's defined results for division
by zero and over-wide shifts, the same intrinsics and libm calls, `contract` as the only
fast-math flag, scf.for / scf.if as convert-scf-to-cf's blocks, the thread pool's context
slots and tasks. LLVM then makes the same object code, byte for byte
(tests/codegen/test_direct_llvm.py). Constants are written as immediates (LLVM's IR has no
constant instructions; convert-to-llvm's llvm.mlir.constant ops become the same immediates).

Anything else (bf16/fp8, which convert-to-llvm emulates with integer code, f16 conversions it
rounds with integer code, scf.while with bound-while-loops' globals, dynamic shapes, an op a
later lowering adds) raises `Unsupported`, and the whole module takes the llvm-dialect road
(`lower_and_compile`): nothing loses coverage. `tosa-opt -p tosa-to-llvm` and the
llvm-dialect output that `mlir-translate` reads are unchanged: only the JIT, tosa-run's JIT
and the shared library take this road.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, llvm, math, memref, scf
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass

# the passes of tosa-to-llvm this module replaces (the rest of the pipeline runs as usual)
REPLACED = ("lower-affine", "bound-while-loops", "convert-scf-to-cf", "convert-to-llvm",
            "reconcile-unrealized-casts")


class Unsupported(Exception):
    """An op (or type) the direct emitter does not know: lower the module the usual way."""


_DYNAMIC = -(2**63)

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
_FLOAT_NAMES = {Float16Type: "half", Float32Type: "float", Float64Type: "double"}
_SUFFIX = {"half": "f16", "float": "f32", "double": "f64"}
# bytes of LLVM's c"..." strings: printable ASCII but '"' and '\' as themselves, the rest \XX
_ESCAPE = {b: (chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:02X}") for b in range(256)}


def ir_type(t: Attribute) -> str:
    """The LLVM type of an SSA value of builtin type `t` (emitter.value_type); bf16 / fp8
    (their bits in convert-to-llvm) and wider integers: Unsupported."""
    if isinstance(t, IndexType):
        return "i64"
    if isinstance(t, IntegerType):
        if not 1 <= t.width.data <= 64:
            raise Unsupported(f"type {t}")
        return f"i{t.width.data}"
    name = _FLOAT_NAMES.get(type(t))
    if name is not None:
        return name
    if isinstance(t, MemRefType):
        return "ptr"
    raise Unsupported(f"type {t}")


def storage(t: Attribute) -> str:
    """The LLVM type of a memref element in memory (emitter.storage_type): integers in the
    smallest of i8/i16/i32/i64 that holds them."""
    if isinstance(t, IntegerType):
        w = t.width.data
        for s in (8, 16, 32, 64):
            if w <= s:
                return f"i{s}"
        raise Unsupported(f"memref element {t}")
    ty = ir_type(t)
    if ty == "ptr":
        raise Unsupported(f"memref element {t}")
    return ty


def elem_bytes(ty: str) -> int:
    return {"i8": 1, "i16": 2, "half": 2, "i32": 4, "float": 4, "i64": 8, "double": 8}[ty]


def float_literal(value: float, ty: str) -> str:
    """LLVM's hex form: a double's bits (f32: the f32 value widened exactly), `0xH` for f16."""
    if ty == "half":
        return "0xH" + struct.pack(">e", value).hex().upper()
    if ty == "float":
        value = struct.unpack("<f", struct.pack("<f", value))[0]
    return "0x" + struct.pack(">d", value).hex().upper()


def _static(t: MemRefType) -> list[int]:
    shape = [int(d) for d in t.get_shape()]
    if any(d < 0 for d in shape):
        raise Unsupported(f"dynamic shape {t}")
    return shape


def _strides(t: MemRefType) -> list[int]:
    _static(t)
    got = t.get_strides()
    if got is None or any(s is None or s < 0 for s in got):
        raise Unsupported(f"strides of {t}")
    return [int(s) for s in got]


def _offset(t: MemRefType) -> int:
    if isinstance(t.layout, StridedLayoutAttr):
        off = t.layout.get_offset()
        if off is None or off < 0:
            raise Unsupported(f"offset of {t}")
        return int(off)
    if not isinstance(t.layout, NoneAttr):
        raise Unsupported(f"layout of {t}")
    return 0


def _contiguous(t: MemRefType) -> bool:
    shape, st = _static(t), _strides(t)
    expect, ok = 1, True
    for d, s in zip(reversed(shape), reversed(st)):
        ok = ok and (d == 1 or s == expect)
        expect *= d
    return ok


@dataclass
class Module:
    """Module-wide state: declarations the functions call, the code size for settings_for."""

    defined: set[str]
    declares: dict[str, str]
    size: int = 0
    tasks: dict[str, list[str]] | None = None  # the thread pool's task functions (parallel_call)

    def declare(self, name: str, result: str, args: Sequence[str]) -> None:
        if name not in self.defined and name not in self.declares:
            self.declares[name] = f'declare {result} @"{name}"({", ".join(args)})'


class Function:
    """The text of one func.func: `names` maps SSA values to LLVM operands (`%vN`, or an
    immediate for a constant), `out` collects the lines."""

    def __init__(self, module: Module):
        self.module = module
        self.names: dict[SSAValue, str] = {}
        self.out: list[str] = []
        self.count = 0
        self.label = "entry"
        self.constants: set[str] = set()  # distinct immediates (convert-to-llvm's constant ops)
        self.entry: list[str] = []  # allocas at the top of the entry block

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def new_label(self) -> str:
        self.count += 1
        return f"b{self.count}"

    def emit(self, text: str) -> str:
        """`%vN = text`; returns %vN."""
        r = self.fresh()
        self.out.append(f"  {r} = {text}")
        return r

    def line(self, text: str) -> None:
        self.out.append(f"  {text}")

    def start(self, label: str) -> None:
        self.out.append(f"{label}:")
        self.label = label

    def get(self, v: SSAValue) -> str:
        try:
            return self.names[v]
        except KeyError:
            raise Unsupported("a value defined outside the function") from None

    def const(self, value: int) -> str:
        self.constants.add(str(value))
        return str(value)

    # ---------------------------------------------------------------- ops
    def block(self, block: Block) -> None:
        for op in block.ops:
            handler = _HANDLERS.get(type(op))
            if handler is None:
                raise Unsupported(f"'{op.name}'")
            handler(self, op)

    def call(self, name: str, result: str, args: Sequence[tuple[str, str]]) -> str | None:
        self.module.declare(name, result, [t for t, _ in args])
        text = f'call {result} @"{name}"({", ".join(f"{t} {v}" for t, v in args)})'
        if result == "void":
            self.line(text)
            return None
        return self.emit(text)

    def linear(self, indices: Sequence[str], strides: Sequence[int]) -> str:
        """sum(i_k * s_k) in memref.py's `_linear` order (s = 0 skipped, s = 1 not multiplied)."""
        total = None
        for idx, s in zip(indices, strides):
            if s == 0:
                continue
            term = idx if s == 1 else self.emit(f"mul i64 {idx}, {self.const(s)}")
            total = term if total is None else self.emit(f"add i64 {total}, {term}")
        return total if total is not None else self.const(0)

    def element(self, mem: SSAValue, indices: Sequence[SSAValue]) -> tuple[str, str]:
        return self.element_at(mem, [self.get(i) for i in indices])

    def element_at(self, mem: SSAValue, indices: Sequence[str]) -> tuple[str, str]:
        """(pointer to the element, its storage type): memref.py's `element_ptr`."""
        t = mem.type
        assert isinstance(t, MemRefType)
        ty = storage(t.get_element_type())
        lin = self.linear(indices, _strides(t))
        return self.emit(f"getelementptr {ty}, ptr {self.get(mem)}, i64 {lin}"), ty

    def body(self, block: Block) -> list[str]:
        """The ops of a loop or branch body up to its yield; the yielded operands."""
        for op in block.ops:
            if isinstance(op, scf.YieldOp | affine.YieldOp):
                return [self.get(v) for v in op.operands]
            handler = _HANDLERS.get(type(op))
            if handler is None:
                raise Unsupported(f"'{op.name}'")
            handler(self, op)
        raise Unsupported("a body without a yield")


# ------------------------------------------------------------------------ handlers

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


def _loaded(fn: Function, ptr: str, ty: str, elem: Attribute) -> str:
    """A load, narrowed to the value's width (i1 / i4 / i48 live widened in memory)."""
    v = fn.emit(f"load {ty}, ptr {ptr}")
    want = ir_type(elem)
    return _resize(fn, v, int(ty[1:]), int(want[1:]), True) if want != ty else v


def _stored(fn: Function, ptr: str, ty: str, elem: Attribute, value: str) -> None:
    """A store, widened to the storage (bool as 0/1, other narrow integers sign-extended)."""
    want = ir_type(elem)
    if want != ty:
        value = _resize(fn, value, int(want[1:]), int(ty[1:]), elem != IntegerType(1))
    fn.line(f"store {ty} {value}, ptr {ptr}")


def _load(fn: Function, op: memref.LoadOp) -> None:
    ptr, ty = fn.element(op.memref, list(op.indices))
    fn.names[op.res] = _loaded(fn, ptr, ty, op.res.type)


def _store(fn: Function, op: memref.StoreOp) -> None:
    ptr, ty = fn.element(op.memref, list(op.indices))
    _stored(fn, ptr, ty, op.value.type, fn.get(op.value))


def _byte_size(t: MemRefType) -> int:
    n = 1
    for d in _static(t):
        n *= d
    return n * elem_bytes(storage(t.get_element_type()))


def _alloc(fn: Function, op: memref.AllocOp) -> None:
    t = op.memref.type
    size = _byte_size(t)
    align = op.alignment.value.data if op.alignment is not None else 0
    if align > 16:
        size = (size + align - 1) // align * align
        r = fn.call("aligned_alloc", "ptr", [("i64", fn.const(align)), ("i64", fn.const(max(size, align)))])
    else:
        r = fn.call("malloc", "ptr", [("i64", fn.const(max(size, 1)))])
    fn.names[op.memref] = r  # pyright: ignore[reportArgumentType]


def _dealloc(fn: Function, op: memref.DeallocOp) -> None:
    fn.call("free", "void", [("ptr", fn.get(op.memref))])


def _get_global(fn: Function, op: memref.GetGlobalOp) -> None:
    _static(op.memref.type)
    fn.names[op.memref] = f'@"{op.name_.root_reference.data}"'


def _same_pointer(fn: Function, op: Operation) -> None:
    _strides(op.operands[0].type)  # pyright: ignore[reportArgumentType]
    _strides(op.results[0].type)  # pyright: ignore[reportArgumentType]
    fn.names[op.results[0]] = fn.get(op.operands[0])


def _unrealized_cast(fn: Function, op: UnrealizedConversionCastOp) -> None:
    """A signless <-> unsigned memref cast (bufferized ui8 arithmetic): the same pointer."""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or not all(
            isinstance(v.type, MemRefType) for v in (op.inputs[0], op.outputs[0])):
        raise Unsupported("an unrealized_conversion_cast that is not memref to memref")
    _same_pointer(fn, op)


def _subview(fn: Function, op: memref.SubviewOp) -> None:
    src_t = op.source.type
    st = _strides(src_t)
    _strides(op.result.type)
    dynamic = iter(op.offsets)
    offsets = [fn.get(next(dynamic)) if o == _DYNAMIC else fn.const(int(o)) for o in op.static_offsets.get_values()]
    lin = fn.linear(offsets, st)
    ty = storage(src_t.get_element_type())
    fn.names[op.result] = fn.emit(f"getelementptr {ty}, ptr {fn.get(op.source)}, i64 {lin}")


def _reinterpret_cast(fn: Function, op: memref.ReinterpretCastOp) -> None:
    src_t, res_t = op.source.type, op.result.type
    _strides(res_t)
    delta = _offset(res_t) - _offset(src_t)
    ptr = fn.get(op.source)
    ty = storage(src_t.get_element_type())
    fn.names[op.result] = ptr if delta == 0 else fn.emit(f"getelementptr {ty}, ptr {ptr}, i64 {fn.const(delta)}")


def _copy(fn: Function, op: memref.CopyOp) -> None:
    src_t, dst_t = op.source.type, op.destination.type
    src, dst = fn.get(op.source), fn.get(op.destination)
    ty = storage(src_t.get_element_type())
    if _contiguous(src_t) and _contiguous(dst_t):
        n = _byte_size(src_t)
        if n:
            fn.call("llvm.memcpy.p0.p0.i64", "void", [("ptr", dst), ("ptr", src), ("i64", fn.const(n)),
                                                       ("i1", "false")])
        return
    shape = _static(src_t)
    total = 1
    for d in shape:
        total *= d
    if total == 0:
        return
    s_st, d_st = _strides(src_t), _strides(dst_t)
    # memref.py's copy loop: one counter, the multi-index recovered by urem/udiv
    header, body, done = fn.new_label(), fn.new_label(), fn.new_label()
    before = fn.label
    fn.line(f"br label %{header}")
    fn.start(header)
    i = fn.fresh()
    phi_at = len(fn.out)
    fn.out.append("")  # the phi, once the latch is known
    cond = fn.emit(f"icmp slt i64 {i}, {fn.const(total)}")
    fn.line(f"br i1 {cond}, label %{body}, label %{done}")
    fn.start(body)
    rem, src_off, dst_off = i, fn.const(0), fn.const(0)
    for k in range(len(shape) - 1, -1, -1):
        if k > 0:
            idx = fn.emit(f"urem i64 {rem}, {fn.const(shape[k])}")
            rem = fn.emit(f"udiv i64 {rem}, {fn.const(shape[k])}")
        else:
            idx = rem
        src_off = fn.emit(f"add i64 {src_off}, {fn.emit(f'mul i64 {idx}, {fn.const(s_st[k])}')}")
        dst_off = fn.emit(f"add i64 {dst_off}, {fn.emit(f'mul i64 {idx}, {fn.const(d_st[k])}')}")
    v = fn.emit(f"load {ty}, ptr {fn.emit(f'getelementptr {ty}, ptr {src}, i64 {src_off}')}")
    fn.line(f"store {ty} {v}, ptr {fn.emit(f'getelementptr {ty}, ptr {dst}, i64 {dst_off}')}")
    nxt = fn.emit(f"add i64 {i}, 1")
    fn.line(f"br label %{header}")
    fn.out[phi_at] = f"  {i} = phi i64 [0, %{before}], [{nxt}, %{body}]"
    fn.start(done)


def _loop(fn: Function, ity: str, lb: str, ub: str, step: str, inits: list[str], body: Block,
          results: Sequence[SSAValue]) -> None:
    """convert-scf-to-cf's shape of an scf.for: br header; header: phis, icmp slt, br body /
    exit; body ... iv + step, br header. The loop's results are the header's phis."""
    header, body_label, done = fn.new_label(), fn.new_label(), fn.new_label()
    before = fn.label
    fn.line(f"br label %{header}")
    fn.start(header)
    iv = fn.fresh()
    carried = [fn.fresh() for _ in inits]
    types = [ir_type(a.type) for a in body.args[1:]]
    phi_at = len(fn.out)
    fn.out.extend("" for _ in range(1 + len(inits)))
    cond = fn.emit(f"icmp slt {ity} {iv}, {ub}")
    fn.line(f"br i1 {cond}, label %{body_label}, label %{done}")
    fn.start(body_label)
    fn.names[body.args[0]] = iv
    for a, c in zip(body.args[1:], carried):
        fn.names[a] = c
    yielded = fn.body(body)
    nxt = fn.emit(f"add {ity} {iv}, {step}")
    latch = fn.label
    fn.line(f"br label %{header}")
    fn.out[phi_at] = f"  {iv} = phi {ity} [{lb}, %{before}], [{nxt}, %{latch}]"
    for k, (c, t, init, y) in enumerate(zip(carried, types, inits, yielded)):
        fn.out[phi_at + 1 + k] = f"  {c} = phi {t} [{init}, %{before}], [{y}, %{latch}]"
    for r, c in zip(results, carried):
        fn.names[r] = c
    fn.start(done)


def _for(fn: Function, op: scf.ForOp) -> None:
    _loop(fn, ir_type(op.lb.type), fn.get(op.lb), fn.get(op.ub), fn.get(op.step), [fn.get(v) for v in op.iter_args],
          op.body.block, op.results)


# ------------------------------------------------------------------------ affine (lower-affine's expansion)

def _affine_expr(fn: Function, e: AffineExpr, dims: Sequence[str], symbols: Sequence[str]) -> str:
    """lower-affine's `_Expander.expr`, then convert-to-llvm's arith: the same instructions in
    the same order (mod / floordiv / ceildiv: Unsupported, the llvm-dialect road has them)."""
    if isinstance(e, AffineConstantExpr):
        return fn.const(e.value)
    if isinstance(e, AffineDimExpr):
        return dims[e.position]
    if isinstance(e, AffineSymExpr):
        return symbols[e.position]
    assert isinstance(e, AffineBinaryOpExpr)
    a, b = _affine_expr(fn, e.lhs, dims, symbols), _affine_expr(fn, e.rhs, dims, symbols)
    if e.kind == AffineBinaryOpKind.Add:
        return fn.emit(f"add i64 {a}, {b}")
    if e.kind == AffineBinaryOpKind.Mul:
        return fn.emit(f"mul i64 {a}, {b}")
    raise Unsupported(f"affine expression {e}")


def _affine_map(fn: Function, m: AffineMap, operands: Sequence[SSAValue]) -> list[str]:
    names = [fn.get(v) for v in operands]
    dims, symbols = names[:m.num_dims], names[m.num_dims:]
    return [_affine_expr(fn, r, dims, symbols) for r in m.results]


def _reduce(fn: Function, values: list[str], pred: str) -> str:
    acc = values[0]
    for v in values[1:]:
        better = fn.emit(f"icmp {pred} i64 {v}, {acc}")
        acc = fn.emit(f"select i1 {better}, i64 {v}, i64 {acc}")
    return acc


def _constant_bound(m: AffineMap) -> int | None:
    if m.num_dims == 0 and m.num_symbols == 0 and len(m.results) == 1 \
            and isinstance(m.results[0], AffineConstantExpr):
        return m.results[0].value
    return None


def _affine_for(fn: Function, op: affine.ForOp) -> None:
    lb_map, ub_map = op.lowerBoundMap.data, op.upperBoundMap.data
    if not lb_map.results or not ub_map.results:
        raise Unsupported("a bound map without results")
    step = op.step.value.data
    body = op.body.block
    inits = [fn.get(v) for v in op.inits]
    lo, hi = _constant_bound(lb_map), _constant_bound(ub_map)
    if lo is not None and hi is not None and lo < hi <= lo + step:
        # one iteration: the body once (lower-affine's promoteIfSingleIteration)
        fn.names[body.args[0]] = fn.const(lo)
        for a, v in zip(body.args[1:], inits):
            fn.names[a] = v
        for r, v in zip(op.results, fn.body(body)):
            fn.names[r] = v
        return
    lb = _reduce(fn, _affine_map(fn, lb_map, op.lowerBoundOperands), "sgt")
    ub = _reduce(fn, _affine_map(fn, ub_map, op.upperBoundOperands), "slt")
    _loop(fn, "i64", lb, ub, fn.const(step), inits, body, op.results)


def _affine_load(fn: Function, op: affine.LoadOp) -> None:
    indices = _affine_map(fn, op.map.data, op.indices)
    ptr, ty = fn.element_at(op.memref, indices)
    fn.names[op.result] = _loaded(fn, ptr, ty, op.result.type)


def _affine_store(fn: Function, op: affine.StoreOp) -> None:
    indices = _affine_map(fn, op.map.data, op.indices)
    ptr, ty = fn.element_at(op.memref, indices)
    _stored(fn, ptr, ty, op.value.type, fn.get(op.value))


def _affine_apply(fn: Function, op: affine.ApplyOp) -> None:
    (fn.names[op.result],) = _affine_map(fn, op.map.data, op.mapOperands)


def _affine_min(fn: Function, op: affine.MinOp) -> None:
    fn.names[op.result] = _reduce(fn, _affine_map(fn, op.map.data, op.operands), "slt")


def _if(fn: Function, op: scf.IfOp) -> None:
    then_label, else_label, done = fn.new_label(), fn.new_label(), fn.new_label()
    fn.line(f"br i1 {fn.get(op.cond)}, label %{then_label}, label %{else_label}")
    incoming = []
    for label, region in ((then_label, op.true_region), (else_label, op.false_region)):
        fn.start(label)
        yielded: list[str] = []
        if region.blocks:
            if len(region.blocks) != 1:
                raise Unsupported("an scf.if region of several blocks")
            yielded = fn.body(region.block)
        incoming.append((yielded, fn.label))
        fn.line(f"br label %{done}")
    fn.start(done)
    for k, r in enumerate(op.results):
        t = ir_type(r.type)
        (a, la), (b, lb) = incoming
        fn.names[r] = fn.emit(f"phi {t} [{a[k]}, %{la}], [{b[k]}, %{lb}]")


def _slot_size(ty: str) -> int:
    """parallel_call._size: bytes of a context slot's value."""
    if ty == "ptr":
        return 8
    if ty[0] == "i":
        return next((b for b in (1, 2, 4, 8) if 8 * b >= int(ty[1:])), 16)
    return {"half": 2, "float": 4, "double": 8}[ty]


def _parallel_call(fn: Function, op: func.CallOp) -> None:
    """to_llvm/parallel_call.py: the captures stored into an entry-block alloca of 8-byte
    slots, `tosa_xdsl_parallel_for(@task, ctx, lo, hi, threads)`, and the task function that
    loads them and calls the outlined loop."""
    from tosa_xdsl.lowering.to_llvm.parallel_call import POOL_SYMBOL, THREADS_ATTR

    threads = op.attributes[THREADS_ATTR]
    if not isinstance(threads, IntegerAttr) or len(op.arguments) < 2 or op.results:
        raise Unsupported("a malformed thread-pool call")
    captures = op.arguments[2:]
    for a in captures:
        if isinstance(a.type, MemRefType):
            _static(a.type)
    types = [ir_type(a.type) for a in captures]
    if any(_slot_size(t) > 8 for t in types):
        raise Unsupported("a capture wider than 64 bits")
    ctx = fn.fresh()
    fn.entry.insert(0, f"  {ctx} = alloca ptr, i64 {max(1, len(captures))}, align 16")
    for i, (a, t) in enumerate(zip(captures, types)):
        slot = fn.emit(f"getelementptr {t}, ptr {ctx}, i32 {8 * i // _slot_size(t)}")
        fn.line(f"store {t} {fn.get(a)}, ptr {slot}")
    callee = op.callee.root_reference.data
    task = f"{callee}__task"
    tasks = fn.module.tasks
    assert tasks is not None
    if task not in tasks:
        lines = [f'define internal void @"{task}"(i64 %lo, i64 %hi, ptr %ctx)', "{", "entry:"]
        loaded = []
        for i, t in enumerate(types):
            lines.append(f"  %s{i} = getelementptr {t}, ptr %ctx, i32 {8 * i // _slot_size(t)}")
            lines.append(f"  %l{i} = load {t}, ptr %s{i}")
            loaded.append(f"{t} %l{i}")
        lines += [f'  call void @"{callee}"({", ".join(["i64 %lo", "i64 %hi", *loaded])})', "  ret void", "}"]
        tasks[task] = lines
        fn.module.size += 2 * len(types) + 2
    lo, hi = (fn.get(a) for a in op.arguments[:2])
    fn.call(POOL_SYMBOL, "void", [("ptr", f'@"{task}"'), ("ptr", ctx), ("i64", lo), ("i64", hi),
                                  ("i64", fn.const(threads.value.data))])


def _call(fn: Function, op: func.CallOp) -> None:
    from tosa_xdsl.lowering.to_llvm.parallel_call import THREADS_ATTR

    if THREADS_ATTR in op.attributes:
        _parallel_call(fn, op)
        return
    if op.attributes:
        raise Unsupported("a call with attributes")
    if len(op.results) > 1:
        raise Unsupported("a call with several results")
    for v in (*op.arguments, *op.results):
        if isinstance(v.type, MemRefType):
            _static(v.type)
    result = ir_type(op.results[0].type) if op.results else "void"
    args = ", ".join(f"{ir_type(a.type)} {fn.get(a)}" for a in op.arguments)
    text = f'call {result} @"{op.callee.root_reference.data}"({args})'
    if op.results:
        fn.names[op.results[0]] = fn.emit(text)
    else:
        fn.line(text)


def _return(fn: Function, op: func.ReturnOp) -> None:
    if len(op.arguments) > 1:
        raise Unsupported("several returned values")
    if op.arguments:
        v = op.arguments[0]
        fn.line(f"ret {ir_type(v.type)} {fn.get(v)}")
    else:
        fn.line("ret void")


_INDEX_CASTUI = getattr(arith, "IndexCastUIOp", arith.ExtUIOp)
_HANDLERS = {
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
    memref.LoadOp: _load,
    memref.StoreOp: _store,
    memref.AllocOp: _alloc,
    memref.DeallocOp: _dealloc,
    memref.GetGlobalOp: _get_global,
    **dict.fromkeys((memref.CollapseShapeOp, memref.ExpandShapeOp, memref.CastOp), _same_pointer),
    memref.SubviewOp: _subview,
    UnrealizedConversionCastOp: _unrealized_cast,
    memref.ReinterpretCastOp: _reinterpret_cast,
    memref.CopyOp: _copy,
    scf.ForOp: _for,
    affine.ForOp: _affine_for,
    affine.LoadOp: _affine_load,
    affine.StoreOp: _affine_store,
    affine.ApplyOp: _affine_apply,
    affine.MinOp: _affine_min,
    scf.IfOp: _if,
    func.CallOp: _call,
    func.ReturnOp: _return,
}


# ------------------------------------------------------------------------ module level

def _global(op: memref.GlobalOp) -> str:
    """A constant buffer as one byte string, aligned as codegen's `convert_global` does
    (at least its element's alignment and 16 bytes)."""
    from tosa_xdsl.lowering.to_llvm.memref import global_initializer

    t = op.type
    assert isinstance(t, MemRefType)
    ty = storage(t.get_element_type())
    _static(t)
    _, init = global_initializer(op)
    assert init is not None
    raw = bytes(init.data.data)
    private = op.sym_visibility is not None and op.sym_visibility.data == "private"
    kind = "constant" if op.constant is not None else "global"
    asked = op.alignment.value.data if op.alignment is not None else 1
    align = max(asked, elem_bytes(ty), 16)
    body = raw.decode("latin-1").translate(_ESCAPE)
    return (f'@"{op.sym_name.data}" = {"private " if private else ""}{kind} [{len(raw)} x i8] c"{body}", '
            f"align {align}")


def _signature(op: func.FuncOp, noalias_all: bool) -> tuple[str, list[str]]:
    inputs = list(op.function_type.inputs.data)
    outputs = list(op.function_type.outputs.data)
    if len(outputs) > 1:
        raise Unsupported("several results")
    for t in (*inputs, *outputs):
        if isinstance(t, MemRefType):
            _static(t)
    marks = [("llvm.noalias" in d.data) for d in op.arg_attrs.data] if op.arg_attrs is not None \
        else [False] * len(inputs)
    params = []
    for t, mark in zip(inputs, marks):
        ty = ir_type(t)
        params.append(f"{ty}{' noalias' if ty == 'ptr' and (mark or noalias_all) else ''}")
    return (ir_type(outputs[0]) if outputs else "void"), params


def _function(op: func.FuncOp, module: Module, noalias_all: bool) -> list[str]:
    result, params = _signature(op, noalias_all)
    name = op.sym_name.data
    if not op.body.blocks:
        return [f'declare {result} @"{name}"({", ".join(params)})']
    if set(op.attributes) - {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs", "no_inline",
                             "tf.entry_function", "tosa_xdsl.out_params", "llvm.linkage"}:
        raise Unsupported(f"attributes of @{name}")
    if len(op.body.blocks) != 1:
        raise Unsupported("a function of several blocks")
    fn = Function(module)
    block = op.body.block
    args = []
    for k, (a, p) in enumerate(zip(block.args, params)):
        fn.names[a] = f"%a{k}"
        args.append(f"{p} %a{k}")
    fn.block(block)
    private = op.sym_visibility is not None and op.sym_visibility.data == "private"
    linkage = "internal " if private else ""
    asked = op.attributes.get("llvm.linkage")  # control._with_attributes: it wins
    if asked is not None:
        if not isinstance(asked, llvm.LinkageAttr) or asked.linkage.data not in ("internal", "private", "external"):
            raise Unsupported(f"linkage {asked}")
        linkage = "" if asked.linkage.data == "external" else f"{asked.linkage.data} "
    attrs = " noinline" if "no_inline" in op.attributes else ""
    module.size += sum(1 for line in fn.out if line.startswith("  ")) + len(fn.entry) + len(fn.constants)
    return [f'define {linkage}{result} @"{name}"({", ".join(args)}){attrs}', "{", "entry:", *fn.entry, *fn.out,
            "}"]


def module_text(module: ModuleOp, *, triple: str, data_layout: str, noalias: str | None = None) -> tuple[str, int]:
    """(LLVM IR text, code size for codegen.llvm.settings_for) of a loop-level module (see the
    module docstring); `noalias`: the function whose pointer arguments are all `noalias`
    (NativeModule allocates the entry's outputs). Raises Unsupported for anything else."""
    defined = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks}
    state = Module(defined, {}, tasks={})
    parts: list[str] = []
    functions: list[str] = []
    for op in module.ops:
        if isinstance(op, memref.GlobalOp):
            parts.append(_global(op))
        elif isinstance(op, func.FuncOp):
            if op.body.blocks:
                functions += _function(op, state, op.sym_name.data == noalias)
            elif op.sym_name.data not in state.declares:
                state.declares[op.sym_name.data] = _function(op, state, False)[0]
        else:
            raise Unsupported(f"'{op.name}' at module level")
    head = [f'target triple = "{triple}"', f'target datalayout = "{data_layout}"']
    tasks = [line for lines in (state.tasks or {}).values() for line in lines]
    return "\n".join([*head, *parts, *state.declares.values(), *functions, *tasks, ""]), state.size


# ------------------------------------------------------------------------ the compile road

SWITCH = "TOSA_XDSL_DIRECT_LLVM"  # "0": always the llvm-dialect road (A/B measurements, bisecting)


def enabled() -> bool:
    import os

    return os.environ.get(SWITCH, "1") != "0"


def split_pipeline(pipeline: str) -> tuple[list[str], list[str]] | None:
    """(the passes before the replaced tail, the tail) when `pipeline` is one plain
    `tosa-to-llvm{...}` (any options), else None (the caller runs the pipeline as it is)."""
    from xdsl.passes import PassPipeline

    from tosa_xdsl.lowering.pipelines import TosaToLLVMPipelinePass
    from tosa_xdsl.pass_registry import all_passes

    passes = PassPipeline.parse_spec(all_passes(), pipeline).passes
    if len(passes) != 1 or not isinstance(passes[0], TosaToLLVMPipelinePass):
        return None
    stages = passes[0].stages()
    if list(stages[-len(REPLACED):]) != list(REPLACED):
        return None
    return stages[:-len(REPLACED)], stages[-len(REPLACED):]


@dataclass(frozen=True)
class LoweringStages(ModulePass):
    """Some of tosa-to-llvm's stages (split_pipeline's parts) as one pass, as the pipeline pass
    runs them: one progress line, one verification by a pass driver, no TOSA op left."""

    name: ClassVar[str] = "tosa-to-llvm"

    stages: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from tosa_xdsl.lowering.pipelines import no_tosa_left, run_passes

        run_passes(ctx, op, list(self.stages))
        no_tosa_left(op, self.name)


def lower(module: ModuleOp, names: list[str]) -> None:
    """Run `names` (tosa-to-llvm's stages) on `module` in place, as the pipeline pass does."""
    from tosa_xdsl.context import make_context

    LoweringStages(tuple(names)).apply(make_context(), module)


def entry_type(module: ModuleOp, entry: str):
    """The llvm function type of `entry` (convert-to-llvm's, for the caller's signature)."""
    from xdsl.traits import SymbolTable

    from tosa_xdsl.lowering.to_llvm.control import function_type

    fn = SymbolTable.lookup_symbol(module, entry)
    if not isinstance(fn, func.FuncOp):
        raise Unsupported(f"no func.func @{entry}")
    from tosa_xdsl.diagnostics import LocatedError

    ft = fn.function_type
    try:
        return function_type(fn, list(ft.inputs.data), list(ft.outputs.data))
    except LocatedError as err:  # the llvm-dialect road says it again, located
        raise Unsupported(str(err)) from None


def compile_loop_level(module: ModuleOp, entry: str | None, opt_level: int) -> bytes:
    """Object code of a loop-level module (the passes before REPLACED have run); `entry`: the
    function whose pointer arguments are `noalias` (None: only those marked). Unsupported
    when the module holds anything module_text does not know (nothing is changed then)."""
    from tosa_xdsl import progress
    from tosa_xdsl.codegen.llvm import compile_text, target_machine
    from tosa_xdsl.lowering.pipelines import gc_paused

    tm = target_machine(opt_level)
    progress.stage("LLVM", "building LLVM IR", force=True)
    with gc_paused():
        try:
            text, size = module_text(module, triple=tm.triple, data_layout=str(tm.target_data), noalias=entry)
        except Unsupported:
            raise
        except Exception as err:  # noqa: BLE001 -- IR shaped as the emitter did not expect: the other road
            raise Unsupported(f"{type(err).__name__}: {err}") from err
    return compile_text(text, size, opt_level, tm)


def lower_and_compile(module: ModuleOp, pipeline: str, entry: str | None, opt_level: int):
    """Lower `module` in place with `pipeline` and compile it on the direct road: (the object
    code, the llvm function type of `entry`, whose pointer arguments are `noalias`; None
    without an entry); or None when it cannot (switched off, another pipeline, an op it does
    not know), and then `module` has been lowered to the end (the llvm dialect) for the
    llvm-dialect road."""
    split = split_pipeline(pipeline) if enabled() else None
    if split is None:
        from xdsl.passes import PassPipeline

        from tosa_xdsl.context import make_context
        from tosa_xdsl.pass_registry import all_passes

        PassPipeline.parse_spec(all_passes(), pipeline).apply(make_context(), module)
        return None
    head, tail = split
    lower(module, head)
    done = try_compile(module, entry, opt_level)
    if done is None:
        lower(module, tail)  # the rest of tosa-to-llvm
    return done


def try_compile(module: ModuleOp, entry: str | None, opt_level: int):
    """(object code, llvm type of `entry` or None) of a module lowered up to the direct road
    (split_pipeline's head), or None, the module unchanged, when the road cannot take it."""
    try:
        function_type = entry_type(module, entry) if entry is not None else None
        return compile_loop_level(module, entry, opt_level), function_type
    except Unsupported:
        return None

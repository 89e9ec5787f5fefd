"""The building blocks of convert-to-llvm: type mapping, the per-function emitter (value
map, current block, constants, intrinsic calls), and the bf16/fp8 emulation.

Types (the ABI, see lowering/to_llvm.py):

| builtin type | SSA value in llvm | in memory (memref element) |
|---|---|---|
| iN, index | iN, i64 | the smallest of i8/i16/i32/i64 that holds N bits: i1 zero-extended (numpy bool), i4/i48 sign-extended (numpy int8/int64) |
| f16, f32, f64 | the same | the same |
| bf16 | i16 (its bits) | i16 |
| f8E4M3FN, f8E5M2 | i8 (its bits) | i8 |
| memref<...> | !llvm.ptr to element [0, ..., 0] of the view | |

bf16 and fp8 are not mapped by xDSL's backend, so they live as their bit patterns and every
float operation on them decodes to f32 (exact), computes in f32, and encodes back with one
round-to-nearest-even (`encode`). For + - * / and sqrt this equals the correctly rounded
result in the small type (f32 has more than 2p+2 significand bits for p <= 8, so the double
rounding is innocuous); it is also exactly what arith's interpreter does. Conversions from
integers go through f64 (exact up to 2^53) so that only one rounding happens.

`encode` follows arith.truncf / APFloat as numpy's ml_dtypes implements it: RNE, subnormals
kept, NaN -> the canonical quiet NaN with the input's sign (bf16 0x7FC0, E5M2 0x7E, E4M3FN
0x7F), overflow -> +-inf (bf16, E5M2) or NaN (E4M3FN, which has no infinity).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tosa_xdsl.dialects.llvm_ext import FPToUIOp
from tosa_xdsl.ir.access import is_float  # noqa: F401 -- shared by the handler modules
from tosa_xdsl.lowering.preconditions import cannot_lower

PASS = "convert-to-llvm"
PTR = llvm.LLVMPointerType()

SMALL_FLOATS = (BFloat16Type, Float8E4M3FNType, Float8E5M2Type)
NATIVE_FLOATS = (Float16Type, Float32Type, Float64Type)


fail = partial(cannot_lower, PASS)  # fail(op, reason) -> LocatedError "<PASS>: cannot lower '<op>': <reason>"


# op class -> its conversion, filled by arith_math.py, memref.py and control.py through `handles`
Handler = Callable[["Emitter", Operation], None]
HANDLERS: dict[type[Operation], Handler] = {}


def handles(*types: type[Operation]):
    def register(fn: Handler) -> Handler:
        for t in types:
            HANDLERS[t] = fn
        return fn

    return register


def is_small_float(t: Attribute) -> bool:
    return isinstance(t, SMALL_FLOATS)



def int_width(t: Attribute) -> int:
    if isinstance(t, IndexType):
        return 64
    assert isinstance(t, IntegerType)
    return t.width.data


def value_type(t: Attribute, op: Operation) -> Attribute:
    """The llvm type of an SSA value of builtin type `t`."""
    if isinstance(t, IntegerType):
        return IntegerType(t.width.data)  # signless
    if isinstance(t, IndexType):
        return i64
    if isinstance(t, NATIVE_FLOATS):
        return t
    if isinstance(t, BFloat16Type):
        return i16
    if isinstance(t, (Float8E4M3FNType, Float8E5M2Type)):
        return i8
    if isinstance(t, MemRefType):
        return PTR
    if isinstance(t, llvm.LLVMPointerType):
        return t
    raise fail(op, f"type {t} is not supported")


def storage_type(t: Attribute, op: Operation) -> Attribute:
    """The llvm type of a memref element of type `t` in memory."""
    if isinstance(t, (IntegerType, IndexType)):
        w = int_width(t)
        for s in (8, 16, 32, 64):
            if w <= s:
                return IntegerType(s)
        raise fail(op, f"integers wider than 64 bits ({t}) are not supported")
    return value_type(t, op)


def signed_int(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if w > 1 and v >= 1 << (w - 1) else v


# ------------------------------------------------------------------------ small floats


@dataclass(frozen=True)
class SmallFloat:
    """An IEEE-like format with E exponent and M mantissa bits, stored in `bits` bits."""

    bits: int
    mant: int
    bias: int
    max_code: int  # largest finite magnitude code
    overflow_code: int  # magnitude code for values rounding beyond max_code
    nan_code: int  # canonical quiet NaN magnitude code

    @property
    def emin(self) -> int:
        return 1 - self.bias


SMALL_FORMATS = {
    BFloat16Type: SmallFloat(16, 7, 127, 0x7F7F, 0x7F80, 0x7FC0),
    Float8E5M2Type: SmallFloat(8, 2, 15, 0x7B, 0x7C, 0x7E),
    Float8E4M3FNType: SmallFloat(8, 3, 7, 0x7E, 0x7F, 0x7F),
    # f64 -> f16 by the same integer rounding: LLVM's fptrunc double->half is a libcall
    # (__truncdfhf2) that MCJIT cannot resolve, and going through f32 would round twice
    Float16Type: SmallFloat(16, 10, 15, 0x7BFF, 0x7C00, 0x7E00),
}

# source formats of `encode`: (bits, mantissa bits, bias, float type)
_SRC = {32: (32, 23, 127, f32), 64: (64, 52, 1023, f64)}


class ModuleState:
    """What the whole module gets: external declarations, globals, unique names."""

    def __init__(self) -> None:
        self.decls: dict[str, llvm.FuncOp] = {}
        self.top: list[Operation] = []  # new module-level ops (declarations, globals)

    def declare(self, name: str, inputs: Sequence[Attribute], output: Attribute) -> None:
        if name not in self.decls:
            fn = llvm.FuncOp(name, llvm.LLVMFunctionType(list(inputs), output), linkage=llvm.LinkageAttr("external"))
            self.decls[name] = fn
            self.top.append(fn)


class Emitter:
    """Emits llvm ops for one function: `values` maps source SSA values to llvm ones, ops go
    to the end of `block` (which changes when a conversion opens new blocks, e.g. a loop)."""

    def __init__(self, module: ModuleState, region: Region):
        self.module = module
        self.region = region
        self.values: dict[SSAValue, SSAValue] = {}
        # the run-time extents (i64) of each memref value whose type has dynamic dims, one per
        # dim (static ones as constants): memref.py's dynamic-shape calling convention
        self.extents: dict[SSAValue, list[SSAValue]] = {}
        self.block: Block = region.blocks[0] if region.blocks else Block()
        self.op: Operation | None = None  # the source op being converted (for diagnostics)
        self.consts: dict[tuple[int, int], SSAValue] = {}

    # ------------------------------------------------------------------ basics
    def get(self, v: SSAValue) -> SSAValue:
        return self.values[v]

    def set(self, v: SSAValue, new: SSAValue) -> None:
        self.values[v] = new

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0] if op.results else None  # pyright: ignore[reportReturnType]

    def new_block(self, arg_types: Sequence[Attribute] = ()) -> Block:
        block = Block(arg_types=arg_types)
        self.region.insert_block_after(block, self.block)
        return block

    def int_const(self, value: int, t: Attribute) -> SSAValue:
        """One llvm.mlir.constant per (value, width) and function, at the top of the entry
        block (it dominates every use): the loop IR asks for the same strides and bounds
        thousands of times, and each xDSL op costs construction time here and again in the
        LLVM backend (the LLVM IR is the same: constants are immediates there)."""
        w = int_width(t)
        v = signed_int(value, w)
        key = (v, w)
        found = self.consts.get(key)
        if found is not None:
            return found
        t = IntegerType(w)
        op = llvm.ConstantOp(IntegerAttr(v, t), t)
        entry = self.region.blocks[0] if self.region.blocks else self.block
        if entry.first_op is None:
            entry.add_op(op)
        else:
            entry.insert_op_before(op, entry.first_op)
        self.consts[key] = op.results[0]
        return op.results[0]

    def float_const(self, value: float, t: Attribute) -> SSAValue:
        return self.add(llvm.ConstantOp(FloatAttr(value, t), t))

    def intrinsic(self, name: str, args: Sequence[SSAValue], result: Attribute | None) -> SSAValue:
        return self.add(llvm.CallIntrinsicOp(name, list(args), [result] if result is not None else []))

    def call(self, name: str, args: Sequence[SSAValue], result: Attribute | None) -> SSAValue:
        self.module.declare(name, [a.type for a in args], result if result is not None else llvm.LLVMVoidType())
        return self.add(llvm.CallOp(name, *args, return_type=result))

    # integer helpers on llvm values
    def binop(self, cls: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(cls(a, b))  # pyright: ignore[reportCallIssue]

    def icmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        n = [f.value for f in llvm.ICmpPredicateFlag].index(pred)
        return self.add(llvm.ICmpOp(a, b, IntegerAttr(n, 64)))

    def fcmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(llvm.FCmpOp(a, b, pred))

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(llvm.SelectOp(c, a, b))

    def bitcast(self, v: SSAValue, t: Attribute) -> SSAValue:
        return self.add(llvm.BitcastOp(v, t))

    def resize_int(self, v: SSAValue, w: int, signed: bool) -> SSAValue:
        have = int_width(v.type)
        if have == w:
            return v
        if have > w:
            return self.add(llvm.TruncOp(v, IntegerType(w)))
        return self.add(llvm.SExtOp(v, IntegerType(w)) if signed else llvm.ZExtOp(v, IntegerType(w)))

    # ------------------------------------------------------------------ floats
    def to_compute(self, v: SSAValue, t: Attribute) -> SSAValue:
        """A float value of builtin type t as an llvm float: small floats decoded to f32."""
        return self.decode(v, t) if is_small_float(t) else v

    def from_compute(self, v: SSAValue, t: Attribute) -> SSAValue:
        """The inverse of to_compute: f32 (or f64) results rounded into a small float t."""
        if not is_small_float(t):
            return v
        return self.encode(v, t)

    def decode(self, v: SSAValue, t: Attribute) -> SSAValue:
        """bf16/fp8 bits -> f32, exactly."""
        if isinstance(t, BFloat16Type):  # the upper half of an f32
            w = self.add(llvm.ZExtOp(v, i32))
            return self.bitcast(self.add(llvm.ShlOp(w, self.int_const(16, i32))), f32)
        if isinstance(t, Float8E5M2Type):  # the upper half of an f16
            w = self.add(llvm.ZExtOp(v, i16))
            h = self.bitcast(self.add(llvm.ShlOp(w, self.int_const(8, i16))), f16)
            return self.add(llvm.FPExtOp(h, f32))
        assert isinstance(t, Float8E4M3FNType)
        # value = (-1)^s * m_full * 2^(e_eff - bias - M), computed exactly in f32:
        # m_full = mant (+8 if normal), e_eff = max(exp, 1); S.1111.111 is NaN (no infinity)
        x = self.add(llvm.ZExtOp(v, i32))
        mant = self.add(llvm.AndOp(x, self.int_const(7, i32)))
        exp = self.add(llvm.AndOp(self.add(llvm.LShrOp(x, self.int_const(3, i32))), self.int_const(15, i32)))
        zero_exp = self.icmp("eq", exp, self.int_const(0, i32))
        m_full = self.select(zero_exp, mant, self.add(llvm.OrOp(mant, self.int_const(8, i32))))
        e_eff = self.select(zero_exp, self.int_const(1, i32), exp)
        # 2^(e_eff - 10) as f32 bits: (e_eff - 10 + 127) << 23
        scale_bits = self.add(llvm.ShlOp(self.add(llvm.AddOp(e_eff, self.int_const(117, i32))), self.int_const(23, i32)))
        mag = self.add(llvm.FMulOp(self.add(llvm.SIToFPOp(m_full, f32)), self.bitcast(scale_bits, f32)))
        is_nan = self.icmp("eq", self.add(llvm.AndOp(x, self.int_const(0x7F, i32))), self.int_const(0x7F, i32))
        mag = self.select(is_nan, self.float_const(float("nan"), f32), mag)
        neg = self.icmp("ne", self.add(llvm.AndOp(x, self.int_const(0x80, i32))), self.int_const(0, i32))
        return self.select(neg, self.add(llvm.FNegOp(mag)), mag)

    def encode(self, v: SSAValue, t: Attribute) -> SSAValue:
        """An f32/f64 value -> bf16/fp8 bits with one round-to-nearest-even (see the
        module docstring for NaN and overflow)."""
        fmt = SMALL_FORMATS[type(t)]
        src_t = v.type
        if isinstance(t, Float16Type) and isinstance(src_t, Float32Type):
            return self.add(llvm.FPTruncOp(v, t))  # native (one rounding)
        if isinstance(src_t, Float16Type):  # exact widening first
            v, src_t = self.add(llvm.FPExtOp(v, f32)), f32
        W, M_s, bias_s, ft = _SRC[32 if isinstance(src_t, Float32Type) else 64]
        iw = IntegerType(W)
        bits = self.bitcast(v, iw)
        sign = self.add(llvm.LShrOp(bits, self.int_const(W - 1, iw)))
        abs_bits = self.add(llvm.AndOp(bits, self.int_const((1 << (W - 1)) - 1, iw)))
        a = self.bitcast(abs_bits, ft)
        # normal numbers: round the source significand to M bits (RNE with the carry
        # rolling into the exponent), then rebias the exponent
        shift = M_s - fmt.mant
        lsb = self.add(llvm.AndOp(self.add(llvm.LShrOp(abs_bits, self.int_const(shift, iw))), self.int_const(1, iw)))
        biased = self.add(llvm.AddOp(self.add(llvm.AddOp(abs_bits, self.int_const((1 << (shift - 1)) - 1, iw))), lsb))
        code = self.add(llvm.LShrOp(biased, self.int_const(shift, iw)))
        code = self.add(llvm.SubOp(code, self.int_const((bias_s - fmt.bias) << fmt.mant, iw)))
        over = self.icmp("sgt", code, self.int_const(fmt.max_code, iw))
        code = self.select(over, self.int_const(fmt.overflow_code, iw), code)
        if bias_s != fmt.bias:
            # below the target's smallest normal the code is round(a / 2^(emin - M)) (its
            # subnormal grid; the result 2^M is the smallest normal, as encoded): scaling by
            # a power of two is exact, roundeven is RNE to an integer
            tiny = 2.0 ** fmt.emin
            is_sub = self.fcmp("olt", a, self.float_const(tiny, ft))
            a_sub = self.select(is_sub, a, self.float_const(0.0, ft))
            scaled = self.add(llvm.FMulOp(a_sub, self.float_const(2.0 ** (fmt.mant - fmt.emin), ft)))
            suffix = "f32" if W == 32 else "f64"
            rounded = self.intrinsic(f"llvm.roundeven.{suffix}", [scaled], ft)
            sub_code = self.add(FPToUIOp(rounded, iw))
            code = self.select(is_sub, sub_code, code)
        is_nan = self.fcmp("uno", a, a)
        code = self.select(is_nan, self.int_const(fmt.nan_code, iw), code)
        sw = IntegerType(fmt.bits)
        code = self.add(llvm.TruncOp(code, sw))
        sign = self.add(llvm.ShlOp(self.add(llvm.TruncOp(sign, sw)), self.int_const(fmt.bits - 1, sw)))
        result = self.add(llvm.OrOp(code, sign))
        return self.bitcast(result, t) if isinstance(t, Float16Type) else result

    def to_f16(self, v: SSAValue) -> SSAValue:
        """An f32/f64 value rounded once to f16 (native from f32, integer rounding from f64)."""
        return self.encode(v, f16)



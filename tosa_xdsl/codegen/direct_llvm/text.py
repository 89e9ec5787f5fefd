"""The direct road's emitter core (codegen/direct_llvm): LLVM types of builtin types, the
per-function text builder (`Function`: names of SSA values, lines, labels) and the handler
table that scalars.py, memory.py and control.py fill (each maps an op to its instructions)."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import affine, scf
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue


class Unsupported(Exception):
    """An op (or type) the direct emitter does not know: lower the module the usual way."""


_DYNAMIC = -(2**63)


_FLOAT_NAMES = {Float16Type: "half", Float32Type: "float", Float64Type: "double"}
_SUFFIX = {"half": "f16", "float": "f32", "double": "f64"}

Handler = Callable[["Function", Operation], None]
HANDLERS: dict[type[Operation], Handler] = {}  # filled by scalars.py, memory.py, control.py


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
            handler = HANDLERS.get(type(op))
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
            handler = HANDLERS.get(type(op))
            if handler is None:
                raise Unsupported(f"'{op.name}'")
            handler(self, op)
        raise Unsupported("a body without a yield")



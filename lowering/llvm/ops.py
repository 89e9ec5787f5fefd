"""The llvm-dialect ops our LLVM lowering needs that xDSL 0.74 lacks, and their translation
in xDSL's LLVM backend (xdsl.backend.llvm).

Ops (upstream names and syntax, `%r = llvm.fptosi %x : f32 to i32`):

* `llvm.fptosi`, `llvm.fptoui`: float -> integer, rounding toward zero. As in LLVM, a value
  out of the integer range (or NaN) gives poison; arith.fptosi has the same undefined
  behaviour, and the TOSA lowering clamps before converting (spec 2.13.1, CAST).
* `llvm.uitofp`: unsigned integer -> float, round to nearest even.

xDSL's backend translates ops with one `match` in `xdsl.backend.llvm.convert_op.convert_op`,
which `xdsl.backend.llvm.convert` calls through its module global. `install_backend()` puts
a wrapper in that global (once, idempotent) that translates the ops above and hands every
other op to xDSL's function unchanged; site-packages is not edited.
"""

from __future__ import annotations

from xdsl.dialects.llvm import LLVM, GenericCastOp
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition


@irdl_op_definition
class FPToSIOp(GenericCastOp):
    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(GenericCastOp):
    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(GenericCastOp):
    name = "llvm.uitofp"


EXTRA_LLVM_OPS = (FPToSIOp, FPToUIOp, UIToFPOp)

_CAST_NAMES = {FPToSIOp: "fptosi", FPToUIOp: "fptoui", UIToFPOp: "uitofp"}


def llvm_dialect() -> Dialect:
    """xDSL's llvm dialect plus EXTRA_LLVM_OPS (what make_context registers as `llvm`)."""
    have = {op.name for op in LLVM.operations}
    ops = [*LLVM.operations, *(op for op in EXTRA_LLVM_OPS if op.name not in have)]
    return Dialect(LLVM.name, ops, list(LLVM.attributes))


def install_backend() -> None:
    """Teach xDSL's LLVM backend the ops of this module (idempotent)."""
    from llvmlite import ir
    from xdsl.backend.llvm import convert as backend
    from xdsl.backend.llvm import convert_op as backend_op
    from xdsl.dialects import llvm

    if getattr(backend.convert_op, "_tosa_xdsl_wrapper", False):
        return
    base = backend_op.convert_op

    def convert_op(op, builder, val_map, block_map=None):
        if isinstance(op, llvm.AddressOfOp):
            # llvmlite types a global's address by its pointee ([1 x i32]*): one intrinsic
            # declaration (llvm.memcpy) called with two globals then fails to type-check.
            # The llvm dialect's pointers are opaque: give every address the one `ptr` type.
            # (builder.bitcast folds a cast between "equal" pointer types: build it directly)
            base(op, builder, val_map, block_map)
            cast = ir.instructions.CastInstr(builder.block, "bitcast", val_map[op.result], ir.PointerType())
            builder._insert(cast)  # noqa: SLF001
            val_map[op.result] = cast
            return None
        name = _CAST_NAMES.get(type(op))
        if name is None:
            return base(op, builder, val_map, block_map)
        to = backend_op.convert_type(op.results[0].type)
        val_map[op.results[0]] = getattr(builder, name)(val_map[op.operands[0]], to)
        return None

    convert_op._tosa_xdsl_wrapper = True  # pyright: ignore[reportFunctionMemberAccess]
    backend.convert_op = convert_op

"""The llvm-dialect ops our LLVM lowering needs that xDSL 0.74 lacks, and their translation
in xDSL's LLVM backend (xdsl.backend.llvm).

Ops (upstream names and syntax, `%r = llvm.fptosi %x : f32 to i32`):

* `llvm.fptosi`, `llvm.fptoui`: float -> integer, rounding toward zero. As in LLVM, a value
  out of the integer range (or NaN) gives poison; arith.fptosi has the same undefined
  behaviour, and the TOSA lowering clamps before converting (spec 2.13.1, CAST).
* `llvm.uitofp`: unsigned integer -> float, round to nearest even.

`convert_op` translates the ops above and hands every other op to xDSL's backend unchanged;
tosa_xdsl.xdsl_patches installs it in place of xDSL's.
"""

from __future__ import annotations

from xdsl.dialects.llvm import LLVM, GenericCastOp
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition

from tosa_xdsl.dialects.extend import extend_dialect


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
    return extend_dialect(LLVM, EXTRA_LLVM_OPS)


def convert_op(op, builder, val_map, block_map=None):  # noqa: ANN001 -- xDSL's signature
    """xDSL's LLVM backend `convert_op` extended with the ops above (installed by
    tosa_xdsl.xdsl_patches.install_llvm_backend_patches); every other op goes to xDSL's."""
    from llvmlite import ir
    from xdsl.backend.llvm import convert as backend
    from xdsl.backend.llvm import convert_op as backend_op
    from xdsl.dialects import llvm

    from tosa_xdsl.xdsl_patches import original

    base = original(backend, "convert_op")
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


# storage element types whose dense bytes are exactly LLVM's in-memory layout (little-endian,
# no padding): a global of these is emitted as raw bytes
_BYTE_LAYOUT_WIDTHS = {8, 16, 32, 64}


def _defined_external(result, op, llvm_module):  # noqa: ANN001
    """An `external` global with an initializer is a definition: LLVM IR spells its linkage
    by omitting it (`@g = external global T init` does not parse). Exported mutable globals
    (bound-while-loops' bound and flag) are such definitions."""
    if op.linkage.linkage.data == "external" and op.value is not None:
        gvar = llvm_module.globals.get(op.sym_name.data)
        if gvar is not None and getattr(gvar, "initializer", None) is not None:
            gvar.linkage = ""
    return result


def convert_global(op, llvm_module):  # noqa: ANN001 -- xDSL's signature
    """xDSL's `_convert_global`, except that a dense array initializer becomes one `c"..."`
    byte string (`[N x i8]`) built from the attribute's bytes instead of N element constants:
    a model's weights are then one string in the LLVM IR (no per-element Python objects,
    about 3x fewer characters to print and parse). Addresses are opaque `ptr`s (see
    `convert_op`), so the byte type is invisible to the code; the global keeps at least
    its element's alignment (loads assume it) and 16 bytes for vector loads."""
    from llvmlite import ir
    from xdsl.backend.llvm import convert as backend
    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float16Type, Float32Type, Float64Type, IntegerType

    from tosa_xdsl.xdsl_patches import original

    value, t = op.value, op.global_type
    elem = getattr(t, "type", None)
    if not (isinstance(value, DenseIntOrFPElementsAttr) and isinstance(t, llvm.LLVMArrayType)
            and isinstance(elem, IntegerType | Float16Type | Float32Type | Float64Type) and elem.bitwidth in _BYTE_LAYOUT_WIDTHS
            and value.get_element_type() == elem):
        return _defined_external(original(backend, "_convert_global")(op, llvm_module), op, llvm_module)
    raw = value.data.data
    size = elem.bitwidth // 8
    if len(raw) != t.size.data * size:  # a splat or anything unexpected: xDSL's way
        return _defined_external(original(backend, "_convert_global")(op, llvm_module), op, llvm_module)
    gvar = ir.GlobalVariable(llvm_module, ir.ArrayType(ir.IntType(8), len(raw)), name=op.sym_name.data,
                             addrspace=op.addr_space.value.data)
    gvar.linkage = op.linkage.linkage.data
    gvar.global_constant = op.constant is not None
    gvar.initializer = ir.Constant(gvar.value_type, bytearray(raw))
    _defined_external(None, op, llvm_module)
    asked = op.alignment.value.data if op.alignment is not None else 1
    gvar.align = max(asked, size, 16)
    return None

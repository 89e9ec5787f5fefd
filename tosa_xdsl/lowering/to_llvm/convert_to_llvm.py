"""convert-to-llvm: arith, math, memref, func and cf -> the llvm dialect only (llvm.func,
llvm ops, llvm.mlir.global), which xDSL's LLVM backend (tosa_xdsl.jit) compiles and upstream
`mlir-translate --mlir-to-llvmir` translates.

The input is the loop stage: func.func on memrefs with static shapes, cf branches (run
convert-scf-to-cf first), memref.alloc/dealloc/load/store/subview/collapse_shape/
expand_shape/cast/reinterpret_cast/copy/global/get_global/dim, arith and math on scalars.
Anything else is a located error naming the op (`convert-to-llvm: cannot lower 'x': ...`),
never a silent leftover.

ABI (what tosa_xdsl.jit and tosa-run --backend jit rely on)
-----------------------------------------------------------
* A memref is a bare `!llvm.ptr` to its first element (no descriptor): shapes, strides and
  offsets are static and taken from the type, so a caller passes the data pointer of a
  C-contiguous array. Function arguments and results keep their order; bufferized TOSA
  functions return nothing and write their results into trailing out-parameters.
* Scalars: iN -> iN (index -> i64), f16/f32/f64 as themselves, bf16 -> i16 and fp8 -> i8
  (their bit patterns; see lowering/llvm/emitter.py for the emulation).
* Memory layout of elements = numpy's: i1 one byte 0/1, i4 in an i8 and i48 in an i64
  (sign-extended), bf16/fp8 their bits (ml_dtypes' layout).
* memref.alloc -> malloc (aligned_alloc for alignment > 16), memref.dealloc -> free; every
  function is `external` (MCJIT can find it by name).

Where MLIR's arith leaves a result undefined (division by zero, shifts by >= the width),
the conversion picks the value our interpreter gives, so native code never traps; see
lowering/llvm/arith_math.py. Differences from upstream's convert-to-llvm are listed in
docs (lowering): bare pointers instead of memref descriptors, intrinsics as
llvm.call_intrinsic, bf16/fp8 emulated, libm calls for tanh/erf.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.lowering.to_llvm import arith_math, control  # noqa: F401 -- they register their handlers
from tosa_xdsl.lowering.to_llvm import memref as memref_conv  # noqa: F401
from tosa_xdsl.lowering.to_llvm.emitter import HANDLERS, PASS, ModuleState


def convert_module(module: ModuleOp) -> None:
    """Rewrite `module` in place into the llvm dialect (see the module docstring)."""
    from tosa_xdsl import progress

    state = ModuleState()
    new_ops = []
    ops = list(module.ops)
    for i, op in enumerate(ops):
        if isinstance(op, func.FuncOp):
            progress.fraction("lowering", f"{PASS} (functions)", i, len(ops))
            new_ops.append(control.convert_function(op, state, HANDLERS))
        elif isinstance(op, memref.GlobalOp):
            new_ops.append(memref_conv.convert_global(op))
        elif op.name.startswith("llvm."):
            new_ops.append(None)  # already converted: kept as it is
        else:
            raise LocatedError(op, f"{PASS}: cannot lower '{op.name}': no conversion to the llvm dialect")
    defined = {getattr(op, "sym_name").data for op, new in zip(module.ops, new_ops) if new is not None}
    for old, new in zip(list(module.ops), new_ops):
        if new is not None:
            module.body.block.insert_op_before(new, old)
            module.body.block.erase_op(old, safe_erase=False)
    for decl in state.top:
        if decl.sym_name.data not in defined and not _has_symbol(module, decl.sym_name.data):
            module.body.block.add_op(decl)


def _has_symbol(module: ModuleOp, name: str) -> bool:
    from xdsl.traits import SymbolTable

    return SymbolTable.lookup_symbol(module, name) is not None


@dataclass(frozen=True)
class ConvertToLLVMPass(ModulePass):
    """arith/math/memref/func/cf -> llvm (bare-pointer memrefs, static shapes)."""

    name: ClassVar[str] = "convert-to-llvm"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        convert_module(module)

"""`convert-math-to-libm`: the math ops upstream's LLVM lowering has no target for become calls
to the C library, as upstream's pass of the same name does — so `tosa-to-loops` output goes
through MLIR 22's standard `--convert-to-llvm` unchanged.

Today that is `math.erf` (TOSA ERF): MLIR 22's math-to-llvm has no `llvm.erf` intrinsic, and
LLVM has none either. On f32 it becomes `func.call @erff`, on f64 `func.call @erf` (a private
`func.func` declaration is added once per module); f16/bf16 are extended to f32, passed to
`erff` and truncated back (what our interpreter and upstream's math-to-libm compute too).
Everything else the lowering emits (exp, log, tanh, sin, cos, powf, ...) MLIR 22 lowers itself.

The interpreter runs the calls with the same functions as `math.erf`
(tosa_xdsl/interpreter/lowered/libm.py); natively they bind to the process's libm.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    StringAttr,
    f32,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.ir.walk import all_ops

PASS = "convert-math-to-libm"
LIBM: dict[type[Operation], tuple[str, str]] = {math.ErfOp: ("erff", "erf")}  # f32 / f64 symbol


def _declare(module: ModuleOp, name: str, t: Attribute, declared: set[str]) -> None:
    """`func.func private @name(t) -> t`, once, at the top of the module."""
    if name in declared:
        return
    decl = func.FuncOp.external(name, [t], [t])
    decl.sym_visibility = StringAttr("private")
    block = module.body.block
    if block.first_op is None:
        block.add_op(decl)
    else:
        block.insert_op_before(decl, block.first_op)
    declared.add(name)


def _lower(op: Operation, module: ModuleOp, declared: set[str]) -> None:
    (x,) = op.operands
    t = x.type
    f32_name, f64_name = LIBM[type(op)]
    if isinstance(t, Float64Type):
        _declare(module, f64_name, t, declared)
        call = func.CallOp(f64_name, [x], [t])
        Rewriter.replace_op(op, [call], list(call.results))
    elif isinstance(t, Float32Type):
        _declare(module, f32_name, t, declared)
        call = func.CallOp(f32_name, [x], [t])
        Rewriter.replace_op(op, [call], list(call.results))
    elif isinstance(t, Float16Type | BFloat16Type):
        _declare(module, f32_name, f32, declared)
        ext = arith.ExtFOp(x, f32)
        call = func.CallOp(f32_name, [ext.result], [f32])
        trunc = arith.TruncFOp(call.res[0], t)
        Rewriter.replace_op(op, [ext, call, trunc], [trunc.result])
    else:
        raise LocatedError(op, f"{PASS}: cannot lower '{op.name}' on {t}: scalar f16, bf16, f32 or f64 expected")


@dataclass(frozen=True)
class ConvertMathToLibmPass(ModulePass):
    """math ops without an LLVM lowering -> calls to the C library."""

    name: ClassVar[str] = "convert-math-to-libm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        declared = {f.sym_name.data for f in op.body.block.ops if isinstance(f, func.FuncOp)}
        for o in all_ops(op):
            if type(o) in LIBM:
                _lower(o, op, declared)

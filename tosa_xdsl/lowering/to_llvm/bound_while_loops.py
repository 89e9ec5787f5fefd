"""`bound-while-loops`: every scf.while stops after a run-time number of iterations, so a
never-ending WHILE_LOOP cannot hang native code (tosa-run --backend jit, NativeModule, the
shared library). Our pass, no upstream counterpart; it runs in tosa-to-llvm before
convert-scf-to-cf (docs/native.md).

    %r = scf.while (%a = %init) : ... {
      ... scf.condition(%c) %a
    } do { ^bb0(%b): ... scf.yield %next }

becomes, with `@tosa_xdsl_max_loop_iterations` and `@tosa_xdsl_loop_limit_exceeded` public
mutable `memref<i64>` globals (bound default 100000, flag 0; interpreter/loop_bound.py):

    %r:2 = scf.while (%a = %init, %n = 0 : i64) : ... {
      ... %bound = load @..max_loop_iterations, %flag = load @..loop_limit_exceeded
      %clear = %flag == 0 ; %under = %n < %bound
      scf.if %c & !%under & %clear { store <loop id> -> @..loop_limit_exceeded }
      scf.condition(%c & %under & %clear) %a, %n
    } do { ^bb0(%b, %m): ... scf.yield %next, %m + 1 }

The body runs at most `bound` times; the condition holding once more is what the
interpreter reports as the loop not finishing within `bound` iterations, and is what sets
the flag (to the loop's id, which names its source position). Once the flag is set every
loop exits at its next check, so the rest of the call takes bounded time; its results are
then meaningless and the caller reports the flag instead. A module without scf.while is
left as it is (no globals)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.interpreter.loop_bound import BOUND_GLOBAL, FLAG_GLOBAL, loop_id
from tosa_xdsl.interpreter.runner import DEFAULT_MAX_LOOP_ITERATIONS
from tosa_xdsl.lowering.preconditions import cannot_lower

PASS = "bound-while-loops"
SCALAR = MemRefType(i64, [])


def _global(name: str, value: int) -> memref.GlobalOp:
    """A public mutable `memref<i64>` global (an exported symbol of the native code)."""
    init = DenseIntOrFPElementsAttr.from_list(TensorType(i64, []), [value])
    return memref.GlobalOp.get(StringAttr(name), SCALAR, init, StringAttr("public"))


def _const(value: int, t=i64) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, t))


def bound_loop(op: scf.WhileOp, ident: int) -> None:
    """Give `op` its iteration counter and bound check (see the module docstring)."""
    if len(op.before_region.blocks) != 1 or len(op.after_region.blocks) != 1:
        raise cannot_lower(PASS, op, "each region must be a single block (run it before convert-scf-to-cf)")
    cond, yield_ = op.before_region.block.last_op, op.after_region.block.last_op
    if not isinstance(cond, scf.ConditionOp) or not isinstance(yield_, scf.YieldOp):
        raise cannot_lower(PASS, op, "expected scf.condition / scf.yield terminators")
    before = op.before_region.detach_block(0)
    after = op.after_region.detach_block(0)
    n = before.insert_arg(i64, len(before.args))  # iterations done before this check
    m = after.insert_arg(i64, len(after.args))
    bound_ref, flag_ref = memref.GetGlobalOp(BOUND_GLOBAL, SCALAR), memref.GetGlobalOp(FLAG_GLOBAL, SCALAR)
    bound, flag = memref.LoadOp.get(bound_ref, []), memref.LoadOp.get(flag_ref, [])
    zero, true, ident_c = _const(0), _const(1, i1), _const(ident)
    clear = arith.CmpiOp(flag, zero, "eq")  # no loop has hit the bound yet
    under = arith.CmpiOp(n, bound, "slt")
    go0 = arith.AndIOp(cond.condition, under)
    go = arith.AndIOp(go0, clear)
    over = arith.XOrIOp(under, true)
    hit0 = arith.AndIOp(cond.condition, over)
    hit = arith.AndIOp(hit0, clear)
    # only the failing check writes the flag (no store per iteration, no lost update)
    store = scf.IfOp(hit, [], Region(Block([memref.StoreOp.get(ident_c, flag_ref, []), scf.YieldOp()])))
    checks: list[Operation] = [bound_ref, flag_ref, bound, flag, zero, true, ident_c, clear, under, go0, go,
                               over, hit0, hit, store]
    before.insert_ops_before(checks, cond)
    Rewriter.replace_op(cond, scf.ConditionOp(go.result, *cond.args, n))
    one = _const(1)
    m1 = arith.AddiOp(m, one)
    after.insert_ops_before([one, m1], yield_)
    Rewriter.replace_op(yield_, scf.YieldOp(*yield_.operands, m1.result))
    start = _const(0)
    new = scf.WhileOp([*op.arguments, start.result], [*op.result_types, i64], Region(before), Region(after))
    new.location = op.location
    Rewriter.replace_op(op, [start, new], list(new.results[:-1]))


@dataclass(frozen=True)
class BoundWhileLoopsPass(ModulePass):
    """Every scf.while counts its iterations and exits, setting a flag, past a run-time bound."""

    name: ClassVar[str] = PASS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [o for o in op.walk() if isinstance(o, scf.WhileOp)]
        if not loops:
            return
        for k, loop in enumerate(loops, start=1):
            bound_loop(loop, loop_id(loop, k))
        names = {o.sym_name.data for o in op.ops if isinstance(o, memref.GlobalOp)}
        first = op.body.block.first_op
        for name, value in ((BOUND_GLOBAL, DEFAULT_MAX_LOOP_ITERATIONS), (FLAG_GLOBAL, 0)):
            if name in names:
                continue
            if first is None:
                op.body.block.add_op(_global(name, value))
            else:
                op.body.block.insert_op_before(_global(name, value), first)

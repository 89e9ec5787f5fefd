"""`outline-loop-nests`: every top-level loop nest of a function becomes a function of its own.

Why: the bufferized, loop-lowered model is one function (the example: one ~10k-op LLVM
function) and LLVM's loop passes (induction-variable simplification, the loop vectoriser,
loop rotation, strength reduction) cost more per op on one huge function than on many small
ones: on the example LLVM's optimisation takes ~1.1 s with a function per nest against ~1.8 s
for the single function (docs/native.md). MLIR's analogue is outlining (`scf`'s
outlineSingleBlockRegion); upstream runs nothing like it by default.

For each `affine.for`/`scf.for`/`affine.parallel`/`scf.parallel` directly in a function's
blocks (no results):
- values it uses from outside are either re-created inside the new function (`arith.constant`,
  `memref.get_global`, a `memref.alloca` that only this nest uses -- a fused nest's scratch
  block, which LLVM can then forward into registers --, and view chains: subview /
  collapse_shape / expand_shape / cast / reinterpret_cast of a buffer, so the views keep
  their static layouts) or passed as
  arguments (scalars, and the buffers at the roots of the views);
- a buffer argument is accepted only when it is a whole buffer: a `memref.alloc`/`alloca`
  result or an argument of the enclosing function, statically shaped with the identity layout;
  a nest needing anything else stays where it is;
- every buffer argument is marked `llvm.noalias`: each root is passed once, allocations never
  overlap anything, and the enclosing function's buffers are the caller's inputs and outputs,
  which may not overlap (docs/native.md, "The C signature"); LLVM then keeps register tiles
  without run-time alias checks as it does in the entry function;
- the new function is private and `no_inline` (convert-to-llvm: internal linkage, LLVM's
  `noinline`): LLVM would otherwise inline a single-call internal function straight back.

Results are unchanged: the same ops run in the same order on the same buffers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, memref, scf
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, MemRefType, ModuleOp, NoneAttr, UnitAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_xdsl.ir.walk import all_ops

NESTS = (affine.ForOp, scf.ForOp, affine.ParallelOp, scf.ParallelOp)
RECREATED = (arith.ConstantOp, memref.GetGlobalOp)
VIEWS = (memref.SubviewOp, memref.CollapseShapeOp, memref.ExpandShapeOp, memref.CastOp,
         memref.ReinterpretCastOp)
ROOTS = (memref.AllocOp, memref.AllocaOp)
MIN_OPS = 8  # a nest smaller than this is not worth a call


class _CannotOutline(Exception):
    pass


def _whole_buffer(value: SSAValue) -> bool:
    t = value.type
    if not isinstance(t, MemRefType) or any(int(d) < 0 for d in t.get_shape()):
        return False
    return isinstance(t.layout, NoneAttr)  # the identity layout: the buffer from its start


@dataclass
class _Plan:
    """What the outlined function needs: its arguments and the ops re-created in it."""

    arguments: list[SSAValue]
    recreated: list[Operation]  # in dependency order
    inside: set[int]  # ids of the nest's ops


def _plan(nest: Operation) -> _Plan:
    ops = all_ops(nest)
    inside_ops = {id(op) for op in ops}
    inside_blocks = {id(block) for op in ops if op.regions for region in op.regions for block in region.blocks}
    used: list[SSAValue] = []
    seen: set[int] = set()
    for op in ops:
        for v in op.operands:
            if id(v) in seen:
                continue
            if isinstance(v, OpResult) and id(v.op) in inside_ops:
                continue
            if isinstance(v, BlockArgument) and id(v.block) in inside_blocks:
                continue
            seen.add(id(v))
            used.append(v)
    plan = _Plan([], [], inside_ops)
    placed: set[int] = set()

    def place(v: SSAValue) -> None:
        if id(v) in placed:
            return
        placed.add(id(v))
        owner = v.op if isinstance(v, OpResult) else None
        if isinstance(owner, RECREATED) or isinstance(owner, memref.AllocaOp) and all(
                id(use.operation) in inside_ops for use in v.uses):
            # a stack buffer only this nest uses (a fused nest's scratch block) moves in, so
            # LLVM sees it whole: its loads forwarded from the stores, then the buffer gone
            plan.recreated.append(owner)
        elif isinstance(owner, VIEWS):
            for operand in owner.operands:
                place(operand)
            plan.recreated.append(owner)
        elif isinstance(v.type, MemRefType):
            whole = isinstance(owner, ROOTS) or isinstance(v, BlockArgument) and isinstance(
                v.block.parent_op(), func.FuncOp)
            if not (whole and _whole_buffer(v)):
                raise _CannotOutline
            plan.arguments.append(v)
        else:
            plan.arguments.append(v)

    for v in used:
        place(v)
    return plan


def _size(op: Operation, limit: int) -> int:
    n = 0
    for _ in op.walk():
        n += 1
        if n >= limit:
            break
    return n


def outline_function(fn: func.FuncOp, names: set[str], module: ModuleOp) -> int:
    """Outline the top-level nests of `fn`; returns how many."""
    count = 0
    insert_after: Operation = fn
    for block in fn.body.blocks:
        for nest in list(block.ops):
            if not isinstance(nest, NESTS) or nest.results or _size(nest, MIN_OPS) < MIN_OPS:
                continue
            try:
                plan = _plan(nest)
            except _CannotOutline:
                continue
            name = f"{fn.sym_name.data}_nest{count}"
            while name in names:
                name += "_"
            names.add(name)
            count += 1
            new_fn = _outline(nest, plan, name)
            module.body.block.insert_op_after(new_fn, insert_after)
            insert_after = new_fn
    return count


def _outline(nest: Operation, plan: _Plan, name: str) -> func.FuncOp:
    types = [v.type for v in plan.arguments]
    body = Block(arg_types=types)
    mapping: dict[SSAValue, SSAValue] = dict(zip(plan.arguments, body.args))
    for op in plan.recreated:
        clone = op.clone(value_mapper=mapping)
        body.add_op(clone)
        for old, new in zip(op.results, clone.results):
            mapping[old] = new
    for old, new in mapping.items():
        for use in list(old.uses):
            if id(use.operation) in plan.inside:
                use.operation.operands[use.index] = new
    Rewriter.insert_op(func.CallOp(name, list(plan.arguments), []), InsertPoint.before(nest))
    nest.detach()
    body.add_op(nest)
    body.add_op(func.ReturnOp())
    new_fn = func.FuncOp(name, (types, []), Region(body), visibility="private")
    new_fn.attributes["no_inline"] = UnitAttr()
    new_fn.arg_attrs = ArrayAttr([DictionaryAttr({"llvm.noalias": UnitAttr()} if isinstance(t, MemRefType)
                                                 else {}) for t in types])
    return new_fn


@dataclass(frozen=True)
class OutlineLoopNestsPass(ModulePass):
    """Each top-level loop nest of a function -> a private no_inline function and a call."""

    name: ClassVar[str] = "outline-loop-nests"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = [f for f in op.ops if isinstance(f, func.FuncOp) and f.body.blocks]
        names = {f.sym_name.data for f in op.ops if isinstance(f, func.FuncOp)}
        for fn in functions:
            outline_function(fn, names, op)


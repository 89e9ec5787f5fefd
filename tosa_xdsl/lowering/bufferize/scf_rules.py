"""The scf rules of one-shot-bufferize.

Static shapes: scf.if / scf.for / scf.while carry their tensor values in buffers allocated
before the op (or, for a loop, in the init's own buffer when the loop may consume it); the
op's tensor results then are those buffers (the memref forms have no tensor results), and
yields copy into them unless the value was computed in them (Converter.store_results).

Dynamic shapes (EXT-DYNAMIC), where no buffer can be sized before the op: as upstream, the
scf.if results and the scf.while arguments, forwarded values and results become memrefs.
Each is owned by the block that receives it: a branch or an iteration hands over a buffer
it owns (its own alloc, a loop argument it received) and copies anything else into a fresh
alloc (Converter.handover); deallocation.py frees every owned buffer not handed over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tosa_xdsl.lowering.bufferize.common import buffer_type, fail, is_identity
from tosa_xdsl.lowering.bufferize.in_place import Root

if TYPE_CHECKING:
    from tosa_xdsl.lowering.bufferize.converter import Converter


def _dynamic(t: Attribute) -> bool:
    return isinstance(t, TensorType) and any(int(d) < 0 for d in t.get_shape())


def _new_type(t: Attribute) -> Attribute:
    """The type a value keeps on the bufferized op: a memref for a dynamic tensor."""
    return buffer_type(t) if _dynamic(t) else t  # type: ignore[arg-type]


def _if(c: Converter, op: scf.IfOp) -> None:
    parent = op.parent_block()
    targets: dict[int, SSAValue] = {}
    for i, r in enumerate(op.results):
        if isinstance(r.type, TensorType) and not _dynamic(r.type):
            targets[i] = c.alloc(r.type)
            c.vmap[r] = targets[i]
            c.fresh_root(parent, r)
    dynamic = {i for i, r in enumerate(op.results) if _dynamic(r.type)}
    kept = [r for i, r in enumerate(op.results) if i not in targets]  # scalars, dynamic tensors
    regions = []
    for region in (op.true_region, op.false_region):
        nb = Block()
        if region.blocks:
            c.convert_yielding_block(region.blocks[0], nb, targets, set(), dynamic)
        elif kept or targets:
            raise fail(op, "an scf.if with results needs an else region")
        regions.append(Region(nb) if region.blocks else Region())
    new = c.emit(scf.IfOp(c.vmap[op.cond], [_new_type(r.type) for r in kept], regions[0], regions[1]))
    new.location = op.location  # the COND_IF's line, for diagnostics
    for r, nr in zip(kept, new.results):
        c.vmap[r] = nr
        if _dynamic(r.type):
            c.fresh_root(parent, r)  # a buffer the scf.if hands over to this block


def _carry(c: Converter, op: Operation, inits: list[SSAValue], index_offset: int,
           dynamic_too: bool) -> dict[int, tuple[SSAValue, Root]]:
    """Buffers for the tensor values a loop carries: the init's own buffer when the loop may
    consume it, else a copy (of the init's run-time size for a dynamic one: scf.for keeps its
    carried size, SCATTER's nest). scf.while passes `dynamic_too=False`: its dynamic tensors
    are the loop's memref arguments instead (their size may change between iterations)."""
    carried: dict[int, tuple[SSAValue, Root]] = {}
    for i, v in enumerate(inits):
        if not isinstance(v.type, TensorType) or (_dynamic(v.type) and not dynamic_too):
            continue
        r = c.roots.get(v)
        if r is not None and not r.empty and c.can_write(v, op, index_offset + i) and is_identity(c.vmap[v].type):
            if any(v is w for k, w in enumerate(inits) if k != i):
                r = None
            else:
                r.loops.add(op)
                carried[i] = (c.vmap[v], r)
                continue
        b = c.alloc(v.type, v)  # a dynamic dim: the init's size
        if r is None or not r.empty:
            c.copy(c.vmap[v], b)
        root = Root(writable=True, scope=op.parent_block(), loops={op})
        carried[i] = (b, root)
    return carried


def _for(c: Converter, op: scf.ForOp) -> None:
    inits = list(op.iter_args)
    carried = _carry(c, op, inits, 3, dynamic_too=True)
    old = op.body.block
    scalar_idx = [i for i in range(len(inits)) if i not in carried]
    nb = Block(arg_types=[old.args[0].type, *[old.args[1 + i].type for i in scalar_idx]])
    c.vmap[old.args[0]] = nb.args[0]
    for k, i in enumerate(scalar_idx):
        c.vmap[old.args[1 + i]] = nb.args[1 + k]
    for i, (b, r) in carried.items():
        c.vmap[old.args[1 + i]] = b
        c.bind(old.args[1 + i], r)
    _loop_body(c, old, nb, carried)
    new = c.emit(scf.ForOp(c.vmap[op.lb], c.vmap[op.ub], c.vmap[op.step],
                           [c.vmap[inits[i]] for i in scalar_idx], Region(nb)))
    for k, i in enumerate(scalar_idx):
        c.vmap[op.results[i]] = new.results[k]
    for i, (b, r) in carried.items():
        c.vmap[op.results[i]] = b
        c.bind(op.results[i], r)


def _loop_body(c: Converter, old: Block, nb: Block, carried: dict[int, tuple[SSAValue, Root]]) -> None:
    c.convert_yielding_block(old, nb, {i: b for i, (b, _) in carried.items()}, {r for _, r in carried.values()})


def _init_buffer(c: Converter, op: scf.WhileOp, inits: list[SSAValue], i: int) -> SSAValue:
    """The buffer a dynamically shaped loop init hands to the loop, which owns it from then
    on: the init's own buffer when this block owns it and nothing reads the init after the
    loop, else a copy (a tensor.empty: a fresh alloc, its contents are undefined anyway)."""
    v = inits[i]
    r = c.roots.get(v)
    if r is not None and r.empty:
        b = c.alloc(v.type, v)  # type: ignore[arg-type]
        c.consumed.add(b)
        return b
    if (r is not None and c.owns(c.vmap[v]) and c.can_write(v, op, i)
            and not any(v is w for k, w in enumerate(inits) if k != i)):
        c.consumed.add(c.vmap[v])
        return c.vmap[v]
    return c.handover(v)


def _while(c: Converter, op: scf.WhileOp) -> None:
    inits = list(op.arguments)
    carried = _carry(c, op, inits, 0, dynamic_too=False)
    dyn_in = {i for i, v in enumerate(inits) if _dynamic(v.type)}
    init_bufs = {i: _init_buffer(c, op, inits, i) for i in sorted(dyn_in)}
    before, after = op.before_region.block, op.after_region.block
    cond = before.last_op
    assert isinstance(cond, scf.ConditionOp)
    fwd = list(cond.args)
    dyn_fwd = {j for j, v in enumerate(fwd) if _dynamic(v.type)}
    # after-region / result buffers of static tensors: the carried ones when the condition
    # forwards the before-region arguments unchanged (tosa.while_loop's form), else buffers
    # of their own
    same = len(fwd) == len(before.args) and all(f is a for f, a in zip(fwd, before.args))
    fwd_bufs: dict[int, tuple[SSAValue, Root]] = {}
    for i, v in enumerate(fwd):
        if not isinstance(v.type, TensorType) or i in dyn_fwd:
            continue
        if same and i in carried:
            fwd_bufs[i] = carried[i]
        else:
            fwd_bufs[i] = (c.alloc(v.type), Root(writable=True, scope=op.parent_block(), loops={op}))
    arg_in = [i for i in range(len(inits)) if i not in carried]  # scalars and dynamic tensors
    arg_fwd = [i for i in range(len(fwd)) if i not in fwd_bufs]
    nbefore = Block(arg_types=[_new_type(before.args[i].type) for i in arg_in])
    c.loop_blocks.add(nbefore)
    for k, i in enumerate(arg_in):
        c.vmap[before.args[i]] = nbefore.args[k]
        if i in dyn_in:  # each check of the condition owns the buffers it receives
            c.fresh_root(before, before.args[i])
    for i, (b, r) in carried.items():
        c.vmap[before.args[i]] = b
        c.bind(before.args[i], r)
    # before region
    saved = c.block
    c.block = nbefore
    for i, o in enumerate(before.ops):
        c.position[o] = i
    for o in before.ops:
        if o is cond:
            break
        c.convert_op(o)
    handed = {j: c.handover(fwd[j]) for j in sorted(dyn_fwd)}
    if not same:
        c.store_results([fwd[i] for i in fwd_bufs], [b for b, _ in fwd_bufs.values()], set())
    c.emit(scf.ConditionOp(c.vmap[cond.condition], *[handed[j] if j in handed else c.vmap[fwd[j]]
                                                      for j in arg_fwd]))
    c.block = saved
    # after region
    nafter = Block(arg_types=[_new_type(after.args[i].type) for i in arg_fwd])
    c.loop_blocks.add(nafter)
    for k, i in enumerate(arg_fwd):
        c.vmap[after.args[i]] = nafter.args[k]
        if i in dyn_fwd:  # each iteration owns the buffers it receives
            c.fresh_root(after, after.args[i])
    for i, (b, r) in fwd_bufs.items():
        c.vmap[after.args[i]] = b
        c.bind(after.args[i], r)
    c.convert_yielding_block(after, nafter, {i: b for i, (b, _) in carried.items()},
                             {r for _, r in carried.values()}, dyn_in)
    new = c.emit(scf.WhileOp([init_bufs[i] if i in init_bufs else c.vmap[inits[i]] for i in arg_in],
                             [_new_type(op.results[i].type) for i in arg_fwd], Region(nbefore), Region(nafter)))
    new.location = op.location  # the WHILE_LOOP's line: loop-bound diagnostics name it
    for k, i in enumerate(arg_fwd):
        c.vmap[op.results[i]] = new.results[k]
        if i in dyn_fwd:
            c.fresh_root(op.parent_block(), op.results[i])  # the loop hands its last buffers over
    for i, (b, r) in fwd_bufs.items():
        c.vmap[op.results[i]] = b
        c.bind(op.results[i], r)


HANDLERS = {
    scf.IfOp: _if,
    scf.ForOp: _for,
    scf.WhileOp: _while,
}

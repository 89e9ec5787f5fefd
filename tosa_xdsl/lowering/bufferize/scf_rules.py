"""The scf rules of one-shot-bufferize: scf.if / scf.for / scf.while carry their tensor
values in buffers allocated before the op (or, for a loop, in the init's own buffer when the
loop may consume it); the op's tensor results then are those buffers (the memref forms have
no tensor results), and yields copy into them unless the value was computed in them
(Converter.store_results)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, Region, SSAValue

from tosa_xdsl.lowering.bufferize.common import fail, is_identity
from tosa_xdsl.lowering.bufferize.in_place import Root

if TYPE_CHECKING:
    from tosa_xdsl.lowering.bufferize.converter import Converter


def _if(c: Converter, op: scf.IfOp) -> None:
    parent = op.parent_block()
    targets: dict[int, SSAValue] = {}
    for i, r in enumerate(op.results):
        if isinstance(r.type, TensorType):
            targets[i] = c.alloc(r.type)
            c.vmap[r] = targets[i]
            c.fresh_root(parent, r)
    scalar_types = [r.type for r in op.results if not isinstance(r.type, TensorType)]
    regions = []
    for region in (op.true_region, op.false_region):
        nb = Block()
        if region.blocks:
            c.convert_yielding_block(region.blocks[0], nb, targets, set())
        elif scalar_types or targets:
            raise fail(op, "an scf.if with results needs an else region")
        regions.append(Region(nb) if region.blocks else Region())
    new = c.emit(scf.IfOp(c.vmap[op.cond], scalar_types, regions[0], regions[1]))
    scalars = iter(new.results)
    for r in op.results:
        if not isinstance(r.type, TensorType):
            c.vmap[r] = next(scalars)


def _carry(c: Converter, op: Operation, inits: list[SSAValue], index_offset: int) -> dict[int, tuple[SSAValue, Root]]:
    """Buffers for the tensor values a loop carries: the init's own buffer when the loop may
    consume it, else a copy."""
    carried: dict[int, tuple[SSAValue, Root]] = {}
    for i, v in enumerate(inits):
        if not isinstance(v.type, TensorType):
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
    carried = _carry(c, op, inits, 3)
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


def _while(c: Converter, op: scf.WhileOp) -> None:
    inits = list(op.arguments)
    carried = _carry(c, op, inits, 0)
    before, after = op.before_region.block, op.after_region.block
    cond = before.last_op
    assert isinstance(cond, scf.ConditionOp)
    fwd = list(cond.args)
    # after-region / result buffers: the carried ones when the condition forwards the
    # before-region arguments unchanged (tosa.while_loop's form), else buffers of their own
    same = len(fwd) == len(before.args) and all(f is a for f, a in zip(fwd, before.args))
    fwd_bufs: dict[int, tuple[SSAValue, Root]] = {}
    for i, v in enumerate(fwd):
        if not isinstance(v.type, TensorType):
            continue
        if same and i in carried:
            fwd_bufs[i] = carried[i]
        else:
            fwd_bufs[i] = (c.alloc(v.type), Root(writable=True, scope=op.parent_block(), loops={op}))
    scalar_in = [i for i in range(len(inits)) if i not in carried]
    scalar_fwd = [i for i in range(len(fwd)) if i not in fwd_bufs]
    nbefore = Block(arg_types=[before.args[i].type for i in scalar_in])
    for k, i in enumerate(scalar_in):
        c.vmap[before.args[i]] = nbefore.args[k]
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
    if not same:
        c.store_results([fwd[i] for i in fwd_bufs], [b for b, _ in fwd_bufs.values()], set())
    c.emit(scf.ConditionOp(c.vmap[cond.condition], *[c.vmap[fwd[i]] for i in scalar_fwd]))
    c.block = saved
    # after region
    nafter = Block(arg_types=[after.args[i].type for i in scalar_fwd])
    for k, i in enumerate(scalar_fwd):
        c.vmap[after.args[i]] = nafter.args[k]
    for i, (b, r) in fwd_bufs.items():
        c.vmap[after.args[i]] = b
        c.bind(after.args[i], r)
    _loop_body(c, after, nafter, carried)
    new = c.emit(scf.WhileOp([c.vmap[inits[i]] for i in scalar_in],
                             [op.results[i].type for i in scalar_fwd], Region(nbefore), Region(nafter)))
    for k, i in enumerate(scalar_fwd):
        c.vmap[op.results[i]] = new.results[k]
    for i, (b, r) in fwd_bufs.items():
        c.vmap[op.results[i]] = b
        c.bind(op.results[i], r)


HANDLERS = {
    scf.IfOp: _if,
    scf.ForOp: _for,
    scf.WhileOp: _while,
}

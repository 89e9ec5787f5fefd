"""The in-place analysis of one-shot-bufferize: which old tensor values share a buffer
("root"), and whether an op may write a root's buffer in place.

A root (an alloc, an argument, a global, a loop-carried or scf.if result buffer) is written
in place at op `op` only if it is writable (not an argument/constant), created in the
current loop iteration (or carried by the loop), and no tensor value aliasing it is used
after `op` in program order (uses in enclosing blocks after the enclosing op count; a use
inside `op`'s own region conflicts; a read of the same buffer by `op` is allowed only where
the op's rule says so: an all-parallel linalg.generic reading it through the same indexing
map as it writes, see linalg_rules.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation, SSAValue


@dataclass(eq=False)
class Root:
    """One buffer and the (old) tensor values that share it."""

    writable: bool
    scope: Block | None  # the old block it was created in (None: function level / global)
    aliases: list[SSAValue] = field(default_factory=list)
    loops: set[Operation] = field(default_factory=set)  # loops carrying it (in-place across iterations)
    empty: bool = False  # a tensor.empty: no buffer, a fresh alloc at every use


LOOPS = (scf.ForOp, scf.WhileOp)


class InPlaceAnalysis:
    """The roots of the old tensor values and the in-place question; the converter fills
    them in as it goes (values are bound when their op is converted, positions when their
    block is entered)."""

    def __init__(self) -> None:
        self.roots: dict[SSAValue, Root] = {}
        self.position: dict[Operation, int] = {}  # old op -> its index in its block

    def bind(self, value: SSAValue, root: Root) -> None:
        self.roots[value] = root
        root.aliases.append(value)

    def fresh_root(self, scope: Block | None, *values: SSAValue) -> Root:
        r = Root(writable=True, scope=scope)
        for v in values:
            self.bind(v, r)
        return r

    def can_write(self, value: SSAValue, op: Operation, dest_index: int, same_ok=lambda i: False) -> bool:
        """May `op` write the buffer of `value`, its operand #dest_index, in place?
        `same_ok(i)`: may `op`'s operand #i read that same buffer while `op` writes it."""
        r = self.roots.get(value)
        if r is None or r.empty or not r.writable:
            return False
        return not self._later_use(r, op, value, dest_index, same_ok)

    def _later_use(self, root: Root, op: Operation, value: SSAValue, dest_index: int, same_ok) -> bool:
        """Is any alias of `root` used after `op` (see the module docstring)?"""
        levels: list[tuple[Block, Operation]] = []  # (block, op's ancestor in it), innermost first
        o = op
        while True:
            b = o.parent_block()
            assert b is not None
            levels.append((b, o))
            parent = b.parent_op()
            if parent is None or isinstance(parent, func.FuncOp):
                break
            if isinstance(parent, LOOPS):
                if parent in root.loops:
                    break  # the loop's own state: uses outside the loop come after it
                if root.scope not in [blk for blk, _ in levels]:
                    return True  # created outside this loop: read again by the next iteration
            o = parent
        for alias in root.aliases:
            for use in alias.uses:
                user = use.operation
                if user is op:
                    if alias is value and use.index == dest_index:
                        continue
                    if not same_ok(use.index):
                        return True
                    continue
                for k, (blk, lvl) in enumerate(levels):
                    anc = blk.find_ancestor_op_in_block(user)
                    if anc is None:
                        continue
                    if anc is lvl:
                        if k == 0:
                            return True  # read inside op's own region
                        break  # another region of an enclosing op (the other branch)
                    if self.position[anc] > self.position[lvl]:
                        return True
                    break
        return False

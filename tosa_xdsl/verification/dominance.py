"""SSA dominance, as MLIR's verifier checks it ("operand #N does not dominate this use").

xDSL 0.74 reads forward references inside a function body (`%p = tosa.mul %m1, ...` before
`%m1 = ...`) and its verifier does not check dominance, so such a module reached the
interpreter and the passes, which failed on the missing value. Regions here are the
single-block structured kind (func bodies, tosa.cond_if / tosa.while_loop bodies): a value
dominates a use when it is defined earlier in the use's block or in an enclosing block (before
the op that encloses the use), or is an argument of such a block. The module body is a graph
region (MLIR: no dominance there), so ops directly in a module are not checked; nor is
dominance between different blocks of one region (a CFG, after lowering).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue


def _is_before(definer: Operation, ancestor: Operation, block: Block,
               order: dict[Block, dict[Operation, int]] | None) -> bool:
    """`definer` comes before `ancestor` in `block`. xDSL's is_before_in_block walks the
    block from `definer` on, which made verifying a function quadratic (49 s for 20k ops
    reusing early values); with `order` (one dict per verification pass) each block is
    numbered once."""
    if order is None:
        return definer.is_before_in_block(ancestor)
    index = order.get(block)
    if index is None:
        index = order[block] = {op: i for i, op in enumerate(block.ops)}
    return index[definer] < index[ancestor]


def _dominates(value: SSAValue, user: Operation,
               order: dict[Block, dict[Operation, int]] | None = None) -> bool:
    if isinstance(value, BlockArgument):
        block: Block | None = user.parent_block()
        while block is not None:
            if block is value.block or (block.parent is not None and block.parent is value.block.parent):
                return True  # its block, or another block of its region (a CFG, not checked)
            parent = block.parent_op()
            block = parent.parent_block() if parent is not None else None
        return False
    if not isinstance(value, OpResult):
        return True
    definer = value.op
    target = definer.parent_block()
    if target is None:
        return False
    ancestor: Operation | None = user
    while ancestor is not None and ancestor.parent_block() is not target:
        if target.parent is not None and ancestor.parent_region() is target.parent:
            # another block of the definer's region: a CFG (after lowering), whose block
            # dominance this check does not compute
            return True
        ancestor = ancestor.parent_op()
    if ancestor is None:
        return False
    if isinstance(target.parent_op(), ModuleOp):
        return ancestor is not definer
    return ancestor is not definer and _is_before(definer, ancestor, target, order)


def dominance_error(op: Operation, order: dict[Block, dict[Operation, int]] | None = None) -> str | None:
    """MLIR's message for the first operand of `op` not dominating it, else None. `order`: a
    dict shared by the calls of one verification pass over unchanged IR (positions of ops in
    their blocks, filled as needed)."""
    if isinstance(op.parent_op(), ModuleOp):
        return None
    for index, operand in enumerate(op.operands):
        if not _dominates(operand, op, order):
            return f"operand #{index} does not dominate this use"
    return None


def undefined_operand_error(op: Operation) -> str | None:
    """MLIR's parse error for an operand that names no value in scope. xDSL 0.74 can leave a
    forward reference unresolved when a nested region later defines the same name (`%i`
    used in a function body, then `scf.while (%i = ...)`), and its verifiers then fail on the
    placeholder; the driver asks this before verifying `op`."""
    from xdsl.parser.core import ForwardDeclaredValue

    for operand in op.operands:
        if isinstance(operand, ForwardDeclaredValue):
            return "use of undeclared SSA value name"
    return None


def empty_block_error(op: Operation) -> str | None:
    """MLIR's "empty block: expect at least a terminator" for a block of `op`'s regions that
    has no ops (`func.func @f() {\n}`), which xDSL 0.74 accepts and the interpreter then
    cannot run. Module bodies (graph regions) may be empty."""
    if isinstance(op, ModuleOp):
        return None
    for region in op.regions:
        for block in region.blocks:
            if block.first_op is None:
                return "empty block: expect at least a terminator"
    return None

"""`convert-scf-to-cf`: structured control flow -> blocks and branches (cf.br / cf.cond_br /
cf.switch), as upstream MLIR's pass (mlir/lib/Conversion/SCFToControlFlow).

scf.for, scf.if and scf.index_switch use xDSL's patterns (xdsl.transforms.convert_scf_to_cf:
direct translations of MLIR's, checked against our interpreter in
tests/test_linalg_to_loops.py). xDSL has no pattern for scf.while, which tosa.while_loop
lowers to, so this module adds one and registers the pass under the same name in place of
xDSL's:

    ^current:  ...                       cf.br ^before(%inits)
    ^before(%args):  <before region>     cf.cond_br %cond, ^after(%fwd), ^continue
    ^after(%args2):  <after region>      cf.br ^before(%yielded)
    ^continue:  <rest>                   (the while's results are %fwd, which dominate here)

which is MLIR's general WhileLowering (MLIR additionally turns a while whose "after" region
only forwards its arguments into a do-while with one block fewer; we always emit the
general form, which computes the same thing).

An scf op whose parent region must stay a single block (inside an affine.for or a
linalg body, say) cannot become branches: that is a located error, before anything changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from tosa_xdsl.diagnostics import LocatedError

PASS_NAME = "convert-scf-to-cf"

_SCF_OPS = (scf.ForOp, scf.IfOp, scf.WhileOp, scf.IndexSwitchOp)


class WhileLowering(RewritePattern):
    """scf.while -> a "before" block that branches to the "after" block or out."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /):
        current = op.parent_block()
        assert current is not None
        continuation = current.split_before(op)

        before = op.before_region.first_block
        after = op.after_region.first_block
        assert before is not None and after is not None
        # terminators: scf.condition ends the "before" region, scf.yield the "after" one
        conds = [b.last_op for b in op.before_region.blocks if isinstance(b.last_op, scf.ConditionOp)]
        yields = [b.last_op for b in op.after_region.blocks if isinstance(b.last_op, scf.YieldOp)]
        assert len(conds) == 1, "scf.while: one scf.condition expected"
        cond = conds[0]
        assert isinstance(cond, scf.ConditionOp)

        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(after))

        rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(current))
        for y in yields:
            assert y is not None
            rewriter.replace(y, cf.BranchOp(before, *y.operands))
        forwarded = list(cond.args)
        branch = cf.ConditionalBranchOp(cond.condition, after, forwarded, continuation, ())
        branch.location = op.location  # the loop's place (loop-bound diagnostics, interpreter/loop_bound.py)
        rewriter.replace(cond, branch)
        rewriter.replace(op, [], forwarded)


def split_before(self: Block, b_first: Operation, *, arg_types: Iterable[Attribute] = ()) -> Block:
    """xDSL's `Block.split_before` (same contract: `b_first` and the ops after it move to a
    new block placed right after `self`, which is left without a terminator), in time
    proportional to the ops moved. xDSL's looks the block's index up and inserts by index,
    two walks over the region's blocks per split: lowering a model's ~800 loops into ~2500
    blocks spent 0.8 s there. Installed by tosa_xdsl.xdsl_patches.install_lowering_patches."""
    if b_first.parent is not self:
        raise ValueError("Cannot split block on operation outside of the block.")
    region = self.parent
    if region is None:
        raise ValueError("Cannot split block with no parent.")
    new = Block(arg_types=arg_types)
    region.insert_block_after(new, self)
    # relink the op list as xDSL's split does (add_op per op checks ancestry: slower)
    a_last, b_last = b_first.prev_op, self.last_op
    self._first_op = None if a_last is None else self.first_op  # noqa: SLF001
    self._last_op = a_last  # noqa: SLF001
    if a_last is not None:
        a_last._next_op = None  # noqa: SLF001
    b_first._prev_op = None  # noqa: SLF001
    new._first_op, new._last_op = b_first, b_last  # noqa: SLF001
    op: Operation | None = b_first
    while op is not None:
        op.parent = new
        op = op.next_op
    return new


def _check_placement(module: ModuleOp) -> None:
    """Every scf op to lower sits in a region that may hold several blocks: a function body
    or another scf op's region (which is itself inlined into one)."""
    for op in module.walk():
        if not isinstance(op, _SCF_OPS):
            continue
        parent: Operation | None = op.parent_op()
        while isinstance(parent, _SCF_OPS):
            parent = parent.parent_op()
        if parent is None or isinstance(parent, func.FuncOp) or parent.name == "llvm.func":
            continue
        raise LocatedError(op, f"{PASS_NAME}: cannot lower '{op.name}': it is inside "
                           f"'{parent.name}', whose region must stay a single block "
                           f"(lower '{parent.name}' first)")


@dataclass(frozen=True)
class ConvertScfToCfPass(ModulePass):
    """scf.for / if / while / index_switch -> cf branches (replaces xDSL's pass, which
    lacks scf.while)."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from tosa_xdsl.xdsl_patches import install_lowering_patches

        install_lowering_patches()
        _check_placement(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [SwitchLowering(), IfLowering(), ForLowering(), WhileLowering()],
                dce_enabled=False,  # lowering is not the place to drop the user's dead code
            )
        ).rewrite_module(op)
        for left in op.walk():
            if isinstance(left, _SCF_OPS):  # a pattern that gave up: never silently
                raise LocatedError(left, f"{PASS_NAME}: cannot lower '{left.name}'")

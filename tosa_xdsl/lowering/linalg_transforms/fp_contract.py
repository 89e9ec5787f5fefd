"""`linalg-fp-contract`: allow fused multiply-add in float dot products (on by default, changes bits).

A dot-product step in the body of a linalg op -- `acc' = acc + a * b` with `acc` the output's
block argument, as CONV2D, DEPTHWISE_CONV2D, TRANSPOSE_CONV2D and MATMUL lower to -- gets the
arith fast-math flag `contract` on its `arith.mulf` and `arith.addf`. convert-to-llvm carries
the flag to `llvm.fmul`/`llvm.fadd`, and LLVM's code generator may then fuse the pair into one
FMA instruction (one rounding instead of two), as clang's `-ffp-contract=fast` allows. Nothing
else is contracted: a TOSA MUL followed by an ADD (fused into one generic by
linalg-fuse-elementwise-ops) stays two correctly rounded operations, as the spec requires of
them.

Why it is allowed: the spec's "Dot product accuracy requirements" (tosa-1.0.1-spec.md) bound
each output of these operators by `ABS_BOUND = 2 * ksb` roundings of the dot product of the
absolute values (one rounding error per accumulation, times 2 for other rounding modes); an FMA
rounds each step at most once, so it stays within the bound. IREE and clang
(`-ffp-contract=fast`) contract the same way. The bits then differ from the interpreter's (which
rounds the product and the sum separately), so the pipelines' `fp-contract=off` leaves this pass
out (`tosa-run --backend jit --fp-contract=off`, `NativeModule(fp_contract="off")`,
`tosa-translate --emit-shared-library --fp-contract=off`): the interpreter's float bits. Integer
dot products are untouched (they are exact anyway).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

CONTRACT = arith.FastMathFlag.ALLOW_CONTRACT


def _with_contract(op: arith.MulfOp | arith.AddfOp) -> bool:
    """Add `contract` to the op's fast-math flags; False when it was there already."""
    flags = set(op.fastmath.data)
    if CONTRACT in flags:
        return False
    op.fastmath = arith.FastMathFlagsAttr(tuple(flags | {CONTRACT}))
    return True


def _accumulator(value: SSAValue, body_op: Operation) -> bool:
    """Is `value` an output block argument of the linalg op whose body holds `body_op`?"""
    if not isinstance(value, BlockArgument) or value.block is not body_op.parent_block():
        return False
    owner = value.block.parent_op()
    if owner is None or owner.dialect_name() != "linalg":
        return False
    num_inputs = len(getattr(owner, "inputs", ()))
    return value.index >= num_inputs


class ContractDotProductStep(RewritePattern):
    """`%p = arith.mulf %a, %b; %s = arith.addf %acc, %p` (either operand order) in a linalg
    body, %acc the output's block argument and %p used only there -> both ops get `contract`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddfOp, rewriter: PatternRewriter) -> None:
        for acc, product in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            mul = product.owner
            if (isinstance(mul, arith.MulfOp) and mul.parent_block() is op.parent_block()
                    and product.has_one_use() and _accumulator(acc, op)):
                for marked in (mul, op):
                    if _with_contract(marked):
                        rewriter.notify_op_modified(marked)
                return


@dataclass(frozen=True)
class LinalgFpContractPass(ModulePass):
    """Mark float dot-product steps of linalg bodies `contract` (FMA allowed)."""

    name = "linalg-fp-contract"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ContractDotProductStep(), apply_recursively=False).rewrite_module(op)


"""`scf.while`'s verifier as MLIR's (RegionBranchOpInterface), replacing xDSL 0.74's.

xDSL's `WhileOp.verify_` raises a bare `Exception` on a block argument type mismatch and an
IndexError when the counts differ (both reached `tosa-opt` as internal errors, found by the
fuzz campaign), and it compares the after region's arguments with the results, which MLIR
does not. MLIR checks every control-flow edge of the op, in this order, with these messages:
parent -> Region #0 (operands -> before arguments), scf.condition -> parent (forwarded
values -> results), scf.condition -> Region #1 (-> after arguments), scf.yield -> Region #0.
Installed by `xdsl_patches` (SCF_PATCHES, when xDSL's scf dialect is imported).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException


def _edge(source: str, target: str, operands: Sequence[Attribute], inputs: Sequence[Attribute]) -> None:
    where = f"'scf.while' op along control flow edge from {source} to {target}"
    if len(operands) != len(inputs):
        raise VerifyException(f"{where}: region branch point has {len(operands)} operands, "
                              f"but region successor needs {len(inputs)} inputs")
    for i, (a, b) in enumerate(zip(operands, inputs)):
        if a != b:
            raise VerifyException(f"{where}: successor operand type #{i} '{a}' should match "
                                  f"successor input type #{i} '{b}'")


def verify_while(self) -> None:
    from xdsl.dialects import scf

    before = self.before_region.blocks.first
    after = self.after_region.blocks.first
    if before is None or after is None:
        return  # the single_block region constraint reports it
    _edge("parent", "Region #0", [v.type for v in self.arguments], before.arg_types)
    cond = before.last_op
    if isinstance(cond, scf.ConditionOp):
        forwarded = [v.type for v in cond.args]
        _edge("Operation scf.condition", "parent", forwarded, [r.type for r in self.res])
        _edge("Operation scf.condition", "Region #1", forwarded, after.arg_types)
    yielded = after.last_op
    if isinstance(yielded, scf.YieldOp):
        _edge("Operation scf.yield", "Region #0", [v.type for v in yielded.operands], before.arg_types)

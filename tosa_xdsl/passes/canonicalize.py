"""The `canonicalize` pass: xDSL's, which also applies the TOSA patterns because each TOSA op
declares its own (CanonicalizationPatterns trait; the patterns are in
tosa_xdsl.passes.canonicalization_patterns), with MLIR's driver options.

Options as MLIR's canonicalizer (upstream's RUN lines use `canonicalize{test-convergence}`):
`max-iterations` (10; -1 = until nothing changes) bounds the rounds of the greedy driver, each
a full walk of the module followed by dead-code elimination; `test-convergence` turns
"still changing after max-iterations rounds" into an error (MLIR fails the pass; we also say
why, at the module); `top-down` (true) walks ops before their nested ops and operands before
users, false walks in reverse; `region-simplify` (`normal`, `aggressive`, `disabled`): with
`disabled` dead code is not removed between rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.transforms.canonicalize import CanonicalizePass

_REGION_SIMPLIFY = ("normal", "aggressive", "disabled")


@dataclass(frozen=True)
class TosaCanonicalizePass(CanonicalizePass):
    """xDSL's `canonicalize` (folders, canonicalization patterns of every dialect, dead
    code elimination), registered under our pass registry so that `-p canonicalize` keeps
    canonicalizing func/arith/... exactly as before and adds TOSA."""

    name: ClassVar[str] = "canonicalize"

    test_convergence: bool = False
    max_iterations: int = 10
    top_down: bool = True
    region_simplify: str = "normal"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.pattern_rewriter import (
            GreedyRewritePatternApplier,
            PatternRewriteWalker,
        )
        from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
        from xdsl.transforms.dead_code_elimination import region_dce

        from tosa_xdsl.diagnostics import LocatedError

        if self.region_simplify not in _REGION_SIMPLIFY:
            raise LocatedError(op, f"canonicalize: region-simplify must be one of "
                                   f"{', '.join(_REGION_SIMPLIFY)}, got '{self.region_simplify}'")
        pattern = GreedyRewritePatternApplier([CanonicalizationRewritePattern()], ctx=ctx,
                                              folding_enabled=True)
        walker = PatternRewriteWalker(pattern, walk_reverse=not self.top_down)
        # xDSL's walker repeats its rounds until nothing changes; MLIR's greedy driver stops
        # after max-iterations. The walker's round and listener are reused as they are.
        listener = walker._get_rewriter_listener()  # pyright: ignore[reportPrivateUsage]
        region = op.body
        rounds = 0
        while self.max_iterations < 0 or rounds < self.max_iterations:
            rounds += 1
            walker._populate_worklist(region)  # pyright: ignore[reportPrivateUsage]
            changed = walker._process_worklist(listener)  # pyright: ignore[reportPrivateUsage]
            if self.region_simplify != "disabled":
                changed |= region_dce(region, listener)
            if not changed:
                return
        if self.test_convergence:
            raise LocatedError(op, f"canonicalize did not converge within {self.max_iterations} "
                                   f"iterations (test-convergence)")

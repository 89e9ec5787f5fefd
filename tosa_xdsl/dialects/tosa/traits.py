"""Traits of the TOSA operators that xDSL does not provide."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait


@dataclass(frozen=True, init=False)
class CanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    """Declares an op's canonicalization patterns, by class name, in the order they are tried.

    The patterns live in tosa_xdsl.passes.canonicalization_patterns (as xDSL's live in
    xdsl.transforms.canonicalization_patterns) and are imported on first use, as xDSL's arith
    traits do: they build on the interpreter's numerics, which the dialect must not import.
    xDSL's `canonicalize` pass finds them through this trait like any other dialect's.
    """

    names: tuple[str, ...]

    def __init__(self, *names: str):
        object.__setattr__(self, "names", names)

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        return _patterns(self.names)

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()  # per declaration, not per trait class: see get_patterns


@cache
def _patterns(names: tuple[str, ...]) -> tuple[RewritePattern, ...]:
    from tosa_xdsl.passes import canonicalization_patterns

    return tuple(getattr(canonicalization_patterns, name)() for name in names)

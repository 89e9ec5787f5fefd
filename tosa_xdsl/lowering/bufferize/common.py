"""What every one-shot-bufferize module shares: the pass name, its located diagnostics and
the tensor -> memref type helpers."""

from __future__ import annotations

from functools import lru_cache, partial

from xdsl.dialects.builtin import MemRefType, NoneAttr, TensorType, UnrankedTensorType
from xdsl.ir import Attribute

from tosa_xdsl.lowering.preconditions import cannot_lower

PASS = "one-shot-bufferize"


fail = partial(cannot_lower, PASS)  # fail(op, reason) -> LocatedError "<PASS>: cannot lower '<op>': <reason>"


def is_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType | UnrankedTensorType)


# made once per tensor type (compile time, issue 15): MemRefType's constructor builds an IRDL
# constraint to check its shape argument, ~1/8 of one-shot-bufferize on the example model
@lru_cache(maxsize=1024)
def buffer_type(t: TensorType) -> MemRefType:
    """The memref a (static) tensor type bufferizes to: same shape and element type, identity layout."""
    return MemRefType(t.element_type, list(t.get_shape()))


def is_identity(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and isinstance(t.layout, NoneAttr)

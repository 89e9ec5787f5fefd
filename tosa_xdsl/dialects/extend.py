"""Extending one of xDSL's dialects with ops it lacks, without editing site-packages."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation


def extend_dialect(base: Dialect, extra: Sequence[type[IRDLOperation]]) -> Dialect:
    """A new Dialect with `base`'s ops and attributes plus the ops of `extra` that `base`
    does not define already (a newer xDSL may add them: its own definition then wins)."""
    have = {op.name for op in base.operations}
    ops = [*base.operations, *(op for op in extra if op.name not in have)]
    return Dialect(base.name, ops, list(base.attributes))

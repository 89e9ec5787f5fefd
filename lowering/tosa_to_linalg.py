"""`tosa-to-linalg`: every TOSA operator that is not a convolution/matmul/pool/transpose (those
are `tosa-to-linalg-named`'s), not data movement owned by `tosa-to-tensor`, not control flow or
scatter (`tosa-to-scf`), not a variable (`tosa-to-mlprogram`) and not a constant
(`tosa-to-arith`) becomes linalg (generic, fill, reduce) with arith/math bodies.

The per-op lowerings live by kind:
  linalg_elementwise.py  elementwise, comparison, activation and type conversion (cast) ops
  linalg_tensor_ops.py   reductions, argmax, rescale, table, resize, gather, fft2d/rfft2d,
                         reverse, tile, identity
Each module exports `LOWERINGS: {OpClass: lower(op) -> None}`; a lowering replaces the op with
the Rewriter and raises LocatedError (a located diagnostic naming the op) when it cannot.

tosa.custom has no semantics to lower to: the pass stops with a diagnostic naming it, as it
does for any dynamic dimension (static shapes are required at this stage).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from tosa_xdsl.lowering.static_shapes import require_static
from tosa_xdsl.ops.custom import CustomOp
from tosa_xdsl.diagnostics import LocatedError

PASS = "tosa-to-linalg"


def lowerings() -> dict[type[Operation], Callable[[Operation], None]]:
    from tosa_xdsl.lowering import linalg_elementwise, linalg_tensor_ops

    table: dict[type[Operation], Callable[[Operation], None]] = {}
    table.update(linalg_elementwise.LOWERINGS)
    table.update(linalg_tensor_ops.LOWERINGS)
    return table


@dataclass(frozen=True)
class TosaToLinalgPass(ModulePass):
    """TOSA elementwise/reduction/data ops -> linalg.generic and friends (static shapes)."""

    name: ClassVar[str] = "tosa-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        table = lowerings()
        for o in list(op.walk()):
            if isinstance(o, CustomOp):
                raise LocatedError(
                    o,
                    f"{PASS}: cannot lower 'tosa.custom' (operator_name "
                    f"{o.properties['operator_name']}): a custom operator has no TOSA semantics to lower",
                )
            lower = table.get(type(o))
            if lower is not None:
                require_static(o, PASS)
                lower(o)

"""`tosa-to-linalg`: every TOSA operator that is not a convolution/matmul/pool/transpose (those
are `tosa-to-linalg-named`'s), not data movement owned by `tosa-to-tensor`, not control flow or
scatter (`tosa-to-scf`), not a variable (`tosa-to-mlprogram`) and not a constant
(`tosa-to-arith`) becomes linalg (generic, fill, reduce) with arith/math bodies.

The per-op lowerings live by spec chapter:
  linalg_elementwise.py      2.4 activation, 2.5 elementwise binary (but TABLE), 2.6
                             elementwise unary, 2.7 SELECT, 2.8 comparison, 2.13.1 CAST
  linalg_tensor.py           2.3 ARGMAX, FFT2D, RFFT2D (the rest of 2.3 is tosa-to-linalg-named's)
  linalg_table.py            2.5.17 TABLE
  linalg_reduction.py        2.9 REDUCE_*
  linalg_data_layout.py      2.10 REVERSE, TILE
  linalg_scatter_gather.py   2.11.1 GATHER
  linalg_image.py            2.12.1 RESIZE
  linalg_type_conversion.py  2.13.2 RESCALE
  linalg_data_nodes.py       2.14.2 IDENTITY
  linalg_common.py           helpers the chapter modules share (not linalg_elementwise.py)
Each module exports `LOWERINGS: {OpClass: lower(op) -> None}`; a lowering replaces the op with
the Rewriter and raises LocatedError (a located diagnostic naming the op) when it cannot.

tosa.custom has no semantics to lower to: the pass stops with a diagnostic naming it, as it
does for a dynamic dimension the op's lowering does not handle (the modules' `DYNAMIC`
tables say which operators lower which dynamic dims; docs/lowering.md lists them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.dialects.tosa.ops.custom import CustomOp
from tosa_xdsl.lowering.preconditions import collect_dynamic, collect_lowerings, require_static

PASS = "tosa-to-linalg"


def lowerings() -> dict[type[Operation], Callable[[Operation], None]]:
    """Every per-chapter module of this package that declares `LOWERINGS` contributes its table
    (discovered, so a new chapter module needs no registration here)."""
    from tosa_xdsl.lowering import tosa_to_linalg

    return collect_lowerings(tosa_to_linalg)


@dataclass(frozen=True)
class TosaToLinalgPass(ModulePass):
    """TOSA elementwise/reduction/data ops -> linalg.generic and friends (static shapes)."""

    name: ClassVar[str] = "tosa-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from tosa_xdsl.lowering import tosa_to_linalg

        table = lowerings()
        dynamic = collect_dynamic(tosa_to_linalg)
        for o in list(op.walk()):
            if isinstance(o, CustomOp):
                raise LocatedError(
                    o,
                    f"{PASS}: cannot lower 'tosa.custom' (operator_name "
                    f"{o.properties['operator_name']}): a custom operator has no TOSA semantics to lower",
                )
            lower = table.get(type(o))
            if lower is not None:
                require_static(o, PASS, dynamic.get(type(o)))
                lower(o)

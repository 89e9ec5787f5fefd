"""`tosa-to-linalg-named`: the TOSA tensor operators (spec 2.3) and TRANSPOSE (2.10.7) -> linalg
named ops on tensors, as upstream MLIR's pass of the same name, for every row of each
operator's Supported Data Types table. This module is the pass and its dispatch; the per-op
lowerings live by kind:

  named_convolution.py  CONV2D, CONV3D, DEPTHWISE_CONV2D, TRANSPOSE_CONV2D
  named_pooling.py      AVG_POOL2D, MAX_POOL2D
  named_matmul.py       MATMUL
  named_transpose.py    TRANSPOSE
  named_common.py       what they share: fail(), zero points, acc_type, padding, fill, transpose

Each module exports `LOWERINGS: {OpClass: lower(op) -> None}`; the pass's option
prefer-conv2d-kernel-layout-hwcf replaces CONV2D's entry.

Zero points must be tosa.const values (they select the _q variants and become arith.constant
scalars); shapes must be static. Anything else stops the pass with a located diagnostic naming
the op, never a traceback and never a TOSA op silently left behind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.dialects.tosa.ops.tensor import Conv2DOp
from tosa_xdsl.lowering.preconditions import collect_dynamic, collect_lowerings, require_static
from tosa_xdsl.lowering.tosa_to_linalg_named.common import PASS
from tosa_xdsl.lowering.tosa_to_linalg_named.convolution import lower_conv2d


def lowerings(prefer_conv2d_kernel_layout_hwcf: bool) -> dict[type[Operation], Callable[[Operation], None]]:
    from tosa_xdsl.lowering import tosa_to_linalg_named

    table = collect_lowerings(tosa_to_linalg_named)
    if prefer_conv2d_kernel_layout_hwcf:
        table[Conv2DOp] = lambda c: lower_conv2d(c, hwcf=True)
    return table


@dataclass(frozen=True)
class TosaToLinalgNamedPass(ModulePass):
    """tosa.conv2d/conv3d/depthwise_conv2d/transpose_conv2d/matmul/max_pool2d/avg_pool2d/
    transpose -> linalg named ops (+ tensor.pad, linalg.fill, linalg.generic)."""

    name: ClassVar[str] = "tosa-to-linalg-named"

    prefer_conv2d_kernel_layout_hwcf: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from tosa_xdsl.lowering import tosa_to_linalg_named

        table = lowerings(self.prefer_conv2d_kernel_layout_hwcf)
        dynamic = collect_dynamic(tosa_to_linalg_named)
        consts: list[Operation] = []
        for o in list(op.walk()):
            lower = table.get(type(o))
            if lower is None:
                continue
            require_static(o, PASS, dynamic.get(type(o)))
            consts.extend(v.owner for v in o.operands if isinstance(v.owner, ConstOp))
            lower(o)
        # the zero points were read at compile time: their tosa.const ops are now dead
        for c in dict.fromkeys(consts):
            if c.parent is not None and not c.results[0].uses:
                Rewriter.erase_op(c)


__all__ = ["TosaToLinalgNamedPass"]

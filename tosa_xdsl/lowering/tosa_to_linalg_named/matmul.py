"""`tosa-to-linalg-named` for spec 2.3.7 MATMUL: linalg.fill 0 + linalg.batch_matmul, or
linalg.quantized_batch_matmul when a zero point is non-zero.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects import linalg_ext as named
from tosa_xdsl.dialects.tosa.ops.tensor import MatMulOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering.linalg_build import element_type, shape_of
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg_named.common import (
    filled,
    is_unsigned,
    zero_extended,
    zero_point,
    zp_operand,
)


def lower_matmul(op: MatMulOp) -> None:
    """Spec 2.3.7: acc_t is the output type (i32, i48, fp16, fp32); inputs are cast to it
    (extsi/extf) inside the named op, zero points subtracted there too."""
    new_ops: list[Operation] = []
    azp = zero_point(op, op.a_zp, "a_zp")
    bzp = zero_point(op, op.b_zp, "b_zp")
    out_t = element_type(op.output)
    if lb.is_dynamic(op.output):
        # output [N, H, W]: N and H are a's dims 0 and 1, W is b's dim 2 (upstream's tensor.dim)
        sources = ((op.a, 0), (op.a, 1), (op.b, 2))
        empty = lb.dynamic_empty(lb.dims_of(op.output), out_t,
                                 lambda d: lb.dim(sources[d][0], sources[d][1], new_ops), new_ops)
        c = lb.constant(0, out_t)
        f = lb.fill(c.result, empty)
        new_ops += [c, f]
        init = f.res[0]
    else:
        init = filled(shape_of(op.output), out_t, 0, new_ops)
    ins = [op.a, op.b]
    if is_unsigned(op.a) and isinstance(out_t, IntegerType):
        # upstream's unsigned rows (zero points 0 by ERROR_IF): the zero-extended values
        ins = [zero_extended(v, out_t, new_ops) for v in ins]
    cls: type[named.BatchMatmulOp] | type[named.QuantizedBatchMatmulOp] = named.BatchMatmulOp
    if azp != 0 or bzp != 0:
        ins += [zp_operand(int(azp), new_ops), zp_operand(int(bzp), new_ops)]
        cls = named.QuantizedBatchMatmulOp
    mm = cls(ins, [init], [init.type], hidden_region=cls.get_hidden_region(ins, [init]))
    new_ops.append(mm)
    Rewriter.replace_op(op, new_ops, [mm.res[0]])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {MatMulOp: lower_matmul}

# N, H, C, W may all be dynamic: the named op takes its loop bounds from its operands' dims
DYNAMIC: dict[type[Operation], DynamicDims] = {MatMulOp: EVERY_DIM}

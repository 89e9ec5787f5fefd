"""`tosa-to-linalg` for spec 2.9, the reductions (REDUCE_ALL, REDUCE_ANY, REDUCE_MAX,
REDUCE_MIN, REDUCE_PRODUCT, REDUCE_SUM): tensor.empty + linalg.fill(init) + linalg.generic
(reduction over `axis`, output map without it) + tensor.expand_shape back to the size-1 axis.
bf16 sums and products accumulate in fp32 and are rounded once at the end; REDUCE_MAX/MIN
combine with the spec's apply_max_s/apply_min_s and their nan_mode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    UnrealizedConversionCastOp,
    f32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops import reduction as red
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering import numerics_ir as nir
from tosa_xdsl.lowering.preconditions import checked_axis
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg.common import (
    PASS,
    float_extreme,
    is_float,
    prop,
    reduce_along,
)


def expand_axis(src: SSAValue, out_shape: Sequence[int], axis: int) -> list[Operation]:
    """tensor.expand_shape of a rank-(r-1) tensor to `out_shape` (size 1 at `axis`); a rank-0
    source goes through tensor.reshape (xDSL's expand_shape verifier rejects the empty
    reassociation MLIR accepts there)."""
    elem = lb.element_type(src)
    out_t = lb.tensor_type(elem, out_shape)
    rank = len(out_shape)
    if rank == 1:
        shape_t = TensorType(IndexType(), [1])
        c = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(shape_t, [1]))
        return [c, tensor.ReshapeOp(src, c.result, out_t)]
    groups: list[list[int]] = []
    for d in range(rank):
        if d == axis:
            continue
        groups.append([d])
    # the size-1 axis joins its neighbour's group (the previous one, or the first)
    if axis == 0:
        groups[0].insert(0, 0)
    else:
        next(g for g in groups if g[-1] == axis - 1).append(axis)
    reassoc = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])
    if any(d < 0 for d in out_shape):
        # dynamic dims: output_shape takes the source's tensor.dim (upstream's form)
        ops: list[Operation] = []
        src_dims = [d for d in range(rank) if d != axis]
        sizes = [lb.dim(src, src_dims.index(d), ops) for d in range(rank) if out_shape[d] < 0]
        static = [d if d >= 0 else DYNAMIC_INDEX for d in out_shape]
        return [*ops, tensor.ExpandShapeOp(src, sizes, reassoc, static, out_t)]
    return [tensor.ExpandShapeOp(src, [], reassoc, list(out_shape), out_t)]


def lower_reduction(op: Operation) -> None:
    x = op.input
    shape = lb.dims_of(x)
    axis = checked_axis(op, prop(op, "axis"), len(shape), PASS)
    elem = lb.element_type(x)
    pre: list[Operation] = []
    unsigned = isinstance(elem, IntegerType) and elem.signedness.data == Signedness.UNSIGNED
    if unsigned:
        # upstream's unsigned rows (verification/producer_types.py): reduced on the signless
        # bits (unrealized casts, as upstream), MAX/MIN comparing unsigned
        elem = IntegerType(elem.width.data)
        pre.append(UnrealizedConversionCastOp.get([x], [lb.tensor_type(elem, shape)]))
        x = pre[-1].results[0]
    fp = is_float(elem)
    nan_mode = prop(op, "nan_mode", "PROPAGATE")
    acc_t = elem
    kind = type(op)
    if kind is red.ReduceSumOp:
        # bf16 accumulates in fp32 (the acc_t of REDUCE_SUM's bf16 row), rounded once at the end
        acc_t = f32 if isinstance(elem, BFloat16Type) else elem
        init: int | float = 0

        def combine(b, v, acc):
            return b.insert(arith.AddfOp(v, acc) if fp else arith.AddiOp(v, acc)).result
    elif kind is red.ReduceProductOp:
        acc_t = f32 if isinstance(elem, BFloat16Type) else elem
        init = 1

        def combine(b, v, acc):
            return b.insert(arith.MulfOp(acc, v) if fp else arith.MuliOp(acc, v)).result
    elif kind in (red.ReduceAllOp, red.ReduceAnyOp):
        is_all = kind is red.ReduceAllOp
        init = 1 if is_all else 0

        def combine(b, v, acc):
            if elem.width.data != 1:
                # integers (upstream's rows; its lowering refuses them): the spec's
                # `acc && value` / `acc || value`, 1 or 0 in the type
                nz = b.insert(arith.CmpiOp(v, nir.const(b, 0, elem), "ne")).result
                v = b.insert(arith.ExtUIOp(nz, elem)).result
            return b.insert((arith.AndIOp if is_all else arith.OrIOp)(v, acc)).result
    else:
        is_max = kind is red.ReduceMaxOp
        if fp:
            # spec 2.9.3/2.9.4: NaN for IGNORE (so any number replaces it), else the extreme
            init = float("nan") if nan_mode == "IGNORE" else float_extreme(elem, is_max)
        elif unsigned:
            init = 0 if is_max else -1  # the unsigned extremes' bits
            ucls = arith.MaxUIOp if is_max else arith.MinUIOp

            def combine(b, v, acc):
                return b.insert(ucls(acc, v)).result
        else:
            bits = elem.width.data
            init = -(1 << (bits - 1)) if is_max else (1 << (bits - 1)) - 1
        if not unsigned:
            helper = nir.apply_max_s if is_max else nir.apply_min_s

            def combine(b, v, acc):
                return helper(b, acc, v, nan_mode)  # acc = apply_max_s(acc, value, nan_mode)

    def body(b, args):
        v, acc = args
        if acc_t != elem:
            v = b.insert(arith.ExtFOp(v, acc_t)).result
        return [combine(b, v, acc)]

    ops, (res,) = reduce_along(x, axis, [acc_t], [init], body)
    if acc_t != elem:
        rshape = lb.dims_of(res)
        more, res = lb.elementwise([res], rshape, elem,
                                   lambda b, a: [b.insert(arith.TruncFOp(a[0], elem)).result])
        ops += more
    out_shape = [1 if i == axis else d for i, d in enumerate(shape)]
    exp = expand_axis(res, out_shape, axis)
    if unsigned:
        exp.append(UnrealizedConversionCastOp.get([exp[-1].results[0]], [op.output.type]))
    Rewriter.replace_op(op, pre + ops + exp, [exp[-1].results[0]])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {cls: lower_reduction for cls in red.OPS}

# every dim may be dynamic: the accumulator's tensor.empty takes the input's tensor.dim
DYNAMIC: dict[type[Operation], DynamicDims] = {cls: EVERY_DIM for cls in red.OPS}

"""`tosa-to-linalg` for spec 2.5.17 TABLE, the one elementwise-binary operator that is not a
plain arith op on two values (the rest of 2.5 is in linalg_elementwise.py): a linalg.generic
over the input that reads the table with tensor.extract. i8: table[x + 128]; i16: the
513-entry table with the spec's 9.7 fixed-point interpolation (1.12.5 apply_lookup_s).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import i32
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.elementwise_binary import TableOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering import numerics_ir as nir
from tosa_xdsl.lowering.preconditions import DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg.common import cidx, fail, signless_int, to_index


def lower_table(op: TableOp) -> None:
    x, table = op.input1, op.table
    shape = lb.dims_of(x)
    in_t = signless_int(op, lb.element_type(x), "input1")
    out_t = lb.element_type(op.output)
    n = lb.shape_of(table)
    bits = in_t.width.data
    if bits == 8:
        if n != (256,):
            raise fail(op, "an i8 table must have 256 entries")

        def body(b: Builder, args):
            v = nir.sign_extend(b, args[0], i32)
            k = b.insert(arith.AddiOp(v, nir.const(b, 128, i32))).result
            return [b.insert(tensor.ExtractOp(table, [to_index(b, k)], out_t)).result]
    elif bits == 16:
        if n != (513,):
            raise fail(op, "an i16 table must have 513 entries")

        def body(b: Builder, args):
            # spec 1.12.5 apply_lookup_s: 9.7 fixed point index, linear interpolation
            v = nir.sign_extend(b, args[0], i32)
            biased = b.insert(arith.AddiOp(v, nir.const(b, 32768, i32))).result
            k = b.insert(arith.ShRSIOp(biased, nir.const(b, 7, i32))).result
            frac = b.insert(arith.AndIOp(v, nir.const(b, 0x7F, i32))).result
            k_idx = to_index(b, k)
            k1_idx = b.insert(arith.AddiOp(k_idx, cidx(b, 1))).result
            base = nir.sign_extend(b, b.insert(tensor.ExtractOp(table, [k_idx], in_t)).result, i32)
            nxt = nir.sign_extend(b, b.insert(tensor.ExtractOp(table, [k1_idx], in_t)).result, i32)
            slope = b.insert(arith.SubiOp(nxt, base)).result
            hi = b.insert(arith.ShLIOp(base, nir.const(b, 7, i32))).result
            lo = b.insert(arith.MuliOp(slope, frac)).result
            return [nir.sign_extend(b, b.insert(arith.AddiOp(hi, lo)).result, out_t)]
    else:
        raise fail(op, f"no TABLE row for {in_t}")
    ops, res = lb.elementwise([x], shape, out_t, body)
    Rewriter.replace_op(op, ops, [res])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {TableOp: lower_table}

# input1 and output may have any dynamic dim (upstream's table8_dyn): the result's tensor.empty
# takes the input's tensor.dim; the table keeps its static 256/513 entries (a run-time size
# could let an index read past it)
DYNAMIC: dict[type[Operation], DynamicDims] = {TableOp: DynamicDims(
    "input1 and output (the table stays static)", {("operand", 0): None, ("result", 0): None})}

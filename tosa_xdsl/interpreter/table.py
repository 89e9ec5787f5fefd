"""Spec 2.5.17 TABLE: int8 256-entry lookup, int16 513-entry lookup with the 9.7 fixed-point
linear interpolation of apply_lookup_s (1.12.5), both exact (numerics.table_lookup)."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as EB
from tosa_xdsl.interpreter.common import tname

TABLE_SIZE = {"i8": 256, "i16": 513}


def table(x, tbl, *, in_t: str) -> np.ndarray:
    """TABLE: i8 -> i8 (table[x + 128]); i16 -> i32 (apply_lookup_s, 16.7 fixed point)."""
    tbl = np.asarray(tbl).reshape(-1)
    nx.error_if(in_t not in TABLE_SIZE, f"TABLE: unsupported input type {in_t}")
    nx.require(tbl.size == TABLE_SIZE[in_t], "length(table) == TABLE_SIZE")
    out = nx.table_lookup(np.asarray(x), tbl, in_t)
    return np.asarray(out).astype(np.int8 if in_t == "i8" else np.int32, copy=False)


@register_impls
class TableFunctions(InterpreterFunctions):
    @impl(EB.TableOp)
    def run_table(self, interpreter, op, args):
        x, tbl = args
        return (table(x, tbl, in_t=tname(op.input1)),)

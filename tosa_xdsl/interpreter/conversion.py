"""Spec 2.13 Type Conversion: CAST and RESCALE, through numerics.cast / numerics.rescale."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops.type_conversion import CastOp, RescaleOp
from tosa_xdsl.interpreter.common import prop, rdtype, tname


@register_impls
class ConversionFunctions(InterpreterFunctions):
    @impl(CastOp)
    def run_cast(self, interpreter, op, args):
        (x,) = args
        in_t, out_t = tname(op.input), tname(op.output)
        if prop(op, "input_unsigned", False) and in_t in ("i8", "i16"):
            in_t = "u" + in_t
        if in_t == out_t:
            return (x,)
        return (np.asarray(nx.cast(x, in_t, out_t)).astype(rdtype(op), copy=False),)

    @impl(RescaleOp)
    def run_rescale(self, interpreter, op, args):
        x, multiplier, shift, input_zp, output_zp = args
        in_t, out_t = tname(op.input), tname(op.output)
        per_channel = prop(op, "per_channel", False)
        scale32 = prop(op, "scale32", False)
        nc = x.shape[-1] if (per_channel and x.ndim) else 1
        m = np.asarray(multiplier).reshape(-1)
        s = np.asarray(shift).reshape(-1)
        nx.error_if(m.size != nc or s.size != nc, "shape(multiplier) != [NC] || shape(shift) != [NC]")
        nx.error_if(np.asarray(input_zp).size != 1 or np.asarray(output_zp).size != 1,
                    "shape(input_zp) != [1] || shape(output_zp) != [1]")
        out = nx.rescale(
            x, m, s, input_zp, output_zp, in_t=in_t, out_t=out_t, scale32=scale32,
            rounding_mode=prop(op, "rounding_mode", "SINGLE_ROUND"), per_channel=per_channel,
            input_unsigned=prop(op, "input_unsigned", False),
            output_unsigned=prop(op, "output_unsigned", False),
        )
        # unsigned outputs come back as uint8/uint16: keep their bits in the signless type
        return (nx.truncate(np.asarray(out).astype(np.int64), out_t),)

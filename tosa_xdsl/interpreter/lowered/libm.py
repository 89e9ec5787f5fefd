"""The C library functions that lowered IR calls (`convert-math-to-libm` turns `math.erf` into
`func.call @erff`), computed exactly as the interpreter's own `math` ops compute them, so a
call and the op it replaced give the same bits. Not an implementation module: the func.call
implementation (interpreter/control_flow.py) looks up declarations without a body here."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tosa_xdsl.numerics import (
    erf_fp64 as erf,  # float64 in, float64 out: tosa.erf's own
)


def _unary(dtype) -> Callable:
    def call(x):
        return np.asarray(erf(np.asarray(x, dtype)), np.float64).astype(dtype)

    return call


# symbol -> function of the arguments (numpy values of the declared types)
FUNCTIONS: dict[str, Callable] = {
    "erff": _unary(np.float32),
    "erf": _unary(np.float64),
}

"""REQUIRE statements (spec 1.4: a failed REQUIRE makes the graph's result UNPREDICTABLE; it
does not make the graph erroneous) that constants decide statically. Reported as located
warnings, never errors:

- INTDIV#R1 `value2 != 0`: a constant divisor with a zero element;
- ARITHMETIC_RIGHT_SHIFT / LOGICAL_LEFT_SHIFT / LOGICAL_RIGHT_SHIFT #R1: a constant shift
  outside [0, bits(in_out_t) - 1];
- MUL#R1 `0 <= shift <= 63`, MUL#R2 `is_same<in_t,int32_t>() || shift == 0`;
- POW#R1 `value1 >= 0`, POW#R3/#R4 NaN / infinite constant inputs, POW#R2 `value1 > 0 ||
  value2 > 0` when both inputs are constant;
- GATHER#R1 / SCATTER#R1 `0 <= k < K`: constant indices out of range; SCATTER#R2: duplicate
  constant indices in one batch (an output written twice), or W > K (some output is always
  written twice: "it follows that K >= W");
- VARIABLE_READ / VARIABLE_WRITE `variable_tensor != NULL`: no tosa.variable of that name;
- RESCALE (apply_scale_32/16 in 4.5.5): constant multiplier < 0, constant shift outside [2, 62];
- ARGMAX (TOSA 1.0.2) `i <= maximum<out_t>()`: an axis longer than maximum<out_t>() + 1, so
  the index of the maximum may not fit out_t (data-dependent: a warning that it can fail).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation

from tosa_xdsl.verification.common import element
from tosa_xdsl.verification.constants import const_tensor

_SHIFT_BITS = {"i8": 8, "i16": 16, "i32": 32}


def _values(op: Operation, name: str) -> np.ndarray | None:
    value = getattr(op, name, None)
    if value is None:
        return None
    array = const_tensor(value)
    if array is None or array.dtype.kind not in "iufb":
        return None
    return array


def _fmt(values: np.ndarray, limit: int = 4) -> str:
    flat = values.reshape(-1)
    shown = ", ".join(str(v.item()) for v in flat[:limit])
    return shown + (", ..." if flat.size > limit else "")


def check_op(op: Operation, warn: Callable[[str], None]) -> None:
    spec = getattr(op, "SPEC_NAME", "")
    check = _CHECKS.get(spec)
    if check is not None:
        check(op, lambda cond, detail: warn(
            f"'{op.name}' op REQUIRE({cond}) does not hold: {detail}; the result of the graph is "
            "unpredictable"))


def _intdiv(op, warn):
    b = _values(op, "input2")
    if b is not None and (b == 0).any():
        warn("value2 != 0", "the constant divisor input2 has a zero element")


def _shift(op, warn):
    b = _values(op, "input2")
    bits = _SHIFT_BITS.get(element(op.input1) or "")
    if b is None or bits is None:
        return
    bad = b[(b < 0) | (b > bits - 1)]
    if bad.size:
        warn(f"0 <= value2 && value2 <= {bits - 1}",
             f"constant shift input2 has {_fmt(bad)} (in_out_t is i{bits})")


def _mul(op, warn):
    s = _values(op, "shift")
    if s is None:
        return
    bad = s[(s < 0) | (s > 63)]
    if bad.size:
        warn("0 <= shift && shift <= 63", f"constant shift is {_fmt(bad)}")
    elif element(op.input1) != "i32" and (s != 0).any():
        warn("is_same<in_t,int32_t>() || shift == 0",
             f"constant shift is {_fmt(s[s != 0])} for in_t {element(op.input1)}")


def _pow(op, warn):
    a, b = _values(op, "input1"), _values(op, "input2")
    for name, v in (("value1", a), ("value2", b)):
        if v is not None and v.dtype.kind == "f":
            if np.isnan(v).any():
                warn("!isnan(value1) && !isnan(value2)", f"constant {name} has a NaN")
                return
            if np.isinf(v).any():
                warn("is_finite(value1) && is_finite(value2)", f"constant {name} is infinite")
                return
    if a is not None and (a < 0).any():
        warn("value1 >= 0", f"the constant base input1 has {_fmt(a[a < 0])}")
        return
    if a is not None and b is not None:
        try:
            both = (np.broadcast_to(a, np.broadcast_shapes(a.shape, b.shape)) <= 0) & \
                   (np.broadcast_to(b, np.broadcast_shapes(a.shape, b.shape)) <= 0)
        except ValueError:
            return
        if both.any():
            warn("value1 > 0 || value2 > 0", "a constant base 0 is raised to a power <= 0")


def _index_bound(op, warn, values_name: str):
    idx = _values(op, "indices")
    values = getattr(op, values_name)
    shape = values.type.get_shape() if hasattr(values.type, "get_shape") else None
    if idx is None or shape is None or len(shape) != 3 or shape[1] < 0:
        return None
    K = shape[1]
    bad = idx[(idx < 0) | (idx >= K)]
    if bad.size:
        warn("0 <= k && k < K", f"constant indices has {_fmt(bad)} with K = {K}")
        return None
    return idx


def _gather(op, warn):
    _index_bound(op, warn, "values")


def _scatter(op, warn):
    values, indices = op.values_in.type, op.indices.type
    if hasattr(values, "get_shape") and hasattr(indices, "get_shape"):
        vs, ins = values.get_shape(), indices.get_shape()
        if len(vs) == 3 and len(ins) == 2 and 0 <= vs[1] < ins[1]:
            # 2.11.2: each output index is written at most once, "it follows that K >= W"
            warn("output_modified[n,k,c] == false",
                 f"W = {ins[1]} indices per batch but K = {vs[1]}: some output is written twice")
            return
    idx = _index_bound(op, warn, "values_in")
    if idx is None or idx.ndim != 2:
        return
    for n, row in enumerate(idx):
        if len(set(row.tolist())) != len(row):
            warn("output_modified[n,k,c] == false",
                 f"constant indices of batch {n} repeat an index, so an output is written twice")
            return


def _variable_access(op, warn):
    if op.variable() is None:  # 2.17.2/3: variable_tensor_lookup finds nothing
        warn("variable_tensor != NULL", f"no tosa.variable @{op.properties['name'].data} is declared")


def _rescale(op, warn):
    m, s = _values(op, "multiplier"), _values(op, "shift")
    if m is not None and (m < 0).any():
        warn("multiplier >= 0", f"constant multiplier has {_fmt(m[m < 0])}")
    if s is not None and ((s < 2) | (s > 62)).any():
        warn("2 <= shift && shift <= 62", f"constant shift has {_fmt(s[(s < 2) | (s > 62)])}")


def _argmax(op, warn):
    from tosa_xdsl.ir.access import static_dim
    from tosa_xdsl.numerics import maximum_s

    axis = op.properties.get("axis")
    out_t = element(op.output)
    if axis is None or out_t is None or not out_t.startswith("i"):
        return
    length = static_dim(op.input, axis.value.data)
    if length is not None and length - 1 > maximum_s(out_t):
        warn("i <= maximum<out_t>()",
             f"the axis has {length} elements, so the index of the maximum can exceed "
             f"{maximum_s(out_t)} ({out_t})")


_CHECKS: dict[str, Callable] = {
    "INTDIV": _intdiv, "ARITHMETIC_RIGHT_SHIFT": _shift, "LOGICAL_LEFT_SHIFT": _shift,
    "LOGICAL_RIGHT_SHIFT": _shift, "MUL": _mul, "POW": _pow, "GATHER": _gather,
    "SCATTER": _scatter, "RESCALE": _rescale, "ARGMAX": _argmax,
    "VARIABLE_READ": _variable_access, "VARIABLE_WRITE": _variable_access,
}

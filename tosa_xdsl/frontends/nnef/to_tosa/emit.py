"""MLIR text for a TOSA function: SSA names, tensor types, constants, and the shape helpers
every mapping needs (rank alignment for broadcasting, NCHW <-> NHWC transposes)."""

from __future__ import annotations

import math

import numpy as np

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.extents import is_dyn, plain

MAX_CONST_ELEMENTS = 1 << 24

ELEMENT = {"real": "f32", "int": "i32", "bool": "i1", "i8": "i8", "i16": "i16", "i48": "i48"}
NUMPY = {"real": np.float32, "int": np.int32, "bool": np.bool_, "i8": np.int8, "i16": np.int16,
         "i48": np.int64}     # i48: a 16-bit convolution's zero bias (no numpy type of its own)
# the storage types of quantized tensors (to_tosa/integer.py) besides "int" (i32)
STORAGE = {8: "i8", 16: "i16", 32: "int"}
# ops that move data without computing: a quantized operand's zero point stays with it
MOVES = {"tosa.transpose", "tosa.reshape", "tosa.slice", "tosa.concat", "tosa.tile", "tosa.identity"}


def ttype(shape, dtype: str) -> str:
    el = ELEMENT[dtype]
    return f"tensor<{'x'.join('?' if is_dyn(d) else str(d) for d in shape)}{'x' if shape else ''}{el}>"


def dense_text(arr: np.ndarray) -> str:
    if arr.size == 0:  # MLIR's form of an empty literal (`dense<[]>` infers shape [0] only)
        return ""
    flat = arr.reshape(-1)
    if arr.dtype == np.bool_:
        vals = ["true" if x else "false" for x in flat]
    elif arr.dtype.kind == "f":
        vals = [repr(float(x)) if np.isfinite(x) else ("0x7F800000" if x > 0 else "0xFF800000" if x < 0
                                                       else "0x7FC00000") for x in flat]
    else:
        vals = [str(int(x)) for x in flat]
    if len(vals) and all(v == vals[0] for v in vals):
        return vals[0]

    def nest(flat, shape):
        if len(shape) <= 1:
            return "[" + ", ".join(flat) + "]"
        step = len(flat) // shape[0] if shape[0] else 0
        return "[" + ", ".join(nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"
    return nest(vals, list(arr.shape))


class Value:
    """An SSA value; `zp` is the zero point of a quantized integer value (0 otherwise), the
    operand the TOSA operators computing on it take (CONV2D's input_zp, ...)."""
    __slots__ = ("dtype", "explicit", "shape", "ssa", "zp")

    def __init__(self, ssa: str, shape: list[int], dtype: str, explicit: str | None = None, zp: int = 0):
        # run-time extents are None here (a `?` in the type), whatever symbol they had
        self.ssa, self.shape, self.dtype, self.explicit, self.zp = ssa, plain(shape), dtype, explicit, zp

    @property
    def type(self) -> str:
        return self.explicit or ttype(self.shape, self.dtype)


class Emitter:
    def __init__(self):
        self.lines: list[str] = []
        self.n = 0

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def op(self, name: str, operands: list, result_shape, result_dtype: str, attrs: str = "") -> Value:
        ssa = self.fresh()
        ins = ", ".join(o.ssa for o in operands)
        types = ", ".join(o.type for o in operands)
        out = ttype(result_shape, result_dtype)
        attr = f" {{{attrs}}}" if attrs else ""
        self.lines.append(f"    {ssa} = {name} {ins}{attr} : ({types}) -> {out}")
        zp = operands[0].zp if name in MOVES and operands and operands[0].dtype == result_dtype else 0
        return Value(ssa, result_shape, result_dtype, zp=zp)

    def const(self, values, shape, dtype: str) -> Value:
        if dtype not in NUMPY:
            raise NnefError(None, f"'{dtype}' tensors have no TOSA form")
        if math.prod(shape) > MAX_CONST_ELEMENTS:
            raise NnefError(None, f"a constant of shape {list(shape)} is too large to materialize "
                            f"(limit {MAX_CONST_ELEMENTS} elements)")
        try:
            arr = np.asarray(values, dtype=NUMPY[dtype])
        except (OverflowError, ValueError, TypeError):  # e.g. an attribute's 2^31 as an int32 zero point
            raise NnefError(None, f"value {values!r} does not fit a '{dtype}' tensor") from None
        arr = np.full(shape, arr.reshape(-1)[0], dtype=arr.dtype) if arr.size == 1 else arr.reshape(shape)
        ssa = self.fresh()
        t = ttype(shape, dtype)
        self.lines.append(f'    {ssa} = "tosa.const"() <{{values = dense<{dense_text(arr)}> : {t}}}> : () -> {t}')
        return Value(ssa, shape, dtype)

    def shape(self, values: list[int]) -> ShapeValue:
        ssa = self.fresh()
        n = len(values)
        vals = ", ".join(str(int(v)) for v in values)
        self.lines.append(f"    {ssa} = tosa.const_shape {{values = dense<[{vals}]> : tensor<{n}xindex>}} "
                          f": () -> !tosa.shape<{n}>")
        return ShapeValue(ssa, f"!tosa.shape<{n}>")

    def zp(self, dtype: str) -> Value:
        return self.const([0], [1], dtype)

    def zp_of(self, x: Value) -> Value:
        """The [1]-shaped zero-point operand for x (its own for a quantized value)."""
        return self.const([x.zp], [1], x.dtype)

    def acc(self, x: Value) -> tuple[str, str]:
        """(dtype, acc_type) of a convolution / matmul accumulating x: f32 for reals, i32
        for 8-bit and i48 for 16-bit quantized values (TOSA's CONV2D/MATMUL rows)."""
        return {"real": ("real", "f32"), "i8": ("int", "i32"), "i16": ("i48", "i48")}.get(x.dtype, (x.dtype, "f32"))

    # ---- shape helpers
    def reshape(self, x: Value, shape: list[int]) -> Value:
        shape = plain(shape)
        if shape == x.shape:
            return x
        if shape.count(None) > 1:
            # TOSA 1.0.1's RESHAPE takes its new shape as a compile-time !tosa.shape, with at most
            # one -1 that the run-time volume resolves
            raise NnefError(None, f"a reshape to {['?' if d is None else d for d in shape]} has no TOSA form: "
                            "RESHAPE resolves at most one run-time extent (one -1 in its shape)")
        s = self.shape([-1 if d is None else d for d in shape])
        return self.op("tosa.reshape", [x, s], shape, x.dtype)

    def transpose(self, x: Value, perm: list[int]) -> Value:
        if list(perm) == list(range(len(perm))):
            return x
        shape = [x.shape[p] for p in perm]
        return self.op("tosa.transpose", [x], shape, x.dtype,
                       f"perms = array<i32: {', '.join(str(p) for p in perm)}>")

    def align(self, x: Value, rank: int, lead: int) -> Value:
        """Reshape x to `rank` dims with `lead` leading 1s (NNEF alignment -> TOSA's equal ranks)."""
        shape = [1] * lead + x.shape
        shape += [1] * (rank - len(shape))
        return self.reshape(x, shape)


class ShapeValue:
    __slots__ = ("ssa", "type")

    def __init__(self, ssa, type_):
        self.ssa, self.type = ssa, type_


def as_nhwc(em: Emitter, x: Value, axes: list[int]):
    """x viewed as the rank-4 [N, H, W, C] tensor TOSA's image operators take, with the one or
    two `axes` as H (and W) and every other axis folded into N (C = 1): a transpose bringing
    `axes` last and a reshape. Returns the view and `back(y)`, which turns a result of shape
    [N, H', W', 1] into x's layout with the new extents at `axes`."""
    d = len(x.shape)
    axes = [a + d if a < 0 else a for a in axes]
    rest = [a for a in range(d) if a not in axes]
    perm = rest + axes
    xt = em.transpose(x, perm)
    # a run-time extent among the folded axes folds into a run-time N (RESHAPE's one -1)
    n = None if any(x.shape[a] is None for a in rest) else math.prod(x.shape[a] for a in rest)
    hw = [x.shape[a] for a in axes] + [1] * (2 - len(axes))
    view = em.reshape(xt, [n] + hw + [1])

    def back(y: Value) -> Value:
        sizes = y.shape[1:1 + len(axes)]
        yt = em.reshape(y, [x.shape[a] for a in rest] + sizes)
        inverse = [perm.index(a) for a in range(d)]
        return em.transpose(yt, inverse)
    return view, back

"""The shape rule of every TOSA operator, written once: the verifier (the ERROR_IFs comparing a
declared size with the rule), `tosa-infer-shapes` (refining `?` dims) and the interpreter (the
shape it computes from the actual inputs) all call the functions here.

Two kinds of rule:
- the spec's Arguments tables (`ARGUMENTS`): the same symbol names the same size across an
  operator's tensors (MATMUL's A `[N,H,C]`, B `[N,C,W]`, output `[N,H,W]`; RFFT2D's outputs
  `[N,H,W/2+1]`; CAST's input and output are both `shape`). This alone gives the result shape
  of every unary elementwise operator, CAST, RESCALE, TABLE, REVERSE, MATMUL, GATHER, SCATTER,
  FFT2D and RFFT2D, and the batch/channel dims of the convolutions and pools;
- the formulas of the operators whose sizes follow from attributes or shape operands
  (broadcast_shape 4.4.6, reductions, ARGMAX, the CONV/POOL/RESIZE strided sizes, PAD, TILE,
  SLICE, CONCAT, TRANSPOSE, RESHAPE): the `*_shape` functions below.

Shapes follow tosa_xdsl.ir.access: a tuple of ints, DYNAMIC (-1) for an unknown size, None for
an unranked tensor. Every function works on what is known and leaves the rest DYNAMIC, so the
same call serves static checking (declared types) and execution (actual shapes, all known).
A contradiction between known sizes raises ShapeConflict.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from xdsl.ir import Operation, SSAValue

from tosa_xdsl.ir.access import DYNAMIC, Shape, format_shape, prop

DYN = DYNAMIC


class ShapeConflict(Exception):
    """Two known sizes that cannot describe the same tensor."""


# ----------------------------------------------------------------------- shape algebra


def merge(a: Shape, b: Shape) -> Shape:
    """The most specific shape compatible with both (meet); ShapeConflict if none."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise ShapeConflict(f"rank {len(a)} vs rank {len(b)}")
    out = []
    for x, y in zip(a, b):
        if x == DYN:
            out.append(y)
        elif y == DYN or x == y:
            out.append(x)
        else:
            raise ShapeConflict(f"dimension {x} vs {y}")
    return tuple(out)


def merge_all(*shapes: Shape) -> Shape:
    out: Shape = None
    for s in shapes:
        out = merge(out, s)
    return out


def fmt(shape: Shape) -> str:
    if shape is None:
        return "*"
    return "x".join("?" if d == DYN else str(d) for d in shape) or "scalar"


def known(*dims: int) -> bool:
    return all(d != DYN for d in dims)


def dim(shape: Shape, i: int) -> int:
    """Dim `i` of `shape`, DYN when unknown or out of range."""
    if shape is None or not -len(shape) <= i < len(shape):
        return DYN
    return shape[i]


# ------------------------------------------------------- spec 4.4.6 broadcast_shape


def broadcast(shapes: Sequence[Shape]) -> Shape:
    """broadcast_shape folded over `shapes`: each dim equal or 1 (numpy-style across ranks, as
    upstream infers; TOSA itself requires equal ranks, which the verifier checks). A dim that
    is 1 in some operands and dynamic in all others stays dynamic."""
    if any(s is None for s in shapes):
        return None
    rank = max((len(s) for s in shapes), default=0)  # type: ignore[arg-type]
    padded = [(1,) * (rank - len(s)) + s for s in shapes]  # type: ignore[operator]
    out = [1] * rank
    for s in padded:
        for i, d in enumerate(s):
            o = out[i]
            if d == 1 or d == DYN:
                continue
            if o == 1:
                out[i] = d
            elif o != d:
                raise ShapeConflict(f"cannot broadcast dimension {o} with {d}")
    for i in range(rank):
        if out[i] == 1 and any(s[i] == DYN for s in padded):
            out[i] = DYN
    return tuple(out)


# ------------------------------------------------- 2.3 convolutions, pools; 2.12 RESIZE
# Each strided rule is `idiv_check(numerator, divisor) + 1`: the spec requires the divisor
# to divide the numerator; `strided_size` gives the quotient's floor + 1 and `divides` says
# whether idiv_check holds.


def conv_numerator(size: int, kernel: int, pad_before: int, pad_after: int, dilation: int) -> int:
    """CONV2D/CONV3D/DEPTHWISE_CONV2D: I - 1 + pad_before + pad_after - (K - 1) * dilation."""
    return size - 1 + pad_before + pad_after - (kernel - 1) * dilation


def pool_numerator(size: int, kernel: int, pad_before: int, pad_after: int) -> int:
    """AVG_POOL2D/MAX_POOL2D: I + pad_before + pad_after - kernel."""
    return size + pad_before + pad_after - kernel


def resize_numerator(size: int, scale_n: int, offset: int, border: int) -> int:
    """RESIZE: (I - 1) * scale_n - offset + border (divided by scale_d)."""
    return (size - 1) * scale_n - offset + border


def strided_size(numerator: int, divisor: int) -> int:
    """`numerator / divisor + 1`, the output size when idiv_check holds (floor otherwise)."""
    return numerator // divisor + 1


def divides(numerator: int, divisor: int) -> bool:
    """idiv_check's condition (spec 4.4.2)."""
    return divisor > 0 and numerator % divisor == 0


def transpose_conv_size(size: int, kernel: int, out_pad_before: int, out_pad_after: int,
                        stride: int) -> int:
    """TRANSPOSE_CONV2D: (I - 1) * stride + out_pad_before + out_pad_after + K."""
    return (size - 1) * stride + out_pad_before + out_pad_after + kernel


def _strided(numerator: int, divisor: int) -> int:
    return strided_size(numerator, divisor) if divisor > 0 and numerator >= 0 else DYN


def conv_spatial(sizes: Sequence[int], kernel: Sequence[int], pad: Sequence[int],
                 stride: Sequence[int], dilation: Sequence[int]) -> tuple[int, ...]:
    """OH, OW (, OD) of CONV2D / CONV3D / DEPTHWISE_CONV2D."""
    return tuple(_strided(conv_numerator(i, k, pad[2 * a], pad[2 * a + 1], dilation[a]), stride[a])
                 if known(i, k) else DYN for a, (i, k) in enumerate(zip(sizes, kernel)))


def pool_spatial(sizes: Sequence[int], kernel: Sequence[int], pad: Sequence[int],
                 stride: Sequence[int]) -> tuple[int, ...]:
    """OH, OW of AVG_POOL2D / MAX_POOL2D."""
    return tuple(_strided(pool_numerator(i, kernel[a], pad[2 * a], pad[2 * a + 1]), stride[a])
                 if known(i) else DYN for a, i in enumerate(sizes))


def transpose_conv_spatial(sizes: Sequence[int], kernel: Sequence[int], out_pad: Sequence[int],
                           stride: Sequence[int]) -> tuple[int, ...]:
    """OH, OW of TRANSPOSE_CONV2D."""
    return tuple(transpose_conv_size(i, k, out_pad[2 * a], out_pad[2 * a + 1], stride[a])
                 if known(i, k) else DYN for a, (i, k) in enumerate(zip(sizes, kernel)))


def resize_spatial(sizes: Sequence[int], scale: Sequence[int] | None, offset: Sequence[int] | None,
                   border: Sequence[int] | None) -> tuple[int, ...]:
    """OH, OW of RESIZE (scale = [scale_y_n, scale_y_d, scale_x_n, scale_x_d])."""
    if scale is None or offset is None or border is None or len(scale) != 4:
        return (DYN, DYN)
    return tuple(_strided(resize_numerator(i, scale[2 * a], offset[a], border[a]), scale[2 * a + 1])
                 if known(i) and scale[2 * a] > 0 else DYN for a, i in enumerate(sizes))


# ---------------------------------------------------------- 2.9 reductions, 2.3.1 ARGMAX


def reduce_shape(x: Shape, axis: int, keep: bool = True) -> Shape:
    """REDUCE_*: the input with dim `axis` set to 1; ARGMAX (keep=False): without it."""
    if x is None or not 0 <= axis < len(x):
        return None
    if keep:
        return tuple(1 if i == axis else d for i, d in enumerate(x))
    return tuple(d for i, d in enumerate(x) if i != axis)


# ------------------------------------------------------------------- 2.10 data layout


def concat_shape(inputs: Sequence[Shape], axis: int) -> Shape:
    """CONCAT: the inputs agree off `axis`; along it their sizes add up."""
    ranked = [x for x in inputs if x is not None]
    if not ranked or not 0 <= axis < len(ranked[0]):
        return None
    total = 0
    for x in inputs:
        if x is None or dim(x, axis) == DYN:
            total = DYN
            break
        total += x[axis]
    others = merge_all(*(tuple(DYN if i == axis else d for i, d in enumerate(x)) for x in ranked))
    assert others is not None
    return tuple(total if i == axis else d for i, d in enumerate(others))


def pad_shape(x: Shape, padding: Sequence[int] | None) -> Shape:
    """PAD: padding[2i] + shape1[i] + padding[2i + 1]."""
    if x is None:
        return None if padding is None else (DYN,) * (len(padding) // 2)
    if padding is None:
        return (DYN,) * len(x)
    if len(padding) != 2 * len(x):
        raise ShapeConflict(f"input rank {len(x)} but {len(padding)} padding values")
    return tuple(padding[2 * i] + d + padding[2 * i + 1]
                 if d != DYN and padding[2 * i] >= 0 and padding[2 * i + 1] >= 0 else DYN
                 for i, d in enumerate(x))


def reshape_shape(x: Shape, new: Sequence[int] | None) -> Shape:
    """RESHAPE: `new`, where one -1 (upstream's and torch-mlir's spelling of an inferred dim)
    takes what the other dims leave of the input's size."""
    if new is None:
        return None
    out = [d if d >= 0 else DYN for d in new]
    if list(new).count(-1) == 1 and x is not None and known(*x):
        rest = 1
        for d in out:
            if d != DYN:
                rest *= d
        total = 1
        for d in x:
            total *= d
        if rest > 0 and total % rest == 0:
            out[out.index(DYN)] = total // rest
    return tuple(out)


def slice_shape(x: Shape, start: Sequence[int] | None, size: Sequence[int] | None) -> Shape:
    """SLICE: `size` (upstream's -1: to the end of the dimension)."""
    if size is None:
        return None if x is None else (DYN,) * len(x)
    out = []
    for i, n in enumerate(size):
        if n >= 0:
            out.append(n)
            continue
        st = start[i] if start is not None and i < len(start) else DYN
        d = dim(x, i)
        out.append(d - st if known(d, st) and 0 <= st <= d else DYN)
    return tuple(out)


def tile_shape(x: Shape, multiples: Sequence[int] | None) -> Shape:
    """TILE: shape1[i] * multiples[i]."""
    if multiples is None:
        return None if x is None else (DYN,) * len(x)
    if x is None:
        return (DYN,) * len(multiples)
    if len(x) != len(multiples):
        raise ShapeConflict(f"input rank {len(x)} but {len(multiples)} multiples")
    for i, m in enumerate(multiples):
        if m < 0:
            raise ShapeConflict(f"multiples[{i}] is {m}; multiples must not be negative")
    return tuple(d * m if d != DYN else DYN for d, m in zip(x, multiples))


def transpose_shape(x: Shape, perms: Sequence[int]) -> Shape:
    """TRANSPOSE: shape1[perms[i]] (None when perms is not a permutation of the rank)."""
    if x is None:
        return (DYN,) * len(perms) if perms else None
    if sorted(perms) != list(range(len(x))):
        return None
    return tuple(x[p] for p in perms)


# --------------------------------------------------------- the spec's Arguments tables

_SYMBOL = re.compile(r"^[A-Za-z_]\w*$")
_EXPRESSION = re.compile(r"^[A-Za-z_0-9+*/ -]+$")


@cache
def arguments(cls: type) -> tuple[tuple[str, str], ...]:
    """(our operand/result name, Arguments-table shape text) of each tensor of op class
    `cls` whose table entry names a shape ('[N,H,W]' or a whole-shape name like 'shape')."""
    from tosa_xdsl import spec_tables as st
    from tosa_xdsl.dialects.tosa.ops.base import spec_argument_operand

    spec_name = getattr(cls, "SPEC_NAME", "")
    spec = next((s for s in st.ops() if s.name == spec_name), None)
    if spec is None:
        return ()
    definition = cls.get_irdl_definition()
    ours = {n for n, _ in definition.operands} | {n for n, _ in definition.results}
    entries = []
    for a in spec.arguments:
        if a.kind == "Attribute" or not a.type.startswith("T<") or a.shape in ("", "[1]"):
            continue
        name = spec_argument_operand(a.name, ours)
        if name is not None:
            entries.append((name, a.shape.replace(" ", "")))
    return tuple(entries)


class ArgumentBindings:
    """The sizes the Arguments-table symbols take on one op: `bind` each tensor's dims
    (ShapeConflict naming both tensors when a symbol gets two sizes), then `shape_for` gives
    a tensor's shape as the table determines it."""

    def __init__(self) -> None:
        self.symbols: dict[str, tuple[str, int]] = {}  # symbol -> (where bound, size)
        self.wholes: dict[str, tuple[str, tuple[int, ...]]] = {}  # 'shape' -> (label, dims)

    def bind(self, label: str, text: str, dims: Shape) -> None:
        if dims is None:
            return
        if not text.startswith("["):
            if text in self.wholes:
                first, other = self.wholes[text]
                try:
                    merged = merge(other, dims)
                except ShapeConflict:
                    raise ShapeConflict(f"{label} shape {format_shape(dims)} does not match {first} "
                                        f"shape {format_shape(other)}") from None
                self.wholes[text] = (first, merged)  # type: ignore[assignment]
            else:
                self.wholes[text] = (label, tuple(dims))
            return
        symbols = text[1:-1].split(",")
        if len(symbols) != len(dims):
            return  # the rank checks report this
        for axis, (sym, d) in enumerate(zip(symbols, dims)):
            if d == DYN or not _SYMBOL.match(sym):
                continue
            if sym in self.symbols and self.symbols[sym][1] != d:
                raise ShapeConflict(f"{label} dim {axis} is {d} but {self.symbols[sym][0]} gives "
                                    f"{sym} = {self.symbols[sym][1]}")
            self.symbols.setdefault(sym, (f"{label} dim {axis}", d))

    def value(self, expression: str) -> int:
        """A dim expression ('N', 'W/2+1', 'C*M') under the bindings; DYN if not all bound."""
        if _SYMBOL.match(expression):
            return self.symbols[expression][1] if expression in self.symbols else DYN
        if not _EXPRESSION.match(expression):
            return DYN
        names = set(re.findall(r"[A-Za-z_]\w*", expression))
        if not names <= set(self.symbols):
            return DYN
        python = re.sub(r"(?<!/)/(?!/)", "//", expression)
        return eval(python, {"__builtins__": {}},
                    {k: v for k, (_, v) in self.symbols.items()})

    def shape_for(self, text: str) -> Shape:
        if not text.startswith("["):
            return self.wholes[text][1] if text in self.wholes else None
        return tuple(self.value(e) for e in text[1:-1].split(","))


def bind_arguments(op: Operation, shape: Callable[[SSAValue], Shape],
                   names: Sequence[str] | None = None) -> ArgumentBindings:
    """Bind the Arguments-table symbols of `op` from the shapes of its tensors (`names`:
    only those operands/results; default every tensor the table gives a shape)."""
    bindings = ArgumentBindings()
    for name, text in arguments(type(op)):
        if names is not None and name not in names:
            continue
        value = getattr(op, name, None)
        if isinstance(value, SSAValue):
            bindings.bind(name, text, shape(value))
    return bindings


# ---------------------------------------------------------------- one rule per operator

ShapeOf = Callable[[SSAValue], Shape]
ValuesOf = Callable[[SSAValue], "Sequence[int] | None"]


def _attribute_rule(op: Operation, shape: ShapeOf, values: ValuesOf) -> list[Shape] | None:
    """The formula part of the rule of `op` (None: the Arguments table says it all)."""
    from tosa_xdsl.dialects.tosa.ops import data_layout as dl
    from tosa_xdsl.dialects.tosa.ops import tensor as tn
    from tosa_xdsl.dialects.tosa.ops.base import (
        BinaryElementwiseOp,
        ComparisonOp,
        ReductionOp,
    )
    from tosa_xdsl.dialects.tosa.ops.elementwise_binary import MulOp
    from tosa_xdsl.dialects.tosa.ops.elementwise_ternary import SelectOp
    from tosa_xdsl.dialects.tosa.ops.image import ResizeOp

    if isinstance(op, (BinaryElementwiseOp, ComparisonOp, MulOp)):
        return [broadcast([shape(op.input1), shape(op.input2)])]
    if isinstance(op, SelectOp):
        return [broadcast([shape(op.input1), shape(op.input2), shape(op.input3)])]
    if isinstance(op, ReductionOp):
        return [reduce_shape(shape(op.input), prop(op, "axis", 0), keep=True)]
    if isinstance(op, tn.ArgMaxOp):
        return [reduce_shape(shape(op.input), prop(op, "axis", 0), keep=False)]
    if isinstance(op, (tn.Conv2DOp, tn.Conv3DOp, tn.DepthwiseConv2DOp, tn.TransposeConv2DOp,
                       tn.AvgPool2DOp, tn.MaxPool2DOp, ResizeOp)):
        return [_windowed(op, shape, values)]
    if isinstance(op, dl.ConcatOp):
        return [concat_shape([shape(v) for v in op.input1], prop(op, "axis", 0))]
    if isinstance(op, dl.PadOp):
        return [pad_shape(shape(op.input1), values(op.padding))]
    if isinstance(op, dl.ReshapeOp):
        return [reshape_shape(shape(op.input1), values(op.shape))]
    if isinstance(op, dl.SliceOp):
        return [slice_shape(shape(op.input1), values(op.start), values(op.size))]
    if isinstance(op, dl.TileOp):
        return [tile_shape(shape(op.input1), values(op.multiples))]
    if isinstance(op, dl.TransposeOp):
        return [transpose_shape(shape(op.input1), prop(op, "perms") or [])]
    return None


def _windowed(op: Operation, shape: ShapeOf, values: ValuesOf) -> Shape:
    """[N, spatial..., C] of the convolutions, pools and RESIZE: N and C from the Arguments
    table (added by the caller), the spatial sizes from their formulas."""
    from tosa_xdsl.dialects.tosa.ops import tensor as tn
    from tosa_xdsl.dialects.tosa.ops.image import ResizeOp

    x = shape(op.input)
    spatial = 3 if isinstance(op, tn.Conv3DOp) else 2
    if x is not None and len(x) != spatial + 2:
        return None
    sizes = [dim(x, 1 + a) for a in range(spatial)]
    if isinstance(op, ResizeOp):
        dims = resize_spatial(sizes, values(op.scale), values(op.offset), values(op.border))
    elif isinstance(op, (tn.AvgPool2DOp, tn.MaxPool2DOp)):
        dims = pool_spatial(sizes, prop(op, "kernel"), prop(op, "pad"), prop(op, "stride"))
    else:
        w = shape(op.weight)
        first = 0 if isinstance(op, tn.DepthwiseConv2DOp) else 1  # [KH,KW,C,M] / [OC,KH,KW,IC]
        kernel = [dim(w, first + a) for a in range(spatial)]
        stride = prop(op, "stride") or [1] * spatial
        if isinstance(op, tn.TransposeConv2DOp):
            dims = transpose_conv_spatial(sizes, kernel, prop(op, "out_pad") or [0] * 4, stride)
        else:
            dims = conv_spatial(sizes, kernel, prop(op, "pad") or [0] * (2 * spatial), stride,
                                prop(op, "dilation") or [1] * spatial)
    return (DYN, *dims, DYN)


def result_shapes(op: Operation, shape: ShapeOf, values: ValuesOf) -> list[Shape] | None:
    """The result shapes of TOSA op `op` by its rule: `shape(v)` gives an operand's shape
    (declared or actual), `values(v)` the integers of a `!tosa.shape` operand when known.
    None when the operator has no rule (control flow, CUSTOM, data nodes). Raises
    ShapeConflict when the operands contradict each other."""
    results = list(op.results)
    table = dict(arguments(type(op)))
    formula = _attribute_rule(op, shape, values)
    if not table and formula is None:
        return None
    operands = {n for n, _ in type(op).get_irdl_definition().operands}
    bindings = bind_arguments(op, shape, names=[n for n in table if n in operands])
    out: list[Shape] = []
    result_names = [n for n, _ in type(op).get_irdl_definition().results]
    for i, result in enumerate(results):
        name = result_names[i] if i < len(result_names) else ""
        by_table = bindings.shape_for(table[name]) if name in table else None
        by_formula = formula[i] if formula is not None and i < len(formula) else None
        if by_table is not None and by_formula is not None and len(by_table) != len(by_formula):
            by_table = None  # a rank mismatch: the rank checks report it
        out.append(merge(by_table, by_formula))
    return out

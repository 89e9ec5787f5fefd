"""Level checks (spec 1.7): the operators' LEVEL_CHECK statements, plus the limits the spec
states for every tensor / graph rather than per operator.

Per-operator statements come from `spec_tables.op_spec(op).level_checks` and are identified
as "<OP>#L<n>" (the n-th LEVEL_CHECK of the operator's pseudocode, 1-based). Each statement
`expr <= MAX_X` is evaluated on the op: the spec's names (KH, KW, dilation_y, pad_top,
stride_x, scale_y_n, H, ...) are bound by `_ENVIRONMENTS[<OP>](op)` to static values read
from properties, static dims and constant shape operands; a name that is not known (dynamic
dim, non-constant shape operand) skips the statement. `rank(shape)` / `rank(shape1)` are
decided by the MAX_RANK check on every tensor operand/result (a superset: the spec's shapes
are the op's tensors), `tensor_list_shape(list)` is the length of the variadic operand or
result of that name.

Besides, for every tensor operand and result of every TOSA op (never for !tosa.shape values,
whose length is not a rank):
- MAX_RANK: rank <= MAX_RANK;
- MAX_LOG2_SIZE (spec 1.7 and 1.9 "tensor_size_t"): number of elements times the element size
  in bytes (1 for elements narrower than 8 bits) must be representable as tensor_size_t, i.e.
  <= (1 << MAX_LOG2_SIZE) - 1; skipped when a dim is dynamic;
and for COND_IF / WHILE_LOOP: MAX_NESTING (spec 2.15: ERROR_IF(tosa_nesting_depth >=
MAX_NESTING) on entering a nested graph), i.e. at most MAX_NESTING nested control-flow ops (the message is the translator's:
`tosa_nesting_depth < MAX_NESTING (6), got 6`, depth = enclosing COND_IF/WHILE_LOOP ops).

Messages follow upstream: `failed level check: stride_y <= MAX_STRIDE (8192), got 9000`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from tosa_xdsl import spec_tables as st
from tosa_xdsl.ir.access import element_type, rank_of, static_dim
from tosa_xdsl.validation.target import Target
from tosa_xdsl.verification.common import array_attr
from tosa_xdsl.verification.constants import const_shape_values

Env = dict[str, "int | None"]


# -- binding the spec's names to values ---------------------------------------------------


def _unpack(names: tuple[str, ...], values) -> Env:
    if values is None or len(values) != len(names):
        return {n: None for n in names}
    return {n: (None if v is None else int(v)) for n, v in zip(names, values)}


def _prop(op: Operation, name: str, names: tuple[str, ...]) -> Env:
    try:
        return _unpack(names, array_attr(op, name))
    except Exception:
        return {n: None for n in names}


def _known_dims(value) -> list[int | None] | None:
    """The dims of a ranked tensor, None for a dynamic one (an unknown symbol); None when unranked."""
    rank = rank_of(value)
    return None if rank is None else [static_dim(value, i) for i in range(rank)]


def _weight_dims(op: Operation, names: tuple[str, ...]) -> Env:
    return _unpack(names, _known_dims(op.weight))


def _pool(op: Operation) -> Env:
    return {**_prop(op, "kernel", ("kernel_y", "kernel_x")),
            **_prop(op, "stride", ("stride_y", "stride_x")),
            **_prop(op, "pad", ("pad_top", "pad_bottom", "pad_left", "pad_right"))}


def _conv2d(op: Operation) -> Env:
    return {**_weight_dims(op, ("OC", "KH", "KW", "IC")),
            **_prop(op, "dilation", ("dilation_y", "dilation_x")),
            **_prop(op, "stride", ("stride_y", "stride_x")),
            **_prop(op, "pad", ("pad_top", "pad_bottom", "pad_left", "pad_right"))}


def _depthwise(op: Operation) -> Env:
    return {**_conv2d(op), **_weight_dims(op, ("KH", "KW", "C", "M"))}


def _conv3d(op: Operation) -> Env:
    return {**_weight_dims(op, ("OC", "KD", "KH", "KW", "IC")),
            **_prop(op, "dilation", ("dilation_d", "dilation_y", "dilation_x")),
            **_prop(op, "stride", ("stride_d", "stride_y", "stride_x")),
            **_prop(op, "pad", ("pad_d0", "pad_d1", "pad_top", "pad_bottom", "pad_left",
                                "pad_right"))}


def _transpose_conv(op: Operation) -> Env:
    return {**_weight_dims(op, ("OC", "KH", "KW", "IC")),
            **_prop(op, "stride", ("stride_y", "stride_x")),
            **_prop(op, "out_pad", ("out_pad_top", "out_pad_bottom", "out_pad_left",
                                    "out_pad_right"))}


def _fft(op: Operation) -> Env:
    return _unpack(("N", "H", "W"), _known_dims(op.input_real))


def _resize(op: Operation) -> Env:
    return _unpack(("scale_y_n", "scale_y_d", "scale_x_n", "scale_x_d"),
                   const_shape_values(op.scale))


_ENVIRONMENTS: Mapping[str, Callable[[Operation], Env]] = {
    "AVG_POOL2D": _pool, "MAX_POOL2D": _pool, "CONV2D": _conv2d, "CONV3D": _conv3d,
    "DEPTHWISE_CONV2D": _depthwise, "TRANSPOSE_CONV2D": _transpose_conv, "FFT2D": _fft,
    "RFFT2D": _fft, "RESIZE": _resize,
}


# -- the statements -----------------------------------------------------------------------


@dataclass(frozen=True)
class LevelCheck:
    id: str  # "CONV2D#L1"
    op: str  # "CONV2D"
    text: str  # "dilation_y * KH <= MAX_KERNEL"
    lhs: str
    limit: str  # "MAX_KERNEL"
    kind: str  # "expression" | "rank" (decided by the MAX_RANK check) | "list"
    expr: ast.expr | None


@lru_cache(maxsize=None)
def level_checks() -> tuple[LevelCheck, ...]:
    out = []
    for spec in st.ops():
        for i, cond in enumerate(spec.level_checks, 1):
            lhs, _, limit = cond.text.rpartition("<=")
            lhs, limit = lhs.strip(), limit.strip()
            expr = ast.parse(lhs, mode="eval").body
            if lhs.startswith("rank("):
                kind = "rank"
            elif lhs.startswith("tensor_list_shape("):
                kind = "list"
            else:
                kind = "expression"
            out.append(LevelCheck(f"{spec.name}#L{i}", spec.name, cond.text, lhs, limit, kind,
                                  expr))
    return tuple(out)


@lru_cache(maxsize=None)
def _checks_by_op() -> Mapping[str, tuple[LevelCheck, ...]]:
    index: dict[str, list[LevelCheck]] = {}
    for c in level_checks():
        index.setdefault(c.op, []).append(c)
    return {k: tuple(v) for k, v in index.items()}


class _Unknown(Exception):
    pass


def _evaluate(node: ast.expr, env: Env, op: Operation) -> int:
    if isinstance(node, ast.Name):
        value = env.get(node.id)
        if value is None:
            raise _Unknown(node.id)
        return value
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BinOp):
        a, b = _evaluate(node.left, env, op), _evaluate(node.right, env, op)
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Div):  # the pseudocode's integer division (C semantics)
            if b == 0:
                raise _Unknown("division by zero")  # an ERROR_IF, not a level matter
            q = abs(a) // abs(b)
            return q if (a >= 0) == (b >= 0) else -q
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "tensor_list_shape" and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)):
        values = getattr(op, node.args[0].id, None)
        if values is None or isinstance(values, SSAValue):
            raise _Unknown(node.args[0].id)
        return len(values)
    raise _Unknown(ast.unparse(node))


# -- tensors of an op ---------------------------------------------------------------------


def named_values(op: Operation) -> Iterator[tuple[str, SSAValue]]:
    """(name, value) of every operand and result, variadic ones as name[i]."""
    try:
        definition = op.get_irdl_definition()  # type: ignore[attr-defined]
        groups = [*((n, "operand") for n, _ in definition.operands),
                  *((n, "result") for n, _ in definition.results)]
    except Exception:
        groups = []
    if not groups:
        for i, v in enumerate(op.operands):
            yield f"operand #{i}", v
        for i, v in enumerate(op.results):
            yield f"result #{i}", v
        return
    for name, _ in groups:
        value = getattr(op, name, None)
        if isinstance(value, SSAValue):
            yield name, value
        elif value is not None:
            for i, v in enumerate(value):
                yield f"{name}[{i}]", v


def element_bytes(elem) -> int:
    """Element size in bytes as the spec counts it for tensor_size_t (1 below 8 bits)."""
    width = getattr(elem, "bitwidth", None)
    if width is None:
        width = getattr(elem, "width", None)
        width = getattr(width, "data", width)
    if width is None:
        return 1
    return max(1, int(width) // 8)


# Operators whose tensor lists have no rank LEVEL_CHECK (2.15.1 CUSTOM, 2.16 COND_IF (only its
# condition's rank is checked), WHILE_LOOP): the ops inside their graphs check their own.
_LIST_OPS = ("tosa.custom", "tosa.cond_if", "tosa.while_loop")


def _tensor_limits(op: Operation, name: str, t, target: Target, fail) -> None:
    if not isinstance(t, TensorType):
        return
    shape = list(t.get_shape())
    max_rank = target.limits["MAX_RANK"]
    # tosa.yield (MLIR's region terminator, no spec operator) passes a graph's outputs on
    in_list = (op.name in _LIST_OPS and name.startswith(("input_list", "output_list"))) or op.name == "tosa.yield"
    if len(shape) > max_rank and not in_list:
        fail(f"failed level check: rank({name}) <= MAX_RANK ({max_rank}), got {len(shape)}")
    if any(d < 0 for d in shape):
        return
    size = element_bytes(element_type(t))
    for d in shape:
        size *= d
    log2 = target.limits["MAX_LOG2_SIZE"]
    limit = (1 << log2) - 1
    if size > limit:
        fail(f"failed level check: tensor size (in bytes) of {name} <= (1 << MAX_LOG2_SIZE) - 1 "
             f"({limit}), got {size}")


_CONTROL_FLOW = ("tosa.cond_if", "tosa.while_loop")


def check_op(op: Operation, target: Target, fail: Callable[[str], None]) -> None:
    """Every level check of one op; `fail(message)` reports a violation."""
    limits = target.limits
    spec_name = getattr(op, "SPEC_NAME", "")
    checks = _checks_by_op().get(spec_name, ())
    env: Env | None = None
    for check in checks:
        if check.kind == "rank":
            continue  # decided below for every tensor
        if env is None:
            make = _ENVIRONMENTS.get(spec_name)
            env = make(op) if make is not None else {}
        try:
            value = _evaluate(check.expr, env, op)
        except _Unknown:
            continue
        limit = limits[check.limit]
        if value > limit:
            fail(f"failed level check: {check.lhs} <= {check.limit} ({limit}), got {value}")
    for name, value in named_values(op):
        _tensor_limits(op, name, value.type, target, fail)
    if spec_name and "EXT-DYNAMIC" not in target.enabled and any(
            isinstance(v.type, TensorType) and any(d < 0 for d in v.type.get_shape()) for v in op.operands):
        # upstream's wording (dynamic dims need EXT-DYNAMIC, a TOSA 1.1 extension); make them
        # static with tosa-experimental-input-shape + tosa-infer-shapes (docs/producers.md)
        fail("failed level check: operand shape dimension cannot be dynamic when targeting TOSA "
             "specification version 1.0 or below")
    if spec_name == "VARIABLE":
        _variable_limits(op, target, fail)
    if op.name in _CONTROL_FLOW:
        depth = 0  # the spec's tosa_nesting_depth when this op is executed
        parent = op.parent_op()
        while parent is not None:
            if parent.name in _CONTROL_FLOW:
                depth += 1
            parent = parent.parent_op()
        if depth >= limits["MAX_NESTING"]:
            fail(f"failed level check: tosa_nesting_depth < MAX_NESTING "
                 f"({limits['MAX_NESTING']}), got {depth}")


def _variable_limits(op: Operation, target: Target, fail) -> None:
    """VARIABLE#L1 rank(shape) <= MAX_RANK on the declared var_shape (and its size)."""
    from xdsl.dialects.builtin import TensorType as TT

    attr = op.properties.get("var_shape")
    var_type = op.properties.get("type")
    try:
        shape = [int(v) for v in attr.get_values()]  # type: ignore[union-attr]
    except Exception:
        return
    if var_type is None or isinstance(var_type, TT):
        elem = element_type(var_type) if var_type is not None else None
    else:
        elem = var_type
    try:
        t = TT(elem, shape)
    except Exception:
        max_rank = target.limits["MAX_RANK"]
        if len(shape) > max_rank:
            fail(f"failed level check: rank(var_shape) <= MAX_RANK ({max_rank}), got {len(shape)}")
        return
    _tensor_limits(op, "var_shape", t, target, fail)

"""Chapter-4 helper conditions (4.4.6 broadcast_shape / apply_broadcast) and the per-operator
rules of tosa_execute_graph (spec 2.2) that are decidable on one op, plus the small shape
utilities the chapter modules of this developer share.

Shapes follow tosa_xdsl.ir.access (dynamic dim = DYNAMIC, unranked = None). Checks decide
what static information decides and skip the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.ir import SSAValue

from tosa_xdsl import spec_tables as st
from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops import SPEC_OPS
from tosa_xdsl.dialects.tosa.ops.base import TosaOp, rank_broadcast_active, spec_argument_operand
from tosa_xdsl.ir.access import format_shape, shape_of
from tosa_xdsl.verification.common import fail
from tosa_xdsl.verification.registry import spec_check


def static_size(dims: Sequence[int] | None) -> int | None:
    """tensor_size(shape) when every dim is static, else None."""
    if dims is None or any(d < 0 for d in dims):
        return None
    size = 1
    for d in dims:
        size *= d
    return size


# -- 4.4.6 broadcast_shape / apply_broadcast ---------------------------------------------

# The helper conditions every broadcasting operator's check decides along with its own OP#1.
BROADCAST_IDS = ("broadcast_shape#1", "broadcast_shape#2", "apply_broadcast#1",
                 "apply_broadcast#3")


def check_broadcast(op: TosaOp, inputs: Sequence[tuple[str, SSAValue]], output: SSAValue) -> None:
    """The broadcast of `inputs` (spec 4.4.6 broadcast_shape, folded left to right) must be
    defined - equal ranks (broadcast_shape#1), each dim equal or 1 (broadcast_shape#2) - and
    equal the output shape (the operator's `shape != broadcast_shape(...)`, which also covers
    apply_broadcast#1/#3). Unranked tensors and dynamic dims are skipped; a static non-1 dim of
    an input still decides the broadcast dim when another input's dim is dynamic."""
    ranked = [(n, shape_of(v)) for n, v in inputs]
    ranked = [(n, s) for n, s in ranked if s is not None]
    out = shape_of(output)
    if out is not None and rank_broadcast_active():  # tosa-make-broadcastable's input
        ranked = [(n, (1,) * (len(out) - len(s)) + tuple(s)) if len(s) < len(out) else (n, s)
                  for n, s in ranked]
    holders = ranked + ([("output", out)] if out is not None else [])
    if len({len(s) for _, s in holders}) > 1:
        detail = ", ".join(f"{n} has rank {len(s)}" for n, s in holders)
        fail(op, f"operands and result must have the same rank to broadcast: {detail}")
    if not ranked:
        return
    names = ", ".join(n for n, _ in inputs)
    for i in range(len(ranked[0][1])):
        non_one = [(n, s[i]) for n, s in ranked if s[i] >= 0 and s[i] != 1]
        for n2, d2 in non_one[1:]:
            n1, d1 = non_one[0]
            if d2 != d1:
                fail(op, f"{n1} dim {i} ({d1}) and {n2} dim {i} ({d2}) cannot be broadcast: "
                         f"dims must be equal or 1")
    broadcast = shapes.broadcast([s for _, s in ranked])
    assert broadcast is not None
    for i, expected in enumerate(broadcast):
        if out is None or out[i] < 0 or expected == shapes.DYN:
            continue
        if expected == 1 and len(ranked) < len(inputs):
            continue  # an unranked input may still broadcast this dim
        if out[i] != expected:
            dims = ", ".join(f"{n} dim {i} = {fmt_dim(s[i])}" for n, s in ranked)
            fail(op, f"output dim {i} is {out[i]} but broadcast_shape({names}) dim {i} is "
                     f"{expected} ({dims})")


def fmt_dim(d: int) -> str:
    return "?" if d < 0 else str(d)


# -- 2.2 tosa_execute_graph: operator Arguments (ranks, fixed shapes) ----------------------


def _min_rank(rank_text: str) -> int | None:
    """'1 to MAX_RANK' -> 1; '0 to MAX_RANK - 1' -> 0; a fixed rank is the op's own RANKS."""
    head = rank_text.split(" to ", 1)
    if len(head) == 2 and head[0].strip().isdigit():
        return int(head[0])
    return None


def _argument_rules() -> dict[type, list[tuple[str, str, int | None, tuple[int, ...] | None]]]:
    """Per op class: (spec argument name, our name, minimum rank, fixed shape) of each tensor
    input/output whose Arguments row bounds the rank from below or fixes the shape ([1])."""
    rules: dict[type, list] = {}
    by_name = {c.SPEC_NAME: c for c in SPEC_OPS}
    for spec in st.ops():
        cls = by_name[spec.name]
        definition = cls.get_irdl_definition()
        ours = {n for n, _ in definition.operands} | {n for n, _ in definition.results}
        entries = []
        for a in spec.arguments:
            if a.kind == "Attribute" or not a.type.startswith(("T<", "tensor_list_t<")):
                continue
            name = spec_argument_operand(a.name, ours)
            if name is None:
                continue
            minimum = _min_rank(a.rank)
            fixed = (1,) if a.shape == "[1]" else None
            if (minimum or fixed) is not None and (minimum or fixed):
                entries.append((a.name, name, minimum, fixed))
        if entries:
            rules[cls] = entries
    return rules


_ARGUMENT_RULES = _argument_rules()


def _values(op: TosaOp, name: str) -> Iterable[tuple[str, SSAValue]]:
    value = getattr(op, name)
    if isinstance(value, SSAValue):
        yield name, value
    else:  # a variadic (tensor_list_t)
        for i, v in enumerate(value):
            yield f"{name}[{i}]", v


@spec_check(tuple(_ARGUMENT_RULES), "tosa_execute_graph#3", "tosa_execute_graph#5")
def _arguments_shapes(op):
    # 2.2 tosa_execute_graph#3/#5: ERROR_IF(operator input/output tensors do not meet requirement of operator Arguments)
    for spec_name, name, minimum, fixed in _ARGUMENT_RULES[type(op)]:
        for label, value in _values(op, name):
            dims = shape_of(value)
            if dims is None:
                continue
            if minimum is not None and len(dims) < minimum:
                fail(op, f"{label} must have rank {minimum} to MAX_RANK (Arguments table of "
                         f"{op.SPEC_NAME}), got rank {len(dims)}")
            if fixed is not None and len(dims) == len(fixed) and any(
                    d >= 0 and d != f for d, f in zip(dims, fixed)):
                fail(op, f"{label} must have shape {format_shape(fixed)} (Arguments table of "
                         f"{op.SPEC_NAME}), got {format_shape(dims)}")

"""ERROR_IF checks of spec 2.16 Control Flow: COND_IF, WHILE_LOOP.

A graph attribute is a region: its inputs are the entry block's arguments, its outputs the
operands of its `tosa.yield`. tensor_list_shape compares the lists' lengths and shapes
(static dims only). The nesting limit MAX_NESTING is the level's: the level of a
`#tosa.target_env` attribute on an enclosing op (upstream attaches it to the module as
`tosa.target_env`), else level none (256)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute, Region

from tosa_xdsl import spec_tables as st
from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp, WhileLoopOp, YieldOp
from tosa_xdsl.ir.access import element_type, format_shape, shape_of
from tosa_xdsl.ir.target_env import TargetEnvAttr
from tosa_xdsl.verification.common import fail
from tosa_xdsl.verification.helpers import static_size
from tosa_xdsl.verification.registry import spec_check


def _max_nesting(op) -> tuple[int, str]:
    parent = op.parent_op()
    while parent is not None:
        for attr in parent.attributes.values():
            if isinstance(attr, TargetEnvAttr):
                level = "8K" if attr.level.data.lower() == "8k" else "none"
                return st.levels()[level]["MAX_NESTING"], level
        parent = parent.parent_op()
    return st.levels()["none"]["MAX_NESTING"], "none"


def _check_nesting(op) -> None:
    depth, parent = 0, op.parent_op()
    while parent is not None:
        if isinstance(parent, (CondIfOp, WhileLoopOp)):
            depth += 1
        parent = parent.parent_op()
    limit, level = _max_nesting(op)
    if depth >= limit:
        fail(op, f"is nested {depth} deep in control flow but MAX_NESTING of level {level} "
                 f"is {limit}")


def _graph_inputs(region: Region) -> list[Attribute] | None:
    return list(region.blocks[0].arg_types) if region.blocks else None


def _graph_outputs(region: Region) -> list[Attribute] | None:
    if not region.blocks or not isinstance(region.blocks[-1].last_op, YieldOp):
        return None
    return list(region.blocks[-1].last_op.inputs.types)


def _compare_lists(op, what: str, actual: Sequence[Attribute], graph: str,
                   expected: Sequence[Attribute] | None) -> None:
    """ERROR_IF(tensor_list_shape(<what>) != tosa_<in|out>put_shape(<graph>))."""
    if expected is None:
        return
    if len(actual) != len(expected):
        fail(op, f"{what} has {len(actual)} tensors but {graph} has {len(expected)}")
    for i, (a, e) in enumerate(zip(actual, expected)):
        sa, se = shape_of(a), shape_of(e)
        if sa is None or se is None:
            continue
        if len(sa) != len(se) or any(x >= 0 and y >= 0 and x != y for x, y in zip(sa, se)):
            fail(op, f"{what}[{i}] has shape {format_shape(sa)} but {graph} has {format_shape(se)}")


@spec_check(CondIfOp, "COND_IF#1", "COND_IF#2", "COND_IF#3", "COND_IF#4", "COND_IF#5",
            "COND_IF#6", "tosa_execute_graph#1", "tosa_execute_graph#2")
def _cond_if(op):
    # 2.16.1 COND_IF#1: nesting >= MAX_NESTING; #2/#3: tensor_list_shape(input_list) != tosa_input_shape(then/else_graph); #4/#5: tensor_list_shape(output_list) != tosa_output_shape(then/else_graph); #6: tensor_size(shape) != 1
    _check_nesting(op)
    inputs, outputs = list(op.input_list.types), list(op.output_list.types)
    for name in ("then_graph", "else_graph"):
        region = getattr(op, name)
        _compare_lists(op, "input_list", inputs, f"{name} inputs", _graph_inputs(region))
        _compare_lists(op, "output_list", outputs, f"{name} outputs", _graph_outputs(region))
    size = static_size(shape_of(op.condition))
    if size is not None and size != 1:
        fail(op, f"condition {format_shape(shape_of(op.condition))} has {size} elements but must have "
                 f"exactly 1")


@spec_check(WhileLoopOp, "WHILE_LOOP#1", "WHILE_LOOP#2", "WHILE_LOOP#3", "WHILE_LOOP#4",
            "WHILE_LOOP#5", "WHILE_LOOP#6", "WHILE_LOOP#7", "tosa_execute_graph#1",
            "tosa_execute_graph#2")
def _while_loop(op):
    # 2.16.2 WHILE_LOOP#1: nesting >= MAX_NESTING; #2: input_list vs output_list shapes; #3/#4: input_list vs cond/body_graph inputs; #5: input_list vs body_graph outputs; #6: tensor_size(cond output) != 1; #7: cond output type != bool_t
    _check_nesting(op)
    inputs = list(op.input_list.types)
    _compare_lists(op, "output_list", list(op.output_list.types), "input_list", inputs)
    _compare_lists(op, "input_list", inputs, "cond_graph inputs", _graph_inputs(op.cond_graph))
    _compare_lists(op, "input_list", inputs, "body_graph inputs", _graph_inputs(op.body_graph))
    _compare_lists(op, "input_list", inputs, "body_graph outputs", _graph_outputs(op.body_graph))
    cond = _graph_outputs(op.cond_graph)
    if cond is None:
        return
    if len(cond) != 1:
        fail(op, f"cond_graph has {len(cond)} outputs but must have exactly one bool tensor")
    size = static_size(shape_of(cond[0]))
    if size is not None and size != 1:
        fail(op, f"cond_graph output {format_shape(shape_of(cond[0]))} has {size} elements but must "
                 f"have exactly 1")
    if str(element_type(cond[0])) != "i1":
        fail(op, f"cond_graph output element type is {element_type(cond[0])} but must be i1 "
                 f"(bool_t)")

"""tosa-validate's checks of function signatures (a TOSA graph's inputs and outputs are
tensors, spec 1.4 / 2.1), with upstream MLIR's messages:

- always: no `!tosa.shape` argument or result (shape values live inside a graph);
- with `validate-function-signature` (upstream's option of that name): every argument and
  result is a ranked tensor of rank <= MAX_RANK without zero-size dimensions, whose element
  type is a TOSA 1.0.1 type.

Region isolation (strict-op-spec-alignment): a COND_IF / WHILE_LOOP region is a TOSA graph of
its own (spec 2.16) that reads only its block arguments; a region that uses a value defined
outside the op is not conformant (upstream's message).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation

from tosa_xdsl.diagnostics import emit_error
from tosa_xdsl.ir.types import ShapeType
from tosa_xdsl.validation.target import Target

# The element types of TOSA 1.0.1 tensors (spec 1.5.1), as MLIR spells them.
TOSA_ELEMENT_TYPES = frozenset({"i1", "i4", "i8", "i16", "i32", "i48", "f16", "bf16", "f32",
                                "f8E4M3FN", "f8E5M2"})


def _type_name(t: Attribute) -> str:
    import io

    from xdsl.printer import Printer

    out = io.StringIO()
    Printer(stream=out).print_attribute(t)
    return out.getvalue()


def check_signatures(module: ModuleOp, target: Target, full: bool) -> int:
    """Errors for the module's top-level functions (upstream checks those); their count."""
    errors = 0

    def fail(op: Operation, message: str) -> None:
        nonlocal errors
        errors += 1
        emit_error(op, f"'{op.name}' op {message}")

    for fn in module.body.ops:
        if not isinstance(fn, func.FuncOp):
            continue
        inputs, outputs = fn.function_type.inputs.data, fn.function_type.outputs.data
        if any(isinstance(t, ShapeType) for t in inputs):
            fail(fn, "Function argument types must be a tensor type to be TOSA compliant, got !tosa.shape type")
        if any(isinstance(t, ShapeType) for t in outputs):
            fail(fn, "Function return types must be a tensor type to be TOSA compliant, got !tosa.shape type")
        if full:
            _check_full(fn, inputs, outputs, target, lambda m, fn=fn: fail(fn, m))
    return errors


def _check_full(fn: func.FuncOp, inputs, outputs, target: Target, fail: Callable[[str], None]) -> None:
    max_rank = target.limits["MAX_RANK"]
    for kind, types in (("input argument", inputs), ("return value", outputs)):
        for index, t in enumerate(types):
            if isinstance(t, ShapeType):
                continue  # reported above
            if not isinstance(t, TensorType):
                fail("failed level check: unranked tensor" if "tensor<*" in _type_name(t)
                     else f"is not profile-aligned: {kind} {index} of type {_type_name(t)} is not a tensor")
                continue
            shape = t.get_shape()
            if len(shape) > max_rank:
                fail(f"failed level check: {kind} {index} rank(shape) <= MAX_RANK ({max_rank}), "
                     f"got {len(shape)}")
            if 0 in shape:
                fail("Function argument or return types must not have zero dimensions")
            element = _type_name(t.element_type)
            if element not in TOSA_ELEMENT_TYPES:
                fail(f"is not profile-aligned: element type '{element}' is not legal")


def check_region_isolation(module: ModuleOp) -> int:
    """Errors for COND_IF / WHILE_LOOP regions reading values defined outside the op."""
    from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp, WhileLoopOp

    errors = 0
    for op in module.walk():
        if isinstance(op, CondIfOp):
            names = ("then", "else")
        elif isinstance(op, WhileLoopOp):
            names = ("cond", "body")
        else:
            continue
        for name, region in zip(names, op.regions):
            if _reads_from_above(op, region):
                errors += 1
                emit_error(op, f"'{op.name}' op is not conformant to the TOSA specification. "
                               f"It requires the '{name}' region is isolated from above.")
    return errors


def _reads_from_above(owner: Operation, region) -> bool:
    for inner in region.walk():
        for operand in inner.operands:
            # defined inside when `owner` is an ancestor of its defining op (or argument's block)
            node = operand.owner if isinstance(operand.owner, Operation) else operand.owner.parent_op()
            while node is not None and node is not owner:
                node = node.parent_op()
            if node is None:
                return True
    return False

"""Read pre-1.0 TOSA text and upgrade it: the Python API and the `tosa-opt` hook.

`tosa-opt` first reads its input as TOSA 1.0.1 (the usual path, nothing extra on success).
Only if that fails to parse or verify is the input read again with the legacy op set
(dialect.py); if that read succeeds and finds old spellings (`legacy_reason`), the module is
upgraded (upgrade.py), a remark names the upgrade, and the upgraded module goes on to the
pipeline. Otherwise the diagnostics of the first read are reported, exactly as before.
`--tosa-no-upgrade` turns the upgrade into a located error at the first old spelling.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    UnrankedTensorType,
    i32,
)
from xdsl.ir import Operation


# Attributes that only pre-1.0 ops carried (1.0 has operands or other names for them).
OLD_ATTRIBUTES = {
    "quantization_info": "quantization_info (1.0: zero-point operands)",
    "min_int": "min_int (1.0: min_val)", "max_int": "max_int (1.0: max_val)",
    "min_fp": "min_fp (1.0: min_val)", "max_fp": "max_fp (1.0: max_val)",
    "new_shape": "new_shape (1.0: a !tosa.shape operand)",
    "multiples": "multiples (1.0: a !tosa.shape operand)",
    "double_round": "double_round (1.0: rounding_mode)",
    "multiplier": "multiplier (1.0: an operand)",
    "value": "value (1.0: values)",
    "identifier": "identifier (1.0: operator_name)",
    "output_size": "output_size (1.0: scale/offset/border operands)",
    "stride_fp": "stride_fp (1.0: scale operand)",
    "out_shape": "out_shape (removed in 1.0)",
}
# Old op names (1.0 renamed or removed them).
OLD_NAMES = {
    "fully_connected": "removed in 1.0 (RESHAPE + CONV2D + RESHAPE)", "div": "renamed INTDIV in 1.0",
    "reduce_prod": "renamed REDUCE_PRODUCT in 1.0", "reluN": "removed in 1.0 (CLAMP)",
    "apply_scale": "not a TOSA operator",
    "variable.read": "LLVM 18's name of 1.0's tosa.variable_read",
    "variable.write": "LLVM 18's name of 1.0's tosa.variable_write",
}
# 1.0 operand counts of ops whose old form had fewer operands.
NEW_OPERAND_COUNTS = {
    "conv2d": 5, "conv3d": 5, "depthwise_conv2d": 5, "transpose_conv2d": 5, "matmul": 4,
    "avg_pool2d": 3, "negate": 3, "mul": 3, "rescale": 5, "resize": 4, "reshape": 2, "slice": 3,
    "tile": 2, "transpose": 1, "pad": 3,
}


def legacy_reason(op: Operation) -> str | None:
    """Why `op` is a pre-1.0 spelling, or None if it reads as TOSA 1.0."""
    # imported here: a 1.0 input never gets this far (tosa-run start-up, ~25 ms)
    from tosa_xdsl.frontends.legacy.dialect import OLD_SPELLING, LegacyOp
    from tosa_xdsl.frontends.legacy.quant_types import LegacyUniformQuantType

    for t in [*(r.type for r in op.results), *(o.type for o in op.operands)]:
        if isinstance(t, (TensorType, UnrankedTensorType)) and isinstance(t.element_type, LegacyUniformQuantType):
            return f"'{op.name}' uses the quantized element type {t.element_type} (removed in 1.0)"
    marked = getattr(op, OLD_SPELLING, None)
    if marked is not None:
        return f"{marked} is a pre-1.0 spelling"
    if not isinstance(op, LegacyOp):
        return None
    short = op.op_name
    if short in OLD_NAMES:
        return f"'{op.name}' is {OLD_NAMES[short]}"
    for key in (*op.properties, *op.attributes):
        if key in OLD_ATTRIBUTES and not (key == "multiplier" and short != "rescale"):
            return f"'{op.name}' has the pre-1.0 attribute {OLD_ATTRIBUTES[key]}"
    if short == "variable" and op.attr("name") is not None:
        return "'tosa.variable' has LLVM 18's attributes name/type (1.0: sym_name, var_shape, type)"
    if short == "mul" and op.attr("shift") is not None:
        return "'tosa.mul' has the pre-1.0 attribute shift (1.0: an operand)"
    if short in ("slice",) and op.attr("start") is not None:
        return "'tosa.slice' has the pre-1.0 attributes start/size (1.0: !tosa.shape operands)"
    if short == "resize" and op.attr("scale") is not None:
        return "'tosa.resize' has the pre-1.0 attributes scale/offset/border (1.0: !tosa.shape operands)"
    if short == "custom" and op.attr("config") is not None:
        return "'tosa.custom' has the pre-1.0 attribute config (1.0: domain_name)"
    if short == "pad" and len(op.operands) >= 2 and not _is_shape(op.operands[1]):
        return "'tosa.pad' takes its padding as a tensor (1.0: a !tosa.shape operand)"
    expected = NEW_OPERAND_COUNTS.get(short)
    if expected is not None and len(op.operands) != expected:
        return f"'{op.name}' has {len(op.operands)} operands (pre-1.0 form; 1.0 has {expected})"
    for key, value in (*op.properties.items(), *op.attributes.items()):
        if isinstance(value, ArrayAttr) and value.data and all(isinstance(v, IntegerAttr) for v in value.data):
            return f"'{op.name}' attribute {key} is an integer list [...] (1.0: array<i64: ...>)"
        if key == "axis" and isinstance(value, IntegerAttr) and value.type != i32:
            return f"'{op.name}' attribute axis is {value.type} (1.0: i32)"
    return None


def _is_shape(value: Any) -> bool:
    from tosa_xdsl.ir.types import ShapeType

    return isinstance(value.type, ShapeType)


def legacy_ops(module: Operation) -> Iterator[tuple[Operation, str]]:
    for op in module.walk():
        reason = legacy_reason(op)
        if reason is not None:
            yield op, reason


def read_legacy(text: str, name: str = "<string>") -> ModuleOp:
    """Parse pre-1.0 (or mixed) TOSA text into a module of legacy ops (not yet upgraded;
    run `TosaUpgradeTo10Pass` or `upgrade_module` on it). Raises xDSL's ParseError."""
    from xdsl.parser import Parser

    from tosa_xdsl.frontends.legacy.dialect import legacy_context

    return Parser(legacy_context(), text, name).parse_module()


def upgrade_text(text: str, name: str = "<string>") -> ModuleOp:
    """Read pre-1.0 TOSA text and return the upgraded TOSA 1.0.1 module (verified)."""
    from tosa_xdsl.frontends.legacy.upgrade import upgrade_module

    module = read_legacy(text, name)
    upgrade_module(module)
    module.verify()
    return module


# --------------------------------------------------------------------------- tosa-opt hook


def read_chunk(driver: Any, engine: Any, src: Any, text: str, base: int, *, upgrade: bool = True,
               allow_unregistered: bool = False) -> ModuleOp | None:
    """Parse and verify one input chunk with tosa_xdsl.driver.Driver, upgrading pre-1.0
    TOSA on read (`upgrade=False`: pre-1.0 input is an error). Returns the module (verified
    unless the driver's options say not to) or None after reporting an error."""
    from tosa_xdsl.diagnostics import (
        Diagnostic,
        DiagnosticEngine,
        Severity,
        emit_remark,
        op_loc,
    )

    verify = driver.options.verify
    first: list[Any] = []
    trial = DiagnosticEngine(first.append)
    trial.fallback = engine.fallback
    with trial.activate():
        module = driver.parse(trial, src, text, base)
        ok = module is not None and (not verify or driver.verify(trial, module))
        trial.flush()
    if ok:
        _replay(first, engine)
        return module

    legacy = _read_legacy_quietly(driver, src, text, base, allow_unregistered)
    if legacy is not None and _has_unresolved_names(legacy):
        legacy = None  # the 1.0 reader's "use of undeclared SSA value name" says it, located
    found = next(legacy_ops(legacy), None) if legacy is not None else None
    if legacy is None or found is None:
        _replay(first, engine)
        return None
    op, reason = found
    if not upgrade:
        engine.emit(Diagnostic(Severity.ERROR, f"pre-1.0 TOSA input: {reason}; not upgraded "
                                               "(--tosa-no-upgrade)", op_loc(op) or engine.fallback))
        return None

    from tosa_xdsl.frontends.legacy.upgrade import (
        PASS_NAME,
        UpgradeError,
        describe,
        upgrade_module,
    )

    try:
        changed = upgrade_module(legacy)
    except UpgradeError:
        return None  # every failure was emitted, located, to the active engine
    # located at the first old spelling (the module of a split chunk has no line of its own)
    emit_remark(op_loc(op) or op_loc(legacy) or engine.fallback,
                f"upgraded pre-1.0 TOSA to TOSA 1.0.1 ({PASS_NAME}): {describe(changed)}")
    if verify and not driver.verify(engine, legacy):
        return None
    return legacy


def _has_unresolved_names(module: ModuleOp) -> bool:
    """A forward reference xDSL left unresolved (a use whose name is defined nowhere in
    scope): the upgrade would trip on the placeholder (found by the fuzz campaign)."""
    from tosa_xdsl.verification.dominance import undefined_operand_error

    return any(undefined_operand_error(op) is not None for op in module.walk())


def _replay(diags: list[Any], engine: Any) -> None:
    for diag in diags:
        engine.emit(diag)


def _read_legacy_quietly(driver: Any, src: Any, text: str, base: int, allow_unregistered: bool) -> ModuleOp | None:
    from tosa_xdsl.diagnostics import DiagnosticEngine
    from tosa_xdsl.frontends.legacy.dialect import legacy_context

    saved = driver.ctx
    driver.ctx = legacy_context(allow_unregistered=allow_unregistered)
    try:
        with DiagnosticEngine().activate() as quiet:
            return driver.parse(quiet, src, text, base)
    finally:
        driver.ctx = saved

"""Running a TOSA module: the Interpreter subclass that locates failures, input checking,
sessions (variable state), and the `run` API.

    outputs = run(module, [x], entry="main")                   # one fresh session
    s = Session(module); s.call([x]); s.call([y])              # variables persist

Every op implementation is called directly by `TosaInterpreter._run_op` (not through xDSL's
`_InterpreterFunctionImpls.run`, which wraps any exception with `Operation.emit_error` and
renders the whole module into the message): numerics' ERROR_IF / REQUIRE exceptions become
located `TosaRunError`s, a missing implementation an "unsupported" error, anything else an
"internal" error naming the op. Each result is checked against its type (numpy dtype and
static shape) so a kernel bug cannot propagate silently.

The whole run executes under `np.errstate(all="ignore")`: floating-point overflow/invalid
produce IEEE results (inf/NaN) as the spec asks, never a warning; integer operators check
their ranges themselves (REQUIRE) before narrowing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.interpreter import Interpreter, OpImplResult
from xdsl.ir import Attribute, Operation
from xdsl.traits import SymbolTable

from tosa_xdsl import numerics
from tosa_xdsl.interpreter import implementation_classes
from tosa_xdsl.interpreter.errors import (
    InputError,
    NotImplementedOp,
    TensorTooLarge,
    TosaRunError,
    error_if_failed,
    loop_limit_exceeded,
    require_failed,
)
from tosa_xdsl.interpreter.values import check_value, dtype_of
from tosa_xdsl.ir.types import ShapeType

_RESULT_SPEC_CACHE: dict[Attribute, tuple[np.dtype, tuple[int, ...] | None] | None] = {}


def _result_spec(t: Attribute):
    """(dtype, static shape with -1 for dynamic dims, or None if unranked) or None (shape)."""
    spec = _RESULT_SPEC_CACHE.get(t, False)
    if spec is False:
        if isinstance(t, ShapeType):
            spec = None
        elif isinstance(t, MemRefType):  # a buffer: checked, never copied (aliases share it)
            spec = (dtype_of(t.get_element_type()), tuple(t.get_shape()))
        else:
            shape = tuple(t.get_shape()) if isinstance(t, TensorType) else None
            spec = (dtype_of(t), shape)
        _RESULT_SPEC_CACHE[t] = spec
    return spec


def _has_unknown_operand_shape(op: Operation) -> bool:
    from xdsl.dialects.builtin import TensorType, UnrankedTensorType

    for operand in op.operands:
        t = operand.type
        if isinstance(t, UnrankedTensorType) or (
                isinstance(t, TensorType) and any(d < 0 for d in t.get_shape())):
            return True
    return False


def _fix_result(op: Operation, index: int, value: Any, specs: dict[Any, tuple[Attribute, Any]]) -> Any:
    """Check result `index` of `op` against its type; numpy scalars become 0-d arrays.

    `specs` (one per interpreter) maps a result value to (its type, the spec): types are
    dataclasses whose hash walks every parameter, SSA values hash by identity, so this is
    the cheap lookup on every run; the type is kept to notice a value whose type changed."""
    res = op.results[index]
    t = res.type
    hit = specs.get(res)
    if hit is not None and hit[0] is t:
        spec = hit[1]
    else:
        spec = _result_spec(t)
        specs[res] = (t, spec)
    if spec is None:  # !tosa.shape
        if isinstance(value, tuple) and len(value) == t.rank.data:
            return value
        raise TosaRunError("internal", f"internal error: {op.name} result {index} should be a "
                           f"shape of {t.rank.data} values, got {value!r}"[:300], op)
    if isinstance(value, np.generic):
        value = np.asarray(value)
    dtype, shape = spec
    if not isinstance(value, np.ndarray) or value.dtype != dtype:
        got = value.dtype if isinstance(value, np.ndarray) else type(value).__name__
        raise TosaRunError("internal", f"internal error: '{op.name}' result {index} has dtype "
                           f"{got}, its type {t} needs {dtype}", op)
    if shape is not None:
        vs = value.shape
        if len(vs) != len(shape) or any(d >= 0 and d != v for d, v in zip(shape, vs)):
            if _has_unknown_operand_shape(op):
                # The verifier could not compare: a `tensor<?x?xf32>` operand declared to
                # give a static result that the run does not produce. The graph's fault
                # (tosa_execute_graph: outputs must meet the Arguments table), not ours.
                raise TosaRunError("error", f"'{op.name}' result {index} has shape {list(vs)} at "
                                   f"run time, but its type is {t}", op)
            raise TosaRunError("internal", f"internal error: '{op.name}' result {index} has shape "
                               f"{list(vs)}, its type is {t}", op)
    return value


# A WHILE_LOOP (or a lowered scf.while) whose condition never turns false would run forever:
# legal TOSA, but a run must end. Past this many iterations of one loop the run stops with a
# located error (tosa-run --max-loop-iterations N changes it).
DEFAULT_MAX_LOOP_ITERATIONS = 100_000


class TosaInterpreter(Interpreter):
    """xDSL's Interpreter, calling implementations directly and locating their failures."""

    # set by Session
    warn: Callable[[TosaRunError], None] | None = None
    max_loop_iterations: int = DEFAULT_MAX_LOOP_ITERATIONS
    op_stack: list[Operation]
    result_specs: dict[Any, tuple[Attribute, Any]]

    def _run_op(self, op: Operation, inputs) -> OpImplResult:
        entry = self._impls._impl_dict.get(type(op))  # pyright: ignore[reportPrivateUsage]
        if entry is None:
            raise NotImplementedOp(op)
        ft, impl_fn = entry
        stack = self.op_stack
        stack.append(op)
        try:
            result = impl_fn(ft, self, op, inputs)
        except TosaRunError:
            raise
        except numerics.TosaErrorIf as err:
            raise error_if_failed(op, err.condition) from None
        except numerics.TosaUnpredictable as err:
            raise require_failed(op, err.condition) from None
        except TensorTooLarge as err:
            raise TosaRunError("limit", f"'{op.name}': {err}", op) from None
        except numerics.UnknownElementType as err:
            if not err.type_text[:1] in "ui" or not err.type_text.lstrip("ui").isdigit():
                raise TosaRunError("internal", f"internal error while running '{op.name}': {err}", op) from err
            raise TosaRunError("unsupported", f"'{op.name}' on element type '{err.type_text}' is not run: "
                               "not a TOSA 1.0.1 type (tosa-convert-integer-type-to-signless makes "
                               "unsigned types signless)", op) from None
        except RecursionError:
            raise TosaRunError("internal", f"graph nested too deeply while running '{op.name}'", op) from None
        except MemoryError:
            raise TosaRunError("internal", f"out of memory while running '{op.name}'", op) from None
        except Exception as err:
            text = str(err).strip().splitlines()[0][:400] if str(err).strip() else ""
            raise TosaRunError(
                "internal",
                f"internal error while running '{op.name}': {type(err).__name__}"
                + (f": {text}" if text else ""),
                op,
            ) from err
        finally:
            stack.pop()
        values = result.values
        if len(values) != len(op.results):
            raise TosaRunError("internal", f"internal error: '{op.name}' implementation returned "
                               f"{len(values)} values for {len(op.results)} results", op)
        if values:
            specs = self.__dict__.get("result_specs")
            if specs is None:
                specs = self.result_specs = {}
            result = OpImplResult(tuple(_fix_result(op, i, v, specs) for i, v in enumerate(values)),
                                  result.terminator_value)
        return result

    @property
    def current_op(self) -> Operation | None:
        return self.op_stack[-1] if self.op_stack else None


# Dialects whose ops the TOSA-level implementation modules cover. A module made of these
# only does not need the "lowered.*" implementation modules, whose imports (xDSL's arith,
# math, tensor, linalg, scf, ml_program dialects) cost more than running a small model.
_TOSA_LEVEL_DIALECTS = frozenset({"builtin", "func", "tosa"})


def _tosa_level_only(module: ModuleOp) -> bool:
    return all(op.name.split(".", 1)[0] in _TOSA_LEVEL_DIALECTS for op in module.walk())


def build_interpreter(module: ModuleOp) -> TosaInterpreter:
    """A TosaInterpreter for `module` with every TOSA implementation (and func.*, in
    control_flow.py) registered, and the lowered-stage ones when `module` has ops of
    other dialects."""
    interpreter = TosaInterpreter(module, index_bitwidth=64)
    interpreter.op_stack = []
    interpreter.result_specs = {}
    classes = implementation_classes(lowered=not _tosa_level_only(module))
    interpreter.allocations = None  # the lowered memref functions (their leak counter), if any
    for cls in classes:
        impl = cls()
        if hasattr(impl, "live_allocations"):
            interpreter.allocations = impl
        interpreter.register_implementations(impl, override=True)
    return interpreter


# -------------------------------------------------------------------- allow-unpredictable


def _warn_on_unpredictable(interpreter: TosaInterpreter):
    """--allow-unpredictable: a failed REQUIRE becomes a located warning and the run goes on."""

    def warn(text: str) -> None:
        op = interpreter.current_op
        if interpreter.warn is not None and op is not None:
            interpreter.warn(require_failed(op, text))

    return numerics.on_unpredictable(warn)


# --------------------------------------------------------------------------- sessions


def entry_function(module: ModuleOp, entry: str) -> func.FuncOp:
    op = SymbolTable.lookup_symbol(module, entry)
    if not isinstance(op, func.FuncOp):
        names = [f.sym_name.data for f in module.walk() if isinstance(f, func.FuncOp)]
        hint = f" (functions: {', '.join('@' + n for n in names)})" if names else " (the module has no functions)"
        raise InputError(f"no function @{entry} in the module{hint}")
    if not op.body.blocks:
        raise InputError(f"function @{entry} is only a declaration")
    return op


OUT_PARAMS_ATTR = "tosa_xdsl.out_params"  # set by one-shot-bufferize (docs/bufferization.md)


def out_param_count(fn: func.FuncOp) -> int:
    """How many trailing memref arguments of a bufferized function are its outputs
    (caller-allocated out-params the function writes); 0 for a tensor-level function."""
    attr = fn.attributes.get(OUT_PARAMS_ATTR)
    return int(attr.value.data) if attr is not None else 0  # type: ignore[attr-defined]


def io_types(fn: func.FuncOp) -> tuple[list[Attribute], list[Attribute]]:
    """(input types, output types) of `fn` as a caller sees them: for a bufferized function
    the out-params are outputs (in order, before any non-buffer results)."""
    args = list(fn.function_type.inputs.data)
    k = out_param_count(fn)
    outs = list(fn.function_type.outputs.data)
    if k:
        return args[:len(args) - k], [*args[len(args) - k:], *outs]
    return args, outs


def check_inputs(fn: func.FuncOp, inputs: Sequence[Any]) -> list[Any]:
    """The inputs as the interpreter's values, or InputError naming the argument at fault.
    A memref argument (bufferized function) gets a read-only copy: the function must not
    write its inputs, and a write that does is caught."""
    arg_types = io_types(fn)[0]
    name = fn.sym_name.data
    if len(inputs) != len(arg_types):
        raise InputError(f"@{name} takes {len(arg_types)} input(s), {len(inputs)} given")
    values: list[Any] = []
    for i, (value, t) in enumerate(zip(inputs, arg_types)):
        if isinstance(t, ShapeType):
            try:
                value = tuple(int(v) for v in np.asarray(value).reshape(-1))
            except (TypeError, ValueError):
                raise InputError(f"argument #{i} of @{name} must be a shape of {t.rank.data} integers") from None
        elif not isinstance(t, TensorType | MemRefType):
            raise InputError(f"argument #{i} of @{name} has type {t}, which tosa-run cannot feed")
        elif not isinstance(value, np.ndarray):
            try:
                value = np.asarray(value, dtype=dtype_of(t.get_element_type()))
            except (TypeError, ValueError, OverflowError) as err:
                raise InputError(f"argument #{i} of @{name}: cannot convert to {t}: {err}") from None
        as_tensor = TensorType(t.get_element_type(), t.get_shape()) if isinstance(t, MemRefType) else t
        why = check_value(value, as_tensor)
        if why is not None:
            raise InputError(f"argument #{i} of @{name} ({t}): {why}")
        if isinstance(t, MemRefType):
            value = np.array(value)
            value.setflags(write=False)
        values.append(value)
    return values


class Session:
    """One run of a module: an interpreter plus the state of its `tosa.variable`s, which
    persists across `call`s."""

    def __init__(self, module: ModuleOp, *, allow_unpredictable: bool = False,
                 max_loop_iterations: int = DEFAULT_MAX_LOOP_ITERATIONS):
        self.module = module
        self.allow_unpredictable = allow_unpredictable
        self.interpreter = build_interpreter(module)
        self.interpreter.max_loop_iterations = max_loop_iterations
        self.warnings: list[TosaRunError] = []
        self._warned: set[tuple[int, str]] = set()
        # TOSA 1.0.2's graph_result of the last call (a value, threaded through nested
        # COND_IF/WHILE_LOOP graphs): "valid", "unpredictable" or "error".
        self.graph_result = "valid"
        self.interpreter.warn = self._warn

    def _warn(self, diag: TosaRunError) -> None:
        if diag.kind == "unpredictable":
            self.graph_result = "unpredictable"
        key = (id(diag.op), diag.message)
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(diag)

    def call(self, inputs: Sequence[Any], entry: str = "main") -> list[Any]:
        fn = entry_function(self.module, entry)
        values = check_inputs(fn, inputs)
        interpreter = self.interpreter
        interpreter.op_stack = []
        self.graph_result = "valid"
        with contextlib.ExitStack() as stack:
            stack.enter_context(np.errstate(all="ignore"))
            if self.allow_unpredictable:
                stack.enter_context(_warn_on_unpredictable(interpreter))
            # a bufferized function: allocate its out-params, call, return them
            outs = [np.zeros(tuple(t.get_shape()), dtype_of(t.get_element_type()))
                    for t in io_types(fn)[1][:out_param_count(fn)]]
            bounded = _LoopBoundGlobals.of(self.module, interpreter)
            if bounded is not None:
                bounded.arm(self.interpreter.max_loop_iterations)
            try:
                results = [*outs, *interpreter.call_op(fn, (*values, *outs))]
                if bounded is not None:
                    bounded.check(self.interpreter.max_loop_iterations)
                # buffers the function returned (dynamic shapes) are the caller's: freed here
                returned = sum(isinstance(t, MemRefType) for t in fn.function_type.outputs.data)
                if returned and interpreter.allocations is not None:
                    interpreter.allocations.live_allocations -= returned
            except TosaRunError as err:
                raise self._graph_result_of(err) from None
            except RecursionError:
                raise TosaRunError("internal", "graph nested too deeply (Python recursion limit)",
                                   interpreter.current_op) from None
            except Exception as err:  # the interpreter's own errors (e.g. unknown callee)
                raise TosaRunError("internal", f"internal error: {type(err).__name__}: {err}",
                                   interpreter.current_op or fn) from err
        return list(results)


    def _graph_result_of(self, err: TosaRunError) -> TosaRunError:
        """Spec 4.3 (1.0.2): ERROR_IF does not register once graph_result is unpredictable
        (a REQUIRE failed earlier under allow_unpredictable): the result stays unpredictable."""
        if err.kind == "error" and self.graph_result == "unpredictable":
            return TosaRunError("unpredictable", f"graph is unpredictable (a REQUIRE failed earlier); "
                                f"then {err.message}", err.op, err.condition)
        if err.kind in ("error", "unpredictable"):
            self.graph_result = err.kind
        return err


class _LoopBoundGlobals:
    """A module past `bound-while-loops` (interpreter/loop_bound.py): its loops stop at the
    bound read from a global and set a flag; the bound is ours and the flag our diagnostic."""

    def __init__(self, module: ModuleOp, table: dict):
        self.module = module
        self.table = table

    @classmethod
    def of(cls, module: ModuleOp, interpreter: TosaInterpreter) -> _LoopBoundGlobals | None:
        from xdsl.dialects import memref

        from tosa_xdsl.interpreter.loop_bound import FLAG_GLOBAL
        from tosa_xdsl.interpreter.lowered.memref import LoweredMemrefFunctions

        if not any(isinstance(o, memref.GlobalOp) and o.sym_name.data == FLAG_GLOBAL for o in module.ops):
            return None
        return cls(module, interpreter.get_data(LoweredMemrefFunctions, "globals", dict))

    def arm(self, limit: int) -> None:
        from tosa_xdsl.interpreter.loop_bound import BOUND_GLOBAL, FLAG_GLOBAL

        self.table[BOUND_GLOBAL] = np.array(limit, np.int64)
        self.table[FLAG_GLOBAL] = np.array(0, np.int64)

    def check(self, limit: int) -> None:
        from tosa_xdsl.interpreter.loop_bound import FLAG_GLOBAL, loop_at

        ident = int(self.table[FLAG_GLOBAL])
        if ident:
            op = loop_at(self.module, ident)
            if op is not None and op.name in ("scf.while", "tosa.while_loop"):
                raise loop_limit_exceeded(op, limit)
            raise loop_limit_exceeded(op or self.module, limit, "'scf.while'")  # past convert-scf-to-cf


def run(module: ModuleOp, inputs: Sequence[Any], entry: str = "main", *,
        allow_unpredictable: bool = False,
        max_loop_iterations: int = DEFAULT_MAX_LOOP_ITERATIONS) -> list[Any]:
    """Run function `entry` of `module` on `inputs` (argument order); the results in result
    order. Raises InputError for inputs that do not fit, TosaRunError for run-time failures
    (kind "limit" for a loop past `max_loop_iterations`)."""
    return Session(module, allow_unpredictable=allow_unpredictable,
                   max_loop_iterations=max_loop_iterations).call(inputs, entry)

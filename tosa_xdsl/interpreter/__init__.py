"""The TOSA reference interpreter: every operator's Operation Function (spec 1.0.1), on numpy.

Python API
----------
    from tosa_xdsl.interpreter import run
    outputs = run(module, [x0, x1], entry="main")      # list[np.ndarray], in result order

`run` checks the inputs against the entry function's argument types (numpy dtype and shape
exactly as `tosa_xdsl.interpreter.values` says), executes, and returns the results. A spec
ERROR_IF raises `TosaRunError(kind="error")`, a failed REQUIRE `TosaRunError(kind=
"unpredictable")` (both located at the op: see `errors.py`); `allow_unpredictable=True`
turns REQUIRE failures into warnings and computes on. `Session(module)` keeps the state of
`tosa.variable`s across several calls (`session.call(inputs)`); `run` is one fresh session.

Registration convention (for everyone writing operator implementations)
-----------------------------------------------------------------------
* One module per group of operators under `tosa_xdsl/interpreter/`, listed in
  `IMPL_MODULES` below, holding exactly one `InterpreterFunctions` subclass decorated with
  xDSL's `@register_impls`; `implementation_classes()` finds it (any class defined in the
  module that subclasses InterpreterFunctions).
* One method per op class::

      @impl(AddOp)
      def run_add(self, interpreter, op, args) -> tuple:
          a, b = args                       # numpy arrays (tensors) / tuples of ints (shapes)
          return (result_array,)            # one entry per op result

* Values follow `values.py`: tensors are numpy arrays whose dtype is *exactly*
  `dtype_of(result type)` (i48 in int64, i4 in int8, bf16/fp8 as ml_dtypes), shapes are
  tuples of Python ints. The runner checks every result against its type (dtype and static
  shape) and reports a mismatch as an internal error, so a wrong dtype is caught at once.
* Inputs are read-only: constants are shared between runs and marked non-writeable; never
  modify an argument in place (np.add(a, b, out=a) is a bug).
* Element types for the chapter-4 helpers: `common.tname(op.input.type)` gives numerics'
  short names ("i8", "i48", "fp32", "bf16", "bool", ...). Properties: `common.prop(op,
  "axis")` returns plain Python values (int, bool, str for enums, list for arrays).
* Run-time checks: call `numerics.error_if(cond, text)` / `numerics.require(cond, text)`
  (or the helpers that do). The runner turns their exceptions into located diagnostics
  (`FILE:LINE:COL: error: ...`); do not catch them. Never let numpy warn: compute under
  `np.errstate` where overflow/invalid is expected, and return exact results.
* Operators not (yet) implemented raise `errors.NotImplementedOp` automatically: the runner
  reports "no interpreter implementation for 'tosa.xxx'".
"""

from __future__ import annotations

import importlib

from xdsl.interpreter import InterpreterFunctions

# Implementation modules, in registration order (a later module must not redefine an op).
IMPL_MODULES = (
    "elementwise",      # 2.5 binary, 2.6 unary, 2.7 ternary, 2.8 comparison, 2.4 activation
    "reduction",        # 2.9
    "data_layout",      # 2.10
    "conversion",       # 2.13 CAST, RESCALE
    "data_nodes",       # 2.14 CONST, IDENTITY; 2.18 CONST_SHAPE
    "custom",           # 2.15 CUSTOM (register_custom)
    "control_flow",     # 2.16 COND_IF, WHILE_LOOP, yield; func.call / func.return
    "variables",        # 2.17
    # the tensor-chapter kernels (another developer): absent modules are skipped
    "tensor_ops",       # 2.3 ARGMAX, AVG_POOL2D, CONV2D, ..., TRANSPOSE_CONV2D
    "scatter_gather",   # 2.11 GATHER, SCATTER
    "image",            # 2.12 RESIZE
    "table",            # 2.5.17 TABLE
    # the lowered stages (arith/math/tensor/linalg/scf/ml_program on numpy): lowered/
    "lowered.arith", "lowered.math", "lowered.tensor", "lowered.linalg", "lowered.scf",
    "lowered.ml_program",
    # stage 2 (bufferized/loop stages): memrefs are numpy arrays (views share memory)
    "lowered.memref", "lowered.bufferization", "lowered.affine", "lowered.cf",
)


def implementation_classes() -> list[type[InterpreterFunctions]]:
    """The InterpreterFunctions subclass of every implementation module that exists."""
    found: list[type[InterpreterFunctions]] = []
    for name in IMPL_MODULES:
        qualified = f"{__name__}.{name}"
        try:
            module = importlib.import_module(qualified)
        except ModuleNotFoundError as err:
            if err.name == qualified:  # the module is not written yet
                continue
            raise
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, InterpreterFunctions)
                    and value.__module__ == qualified):
                found.append(value)
    return found


def __getattr__(name: str):
    # Lazy: `import tosa_xdsl.interpreter.values` must not pull in the runner.
    if name in ("run", "Session", "build_interpreter"):
        from tosa_xdsl.interpreter import runner

        return getattr(runner, name)
    if name in ("TosaRunError", "InputError"):
        from tosa_xdsl.interpreter import errors

        return getattr(errors, name)
    if name == "register_custom":
        from tosa_xdsl.interpreter.custom import register_custom

        return register_custom
    raise AttributeError(name)


__all__ = ["run", "Session", "build_interpreter", "TosaRunError", "InputError",
           "register_custom", "implementation_classes", "IMPL_MODULES"]

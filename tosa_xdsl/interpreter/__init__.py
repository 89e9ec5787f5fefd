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
* One module per group of operators under `tosa_xdsl/interpreter/` (per spec chapter;
  `lowered/` for the dialects of the lowered stages), holding one `InterpreterFunctions`
  subclass decorated with xDSL's `@register_impls`; `implementation_classes()` finds it by
  listing the package (any class defined in a module that subclasses InterpreterFunctions).
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
import pkgutil

from xdsl.interpreter import InterpreterFunctions


def implementation_classes(lowered: bool = True) -> list[type[InterpreterFunctions]]:
    """The InterpreterFunctions subclass of every module of this package and (unless
    `lowered=False`) of `lowered/`, discovered by listing them: a new implementation module
    needs no registration."""
    found: list[type[InterpreterFunctions]] = []
    for package in (__name__, f"{__name__}.lowered")[: 2 if lowered else 1]:
        path = importlib.import_module(package).__path__
        for info in sorted(pkgutil.iter_modules(path), key=lambda i: i.name):
            if info.ispkg:
                continue
            qualified = f"{package}.{info.name}"
            module = importlib.import_module(qualified)
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
           "register_custom", "implementation_classes"]

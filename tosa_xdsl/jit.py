"""Native execution: compile an llvm-dialect module with xDSL's LLVM backend (llvmlite MCJIT)
and call its functions on numpy arrays.

    fn = jit.compile(llvm_module, "main")          # keeps the execution engine alive
    fn(x, out)                                     # memrefs: numpy arrays, by pointer

    outs = jit.run_tosa(tosa_module, [x])          # lower with tosa-to-llvm, then call

The ABI is convert-to-llvm's (lowering/to_llvm.py): a memref argument is the data pointer of
a C-contiguous numpy array whose dtype is exactly the interpreter's for the element type
(`tosa_xdsl.interpreter.values.dtype_of`: bool for i1, int64 for i48, ml_dtypes for bf16 and
fp8); scalars are passed by value. `compile` checks every array against the llvm function's
signature count and, when given the pre-LLVM signature (`CompiledFunction.arg_types`), its
dtype and shape: a mismatch is a ValueError, never a wild write.

`run_tosa` lowers a TOSA module (function results become out-parameters after the inputs),
allocates the outputs from the TOSA-level signature and returns them as numpy arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute

DEFAULT_PIPELINE = "tosa-to-llvm"


class JitError(Exception):
    """Compilation or call failure (one line; tosa-run prints it)."""


@dataclass
class CompiledFunction:
    """A native function and what keeps it alive (the MCJIT engine)."""

    name: str
    raw: Any  # xdsl.jit.llvm.backend.LLVMRawJITFunc: owns engine and target machine
    llvm_type: llvm.LLVMFunctionType
    arg_types: list[Attribute] | None = None  # pre-LLVM types (memref/tensor) for checks
    keep: list[Any] = field(default_factory=list)

    def __call__(self, *args: Any) -> Any:
        from cffi import FFI

        ffi = _ffi()
        inputs = list(self.llvm_type.inputs.data)
        if len(args) != len(inputs):
            raise ValueError(f"@{self.name} takes {len(inputs)} argument(s), {len(args)} given")
        c_args = []
        for i, (a, t) in enumerate(zip(args, inputs)):
            if isinstance(t, llvm.LLVMPointerType):
                if not isinstance(a, np.ndarray):
                    raise ValueError(f"argument #{i} of @{self.name} must be a numpy array")
                if not a.flags.c_contiguous:
                    raise ValueError(f"argument #{i} of @{self.name} must be C-contiguous")
                if self.arg_types is not None:
                    _check_array(a, self.arg_types[i], f"argument #{i} of @{self.name}")
                c_args.append(ffi.cast("void *", a.ctypes.data))
            else:
                c_args.append(a.item() if isinstance(a, np.generic | np.ndarray) else a)
        del FFI
        return self.raw.c_func(*c_args)


_FFI = None


def _ffi():
    global _FFI
    if _FFI is None:
        from cffi import FFI

        _FFI = FFI()
    return _FFI


def _check_array(a: np.ndarray, t: Attribute, what: str) -> None:
    from tosa_xdsl.interpreter.values import dtype_of

    if not hasattr(t, "get_shape"):
        return
    elem = t.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    want_dtype = dtype_of(elem)
    want_shape = tuple(t.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    if a.dtype != want_dtype or a.shape != want_shape:
        raise ValueError(f"{what} must be {want_dtype}{list(want_shape)}, got {a.dtype}{list(a.shape)}")


def compile(module: ModuleOp, entry: str = "main", *, opt_level: int = 2,  # noqa: A001
            arg_types: Sequence[Attribute] | None = None, noalias: bool = False) -> CompiledFunction:
    """JIT-compile `entry` of an llvm-dialect module (convert-to-llvm's output). `noalias`:
    the caller promises that no two pointer arguments overlap (NativeModule allocates its
    outputs), so they are marked `noalias` and LLVM keeps register tiles without alias checks."""
    from xdsl.jit.llvm.backend import LLVMJITBackend
    from xdsl.traits import SymbolTable

    from tosa_xdsl.context import make_context
    from tosa_xdsl.xdsl_patches import install_llvm_backend_patches

    install_llvm_backend_patches()
    fn = SymbolTable.lookup_symbol(module, entry)
    if not isinstance(fn, llvm.FuncOp):
        raise JitError(f"no llvm.func @{entry} in the module")
    if noalias:
        _mark_noalias(fn)
    try:
        raw = LLVMJITBackend(lowering=(), opt_level=opt_level).jit(module, entry, make_context())  # pyright: ignore[reportArgumentType]
    except Exception as err:  # llvmlite parse/verify errors, unknown ops
        text = str(err).strip().splitlines()
        raise JitError(f"cannot compile @{entry}: {type(err).__name__}: {text[0] if text else ''}"[:500]) from err
    return CompiledFunction(entry, raw, fn.function_type, list(arg_types) if arg_types is not None else None)


def _mark_noalias(fn: llvm.FuncOp) -> None:
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, UnitAttr

    fn.arg_attrs = ArrayAttr([DictionaryAttr({"llvm.noalias": UnitAttr()} if isinstance(t, llvm.LLVMPointerType)
                                             else {}) for t in fn.function_type.inputs.data])


def lower_to_llvm(module: ModuleOp, pipeline: str | None = None) -> ModuleOp:
    """Apply the TOSA -> LLVM pipeline (`tosa-to-llvm` unless given) to `module` in place."""
    from xdsl.passes import PassPipeline

    from tosa_xdsl.context import make_context
    from tosa_xdsl.pass_registry import all_passes

    PassPipeline.parse_spec(all_passes(), pipeline or DEFAULT_PIPELINE).apply(make_context(), module)
    return module


def tosa_signature(module: ModuleOp, entry: str) -> tuple[list[Attribute], list[Attribute]]:
    from tosa_xdsl.interpreter.runner import entry_function

    fn = entry_function(module, entry)
    return list(fn.function_type.inputs.data), list(fn.function_type.outputs.data)


class NativeModule:
    """A TOSA module lowered and compiled once; `call(inputs)` runs it natively."""

    def __init__(self, tosa_module: ModuleOp, entry: str = "main", *, pipeline: str | None = None,
                 opt_level: int = 2, lowered: ModuleOp | None = None):
        """`lowered`: `tosa_module` already lowered to the llvm dialect by the caller (tosa-run
        lowers through its diagnostics-reporting pass driver); else `pipeline` lowers a clone."""
        from xdsl.dialects.builtin import MemRefType

        self.entry = entry
        self.arg_types, self.result_types = tosa_signature(tosa_module, entry)
        for t in (*self.arg_types, *self.result_types):
            if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
                raise JitError(f"@{entry}: only statically shaped tensors can be passed natively (got {t})")
        if lowered is None:
            lowered = lower_to_llvm(tosa_module.clone(), pipeline)
        memrefs = [MemRefType(t.element_type, t.get_shape()) for t in (*self.arg_types, *self.result_types)]
        self.function = compile(lowered, entry, opt_level=opt_level, arg_types=memrefs, noalias=True)

    def call(self, inputs: Sequence[Any]) -> list[np.ndarray]:
        from tosa_xdsl.interpreter.values import dtype_of

        if len(inputs) != len(self.arg_types):
            raise ValueError(f"@{self.entry} takes {len(self.arg_types)} input(s), {len(inputs)} given")
        # np.require, not ascontiguousarray: that one turns a rank-0 array into shape (1,)
        args = [np.require(np.asarray(x, dtype=dtype_of(t.element_type)), requirements="C")
                for x, t in zip(inputs, self.arg_types)]
        outs = [np.zeros(tuple(t.get_shape()), dtype_of(t.element_type)) for t in self.result_types]
        self.function(*args, *outs)
        return outs


def run_tosa(module: ModuleOp, inputs: Sequence[Any], entry: str = "main", **kw: Any) -> list[np.ndarray]:
    """Lower, compile and run `entry` once (NativeModule for repeated calls)."""
    return NativeModule(module, entry, **kw).call(inputs)

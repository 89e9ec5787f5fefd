"""Native execution: compile an llvm-dialect module to object code (tosa_xdsl.codegen: xDSL's
LLVM backend, llvmlite), load it into the process (MCJIT) and call its functions on numpy
arrays.

    fn = jit.compile(llvm_module, "main")          # keeps the execution engine alive
    fn(x, out)                                     # memrefs: numpy arrays, by pointer

    outs = jit.run_tosa(tosa_module, [x])          # lower with tosa-to-llvm, then call
    native = jit.NativeModule(tosa_module, cache=ModuleCache.default())  # compiled once per
                                                   # module and host, then from the disk cache
    native = jit.NativeModule(tosa_module, threads=2)  # outer parallel loops on 2 threads

The ABI is convert-to-llvm's (lowering/to_llvm.py): a memref argument is the data pointer of
a C-contiguous numpy array whose dtype is exactly the interpreter's for the element type
(`tosa_xdsl.interpreter.values.dtype_of`: bool for i1, int64 for i48, ml_dtypes for bf16 and
fp8); scalars are passed by value. `compile` checks every array against the llvm function's
signature count and, when given the pre-LLVM signature (`CompiledFunction.arg_types`), its
dtype and shape: a mismatch is a ValueError, never a wild write.

`run_tosa` lowers a TOSA module (function results become out-parameters after the inputs),
allocates the outputs from the TOSA-level signature and returns them as numpy arrays. With
dynamic dims (EXT-DYNAMIC) the extents travel as extra int64 arguments and dynamically
shaped results come back through slots (lowering/to_llvm/memref.py; `NativeModule._call_dynamic`).
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
    raw: Any  # _Raw: the cffi function pointer and the engine owning the code
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


def _is_dynamic(t: Attribute) -> bool:
    return isinstance(t, TensorType) and any(int(d) < 0 for d in t.get_shape())


_LIBC = None


def _libc():
    """cffi's view of the process's C library: `free` for buffers the JIT'd code returns."""
    global _LIBC
    if _LIBC is None:
        ffi = _ffi()
        ffi.cdef("void free(void *);")
        _LIBC = ffi.dlopen(None)
    return _ffi(), _LIBC


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
    fn = _llvm_function(module, entry)
    if noalias:
        _mark_noalias(fn)
    return from_object(compile_object(module, entry, opt_level), entry, fn.function_type, arg_types)


def lower_and_compile(tosa_module: ModuleOp, pipeline: str, entry: str,
                      opt_level: int = 2) -> tuple[bytes, llvm.LLVMFunctionType]:
    """(object code, llvm type of `entry`) of a clone of `tosa_module` lowered with `pipeline`,
    `entry`'s pointer arguments `noalias` (the caller allocates the outputs). A plain
    tosa-to-llvm pipeline takes the direct road when it can (codegen/direct_llvm/: LLVM IR
    text from the loop level); anything it does not know, the llvm-dialect road."""
    from tosa_xdsl.codegen import direct_llvm
    from tosa_xdsl.codegen.llvm import CodegenError

    module = tosa_module.clone()
    try:
        done = direct_llvm.lower_and_compile(module, pipeline, entry, opt_level)
    except CodegenError as err:
        raise JitError(f"cannot compile @{entry}: {err}") from err
    if done is not None:
        return done
    fn = _llvm_function(module, entry)
    _mark_noalias(fn)
    return compile_object(module, entry, opt_level), fn.function_type


def compile_loop_level(module: ModuleOp, entry: str,
                       opt_level: int = 2) -> tuple[bytes, llvm.LLVMFunctionType] | None:
    """The direct road (codegen/direct_llvm/) on a module the caller lowered up to its start
    (`direct_llvm.split_pipeline`'s first part): (object code, llvm type of `entry`), or None
    (the module unchanged) when the road cannot take it; errors as JitError."""
    from tosa_xdsl.codegen import direct_llvm
    from tosa_xdsl.codegen.llvm import CodegenError

    try:
        return direct_llvm.try_compile(module, entry, opt_level)
    except CodegenError as err:
        raise JitError(f"cannot compile @{entry}: {err}") from err


def _llvm_function(module: ModuleOp, entry: str) -> llvm.FuncOp:
    from xdsl.traits import SymbolTable

    fn = SymbolTable.lookup_symbol(module, entry)
    if not isinstance(fn, llvm.FuncOp):
        raise JitError(f"no llvm.func @{entry} in the module")
    return fn


def compile_object(module: ModuleOp, entry: str, opt_level: int = 2) -> bytes:
    """Object code of an llvm-dialect module (tosa_xdsl.codegen.llvm), errors as JitError."""
    from tosa_xdsl.codegen.llvm import CodegenError
    from tosa_xdsl.codegen.llvm import compile_object as emit

    try:
        return emit(module, opt_level)
    except CodegenError as err:
        raise JitError(f"cannot compile @{entry}: {err}") from err


def from_object(obj: bytes, entry: str, function_type: llvm.LLVMFunctionType,
                arg_types: Sequence[Attribute] | None = None) -> CompiledFunction:
    """Load object code into the process and bind `entry` (of the given llvm type)."""
    from tosa_xdsl.codegen.llvm import CodegenError, load_object

    try:
        loaded = load_object(obj)
    except CodegenError as err:
        raise JitError(f"cannot load @{entry}: {err}") from err
    address = loaded.address(entry)
    if not address:
        raise JitError(f"no symbol @{entry} in the compiled code")
    c_type = _c_signature(function_type)
    params = ", ".join(c_type.inputs) or "void"
    raw = _Raw(_ffi().cast(f"{c_type.output}(*)({params})", address), loaded)
    return CompiledFunction(entry, raw, function_type, list(arg_types) if arg_types is not None else None)


def _c_signature(function_type: llvm.LLVMFunctionType) -> Any:
    """The C signature (xDSL's CFuncSignature) of an llvm function type, from xDSL's type
    tables as its LLVMJITBackend registers them: importing that backend's module imports xDSL's
    Python frontend, ~0.3 s of a process's first compile (cached or not; issue 15)."""
    from xdsl.jit.c_type_context import CTypeContext, register_builtin_types
    from xdsl.jit.llvm.c_type_context import register_llvm_types, to_c_func_type

    c_types = CTypeContext()
    register_builtin_types(c_types)
    register_llvm_types(c_types)
    return to_c_func_type(c_types, function_type)


@dataclass
class _Raw:
    c_func: Any
    loaded: Any  # codegen.llvm.LoadedObject: the engine owning the code


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
                 opt_level: int = 2, lowered: ModuleOp | None = None, cache: Any = None, threads: int = 1,
                 fp_contract: str = "fast", compiled: tuple[bytes, llvm.LLVMFunctionType] | None = None):
        """`lowered`: `tosa_module` already lowered to the llvm dialect by the caller (tosa-run
        lowers through its diagnostics-reporting pass driver, with `native_pipeline`'s
        pipeline); else `pipeline` lowers a clone. `cache`: a tosa_xdsl.codegen.cache.ModuleCache
        (None: no cache); on a hit nothing is lowered or compiled, on a miss the object code is
        stored. (`cached` looks up only.) `compiled`: (object code, llvm type of `entry`) the
        caller already made on the direct road (tosa-run: `compile_loop_level`); `lowered` is
        then not used. `threads`: outer parallel loops on that many threads
        (docs/native.md; 1: the single-threaded code). `fp_contract`: "fast" (the default) lets
        float dot products use FMA (lowering/linalg_transforms/fp_contract.py: within the spec's
        bound, not bit-identical to the interpreter); "off" (`tosa-to-llvm{fp-contract=off}`)
        gives the interpreter's float bits."""
        pipeline = native_pipeline(pipeline, threads, fp_contract)
        self._signature(tosa_module, entry)
        if self.dynamic:
            cache = None  # the cached entry's signature check knows static shapes only
            # native code cannot check the graph's shape rules on run-time shapes: each new
            # set of input shapes is checked on the TOSA graph first (`_check_shapes`)
            self._tosa = tosa_module.clone()
            self._checked: set[tuple[tuple[int, ...], ...]] = set()
        key = cache_key(tosa_module, pipeline, entry, opt_level) if cache is not None else None
        hit = _load_cached(cache, key, entry, self.memrefs) if key is not None else None
        if hit is not None and self._loops and _loop_globals(hit) is None:
            hit = None  # compiled before loops were bounded: compile again
        self.cache_hit = hit is not None
        if hit is not None:
            self.function = hit
            return
        if compiled is not None:
            obj, function_type = compiled
        elif lowered is None:
            obj, function_type = lower_and_compile(tosa_module, pipeline, entry, opt_level)
        else:
            fn = _llvm_function(lowered, entry)
            _mark_noalias(fn)  # `call` allocates the outputs: no two pointer arguments overlap
            obj, function_type = compile_object(lowered, entry, opt_level), fn.function_type
        self.function = from_object(obj, entry, function_type, None if self.dynamic else self.memrefs)
        if key is not None:
            cache.store(key, obj, {"entry": entry, "function_type": str(function_type)})

    def _signature(self, tosa_module: ModuleOp, entry: str) -> None:
        from xdsl.dialects.builtin import MemRefType

        self.entry = entry
        self.arg_types, self.result_types = tosa_signature(tosa_module, entry)
        for t in (*self.arg_types, *self.result_types):
            if not isinstance(t, TensorType):
                raise JitError(f"@{entry}: only ranked tensors can be passed natively (got {t})")
        # the WHILE_LOOPs by id: the one whose id the native code reports past the bound
        # (interpreter/loop_bound.py; `bound-while-loops` in tosa-to-llvm)
        from tosa_xdsl.interpreter.loop_bound import loops_by_id

        self._loops = loops_by_id(tosa_module, ("tosa.while_loop",))
        # dynamic signatures are checked in `call` (the extents are extra arguments)
        self.dynamic = any(_is_dynamic(t) for t in (*self.arg_types, *self.result_types))
        self.memrefs: list[Attribute] = [MemRefType(t.element_type, t.get_shape())
                                         for t in (*self.arg_types, *self.result_types)]

    @classmethod
    def cached(cls, tosa_module: ModuleOp, entry: str = "main", *, pipeline: str | None = None,
               opt_level: int = 2, cache: Any = None, threads: int = 1,
               fp_contract: str = "fast") -> NativeModule | None:
        """The compiled module from `cache` without lowering anything, or None on a miss."""
        pipeline = native_pipeline(pipeline, threads, fp_contract)
        if cache is None:
            return None
        native = cls.__new__(cls)
        try:
            native._signature(tosa_module, entry)
        except JitError:  # not compilable as it is: the caller's lowering says why, located
            return None
        if native.dynamic:
            return None  # not cached: the lowering reports what it cannot lower, located
        hit = _load_cached(cache, cache_key(tosa_module, pipeline, entry, opt_level), entry, native.memrefs)
        if hit is None or (native._loops and _loop_globals(hit) is None):
            return None
        native.function, native.cache_hit = hit, True
        return native

    def call(self, inputs: Sequence[Any], *, max_loop_iterations: int | None = None) -> list[np.ndarray]:
        """`max_loop_iterations`: a WHILE_LOOP still running after that many iterations stops
        the call with the interpreter's TosaRunError (kind "limit", located at the loop);
        default interpreter.runner.DEFAULT_MAX_LOOP_ITERATIONS."""
        from tosa_xdsl.interpreter.values import dtype_of

        if len(inputs) != len(self.arg_types):
            raise ValueError(f"@{self.entry} takes {len(self.arg_types)} input(s), {len(inputs)} given")
        # np.require, not ascontiguousarray: that one turns a rank-0 array into shape (1,)
        args = [np.require(np.asarray(x, dtype=dtype_of(t.element_type)), requirements="C")
                for x, t in zip(inputs, self.arg_types)]
        self._arm_loop_bound(max_loop_iterations)
        if self.dynamic:
            outs = self._call_dynamic(args)
        else:
            outs = [np.zeros(tuple(t.get_shape()), dtype_of(t.element_type)) for t in self.result_types]
            self.function(*args, *outs)
        self._check_loop_bound()
        return outs

    def _arm_loop_bound(self, limit: int | None) -> None:
        """Set the bound global and clear the flag global of the loops' native code."""
        if limit is None:
            from tosa_xdsl.interpreter.runner import DEFAULT_MAX_LOOP_ITERATIONS

            limit = DEFAULT_MAX_LOOP_ITERATIONS
        self._limit = int(limit)
        found = self._bound_globals()
        if found is not None:
            bound, flag = found
            bound[0], flag[0] = min(self._limit, (1 << 63) - 1), 0

    def _bound_globals(self) -> tuple[Any, Any] | None:
        """_loop_globals of the current function, looked up once."""
        cached = getattr(self, "_globals", None)
        if cached is None or cached[0] is not self.function:
            cached = self._globals = (self.function, _loop_globals(self.function) if self._loops else None)
        return cached[1]

    def _check_loop_bound(self) -> None:
        """The interpreter's diagnostic when a loop reached the bound (its results are void)."""
        from tosa_xdsl.interpreter.errors import TosaRunError, loop_limit_exceeded

        found = self._bound_globals()
        if found is None or not found[1][0]:
            return
        op = self._loops.get(int(found[1][0]))
        if op is None:
            raise TosaRunError("limit", f"'tosa.while_loop' did not finish within {self._limit} iterations "
                               "(the limit is --max-loop-iterations)")
        raise loop_limit_exceeded(op, self._limit)

    def _check_shapes(self, args: list[np.ndarray]) -> None:
        """The graph specialised to these input shapes (tosa-experimental-input-shape, then
        tosa-infer-shapes) must verify: a GATHER whose values and indices disagree on N, a SLICE
        past its input, broadcast dims that are neither equal nor 1, ... are refused here
        (ValueError naming the rule), so the native code, which reads at the sizes it is given,
        never runs on shapes the spec forbids. Zero-size dynamic dims are refused too (the
        clamped reads of the dynamic lowering, `minui(i, dim - 1)`, need dim >= 1)."""
        key = tuple(a.shape for a in args)
        if key in self._checked:
            return
        from xdsl.utils.exceptions import DiagnosticException

        from tosa_xdsl.context import make_context
        from tosa_xdsl.diagnostics import LocatedError, Severity, capture_diagnostics
        from tosa_xdsl.passes.infer_shapes import TosaInferShapesPass
        from tosa_xdsl.passes.input_shape import TosaInputShapePass

        entries = []
        for i, (a, t) in enumerate(zip(args, self.arg_types)):
            if not _is_dynamic(t):
                continue
            if len(a.shape) != len(t.get_shape()) or 0 in a.shape:
                raise ValueError(f"argument #{i} of @{self.entry} has shape {list(a.shape)}: native code "
                                 f"runs {t} with every dim at least 1")
            entries.append(f"arg{i}:" + "x".join(str(d) for d in a.shape) if a.shape else "")
        module = self._tosa.clone()
        reason = None
        # the passes' diagnostics are collected, not printed: the one ValueError below says it
        with capture_diagnostics() as diagnostics:
            try:
                TosaInputShapePass(args=tuple(e for e in entries if e)).apply(make_context(), module)
                # results refine too: a COND_IF / WHILE_LOOP result feeding func.return must take
                # the shape its refined branches / body give it (the specialised copy is only checked)
                TosaInferShapesPass(convert_function_boundaries=True).apply(make_context(), module)
                module.verify()
            except (DiagnosticException, LocatedError) as err:
                text = str(err).strip().splitlines()
                reason = text[0] if text else type(err).__name__
        errors = [d.message for d in diagnostics if d.severity is Severity.ERROR]
        if errors or reason is not None:
            raise ValueError(f"input shapes {[list(k) for k in key]} break the graph's shape rules: "
                             f"{errors[0] if errors else reason}") from None
        self._checked.add(key)

    def _call_dynamic(self, args: list[np.ndarray]) -> list[np.ndarray]:
        """The dynamic-shape convention (lowering/to_llvm/memref.py): each input's pointer is
        followed by its dynamic extents; results are caller-allocated out-params when all are
        static, else each is a slot of 1 + k int64 (k dynamic dims) the function fills with
        its buffer's address and extents; we copy the buffer out and free it (malloc'ed)."""
        from tosa_xdsl.interpreter.values import dtype_of

        c_args: list[Any] = []
        for i, (a, t) in enumerate(zip(args, self.arg_types)):
            shape = [int(d) for d in t.get_shape()]
            if len(a.shape) != len(shape) or any(d >= 0 and d != s for d, s in zip(shape, a.shape)):
                raise ValueError(f"argument #{i} of @{self.entry} must have shape "
                                 f"{['?' if d < 0 else d for d in shape]}, got {list(a.shape)}")
            c_args.append(a)
            c_args += [int(s) for d, s in zip(shape, a.shape) if d < 0]
        self._check_shapes(args)
        outs: list[np.ndarray | None] = []
        slots: list[np.ndarray] = []
        returned = any(_is_dynamic(t) for t in self.result_types)  # then every result is returned
        for t in self.result_types:
            if returned:
                outs.append(None)
                slots.append(np.zeros(1 + sum(int(d) < 0 for d in t.get_shape()), np.int64))
            else:
                outs.append(np.zeros(tuple(t.get_shape()), dtype_of(t.element_type)))
        self.function(*c_args, *(o for o in outs if o is not None), *slots)
        ffi, libc = _libc()
        it = iter(slots)
        for k, t in enumerate(self.result_types):
            if outs[k] is not None:
                continue
            slot = next(it)
            dyn = iter(int(v) for v in slot[1:])
            shape = tuple(next(dyn) if int(d) < 0 else int(d) for d in t.get_shape())
            dtype = np.dtype(dtype_of(t.element_type))
            ptr = ffi.cast("void *", int(slot[0]))
            n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            outs[k] = np.frombuffer(ffi.buffer(ptr, n), dtype=dtype).reshape(shape).copy() if n else \
                np.zeros(shape, dtype)
            libc.free(ptr)
        return [o for o in outs if o is not None]


def _loop_globals(function: CompiledFunction) -> tuple[Any, Any] | None:
    """int64 views of the bound and flag globals of `function`'s code (bound-while-loops), or
    None when the code has no loop (or was compiled before loops were bounded)."""
    from tosa_xdsl.interpreter.loop_bound import BOUND_GLOBAL, FLAG_GLOBAL

    loaded = getattr(function.raw, "loaded", None)
    if loaded is None:
        return None
    addresses = [loaded.address(name) for name in (BOUND_GLOBAL, FLAG_GLOBAL)]
    if not all(addresses):
        return None
    ffi = _ffi()
    return ffi.cast("int64_t *", addresses[0]), ffi.cast("int64_t *", addresses[1])


def native_pipeline(pipeline: str | None, threads: int = 1, fp_contract: str = "fast") -> str:
    """`pipeline` (default tosa-to-llvm) with the options NativeModule's arguments ask for:
    tosa-to-llvm's `threads` (outer parallel loops) and `fp-contract` (FMA in float dot
    products), so the cache key, which hashes the pipeline, tells the variants apart. A
    ValueError for a bad value, or for a non-default option on a pipeline that is not the plain
    tosa-to-llvm one or already sets it."""
    from tosa_xdsl.lowering.pipelines import MAX_THREADS

    pipeline = pipeline or DEFAULT_PIPELINE
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be an integer between 1 and {MAX_THREADS}, got {threads!r}")
    if fp_contract not in ("off", "fast"):
        raise ValueError(f"fp_contract must be 'off' or 'fast', got {fp_contract!r}")
    extra = [f"threads={threads}"] if threads > 1 else []
    extra += ["fp-contract=off"] if fp_contract == "off" else []
    if not extra:
        return pipeline
    name, brace, options = pipeline.partition("{")
    if name != DEFAULT_PIPELINE or (brace and (not options.endswith("}") or "}" in options[:-1])) \
            or any(e.split("=")[0] + "=" in options for e in extra):
        raise ValueError(f"{' and '.join(extra)} needs the plain tosa-to-llvm pipeline (got {pipeline!r})")
    options = options[:-1].strip() if brace else ""
    return f"{DEFAULT_PIPELINE}{{{' '.join(([options] if options else []) + extra)}}}"


def cache_key(tosa_module: ModuleOp, pipeline: str | None, entry: str, opt_level: int) -> str:
    """The cache key of compiling `entry` of `tosa_module` with `pipeline` (codegen/cache.py)."""
    from tosa_xdsl.codegen.cache import cache_key as key
    from tosa_xdsl.codegen.road import direct_llvm_enabled
    from tosa_xdsl.printing import print_ir

    # the direct road (codegen/direct_llvm/) emits other (equivalent) LLVM IR: its own entries
    road = "direct-llvm" if direct_llvm_enabled() else "llvm-dialect"
    return key(print_ir(tosa_module, style="generic"), pipeline or DEFAULT_PIPELINE, entry, opt_level, road)


def _load_cached(cache: Any, key: str, entry: str, memrefs: list[Attribute]) -> CompiledFunction | None:
    from xdsl.parser import Parser

    from tosa_xdsl import progress
    from tosa_xdsl.context import make_context

    found = cache.load(key)
    if found is None or found.meta.get("entry") != entry:
        return None
    progress.stage("loading compiled code from the cache", force=True)
    try:
        function_type = Parser(make_context(), str(found.meta.get("function_type", ""))).parse_attribute()
    except Exception:  # noqa: BLE001 -- an entry we cannot read is a miss
        return None
    if not isinstance(function_type, llvm.LLVMFunctionType) or len(function_type.inputs) != len(memrefs):
        return None
    try:
        return from_object(found.object, entry, function_type, memrefs)
    except JitError:
        return None


def run_tosa(module: ModuleOp, inputs: Sequence[Any], entry: str = "main", **kw: Any) -> list[np.ndarray]:
    """Lower, compile and run `entry` once (NativeModule for repeated calls)."""
    return NativeModule(module, entry, **kw).call(inputs)

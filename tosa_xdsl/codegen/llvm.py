"""llvm-dialect module -> optimised object code (ELF, position independent) -> callable.

One path for the JIT, the cache and the shared library: xDSL's LLVM backend builds the LLVM IR
(with tosa_xdsl's backend patches: our extra ops, weights as byte strings), llvmlite parses
and optimises it, the target machine emits an object file, and either MCJIT loads that object
into the process (`load_object`) or the system linker makes a `.so` of it.

LLVM options are chosen by code size (`settings_for`): above HUGE_CODE llvm ops in the
module's functions LLVM's loop unroller is switched off (`-unroll-threshold=0`) and the
pipeline and code generator run at level 1. The size is the module's, not its largest
function's: outline-loop-nests splits a model into a function per loop nest, and the unroller
multiplies the code of every one of them. On the example model (~10k llvm ops) full unrolling of the
small kernel loops multiplied the code the rest of -O2 and code generation then worked
through: -O2 took 7-8 s and code generation 1.4 s, now ~2.3 s and ~0.6 s, with the same
per-inference time (measured 2.2 ms both ways: the loop vectoriser, which does the work,
runs at level 1 too and still interleaves the innermost loops; -O2 vs -O1 at threshold 0
made no measurable difference in speed, ~0.3 s in compile time). Smaller functions keep the
requested level and LLVM's defaults. The threshold is an LLVM command-line option, so it is process-wide:
it is set before each optimisation and put back to LLVM's -O2 default (150) after.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp

from tosa_xdsl import progress
from tosa_xdsl.lowering.pipelines import gc_paused

HUGE_CODE = 2000  # llvm ops in all functions
DEFAULT_UNROLL_THRESHOLD = 150  # LLVM's own at -O2 (UnrollThresholdDefault)
SETTINGS_VERSION = 3  # bump when settings_for or a default changes: part of the cache key
# (3: tosa-to-llvm contracts float dot products by default; the plain pipeline's entries were off)


class CodegenError(Exception):
    """LLVM rejected the module or could not emit code (one line)."""


@dataclass(frozen=True)
class Settings:
    speed_level: int
    codegen_level: int
    unroll_threshold: int


def settings_for(code_size: int, opt_level: int) -> Settings:
    if code_size > HUGE_CODE and opt_level > 0:
        return Settings(1, 1, 0)
    return Settings(opt_level, opt_level, DEFAULT_UNROLL_THRESHOLD)


def _binding() -> Any:
    import llvmlite.binding as lb

    lb.initialize_native_target()
    lb.initialize_native_asmprinter()
    return lb


def target_machine(opt_level: int) -> Any:
    """The host's target machine; PIC objects, so the same object also links into a .so."""
    lb = _binding()
    target = lb.Target.from_triple(lb.get_process_triple())
    return target.create_target_machine(cpu=lb.get_host_cpu_name(), features=lb.get_host_cpu_features().flatten(),
                                        opt=opt_level, reloc="pic", codemodel="default")


def target_description() -> str:
    """Everything about the host and LLVM that changes the code (part of the cache key)."""
    lb = _binding()
    version = ".".join(map(str, lb.llvm_version_info))
    return f"{lb.get_process_triple()}|{lb.get_host_cpu_name()}|{lb.get_host_cpu_features().flatten()}|llvm {version}"


def code_size(module: ModuleOp) -> int:
    """llvm ops in the bodies of all functions."""
    return sum(sum(1 for _ in fn.body.walk()) for fn in module.ops if isinstance(fn, llvm.FuncOp))


def llvm_ir(module: ModuleOp, tm: Any) -> str:
    """The module as LLVM IR text (xDSL's backend with tosa_xdsl's patches)."""
    from xdsl.backend.llvm.convert import convert_module

    from tosa_xdsl.xdsl_patches import install_llvm_backend_patches

    install_llvm_backend_patches()
    ir_module = convert_module(module, fallback_target_triple=tm.triple, data_layout=str(tm.target_data))
    _function_attributes(module, ir_module)
    return str(ir_module)


def _function_attributes(module: ModuleOp, ir_module: Any) -> None:
    """Linkage and `noinline` of each llvm.func (xDSL's backend leaves every function external
    and drops `no_inline`): outline-loop-nests' functions are internal and must stay out of
    line, or LLVM inlines them straight back into one huge function."""
    for op in module.ops:
        if not isinstance(op, llvm.FuncOp) or not op.body.blocks:
            continue
        fn = ir_module.get_global(op.sym_name.data)
        if op.linkage.linkage.data == "internal":
            fn.linkage = "internal"
        if op.no_inline is not None:
            fn.attributes.add("noinline")


def compile_object(module: ModuleOp, opt_level: int = 2) -> bytes:
    """Optimised object code for every function of an llvm-dialect module."""
    tm = target_machine(opt_level)
    progress.stage("LLVM", "building LLVM IR", force=True)
    try:
        with gc_paused():  # llvmlite's IR objects are cycles too
            text = llvm_ir(module, tm)
    except Exception as err:  # ops xDSL cannot translate
        raise _codegen_error(err) from err
    return compile_text(text, code_size(module), opt_level, tm)


def _codegen_error(err: Exception) -> CodegenError:
    lines = str(err).strip().splitlines()
    return CodegenError(f"{type(err).__name__}: {lines[0] if lines else ''}"[:500])


def _forward_scratch_blocks(lb: Any, tm: Any, mod: Any) -> None:
    """A few passes after the -O pipeline for the fused nests' stack scratch blocks
    (nest_fusion.py): the block's stores and loads only become plain, same-address pairs once
    the pipeline's late LICM has promoted the block across the reduction loops and the
    vectoriser and unroller have made every offset a constant, and the pipeline runs no GVN
    after those. NewGVN then forwards the init's stores (or memset) and the reduction's final
    stores to the loads after them, DSE drops the stores, SROA the stack buffer: the block
    starts in registers and each output is stored once. Nothing else changes meaning (only
    redundant memory operations go; float operations are untouched)."""
    options = lb.PipelineTuningOptions(speed_level=2)
    with options, lb.create_pass_builder(tm, options) as builder, \
            lb.create_new_module_pass_manager() as passes:
        passes.add_sroa_pass()
        passes.add_new_gvn_pass()
        passes.add_dead_store_elimination_pass()
        passes.add_sroa_pass()
        passes.add_instruction_combine_pass()
        passes.run(mod, builder)


def compile_text(text: str, size: int, opt_level: int, tm: Any) -> bytes:
    """Object code of LLVM IR `text` (from `llvm_ir` or codegen/direct_llvm/) whose functions
    hold `size` instructions (settings_for), for target machine `tm` (made at `opt_level`)."""
    lb = _binding()
    try:
        progress.stage("LLVM", "parsing LLVM IR", force=True)
        mod = lb.parse_assembly(text)
        mod.verify()
    except Exception as err:  # llvmlite's parse/verify errors
        raise _codegen_error(err) from err
    settings = settings_for(size, opt_level)
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    if settings.speed_level > 0:
        progress.stage("LLVM", f"optimising (-O{settings.speed_level})", force=True)
        lb.set_option("tosa-xdsl", f"-unroll-threshold={settings.unroll_threshold}")
        try:
            options = lb.PipelineTuningOptions(speed_level=settings.speed_level)
            options.slp_vectorization = True
            with options, lb.create_pass_builder(tm, options) as builder, \
                    builder.getModulePassManager() as passes:
                passes.run(mod, builder)
            if " alloca " in text:  # a fused nest's scratch block (or a thread pool's slots)
                _forward_scratch_blocks(lb, tm, mod)
        finally:
            lb.set_option("tosa-xdsl", f"-unroll-threshold={DEFAULT_UNROLL_THRESHOLD}")
    progress.stage("LLVM", "generating machine code", force=True)
    if settings.codegen_level != opt_level:
        tm = target_machine(settings.codegen_level)
    return bytes(tm.emit_object(mod))


@dataclass
class LoadedObject:
    """An object file loaded into the process by MCJIT; keep it alive while calling."""

    engine: Any
    target_machine: Any

    def address(self, symbol: str) -> int:
        return self.engine.get_function_address(symbol)


def load_object(obj: bytes, *, pool: bool = True) -> LoadedObject:
    """Link `obj` into the process (MCJIT's runtime linker: relocations, malloc/libm from the
    process; the thread pool, codegen/thread_pool.py, for code compiled with threads: `pool`
    False is the pool's own object). Raises CodegenError on a malformed object."""
    lb = _binding()
    tm = target_machine(0)
    if pool and b"tosa_xdsl_parallel_for" in obj:  # compiled with --threads: the pool must be there
        from tosa_xdsl.codegen import thread_pool

        try:
            thread_pool.ensure_loaded()
        except Exception as err:  # noqa: BLE001 -- no POSIX threads here, LLVM refused the pool
            raise CodegenError(f"cannot start the thread pool: {err}"[:500]) from err
    try:
        empty = lb.parse_assembly("")
        empty.triple = tm.triple
        engine = lb.create_mcjit_compiler(empty, tm)
        engine.add_object_file(lb.ObjectFileRef.from_data(obj))
        engine.finalize_object()
    except Exception as err:  # noqa: BLE001 -- whatever LLVM says, one line
        raise CodegenError(f"cannot load object code: {err}"[:500]) from err
    return LoadedObject(engine, tm)

"""LLVM IR text straight from the loop level: the direct road (compile time, issue 15).

`tosa-to-llvm` ends with `lower-affine`, `bound-while-loops`, `convert-scf-to-cf`,
`convert-to-llvm` and `reconcile-unrealized-casts`, which build an llvm-dialect xDSL module
that xDSL's LLVM backend then turns into llvmlite objects and prints (codegen/llvm.py). On the
example model those steps took ~1 s of the ~3 s compile, nearly all of it in constructing
xDSL and llvmlite objects that exist only to be printed. Here the module as it is after
`outline-loop-nests` (affine / scf / memref / arith / math on scalars / func, static shapes)
is printed as LLVM IR text directly, one string per instruction, and llvmlite parses that.

The instructions are the ones those passes give for the same ops, in the same order:
lower-affine's expansion of affine maps (single-iteration loops inlined), the bare-pointer
ABI, element addressing `getelementptr T, ptr p, i64 sum(i_k * s_k)` in memref.py's operand
order, malloc/free, llvm.memcpy or the same copy loop, arith's defined results for division
by zero and over-wide shifts, the same intrinsics and libm calls, `contract` as the only
fast-math flag, scf.for / scf.if as convert-scf-to-cf's blocks, the thread pool's context
slots and tasks. LLVM then makes the same object code, byte for byte
(tests/codegen/test_direct_llvm.py). Constants are written as immediates (LLVM's IR has no
constant instructions; convert-to-llvm's llvm.mlir.constant ops become the same immediates).

Anything else (bf16/fp8, which convert-to-llvm emulates with integer code, f16 conversions it
rounds with integer code, scf.while with bound-while-loops' globals, dynamic shapes, an op a
later lowering adds) raises `Unsupported`, and the whole module takes the llvm-dialect road
(`lower_and_compile`): nothing loses coverage. `tosa-opt -p tosa-to-llvm` and the
llvm-dialect output that `mlir-translate` reads are unchanged: only the JIT, tosa-run's JIT
and the shared library take this road.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func, llvm, memref
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
)
from xdsl.passes import ModulePass

from tosa_xdsl.codegen.direct_llvm import control, memory, scalars  # noqa: F401 -- they fill HANDLERS
from tosa_xdsl.codegen.road import SWITCH, direct_llvm_enabled  # noqa: F401 -- SWITCH: the tests' A/B switch
from tosa_xdsl.codegen.direct_llvm.text import (
    HANDLERS,
    Function,
    Module,
    Unsupported,
    _static,
    elem_bytes,
    ir_type,
    storage,
)

_HANDLERS = HANDLERS  # op class -> its handler (scalars.py, memory.py, control.py)

# the passes of tosa-to-llvm this module replaces (the rest of the pipeline runs as usual)
REPLACED = ("lower-affine", "bound-while-loops", "convert-scf-to-cf", "convert-to-llvm",
            "reconcile-unrealized-casts")


def _c_string(raw: bytes) -> str:
    """The body of LLVM's c"..." string of `raw`: every byte as \\XX (bytes.hex, then a
    backslash before each pair with numpy: ~2x faster than mapping each byte through
    str.translate, which took ~35 ms of the example's compile for its 1 MB of weights)."""
    import numpy as np

    pairs = np.frombuffer(raw.hex().upper().encode("ascii"), np.uint8).reshape(-1, 2)
    out = np.empty((len(raw), 3), np.uint8)
    out[:, 0] = ord("\\")
    out[:, 1:] = pairs
    return out.tobytes().decode("ascii")



# ------------------------------------------------------------------------ module level

def _global(op: memref.GlobalOp) -> str:
    """A constant buffer as one byte string, aligned as codegen's `convert_global` does
    (at least its element's alignment and 16 bytes)."""
    from tosa_xdsl.lowering.to_llvm.memref import global_initializer

    t = op.type
    assert isinstance(t, MemRefType)
    ty = storage(t.get_element_type())
    _static(t)
    _, init = global_initializer(op)
    assert init is not None
    raw = bytes(init.data.data)
    private = op.sym_visibility is not None and op.sym_visibility.data == "private"
    kind = "constant" if op.constant is not None else "global"
    asked = op.alignment.value.data if op.alignment is not None else 1
    align = max(asked, elem_bytes(ty), 16)
    body = _c_string(raw)
    return (f'@"{op.sym_name.data}" = {"private " if private else ""}{kind} [{len(raw)} x i8] c"{body}", '
            f"align {align}")


def _signature(op: func.FuncOp, noalias_all: bool) -> tuple[str, list[str]]:
    inputs = list(op.function_type.inputs.data)
    outputs = list(op.function_type.outputs.data)
    if len(outputs) > 1:
        raise Unsupported("several results")
    for t in (*inputs, *outputs):
        if isinstance(t, MemRefType):
            _static(t)
    marks = [("llvm.noalias" in d.data) for d in op.arg_attrs.data] if op.arg_attrs is not None \
        else [False] * len(inputs)
    params = []
    for t, mark in zip(inputs, marks):
        ty = ir_type(t)
        params.append(f"{ty}{' noalias' if ty == 'ptr' and (mark or noalias_all) else ''}")
    return (ir_type(outputs[0]) if outputs else "void"), params


def _function(op: func.FuncOp, module: Module, noalias_all: bool) -> list[str]:
    result, params = _signature(op, noalias_all)
    name = op.sym_name.data
    if not op.body.blocks:
        return [f'declare {result} @"{name}"({", ".join(params)})']
    if set(op.attributes) - {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs", "no_inline",
                             "tf.entry_function", "tosa_xdsl.out_params", "llvm.linkage"}:
        raise Unsupported(f"attributes of @{name}")
    if len(op.body.blocks) != 1:
        raise Unsupported("a function of several blocks")
    fn = Function(module)
    block = op.body.block
    args = []
    for k, (a, p) in enumerate(zip(block.args, params)):
        fn.names[a] = f"%a{k}"
        args.append(f"{p} %a{k}")
    fn.block(block)
    private = op.sym_visibility is not None and op.sym_visibility.data == "private"
    linkage = "internal " if private else ""
    asked = op.attributes.get("llvm.linkage")  # control._with_attributes: it wins
    if asked is not None:
        if not isinstance(asked, llvm.LinkageAttr) or asked.linkage.data not in ("internal", "private", "external"):
            raise Unsupported(f"linkage {asked}")
        linkage = "" if asked.linkage.data == "external" else f"{asked.linkage.data} "
    attrs = " noinline" if "no_inline" in op.attributes else ""
    module.size += sum(1 for line in fn.out if line.startswith("  ")) + len(fn.entry) + len(fn.constants)
    return [f'define {linkage}{result} @"{name}"({", ".join(args)}){attrs}', "{", "entry:", *fn.entry, *fn.out,
            "}"]


def module_text(module: ModuleOp, *, triple: str, data_layout: str, noalias: str | None = None) -> tuple[str, int]:
    """(LLVM IR text, code size for codegen.llvm.settings_for) of a loop-level module (see the
    module docstring); `noalias`: the function whose pointer arguments are all `noalias`
    (NativeModule allocates the entry's outputs). Raises Unsupported for anything else."""
    defined = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks}
    state = Module(defined, {}, tasks={})
    parts: list[str] = []
    functions: list[str] = []
    for op in module.ops:
        if isinstance(op, memref.GlobalOp):
            parts.append(_global(op))
        elif isinstance(op, func.FuncOp):
            if op.body.blocks:
                functions += _function(op, state, op.sym_name.data == noalias)
            elif op.sym_name.data not in state.declares:
                state.declares[op.sym_name.data] = _function(op, state, False)[0]
        else:
            raise Unsupported(f"'{op.name}' at module level")
    head = [f'target triple = "{triple}"', f'target datalayout = "{data_layout}"']
    tasks = [line for lines in (state.tasks or {}).values() for line in lines]
    return "\n".join([*head, *parts, *state.declares.values(), *functions, *tasks, ""]), state.size


# ------------------------------------------------------------------------ the compile road

# the switch lives in codegen/road.py (a cache hit reads it without importing this package)
enabled = direct_llvm_enabled


def split_pipeline(pipeline: str) -> tuple[list[str], list[str]] | None:
    """(the passes before the replaced tail, the tail) when `pipeline` is one plain
    `tosa-to-llvm{...}` (any options), else None (the caller runs the pipeline as it is)."""
    from xdsl.passes import PassPipeline

    from tosa_xdsl.lowering.pipelines import TosaToLLVMPipelinePass
    from tosa_xdsl.pass_registry import all_passes

    passes = PassPipeline.parse_spec(all_passes(), pipeline).passes
    if len(passes) != 1 or not isinstance(passes[0], TosaToLLVMPipelinePass):
        return None
    stages = passes[0].stages()
    if list(stages[-len(REPLACED):]) != list(REPLACED):
        return None
    return stages[:-len(REPLACED)], stages[-len(REPLACED):]


@dataclass(frozen=True)
class LoweringStages(ModulePass):
    """Some of tosa-to-llvm's stages (split_pipeline's parts) as one pass, as the pipeline pass
    runs them: one progress line, one verification by a pass driver, no TOSA op left."""

    name: ClassVar[str] = "tosa-to-llvm"

    stages: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from tosa_xdsl.lowering.pipelines import no_tosa_left, run_passes

        run_passes(ctx, op, list(self.stages))
        no_tosa_left(op, self.name)


def lower(module: ModuleOp, names: list[str]) -> None:
    """Run `names` (tosa-to-llvm's stages) on `module` in place, as the pipeline pass does."""
    from tosa_xdsl.context import make_context

    LoweringStages(tuple(names)).apply(make_context(), module)


def entry_type(module: ModuleOp, entry: str):
    """The llvm function type of `entry` (convert-to-llvm's, for the caller's signature)."""
    from xdsl.traits import SymbolTable

    from tosa_xdsl.lowering.to_llvm.control import function_type

    fn = SymbolTable.lookup_symbol(module, entry)
    if not isinstance(fn, func.FuncOp):
        raise Unsupported(f"no func.func @{entry}")
    from tosa_xdsl.diagnostics import LocatedError

    ft = fn.function_type
    try:
        return function_type(fn, list(ft.inputs.data), list(ft.outputs.data))
    except LocatedError as err:  # the llvm-dialect road says it again, located
        raise Unsupported(str(err)) from None


def compile_loop_level(module: ModuleOp, entry: str | None, opt_level: int) -> bytes:
    """Object code of a loop-level module (the passes before REPLACED have run); `entry`: the
    function whose pointer arguments are `noalias` (None: only those marked). Unsupported
    when the module holds anything module_text does not know (nothing is changed then)."""
    from tosa_xdsl import progress
    from tosa_xdsl.codegen.llvm import compile_text, target_machine
    from tosa_xdsl.lowering.pipelines import gc_paused

    tm = target_machine(opt_level)
    progress.stage("LLVM", "building LLVM IR", force=True)
    with gc_paused():
        try:
            text, size = module_text(module, triple=tm.triple, data_layout=str(tm.target_data), noalias=entry)
        except Unsupported:
            raise
        except Exception as err:  # noqa: BLE001 -- IR shaped as the emitter did not expect: the other road
            raise Unsupported(f"{type(err).__name__}: {err}") from err
    return compile_text(text, size, opt_level, tm)


def lower_and_compile(module: ModuleOp, pipeline: str, entry: str | None, opt_level: int):
    """Lower `module` in place with `pipeline` and compile it on the direct road: (the object
    code, the llvm function type of `entry`, whose pointer arguments are `noalias`; None
    without an entry); or None when it cannot (switched off, another pipeline, an op it does
    not know), and then `module` has been lowered to the end (the llvm dialect) for the
    llvm-dialect road."""
    split = split_pipeline(pipeline) if enabled() else None
    if split is None:
        from xdsl.passes import PassPipeline

        from tosa_xdsl.context import make_context
        from tosa_xdsl.pass_registry import all_passes

        PassPipeline.parse_spec(all_passes(), pipeline).apply(make_context(), module)
        return None
    head, tail = split
    lower(module, head)
    done = try_compile(module, entry, opt_level)
    if done is None:
        lower(module, tail)  # the rest of tosa-to-llvm
    return done


def try_compile(module: ModuleOp, entry: str | None, opt_level: int):
    """(object code, llvm type of `entry` or None) of a module lowered up to the direct road
    (split_pipeline's head), or None, the module unchanged, when the road cannot take it."""
    try:
        function_type = entry_type(module, entry) if entry is not None else None
        return compile_loop_level(module, entry, opt_level), function_type
    except Unsupported:
        return None

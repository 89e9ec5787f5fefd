"""tosa-run: parse, verify (and optionally transform) a TOSA module, then run it with the
reference interpreter (tosa_xdsl.interpreter).

    tosa-run FILE [-i IN.npy]... [-o OUT.npy]... [--entry NAME] [--level none|8k]
             [--profile P,...] [--extension E,...] [-p PIPELINE] [--print]
             [--allow-unpredictable] [--max-input-bytes N] [--max-loop-iterations N]

Inputs are given in argument order (-i per argument), outputs written in result order (-o per
result, fewer -o than results is allowed); --print prints every result.

Exit codes: 0 success; 1 `FILE:LINE:COL: error: ...` for a parse, verify, validation,
pass or run-time failure (ERROR_IF: `error: ERROR_IF(<cond>) in 'tosa.x'`, REQUIRE:
`error: graph is unpredictable: REQUIRE(<cond>) failed in 'tosa.x'`); 2 bad usage or bad
inputs (one line: missing/unreadable file, not an .npy, wrong number of inputs, wrong dtype
or shape for an argument, input too large). With --allow-unpredictable a failed REQUIRE is
a warning and the run computes on. A WHILE_LOOP still running after --max-loop-iterations
iterations (default 100000) stops the run: `FILE:LINE:COL: error: 'tosa.while_loop' did not
finish within N iterations ...`, exit 1 (with --backend jit too; a -p pipeline with
convert-scf-to-cf gets bound-while-loops before it). Nothing given by the user may produce a
traceback.

Parsing, verification and passes are tosa_xdsl.driver's (shared with tosa-opt): the same
located diagnostics.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys

# The interpreter's matrix products are small and come one op at a time: OpenBLAS's worker
# threads only spin between them (on the example model ~0.1 s of the ~0.48 s whole-process CPU
# time, wall time unchanged). One BLAS thread, unless the user chose otherwise; set before
# numpy is first imported (nothing above imports it).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from typing import Any, NoReturn  # noqa: E402

from tosa_xdsl.tools.last_resort import LAST_RESORT, last_resort  # noqa: E402

PROG = "tosa-run"
DEFAULT_MAX_INPUT_BYTES = 1 << 30  # 1 GiB per input file
DEFAULT_MAX_LOOP_ITERATIONS = 100_000  # = interpreter.runner's (not imported: start-up time)


class UsageError(Exception):
    """Bad command line or bad inputs: one line, exit code 2."""


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _csv(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _positive(text: str, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def _size(text: str) -> int:
    return _positive(text, "a byte count")


def _count(text: str) -> int:
    return _positive(text, "a count")


def _threads(text: str) -> int:
    from tosa_xdsl.lowering.pipelines import MAX_THREADS  # only with --threads (start-up time)

    value = _positive(text, "a thread count")
    if value > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"at most {MAX_THREADS}")
    return value


def build_arg_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(prog=PROG, description="Run a TOSA module with the reference interpreter")
    p.add_argument("input_file", help="the .mlir module ('-' for stdin)")
    p.add_argument("-i", "--input", action="append", default=[], metavar="IN.npy",
                   help="an input (.npy), one per argument of the entry function, in order")
    p.add_argument("-o", "--output", action="append", default=[], metavar="OUT.npy",
                   help="where to write a result (.npy), in result order")
    p.add_argument("--entry", default="main", help="the function to run (default: main)")
    p.add_argument("--level", choices=("none", "8k"), default=None, help="TOSA level to validate against")
    p.add_argument("--profile", type=_csv, default=None, help="profiles to validate against (pro_int,pro_fp)")
    p.add_argument("--extension", type=_csv, default=None, help="extensions to validate against")
    p.add_argument("-p", "--passes", default="", help="tosa-opt pass pipeline to apply before running")
    p.add_argument("--print", action="store_true", dest="print_results", help="print the results")
    p.add_argument("--backend", choices=("interp", "jit"), default="interp",
                   help="interp: the reference interpreter (default); jit: lower with tosa-to-llvm "
                        "and run natively (tosa_xdsl.jit)")
    p.add_argument("--fp-contract", choices=("off", "fast"), default="fast",
                   help="--backend jit: fast (default) lets float dot products (CONV2D, MATMUL, ...) "
                        "use fused multiply-add: faster, within the spec's dot-product error bound, "
                        "but not bit-identical to the interpreter; off: the interpreter's float bits")
    p.add_argument("--no-cache", action="store_true",
                   help="--backend jit: neither read nor write the compiled-module cache "
                        "($TOSA_XDSL_CACHE_DIR, else $XDG_CACHE_HOME/tosa-xdsl or ~/.cache/tosa-xdsl)")
    p.add_argument("--threads", type=_threads, default=1, metavar="N",
                   help="--backend jit: run the outer parallel loops of each loop nest on N threads "
                        "(default 1; results are identical for every N)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress line (it is shown only when stderr is a terminal)")
    p.add_argument("--allow-unpredictable", action="store_true",
                   help="a failed REQUIRE only warns, and the run computes on")
    p.add_argument("--max-input-bytes", type=_size, default=DEFAULT_MAX_INPUT_BYTES,
                   help=f"refuse input arrays larger than this (default {DEFAULT_MAX_INPUT_BYTES})")
    p.add_argument("--max-loop-iterations", type=_count, default=DEFAULT_MAX_LOOP_ITERATIONS,
                   help="stop a WHILE_LOOP that runs more iterations than this, with an error at the "
                        f"loop (default {DEFAULT_MAX_LOOP_ITERATIONS}; both backends)")
    return p


# ---------------------------------------------------------------------------- inputs


def read_npy(path: str, limit: int):
    """Load one .npy safely: size checked from the header before any allocation, no pickles."""
    import numpy as np

    try:
        size = os.path.getsize(path)
        f = open(path, "rb")
    except OSError as err:
        raise UsageError(f"cannot read input '{path}': {err.strerror or err}") from None
    with f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
            elif version in ((2, 0), (3, 0)):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f"unsupported .npy version {version}")
        except Exception as err:
            raise UsageError(f"input '{path}' is not a valid .npy file: {_one_line(err)}") from None
        if dtype.hasobject:
            raise UsageError(f"input '{path}' holds Python objects, which tosa-run does not load")
        count = 1
        for d in shape:
            count *= int(d)
        nbytes = count * dtype.itemsize
        if nbytes > limit:
            raise UsageError(f"input '{path}' holds {nbytes} bytes, more than --max-input-bytes={limit}")
        if nbytes > size:
            raise UsageError(f"input '{path}' is truncated: its header declares {nbytes} bytes of data "
                             f"but the file has {size} bytes")
        f.seek(0)
        try:
            array = np.load(f, allow_pickle=False)
        except Exception as err:
            raise UsageError(f"input '{path}' is not a valid .npy file: {_one_line(err)}") from None
    if not isinstance(array, np.ndarray):
        raise UsageError(f"input '{path}' is not a single array")
    return array


def unsigned_io(fn) -> tuple[set[int], set[int]]:
    """The graph's unsigned boundary: arguments read only by RESCALEs with input_unsigned(true)
    and results produced by a RESCALE with output_unsigned(true). TOSA has no unsigned tensors;
    a model with uint8 inputs/outputs (a TFLite uint8 model, an upgraded pre-1.0 graph) keeps
    them as i8/i16 bit patterns read and written through these flags, so tosa-run takes and
    gives uint8/uint16 arrays there, as the producer's own runtime does."""
    from tosa_xdsl.dialects.tosa.ops.type_conversion import RescaleOp
    from tosa_xdsl.ir.access import prop

    try:
        block = fn.body.blocks[0]
        ret = block.last_op
    except (AttributeError, IndexError):
        return set(), set()
    args = {i for i, a in enumerate(block.args)
            if a.uses and all(isinstance(u.operation, RescaleOp) and u.index == 0
                              and prop(u.operation, "input_unsigned", False) for u in a.uses)}
    results = {i for i, v in enumerate(ret.operands if ret is not None else ())
               if isinstance(v.owner, RescaleOp) and prop(v.owner, "output_unsigned", False)}
    return args, results


def as_unsigned(outputs, indices: set[int]):
    """Results at `indices` viewed as the unsigned integers of their width (see unsigned_io)."""
    import numpy as np

    return [np.asarray(v).view(f"u{np.asarray(v).dtype.itemsize}") if i in indices
            and getattr(v, "dtype", None) is not None and v.dtype.kind == "i" else v
            for i, v in enumerate(outputs)]


def adapt_input(array, t, unsigned: bool = False):
    """Accept the reference model's storage of small float types: bf16/fp8 as raw bytes
    ('|V2', '|V1') or as their unsigned bits, and uint8/uint16 arrays for an argument on the
    graph's unsigned boundary (`unsigned`, see unsigned_io); otherwise the array is passed
    unchanged (the interpreter checks dtype and shape)."""
    import numpy as np

    from tosa_xdsl.interpreter.values import dtype_of

    try:
        want = dtype_of(t)
    except Exception:
        return array
    if array.dtype == want:
        return array
    if unsigned and array.dtype.kind == "u" and want.kind == "i" and array.dtype.itemsize == want.itemsize:
        return np.ascontiguousarray(array).view(want)  # the unsigned boundary: same bits
    if want.kind == "V" or want.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        if array.dtype.itemsize == want.itemsize and array.dtype.kind in "Vu":
            # (np.ascontiguousarray would make a rank-0 array rank 1)
            return np.array(array, order="C", copy=True).view(want)
    return array


# --------------------------------------------------------------------------- loading


def _one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return (text[0] if text else type(err).__name__)[:500]


class Loaded:
    """A loaded module, the driver that loaded it (its Context and sources) and its name."""

    def __init__(self, name: str, module, driver):
        self.name = name
        self.module = module
        self.driver = driver

    @property
    def sources(self):
        return self.driver.sources


def _validation_spec(args) -> str:
    """The tosa-validate pass with the requested target ("" when none is asked for)."""
    if args.level is None and args.profile is None and args.extension is None:
        return ""
    options = []
    if args.profile is not None:
        options.append(f"profile={','.join(args.profile)}")
    if args.extension is not None:
        options.append(f"extension={','.join(args.extension)}")
    if args.level is not None:
        options.append(f"level={args.level}")
    return "tosa-validate{" + " ".join(options) + "}"


def _build_pipeline(spec: str) -> list[Any]:
    from tosa_xdsl.driver import PipelineError, build_pipeline

    try:
        return build_pipeline(spec)
    except PipelineError as err:
        raise UsageError(str(err)) from None


def _bounded(passes: list[Any]) -> list[Any]:
    """The pipeline with `bound-while-loops` before an explicit `convert-scf-to-cf` that has
    none: once a loop is branches the interpreter no longer counts its iterations, so the
    lowered loops count them (and --max-loop-iterations still ends a never-ending WHILE_LOOP)."""
    names = [p.name for p in passes]
    if "convert-scf-to-cf" not in names or "bound-while-loops" in names[:names.index("convert-scf-to-cf")]:
        return passes
    from tosa_xdsl.lowering.to_llvm.bound_while_loops import BoundWhileLoopsPass

    k = names.index("convert-scf-to-cf")
    return [*passes[:k], BoundWhileLoopsPass(), *passes[k:]]


def _make_driver():
    from tosa_xdsl.context import make_context
    from tosa_xdsl.diagnostics import print_diagnostic
    from tosa_xdsl.driver import Driver, DriverOptions

    def report(diag) -> None:
        print_diagnostic(diag, sys.stderr, driver.sources)

    driver = Driver(make_context(), DriverOptions(), report)
    return driver


def _as_text_if_text(data: bytes) -> str | bytes:
    """MLIR text decoded (as the driver would), binary formats unchanged: holding the text
    and its bytes at once doubled the peak memory of a model with hex constants."""
    from tosa_xdsl.formats.loader import detect, is_text

    if detect(data) is None and is_text(data):
        return data.decode("utf-8", errors="replace")
    return data


def load_module(name: str, data: str | bytes, passes: list[Any], source: Any = None) -> Loaded | None:
    """Read (MLIR text, or any binary format the loader knows), verify and transform; located
    diagnostics go to stderr. None on failure. `source`: a pre-scanned text's SourceFile."""
    from tosa_xdsl.formats.loader import LoadError

    driver = _make_driver()
    try:
        module = driver.load(name, data, passes, source)
    except LoadError as err:
        sys.stderr.write(f"{err}\n")
        return None
    return None if module is None else Loaded(name, module, driver)


def apply_passes(loaded: Loaded, module, spec: str | list) -> bool:
    """Run the pipeline `spec` (or a list of pass objects) on `module` as tosa-opt does (a
    pass's errors are located diagnostics on stderr, the module is verified after each pass);
    False after an error."""
    driver = loaded.driver
    engine = driver.engine(loaded.name)
    with engine.activate():
        ok = driver.apply_passes(engine, module, _build_pipeline(spec) if isinstance(spec, str) else spec)
        engine.flush()
    return ok and not engine.error_count


# --------------------------------------------------------------------------- printing


def format_result(index: int, t, value) -> str:
    import numpy as np

    if isinstance(value, tuple):
        return f"result #{index}: {t} = [{', '.join(map(str, value))}]"
    arr = value
    if arr.dtype.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        arr = arr.astype(np.float32)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.uint8).astype(bool)
    if arr.dtype.kind == "f":
        def fmt(x):
            return np.format_float_positional(x, unique=True, trim="-") if np.isfinite(x) else str(x)
    elif arr.dtype == np.bool_:
        def fmt(x):
            return "true" if x else "false"
    else:
        fmt = str
    body = np.array2string(arr, separator=", ", threshold=sys.maxsize, max_line_width=sys.maxsize,
                           formatter={"all": fmt})
    body = " ".join(line.strip() for line in body.splitlines())
    return f"result #{index}: {t} = {body}"


# ------------------------------------------------------------------------------- main


def _run(args, cli: bool = False) -> int:
    if args.threads != 1 and args.backend != "jit":
        raise UsageError("--threads applies to native code: add --backend jit")

    # the module
    from tosa_xdsl.formats.prescan import prescan_if_large

    if args.input_file == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
        source = None
    else:
        name = args.input_file
        try:
            source = prescan_if_large(name)  # a large text model: its weights stay in the file
            if source is None:
                with open(name, "rb") as f:
                    data = f.read()
            else:
                data = source.text
        except OSError as err:
            raise UsageError(f"cannot open input file '{name}': {err.strerror or err}") from None
    # Validation first: the options judge the graph as given, whatever the pipeline does to it.
    passes = _build_pipeline(_validation_spec(args)) + _bounded(_build_pipeline(args.passes))
    if source is None:
        data = _as_text_if_text(data)  # the bytes of a text input are freed before parsing
    loaded = load_module(name, data, passes, source)
    if loaded is None:
        return 1
    if cli:
        gc.freeze()
        gc.enable()

    # the inputs
    from tosa_xdsl.interpreter.errors import InputError, TosaRunError
    from tosa_xdsl.interpreter.runner import Session, entry_function, io_types

    try:
        fn = entry_function(loaded.module, args.entry)
    except InputError as err:
        raise UsageError(str(err)) from None
    arg_types, result_types = io_types(fn)  # a bufferized function's out-params are results
    if len(args.input) != len(arg_types):
        raise UsageError(f"@{args.entry} takes {len(arg_types)} input(s), {len(args.input)} given with -i")
    if len(args.output) > len(result_types):
        raise UsageError(f"@{args.entry} has {len(result_types)} result(s), {len(args.output)} -o given")
    unsigned_args, unsigned_results = unsigned_io(fn)
    inputs = []
    for i, (path, t) in enumerate(zip(args.input, arg_types)):
        array = adapt_input(read_npy(path, args.max_input_bytes), t, unsigned=i in unsigned_args)
        inputs.append(array)

    if args.backend == "jit":
        outputs = _run_jit(loaded, inputs, args.entry, not args.no_cache, args.max_loop_iterations, args.threads,
                           args.fp_contract)
        if outputs is None:
            return 1
        return _write_outputs(args, result_types, as_unsigned(outputs, unsigned_results))

    session = Session(loaded.module, allow_unpredictable=args.allow_unpredictable,
                      max_loop_iterations=args.max_loop_iterations)
    try:
        outputs = session.call(inputs, args.entry)
    except InputError as err:
        raise UsageError(f"{err} (from '{args.input[_arg_index(err)]}')" if _arg_index(err) is not None
                         and _arg_index(err) < len(args.input) else str(err)) from None
    except TosaRunError as err:
        for w in session.warnings:
            sys.stderr.write(w.format("warning", loaded.sources))
        sys.stderr.write(err.format("error", loaded.sources))
        return 1
    for w in session.warnings:
        sys.stderr.write(w.format("warning", loaded.sources))

    return _write_outputs(args, result_types, as_unsigned(outputs, unsigned_results))


JIT_PIPELINE = "tosa-to-llvm{validation=false}"


def _run_jit(loaded: Loaded, inputs, entry: str, use_cache: bool = True,
             max_loop_iterations: int = DEFAULT_MAX_LOOP_ITERATIONS, threads: int = 1, fp_contract: str = "fast"):
    """--backend jit: the compiled module from the cache, else lower (tosa-to-llvm, through
    the same pass driver as -p, so a pass's errors are located diagnostics), compile (and
    cache), call; None after a printed error (a WHILE_LOOP past --max-loop-iterations: the
    interpreter's located diagnostic; the bound is a run-time value, not part of the cache key)."""
    from tosa_xdsl import jit
    from tosa_xdsl.codegen.cache import ModuleCache
    from tosa_xdsl.interpreter.errors import InputError, TosaRunError
    from tosa_xdsl.interpreter.runner import check_inputs, entry_function

    try:
        values = check_inputs(entry_function(loaded.module, entry), inputs)
    except InputError as err:
        raise UsageError(str(err)) from None
    cache = ModuleCache.default() if use_cache else None
    pipeline = jit.native_pipeline(JIT_PIPELINE, threads, fp_contract)
    try:
        native = jit.NativeModule.cached(loaded.module, entry, pipeline=pipeline, cache=cache)
        if native is None:
            lowered = loaded.module.clone()
            # validation, if asked for (--level/--profile/--extension), already ran on the TOSA module
            from tosa_xdsl.codegen import direct_llvm  # not on a cache hit (~0.1 s of imports)

            compiled = None
            split = direct_llvm.split_pipeline(pipeline) if direct_llvm.enabled() else None
            if split is not None:  # the direct road from the loop level (docs/native.md), else the rest
                head, rest = (direct_llvm.LoweringStages(tuple(part)) for part in split)
                if not apply_passes(loaded, lowered, [head]):
                    return None
                compiled = jit.compile_loop_level(lowered, entry)
                if compiled is None and not apply_passes(loaded, lowered, [rest]):
                    return None
            elif not apply_passes(loaded, lowered, pipeline):
                return None
            native = jit.NativeModule(loaded.module, entry, pipeline=pipeline, lowered=lowered, cache=cache,
                                      compiled=compiled)
        return native.call(values, max_loop_iterations=max_loop_iterations)
    except TosaRunError as err:
        sys.stderr.write(err.format("error", loaded.sources))
        return None
    except (jit.JitError, ValueError) as err:
        sys.stderr.write(f"{PROG}: error: {_one_line(err)}\n")
        return None


def output_array(value):
    """A result as tosa-run writes it: C order (a transposed view would be written Fortran-
    ordered), and bf16/fp8 as raw bits (`|V2`, `|V1`: what numpy itself writes for ml_dtypes'
    bfloat16, and what np.load and the reference model read; numpy cannot load the `<f1`
    descr it writes for float8)."""
    import numpy as np

    array = np.array(value, np.int64) if isinstance(value, tuple) else np.asarray(value)
    array = np.array(array, order="C", copy=True)  # keeps rank 0, unlike ascontiguousarray
    if array.dtype.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        array = array.view(np.dtype(f"V{array.dtype.itemsize}"))
    return array


def _write_outputs(args, result_types, outputs) -> int:
    import numpy as np

    for path, value in zip(args.output, outputs):
        try:
            # to exactly `path` (np.save(path) would append `.npy` to a name without it)
            with open(path, "wb") as f:
                np.save(f, output_array(value), allow_pickle=False)
        except OSError as err:  # unwritable or disk full: the run failed, exit 1
            sys.stderr.write(f"{PROG}: error: cannot write output '{path}': {err.strerror or err}\n")
            return 1
    if args.print_results:
        for i, (t, value) in enumerate(zip(result_types, outputs)):
            sys.stdout.write(format_result(i, t, value) + "\n")
    return 0


def _arg_index(err: Exception) -> int | None:
    import re

    m = re.search(r"argument #(\d+)", str(err))
    return int(m.group(1)) if m else None


def main(argv: list[str] | None = None) -> int:
    if argv is not None:
        return _main(argv, cli=False)
    _exit_now(_main(sys.argv[1:], cli=True))


def _exit_now(code: int) -> NoReturn:
    """The command line ends here without tearing the interpreter down: freeing the IR, the
    modules and their objects one by one costs ~16 ms CPU on the example (4% of the whole
    run) for nothing the process needs. atexit handlers still run (the dataclass code cache
    is written by one) and the standard streams are flushed first."""
    import atexit

    try:
        atexit._run_exitfuncs()  # what interpreter shutdown runs first  # pyright: ignore
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001, S110 -- a closed pipe: nothing left to tell
                pass
        os._exit(code)


def _main(argv: list[str], cli: bool) -> int:
    gc_was_enabled = gc.isenabled()
    if cli:
        # Start-up is mostly imports and building the IR: millions of objects and no
        # garbage cycles, which the cyclic GC would traverse again and again (~10% of the
        # whole run). It is off until the module is loaded, then the loaded objects are
        # frozen (never traversed again) and collection resumes for the run itself.
        # Only for the command line: an in-process caller's GC is left alone.
        gc.disable()
        from tosa_xdsl.tools.dataclass_code import install

        install()  # before xDSL is imported: its ~270 dataclasses' methods from the disk cache
    try:
        args = build_arg_parser().parse_args(argv)
        from tosa_xdsl import progress
        from tosa_xdsl.xdsl_patches import quiet_emit_error

        with quiet_emit_error(), progress.reporting(PROG, enabled=not args.quiet):
            return _run(args, cli)
    except UsageError as err:
        sys.stderr.write(f"{PROG}: error: {err}\n")
        return 2
    except LAST_RESORT as err:
        return last_resort(PROG, err)
    finally:
        if gc_was_enabled:
            gc.enable()


if __name__ == "__main__":
    sys.exit(main())

"""tosa-run: parse, verify (and optionally transform) a TOSA module, then run it with the
reference interpreter (tosa_xdsl.interpreter).

    tosa-run FILE [-i IN.npy]... [-o OUT.npy]... [--entry NAME] [--level none|8k]
             [--profile P,...] [--extension E,...] [-p PIPELINE] [--print]
             [--allow-unpredictable] [--max-input-bytes N]

Inputs are given in argument order (-i per argument), outputs written in result order (-o per
result, fewer -o than results is allowed); --print prints every result.

Exit codes: 0 success; 1 `FILE:LINE:COL: error: ...` for a parse, verify, validation,
pass or run-time failure (ERROR_IF: `error: ERROR_IF(<cond>) in 'tosa.x'`, REQUIRE:
`error: graph is unpredictable: REQUIRE(<cond>) failed in 'tosa.x'`); 2 bad usage or bad
inputs (one line: missing/unreadable file, not an .npy, wrong number of inputs, wrong dtype
or shape for an argument, input too large). With --allow-unpredictable a failed REQUIRE is
a warning and the run computes on. Nothing given by the user may produce a traceback.

Parsing, verification and passes reuse tosa-opt's driver (tools/tosa_opt.py: the locating
parser and its located diagnostics) when it is there, xDSL's Parser otherwise.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Any, NoReturn

PROG = "tosa-run"
DEFAULT_MAX_INPUT_BYTES = 1 << 30  # 1 GiB per input file


class UsageError(Exception):
    """Bad command line or bad inputs: one line, exit code 2."""


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _csv(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a byte count: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
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
    p.add_argument("--allow-unpredictable", action="store_true",
                   help="a failed REQUIRE only warns, and the run computes on")
    p.add_argument("--max-input-bytes", type=_size, default=DEFAULT_MAX_INPUT_BYTES,
                   help=f"refuse input arrays larger than this (default {DEFAULT_MAX_INPUT_BYTES})")
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


def adapt_input(array, t):
    """Accept the reference model's storage of small float types: bf16/fp8 as raw bytes
    ('|V2', '|V1') or as their unsigned bits; otherwise the array is passed unchanged (the
    interpreter checks dtype and shape)."""
    import numpy as np

    from tosa_xdsl.interpreter.values import dtype_of

    try:
        want = dtype_of(t)
    except Exception:
        return array
    if array.dtype == want:
        return array
    if want.kind == "V" or want.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        if array.dtype.itemsize == want.itemsize and array.dtype.kind in "Vu":
            return np.ascontiguousarray(array).view(want)
    return array


# --------------------------------------------------------------------------- loading


def _one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return (text[0] if text else type(err).__name__)[:500]


class Loaded:
    def __init__(self, module, sources, ctx):
        self.module = module
        self.sources = sources
        self.ctx = ctx


def _driver_args(name: str) -> argparse.Namespace:
    return argparse.Namespace(
        input_file=name, no_implicit_module=False, disable_verify=False, print_between_passes=False,
        verify_diagnostics=False, tosa_syntax="keyword", print_op_generic=False,
        print_debuginfo=False, print_no_properties=False, allow_unregistered_dialect=False,
        split_input_file=False, passes="", output_file="-", list_passes=False,
    )


def _validation_pass(args) -> list[Any]:
    """The tosa-validate pass with the requested target, when the registry has it."""
    if args.level is None and args.profile is None and args.extension is None:
        return []
    from tosa_xdsl.pass_registry import all_passes

    factory = all_passes().get("tosa-validate")
    if factory is None:
        return []  # validation options are accepted and kept until the pass exists
    from xdsl.passes import PassPipeline

    options = []
    if args.profile is not None:
        options.append(f"profile={','.join(args.profile)}")
    if args.extension is not None:
        options.append(f"extension={','.join(args.extension)}")
    if args.level is not None:
        options.append(f"level={args.level}")
    spec = "tosa-validate" + ("{" + " ".join(options) + "}" if options else "")
    try:
        return list(PassPipeline.parse_spec(all_passes(), spec).passes)
    except BaseException as err:  # ArgSpecParseError is a BaseException
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            raise
        raise UsageError(f"tosa-validate does not accept {spec!r}: {_one_line(err)}") from None


def _build_pipeline(spec: str) -> list[Any]:
    if not spec.strip():
        return []
    from xdsl.passes import PassPipeline

    from tosa_xdsl.pass_registry import all_passes

    try:
        return list(PassPipeline.parse_spec(all_passes(), spec).passes)
    except BaseException as err:
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            raise
        lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
        raise UsageError(f"invalid pass pipeline '{spec}': {lines[-1] if lines else type(err).__name__}") from None


def _diagnostic_engine(name: str, sources) -> tuple[Any, list]:
    """An engine printing located diagnostics to stderr, and the list of errors it saw."""
    from tosa_xdsl.diagnostics import Diagnostic, DiagnosticEngine, Loc, Severity, print_diagnostic

    failed: list = []

    def handle(diag: Diagnostic) -> None:
        if diag.severity is Severity.ERROR:
            failed.append(diag)
        print_diagnostic(diag, sys.stderr, sources)

    engine = DiagnosticEngine(handle)
    engine.fallback = Loc(name, 1, 1)
    return engine, failed


def apply_passes(name: str, loaded: Loaded, module, spec: str) -> bool:
    """Run the pipeline `spec` on `module` as tosa-opt does (a pass's errors are located
    diagnostics on stderr, the module is verified after each pass); False after an error."""
    from tosa_xdsl.tools import tosa_opt as driver_mod

    engine, failed = _diagnostic_engine(name, loaded.sources)
    driver = driver_mod.Driver(_driver_args(name), _build_pipeline(spec), loaded.ctx)
    driver.sources = loaded.sources
    with engine.activate():
        ok = driver._apply_passes(engine, module)  # noqa: SLF001
        engine.flush()
    return ok and not failed


def load_module(name: str, text: str, passes: list[Any], data: bytes | None = None) -> Loaded | None:
    """Parse, verify and transform; located diagnostics go to stderr. None on failure."""
    from tosa_xdsl.context import make_context
    from tosa_xdsl.diagnostics import Diagnostic, Loc, Severity, SourceFile
    from tosa_xdsl.formats import loader

    ctx = make_context()
    try:  # binary inputs (MLIR bytecode, .tosa, ...) are recognised by their bytes
        binary = loader.load_binary(data, ctx, name) if data is not None else None
    except loader.LoadError as err:
        sys.stderr.write(f"{err}\n")
        return None
    if binary is not None:
        text = ""
    src = SourceFile(name, text)
    sources = {name: src}
    engine, failed = _diagnostic_engine(name, sources)
    try:
        from tosa_xdsl.tools import tosa_opt as driver_mod

        driver = driver_mod.Driver(_driver_args(name), passes, ctx)
        driver.sources = sources
        parse, verify, apply = driver._parse, driver._verify, driver._apply_passes  # noqa: SLF001
    except (ImportError, AttributeError, TypeError):
        parse = verify = apply = None

    with engine.activate():
        if parse is not None:
            module = binary if binary is not None else parse(engine, src, text, 0)
            engine.flush()
            if module is None or failed:
                return None
            ok = verify(engine, module) and apply(engine, module)
            engine.flush()
            if not ok or failed:
                return None
            return Loaded(module, sources, ctx)
        # fallback: xDSL's parser (no op locations)
        from xdsl.parser import Parser

        try:
            module = Parser(ctx, text, name).parse_module()
            module.verify()
            for p in passes:
                p.apply(ctx, module)
                module.verify()
        except Exception as err:
            engine.emit(Diagnostic(Severity.ERROR, _one_line(err), Loc(name, 1, 1)))
            engine.flush()
            return None
        return Loaded(module, sources, ctx)


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

    # the module
    if args.input_file == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        name = args.input_file
        try:
            with open(name, "rb") as f:
                data = f.read()
        except OSError as err:
            raise UsageError(f"cannot open input file '{name}': {err.strerror or err}") from None
    text = data.decode("utf-8", errors="replace")

    from xdsl.ir import Operation

    try:  # xDSL's emit_error renders the whole module into every verifier message
        from tosa_xdsl.tools.tosa_opt import _quiet_emit_error

        Operation.emit_error = _quiet_emit_error  # pyright: ignore[reportAttributeAccessIssue]
    except ImportError:
        pass

    passes = _build_pipeline(args.passes) + _validation_pass(args)
    loaded = load_module(name, text, passes, data)
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
    inputs = []
    for i, (path, t) in enumerate(zip(args.input, arg_types)):
        array = adapt_input(read_npy(path, args.max_input_bytes), t)
        inputs.append(array)

    if args.backend == "jit":
        outputs = _run_jit(name, loaded, inputs, args.entry)
        if outputs is None:
            return 1
        return _write_outputs(args, result_types, outputs)

    session = Session(loaded.module, allow_unpredictable=args.allow_unpredictable)
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

    return _write_outputs(args, result_types, outputs)


def _run_jit(name: str, loaded: Loaded, inputs, entry: str):
    """--backend jit: lower (tosa-to-llvm, through the same pass driver as -p, so a pass's
    errors are located diagnostics), compile, call; None after a printed error."""
    from tosa_xdsl import jit
    from tosa_xdsl.interpreter.errors import InputError
    from tosa_xdsl.interpreter.runner import check_inputs, entry_function

    try:
        values = check_inputs(entry_function(loaded.module, entry), inputs)
    except InputError as err:
        raise UsageError(str(err)) from None
    lowered = loaded.module.clone()
    # validation, if asked for (--level/--profile/--extension), already ran on the TOSA module
    if not apply_passes(name, loaded, lowered, "tosa-to-llvm{validation=false}"):
        return None
    try:
        return jit.NativeModule(loaded.module, entry, lowered=lowered).call(values)
    except (jit.JitError, ValueError) as err:
        sys.stderr.write(f"{PROG}: error: {_one_line(err)}\n")
        return None


def _write_outputs(args, result_types, outputs) -> int:
    import numpy as np

    for path, value in zip(args.output, outputs):
        try:
            np.save(path, np.asarray(value) if not isinstance(value, tuple) else np.array(value, np.int64),
                    allow_pickle=False)
        except OSError as err:
            raise UsageError(f"cannot write output '{path}': {err.strerror or err}") from None
    if args.print_results:
        for i, (t, value) in enumerate(zip(result_types, outputs)):
            sys.stdout.write(format_result(i, t, value) + "\n")
    return 0


def _arg_index(err: Exception) -> int | None:
    import re

    m = re.search(r"argument #(\d+)", str(err))
    return int(m.group(1)) if m else None


def main(argv: list[str] | None = None) -> int:
    cli = argv is None
    argv = sys.argv[1:] if argv is None else argv
    gc_was_enabled = gc.isenabled()
    if cli:
        # Start-up is mostly imports and building the IR: millions of objects and no
        # garbage cycles, which the cyclic GC would traverse again and again (~10% of the
        # whole run). It is off until the module is loaded, then the loaded objects are
        # frozen (never traversed again) and collection resumes for the run itself.
        # Only for the command line: an in-process caller's GC is left alone.
        gc.disable()
    try:
        args = build_arg_parser().parse_args(argv)
        return _run(args, cli)
    except UsageError as err:
        sys.stderr.write(f"{PROG}: error: {err}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except RecursionError:
        sys.stderr.write(f"{PROG}: error: input nested too deeply (Python recursion limit reached)\n")
        return 1
    except MemoryError:
        sys.stderr.write(f"{PROG}: error: out of memory\n")
        return 1
    except Exception as err:  # a bug of ours: still no traceback for the user
        sys.stderr.write(f"{PROG}: internal error: {type(err).__name__}: {_one_line(err)}\n")
        return 1
    finally:
        if gc_was_enabled:
            gc.enable()


if __name__ == "__main__":
    sys.exit(main())

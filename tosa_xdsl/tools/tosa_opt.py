"""tosa-opt: parse, verify, transform and print TOSA (and any xDSL dialect) like mlir-opt.

    tosa-opt [FILE|-] [-p PIPELINE] [-o OUT] [--split-input-file] [--verify-diagnostics]
             [--print-op-generic] [--allow-unregistered-dialect] [--tosa-syntax=keyword|attr-dict]
             [--print-between-passes] [--disable-verify] [--print-debuginfo] ...

A lean driver rather than xDSL's xDSLOptMain: that one registers xDSL's `tosa`, stops at
the first error, prints errors without locations and ignores `expected-*` comments.
Parsing (with op locations), verification, passes and printing are tosa_xdsl.driver's, shared
with tosa-run; this module adds the command line, `--split-input-file` and
`--verify-diagnostics` (mlir-opt's rules, tosa_xdsl.diagnostics).

Exit codes: 0 success; 1 any error diagnostic (or an expectation mismatch); 2 bad command
line (unknown flag or pass, bad pass option, unreadable input, unwritable output).
Nothing in the input may produce a Python traceback: unexpected exceptions become located
`error:` diagnostics.

Start-up matters (lit runs this hundreds of times): xDSL is imported only after the
command line is checked, dialects are registered lazily and passes are imported only when
named in the pipeline.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, NoReturn, TextIO

from tosa_xdsl.tools.last_resort import LAST_RESORT, last_resort

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass

    from tosa_xdsl.diagnostics import Diagnostic, SourceFile, Verifier

SPLIT_MARKER = "// -----"
PROG = "tosa-opt"


class CommandLineError(Exception):
    """Bad command line: reported on one line, exit code 2."""


# ----------------------------------------------------------------------------- arguments


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse would print the whole usage
        raise CommandLineError(message)


def _build_arg_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(prog=PROG, description="TOSA (and xDSL) modular optimizer driver")
    p.add_argument("input_file", nargs="?", default="-", help="input file, '-' for stdin")
    p.add_argument("-o", "--output-file", default="-", help="output file, '-' for stdout")
    p.add_argument("-p", "--passes", default="", help="comma-separated pass pipeline (xDSL syntax)")
    p.add_argument("--split-input-file", action="store_true", help=f"split input at '{SPLIT_MARKER}'")
    p.add_argument("--verify-diagnostics", action="store_true", help="check // expected-* comments")
    p.add_argument("--print-op-generic", "--mlir-print-op-generic", action="store_true")
    p.add_argument("--print-debuginfo", "--mlir-print-debuginfo", action="store_true")
    p.add_argument("--print-no-properties", action="store_true", help="print properties as attributes")
    p.add_argument("--allow-unregistered-dialect", action="store_true")
    p.add_argument("--tosa-syntax", choices=("keyword", "attr-dict"), default="keyword",
                   help="custom syntax of tosa ops: keyword (current MLIR) or attr-dict (older MLIR)")
    p.add_argument("--print-between-passes", action="store_true")
    p.add_argument("--disable-verify", action="store_true", help="do not verify ops")
    p.add_argument("--verify-each", action="store_true",
                   help="accepted for mlir-opt compatibility: the IR is verified after every pass anyway")
    p.add_argument("--pass-pipeline", action="append", default=[], metavar="PIPELINE",
                   help="an mlir-opt pipeline, e.g. 'builtin.module(func.func(canonicalize))'")
    p.add_argument("--no-implicit-module", action="store_true")
    p.add_argument("--list-passes", action="store_true", help="print the available passes and exit")
    p.add_argument("--quiet", action="store_true",
                   help="no progress line (it is shown only when stderr is a terminal)")
    p.add_argument("--emit-bytecode", action="store_true", help="write MLIR bytecode instead of text")
    p.add_argument("--emit-bytecode-version", type=int, default=None, metavar="N", choices=range(0, 7),
                   help="bytecode version to write with --emit-bytecode, 0 to 6 (default 6)")
    p.add_argument("--tosa-no-upgrade", action="store_true",
                   help="reject pre-1.0 TOSA input instead of upgrading it to 1.0.1 on read")
    return p


def _normalise_argv(argv: list[str], parser: argparse.ArgumentParser) -> tuple[list[str], list[str]]:
    """Accept mlir-opt's single-dash long options (`-split-input-file`) and its pass flags:
    `--NAME` / `--NAME=OPTIONS` for a registered pass NAME (`--canonicalize="test-convergence"`,
    `-tosa-validate=strict-op-spec-alignment`). Returns the arguments for argparse and the
    pass-flag pipeline entries in command-line order."""
    long_opts = {s for a in parser._actions for s in a.option_strings if s.startswith("--")}  # pyright: ignore[reportPrivateUsage]
    out: list[str] = []
    pass_flags: list[str] = []
    registry = None
    for arg in argv:
        if arg.startswith("-") and len(arg) > 2 and arg != "--":
            name, eq, options = arg.lstrip("-").partition("=")
            if "--" + name in long_opts:
                arg = "--" + arg.lstrip("-")
            else:
                if registry is None:
                    from tosa_xdsl.pass_registry import all_passes

                    registry = all_passes()
                if name in registry:
                    pass_flags.append(f"{name}{{{options}}}" if eq and options.strip() else name)
                    continue
        out.append(arg)
    return out, pass_flags


# ------------------------------------------------------------------------------ running


class OptRun:
    """One tosa-opt invocation: the input split into chunks (--split-input-file), each parsed,
    verified, transformed and printed by the shared driver; --verify-diagnostics checks the
    diagnostics against the chunk's `// expected-*` comments instead of printing them."""

    def __init__(self, args: argparse.Namespace, passes: list[ModulePass], ctx: Context):
        from tosa_xdsl.driver import Driver, DriverOptions

        self.args = args
        self.passes = passes
        self.name = "<stdin>" if args.input_file == "-" else args.input_file
        self.verifier: Verifier | None = None
        self.failed = False
        options = DriverOptions(
            verify=not args.disable_verify, implicit_module=not args.no_implicit_module,
            print_between_passes=args.print_between_passes, tosa_syntax=args.tosa_syntax,
            print_op_generic=args.print_op_generic, print_debuginfo=args.print_debuginfo,
            print_no_properties=args.print_no_properties, upgrade_legacy=not args.tosa_no_upgrade,
            allow_unregistered=args.allow_unregistered_dialect)
        self.driver = Driver(ctx, options, self._handle)
        self.driver.print_op_on_diagnostic = not args.verify_diagnostics
        self.driver.expect_passes(passes)

    def _handle(self, diag: Diagnostic) -> None:
        from tosa_xdsl.diagnostics import Severity, print_diagnostic

        if self.verifier is not None:
            self.verifier.process(diag)
            return
        if diag.severity is Severity.ERROR:
            self.failed = True
        print_diagnostic(diag, sys.stderr, self.driver.sources)

    def run_chunk(self, src: SourceFile, text: str, base: int) -> str | None:
        """Parse, verify, transform and print one chunk; None if it failed."""
        from tosa_xdsl.diagnostics import parse_expectations

        driver = self.driver
        line, col = src.line_col(base)
        engine = driver.engine(src.name, line, col)
        if self.verifier is not None:
            self.verifier.start_chunk(parse_expectations(text, src.name, line - 1))
        with engine.activate():
            module = driver.read(engine, src, text, base)
            engine.flush()
            if module is None:
                return None
            if not driver.apply_passes(engine, module, self.passes):
                return None
            text_out = self.output(engine, module)
            engine.flush()
            return text_out

    def output(self, engine, module: ModuleOp) -> str | bytes | None:
        """The module as text, or as MLIR bytecode with --emit-bytecode; None after an error."""
        if not self.args.emit_bytecode:
            return self.driver.print(engine, module)
        from tosa_xdsl.diagnostics import op_loc
        from tosa_xdsl.formats.bytecode import write_bytecode

        try:
            return write_bytecode(module, self.args.emit_bytecode_version)
        except Exception as err:  # an attribute bytecode cannot encode
            self.driver.error(engine, op_loc(module), f"cannot emit bytecode: {err}")
            engine.flush()
            return None

    def run_binary(self, module: ModuleOp, out: TextIO) -> int:
        """Verify, transform and print a module read from a binary format."""
        driver = self.driver
        engine = driver.engine(self.name)
        with engine.activate():
            ok = ((not driver.options.verify or driver.verify(engine, module))
                  and driver.apply_passes(engine, module, self.passes))
            text_out = self.output(engine, module) if ok else None
            engine.flush()
        if text_out is not None:
            out.write(text_out)
        return 1 if self.failed or text_out is None else 0

    def run(self, data: bytes, out: TextIO, source: SourceFile | None = None) -> int:
        """`source`: a pre-scanned large text file (then `data` is unused)."""
        from tosa_xdsl.diagnostics import (
            ExpectationError,
            SourceFile,
            Verifier,
            format_diagnostic,
        )
        from tosa_xdsl.formats.loader import LoadError

        if source is not None:
            src, text = source, source.text
        else:
            try:  # binary inputs (MLIR bytecode, .tosa, ...) are recognised by their bytes
                module = self.driver.read_binary(self.name, data)
            except LoadError as err:
                sys.stderr.write(f"{err}\n")
                return 1
            if module is not None:
                return self.run_binary(module, out)
            text = data.decode("utf-8", errors="replace")
            src = SourceFile(self.name, text)
        sources = self.driver.sources
        sources[self.name] = src
        if self.args.verify_diagnostics:
            self.verifier = Verifier(self.name, sources, sys.stderr)
        pieces = text.split(SPLIT_MARKER) if self.args.split_input_file else [text]
        base = 0
        for index, piece in enumerate(pieces):
            if index:
                out.write(SPLIT_MARKER + "\n")
            try:
                result = self.run_chunk(src, piece, base)
            except ExpectationError as err:
                sys.stderr.write(format_diagnostic("error", str(err), err.loc, sources))
                self.failed = True
                result = None
            if result is not None:
                out.write(result)
            base += len(piece) + len(SPLIT_MARKER)
        if self.verifier is not None:
            return 0 if self.verifier.finish() and not self.failed else 1
        return 1 if self.failed else 0


# ------------------------------------------------------------------------------ helpers


def _build_pipeline(spec: str) -> list[ModulePass]:
    from tosa_xdsl.driver import PipelineError, build_pipeline

    try:
        return build_pipeline(spec)
    except PipelineError as err:
        raise CommandLineError(str(err)) from err


def _pipeline_spec(args: argparse.Namespace, pass_flags: list[str]) -> str:
    """One `-p` spec from -p, --pass-pipeline and mlir-opt's pass flags (which mlir-opt does not
    let be mixed with --pass-pipeline; neither do we)."""
    from tosa_xdsl.driver import PipelineError, mlir_pipeline_to_spec

    parts = [p for p in (args.passes,) if p.strip()]
    if args.pass_pipeline and pass_flags:
        raise CommandLineError("'--pass-pipeline' cannot be used with individual pass options")
    try:
        parts += [mlir_pipeline_to_spec(p) for p in args.pass_pipeline]
    except PipelineError as err:
        raise CommandLineError(str(err)) from err
    parts += pass_flags
    return ",".join(p for p in parts if p.strip())


def _read_input(args: argparse.Namespace) -> tuple[bytes, SourceFile | None]:
    """The input's bytes, or for a large MLIR text file its pre-scanned source (the weights'
    hex digits left in the file: tosa_xdsl/formats/prescan.py) and no bytes. Split inputs and
    --verify-diagnostics read the whole text (their chunks and expectations index into it)."""
    path = args.input_file
    if path == "-":
        return sys.stdin.buffer.read(), None
    try:
        if not (args.split_input_file or args.verify_diagnostics):
            from tosa_xdsl.formats.prescan import prescan_if_large

            source = prescan_if_large(path)
            if source is not None:
                return b"", source
        with open(path, "rb") as f:
            return f.read(), None
    except OSError as err:
        raise CommandLineError(f"cannot open input file '{path}': {err.strerror or err}") from err


def _open_output(path: str, binary: bool = False) -> TextIO:
    """The output stream: text, or bytes for --emit-bytecode."""
    if path == "-":
        return sys.stdout.buffer if binary else sys.stdout  # pyright: ignore[reportReturnType]
    try:
        return open(path, "wb") if binary else open(path, "w", encoding="utf-8")  # pyright: ignore[reportReturnType]
    except OSError as err:
        raise CommandLineError(f"cannot open output file '{path}': {err.strerror or err}") from err


def parse_command_line(argv: list[str]) -> tuple[argparse.Namespace, str]:
    """The options and the `-p` pipeline spec of a tosa-opt (or mlir-opt) command line;
    CommandLineError if it is not one."""
    arg_parser = _build_arg_parser()
    argv, pass_flags = _normalise_argv(argv, arg_parser)
    args = arg_parser.parse_args(argv)
    return args, _pipeline_spec(args, pass_flags)


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the command line: xDSL's dataclasses' methods from the disk cache
        from tosa_xdsl.tools.dataclass_code import install

        install()
    argv = sys.argv[1:] if argv is None else argv
    out: TextIO | None = None
    try:
        args, spec = parse_command_line(argv)
        if args.list_passes:
            from tosa_xdsl.pass_registry import all_passes

            print("\n".join(sorted(all_passes())))
            return 0
        data, source = _read_input(args)
        passes = _build_pipeline(spec)
        if args.emit_bytecode and (args.split_input_file or args.verify_diagnostics):
            raise CommandLineError("--emit-bytecode writes one module: not with --split-input-file "
                                   "or --verify-diagnostics")
        if args.emit_bytecode_version is not None and not args.emit_bytecode:
            raise CommandLineError("--emit-bytecode-version needs --emit-bytecode")
        out = _open_output(args.output_file, binary=args.emit_bytecode)
    except CommandLineError as err:
        sys.stderr.write(f"{PROG}: error: {err}\n")
        return 2

    from tosa_xdsl import progress
    from tosa_xdsl.context import make_context
    from tosa_xdsl.xdsl_patches import quiet_emit_error

    try:
        with quiet_emit_error(), progress.reporting(PROG, enabled=not args.quiet):
            ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
            code = OptRun(args, passes, ctx).run(data, out, source)
            out.flush()
        if out is not sys.stdout:
            out.close()
    except BrokenPipeError:
        return 1
    except OSError as err:  # disk full, I/O error: one line, not a traceback
        sys.stderr.write(f"{PROG}: error: cannot write output '{args.output_file}': "
                         f"{err.strerror or err}\n")
        return 1
    except LAST_RESORT as err:
        return last_resort(PROG, err)
    finally:
        if out is not sys.stdout and out is not getattr(sys.stdout, "buffer", None):
            try:
                out.close()
            except OSError:
                pass  # reported above; what is buffered is lost either way
    return code


if __name__ == "__main__":
    sys.exit(main())

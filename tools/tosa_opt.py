"""tosa-opt: parse, verify, transform and print TOSA (and any xDSL dialect) like mlir-opt.

    tosa-opt [FILE|-] [-p PIPELINE] [-o OUT] [--split-input-file] [--verify-diagnostics]
             [--print-op-generic] [--allow-unregistered-dialect] [--tosa-syntax=keyword|attr-dict]
             [--print-between-passes] [--disable-verify] [--print-debuginfo] ...

A lean driver rather than xDSL's xDSLOptMain: that one registers xDSL's `tosa`, stops at
the first error, prints errors without locations and ignores `expected-*` comments.
Here every op is stamped with its source location while parsing (the column of the op
name, as MLIR), every failing op is reported as `file:line:col: error: msg`, and
`--verify-diagnostics` checks expectations with mlir-opt's rules (tosa_xdsl.diagnostics).

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
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Operation
    from xdsl.passes import ModulePass

    from tosa_xdsl.diagnostics import Diagnostic, DiagnosticEngine, Loc, SourceFile

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
    p.add_argument("--no-implicit-module", action="store_true")
    p.add_argument("--list-passes", action="store_true", help="print the available passes and exit")
    return p


def _normalise_argv(argv: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """Accept mlir-opt's single-dash long options (`-split-input-file`)."""
    long_opts = {s for a in parser._actions for s in a.option_strings if s.startswith("--")}  # pyright: ignore[reportPrivateUsage]
    out: list[str] = []
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            if "--" + arg[1:].split("=", 1)[0] in long_opts:
                arg = "-" + arg
        out.append(arg)
    return out


# --------------------------------------------------------------------------- the parser


def _make_parser_class():
    """Parser subclass stamping FileLineColLoc on ops; built lazily (imports xDSL)."""
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    class ParseCrash(Exception):
        """An exception other than ParseError while parsing, with the offending position."""

        def __init__(self, pos: int, cause: BaseException):
            super().__init__(str(cause))
            self.pos = pos
            self.cause = cause

    class LocatingParser(Parser):
        """Stamps each parsed op with the location of its name (file-absolute line/col)."""

        def __init__(self, ctx: Context, text: str, source: SourceFile, base: int):
            super().__init__(ctx, text, source.name)
            self._source = source
            self._base = base  # character offset of this chunk in the whole input
            self._file = StringAttr(source.name)
            self._ints: dict[int, IntAttr] = {}
            self.op_positions: list[int] = []  # innermost op being parsed is last

        def loc_at(self, pos: int) -> FileLineColLoc:
            line, col = self._source.line_col(self._base + pos)
            ints = self._ints
            # IntAttr construction verifies; columns repeat a lot, so cache them.
            if (c := ints.get(col)) is None:
                c = ints[col] = IntAttr(col)
            return FileLineColLoc(self._file, IntAttr(line), c)

        def current_pos(self) -> int:
            if self.op_positions:
                return self.op_positions[-1]
            try:
                return self._current_token.span.start
            except Exception:
                return 0

        def _parse_op_result_list(self):
            results = super()._parse_op_result_list()
            # Now at the op name: MLIR locates ops there, not at their `%results =`.
            if self.op_positions:
                self.op_positions[-1] = self._current_token.span.start
            return results

        def _get_op_by_name(self, name: str):
            try:
                return super()._get_op_by_name(name)
            except ParseError as err:
                # xDSL points after the name; MLIR (and our op locations) at its start.
                if not self.op_positions:
                    raise
                self.raise_error(err.msg, self.op_positions[-1])

        def parse_operation(self) -> Operation:
            self.op_positions.append(self._current_token.span.start)
            try:
                op = super().parse_operation()
            except (ParseError, ParseCrash):
                raise
            except Exception as err:  # VerifyException from format constraints, crashes
                raise ParseCrash(self.op_positions[-1], err) from err
            finally:
                pos = self.op_positions.pop()
            if isinstance(op.location, UnknownLoc):
                op.location = self.loc_at(pos)
            return op

        def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
            if allow_implicit_module and self._current_token.kind == MLIRTokenKind.EOF:
                module = ModuleOp([])  # an empty chunk is an empty module, as in mlir-opt
            else:
                module = super().parse_module(allow_implicit_module)
            if isinstance(module.location, UnknownLoc):
                module.location = self.loc_at(0)
            return module

    return LocatingParser, ParseCrash


# ------------------------------------------------------------------------------- driver


class Driver:
    def __init__(self, args: argparse.Namespace, passes: list[ModulePass], ctx: Context):
        from tosa_xdsl.diagnostics import Verifier

        self.args = args
        self.passes = passes
        self.ctx = ctx
        self.name = "<stdin>" if args.input_file == "-" else args.input_file
        self.sources: dict[str, SourceFile] = {}
        self.verifier: Verifier | None = None
        self.failed = False

    # diagnostics ------------------------------------------------------------------------

    def _handle(self, diag: Diagnostic) -> None:
        from tosa_xdsl.diagnostics import Severity, print_diagnostic

        if self.verifier is not None:
            self.verifier.process(diag)
            return
        if diag.severity is Severity.ERROR:
            self.failed = True
        print_diagnostic(diag, sys.stderr, self.sources)

    def _error(self, engine: DiagnosticEngine, loc: Loc | None, msg: str, op: Operation | None = None) -> None:
        from tosa_xdsl.diagnostics import Diagnostic, Severity

        diag = Diagnostic(Severity.ERROR, msg, loc if loc is not None else engine.fallback)
        if op is not None and self.verifier is None:
            # mlir-opt's printOpOnDiagnostic (off under --verify-diagnostics, as there).
            if (text := _generic_text(op)) is not None:
                diag.attach_note(None, "see current operation: " + text)
        engine.emit(diag)

    # stages -----------------------------------------------------------------------------

    def _parse(self, engine: DiagnosticEngine, src: SourceFile, text: str, base: int) -> ModuleOp | None:
        from xdsl.utils.exceptions import MultipleSpansParseError, ParseError

        from tosa_xdsl.diagnostics import Loc

        LocatingParser, ParseCrash = _parser_classes()
        parser = None

        def loc_of(pos: int) -> Loc:
            line, col = src.line_col(base + pos)
            return Loc(src.name, line, col)

        try:
            parser = LocatingParser(self.ctx, text, src, base)
            return parser.parse_module(not self.args.no_implicit_module)
        except ParseError as err:
            own = parser is not None and err.span.input is parser.lexer.input
            pos = err.span.start if own else (parser.current_pos() if parser else 0)
            self._error(engine, loc_of(pos), err.msg)
            if own and isinstance(err, MultipleSpansParseError) and engine.pending:
                for span, note in err.refs:
                    if span.input is parser.lexer.input:  # pyright: ignore[reportOptionalMemberAccess]
                        engine.pending[-1].attach_note(loc_of(span.start), note or "see here")
        except ParseCrash as err:
            self._error(engine, loc_of(err.pos), _exception_message(err.cause))
        except (Exception, RecursionError) as err:
            self._error(engine, loc_of(parser.current_pos() if parser else 0), _exception_message(err))
        return None

    def _verify(self, engine: DiagnosticEngine, module: ModuleOp) -> bool:
        """Verify every op (not only up to the first failure); True if none failed."""
        from xdsl.utils.exceptions import DiagnosticException

        from tosa_xdsl.diagnostics import LocatedError, op_loc

        before = engine.error_count
        try:
            ops = list(module.walk())
        except Exception as err:
            self._error(engine, op_loc(module), _exception_message(err))
            return False
        for op in ops:
            try:
                op.verify(verify_nested_ops=False)
            except LocatedError as err:
                engine.emit(err.to_diagnostic())
            except DiagnosticException as err:
                self._error(engine, op_loc(op), str(err), op)
            except Exception as err:
                self._error(engine, op_loc(op), _exception_message(err), op)
            engine.flush()
        return engine.error_count == before

    def _apply_passes(self, engine: DiagnosticEngine, module: ModuleOp) -> bool:
        from xdsl.utils.exceptions import DiagnosticException

        from tosa_xdsl.diagnostics import LocatedError, op_loc

        for index, pass_ in enumerate(self.passes):
            before = engine.error_count
            try:
                pass_.apply(self.ctx, module)
            except LocatedError as err:
                engine.emit(err.to_diagnostic())
            except DiagnosticException as err:
                self._error(engine, op_loc(module), str(err))
            except Exception as err:
                self._error(engine, op_loc(module), f"in pass '{pass_.name}': {_exception_message(err)}")
            engine.flush()
            if engine.error_count != before:
                return False
            if not self.args.disable_verify and not self._verify(engine, module):
                return False
            if self.args.print_between_passes and index + 1 < len(self.passes):
                text = self._print(engine, module)
                if text is None:
                    return False
                sys.stdout.write(f"IR after {pass_.name}:\n{text}\n\n")
        return True

    def _print(self, engine: DiagnosticEngine, module: ModuleOp) -> str | None:
        from io import StringIO

        from tosa_xdsl.diagnostics import op_loc
        from tosa_xdsl.printing import TosaPrinter

        out = StringIO()
        style_token = None
        syntax = sys.modules.get("tosa_xdsl.syntax")  # only loaded if tosa ops were parsed
        if syntax is not None:
            style_token = syntax.print_style.set(self.args.tosa_syntax)
        try:
            # TosaPrinter: tosa.const prints generic in the attr-dict style (older MLIR has no
            # custom form for it).
            printer = TosaPrinter(
                stream=out,
                print_generic_format=self.args.print_op_generic,
                print_properties_as_attributes=self.args.print_no_properties,
                print_debuginfo=self.args.print_debuginfo,
            )
            printer.print_op(module)
            printer.print_metadata(self.ctx.loaded_dialects)
            out.write("\n\n")
        except Exception as err:
            self._error(engine, op_loc(module), f"while printing: {_exception_message(err)}")
            engine.flush()
            return None
        finally:
            if style_token is not None and syntax is not None:
                syntax.print_style.reset(style_token)
        return out.getvalue()

    def run_module(self, module: ModuleOp, out: TextIO) -> int:
        """Verify, transform and print a module read from a binary format."""
        from tosa_xdsl.diagnostics import DiagnosticEngine, Loc

        engine = DiagnosticEngine(self._handle)
        engine.fallback = Loc(self.name, 1, 1)
        with engine.activate():
            ok = (self.args.disable_verify or self._verify(engine, module)) and self._apply_passes(engine, module)
            text_out = self._print(engine, module) if ok else None
            engine.flush()
        if text_out is not None:
            out.write(text_out)
        return 1 if self.failed or text_out is None else 0

    def run_chunk(self, src: SourceFile, text: str, base: int) -> str | None:
        """Parse, verify, transform and print one chunk; None if it failed."""
        from tosa_xdsl.diagnostics import DiagnosticEngine, Loc, parse_expectations

        line, col = src.line_col(base)
        engine = DiagnosticEngine(self._handle)
        engine.fallback = Loc(src.name, line, col)
        if self.verifier is not None:
            self.verifier.start_chunk(parse_expectations(text, src.name, line - 1))
        with engine.activate():
            module = self._parse(engine, src, text, base)
            engine.flush()
            if module is None:
                return None
            if not self.args.disable_verify and not self._verify(engine, module):
                return None
            if not self._apply_passes(engine, module):
                return None
            text_out = self._print(engine, module)
            engine.flush()
            return text_out

    def run(self, data: bytes, out: TextIO) -> int:
        from tosa_xdsl.diagnostics import ExpectationError, SourceFile, Verifier, format_diagnostic
        from tosa_xdsl.formats import loader

        try:  # binary inputs (MLIR bytecode, .tosa, ...) are recognised by their bytes
            module = loader.load_binary(data, self.ctx, self.name)
        except loader.LoadError as err:
            sys.stderr.write(f"{err}\n")
            return 1
        if module is not None:
            return self.run_module(module, out)
        text = data.decode("utf-8", errors="replace")
        src = SourceFile(self.name, text)
        self.sources[self.name] = src
        if self.args.verify_diagnostics:
            self.verifier = Verifier(self.name, self.sources, sys.stderr)
        if self.args.split_input_file:
            pieces = text.split(SPLIT_MARKER)
        else:
            pieces = [text]
        base = 0
        for index, piece in enumerate(pieces):
            if index:
                out.write(SPLIT_MARKER + "\n")
            try:
                result = self.run_chunk(src, piece, base)
            except ExpectationError as err:
                sys.stderr.write(format_diagnostic("error", str(err), err.loc, self.sources))
                self.failed = True
                result = None
            if result is not None:
                out.write(result)
            base += len(piece) + len(SPLIT_MARKER)
        if self.verifier is not None:
            return 0 if self.verifier.finish() and not self.failed else 1
        return 1 if self.failed else 0


# ------------------------------------------------------------------------------ helpers

_parser_cache: tuple[Any, Any] | None = None


def _parser_classes() -> tuple[Any, Any]:
    global _parser_cache
    if _parser_cache is None:
        _parser_cache = _make_parser_class()
    return _parser_cache


def _exception_message(err: BaseException) -> str:
    """A one-line message for an exception that is not a diagnostic of ours."""
    from xdsl.utils.exceptions import DiagnosticException

    if isinstance(err, RecursionError):
        return "input nested too deeply (Python recursion limit reached)"
    if isinstance(err, MemoryError):
        return "out of memory"
    text = str(err).strip() or type(err).__name__
    if isinstance(err, DiagnosticException):
        return text
    return f"internal error: {type(err).__name__}: {text}"


def _generic_text(op: Operation) -> str | None:
    from io import StringIO

    from xdsl.printer import Printer

    try:
        out = StringIO()
        Printer(stream=out, print_generic_format=True).print_op(op)
        return out.getvalue()
    except Exception:
        return None


def _quiet_emit_error(self: Any, message: str, underlying_error: Exception) -> NoReturn:
    # xDSL's Operation.emit_error renders the whole module into the exception for every
    # failing op (seconds on a real model); we print our own located diagnostics instead.
    raise underlying_error


def _build_pipeline(spec: str) -> list[ModulePass]:
    from xdsl.passes import PassPipeline

    from tosa_xdsl.pass_registry import all_passes

    if not spec.strip():
        return []
    try:
        return list(PassPipeline.parse_spec(all_passes(), spec).passes)
    except (Exception, BaseException) as err:  # ArgSpecParseError is a BaseException
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            raise
        lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
        reason = lines[-1] if lines else type(err).__name__
        raise CommandLineError(f"invalid pass pipeline '{spec}': {reason}") from err


def _read_input(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as err:
        raise CommandLineError(f"cannot open input file '{path}': {err.strerror or err}") from err


def _open_output(path: str) -> TextIO:
    if path == "-":
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as err:
        raise CommandLineError(f"cannot open output file '{path}': {err.strerror or err}") from err


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out: TextIO | None = None
    try:
        arg_parser = _build_arg_parser()
        args = arg_parser.parse_args(_normalise_argv(argv, arg_parser))
        if args.list_passes:
            from tosa_xdsl.pass_registry import all_passes

            print("\n".join(sorted(all_passes())))
            return 0
        data = _read_input(args.input_file)
        passes = _build_pipeline(args.passes)
        out = _open_output(args.output_file)
    except CommandLineError as err:
        sys.stderr.write(f"{PROG}: error: {err}\n")
        return 2

    from xdsl.ir import Operation

    from tosa_xdsl.context import make_context

    original_emit_error = Operation.emit_error
    Operation.emit_error = _quiet_emit_error  # pyright: ignore[reportAttributeAccessIssue]
    try:
        ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
        code = Driver(args, passes, ctx).run(data, out)
        out.flush()
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        # main() is also called in-process (tests): leave xDSL as we found it.
        Operation.emit_error = original_emit_error
        if out is not sys.stdout:
            out.close()
    return code


if __name__ == "__main__":
    sys.exit(main())

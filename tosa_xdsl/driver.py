"""The driver both CLIs use: parse (with op locations), verify every op, apply a pass
pipeline (verifying after each pass), print; every failure a located diagnostic.

    from tosa_xdsl.driver import Driver, DriverOptions, build_pipeline

    driver = Driver(make_context(), DriverOptions(), report=print_to_stderr)
    module = driver.load("model.mlir", data, build_pipeline("canonicalize"))

`tosa-opt` adds its command line, `--split-input-file` and `--verify-diagnostics` on top
(tools/tosa_opt.py); `tosa-run` loads with it, then runs (tools/tosa_run.py). Python users
can call `Driver.load` for the same diagnostics the CLIs print.

Nothing in the input may produce a Python traceback: unexpected exceptions become located
`error:` diagnostics whose text says "internal error" (a bug of ours, never a diagnostic
we mean to give).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Operation
    from xdsl.passes import ModulePass

    from tosa_xdsl.diagnostics import Diagnostic, DiagnosticEngine, Loc, SourceFile


class PipelineError(Exception):
    """A pass pipeline that does not parse (unknown pass, bad option): a usage error."""


def build_pipeline(spec: str) -> list[ModulePass]:
    """The passes of a `-p` pipeline spec (xDSL's syntax, our passes and xDSL's)."""
    if not spec.strip():
        return []  # before the imports: tosa-run without -p needs neither
    from xdsl.passes import PassPipeline

    from tosa_xdsl.pass_registry import all_passes

    # Upstream spells `specification_version=1.1.draft` unquoted; xDSL's option lexer only
    # knows numbers and quoted strings, so quote a bare version.
    spec = re.sub(r'(specification_version=)([0-9][0-9A-Za-z_.]*)', r'\1"\2"', spec)
    spec = _OPTIONS_RE.sub(lambda m: m.group(1) + "{" + _mlir_options(m.group(1), m.group(2)) + "}", spec)
    try:
        return list(PassPipeline.parse_spec(all_passes(), spec).passes)
    except (Exception, BaseException) as err:  # ArgSpecParseError is a BaseException
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            raise
        lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
        reason = lines[-1] if lines else type(err).__name__
        raise PipelineError(f"invalid pass pipeline '{spec}': {reason}") from err


# `pass{options}` in a spec, and option values xDSL's lexer reads unquoted
_OPTIONS_RE = re.compile(r'([A-Za-z0-9_.-]+)\{([^{}]*)\}')
_PLAIN_VALUE = re.compile(r'[A-Za-z0-9_.+-]*\Z|".*"\Z')


def _mlir_options(pass_name: str, options: str) -> str:
    """MLIR's spellings of pass options in xDSL's syntax: a bare boolean option name
    (`{test-convergence}`) is true, and `=1` / `=0` are true / false, as MLIR's command-line
    parser reads them; list items xDSL's option lexer cannot read unquoted
    (`args=arg0:2x16,arg2:64x9`) are quoted."""
    import dataclasses

    from tosa_xdsl.pass_registry import all_passes

    factory = all_passes().get(pass_name)
    try:
        cls = factory() if factory is not None else None
        fields = {f.name: f for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else {}
    except Exception:  # noqa: BLE001 - an unknown or broken pass: xDSL reports it
        fields = {}

    def is_bool(name: str) -> bool:
        field = fields.get(name.replace("-", "_"))
        return field is not None and "bool" in str(field.type)

    out: list[str] = []
    for token in options.split():
        name, eq, value = token.partition("=")
        if is_bool(name):
            if not eq:
                token = f"{name}=true"
            elif value in ("1", "0"):
                token = f"{name}={'true' if value == '1' else 'false'}"
        elif eq and not _PLAIN_VALUE.match(value):
            items = value.split(",")
            token = name + "=" + ",".join(i if _PLAIN_VALUE.match(i) else '"' + i.replace('"', "") + '"'
                                          for i in items)
        out.append(token)
    return " ".join(out)


def mlir_pipeline_to_spec(pipeline: str) -> str:
    """mlir-opt's `--pass-pipeline` text as our `-p` spec: `builtin.module(func.func(a{x=1}), b)`
    -> `a{x=1},b`. Every pass of ours runs on the whole module, so the op anchors
    (`builtin.module(`, `func.func(`, `any(`) only group passes and are dropped."""
    out: list[str] = []
    depth_options = depth = 0
    token = ""
    for ch in pipeline:
        if ch == "{":
            depth_options += 1
        elif ch == "}":
            depth_options -= 1
        if depth_options == 0 and ch in "()":
            depth += 1 if ch == "(" else -1
        if depth < 0 or depth_options < 0:
            raise PipelineError(f"invalid pass pipeline '{pipeline}': unbalanced '{ch}'")
        if depth_options == 0 and ch in "(),":
            if ch != "(" and token.strip():  # a pass name ends at ',' or ')'
                out.append(token.strip())
            token = ""  # before '(' the token was an op anchor
            continue
        token += ch
    if depth or depth_options:
        raise PipelineError(f"invalid pass pipeline '{pipeline}': expected "
                            f"'{')' if depth else '}'}' at the end")
    if token.strip():
        out.append(token.strip())
    return ",".join(out)


@dataclass(frozen=True)
class DriverOptions:
    """What mlir-opt's flags of the same names do."""

    verify: bool = True  # --disable-verify turns it off
    implicit_module: bool = True  # --no-implicit-module turns it off
    print_between_passes: bool = False
    tosa_syntax: str = "keyword"  # or "attr-dict" (older MLIR, the tosa-tools translator)
    print_op_generic: bool = False
    print_debuginfo: bool = False
    print_no_properties: bool = False
    upgrade_legacy: bool = True  # pre-1.0 TOSA upgraded on read (--tosa-no-upgrade: an error)
    allow_unregistered: bool = False  # --allow-unregistered-dialect


# ----------------------------------------------------------------- the locating parser


def _make_parser_class():
    """Parser subclass stamping FileLineColLoc on ops; built lazily (imports xDSL)."""
    from xdsl.dialects.builtin import (
        FileLineColLoc,
        IntAttr,
        ModuleOp,
        StringAttr,
        UnknownLoc,
    )
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    from tosa_xdsl.formats import text_locations

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
            # MLIR lets location aliases be defined after their use (`loc(#loc3)` ... `#loc3 =
            # loc(...)` at the end, as --mlir-print-debuginfo writes): resolve them first.
            self._predeclared = text_locations.prescan(self, text)

        def _parse_alias_def(self):
            if not text_locations.skip_predeclared(self, self._predeclared):
                super()._parse_alias_def()

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
    """Parse, verify, transform and print modules in one Context, reporting diagnostics
    through `report` (each Diagnostic once, errors included)."""

    def __init__(self, ctx: Context, options: DriverOptions, report: Callable[[Diagnostic], None]):
        self.ctx = ctx
        self.options = options
        self.report = report
        self.sources: dict[str, SourceFile] = {}
        # mlir-opt's printOpOnDiagnostic: a note with the failing op in generic form
        # (off under --verify-diagnostics, as there).
        self.print_op_on_diagnostic = True
        # Input verified with lower-rank broadcast operands allowed: set by `expect_passes`
        # when the pipeline starts with tosa-make-broadcastable (its reason to exist).
        self.input_rank_broadcast = False
        self._in_passes = False

    def expect_passes(self, passes: Sequence[ModulePass]) -> None:
        """Tell the driver which pipeline the modules it reads will go through."""
        self.input_rank_broadcast = bool(passes) and getattr(passes[0], "reads_rank_broadcast", False)

    # diagnostics ------------------------------------------------------------------------

    def engine(self, name: str, line: int = 1, col: int = 1) -> DiagnosticEngine:
        """A diagnostic engine reporting through this driver, located at name:line:col by default."""
        from tosa_xdsl.diagnostics import DiagnosticEngine, Loc

        engine = DiagnosticEngine(self.report)
        engine.fallback = Loc(name, line, col)
        return engine

    def error(self, engine: DiagnosticEngine, loc: Loc | None, msg: str, op: Operation | None = None) -> None:
        from tosa_xdsl.diagnostics import Diagnostic, Severity

        diag = Diagnostic(Severity.ERROR, msg, loc if loc is not None else engine.fallback)
        if op is not None and self.print_op_on_diagnostic:
            if (text := _generic_text(op)) is not None:
                diag.attach_note(None, "see current operation: " + text)
        engine.emit(diag)

    # stages -----------------------------------------------------------------------------

    def parse(self, engine: DiagnosticEngine, src: SourceFile, text: str, base: int = 0) -> ModuleOp | None:
        """Parse `text` (the part of `src` starting at character `base`); None after an error."""
        from xdsl.utils.exceptions import MultipleSpansParseError, ParseError

        from tosa_xdsl.diagnostics import Loc

        self.sources.setdefault(src.name, src)
        LocatingParser, ParseCrash = _parser_classes()
        parser = None

        def loc_of(pos: int) -> Loc:
            line, col = src.line_col(base + pos)
            return Loc(src.name, line, col)

        try:
            parser = LocatingParser(self.ctx, text, src, base)
            return parser.parse_module(self.options.implicit_module)
        except ParseError as err:
            own = parser is not None and err.span.input is parser.lexer.input
            pos = err.span.start if own else (parser.current_pos() if parser else 0)
            self.error(engine, loc_of(pos), err.msg)
            if own and isinstance(err, MultipleSpansParseError) and engine.pending:
                for span, note in err.refs:
                    if span.input is parser.lexer.input:  # pyright: ignore[reportOptionalMemberAccess]
                        engine.pending[-1].attach_note(loc_of(span.start), note or "see here")
        except ParseCrash as err:
            self.error(engine, loc_of(err.pos), input_error_message(err.cause))
        except (Exception, RecursionError) as err:
            self.error(engine, loc_of(parser.current_pos() if parser else 0), exception_message(err))
        return None

    def verify(self, engine: DiagnosticEngine, module: ModuleOp) -> bool:
        """Verify every op (not only up to the first failure); True if none failed."""
        from tosa_xdsl.dialects.tosa.ops.base import rank_broadcast_allowed

        with rank_broadcast_allowed(self.input_rank_broadcast and not self._in_passes):
            return self._verify(engine, module)

    def _verify(self, engine: DiagnosticEngine, module: ModuleOp) -> bool:
        from xdsl.utils.exceptions import DiagnosticException

        from tosa_xdsl.diagnostics import LocatedError, op_loc
        from tosa_xdsl.verification.dominance import (
            dominance_error,
            empty_block_error,
            undefined_operand_error,
        )

        before = engine.error_count
        try:
            ops = list(module.walk())
        except Exception as err:
            self.error(engine, op_loc(module), exception_message(err))
            return False
        undefined = {id(op): m for op in ops if (m := undefined_operand_error(op)) is not None}
        failed: set[int] = set()
        order: dict = {}  # op positions per block for the dominance check (IR unchanged here)
        for op in ops:
            if id(op) in undefined:
                self.error(engine, op_loc(op), undefined[id(op)], op)
                engine.flush()
                continue
            if undefined and any(id(inner) in undefined for inner in op.walk()):
                continue  # its nested placeholder is reported; its own verifier would trip on it
            try:
                op.verify(verify_nested_ops=False)
            except LocatedError as err:
                failed.add(id(op))
                engine.emit(err.to_diagnostic())
            except DiagnosticException as err:
                failed.add(id(op))
                self.error(engine, op_loc(op), str(err), op)
            except Exception as err:
                failed.add(id(op))
                if not _inside(op, failed):
                    self.error(engine, op_loc(op), input_error_message(err), op)
                # else: a nested op whose verifier reads its invalid parent (func.return
                # reading a func.func without a FunctionType): the parent's error says it
            else:
                if (message := dominance_error(op, order) or empty_block_error(op)) is not None:
                    self.error(engine, op_loc(op), message, op)
            engine.flush()
        return engine.error_count == before

    def apply_passes(self, engine: DiagnosticEngine, module: ModuleOp, passes: list[ModulePass]) -> bool:
        """Apply `passes` in order, verifying after each (unless disabled); False after an error."""
        self._in_passes = True
        try:
            return self._apply_passes(engine, module, passes)
        finally:
            self._in_passes = False

    def _apply_passes(self, engine: DiagnosticEngine, module: ModuleOp, passes: list[ModulePass]) -> bool:
        from xdsl.utils.exceptions import DiagnosticException

        from tosa_xdsl.diagnostics import LocatedError, op_loc

        for index, pass_ in enumerate(passes):
            before = engine.error_count
            try:
                pass_.apply(self.ctx, module)
            except LocatedError as err:
                engine.emit(err.to_diagnostic())
            except DiagnosticException as err:
                self.error(engine, op_loc(module), str(err))
            except Exception as err:
                self.error(engine, op_loc(module), f"in pass '{pass_.name}': {exception_message(err)}")
            engine.flush()
            if engine.error_count != before:
                return False
            if self.options.verify and not self.verify(engine, module):
                return False
            if self.options.print_between_passes and index + 1 < len(passes):
                text = self.print(engine, module)
                if text is None:
                    return False
                sys.stdout.write(f"IR after {pass_.name}:\n{text}\n\n")
        return True

    def print(self, engine: DiagnosticEngine, module: ModuleOp) -> str | None:
        """The module as text in the chosen style; None after an error."""
        from io import StringIO

        from tosa_xdsl.diagnostics import op_loc
        from tosa_xdsl.printing import TosaPrinter

        out = StringIO()
        style_token = None
        syntax = sys.modules.get("tosa_xdsl.dialects.tosa.syntax")  # only loaded if tosa ops were parsed
        if syntax is not None:
            style_token = syntax.print_style.set(self.options.tosa_syntax)
        try:
            # TosaPrinter: tosa.const prints generic in the attr-dict style (older MLIR has no
            # custom form for it).
            printer = TosaPrinter(
                stream=out,
                print_generic_format=self.options.print_op_generic,
                print_properties_as_attributes=self.options.print_no_properties,
                print_debuginfo=self.options.print_debuginfo,
            )
            printer.print_op(module)
            printer.print_metadata(self.ctx.loaded_dialects)
            out.write("\n\n")
        except Exception as err:
            self.error(engine, op_loc(module), f"while printing: {exception_message(err)}")
            engine.flush()
            return None
        finally:
            if style_token is not None and syntax is not None:
                syntax.print_style.reset(style_token)
        return out.getvalue()

    def read(self, engine: DiagnosticEngine, src: SourceFile, text: str, base: int = 0) -> ModuleOp | None:
        """Parse and verify (unless disabled) MLIR text, the part of `src` starting at character
        `base`; pre-1.0 TOSA is upgraded on read (tosa_xdsl/frontends/legacy) unless the
        options say otherwise. None after a reported error."""
        from tosa_xdsl.frontends.legacy.reader import read_chunk

        self.sources.setdefault(src.name, src)
        return read_chunk(self, engine, src, text, base, upgrade=self.options.upgrade_legacy,
                          allow_unregistered=self.options.allow_unregistered)

    def read_binary(self, name: str, data: bytes) -> ModuleOp | None:
        """The module of a binary input recognised by its bytes (MLIR bytecode, a TOSA
        flatbuffer, ...: tosa_xdsl.formats.loader), None when `data` is text. Raises
        loader.LoadError, whose text is the one-line diagnostic `<file>: error: ...`."""
        from tosa_xdsl.formats import loader

        return loader.load_binary(data, self.ctx, name)

    def load(self, name: str, data: str | bytes, passes: Sequence[ModulePass] = (),
             source: SourceFile | None = None) -> ModuleOp | None:
        """Read (text or any binary format), verify and transform a whole input; None after
        a reported error. A binary input that is not a known format raises loader.LoadError.
        `source`: the SourceFile of text `data` when the caller made it (a pre-scanned file,
        tosa_xdsl/formats/prescan.py)."""
        from tosa_xdsl.diagnostics import SourceFile

        self.expect_passes(passes)
        engine = self.engine(name)
        if isinstance(data, (bytes, bytearray, memoryview)):
            binary = self.read_binary(name, bytes(data))
            if binary is not None:
                with engine.activate():
                    ok = ((not self.options.verify or self.verify(engine, binary))
                          and self.apply_passes(engine, binary, list(passes)))
                    engine.flush()
                return binary if ok and not engine.error_count else None
            data = bytes(data).decode("utf-8", errors="replace")
        src = source if source is not None else SourceFile(name, data)
        with engine.activate():
            module = self.read(engine, src, data)
            engine.flush()
            if module is None or engine.error_count:
                return None
            ok = self.apply_passes(engine, module, list(passes))
            engine.flush()
        return module if ok and not engine.error_count else None


# ------------------------------------------------------------------------------ helpers

_parser_cache: tuple[Any, Any] | None = None


def _parser_classes() -> tuple[Any, Any]:
    global _parser_cache
    if _parser_cache is None:
        _parser_cache = _make_parser_class()
    return _parser_cache


def _inside(op: Operation, ids: set[int]) -> bool:
    """Whether an ancestor of `op` is one of `ids`."""
    parent = op.parent_op()
    while parent is not None:
        if id(parent) in ids:
            return True
        parent = parent.parent_op()
    return False


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _raised_in_xdsl(err: BaseException) -> bool:
    """True when the error comes from xDSL's own code alone: every frame below the one that
    caught it lies in the xdsl package or Python's standard library (an enum lookup), at
    least one in xdsl; a frame of ours (or of anything else) makes it not xDSL's."""
    import sysconfig

    stdlib = sysconfig.get_paths()["stdlib"] + os.sep
    xdsl_dir = f"{os.sep}xdsl{os.sep}"
    tb = err.__traceback__
    tb = tb.tb_next if tb is not None else None
    in_xdsl = False
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.startswith(_PACKAGE_DIR):
            return False
        if xdsl_dir in filename:
            in_xdsl = True
        elif not filename.startswith(stdlib):
            return False
        tb = tb.tb_next
    return in_xdsl


def input_error_message(err: BaseException) -> str:
    """The message for an exception raised while parsing or verifying one operation. xDSL's
    parsers and verifiers of its own dialects (linalg, tensor, arith, ...) raise plain Python
    errors on malformed input (`'prallel' is not a valid IteratorType`, an IndexError on a
    missing operand, a ValueError for an index literal past i64): the input's fault, reported
    at the op as a located error. An error that passes through our code stays an internal
    error (ours to fix: the fuzz suite fails on it)."""
    from xdsl.utils.exceptions import DiagnosticException

    if isinstance(err, (DiagnosticException, RecursionError, MemoryError)) or not _raised_in_xdsl(err):
        return exception_message(err)
    text = (str(err).strip().splitlines() or [""])[0] or type(err).__name__
    return f"malformed operation: {text} (xDSL's {type(err).__name__})"


def exception_message(err: BaseException) -> str:
    """A one-line message for an exception that is not a diagnostic of ours."""
    from xdsl.utils.exceptions import DiagnosticException

    if isinstance(err, RecursionError):
        return "input nested too deeply (Python recursion limit reached)"
    if isinstance(err, MemoryError):
        return "out of memory"
    text = str(err).strip() or type(err).__name__
    if isinstance(err, DiagnosticException):
        return text
    if os.environ.get("TOSA_XDSL_TRACEBACK"):  # for us, when chasing an internal error
        import traceback
        traceback.print_exception(err)
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

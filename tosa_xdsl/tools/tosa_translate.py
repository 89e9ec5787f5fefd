"""tosa-translate: convert between TOSA MLIR and other formats, in the mlir-translate mould.

    tosa-translate --tosa-deserialize model.tosa -o model.mlir
    tosa-translate --tosa-serialize model.mlir -o model.tosa
    tosa-translate --tosa-serialize - < model.mlirbc > model.tosa

Exactly one translation flag. Importers read their format and print MLIR text
(`--tosa-syntax attr-dict|keyword`, `--print-op-generic`); exporters read any input the
loader recognises (MLIR text, MLIR bytecode, a TOSA flatbuffer, ...: tosa_xdsl.formats.loader)
and write their format. `-` is stdin / stdout (the default for both).

Exit codes: 0 success; 1 bad input (`FILE:LINE:COL: error: ...` with the source line, as
tosa-opt prints them, or one line `FILE: error: ...` for binary input); 2 bad command line (unknown flag, no or two translations, unreadable input
file, unwritable output).

More translations plug in by adding a `Translation` to TRANSLATIONS (an importer gives
`load(data, ctx, filename) -> ModuleOp`, an exporter `save(module) -> bytes | str`), both
named by module path so nothing is imported until the flag is used.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from tosa_xdsl.tools.last_resort import LAST_RESORT, last_resort

PROG = "tosa-translate"


@dataclass(frozen=True)
class Translation:
    flag: str  # "--tosa-serialize"
    help: str
    importer: str | None = None  # "module:function", (data, ctx, filename) -> ModuleOp
    exporter: str | None = None  # "module:function", (module) -> bytes | str
    format: str | None = None  # importer: the loader format it expects ("tosa"), if any
    to_folder: bool = False  # exporter: (module, folder) -> None, writes the -o folder itself


TRANSLATIONS: list[Translation] = [
    Translation("--tosa-deserialize", "TOSA flatbuffer (.tosa) -> TOSA MLIR",
                importer="tosa_xdsl.formats.tosa_flatbuffer:deserialize", format="tosa"),
    Translation("--import-tflite", "TFLite flatbuffer (.tflite) -> TOSA MLIR (read + tosa-legalize-tfl)",
                importer="tosa_xdsl.frontends.tflite:import_tflite", format="tflite"),
    Translation("--import-nnef", "NNEF 2.0 (SkriptND) document or model folder -> TOSA MLIR (+ linalg "
                "for operators without a TOSA form)", importer="tosa_xdsl.frontends.nnef:load_nnef",
                format="nnef"),
    Translation("--export-nnef", "TOSA MLIR -> NNEF 2.0 model folder (-o DIR: main.sknd + data files)",
                exporter="tosa_xdsl.frontends.nnef:export_nnef_to", to_folder=True),
    Translation("--to-svg", "any input -> SVG picture of its graph (view-op-graph's, rendered by "
                "Graphviz dot)", exporter="tosa_xdsl.passes.view_op_graph:render_svg"),
    Translation("--tosa-serialize", "TOSA MLIR (any input format) -> TOSA flatbuffer (.tosa)",
                exporter="tosa_xdsl.tools.tosa_translate:_serialize"),
    Translation("--emit-shared-library", "TOSA MLIR -> native shared library (-o model.so; static shapes; "
                "C signature in docs/native.md; links with $CC or cc)",
                exporter="tosa_xdsl.codegen.shared_library:emit_shared_library"),
]

SCHEMA_VERSIONS = {"1.0": (1, 0, 0, False), "1.1": (1, 1, 0, True)}
_schema_version = SCHEMA_VERSIONS["1.1"]


def _serialize(module: Any) -> bytes:
    from tosa_xdsl.formats.tosa_flatbuffer import serialize

    return serialize(module, _schema_version)


class CommandLineError(Exception):
    pass


class InputError(Exception):
    """Bad input: the message is the whole diagnostic line."""


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CommandLineError(message)


def build_arg_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(prog=PROG, description="Translate between TOSA MLIR and other formats")
    p.add_argument("input_file", nargs="?", default="-", help="input file, '-' for stdin")
    p.add_argument("-o", dest="output_file", default="-", help="output file, '-' for stdout")
    group = p.add_argument_group("translations (exactly one)")
    for t in TRANSLATIONS:
        group.add_argument(t.flag, dest="translations", action="append_const", const=t, help=t.help)
    p.add_argument("--tosa-syntax", choices=("keyword", "attr-dict"), default="keyword",
                   help="custom syntax of printed TOSA ops (attr-dict: MLIR 22, tosa-tools)")
    p.add_argument("--print-op-generic", action="store_true", help="print ops in generic form")
    p.add_argument("--mlir-print-debuginfo", action="store_true",
                   help="print locations (a .tosa keeps each operator's `loc(\"file\":line:col)`)")
    p.add_argument("--tosa-schema-version", choices=sorted(SCHEMA_VERSIONS), default="1.1",
                   help="TOSA flatbuffer schema version to write (default 1.1 draft, as "
                        "tosa-tools 2026.x writes)")
    p.add_argument("--no-verify", action="store_true", help="do not verify the module")
    p.add_argument("--quiet", action="store_true",
                   help="no progress line (it is shown only when stderr is a terminal)")
    p.add_argument("--threads", type=_threads, default=1, metavar="N",
                   help="with --emit-shared-library: outer parallel loops on N threads (a worker pool "
                        "inside the library, linked with -lpthread; default 1: no threads)")
    p.add_argument("--fp-contract", choices=("off", "fast"), default="fast",
                   help="with --emit-shared-library: fast (default) lets float dot products use fused "
                        "multiply-add (within the spec's error bound); off: the interpreter's float bits")
    p.add_argument("--nnef-lower-all", action="store_true",
                   help="with --import-nnef: compile every operator from its @lower formulas "
                        "(linalg) instead of mapping standard-library operators to TOSA")
    p.add_argument("--nnef-fake-quant", action="store_true",
                   help="with --import-nnef: import @quantize entries as the definitions' fake "
                        "quantization (real tensors) instead of integer TOSA")
    p.add_argument("--nnef-input-shape", type=_input_shape, action="append", default=[], metavar="NAME=DxD..",
                   help="with --import-nnef: a static shape for a graph input whose extents are known only "
                        "at run time (`x: real[n|8, 3]`; default: `?` dims), e.g. x=4x3; repeatable")
    return p


def _input_shape(text: str) -> tuple[str, list[int]]:
    name, eq, dims = text.partition("=")
    try:
        shape = [int(d) for d in dims.split("x")] if dims else []
    except ValueError:
        shape = None
    if not eq or not name or shape is None or any(d < 0 for d in shape):
        raise argparse.ArgumentTypeError(f"expected NAME=DxD.. (e.g. x=1x3x224x224), got {text!r}")
    return name, shape


def _threads(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a thread count: {text!r}") from None
    if not 1 <= value <= 256:  # = lowering.to_loops.outline_parallel.MAX_THREADS
        raise argparse.ArgumentTypeError("must be between 1 and 256")
    return value


def _function(path: str) -> Callable[..., Any]:
    module, _, name = path.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as err:
        raise InputError(f"{PROG}: error: translation not available ({err})") from None


def _read(path: str) -> tuple[bytes, str]:
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    if os.path.isdir(path) and os.path.exists(os.path.join(path, "main.sknd")):
        path = os.path.join(path, "main.sknd")  # an NNEF model folder
    try:
        with open(path, "rb") as f:
            return f.read(), path
    except OSError as err:
        raise CommandLineError(f"cannot open input file '{path}': {err.strerror or err}") from None


def _write(path: str, payload: bytes) -> None:
    if path == "-":
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
        return
    try:
        with open(path, "wb") as f:
            f.write(payload)
    except OSError as err:
        raise CommandLineError(f"cannot open output file '{path}': {err.strerror or err}") from None


def _print(module: Any, args: argparse.Namespace) -> bytes:
    from tosa_xdsl.printing import print_ir

    style = "generic" if args.print_op_generic else args.tosa_syntax
    return (print_ir(module, style=style, print_debuginfo=args.mlir_print_debuginfo) + "\n").encode()


def _one_line(name: str, err: BaseException) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    if text.startswith(f"{name}:"):
        return text
    return f"{name}: error: {text.removeprefix('error: ')}"  # an unlocated diagnostic says "error:" itself


def translate(t: Translation, data: bytes, name: str, args: argparse.Namespace) -> bytes:
    from tosa_xdsl.context import make_context
    from tosa_xdsl.formats import loader

    ctx = make_context()
    if t.importer is not None:
        if t.format is not None:
            fmt = loader.detect(data)
            if fmt is None or fmt.name != t.format:
                want = next((f.description for f in loader.FORMATS if f.name == t.format), t.format)
                raise InputError(f"{name}: error: not {want}")
        try:
            importer = t.importer
            if t.format == "nnef" and args.nnef_lower_all:
                importer = "tosa_xdsl.frontends.nnef:load_nnef_lower_all"
            elif t.format == "nnef" and args.nnef_fake_quant:
                importer = "tosa_xdsl.frontends.nnef:load_nnef_fake_quant"
            if t.format == "nnef" and args.nnef_input_shape:
                from tosa_xdsl.frontends.nnef import load_nnef
                module = load_nnef(data, ctx, name, lower_all=args.nnef_lower_all, fake_quant=args.nnef_fake_quant,
                                   input_shapes=dict(args.nnef_input_shape))
            else:
                module = _function(importer)(data, ctx, name)
        except InputError:
            raise
        except (Exception, RecursionError) as err:
            raise InputError(_one_line(name, err)) from None
        return _print(module, args)
    if args.no_verify:
        try:
            module = loader.load(data, ctx, name, verify=False)
        except loader.LoadError as err:
            raise InputError(str(err)) from None
    else:
        # tosa-run's reader: tosa-opt's located parse and verify diagnostics (printed to
        # stderr as they come), binary inputs through the loader.
        from tosa_xdsl.tools.tosa_run import load_module

        loaded = load_module(name, data, [])
        if loaded is None:
            raise InputError("")
        module = loaded.module
    assert t.exporter is not None
    try:
        if t.to_folder:
            _function(t.exporter)(module, args.output_file)
            return b""
        threads = getattr(args, "threads", 1)
        options = ({"threads": threads} if threads > 1 else {}) | (
            {"fp_contract": "off"} if getattr(args, "fp_contract", "fast") == "off" else {})
        out = _function(t.exporter)(module, **options)
    except InputError:
        raise
    except (Exception, RecursionError) as err:
        raise InputError(_one_line(name, err)) from None
    return out.encode() if isinstance(out, str) else out


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except LAST_RESORT as err:
        return last_resort(PROG, err)


def _main(argv: list[str] | None) -> int:
    global _schema_version
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = build_arg_parser().parse_args(argv)
        chosen = args.translations or []
        if len(chosen) != 1:
            flags = ", ".join(t.flag for t in TRANSLATIONS)
            raise CommandLineError(f"give exactly one translation ({flags})" if not chosen else
                                   f"give only one translation, not {' and '.join(t.flag for t in chosen)}")
        _schema_version = SCHEMA_VERSIONS[args.tosa_schema_version]
        if args.threads != 1 and chosen[0].flag != "--emit-shared-library":
            raise CommandLineError("--threads applies to --emit-shared-library only")
        if args.fp_contract != "fast" and chosen[0].flag != "--emit-shared-library":
            raise CommandLineError("--fp-contract applies to --emit-shared-library only")
        if chosen[0].to_folder and args.output_file == "-":
            raise CommandLineError(f"{chosen[0].flag} writes a folder: give it with -o DIR")
        data, name = _read(args.input_file)
    except CommandLineError as err:
        sys.stderr.write(f"{PROG}: error: {err}\n")
        return 2
    from tosa_xdsl import progress

    try:
        with progress.reporting(PROG, enabled=not args.quiet):
            payload = translate(chosen[0], data, name, args)
    except InputError as err:
        if str(err):  # empty: the diagnostics are already printed
            sys.stderr.write(f"{err}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    try:
        if not chosen[0].to_folder:
            _write(args.output_file, payload)
    except CommandLineError as err:
        sys.stderr.write(f"{PROG}: error: {err}\n")
        return 2
    except BrokenPipeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

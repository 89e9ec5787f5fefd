"""Every change tosa-xdsl makes to xDSL 0.74's internals, in one place, each with its reason.

xDSL is pinned exactly (pyproject.toml) because these patches reach into it. Each patch
replaces one attribute of one xDSL class or module; site-packages is never edited. The
replacements themselves live next to the code they belong to (dense constants in
`tosa_xdsl.ir.dense`, the whole-line TOSA parser in `tosa_xdsl.dialects.tosa.fast_parse`);
this module is the table that says what is replaced, why, and installs or removes it.

Groups:
- `install_parser_patches()`: reading and printing as MLIR does. Installed by
  `tosa_xdsl.context.load_tosa` (so by every Context that has our `tosa`). Process-wide.
- `install_llvm_backend_patches()`: ops our LLVM lowering emits that xDSL's LLVM backend
  cannot translate; dense globals as byte strings. Installed by `tosa_xdsl.jit` before compiling.
- `install_lowering_patches()`: linear-time `Block.split_before` (convert-scf-to-cf). Installed
  by that pass.
- `quiet_emit_error()`: a context manager for the CLIs (not process-wide).

A replacement that falls back to xDSL's behaviour calls `original(owner, name)`.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn


@dataclass(frozen=True)
class Patch:
    """Replace `owner.<name>` by what `replacement()` returns (imported lazily)."""

    owner: Callable[[], Any]
    name: str
    replacement: Callable[[], Any]
    reason: str


_ORIGINAL: dict[tuple[int, str], Any] = {}


def original(owner: Any, name: str) -> Any:
    """xDSL's own `owner.<name>` as it was before our patch (the patch's fallback)."""
    return _ORIGINAL.get((id(owner), name), owner.__dict__.get(name))


def _install(patches: tuple[Patch, ...]) -> None:
    for patch in patches:
        owner = patch.owner()
        new = patch.replacement()
        current = owner.__dict__[patch.name]
        if current is new:
            continue
        _ORIGINAL.setdefault((id(owner), patch.name), current)
        setattr(owner, patch.name, new)


def _uninstall(patches: tuple[Patch, ...]) -> None:
    for patch in patches:
        owner = patch.owner()
        key = (id(owner), patch.name)
        if key in _ORIGINAL:
            setattr(owner, patch.name, _ORIGINAL.pop(key))


# ------------------------------------------------------------------ reading and printing

# xDSL 0.74's string-literal regex is `"(?:[^"...]+|escape)*"`: a nested quantifier that
# backtracks exponentially on an unterminated string (`"` + 30 characters + newline takes
# minutes). This one matches the same language, in linear time.
STRING_LITERAL = r'"[^"\\\n\v\f]*(?:\\(?:["nt\\]|[0-9A-Fa-f]{2})[^"\\\n\v\f]*)*"'


def _lexer() -> Any:
    from xdsl.utils.mlir_lexer import MLIRLexer

    return MLIRLexer


def _token_kind() -> Any:
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    return MLIRTokenKind


def _int_value() -> Any:
    from tosa_xdsl.ir.literals import get_int_value

    return get_int_value


def _dense_array() -> Any:
    from tosa_xdsl.ir.literals import parse_dense_array

    return parse_dense_array


def _int_or_float_attr() -> Any:
    from tosa_xdsl.ir.literals import parse_int_or_float_attr

    return parse_int_or_float_attr


def _attr_parser() -> Any:
    from xdsl.parser.attribute_parser import AttrParser

    return AttrParser


def _dense_attr() -> Any:
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    return DenseIntOrFPElementsAttr


def _printer() -> Any:
    from xdsl.printer import Printer

    return Printer


def _parser() -> Any:
    from xdsl.parser import Parser

    return Parser


def _dense(name: str) -> Callable[[], Any]:
    def get() -> Any:
        from tosa_xdsl.ir import dense

        return getattr(dense, name)

    return get


def _fast_parse_line() -> Any:
    from tosa_xdsl.dialects.tosa.fast_parse import parse_optional_operation

    return parse_optional_operation


DENSE_PATCHES = (
    Patch(_attr_parser, "parse_dense_int_or_fp_elements_attr", _dense("parse_dense"),
          "hex layout of i1/i4/i48, hex bit patterns in float lists (NaN/Inf), range errors"),
    Patch(_dense_attr, "print_without_type", _dense("print_dense"),
          "bitwise splats, MLIR's float digits (APFloat), MLIR's hex layout"),
    Patch(_dense_attr, "is_splat", _dense("is_splat"),
          "splat by bits: [0.0, -0.0] was a splat, [NaN, NaN] was not"),
    Patch(_attr_parser, "_parse_optional_builtin_type", _dense("parse_builtin_type"),
          "speed only: tensor types were read token by token (~0.6 ms each)"),
    Patch(_printer, "print_float", _dense("print_float"),
          "lowercase NaN/Inf hex and Python's digits instead of APFloat's"),
)

def _resources(name: str) -> Callable[[], Any]:
    def get() -> Any:
        from tosa_xdsl.ir import resources

        return getattr(resources, name)

    return get


def _builtin() -> Any:
    from xdsl.dialects.builtin import Builtin

    return Builtin


def _builtin_interfaces() -> Any:
    from tosa_xdsl.ir.resources import builtin_interfaces

    return builtin_interfaces()


# dense_resource blobs (tosa_xdsl/ir/resources.py)
RESOURCE_PATCHES = (
    Patch(_builtin, "_interfaces", _builtin_interfaces,
          "blobs held as hex text (2x the weights, decoded again at every use): a binary store"),
    Patch(_attr_parser, "_parse_dialect_resource_handle", _resources("_parse_dialect_resource_handle"),
          "a key seen before in the process was re-declared (renamed) at each use; quoted keys"),
    Patch(_parser, "_parse_resource", _resources("_parse_resource"),
          "blob errors located at the blob string, with MLIR's messages"),
    Patch(_parser, "_parse_single_dialect_resources", _resources("_parse_single_dialect_resources"),
          "a section for a dialect without resources reported as MLIR does"),
    Patch(_printer, "print_resource_handle", _resources("_print_resource_handle"),
          "first-use order (was a set), the producer's key, quoted when not an identifier"),
    Patch(_printer, "print_metadata", _resources("_print_metadata"),
          "MLIR's layout: one entry a line, uppercase hex (was all on one line, lowercase)"),
)

def _scf_while() -> Any:
    from xdsl.dialects.scf import WhileOp

    return WhileOp


def _verify_while() -> Any:
    from tosa_xdsl.verification.scf_while import verify_while

    return verify_while


# Installed when xDSL's scf dialect is first imported (see `_when_imported`), not before:
# importing it costs every run of a module without scf ops (tosa-run on the example) ~5 ms.
SCF_PATCHES = (
    Patch(_scf_while, "verify_", _verify_while,
          "type/count mismatches raised a bare Exception / IndexError: MLIR's region-edge checks"),
)

PARSER_PATCHES = (
    *RESOURCE_PATCHES,
    Patch(_lexer, "_unescaped_characters_regex", lambda: re.compile(STRING_LITERAL),
          "exponential backtracking on an unterminated string literal (a hang)"),
    Patch(_token_kind, "get_int_value", _int_value,
          "a literal of more than 4300 digits raised Python's bare int() ValueError"),
    Patch(_attr_parser, "_parse_builtin_densearray_attr", _dense_array,
          "array<i24: ...> was stored in 4-byte slots and array<i128: ...> raised"),
    Patch(_attr_parser, "parse_optional_builtin_int_or_float_attr", _int_or_float_attr,
          "a hex float literal wider than its type (`0x7FC00000 : f16`) raised OverflowError"),
    *DENSE_PATCHES,
    Patch(_parser, "parse_optional_operation", _fast_parse_line,
          "speed only: a whole `%r = tosa.x ...` line in one step (declines anything unusual)"),
)


def install_parser_patches() -> None:
    """Read and print builtin and TOSA syntax as MLIR does. Idempotent."""
    _install(PARSER_PATCHES)
    _when_imported("xdsl.dialects.scf", lambda: _install(SCF_PATCHES))


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs `then()` right after module `name` is executed, whoever imports it (the parser
    loading the dialect, a pass building scf ops, a test), then leaves sys.meta_path."""

    def __init__(self, name: str, then: Callable[[], None]):
        self.name, self.then = name, then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        execute, then = loader.exec_module, self.then

        def exec_module(module: Any) -> None:
            execute(module)
            then()

        loader.exec_module = exec_module  # this loader instance belongs to this module only
        return spec


def _when_imported(name: str, then: Callable[[], None]) -> None:
    if name in sys.modules:
        then()
    elif not any(isinstance(f, _AfterImport) and f.name == name for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport(name, then))


def install_resource_patches() -> None:
    """Only the dense_resource patches (what tosa_xdsl.ir.resources needs on its own)."""
    _install(RESOURCE_PATCHES)


def install_dense_patches() -> None:
    """Only the dense-constant patches (for tools that want MLIR's dense syntax alone)."""
    _install(DENSE_PATCHES)


def uninstall_dense_patches() -> None:
    """Undo `install_dense_patches()` (tests that compare against stock xDSL)."""
    _uninstall(DENSE_PATCHES)


# ------------------------------------------------------------------ the LLVM backend


def _llvm_convert_module() -> Any:
    from xdsl.backend.llvm import convert

    return convert


def _llvm_convert_op() -> Any:
    from tosa_xdsl.dialects.llvm_ext import convert_op

    return convert_op


def _llvm_convert_global() -> Any:
    from tosa_xdsl.dialects.llvm_ext import convert_global

    return convert_global


LLVM_BACKEND_PATCHES = (
    # xDSL's backend translates ops with one `match` in xdsl.backend.llvm.convert_op, which
    # xdsl.backend.llvm.convert calls through its module global: the wrapper goes there.
    Patch(_llvm_convert_module, "convert_op", _llvm_convert_op,
          "llvm.fptosi/fptoui/uitofp are not translated; llvmlite mistypes a global's address"),
    Patch(_llvm_convert_module, "_convert_global", _llvm_convert_global,
          "a dense global becomes one llvmlite constant per element (weights: seconds to build, "
          "print and parse); also ignores the global's alignment"),
)


def install_llvm_backend_patches() -> None:
    """Teach xDSL's LLVM backend the ops of tosa_xdsl.dialects.llvm_ext. Idempotent."""
    _install(LLVM_BACKEND_PATCHES)


# ------------------------------------------------------------------ the lowering


def _block() -> Any:
    from xdsl.ir import Block

    return Block


def _split_before() -> Any:
    from tosa_xdsl.lowering.to_llvm.scf_to_cf import split_before

    return split_before


LOWERING_PATCHES = (
    Patch(_block, "split_before", _split_before,
          "Block.split_before walks the region's blocks twice per split (index lookup, insert by "
          "index): quadratic when convert-scf-to-cf lowers hundreds of loops"),
)


def install_lowering_patches() -> None:
    """Linear-time block splitting (convert-scf-to-cf). Idempotent."""
    _install(LOWERING_PATCHES)


# ------------------------------------------------------------------ diagnostics


def _raise_underlying(self: Any, message: str, underlying_error: Exception) -> NoReturn:
    raise underlying_error


@contextmanager
def quiet_emit_error() -> Iterator[None]:
    """xDSL's Operation.emit_error renders the whole module into the exception of every
    failing op (seconds on a real model); the CLIs print their own located diagnostics,
    so inside this block the underlying error is raised as it is. Restored on exit
    (the CLIs' main() is also called in-process by tests)."""
    from xdsl.ir import Operation

    saved = Operation.__dict__["emit_error"]
    Operation.emit_error = _raise_underlying  # pyright: ignore[reportAttributeAccessIssue]
    try:
        yield
    finally:
        Operation.emit_error = saved

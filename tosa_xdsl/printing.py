"""Printing TOSA IR in one of the three upstream spellings.

    print_ir(module, style="keyword")     # current MLIR (iree-opt): the default
    print_ir(module, style="attr-dict")   # MLIR 22 and older, the tosa-tools translator
    print_ir(module, style="generic")     # "tosa.add"(...) <{...}>: any MLIR version

The attribute-dictionary spelling needs more than the op printers: older MLIR has no custom
form for tosa.const, so `TosaPrinter` prints those ops generic in that style.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation, SSAValue
from xdsl.printer import Printer

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import TosaOp

_TOSA_PRINT = TosaOp.print
# Longer op tails (big dense constants) are printed each time rather than kept in memory.
MAX_CACHED_TAIL = 4096
_fast_print = [True]


@contextmanager
def fast_print_enabled(flag: bool) -> Iterator[None]:
    """Turn TosaPrinter's fast path on/off inside the block (tests compare both paths)."""
    saved, _fast_print[0] = _fast_print[0], flag
    try:
        yield
    finally:
        _fast_print[0] = saved

STYLES = (*syntax.STYLES, "generic")


class TosaPrinter(Printer):
    """xDSL's Printer, plus: tosa.const generic in the attr-dict style, and a fast path for
    ops without regions or successors (`_print_plain_op`)."""

    def print_op(self, op: Operation) -> None:
        if (
            not self.print_generic_format
            and syntax.print_style.get() == syntax.ATTR_DICT
            and getattr(op, "PRINTS_GENERIC_IN_ATTR_DICT_STYLE", False)
        ):
            self.print_generic_format = True
            try:
                if not self._print_plain_op(op):
                    super().print_op(op)
            finally:
                self.print_generic_format = False
            return
        if not self._print_plain_op(op):
            super().print_op(op)

    # ---------------------------------------------------------------- the fast path

    def _print_plain_op(self, op: Operation) -> bool:
        """Print `op` as `Printer.print_op` would, if it is a TOSA op with our custom syntax
        or an op printed generic, without regions or successors; False (nothing printed)
        otherwise.

        Speed only (xDSL's printer writes each token with its own `print` call, ~4k ops/s):
        everything after the operands (clauses, attribute dictionary, functional type) is
        a function of the op's class, properties, attributes and operand/result types, so
        it is printed once per distinct signature (by the slow path, into a buffer) and
        then reused; the SSA names are allocated exactly as `print_ssa_value` does. Output
        is byte-identical (tests/test_fast_print.py compares it with the slow path)."""
        if not _fast_print[0] or op.regions or op.successors or self.print_debuginfo or self.diagnostic.op_messages:
            return False
        cls = type(op)
        tosa_custom = not self.print_generic_format and cls.print is _TOSA_PRINT
        if not tosa_custom and not (self.print_generic_format or cls.print is Operation.print):
            return False  # another custom format
        if isinstance(op, UnregisteredOp):
            return False
        me = type(self)
        if me.print_ssa_value is not Printer.print_ssa_value or me.print_operand is not Printer.print_operand:
            return False  # a subclass names values its own way
        head = [cls, tosa_custom, syntax.print_style.get() if tosa_custom else None,
                self.print_properties_as_attributes]
        key, objects = list(head), head
        for value in op.operands:
            key.append(id(value.type))
            objects.append(value.type)
        key.append(None)
        objects.append(None)
        for result in op.results:
            key.append(id(result.type))
            objects.append(result.type)
        for name, attr in op.properties.items():
            key += (name, id(attr))
            objects += (name, attr)
        key.append(None)
        objects.append(None)
        for name, attr in op.attributes.items():
            key += (name, id(attr))
            objects += (name, attr)
        # ids are safe here: every keyed object belongs to the IR being printed, alive
        # for this printer's lifetime (the cache lives on the printer). On a miss, the
        # objects themselves (hash and ==; floats compare by bits) find IR whose equal types
        # are distinct objects (xDSL's generic parser builds one per use).
        tails: dict[tuple, str] = self.__dict__.setdefault("_plain_op_tails", {})
        by_value: dict[tuple, str] = self.__dict__.setdefault("_plain_op_tails_by_value", {})
        id_key = tuple(key)
        tail = tails.get(id_key)
        if tail is None:
            value_key = tuple(objects)
            tail = by_value.get(value_key)
            if tail is not None:
                tails[id_key] = tail

        name_of = self._ssa_name
        text = ""
        if op.results:
            text = ", ".join(["%" + name_of(r) for r in op.results]) + " = "
        operands = ", ".join(["%" + name_of(v) for v in op.operands])
        if tosa_custom:
            text += op.name + (" " + operands if operands else "")
        else:
            text += f'"{op.name}"(' + operands + ")"
        if tail is not None:
            self.print_string(text + tail)
            return True
        self.print_string(text)
        tail = self._capture(lambda: self._print_tail(op, tosa_custom))
        if tail is not None:
            tails[id_key] = by_value[tuple(objects)] = tail
        return True

    def _print_tail(self, op: Operation, tosa_custom: bool) -> None:
        if tosa_custom:
            syntax.print_tosa_op_tail(op, self, op.CLAUSES)  # pyright: ignore[reportAttributeAccessIssue]
            return
        # Printer.print_op_with_default_format after its operands (no successors, regions)
        if not self.print_properties_as_attributes:
            self._print_op_properties(op.properties)
            self.print_op_attributes(op.attributes)
        else:
            clashing_names = op.properties.keys() & op.attributes.keys()
            if clashing_names:
                raise ValueError(
                    f"Properties {', '.join(clashing_names)} would overwrite the attributes of the same names."
                )
            self.print_op_attributes(op.attributes | op.properties)
        self.print_string(" : ")
        self.print_operation_type(op)

    def _capture(self, print_fn) -> str | None:
        """Run `print_fn`, writing its text to the real stream; return the text if it can be
        replayed (one line, no resource handles registered), else None."""
        stream, buffer = self.stream, io.StringIO()
        resources = sum(len(v) for v in self._dialect_resources.values())
        self.stream = buffer
        try:
            print_fn()
        finally:
            self.stream = stream
            text = buffer.getvalue()
            print(text, end="", file=stream)
        if (len(text) > MAX_CACHED_TAIL or "\n" in text
                or resources != sum(len(v) for v in self._dialect_resources.values())):
            return None
        return text

    def _ssa_name(self, value: SSAValue) -> str:
        """The name `print_ssa_value` prints for `value` (allocating it the same way)."""
        name = self._ssa_values.get(value)
        if name is not None:
            return name
        hint = value.name_hint
        if hint:
            names = self._ssa_names[-1]
            index = names.get(hint, 0)
            name = f"{hint}_{index}" if index != 0 else hint
            names[hint] = index + 1
        else:
            name = self._get_new_valid_name_id()
        self._ssa_values[value] = name
        return name


def print_ir(op: Operation, stream: IO[str] | None = None, style: str = syntax.KEYWORD, **printer_options) -> str:
    """Print `op` in `style`; returns the text (and writes it to `stream` if given)."""
    if style not in STYLES:
        raise ValueError(f"unknown TOSA syntax style '{style}' (expected one of {', '.join(STYLES)})")
    out = io.StringIO()
    token = syntax.print_style.set(syntax.KEYWORD if style == "generic" else style)
    try:
        printer = TosaPrinter(stream=out, print_generic_format=style == "generic", **printer_options)
        printer.print_op(op)
        # the {-# dialect_resources #-} blobs the printed IR references (tosa_xdsl/ir/resources.py)
        printer.print_metadata(())
        printer.print_string("\n")
    finally:
        syntax.print_style.reset(token)
    text = out.getvalue()
    if stream is not None:
        stream.write(text)
    return text

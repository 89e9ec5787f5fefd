"""Operation properties in bytecode (versions 5 and 6).

An op the producer had not registered stores its properties as one attribute (a
dictionary). A registered op stores what its ODS-generated `writeProperties` writes:
one entry per inherent attribute, in the order of the attribute NAMES sorted
alphabetically (ODS sorts the attribute metadata), required ones as an attribute index,
optional/default-valued ones as `(index << 1) | present` (writeOptionalAttribute);
then, for ops with AttrSizedOperandSegments/AttrSizedResultSegments, the segment sizes:
a DenseI32ArrayAttr index before version 6, a sparse varint array from version 6.

The producer's ODS definition is not in the file, so the layout comes from our op
definition: the xDSL op's property names and which of them are optional. Where an
upstream op has inherent attributes xDSL lacks, UPSTREAM_EXTRA adds them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, i32
from xdsl.ir import Attribute

if TYPE_CHECKING:
    from .reader import Reader
    from .stream import Stream

SEGMENT_NAMES = ("operandSegmentSizes", "resultSegmentSizes")

# Upstream inherent attributes (name -> optional) that our xDSL definitions do not declare.
UPSTREAM_EXTRA: dict[str, dict[str, bool]] = {
    "builtin.module": {"sym_visibility": True},
    "func.func": {"no_inline": True},
    "func.call": {"no_inline": True, "arg_attrs": True, "res_attrs": True},
    "tosa.variable": {"sym_visibility": True},
}


def property_layout(op_name: str, op_type: Any) -> tuple[list[tuple[str, bool]], list[str]]:
    """([(attribute name, optional)] sorted by name, [segment size property names])."""
    attrs: dict[str, bool] = {}
    segments: list[str] = []
    if hasattr(op_type, "get_irdl_definition"):
        from xdsl.irdl import (
            AttrSizedOperandSegments,
            AttrSizedResultSegments,
            OptPropertyDef,
        )

        op_def = op_type.get_irdl_definition()
        for name, prop in op_def.properties.items():
            if name in SEGMENT_NAMES:
                continue
            attrs[name] = isinstance(prop, OptPropertyDef) or prop.default_value is not None
        for option in op_def.options:
            if isinstance(option, AttrSizedOperandSegments):
                segments.append("operandSegmentSizes")
            if isinstance(option, AttrSizedResultSegments):
                segments.append("resultSegmentSizes")
    attrs.update(UPSTREAM_EXTRA.get(op_name, {}))
    return sorted(attrs.items()), segments


def decode_properties(rd: Reader, op_name: str, op_type: Any, registered: bool, s: Stream) -> dict[str, Attribute]:
    if not registered:
        pos = s.pos
        attr = rd.attr_ref(s)
        if not isinstance(attr, DictionaryAttr):
            raise s.error(f"properties of unregistered '{op_name}' are not a dictionary", pos)
        return dict(attr.data)
    layout, segments = property_layout(op_name, op_type)
    props: dict[str, Attribute] = {}
    start = s.pos
    if not layout and not segments and not s.at_end():
        raise s.error(f"no property layout known for '{op_name}'")
    for name, optional in layout:
        pos = s.pos
        if optional:
            idx, present = s.varint_flag(f"property '{name}'")
            if not present:
                if idx:
                    raise s.error(f"invalid optional property '{name}' of '{op_name}'", pos)
                continue
        else:
            idx = s.varint(f"property '{name}'")
        props[name] = rd.attr(idx, pos)
    for name in segments:
        pos = s.pos
        if rd.version < 6:
            props[name] = rd.attr(s.varint(name), pos)
        else:
            props[name] = DenseArrayBase.from_list(i32, _sparse_array(s, name))
    if not s.at_end():
        raise s.error(
            f"properties of '{op_name}' do not match its definition "
            f"({s.end - start} bytes, {s.end - s.pos} left over)")
    return props


def _sparse_array(s: Stream, what: str) -> list[int]:
    size = s.count(what, 0)
    if size > 1 << 16:
        raise s.error(f"{what} of {size} entries")
    if not size:
        return []
    count, sparse = s.varint_flag(what)
    values = [0] * size
    if count > size:
        raise s.error(f"{what}: {count} entries for an array of {size}")
    if not sparse:
        for i in range(count):
            values[i] = s.varint(what)
        return values
    bits = s.varint(what)
    if bits > 64:
        raise s.error(f"{what}: index width {bits}")
    for _ in range(count):
        pair = s.varint(what)
        index = pair & ((1 << bits) - 1)
        if index >= size:
            raise s.error(f"{what}: index {index} out of range")
        values[index] = pair >> bits
    return values

"""Encode plain Python data (the dict shape `reader.decode` returns) as a TOSA flatbuffer.

Schema-driven like the reader: `schema.TABLES` says which fields a table has and of what
type; the `flatbuffers` package's Builder does the layout (vtables, alignment, sharing).
Fields that are None, or scalars equal to their default, are left out as flatc's code
does. Enum fields take integers.
"""

from __future__ import annotations

from typing import Any

import flatbuffers

from . import schema

_PREPEND_SLOT = {"int32": "PrependInt32Slot", "uint32": "PrependUint32Slot",
                 "uint64": "PrependUint64Slot", "bool": "PrependBoolSlot",
                 "ubyte": "PrependUint8Slot"}


class _Encoder:
    def __init__(self, size_hint: int):
        self.b = flatbuffers.Builder(max(1024, size_hint))

    def bytes_vector(self, data: bytes | memoryview, align: int) -> int:
        if align == 8 and len(data) % 8:  # Arm's writer pads tensor data to 8 bytes
            data = bytes(data) + bytes(8 - len(data) % 8)
        b, n = self.b, len(data)
        b.StartVector(1, n, align)
        b.head = b.head - n
        b.Bytes[b.head:b.head + n] = bytes(data)
        return b.EndVector()

    def int32_vector(self, values: list[int]) -> int:
        b = self.b
        b.StartVector(4, len(values), 4)
        for v in reversed(values):
            b.PrependInt32(int(v))
        return b.EndVector()

    def offset_vector(self, offsets: list[int]) -> int:
        b = self.b
        b.StartVector(4, len(offsets), 4)
        for off in reversed(offsets):
            b.PrependUOffsetTRelative(off)
        return b.EndVector()

    def table(self, name: str, value: dict[str, Any]) -> int:
        slots = schema.slots(name)
        offsets: dict[str, int] = {}
        # Children first: a flatbuffer is built back to front.
        for _, field, typ in slots:
            v = value.get(field)
            if v is None or schema.scalar_type(typ) is not None:
                continue
            if typ == "string":
                offsets[field] = self.b.CreateString(v)
            elif typ == "[ubyte]":
                offsets[field] = self.bytes_vector(v, 8 if (name, field) in schema.ALIGNED_8 else 1)
            elif typ == "[int32]":
                offsets[field] = self.int32_vector(v)
            elif typ == "[string]":
                offsets[field] = self.offset_vector([self.b.CreateString(s) for s in v])
            elif typ == "Attribute":
                kind = value[field + "_type"]
                offsets[field] = self.table(schema.ATTRIBUTE_TABLES[kind - 1], v)
            elif typ.startswith("["):
                offsets[field] = self.offset_vector([self.table(typ[1:-1], t) for t in v])
            else:
                offsets[field] = self.table(typ, v)
        b = self.b
        b.StartObject(len(slots))
        for slot, field, typ in slots:
            scalar = schema.scalar_type(typ)
            if scalar is not None:
                default = schema.DEFAULTS.get((name, field), False if typ == "bool" else 0)
                v = value.get(field, default)
                getattr(b, _PREPEND_SLOT[scalar])(slot, v, default)
            elif field in offsets:
                b.PrependUOffsetTRelativeSlot(slot, offsets[field], 0)
        return b.EndObject()


def encode(graph: dict[str, Any], size_hint: int = 0) -> bytes:
    """A TosaGraph dict -> the bytes of a `.tosa` file (file identifier TOSA)."""
    enc = _Encoder(size_hint)
    root = enc.table("TosaGraph", graph)
    enc.b.Finish(root, file_identifier=schema.FILE_IDENTIFIER)
    return bytes(enc.b.Output())

"""Decode a TOSA flatbuffer into plain Python data (dicts, lists, bytes), defensively.

Written against the flatbuffers binary format rather than generated accessors because
the input is untrusted: every offset, vtable and vector length is bounds-checked before
it is followed, so a corrupted file gives `FlatbufferError` with the byte offset instead
of an IndexError, a struct.error or a huge allocation. Byte vectors (tensor data) come
back as `memoryview` slices of the input, never as per-element Python objects, and the
number of decoded objects is capped (offsets may share targets, so a small file could
otherwise expand into a huge tree).
"""

from __future__ import annotations

import struct
from typing import Any

from . import schema


class FlatbufferError(Exception):
    """Malformed flatbuffer; `offset` is the byte offset the problem was found at."""

    def __init__(self, message: str, offset: int | None = None):
        super().__init__(message)
        self.offset = offset

    def __str__(self) -> str:
        msg = _one_line(super().__str__())
        return msg if self.offset is None else f"{msg} (at byte offset {self.offset})"


MAX_MESSAGE = 400  # characters of a message quoting names read from the file


def _one_line(msg: str) -> str:
    """Names in messages come from the file: a damaged length makes one swallow the bytes after
    it (NULs, newlines). Non-printable characters are escaped and a long message is cut, so the
    diagnostic stays one readable line."""
    if not msg.isprintable():
        msg = "".join(c if c.isprintable() else repr(c)[1:-1] for c in msg)
    return msg if len(msg) <= MAX_MESSAGE else msg[:MAX_MESSAGE] + "..."


_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_U16 = struct.Struct("<H")


class _Decoder:
    def __init__(self, data: bytes | bytearray | memoryview):
        self.buf = memoryview(data).cast("B")
        self.size = len(self.buf)
        # Each decoded table/vector element costs one unit; a well-formed file never
        # needs more than one per 4 bytes (every table reference is a 4-byte offset).
        self.budget = self.size // 2 + 1024

    def _need(self, pos: int, n: int, what: str) -> None:
        if pos < 0 or n < 0 or pos + n > self.size:
            raise FlatbufferError(f"{what} lies outside the file ({self.size} bytes)", pos)

    def _spend(self, n: int, pos: int) -> None:
        self.budget -= n
        if self.budget < 0:
            raise FlatbufferError("too many objects for the file size (shared or cyclic offsets)", pos)

    def u32(self, pos: int, what: str = "offset") -> int:
        self._need(pos, 4, what)
        return _U32.unpack_from(self.buf, pos)[0]

    def scalar(self, pos: int, typ: str) -> int | bool:
        fmt, n = schema.SCALARS[typ]
        self._need(pos, n, typ)
        v = struct.unpack_from(fmt, self.buf, pos)[0]
        return bool(v) if typ == "bool" else v

    def follow(self, pos: int, what: str) -> int:
        """Target of the uoffset stored at pos."""
        target = pos + self.u32(pos, what)
        self._need(target, 4, what)
        return target

    def vector(self, pos: int, elem_size: int, what: str) -> tuple[int, int]:
        """(start of elements, length) of the vector referenced from pos."""
        vpos = self.follow(pos, what)
        n = self.u32(vpos, what)
        if n > (self.size - vpos - 4) // elem_size:
            raise FlatbufferError(f"{what}: declared length {n} exceeds the file", vpos)
        return vpos + 4, n

    def string(self, pos: int, what: str) -> str:
        start, n = self.vector(pos, 1, what)
        try:
            return bytes(self.buf[start:start + n]).decode("utf-8")
        except UnicodeDecodeError:
            raise FlatbufferError(f"{what}: string is not valid UTF-8", start) from None

    def table(self, tpos: int, name: str) -> dict[str, Any]:
        self._spend(1, tpos)
        self._need(tpos, 4, name)
        vt = tpos - _I32.unpack_from(self.buf, tpos)[0]
        self._need(vt, 4, f"{name} vtable")
        vt_size, obj_size = _U16.unpack_from(self.buf, vt)[0], _U16.unpack_from(self.buf, vt + 2)[0]
        if vt_size < 4 or vt_size % 2:
            raise FlatbufferError(f"{name}: bad vtable size {vt_size}", vt)
        self._need(vt, vt_size, f"{name} vtable")
        self._need(tpos, obj_size, name)
        nslots = (vt_size - 4) // 2
        out: dict[str, Any] = {}
        for slot, field, typ in schema.slots(name):
            off = _U16.unpack_from(self.buf, vt + 4 + 2 * slot)[0] if slot < nslots else 0
            if off and off >= max(obj_size, 4):
                raise FlatbufferError(f"{name}.{field}: field offset {off} outside its table", vt)
            out[field] = self.field(tpos + off if off else None, name, field, typ, out)
        if name == "TosaTensor":
            self._external_data(out, tpos)
        return out

    def _external_data(self, tensor: dict[str, Any], tpos: int) -> None:
        """Models over 2 GB keep tensor data after the flatbuffer: `offset` (from the start of
        the file, valid when > 1) and `size` locate it."""
        offset, size = tensor.get("offset", 0), tensor.get("size", 0)
        if offset > 1 and size:
            self._need(offset, size, f"data of tensor '{tensor.get('name')}'")
            tensor["data"] = self.buf[offset:offset + size]

    def field(self, pos: int | None, table: str, field: str, typ: str, done: dict[str, Any]) -> Any:
        what = f"{table}.{field}"
        scalar = schema.scalar_type(typ)
        if scalar is not None:
            if pos is None:
                return schema.DEFAULTS.get((table, field), False if typ == "bool" else 0)
            return self.scalar(pos, scalar)
        if pos is None:
            return None
        if typ == "string":
            return self.string(pos, what)
        if typ == "[ubyte]":
            start, n = self.vector(pos, 1, what)
            return self.buf[start:start + n]
        if typ == "[int32]":
            start, n = self.vector(pos, 4, what)
            self._spend(n, start)
            return list(struct.unpack_from(f"<{n}i", self.buf, start))
        if typ == "[string]":
            start, n = self.vector(pos, 4, what)
            self._spend(n, start)
            return [self.string(start + 4 * i, what) for i in range(n)]
        if typ == "Attribute":
            kind = done.get(field + "_type", 0)
            if not 1 <= kind <= len(schema.ATTRIBUTE_TABLES):
                raise FlatbufferError(f"{what}: unknown attribute type {kind}", pos)
            return self.table(self.follow(pos, what), schema.ATTRIBUTE_TABLES[kind - 1])
        if typ.startswith("["):
            start, n = self.vector(pos, 4, what)
            self._spend(n, start)
            return [self.table(self.follow(start + 4 * i, what), typ[1:-1]) for i in range(n)]
        return self.table(self.follow(pos, what), typ)


def decode(data: bytes | bytearray | memoryview) -> dict[str, Any]:
    """The TosaGraph of a TOSA flatbuffer as nested dicts (field names as in tosa.fbs).

    Enum fields are returned as their integer values; `[ubyte]` fields as memoryviews."""
    dec = _Decoder(data)
    if dec.size < 8:
        raise FlatbufferError(f"file too short for a flatbuffer ({dec.size} bytes)", 0)
    if bytes(dec.buf[4:8]) != schema.FILE_IDENTIFIER:
        raise FlatbufferError(f"file identifier is {bytes(dec.buf[4:8])!r}, not b'TOSA'", 4)
    root = dec.follow(0, "root table offset")
    graph = dec.table(root, "TosaGraph")
    if graph["version"] is None:
        raise FlatbufferError("TosaGraph has no version (a required field)", root)
    return graph

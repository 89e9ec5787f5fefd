"""Byte-level primitives of MLIR bytecode: PrefixVarInt, zigzag, sections, strings.

Format facts from mlir/docs/BytecodeFormat.md. Every read is bounds-checked against
the end of the current section, so a declared size can never make us read (or
allocate) past the bytes we actually hold; errors carry the absolute file offset.
"""

from __future__ import annotations

MAGIC = b"ML\xefR"
ALIGNMENT_BYTE = 0xCB
MAX_ALIGNMENT = 1 << 16  # sanity bound on declared alignments (upstream uses <= 64 in practice)


class BytecodeError(Exception):
    """Malformed or unsupported bytecode; `offset` is the absolute byte offset."""

    def __init__(self, message: str, offset: int):
        # str(err) is the whole diagnostic after `<file>: error: ` (the loader's contract)
        super().__init__(f"invalid MLIR bytecode: {message} at offset {offset}")
        self.message = message
        self.offset = offset


def _find_nul(view: memoryview, start: int, end: int, chunk: int = 1 << 16) -> int:
    """The offset of the first NUL byte in view[start:end], or -1 (copying one chunk at a time)."""
    for pos in range(start, end, chunk):
        found = bytes(view[pos : min(end, pos + chunk)]).find(0)
        if found >= 0:
            return pos + found
    return -1


class Stream:
    """A cursor over data[pos:end] (absolute offsets into one shared buffer)."""

    __slots__ = ("data", "pos", "end")

    def __init__(self, data: memoryview | bytes, pos: int = 0, end: int | None = None):
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end

    def error(self, message: str, offset: int | None = None) -> BytecodeError:
        return BytecodeError(message, self.pos if offset is None else offset)

    def at_end(self) -> bool:
        return self.pos >= self.end

    def remaining(self) -> int:
        return self.end - self.pos

    def byte(self, what: str = "byte") -> int:
        if self.pos >= self.end:
            raise self.error(f"unexpected end of data reading {what}")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def bytes(self, size: int, what: str = "bytes") -> memoryview:
        if size < 0 or size > self.end - self.pos:
            raise self.error(f"{what}: size {size} exceeds the {self.end - self.pos} bytes left")
        start = self.pos
        self.pos += size
        return memoryview(self.data)[start : start + size]

    def sub(self, size: int, what: str) -> Stream:
        """A stream over the next `size` bytes (checked), skipping them here."""
        start = self.pos
        self.bytes(size, what)
        return Stream(self.data, start, start + size)

    def varint(self, what: str = "varint") -> int:
        pos = self.pos
        if pos >= self.end:
            raise self.error(f"unexpected end of data reading {what}")
        first = self.data[pos]
        if first & 1:  # the common one-byte case
            self.pos = pos + 1
            return first >> 1
        if first == 0:  # 9 bytes: the full 64-bit value follows
            raw = self.bytes(9, what)
            return int.from_bytes(raw[1:], "little")
        n = (first & -first).bit_length()  # number of bytes = trailing zeros + 1
        raw = self.bytes(n, what)
        return int.from_bytes(raw, "little") >> n

    def varint_flag(self, what: str = "varint") -> tuple[int, bool]:
        value = self.varint(what)
        return value >> 1, bool(value & 1)

    def svarint(self, what: str = "signed varint") -> int:
        value = self.varint(what)
        return (value >> 1) ^ -(value & 1)  # zigzag

    def count(self, what: str, min_bytes_each: int = 1) -> int:
        """A declared element count, checked against the bytes left so that callers can
        pre-allocate from it (each element needs at least `min_bytes_each` bytes)."""
        pos = self.pos
        n = self.varint(what)
        if min_bytes_each and n * min_bytes_each > self.end - self.pos:
            raise self.error(f"{what} {n} exceeds the {self.end - self.pos} bytes left", pos)
        return n

    def cstring(self, what: str = "string") -> str:
        data = self.data
        # search in place (bytes(view[pos:end]) copied the whole rest of the file, weights
        # included, for the producer string at its start)
        found = (data.find(0, self.pos, self.end) if isinstance(data, (bytes, bytearray))
                 else _find_nul(memoryview(data), self.pos, self.end))
        if found < 0:
            raise self.error(f"unterminated {what}")
        nul = found - self.pos
        raw = bytes(memoryview(data)[self.pos : self.pos + nul])
        self.pos += nul + 1
        return raw.decode("utf-8", errors="replace")

    def align(self, alignment: int) -> None:
        """Skip 0xCB padding up to the next multiple of `alignment` (absolute offset)."""
        if alignment <= 0 or alignment & (alignment - 1) or alignment > MAX_ALIGNMENT:
            raise self.error(f"invalid alignment {alignment}")
        while self.pos % alignment:
            if self.byte("alignment padding") != ALIGNMENT_BYTE:
                raise self.error("invalid alignment padding byte", self.pos - 1)


class Section:
    __slots__ = ("id", "stream", "offset")

    def __init__(self, id: int, stream: Stream, offset: int):
        self.id = id
        self.stream = stream
        self.offset = offset  # offset of the section header


def read_section(stream: Stream) -> Section:
    """section { idAndIsAligned: byte, length: varint, alignment: varint?, padding, data }"""
    start = stream.pos
    id_and_aligned = stream.byte("section id")
    length = stream.varint("section length")
    if id_and_aligned & 0x80:
        stream.align(stream.varint("section alignment"))
    return Section(id_and_aligned & 0x7F, stream.sub(length, "section length"), start)


# ------------------------------------------------------------------------------- writing


def encode_varint(value: int) -> bytes:
    if value < 0 or value >= 1 << 64:
        raise ValueError(f"varint out of range: {value}")
    if value < 1 << 7:
        return bytes(((value << 1) | 1,))
    for n in range(2, 9):
        if value < 1 << (7 * n):
            return ((value << n) | (1 << (n - 1))).to_bytes(n, "little")
    return b"\x00" + value.to_bytes(8, "little")


def encode_svarint(value: int) -> bytes:
    return encode_varint(((value << 1) ^ (value >> 63)) & ((1 << 64) - 1))


class Emitter:
    """An append-only byte buffer with the bytecode primitives."""

    __slots__ = ("buf",)

    def __init__(self) -> None:
        self.buf = bytearray()

    def byte(self, value: int) -> None:
        self.buf.append(value)

    def varint(self, value: int) -> None:
        if 0 <= value < 128:
            self.buf.append((value << 1) | 1)
        else:
            self.buf += encode_varint(value)

    def varint_flag(self, value: int, flag: bool) -> None:
        self.varint((value << 1) | int(flag))

    def svarint(self, value: int) -> None:
        self.buf += encode_svarint(value)

    def raw(self, data: bytes | bytearray | memoryview) -> None:
        self.buf += data

    def cstring(self, text: str) -> None:
        self.buf += text.encode("utf-8") + b"\x00"

    def align(self, alignment: int) -> None:
        while len(self.buf) % alignment:
            self.buf.append(ALIGNMENT_BYTE)

    def section(self, id: int, body: bytes | bytearray, alignment: int = 1) -> None:
        """Append a section; aligned bodies are aligned relative to this buffer's start."""
        if alignment > 1:
            self.byte(id | 0x80)
            self.varint(len(body))
            self.varint(alignment)
            self.align(alignment)
        else:
            self.byte(id)
            self.varint(len(body))
        self.raw(body)

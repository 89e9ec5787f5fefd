"""Big MLIR text models without the text in memory: a pre-scan that leaves the weights in the file.

Why: the parser reads one Python `str`, and a model's hex literals (`dense<"0x...">`) and
`dense_resource` blobs are 2 characters per weight byte: a 1 GB model was a 2 GB file read
as bytes, decoded into a 2 GB str (both alive for a moment), kept for located diagnostics,
and sliced again to decode each literal: peak ~4x the weight bytes (docs/performance.md,
"Scaling with weight size").

`prescan_file(path)` reads the file once, in blocks, and returns a `PrescannedSource`: the
text with every large hex literal replaced by the placeholder `"0x"` (so the parser's text
is only the model's structure) plus, for each placeholder, where its digits are in the file.
The dense-literal and resource-blob parsers (tosa_xdsl/ir/dense.py `parse_dense`,
tosa_xdsl/ir/resources.py `_parse_resource`) ask the parser's source for a literal at the
string token they are about to read (`literal_at(offset)`) and decode its digits straight
from the file into the final buffer, a block at a time, with the errors and positions they
report for the literal in the text.

Which literals: a string `"0x<hex digits>"` of at least MIN_LITERAL characters, right after
`dense<` or, inside a `{-#` section, after `key:`. Anything else (short literals, other
strings, a literal with a non-hex character, one cut short by the end of the file) stays in
the text and is parsed (and diagnosed) as before.

Diagnostics keep their file:line:col: a hex literal holds no newline, so lines are the
file's; a column after a placeholder on its line is shifted back by what the placeholder
removed (`line_col`). Such a line is longer than MAX_ECHO characters in the file, so it is
not echoed under a diagnostic, as before (`line_text`). Columns are bytes, as MLIR counts
them; the hex digits are ASCII, so a character removed is a byte removed.
"""

from __future__ import annotations

import binascii
import bisect
import os
import re
from dataclasses import dataclass
from typing import Any

from tosa_xdsl.diagnostics import SourceFile

MIN_LITERAL = 1 << 16  # characters between the quotes: above SourceFile.MAX_ECHO (4096)
PRESCAN_BYTES = 1 << 20  # the tools pre-scan text files from this size (prescan_if_large)
BLOCK = 1 << 22  # bytes read (and hex digits decoded) per step
PLACEHOLDER = '"0x"'
_CONTEXT = 64  # bytes before a literal kept to judge where it is

_START = re.compile(rb'"0x')
_NOT_HEX = re.compile(rb"[^0-9A-Fa-f]")
_AFTER_DENSE = re.compile(rb"dense[ \t]*<[ \t]*\Z")
_AFTER_KEY = re.compile(rb":[ \t]*\Z")


@dataclass(frozen=True)
class HexLiteral:
    """A literal left in the file: `"0x` at byte `start`, digits in [start + 3, end), the
    closing quote at `end`."""

    path: str
    start: int
    end: int

    @property
    def digits(self) -> int:
        return self.end - self.start - 3

    def content(self) -> FileSlices:
        """The literal's text between the quotes (`0x...`) as a sliceable view of the file:
        offset 0 is the `0`; slices read the file (tosa_xdsl.ir.resources.decode_blob_span)."""
        return FileSlices(self.path, self.start + 1, self.end)

    def decode(self) -> bytes | None:
        """The literal's bytes, decoded a block at a time; None for an odd number of digits
        or a non-hex digit (the file changed since the scan)."""
        n = self.digits
        if n % 2:
            return None
        out = bytearray(n // 2)
        at = 0
        with open(self.path, "rb") as f:
            for pos in range(self.start + 3, self.end, BLOCK):
                piece = os.pread(f.fileno(), min(BLOCK, self.end - pos), pos)
                try:
                    decoded = binascii.a2b_hex(piece)
                except (binascii.Error, ValueError):
                    return None
                out[at:at + len(decoded)] = decoded
                at += len(decoded)
        if at != len(out):
            return None  # the file shrank
        return bytes(out)


class FileSlices:
    """`text[a:b]` of a file region, as bytes read on demand (no whole copy in memory)."""

    def __init__(self, path: str, start: int, end: int):
        self.path, self.start, self.end = path, start, end

    def __len__(self) -> int:
        return self.end - self.start

    def __getitem__(self, index: slice) -> bytes:
        a, b, _ = index.indices(len(self))
        if b <= a:
            return b""
        with open(self.path, "rb") as f:
            return os.pread(f.fileno(), b - a, self.start + a)


class PrescannedSource(SourceFile):
    """The parser's text (large literals replaced by placeholders) with the file's
    line:column for every offset, and the literals by placeholder offset."""

    def __init__(self, name: str, text: str, literals: dict[int, HexLiteral]):
        super().__init__(name, text)
        self.literals = literals
        self._starts = sorted(literals)
        # offset -> characters removed by the placeholders at or before it, cumulative
        removed, acc = [], 0
        for s in self._starts:
            acc += literals[s].end - literals[s].start + 1 - len(PLACEHOLDER)
            removed.append(acc)
        self._removed = removed

    def literal_at(self, offset: int) -> HexLiteral | None:
        return self.literals.get(offset)

    def line_col(self, offset: int) -> tuple[int, int]:
        line, col = super().line_col(offset)
        line_start = self.line_starts[line - 1]
        # placeholders that end at or before `offset` on this line
        hi = bisect.bisect_right(self._starts, offset - len(PLACEHOLDER))
        lo = bisect.bisect_left(self._starts, line_start)
        if hi > lo:
            col += self._removed[hi - 1] - (self._removed[lo - 1] if lo else 0)
        return line, col

    def line_text(self, line: int) -> str | None:
        if not 1 <= line <= len(self.line_starts):
            return None
        start = self.line_starts[line - 1]
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.text)
        i = bisect.bisect_left(self._starts, start)
        if i < len(self._starts) and self._starts[i] < end:
            return None  # a line with a large literal: too long to echo (SourceFile.MAX_ECHO)
        return super().line_text(line)


def prescan_file(path: str, name: str | None = None, min_literal: int | None = None) -> PrescannedSource:
    """Read `path` (MLIR text) into a PrescannedSource; see the module docstring. Memory:
    the text without its large literals, plus a few blocks."""
    if min_literal is None:
        min_literal = MIN_LITERAL
    kept: list[bytes] = []  # the text, large literals replaced
    state = {"len": 0, "tail": b"", "resources": False}
    starts: list[tuple[int, HexLiteral]] = []  # (byte offset in the kept text, literal)

    def keep(piece: bytes) -> None:
        if piece:
            state["resources"] = state["resources"] or b"{-#" in state["tail"][-2:] + piece
            kept.append(piece)
            state["len"] += len(piece)
            state["tail"] = (state["tail"] + piece[-_CONTEXT:])[-_CONTEXT:]

    size = os.path.getsize(path)
    with open(path, "rb") as f:
        fd = f.fileno()
        off = 0  # file offset of buf[0]
        buf = os.pread(fd, BLOCK, 0)
        pos = 0
        while True:
            m = _START.search(buf, pos)
            if m is None:
                if off + len(buf) >= size:
                    keep(buf[pos:])
                    break
                keep_to = max(pos, len(buf) - 2)  # `"0` may go on in the next block
                keep(buf[pos:keep_to])
                rest = buf[keep_to:]
                off += keep_to
                buf, pos = rest + os.pread(fd, BLOCK, off + len(rest)), 0
                continue
            s = m.start()
            keep(buf[pos:s])
            context = state["tail"]
            placed = _AFTER_DENSE.search(context) is not None or (
                state["resources"] and _AFTER_KEY.search(context) is not None)
            end = _hex_end(fd, off + s + 3, size) if placed else None
            if end is not None and end - (off + s) - 3 >= min_literal:
                starts.append((state["len"], HexLiteral(path, off + s, end)))
                keep(PLACEHOLDER.encode())
                off = end + 1
                buf, pos = os.pread(fd, BLOCK, off), 0
            else:  # not ours: the text goes on as it is, scanned from after `"0x`
                keep(buf[s:s + 3])
                pos = s + 3
    data = b"".join(kept)
    del kept
    text = data.decode("utf-8", errors="replace")
    if not text.isascii():
        # byte offsets -> character offsets (placeholders are ASCII)
        starts = [(len(data[:b].decode("utf-8", errors="replace")), lit) for b, lit in starts]
    return PrescannedSource(name if name is not None else path, text, dict(starts))


def _hex_end(fd: int, at: int, size: int) -> int | None:
    """The file offset of the quote closing an unbroken run of hex digits from `at`; None
    when another character or the end of the file comes first."""
    while at < size:
        block = os.pread(fd, BLOCK, at)
        if not block:
            return None
        m = _NOT_HEX.search(block)
        if m is not None:
            j = m.start()
            return at + j if block[j:j + 1] == b'"' else None
        at += len(block)
    return None


def prescan_if_large(path: str) -> PrescannedSource | None:
    """The PrescannedSource of a large MLIR text file (PRESCAN_BYTES or more), what tosa-run,
    tosa-opt and tosa_xdsl.load read such a file as; None for a small file, a binary format
    (MLIR bytecode, a TOSA flatbuffer, ...: the loader reads those) or something that is not a
    regular file (a pipe is read whole). OSError when the file cannot be read."""
    import stat

    from tosa_xdsl.formats.loader import detect, is_text

    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode) or st.st_size < PRESCAN_BYTES:
        return None
    with open(path, "rb") as f:
        head = f.read(4096)
    if detect(head) is not None or not is_text(head):
        return None
    return prescan_file(path)

"""Low-level reader for the Markdown conversion of the TOSA specification PDF.

The converted document is regular enough to be parsed, but carries PDF artefacts that
every consumer would otherwise have to re-discover:

- heading levels are inconsistent (``## 2.5.4. BITWISE_OR`` next to ``### 2.5.3. ...``),
  so sections are found by their *number*, never by their ``#`` depth;
- tables are tab-separated; a page break splits a table into two with a repeated
  (sometimes ``<b>``-wrapped) header, and cells may carry ``<code>``/``<b>`` markup and
  HTML entities (``T&lt;in_t&gt;``);
- words are split by stray spaces (``input_z p``, ``Profile/Extens ion``);
- pseudocode blocks are cut at page breaks into several fenced blocks, and long
  statements wrap onto a following line that has lost its indentation.

This module only knows about that layout (sections, tables, code lines); what the tables
*mean* is decided in ``extract.py``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

# "## 2.3.1. ARGMAX", "### **1.5.1. Backwards Compatibility**", "# 4. TOSA Pseudocode".
_HEADING = re.compile(r"^#+\s*\**\s*(\d+(?:\.\d+)*)\.\s+(.*?)\s*\**\s*$")
# Only the markup the converter emits; "T<in_t>" must survive, so no generic tag strip.
_MARKUP = re.compile(r"</?(?:b|code|p|a|i|em|strong)(?:\s[^>]*)?>")


@dataclass(frozen=True)
class Heading:
    line: int  # 0-based line index in the document
    number: str  # "2.3.1"
    title: str  # "ARGMAX" (markdown escapes removed)


@dataclass
class Table:
    """A tab-separated table; split parts are merged by the caller via `extend`."""

    line: int  # 0-based line of the (first) header
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)
    row_lines: list[int] = field(default_factory=list)


def unescape_md(text: str) -> str:
    """Remove the converter's markdown escapes (``AVG\\_POOL2D`` -> ``AVG_POOL2D``)."""
    return re.sub(r"\\([_*\[\]\\#<>`])", r"\1", text)


def clean_cell(text: str) -> str:
    """Cell text without markup/entities, whitespace collapsed (split words kept)."""
    text = _MARKUP.sub("", text)
    text = html.unescape(text)
    text = unescape_md(text)
    return " ".join(text.split())


def squash(text: str) -> str:
    """Cell text with *all* whitespace removed: for identifiers, types and shapes,
    where the spec never has a meaningful space but the PDF adds spurious ones."""
    return "".join(clean_cell(text).split())


def header_key(cells: list[str]) -> tuple[str, ...]:
    """Header identity used to recognise the repeated header of a split table."""
    return tuple(squash(c).lower() for c in cells)


class SpecDocument:
    """The spec as lines, with numbered headings, fenced code and tables located."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.in_code = self._mark_code()
        self.headings = [
            Heading(i, m.group(1), unescape_md(m.group(2)).strip())
            for i, line in enumerate(self.lines)
            if not self.in_code[i] and (m := _HEADING.match(line))
        ]

    def _mark_code(self) -> list[bool]:
        """in_code[i] is True for lines inside a ``` fence (the fences themselves too)."""
        flags, inside = [], False
        for line in self.lines:
            if line.strip().startswith("```"):
                flags.append(True)
                inside = not inside
            else:
                flags.append(inside)
        return flags

    # -- sections ---------------------------------------------------------------------

    def heading(self, number: str) -> Heading:
        for h in self.headings:
            if h.number == number:
                return h
        raise KeyError(f"no section {number} in the spec")

    def section_span(self, number: str) -> tuple[int, int]:
        """[start, end) lines of section `number` including its subsections."""
        head = self.heading(number)
        prefix = number + "."
        end = len(self.lines)
        for h in self.headings:
            if h.line > head.line and not h.number.startswith(prefix):
                end = h.line
                break
        return head.line, end

    def own_span(self, number: str) -> tuple[int, int]:
        """[start, end) lines of section `number` up to its first numbered subsection."""
        head = self.heading(number)
        end = len(self.lines)
        for h in self.headings:
            if h.line > head.line:
                end = h.line
                break
        return head.line, end

    def subsections(self, number: str) -> list[Heading]:
        """Direct numbered children of section `number`, in document order."""
        depth = number.count(".") + 1
        start, end = self.section_span(number)
        return [
            h
            for h in self.headings
            if start < h.line < end and h.number.startswith(number + ".")
            and h.number.count(".") == depth
        ]

    # -- tables -----------------------------------------------------------------------

    def tables(self, start: int, end: int) -> list[Table]:
        """Every tab-separated block in [start, end) outside code, header = first line.

        A block is a run of consecutive lines containing a tab. Split tables come out
        as separate blocks; merging is the caller's decision (it knows the header).
        """
        out: list[Table] = []
        i = start
        while i < end:
            if self.in_code[i] or "\t" not in self.lines[i]:
                i += 1
                continue
            table = Table(i, [clean_cell(c) for c in self.lines[i].split("\t")])
            i += 1
            while i < end and not self.in_code[i] and "\t" in self.lines[i]:
                table.rows.append([clean_cell(c) for c in self.lines[i].split("\t")])
                table.row_lines.append(i)
                i += 1
            out.append(table)
        return out

    def merged_tables(self, start: int, end: int, first_cell: str) -> list[Table]:
        """Tables whose header starts with `first_cell`, split parts merged.

        A part whose header equals the previous table's header is a page-break
        continuation and is appended to it.
        """
        merged: list[Table] = []
        for t in self.tables(start, end):
            if not t.header or squash(t.header[0]).lower() != squash(first_cell).lower():
                continue
            if merged and header_key(merged[-1].header) == header_key(t.header):
                merged[-1].rows.extend(t.rows)
                merged[-1].row_lines.extend(t.row_lines)
            else:
                merged.append(t)
        return merged

    # -- code -------------------------------------------------------------------------

    def code_lines(self, start: int, end: int) -> list[tuple[int, str]]:
        """(line, text) of pseudocode lines in [start, end); fences dropped, so a
        block split by a page break reads as one."""
        return [
            (i, self.lines[i])
            for i in range(start, end)
            if self.in_code[i] and not self.lines[i].strip().startswith("```")
        ]

"""Find the validation statements (LEVEL_CHECK / ERROR_IF / REQUIRE) in spec pseudocode.

These statements are the inventory the verifiers and `tosa-validate` must cover, so each
is extracted once, in order, with its condition joined across the PDF's line breaks and
page-break fences, and with the trailing ``// comment`` of its last line (the spec often
explains the rule there, e.g. "Zero point only for int8_t").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("LEVEL_CHECK", "ERROR_IF", "REQUIRE")

_CALL = re.compile(r"(?<![\w.])(LEVEL_CHECK|ERROR_IF|REQUIRE)\s*\(")
# A function definition or prototype at column 0: optional return type, then a name,
# optional template arguments, "(".  "tosa_execute_graph(" has no return type.
_DEF = re.compile(r"^(?:\w+(?:<[^()]*>)?\**\s+\**)?(\w+)(?:<[^()]*>)?\s*\(")
_NOT_FUNCTIONS = {
    "if", "for", "while", "switch", "return", "else", "for_each",
    "for_each_data_position", *KINDS,
}


@dataclass(frozen=True)
class Condition:
    kind: str  # one of KINDS
    text: str  # the condition, whitespace normalised
    comment: str  # trailing comment on the statement's last line, "" if none
    line: int  # 1-based spec line of the statement's start


def split_comment(line: str) -> tuple[str, str]:
    """Pseudocode line -> (code, comment text)."""
    pos = line.find("//")
    if pos < 0:
        return line, ""
    return line[:pos], line[pos + 2 :].strip()


def normalise(text: str) -> str:
    """One line, single spaces, no padding inside brackets (a wrap is not content)."""
    text = " ".join(text.split())
    text = re.sub(r"([(\[])\s+", r"\1", text)
    return re.sub(r"\s+([)\]])", r"\1", text)


def find_conditions(code: list[tuple[int, str]]) -> list[Condition]:
    """All validation statements in `code` ((0-based line, text) pairs), in order."""
    codes, comments, starts = [], [], []
    offset = 0
    for _, raw in code:
        part, comment = split_comment(raw)
        codes.append(part)
        comments.append(comment)
        starts.append(offset)
        offset += len(part) + 1
    text = "\n".join(codes)

    def line_index(pos: int) -> int:
        lo = 0
        for k, s in enumerate(starts):
            if s <= pos:
                lo = k
        return lo

    found: list[Condition] = []
    for m in _CALL.finditer(text):
        # "void REQUIRE(condition) {" is the definition of the primitive, not a use.
        before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        if before.strip() == "void":
            continue
        depth, pos = 1, m.end()
        while depth and pos < len(text):
            depth += {"(": 1, ")": -1}.get(text[pos], 0)
            pos += 1
        if depth:
            raise ValueError(f"unbalanced {m.group(1)}( at spec line {code[line_index(m.start())][0] + 1}")
        first, last = line_index(m.start()), line_index(pos - 1)
        found.append(
            Condition(
                kind=m.group(1),
                text=normalise(text[m.end() : pos - 1]),
                comment=comments[last],
                line=code[first][0] + 1,
            )
        )
    return found


def enclosing_functions(code: list[tuple[int, str]]) -> dict[int, str]:
    """Map each code line to the helper function it belongs to ("" before any).

    Only column-0 lines can start a definition: the body of a helper is indented, and
    column-0 continuation lines left by the PDF end with ";" so they are statements.
    """
    current, out = "", {}
    for line, raw in code:
        part = split_comment(raw)[0].rstrip()
        m = _DEF.match(part)
        if m and not raw[:1].isspace() and m.group(1) not in _NOT_FUNCTIONS:
            if not part.endswith(";"):
                current = m.group(1)
        out[line] = current
    return out

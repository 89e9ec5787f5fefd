"""Location aliases defined after their use (`loc(#loc3)` ... `#loc3 = loc("x.py":1:2)`).

MLIR's printer (`mlir-opt --mlir-print-debuginfo`, `tosa-converter-for-tflite --text
--emit-debug-info`) puts location alias definitions at the END of the file, and MLIR's
parser resolves them after the fact. xDSL's parser resolves an alias when it meets it,
so these files fail with `undefined symbol alias '#loc3'`.

`prescan` finds every top-level `#name = loc(...)` line before parsing starts and
resolves them (in as many rounds as their references to each other need), so that
uses parse; `allow_predeclared` lets the main parse then meet the same definition
without a re-declaration error. Only location aliases are pre-scanned: other attribute
aliases must, as in xDSL, be defined before use (MLIR requires that too). A definition
`loc(fused<metadata>[...])`, which xDSL's location parser lacks, is read here too.
"""

from __future__ import annotations

import re
from typing import Any

# FileLineColRange (`"f":1:2 to 3:4`, `to :9`): xDSL's FileLineColLoc has no end, keep the start.
_RANGE_END = re.compile(r"(\"[^\"]*\":\d+:\d+)[ \t]+to[ \t]+(?:\d+)?(?::\d+)?")
_LOC_ALIAS_DEF = re.compile(r"^(#[A-Za-z_][\w$.\-]*)[ \t]*=[ \t]*(loc[ \t]*\(.*?)[ \t]*$", re.M)


def prescan(parser: Any, text: str) -> set[str]:
    """Resolve the location alias definitions of `text` into parser.attribute_aliases;
    returns the names resolved this way."""
    if "= loc" not in text and "=loc" not in text:
        return set()
    from xdsl.parser import Parser

    pending = {m.group(1): _RANGE_END.sub(r"\1", m.group(2)) for m in _LOC_ALIAS_DEF.finditer(text)}
    aliases = parser.attribute_aliases
    done: set[str] = set()
    progress = True
    while pending and progress:
        progress = False
        for name, rhs in list(pending.items()):
            if name in aliases:
                del pending[name]
                continue
            sub = Parser(parser.ctx, rhs, "<location alias>")
            sub.attribute_aliases = aliases  # shared: aliases may refer to each other
            try:
                loc = sub.parse_optional_location() if not rhs.startswith("loc(fused<") else _fused_with_metadata(sub)
            except Exception:
                continue  # refers to one not resolved yet, or malformed: the main parse reports it
            if loc is None:
                continue
            aliases[name] = loc
            done.add(name)
            del pending[name]
            progress = True
    return done


def _fused_with_metadata(sub: Any) -> Any:
    """`loc(fused<metadata>[loc, ...])`, which xDSL's location parser does not read."""
    from xdsl.dialects.builtin import FusedLoc

    sub.parse_characters("loc")
    with sub.in_parens():
        sub.parse_keyword("fused")
        sub.parse_punctuation("<")
        metadata = sub.parse_attribute()
        sub.parse_punctuation(">")
        locs = sub.parse_comma_separated_list(sub.Delimiter.SQUARE, sub._parse_location)  # noqa: SLF001
    return FusedLoc(locs, metadata)


def skip_predeclared(parser: Any, predeclared: set[str]) -> bool:
    """When the main parse meets `#name = ...` for a pre-scanned `name` (first time):
    skip that line (already resolved, and it may use syntax xDSL's parser lacks, such
    as ranges) and return True. A second definition is then a re-declaration, as in MLIR."""
    token = parser._current_token  # noqa: SLF001
    if token.text not in predeclared:
        return False
    predeclared.discard(token.text)
    text = token.span.input.content
    end = text.find("\n", token.span.start)
    parser._resume_from(len(text) if end < 0 else end)  # noqa: SLF001
    return True

"""SkriptND (NNEF 2.0) tokens: identifiers/keywords, numbers, strings, `@block` names and the
operator symbols of the draft (section 2.4 and the grammar of 2.16), longest match first.

Every token carries its 1-based line and column so the parser and the semantic checks can
report `file:line:col: error: message`."""

from __future__ import annotations

from dataclasses import dataclass

from tosa_xdsl.frontends.nnef.errors import Loc, NnefError

KEYWORDS = frozenset({
    "version", "extension", "import", "graph", "public", "operator", "optional",
    "type", "arith", "num", "int", "real", "bool", "str", "inf", "pi", "true", "false",
    "is", "in", "if", "then", "else", "elif", "do", "for", "while", "with", "yield", "unroll",
    # Khronos' v2.0 reader also reserves these (attribute/pack modifiers)
    "static", "dynamic",
})

BLOCKS = frozenset({
    "@dtype", "@attrib", "@input", "@output", "@constant", "@variable", "@using", "@assert",
    "@lower", "@compose", "@update", "@quantize",
})

# longest first so that maximal munch picks "<?=" before "<?" before "<"
SYMBOLS = sorted([
    "+", "-", "*", "/", "\\", "%", "**", "&&", "||", "^", "!", "=>", "<-", "->",
    "<", "<=", ">", ">=", "==", "!=", "<?", ">?", "+=", "*=", "&=", "|=", ":=", "<?=", ">?=",
    "<>", "=", "?", "??", ",", ".", "..", "...", ":", ";", "~", "(", ")", "[", "]", "{", "}", "|",
], key=len, reverse=True)

IDENT, KEYWORD, INT, REAL, STRING, BLOCK, SYMBOL, EOF = (
    "identifier", "keyword", "integer", "real", "string", "block", "symbol", "end of input")


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str          # for STRING the decoded value
    loc: Loc

    def describe(self) -> str:
        if self.kind == EOF:
            return "end of input"
        if self.kind == STRING:
            return f"string {self.text!r}"
        return f"'{self.text}'"


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "{": "\\{", "}": "\\}"}


def tokenize(text: str, file: str = "<input>") -> list[Token]:
    """All tokens of `text` followed by an EOF token; raises NnefError at the first bad character."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    line, line_start = 1, 0
    while True:
        # skip blanks and comments, counting lines
        while i < n:
            c = text[i]
            if c == "\n":
                line += 1
                i += 1
                line_start = i
            elif c in " \t\r\f\v":
                i += 1
            elif c == "#":
                while i < n and text[i] != "\n":
                    i += 1
            else:
                break
        loc = Loc(file, line, i - line_start + 1)
        if i >= n:
            tokens.append(Token(EOF, "", loc))
            return tokens
        c = text[i]
        if c.isascii() and (c.isalpha() or c == "_"):
            j = i + 1
            while j < n and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            tokens.append(Token(KEYWORD if word in KEYWORDS else IDENT, word, loc))
            i = j
        elif c.isascii() and c.isdigit():
            i = _number(text, i, loc, tokens)
        elif c in "'\"":
            i, line, line_start = _string(text, i, loc, tokens, line, line_start)
        elif c == "@":
            j = i + 1
            while j < n and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            if word not in BLOCKS:
                raise NnefError(loc, f"unknown block '{word}' (expected one of "
                                f"{', '.join(sorted(BLOCKS))})")
            tokens.append(Token(BLOCK, word, loc))
            i = j
        else:
            for sym in SYMBOLS:
                if text.startswith(sym, i):
                    tokens.append(Token(SYMBOL, sym, loc))
                    i += len(sym)
                    break
            else:
                raise NnefError(loc, f"unexpected character {c!r}")


def _number(text: str, i: int, loc: Loc, tokens: list[Token]) -> int:
    n = len(text)
    j = i
    while j < n and text[j].isdigit():
        j += 1
    real = False
    # "1.5" and "1." are reals; "1.." is the integer 1 followed by "..", which the draft
    # asks to write "1 .." but which is unambiguous here, so both spellings are read
    if j < n and text[j] == "." and not text.startswith("..", j):
        real = True
        j += 1
        while j < n and text[j].isdigit():
            j += 1
    if j < n and text[j] in "eE":
        k = j + 1
        if k < n and text[k] in "+-":
            k += 1
        if k < n and text[k].isdigit():
            real = True
            j = k
            while j < n and text[j].isdigit():
                j += 1
    tokens.append(Token(REAL if real else INT, text[i:j], loc))
    return j


def _string(text, i, loc, tokens, line, line_start):
    quote = text[i]
    n = len(text)
    j = i + 1
    out = []
    while True:
        if j >= n:
            raise NnefError(loc, "unterminated string literal")
        c = text[j]
        if c == quote:
            j += 1
            break
        if c == "\\" and j + 1 < n:
            out.append(_ESCAPES.get(text[j + 1], text[j + 1]))
            j += 2
            continue
        if c == "\n":
            # the draft's messages run over lines; the line break and the next line's
            # indentation read as one space
            line += 1
            line_start = j + 1
            k = j + 1
            while k < n and text[k] in " \t":
                k += 1
            out.append(" ")
            j = k
            continue
        out.append(c)
        j += 1
    tokens.append(Token(STRING, "".join(out), loc))
    return j, line, line_start

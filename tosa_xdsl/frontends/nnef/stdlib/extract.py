"""Regenerate the standard-library modules from the draft's chapter 4 (run by hand):

    python -m tosa_xdsl.frontends.nnef.stdlib.extract ../shared/spec/nnef-2.0-draft.md

The draft is a PDF conversion: a definition broken over a page sits in two code fences, the
first closed with artificial '}' lines; some '..' became '...', and a few characters were lost.
This script (1) joins continuation fences, dropping the artificial closing braces (the
continuation's own closing braces tell how deep it starts), (2) applies the few textual
repairs listed in FIXES (each one says what the draft shows), (3) keeps each operator that our
parser reads and lists the ones it cannot (written to UNPARSED.txt with the diagnostic) so the
gaps are visible rather than silently patched.
"""

from __future__ import annotations

import re
import sys
from itertools import pairwise
from pathlib import Path

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.parser import parse

SECTIONS = [("4.1.", "layout"), ("4.2.", "math"), ("4.3.", "linalg"), ("4.4.", "nn"),
            ("4.5.", "image"), ("4.6.", "quant"), ("4.7.", "algo")]

# (module, draft text, repaired text): typesetting damage only, never a change of meaning
FIXES: list[tuple[str, str, str]] = [
    # ';' printed for ':' in the reversing slice "[::-1]"
    ("layout", "shape[:;-1]", "shape[::-1]"),
    # flatten: a ':' lost in "shape[::-1]" (the row-major strides are the cumulative products
    # of the reversed shape, as unflatten computes them; "[:-1]" would give column-major ones)
    ("layout", "prods = [1, shape[:-1]..] * ...;\n        strides = prods[rank-1::-1];",
     "prods = [1, shape[::-1]..] * ...;\n        strides = prods[rank-1::-1];"),
    ("layout", "prods[:;-1]", "prods[::-1]"),
    # the pack length of an input pack lost its '..': "T[s...](n)" for "T[s..]..(n)"
    ("math", "[s...](n)", "[s..]..(n)"),
    ("math", "[s..](n)", "[s..]..(n)"),
    # a doubled '?' after a line break: "???" for the coalescing "??"
    ("nn", "???", "??"),
    # the ':' ending loop-local values printed as ';'
    ("image", "ceil(x - 0.5) : floor(x + 0.5);", "ceil(x - 0.5) : floor(x + 0.5):"),
    ("image", "r = real(i[axes]) * scale + offset;", "r = real(i[axes]) * scale + offset:"),
    ("nn", "[ci,j...,gi * m + mi];", "[ci,j...,gi * m + mi]:"),
    # a comment broken over two lines
    ("image", "# map [-1,1] to\n[0,1]", "# map [-1,1] to [0,1]"),
    # "l[dz-dc:...]..." for the open-ended slice "l[dz-dc:]..."
    ("linalg", "l[dz-dc:...]...", "l[dz-dc:]..."),
    # spaced dots "perm != . . ." for the uniqueness fold "perm != .."
    ("layout", "perm != . . .", "perm != .."),
    # the fold "offs = [0, z...] + ...." (a stray '.'): cumulative sum
    ("layout", "+ ....;", "+ ...;"),
    ("linalg", ":...]...", ":]..."),
    # the filter format 'CXN' (channels, spatial, outputs) printed as 'CXB' in nn.conv
    ("nn", "'CXB'", "'CXN'"),
    # "si...(expr)": an index pack written against the next item ("si..., (expr)")
    ("layout", "output[si...(u * ni", "output[si..., (u * ni"),
    # "|| ..." for the disjunction fold "|| .."
    ("layout", "method == methods || ...\n", "method == methods || ..:\n"),
    # the '[' lost before the substituted pack: "s[axes]] <- (...)..]" for "[s[axes] <- (...)..]"
    ("image", "real[s[axes]] <- (factor * s[axes])..]", "real[s[axes] <- (factor * s[axes])..]"),
    # "input=zeros[...] <- si..]": '=' printed for '[': "input[zeros[...] <- si..]"
    ("layout", "= input=zeros[kept_axes] <- si..]", "= input[zeros[kept_axes] <- si..]"),
    ("layout", "output=zeros[comp_axes] <- si..] =", "output[zeros[comp_axes] <- si..] ="),
    # a message whose ':' was printed as ';'
    ("layout", "axis >= -rank && axis <= rank;", "axis >= -rank && axis <= rank:"),
    # comments broken over lines
    ("image", "# map to pixel\nspace", "# map to pixel space"),
    ("image", "# map to nearby\npixel", "# map to nearby pixel"),
    ("image", "# calculate\nweights", "# calculate weights"),
    ("image", "w = 1.0 - abs(real(i) - x);", "w = 1.0 - abs(real(i) - x):"),
    # "(shape * ...) == z": the product fold, not the cumulative product (a volume is compared)
    ("layout", "(shape * ...) == z", "(shape * ..) == z"),
    ("layout", "(i * strides) + ..., ti...]", "(i * strides) + .., ti...]"),
    # "output: T[b,c / (block_size * ..\n..)": a fold split over a line break
    ("layout", "(block_size * ..\n        ..)", "(block_size * ..)"),
    # products of a pack printed with the cumulative '...' where a scalar is needed (a count
    # divides a sum, a volume sizes a pack): the fold '..', as Khronos' library writes them
    ("math", "real(s[axes] * ...)", "real(s[axes] * ..)"),
    ("image", "real(factor * ...)", "real(factor * ..)"),
    ("layout", "T..(shape * ...)", "T..(shape * ..)"),
    # image.linear_upsample (Khronos' NNEF-Tools v2.0 image.sknd has the intact text): the
    # filter's product fold '..' and its ',' before the loop bound lost in a page-width break
    # ("* \n...\n i < fs;"), and the target's substitution bracket misplaced ("output[i[axes]]
    # <- |..|..": the '<-' belongs inside the brackets, as in the output type repaired above)
    ("image", "/ real(factor)) *\n...\n            i < fs;", "/ real(factor)) * ..,\n            i < fs;"),
    ("image", "output[i[axes]] <- |factor * i[axes] + j - padding|..\n",
     "output[i[axes] <- |factor * i[axes] + j - padding|..]\n"),
]

HEAD = re.compile(r"^\s*(public\s+)?(operator|graph)\s+\w+")


def _depth_profile(text: str) -> tuple[int, int]:
    """(net brace balance, minimum running balance) outside strings and comments."""
    depth = low = 0
    quote = None
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            low = min(low, depth)
        i += 1
    return depth, low


def fences(lines: list[str]) -> dict[str, list[str]]:
    start = next(i for i, l in enumerate(lines) if l.startswith("# Chapter 4."))
    blocks: dict[str, list[str]] = {m: [] for _, m in SECTIONS}
    module, inside, cur = None, False, []
    for line in lines[start:]:
        if line.startswith("```"):
            if inside and module and any(s.strip() for s in cur):
                blocks[module].append("\n".join(cur))
            inside, cur = not inside, []
            continue
        if inside:
            cur.append(line)
            continue
        m = re.match(r"^#+ (4\.\d\.)", line)
        if m:
            module = next((mod for p, mod in SECTIONS if p == m.group(1)), module)
    return blocks


def join(blocks: list[str]) -> list[str]:
    """Operator texts: a fence not starting with 'operator' continues the previous one."""
    ops: list[str] = []
    for b in blocks:
        first = next((l for l in b.split("\n") if l.strip()), "")
        if HEAD.match(first) or not ops:
            ops.append(b.strip("\n"))
            continue
        # the continuation starts inside the operator (a '@block' line) or inside a block
        need = 1 if first.strip().startswith("@") else 2
        prev = ops[-1].rstrip().split("\n")
        while prev and prev[-1].strip() == "}" and _depth_profile("\n".join(prev))[0] < need:
            prev.pop()
        ops[-1] = "\n".join(prev) + "\n" + b.strip("\n")
    out = []
    for text in ops:
        lines = text.split("\n")
        while _depth_profile("\n".join(lines))[0] < 0 and lines and lines[-1].strip() == "}":
            lines.pop()
        text = "\n".join(lines)
        depth, _ = _depth_profile(text)
        out.append(text + "\n}" * max(depth, 0))
    return out


CUMULATIVE = {"+", "*", "<?", ">?", "&&", "||"}


def canonical_dots(text: str) -> str:
    """The draft's text writes '...' where it means the expansion '..' (e.g. 'real[s...,t...]');
    only after '+', '*', '<?', '>?', '&&', '||' is '...' a cumulative fold. Rewrite the others to
    '..' so the library reads as SkriptND for any reader (Khronos' included)."""
    from tosa_xdsl.frontends.nnef.lexer import SYMBOL, tokenize

    lines = text.split("\n")
    edits = []
    toks = tokenize(text)
    for prev, tok in pairwise(toks):
        if tok.kind == SYMBOL and tok.text == "..." and not (prev.kind == SYMBOL and prev.text in CUMULATIVE):
            edits.append((tok.loc.line, tok.loc.col))
    for line, col in sorted(edits, reverse=True):
        s = lines[line - 1]
        lines[line - 1] = s[:col - 1] + ".." + s[col + 2:]
    return "\n".join(lines)


def canonical_bounds(text: str) -> str:
    """The draft prints the remapping '|i <> a : b|' as '|i < a : b|' (its '>' lost); write '<>'."""
    return re.sub(r"\|([^|\n<>]+?) < ([^|\n]+?) : ", r"|\1 <> \2 : ", text)


def imports_for(module: str, texts: list[str]) -> list[str]:
    """Chapter 4 lists definitions without import lines; a module imports those it references."""
    used = set()
    for t in texts:
        used |= set(re.findall(r"\b(layout|math|linalg|nn|image|quant|algo)\.\w+\s*[({<]", t))
    return sorted(used - {module})


def extract(doc: Path, dest: Path) -> dict[str, list[tuple[str, str]]]:
    lines = doc.read_text().split("\n")
    failures: dict[str, list[tuple[str, str]]] = {}
    for module, blocks in fences(lines).items():
        kept, failed = [], []
        for text in join(blocks):
            for mod, old, new in FIXES:
                if mod == module:
                    text = text.replace(old, new)
            # a comment's last word wrapped onto its own unindented line
            text = re.sub(r"(#[^\n]*)\n([A-Za-z]+)\n", r"\1 \2\n", text)
            try:
                text = canonical_bounds(canonical_dots(text))
            except NnefError:
                pass
            name = re.search(r"(operator|graph)\s+(\w+)", text)
            label = name.group(2) if name else text.split("\n")[0][:40]
            try:
                parse(text, f"{module}.sknd")
            except NnefError as err:
                failed.append((label, err.message))
                continue
            kept.append(text)
        header = (f"# The '{module}' module of the SkriptND standard library, extracted from chapter 4 of\n"
                  f"# the NNEF 2.0 draft by extract.py (operators the draft's text garbles are listed in\n"
                  f"# UNPARSED.txt).\n\n")
        header += "".join(f"import {m};\n" for m in imports_for(module, kept)) + "\n"
        (dest / f"{module}.sknd").write_text(header + "\n\n".join(kept) + "\n")
        failures[module] = failed
    with open(dest / "UNPARSED.txt", "w") as f:
        for module, failed in failures.items():
            for label, message in failed:
                f.write(f"{module}.{label}: {message}\n")
    return failures


if __name__ == "__main__":
    doc = Path(sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[5] / "shared" / "spec" / "nnef-2.0-draft.md"))
    fails = extract(doc, Path(__file__).parent)
    print(sum(len(v) for v in fails.values()), "operators not parsed")

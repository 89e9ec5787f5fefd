"""Loops with scan inputs and run-time trip counts / conditions under mutation (seeded,
a fixed number of cases; the documents of test_nnef_scans.py).

* Random loops (`test_random_scan_loops_against_numpy`): pack lengths 0..5, tensor counts
  below, at and above the pack's length (negative too), pretest / do-while conditions with
  random limits, bodies with and without the index: each imports, and runs to the result of
  the draft's loop written in numpy (2.10.1: the loop stops when the index reaches the count
  or the condition becomes false) or, for a count above the pack's length, to a run-time
  error (the scan length "must be an upper bound" of the count).
* Token mutations (`test_token_mutants_import_or_fail_located`): a token deleted, duplicated
  or replaced (types, counts, pack items, keywords, brackets): the mutant either gives a
  located `file:line:col: error:` (never a traceback or an "internal" error) or imports and
  runs on inputs of its signature to a result or a TOSA run-time error (ERROR_IF, REQUIRE,
  the loop bound), never an internal error."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from xdsl.dialects import func

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.errors import TosaRunError
from tosa_xdsl.interpreter.runner import entry_function, io_types
from tosa_xdsl.interpreter.values import dtype_of

LOCATED = re.compile(r"^\S+:\d+:\d+: error: ")
COND = "{ m = math.max_reduce{axes=[0], squeeze=true}(s); c = math.lt(m, lim); yield c; }"

# (loop body, whether it reads the index i, the body in numpy)
BODIES = [
    ("math.add(s, x)", False, lambda s, x, i: s + x),
    ("{ t = math.mul(s, 2.0); u = math.add(t, x); yield u; }", False, lambda s, x, i: s * 2 + x),
    ("{ f = layout.cast<real>(i); t = math.mul(x, f); u = math.add(s, t); yield u; }", True,
     lambda s, x, i: s + x * np.float32(i)),
    ("math.max(s, x)", False, lambda s, x, i: np.maximum(s, x)),
    ("math.sub(x, s)", False, lambda s, x, i: x - s),
]
VALUES = {"a": np.array([1, 2, 3], np.float32), "b": np.array([10, -20, 30], np.float32),
          "c": np.array([0.5, 4, -1], np.float32)}


def document(body: str) -> str:
    return ("import math; import layout;\ngraph G {\n @input { a: real[3]; b: real[3]; c: real[3]; n: int[]; "
            f"lim: real[]; }}\n @output {{ y: real[3]; }}\n @compose {{\n{body}\n }}\n}}\n")


def reference(init, items, step, count=None, cond=None, pretest=True):
    """The draft's loop (2.10.1): step `it` runs while it < count and the condition holds
    (tested before each step, or after each step for a do-while); at most len(items) steps."""
    s = init
    for it, x in enumerate(items):
        if count is not None and it >= count:
            break
        if cond is not None and (pretest or it > 0) and not cond(s):
            break
        s = step(s, x, it)
    return s


def random_loop(rng: random.Random):
    """(document, inputs, expected result or None for a run-time error)."""
    items = rng.choices("abc", k=rng.randint(0, 5))
    body, uses_index, step = rng.choice(BODIES)
    counted = rng.random() < 0.7
    cond = rng.choice([None, "pre", "post"])
    if not items and not counted and cond is None:
        counted = True
    n = rng.choice([-1, 0, 1, 2, 3, 5, len(items), len(items) + 1, 2**31 - 1])
    lim = rng.choice([-100.0, 0.0, 5.0, 25.0, 60.0, 1e9])
    if counted:
        clause = "..(i -> n)" if uses_index or rng.random() < 0.5 else "..(n)"
    else:
        clause = "..(i ->)" if uses_index else ""
    pre = f" while {COND}" if cond == "pre" else ""
    post = f" while {COND}" if cond == "post" else ""
    src = document(f"y = with s = a for x : [{', '.join(items)}]{pre} do{clause} {body}{post};")
    inputs = [VALUES["a"], VALUES["b"], VALUES["c"], np.array(n, np.int32), np.array(lim, np.float32)]
    if counted and n > len(items):
        return src, inputs, None
    expected = reference(VALUES["a"], [VALUES[k] for k in items], step, count=n if counted else None,
                         cond=None if cond is None else (lambda s: s.max() < np.float32(lim)),
                         pretest=cond != "post")
    return src, inputs, expected


RANDOM_LOOPS = 16      # ~1 s each when the machine is quiet (an import parses the standard library)
MUTANTS = 240


def test_random_scan_loops_against_numpy():
    rng = random.Random(1610)
    # a fixed number of cases (not a time budget: under load a budget ran too few to mean anything)
    ran = errors = 0
    for _ in range(RANDOM_LOOPS):
        src, inputs, expected = random_loop(rng)
        try:
            module = import_nnef(src)
        except NnefError as err:
            raise AssertionError(f"{src}\n{err}") from None
        if expected is None:
            try:
                run(module, inputs, entry="G")
            except TosaRunError as err:
                assert err.kind == "unpredictable", (src, str(err))
                errors += 1
                continue
            raise AssertionError(f"{src}\ncount {int(inputs[3])} above the pack's length ran")
        (y,) = run(module, inputs, entry="G")
        np.testing.assert_array_equal(y, expected, err_msg=f"{src}\nn={int(inputs[3])} lim={float(inputs[4])}")
        ran += 1
    assert ran > 5 and errors > 1, (ran, errors)


BASES = [
    document("y = with s = a for x : [a, b, c] do..(i -> n) "
             "{ t = math.mul(s, 2.0); u = math.add(t, x); f = layout.cast<real>(i); v = math.add(u, f); yield v; };"),
    document("y, q = with s = a, r = b for x : [a, b, c], z : [c, c, b] do..(n) "
             "{ s1 = math.add(s, x); r1 = math.mul(r, z); yield s1, r1; };").replace(
        "y: real[3];", "y: real[3]; q: real[3];"),
    document(f"y = with s = a for x : [b, a, b, a] while {COND} do math.add(s, x);"),
    document(f"y = with s = a for x : [b, a, b, a] do math.add(s, x) while {COND};"),
    document(f"y = with s = a for x : [b, a, b, a] while {COND} do..(i -> n) "
             "{ f = layout.cast<real>(i); t = math.mul(x, f); u = math.add(s, t); yield u; };"),
    document("y = with s = a do..(i -> n) { f = layout.cast<real>(i); t = math.add(s, f); u = math.add(t, 1.0); "
             f"yield u; }} while {COND};"),
]
# packed run-time extents (2.6.1) scanned with a tensor count
BASES.append("import math; import layout;\ngraph G {\n @input { x: real[s|6 ..(2)]; z: real[s..]; n: int[]; }\n"
             " @output { y: real[s..]; }\n @compose {\n"
             "y = with q = x for w : [z, x, z] do..(i -> n) { t = math.add(q, w); yield t; };\n }\n}\n")
TOKEN = re.compile(r"\d+\.\d+|\w+|\.\.|->|&&|\|\||[^\s\w]")
REPLACEMENTS = ["real", "int", "bool", "0", "-1", "1", "7", "2147483647", "1e9", "[", "]", "..", "(", ")", "{", "}",
                ";", ",", ":", "=", "->", "a", "b", "n", "lim", "s", "x", "i", "while", "do", "for", "with", "yield",
                "unroll", "[a, b, c, a, b, c, a]", "[]", "[a]", "[n]", "..(n)", "..(i -> 3)", "true", "~"]


# replacements within a token's class: documents that still parse, to reach composition and runs
CLASSES = [["a", "b", "c", "s", "x", "z", "r", "n", "lim", "i", "y", "t", "u", "f", "m"],
           ["real", "int", "bool"], ["0", "1", "2", "3", "-1", "4096", "2147483647"],
           ["0.0", "2.0", "1.0", "-1.5", "1e9", "1e-45"], ["add", "mul", "max", "sub", "lt", "gt", "and", "select"],
           ["while", "do", "unroll"]]
PACK = re.compile(r"\[[a-z, ]*\]")


def mutate(rng: random.Random, src: str) -> str:
    kind = rng.choice(["delete", "duplicate", "replace", "class", "class", "class", "pack"])
    if kind == "pack":      # a scan input's (or a shape's) list: another length and items
        found = list(PACK.finditer(src))
        if found:
            m = rng.choice(found)
            items = rng.choices(["a", "b", "c", "n", "3"], k=rng.randint(0, 6))
            return src[:m.start()] + "[" + ", ".join(items) + "]" + src[m.end():]
    spans = [m.span() for m in TOKEN.finditer(src)]
    # the graph's declarations and composition, not the imports (the first 6 tokens)
    start = 6
    s, e = spans[rng.randrange(start, len(spans))]
    if kind == "delete":
        return src[:s] + src[e:]
    if kind == "duplicate":
        return src[:e] + " " + src[s:e] + src[e:]
    if kind == "class":
        same = next((c for c in CLASSES if src[s:e] in c), None)
        if same is not None:
            return src[:s] + rng.choice(same) + src[e:]
    return src[:s] + rng.choice(REPLACEMENTS) + src[e:]


def inputs_for(module, entry: str, rng: random.Random) -> list[np.ndarray] | None:
    """Arrays of the entry's argument types (a run-time extent as 2), counts around the
    packs' lengths; None for inputs too large to run."""
    args, _ = io_types(entry_function(module, entry))
    out = []
    for t in args:
        shape = [2 if d < 0 else d for d in t.get_shape()]
        if np.prod(shape) > 10_000:     # a mutated extent (2147483647): imports, not worth running
            return None
        dtype = dtype_of(t.element_type)
        if dtype == np.bool_:
            out.append(np.array(rng.random() < 0.5).reshape(shape) if not shape else
                       np.ones(shape, np.bool_))
        elif np.issubdtype(dtype, np.integer):
            out.append(np.full(shape, rng.choice([-1, 0, 2, 3, 4, 100]), dtype))
        else:
            out.append(np.random.default_rng(rng.randrange(1 << 30)).standard_normal(shape).astype(dtype) * 10)
    return out


def test_token_mutants_import_or_fail_located():
    rng = random.Random(2101)
    imported = failed = 0
    for _ in range(MUTANTS):
        src = rng.choice(BASES)
        for _ in range(rng.choice([1, 1, 2])):
            src = mutate(rng, src)
        try:
            module = import_nnef(src)
        except NnefError as err:
            text = str(err)
            assert LOCATED.match(text) and "internal" not in text and "please report" not in text, (src, text)
            failed += 1
            continue
        imported += 1
        try:
            (fn,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]     # the graph's name may be mutated
            inputs = inputs_for(module, fn.sym_name.data, rng)
            if inputs is not None:
                run(module, inputs, entry=fn.sym_name.data, max_loop_iterations=50)
        except TosaRunError as err:
            assert err.kind in ("error", "unpredictable", "limit"), (src, str(err))
    assert imported > 10 and failed > 10, (imported, failed)


@pytest.mark.parametrize("inputs, body, message", [
    # a bool where math.lt's generic `Y: num` admits int or real (2.3) reached TOSA as an
    # invalid GREATER ("the imported module is not valid ... please report")
    ("a: real[3]; b: real[3]; c: real[3]; n: int[]; lim: bool[];", BASES[2].split("@compose {\n")[1].split("\n }")[0],
     r"<input>:6:\d+: error: in 'math.lt': generic type 'Y' is num \(int or real\), not bool"),
    # `7..` (no length) in a declared shape: "cannot evaluate '...': 'NoneType' object has no
    # attribute 'loc'", unlocated
    ("a: real[3]; b: real[3]; c: real[3]; n: int[]; lim: real[];", "y = a;",
     r"<input>:4:\d+: error: extent '7\.\.' repeats one value: its length '\.\.\(n\)' is required"),
    # an input declared twice became two function arguments %c
    ("a: real[3]; b: real[3]; c: real[3]; n: int[]; c: real[];", "y = a;",
     r"<input>:3:\d+: error: 'c' is declared twice in 'G' \(first at <input>:3:\d+\)"),
])
def test_fuzz_findings_are_located(inputs, body, message):
    src = document(body).replace("a: real[3]; b: real[3]; c: real[3]; n: int[]; lim: real[];", inputs)
    if "repeats" in message:
        src = src.replace("y: real[3];", "y: real[7..];")
    with pytest.raises(NnefError, match=message):
        import_nnef(src)

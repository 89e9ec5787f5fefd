"""Road 2 for formulas over packs of tensors (to_linalg/packs.py): the draft's three writings
of `add_to_all` (2.12: a loop index over the pack items, packed assignment, `unroll`), read
verbatim from the draft; the library's packed outputs (layout.split, layout.unstack) against
numpy; result lists binding packs (2.10); the located errors."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(2612)
# ../shared/spec next to the repository (or next to the directory of worktrees)
DRAFT = next((d / "shared" / "spec" / "nnef-2.0-draft.md" for d in Path(__file__).resolve().parents
              if (d / "shared" / "spec" / "nnef-2.0-draft.md").exists()), Path("/nonexistent"))
LOCATED = r"^\S+:\d+:\d+: error: "

CALLER = """
graph G {
    @input { a: real[2,3]; b: real[2,3]; c: real[2,3]; z: real[2,3]; }
    @output { p: real[2,3]; q: real[2,3]; r: real[2,3]; }
    @compose { [p, q, r] = add_to_all([a, b, c], z); }
}
"""


def _draft_blocks(start: str, end: str) -> list[str]:
    if not DRAFT.exists():
        pytest.skip("draft not available")
    text = DRAFT.read_text()
    part = text[text.index(start):text.index(end)]
    return re.findall(r"```\n(.*?)```", part, re.DOTALL)


def _add_to_all_forms() -> dict[str, str]:
    """The three definitions of add_to_all in draft 2.12; the packed assignment is given as a
    replacement @lower block for the first."""
    indexed = _draft_blocks("Index variables may also be used to address items", "## Packed assignment")[0]
    packed_lower = _draft_blocks("## Packed assignment", "Packed assignment can also be achieved")[0]
    unrolled = _draft_blocks("## Loop unrolling\n\nIn some cases", "## Loop-local values")[0]
    packed = indexed[:indexed.index("@lower")] + packed_lower.strip() + "\n}\n"
    return {"indexed": indexed, "packed": packed, "unroll": unrolled}


@pytest.mark.parametrize("form", ["indexed", "packed", "unroll"])
def test_the_drafts_add_to_all_runs(form):
    src = _add_to_all_forms()[form] + CALLER
    module = import_nnef(src)
    assert sum(o.name == "linalg.generic" for o in module.walk()) == 3      # one per item
    a, b, c, z = (RNG.standard_normal((2, 3)).astype(np.float32) for _ in range(4))
    p, q, r = run(module, [a, b, c, z], entry="G")
    np.testing.assert_array_equal(p, a + z)
    np.testing.assert_array_equal(q, b + z)
    np.testing.assert_array_equal(r, c + z)


def graph(outputs: str, body: str) -> str:
    return (f"import layout;\ngraph G {{\n @input {{ x: real[2,6,3]; }}\n @output {{ {outputs} }}\n"
            f" @compose {{ {body} }}\n}}\n")


@pytest.mark.parametrize("attrs,sizes", [("count=3", [2, 2, 2]), ("sizes=[1,4,1]", [1, 4, 1])])
def test_split_packed_output(attrs, sizes):
    """outputs[ni][si.., zi, ti..] = input[si.., (u * ni ?? offs[ni]) + zi, ti..]: per-item
    extents `..sizes`, one generic per item."""
    x = RNG.standard_normal((2, 6, 3)).astype(np.float32)
    module = import_nnef(graph("a: real; b: real; c: real;", f"[a, b, c] = layout.split{{axis=1, {attrs}}}(x);"),
                         lower_all=True)
    outs = run(module, [x], entry="G")
    for got, ref in zip(outs, np.split(x, np.cumsum(sizes)[:-1], axis=1)):
        np.testing.assert_array_equal(got, ref)


def test_unstack_and_a_pack_result_passed_on():
    """`[a, b..(2)]` binds the first item to a and the other two as the pack b, which concat takes."""
    x = RNG.standard_normal((2, 6, 3)).astype(np.float32)
    module = import_nnef(graph("a: real; c: real;", "[a, b..(2)] = layout.unstack{axis=2, squeeze=false}(x); "
                               "c = layout.concat{axis=2}(b);"), lower_all=True)
    a, c = run(module, [x], entry="G")
    np.testing.assert_array_equal(a, x[:, :, :1])
    np.testing.assert_array_equal(c, x[:, :, 1:])
    module = import_nnef(graph("a: real; b: real;", "[a, b] = layout.unstack{axis=0}(x);"), lower_all=True)
    a, b = run(module, [x], entry="G")
    np.testing.assert_array_equal(a, x[0])
    np.testing.assert_array_equal(b, x[1])


@pytest.mark.parametrize("body,message", [
    ("[a, b] = layout.unstack{axis=2}(x);", "more than the list takes"),
    ("[a, b, c, d] = layout.unstack{axis=2}(x);", "too few for the list"),
    ("a..(2) = math.add(x, x);", "the value is not a pack"),
    ("a..(2) = layout.unstack{axis=2}(x);", "has 3 items, declared 2"),
])
def test_result_binding_errors_are_located(body, message):
    with pytest.raises(NnefError, match=LOCATED + ".*" + re.escape(message)):
        import_nnef(graph("a: real;", body).replace("import layout;", "import layout; import math;"))


def _max_idx_2d_forms() -> dict[str, str]:
    """The draft's max_idx_2d (2.12, Conditional assignment): the single-tensor form (its read
    `x[idx[:,..]]` printed for `x[idx[:,]..]`, repaired here) and the packed-output form (the
    draft's replacement @lower block)."""
    single, packed_lower = _draft_blocks("In more complex cases, the output may be a pack", "## Loop unrolling\n\nIn")
    single = single.replace("x[idx[:,..]]", "x[idx[:,]..]")
    packed = single[:single.index("@output")] + "@output {\n        idx: int[]..(2);\n    }\n    " + \
        packed_lower.strip() + "\n}\n"
    return {"single": single, "packed": packed}


@pytest.mark.parametrize("form", ["single", "packed"])
def test_the_drafts_max_idx_2d_runs(form):
    """An atomic conditional assignment of a pack of indices per step: the single tensor
    `idx[:,]` written item by item in one step (loops.target_writes); the packed output
    compiled as one tensor stacked along a new axis, then split."""
    src = _max_idx_2d_forms()[form]
    out = "i: int[2];" if form == "single" else "i: int[]; j: int[];"
    call = "i = max_idx_2d(x);" if form == "single" else "[i, j] = max_idx_2d(x);"
    src += f"graph G {{ @input {{ x: real[3,4]; }} @output {{ {out} }} @compose {{ {call} }} }}\n"
    for seed in range(3):
        x = np.random.default_rng(seed).standard_normal((3, 4)).astype(np.float32)
        got = run(import_nnef(src), [x], entry="G")
        got = got[0] if form == "single" else np.array(got)
        np.testing.assert_array_equal(got, np.unravel_index(x.argmax(), x.shape))


def test_atomic_packed_assignment_reads_input_packs():
    """best = the pair (xs[0][i], xs[1][i]) at the argmax of xs[0]: the input pack is stacked
    like the output, items read as `xs[0][i,]` or as a whole `xs[i,]`."""
    src = """
operator argmax_pair {
    @input { xs: real[n]..(2); }
    @output { best: real[]..(2); }
    @lower {
        best[] = xs[0,];
        best[] := xs[i,], i < n | xs[0][i,] > best[0][];
    }
}
graph G { @input { a: real[5]; b: real[5]; } @output { p: real[]; q: real[]; }
          @compose { [p, q] = argmax_pair([a, b]); } }
"""
    a, b = (RNG.standard_normal(5).astype(np.float32) for _ in range(2))
    p, q = run(import_nnef(src), [a, b], entry="G")
    assert p == a.max() and q == b[a.argmax()]


def test_atomic_packed_assignment_of_items_of_different_shapes_is_a_located_error():
    src = """
operator f {
    @input { x: real[n]; }
    @output { ys: real[..s]..(2); }
    @using { s = [n, n + 1]; }
    @lower {
        ys[i,] = 0.0, i < n;
        ys[i,] := x[i,], i < n | x[i,] > 0.0;
    }
}
graph G { @input { x: real[3]; } @output { a: real[3]; b: real[4]; } @compose { [a, b] = f(x); } }
"""
    with pytest.raises(NnefError, match=LOCATED + "the items of the packed output 'ys' differ in shape"):
        import_nnef(src)

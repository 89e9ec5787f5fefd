"""Scan inputs (`x : xs`) of NNEF loops whose trip count is data-dependent (a tensor trip count
`do..(i -> n)` or a `while` condition, draft 2.10.1 "Iteration count and iteration index" and
"Condition based looping"): unrolled over the scan inputs' compile-time length, each step a
tosa.cond_if on the run-time stop test. Expected values: numpy loops written from the draft's
rules (the loop stops when the index reaches the count or the condition becomes false; the
scan length bounds the count; a do-while tests after each step). Scan outputs of such loops
are refused with a located error (their pack length would be a run-time value)."""

from __future__ import annotations

import numpy as np
import pytest

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import compose_graph, import_nnef
from tosa_xdsl.interpreter import run

A = np.array([1, 2, 3], np.float32)
B = np.array([10, -20, 30], np.float32)
C = np.array([0.5, 4, -1], np.float32)


def graph(inputs: str, body: str, outputs: str = "y: real[3];") -> str:
    return (f"import math; import layout;\ngraph G {{\n @input {{ {inputs} }}\n @output {{ {outputs} }}\n"
            f" @compose {{\n{body}\n }}\n}}\n")


def reference(init, items, step, count=None, cond=None, pretest=True):
    """The draft's loop: step `it` runs while it < count (the scan length bounds it) and the
    condition holds (tested before every step, or for a do-while after every step)."""
    s = init
    for it, x in enumerate(items):
        if count is not None and it >= count:
            break
        if cond is not None and (pretest or it > 0) and not cond(s):
            break
        s = step(s, x, it)
    return s


def ops(module, name):
    return sum(op.name == name for op in module.walk())


def test_tensor_trip_count_scans_a_prefix():
    """`with s = a for x : [a, b, c] do..(i -> n) {...}`: n = 0 .. 3 (the full length) items."""
    src = graph("a: real[3]; b: real[3]; c: real[3]; n: int[];",
                "y = with s = a for x : [a, b, c] do..(i -> n) "
                "{ t = math.mul(s, 2.0); u = math.add(t, x); f = layout.cast<real>(i); v = math.add(u, f); yield v; };")
    module = import_nnef(src)
    # one cond_if per item; the only while_loop is the check that n does not exceed 3
    assert ops(module, "tosa.cond_if") == 3 and ops(module, "tosa.while_loop") == 1
    for n in range(4):
        (y,) = run(module, [A, B, C, np.array(n, np.int32)], entry="G")
        ref = reference(A, [A, B, C], lambda s, x, i: s * 2 + x + i, count=n)
        np.testing.assert_array_equal(y, ref)


def test_two_scan_inputs_and_two_loop_variables():
    """Two packs scanned in parallel, two loop variables (a running sum and product)."""
    src = graph("a: real[3]; b: real[3]; c: real[3]; n: int[];",
                "p, q = with s = a, r = b for x : [a, b, c], z : [c, c, b] do..(n) "
                "{ s1 = math.add(s, x); r1 = math.mul(r, z); yield s1, r1; };",
                "p: real[3]; q: real[3];")
    module = import_nnef(src)
    for n in (0, 2, 3):
        p, q = run(module, [A, B, C, np.array(n, np.int32)], entry="G")
        np.testing.assert_array_equal(p, reference(A, [A, B, C], lambda s, x, i: s + x, count=n))
        np.testing.assert_array_equal(q, reference(B, [C, C, B], lambda s, x, i: s * x, count=n))


COND = "{ m = math.max_reduce{axes=[0], squeeze=true}(s); c = math.lt(m, lim); yield c; }"


@pytest.mark.parametrize("lim", [0.0, 5.0, 25.0, 60.0, 1000.0])
def test_while_condition_stops_a_scan(lim):
    """`with s = a for x : xs while cond do body` (pretest) and `... do body while cond`
    (do-while: the first step runs before any test): stops at 0 .. 4 steps depending on lim."""
    src = graph("a: real[3]; b: real[3]; lim: real[];",
                f"y = with s = a for x : [b, a, b, a] while {COND} do math.add(s, x);\n"
                f"z = with s = a for x : [b, a, b, a] do math.add(s, x) while {COND};",
                "y: real[3]; z: real[3];")
    module = import_nnef(src)
    y, z = run(module, [A, B, np.array(lim, np.float32)], entry="G")
    items = [B, A, B, A]
    np.testing.assert_array_equal(y, reference(A, items, lambda s, x, i: s + x, cond=lambda s: s.max() < lim))
    np.testing.assert_array_equal(z, reference(A, items, lambda s, x, i: s + x, cond=lambda s: s.max() < lim, pretest=False))


@pytest.mark.parametrize("n, lim", [(0, 1e9), (2, 1e9), (4, 1e9), (4, 25.0), (1, 0.0)])
def test_count_and_condition_together(n, lim):
    """A tensor count and a condition: whichever stops first (draft: "either the iteration
    index reaching the iteration count or the condition becoming false")."""
    src = graph("a: real[3]; b: real[3]; n: int[]; lim: real[];",
                f"y = with s = a for x : [b, a, b, a] while {COND} do..(i -> n) "
                "{ f = layout.cast<real>(i); t = math.mul(x, f); u = math.add(s, t); yield u; };")
    module = import_nnef(src)
    (y,) = run(module, [A, B, np.array(n, np.int32), np.array(lim, np.float32)], entry="G")
    ref = reference(A, [B, A, B, A], lambda s, x, i: s + x * i, count=n, cond=lambda s: s.max() < lim)
    np.testing.assert_array_equal(y, ref)


@pytest.mark.parametrize("n, lim", [(0, 1e9), (1, 1e9), (3, 1e9), (3, 0.5), (9, 4.0)])
def test_do_while_with_a_tensor_count(n, lim):
    """Without scan inputs (a tosa.while_loop): a do-while with `..(i -> n)` runs at most n
    steps, its index counting 0, 1, ..., the condition tested after each step (the first runs
    untested, if n > 0)."""
    src = graph("a: real[3]; n: int[]; lim: real[];",
                "y = with s = a do..(i -> n) { f = layout.cast<real>(i); t = math.add(s, f); u = math.add(t, 1.0); "
                f"yield u; }} while {COND};")
    module = import_nnef(src)
    assert ops(module, "tosa.while_loop") == 1
    (y,) = run(module, [A, np.array(n, np.int32), np.array(lim, np.float32)], entry="G")
    ref = reference(A, [None] * 16, lambda s, x, i: s + i + 1, count=n, cond=lambda s: s.max() < lim, pretest=False)
    np.testing.assert_array_equal(y, ref)


def test_runs_natively(tmp_path):
    """The unrolled cond_if chain and a counted do-while through tosa-run's JIT agree with the
    draft's loops."""
    from tosa_xdsl.tools import tosa_run
    src = graph("a: real[3]; b: real[3]; c: real[3]; n: int[]; lim: real[];",
                "y = with s = a for x : [a, b, c] do..(i -> n) { t = math.mul(s, 2.0); u = math.add(t, x); yield u; };\n"
                f"z = with s = a do..(n) math.add(s, b) while {COND};", "y: real[3]; z: real[3];")
    (tmp_path / "m.sknd").write_text(src)
    for n, lim in ((0, 1e9), (2, 1e9), (3, 1e9), (3, 0.0)):
        args = [str(tmp_path / "m.sknd"), "--entry", "G"]
        for k, arr in enumerate([A, B, C, np.array(n, np.int32), np.array(lim, np.float32)]):
            np.save(tmp_path / f"in{k}.npy", arr)
            args += ["-i", str(tmp_path / f"in{k}.npy")]
        outs = ["-o", str(tmp_path / "y.npy"), "-o", str(tmp_path / "z.npy")]
        assert tosa_run.main(args + outs + ["--backend", "jit", "--no-cache"]) == 0
        ref = reference(A, [A, B, C], lambda s, x, i: s * 2 + x, count=n)
        np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), ref)
        ref = reference(A, [B] * 8, lambda s, x, i: s + x, count=n, cond=lambda s, lim=lim: s.max() < lim, pretest=False)
        np.testing.assert_array_equal(np.load(tmp_path / "z.npy"), ref)


COUNTED_SCAN = "y = with s = a for x : [a, b, c] do..(i -> n) { t = math.mul(s, 2.0); u = math.add(t, x); yield u; };"


def test_a_count_above_the_scan_length_is_a_run_time_error():
    """Draft 2.10.1: with a tensor trip count "the length of the scan inputs **must** be an
    upper bound for the dynamic value of the loop count", and a **must** broken makes the
    document invalid (1.3; a consumer is advised to give an error). Counts up to the pack's
    length 3 run (numpy's loop), 4 and a large one stop the interpreter with an error located
    at the loop (the loop starts at line 6, column 5), not a result of the first 3 steps."""
    from tosa_xdsl.interpreter.errors import TosaRunError
    module = import_nnef(graph("a: real[3]; b: real[3]; c: real[3]; n: int[];", COUNTED_SCAN), file="m.sknd")
    for n in (0, 3):
        (y,) = run(module, [A, B, C, np.array(n, np.int32)], entry="G")
        np.testing.assert_array_equal(y, reference(A, [A, B, C], lambda s, x, i: s * 2 + x, count=n))
    for n in (4, 2**31 - 1):
        with pytest.raises(TosaRunError) as err:
            run(module, [A, B, C, np.array(n, np.int32)], entry="G")
        assert str(err.value).startswith("m.sknd:6:5: error: graph is unpredictable"), str(err.value)


def test_a_count_above_the_scan_length_is_a_native_error(tmp_path, capsys):
    """The same natively (tosa-run's JIT, which checks no REQUIRE): exit 1 with an error at
    the loop, not the first 3 steps' result; the count 3 still runs (numpy's loop)."""
    from tosa_xdsl.tools import tosa_run
    (tmp_path / "m.sknd").write_text(graph("a: real[3]; b: real[3]; c: real[3]; n: int[];", COUNTED_SCAN))
    for n, status in ((3, 0), (4, 1), (100, 1)):
        args = [str(tmp_path / "m.sknd"), "--entry", "G", "-o", str(tmp_path / "y.npy"), "--backend", "jit",
                "--no-cache"]
        for k, arr in enumerate([A, B, C, np.array(n, np.int32)]):
            np.save(tmp_path / f"in{k}.npy", arr)
            args += ["-i", str(tmp_path / f"in{k}.npy")]
        capsys.readouterr()
        assert tosa_run.main(args) == status
        if status == 0:
            ref = reference(A, [A, B, C], lambda s, x, i: s * 2 + x, count=n)
            np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), ref)
        else:
            assert f"{tmp_path / 'm.sknd'}:6:5: error:" in capsys.readouterr().err


@pytest.mark.parametrize("body, message", [
    # a scan output: its pack would have the run-time trip count as its length
    ("y, ys = with s = a for x : [a, b] do..(n) { t = math.add(s, x); yield t, t; };",
     (r"<input>:6:\d+: error: the loop body yields 2 values for 1 loop variables: scan outputs of a loop "
      r"with a tensor trip count or a condition would be a pack of run-time length")),
    # the same without scan inputs (a tosa.while_loop otherwise)
    ("y, zs = with s = a do..(n) { t = math.add(s, b); yield t, t; };",
     r"<input>:6:\d+: error: the loop body yields 2 values for 1 loop variables: scan outputs"),
    ("ys = for x : [a, b] do..(n) math.add(x, a);",
     r"<input>:6:\d+: error: the loop body yields 1 values for 0 loop variables: scan outputs"),
    ("y = with s = a for x : [a, b], z : [a] do..(n) math.add(s, x);",
     r"<input>:6:\d+: error: scan inputs differ in length: \[1, 2\]"),
    ("y = with s = a for x : a do..(n) math.add(s, x);",
     r"<input>:6:\d+: error: scan input of 'x' must be a pack of tensors"),
    ("y = with s = a for x : [a, b] do..(n) math.sum_reduce{axes=[0]}(x);",
     r"<input>:6:\d+: error: a loop variable changes its type or shape in the body"),
    ("y = with s = a for x : [a, b] while s do math.add(s, x);",
     r"<input>:6:\d+: error: a loop condition must be one bool tensor of volume 1"),
])
def test_what_stays_unsupported_is_located(body, message):
    src = graph("a: real[3]; b: real[3]; n: int[];", body)
    with pytest.raises(NnefError, match=message):
        compose_graph(src)

"""Differential test, part 2: our interpreter vs Arm's reference model for every operator
not in test_differential.py (activation, elementwise binary/unary, SELECT, comparison,
reduction, data layout, CAST, RESCALE, CONST, IDENTITY, COND_IF, WHILE_LOOP, variables).

Cases come from cases_elementwise.py: each operator's fragments (every Supported Data Types
row x 2 seeds, random shapes with broadcasting, attributes and edge values) are joined into
a few graphs, so one reference-model run checks ~20-60 operator instances. Comparison:
integers/bools exactly; floats bit-exactly where the spec asks for an exact (or correctly
rounded, 0.5 ulp) result, otherwise against the precise (`-p 1`, fp64) reference with the
operator's own bound (1.10.3 and the operator's Precision Requirements; see the table in
docs/interpreter.md, "Differential coverage"). Graphs whose REQUIRE fails or whose ERROR_IF
holds are run one by one and the verdicts (UNPREDICTABLE / ERROR) must agree."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

from tosa_xdsl import numerics as nx
from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter import TosaRunError, run

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402
from cases import Case  # noqa: E402
from cases_elementwise import Sub, all_subs, batch, split_outputs, verdict_subs  # noqa: E402
from test_differential import _bits_equal as _bits_equal_signed_nan  # noqa: E402
from test_differential import check_dotproduct

if not oracle.REFERENCE_MODEL.exists():
    pytest.skip("tosa reference model not installed", allow_module_level=True)

BY_OP = all_subs()
VERDICT_SUBS = verdict_subs(np.random.default_rng(7))
CHUNK = 48


def _groups():
    groups = []
    for op, subs in BY_OP.items():
        for precise in (False, True):
            part = [s for s in subs if s.precise == precise]
            for k in range(0, len(part), CHUNK):
                groups.append(pytest.param(part[k:k + CHUNK], id=f"{op}-{'precise' if precise else 'default'}-{k // CHUNK}"))
    return groups


def ours(subs: list[Sub]) -> list:
    mlir, inputs = batch(subs)
    module = Parser(make_context(), mlir).parse_module()
    return run(module, inputs)


def reference(subs: list[Sub], precise: bool) -> oracle.RefResult:
    mlir, inputs = batch(subs)
    return oracle.run_mlir(mlir, inputs, precise=precise, verify=all(s.verify for s in subs))


def _locate(subs: list[Sub], precise: bool) -> str:
    """Which fragments fail alone (ours raising / reference not VALID)."""
    msgs = []
    for s in subs:
        try:
            ours([s])
        except TosaRunError as e:
            msgs.append(f"{s.id}: ours: {e}")
        r = reference([s], precise)
        if r.verdict != "VALID":
            msgs.append(f"{s.id}: reference: {r.verdict}: {r.stderr.strip().splitlines()[-3:]}")
    return "\n".join(msgs) or "no single fragment fails"


def _bits_equal(a: np.ndarray, b: np.ndarray, pm0: bool = False) -> np.ndarray:
    """test_differential._bits_equal, with any NaN matching any NaN whatever its sign bit
    (the spec never constrains the sign or payload of a NaN)."""
    same = _bits_equal_signed_nan(a, b, pm0)
    if a.dtype.kind == "f" or a.dtype.kind == "V" or "float" in str(a.dtype):
        same |= np.isnan(a.astype(np.float64)) & np.isnan(np.asarray(b).astype(np.float64))
    return same


def _special(inputs, shape) -> np.ndarray:
    """Elements whose (broadcast) inputs include NaN, an infinity or a zero."""
    m = np.zeros(shape, bool)
    for x in inputs:
        if x.dtype.kind in "iub":
            continue
        v = np.broadcast_to(np.asarray(x).astype(np.float64), shape)
        m |= ~np.isfinite(v) | (v == 0)
    return m


def compare(s: Sub, got: list, want: list) -> list[str]:
    """Failures of fragment s (empty list: it passes)."""
    errs = []
    for (name, shape, t), g, w in zip(s.results, got, want):
        w = np.asarray(w)
        if g.shape != w.shape:
            errs.append(f"{s.id}/{name}: shape ours {g.shape} ref {w.shape}")
            continue
        if s.check in ("exact", "exact_pm0"):
            ok = _bits_equal(g, w.astype(g.dtype), s.check == "exact_pm0")
        elif s.check == "inexact":
            ok = _inexact_ok(s, g)
        elif s.check == "dot":
            ks, out_t, acc_t = s.dot
            case = Case(s.id, "\n".join(s.body), [], "dot", ks=ks, in_t=out_t, out_t=out_t, acc_t=acc_t)
            try:
                check_dotproduct(g, w, s.bound(s.inputs, w), case)
            except AssertionError as e:
                errs.append(str(e).splitlines()[0])
            continue
        else:
            bnd = s.bound(s.inputs, w) if s.check == "bnd" else nx.tosa_reference_ulp(w, t) * s.ulp
            ok = nx.tosa_reference_check_fp_bnd(g, w, bnd, t)
            if s.special_exact:
                sp = _special(s.inputs, g.shape)
                exact = _bits_equal(g, nx.round_to_nearest_float(w, t))
                ok = np.where(sp, exact, ok)
        if not np.all(ok):
            bad = np.argwhere(~np.asarray(ok))
            i = tuple(bad[0])
            try:  # the inputs at that position, where they broadcast to the result
                xs = [np.broadcast_to(x, g.shape)[i].item() for x in s.inputs]
            except ValueError:
                xs = "(see the graph)"
            errs.append(f"{s.id}/{name} [{s.check}]: {len(bad)} mismatches, first at {[int(k) for k in i]}: "
                        f"inputs {xs} ours {g[i]!r} ref {w[i]!r}\n" + "\n".join(s.body))
    return errs


def _inexact_ok(s: Sub, got: np.ndarray) -> np.ndarray:
    """Spec 2.13.2 INEXACT_ROUND: out_ref_min_int <= out_imp <= out_ref_max_int."""
    p = s.rescale
    in_t, out_t = s.row.split("->")
    x = s.inputs[0]
    ext = nx.zero_extend if p["in_u"] else nx.sign_extend
    v = ext(x, in_t).astype(np.float64) - float(ext(np.array(p["izp"]), in_t))
    m = p["mult"].astype(np.float64)
    sh = p["shift"].astype(np.float64)
    if not p["per_channel"]:
        m, sh = m[0], sh[0]
    ozp = float(nx.zero_extend(np.array(p["ozp"]), out_t) if p["out_u"] else p["ozp"])
    out_ref = v * m * np.exp2(-sh)
    err = 0.5 + (3 * np.abs(out_ref) + np.abs(out_ref + ozp)) * 2.0 ** (-23 - 1)
    lo_t, hi_t = (0, nx.maximum_u(out_t)) if p["out_u"] else (nx.minimum_s(out_t), nx.maximum_s(out_t))
    lo = np.clip(np.ceil(out_ref - err + ozp), lo_t, hi_t)
    hi = np.clip(np.floor(out_ref + err + ozp), lo_t, hi_t)
    g = got.astype(np.int64)
    if p["out_u"]:
        g = nx.zero_extend(got, out_t).astype(np.int64)
    return (lo <= g) & (g <= hi)


@pytest.mark.parametrize("subs", _groups())
def test_against_reference_model(subs: list[Sub]):
    precise = subs[0].precise
    try:
        got_all = ours(subs)
    except TosaRunError as e:
        pytest.fail(f"our interpreter failed on the batch: {e}\n{_locate(subs, precise)}")
    ref = reference(subs, precise)
    if ref.verdict != "VALID":
        pytest.fail(f"reference model said {ref.verdict}\n{_locate(subs, precise)}")
    errs = []
    for s, g, w in zip(subs, split_outputs(subs, got_all), split_outputs(subs, ref.outputs)):
        errs += compare(s, g, w)
    assert not errs, "\n".join(errs[:20])


@pytest.mark.parametrize("sub", VERDICT_SUBS, ids=[s.id for s in VERDICT_SUBS])
def test_verdicts_agree(sub: Sub):
    ref = reference([sub], False)
    want = sub.ref_expect or sub.expect  # ref_expect: a documented reference-model difference
    assert ref.verdict == want, f"reference model: {ref.verdict}, expected {want}"
    with pytest.raises(TosaRunError) as info:
        ours([sub])
    kind = {"UNPREDICTABLE": "unpredictable", "ERROR": "error"}[sub.expect]
    assert info.value.kind == kind, f"ours: {info.value.kind}: {info.value}"


def test_coverage_table_is_current():
    """docs/interpreter.md "Differential coverage" holds the table `coverage_rows` generates."""
    from cases_elementwise import coverage_rows

    doc = Path(__file__).resolve().parents[2] / "docs" / "interpreter.md"
    text = doc.read_text()
    begin, end = "<!-- differential-coverage:begin -->", "<!-- differential-coverage:end -->"
    assert begin in text and end in text, "markers missing in docs/interpreter.md"
    current = text.split(begin, 1)[1].split(end, 1)[0].strip()
    want = "\n".join(coverage_rows(BY_OP, VERDICT_SUBS))
    assert current == want, ("docs/interpreter.md coverage table is stale; regenerate with "
                             "`python tests/differential/cases_elementwise.py --write-docs`")

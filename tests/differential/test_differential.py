"""Differential test: our interpreter vs Arm's reference model (tests/oracle.py), one case
per operator x Supported-Data-Types row x repeat (tests/differential/cases.py).

Integers and bools must match exactly. Floating-point results are checked the way the spec's
compliance rules say (1.10.3, per operator; the tolerances are written down in
docs/interpreter.md, "Precision"): the reference runs in precise mode (`-p 1`, fp64
arithmetic), which is the spec's `reference_fp64`; for dot-product operators a second
precise run on |input|, |weight|, |bias| (at least normal_min, all inputs set to the global
maximum unless local_bound) gives the spec's `output_bnd`."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

from tosa_xdsl import numerics as nx
from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter import run

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402
from cases import Case, all_cases  # noqa: E402
from lowering_harness import bits_equal  # noqa: E402

CASES = all_cases()


def ours(case: Case) -> list[np.ndarray]:
    module = Parser(make_context(), case.mlir).parse_module()
    return run(module, case.inputs)


_bits_equal = bits_equal  # integers equal, floats bit for bit (any NaN matches any NaN)


def check_exact(got, want, case: Case, pm0=False):
    for g, w in zip(got, want):
        assert g.shape == w.shape, (g.shape, w.shape)
        ok = _bits_equal(g, np.asarray(w).astype(g.dtype) if g.dtype.kind != "V" else w, pm0)
        bad = np.argwhere(~ok)
        assert ok.all(), (f"{case.id}: {len(bad)} mismatches, first at {bad[0].tolist()}: "
                          f"ours {g[tuple(bad[0])]!r} ref {w[tuple(bad[0])]!r}\n{case.mlir}")


def check_dotproduct(imp, ref, bnd, case: Case) -> None:
    """Spec 1.10.3 tosa_reference_check_dotproduct (per-element ABS_BOUND and the variance
    bound; the data-set bias check S in 3..5 does not apply to random data)."""
    out_t, acc_t = case.out_t, case.acc_t
    imp = np.asarray(imp).astype(np.float64)
    ref = np.asarray(ref).astype(np.float64)
    bnd = np.asarray(bnd).astype(np.float64)
    frac_out, frac_acc = nx.normal_frac(out_t), nx.normal_frac(acc_t)
    ksb = math.ceil(case.ks / 2 ** ((frac_acc - frac_out) / 2)) + (1 if case.has_bias else 0)
    abs_bound = 2 * ksb
    err_sumsq = 0.0
    for i, (im, r, b) in enumerate(zip(imp.reshape(-1), ref.reshape(-1), bnd.reshape(-1))):
        if np.isnan(r):
            assert np.isnan(im), f"{case.id}[{i}]: reference NaN, ours {im}"
            continue
        if np.isnan(b):
            continue
        with np.errstate(over="ignore"):
            grown = nx.round_to_nearest_float(b * (1 + abs_bound * 2.0 ** (-1 - frac_out)), out_t)
        if np.isinf(grown.astype(np.float64)):
            continue
        if b == 0.0:
            assert r == 0.0 and im == 0.0, f"{case.id}[{i}]: zero bound, ref {r} ours {im}"
            continue
        err_bnd = max(b * 2.0 ** (-1 - frac_out), nx.normal_min(out_t))
        err = (im - r) / err_bnd
        assert abs(err) <= abs_bound, (f"{case.id}[{i}]: ours {im!r} ref {r!r} bound {b!r}: "
                                       f"error {err:.3g} > {abs_bound}\n{case.mlir}")
        err_sumsq += err * err
    assert err_sumsq <= 4 * 0.4 * ksb * imp.size, f"{case.id}: variance {err_sumsq} too large"


def check_resize(imp, ref, x, case: Case) -> None:
    """Spec 2.12.1: err_bnd = max(calcAbsErrorBound(max|input|, 20, 0, 1), 0.006 max|input|)."""
    t = case.out_t
    m = float(np.max(np.abs(x.astype(np.float64)))) if x.size else 0.0
    ulp_bnd = 2.0 ** -nx.normal_frac(t) * max(m, nx.normal_min(t)) * 20.0
    err_bnd = max(ulp_bnd, m * 0.006)
    ok = nx.tosa_reference_check_fp_bnd(imp, ref, err_bnd, t)
    assert ok.all(), f"{case.id}: ours {imp[~ok][:4]} ref {np.asarray(ref)[~ok][:4]} bnd {err_bnd}"


def fft_bound(case: Case) -> list[np.ndarray]:
    """output_bnd of the FFT checks: reference_fp64 on |input| (the global maximum, as
    local_bound is false) and |coefficients| (each at least normal_min), i.e.
    v * sum_{iy,ix} (max(|cos a|, nm) + max(|sin a|, nm)) for FFT2D (input interleaves real and
    imaginary parts) and v * sum max(|cos a|, nm) / max(|sin a|, nm) for RFFT2D's real /
    imaginary outputs, a = 2 pi ((iy*oy mod H)/H + (ix*ox mod W)/W)."""
    x = case.inputs[0]
    n, h, w = x.shape
    v = max(float(np.max(np.abs(a.astype(np.float64)))) for a in case.inputs)
    v = max(v, nx.normal_min("fp32"))
    nm = nx.normal_min("fp32")
    wo = w if len(case.inputs) == 2 else w // 2 + 1
    oy, ox, iy, ix = np.meshgrid(np.arange(h), np.arange(wo), np.arange(h), np.arange(w), indexing="ij")
    a = 2 * np.pi * (((iy * oy) % h) / h + ((ix * ox) % w) / w)
    c, s = np.maximum(np.abs(np.cos(a)), nm), np.maximum(np.abs(np.sin(a)), nm)
    if len(case.inputs) == 2:
        both = v * (c + s).sum(axis=(2, 3))
        return [np.broadcast_to(both, (n, h, wo))] * 2
    return [np.broadcast_to(v * c.sum(axis=(2, 3)), (n, h, wo)),
            np.broadcast_to(v * s.sum(axis=(2, 3)), (n, h, wo))]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_against_reference_model(case: Case):
    got = ours(case)
    if case.check in ("exact", "exact_pm0"):
        want = oracle.run(case.mlir, *case.inputs)
        check_exact(got, want, case, pm0=case.check == "exact_pm0")
    elif case.check == "resize":
        (ref,) = oracle.run(case.mlir, *case.inputs, precise=True)
        check_resize(got[0], ref, case.inputs[0], case)
    else:  # "dot" / "fft"
        refs = oracle.run(case.mlir, *case.inputs, precise=True)
        if case.check == "fft":
            bnds = fft_bound(case)
        else:
            bnds = oracle.run(case.mlir, *case.bound_inputs(case.inputs), precise=True)
        for g, r, b in zip(got, refs, bnds):
            check_dotproduct(g, r, b, case)

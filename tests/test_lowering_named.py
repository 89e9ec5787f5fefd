"""`tosa-to-linalg-named`, differentially: every operator x Supported-Data-Types row, random
shapes and attributes (the generators of tests/differential/cases.py), run at TOSA level and
after `tosa-to-linalg-named,tosa-to-tensor,tosa-to-arith` in the interpreter.

Expected values are always the TOSA-level results (whose interpreter is checked against Arm's
reference model in tests/differential):
* integers, MAX_POOL2D and TRANSPOSE: exact (MAX_POOL2D: +0.0 and -0.0 match, spec 2.3.8);
* floating-point dot products (CONV*, MATMUL, AVG_POOL2D): the lowered IR accumulates in
  acc_type step by step while the TOSA-level interpreter sums in fp64, so the spec's dot-product
  rule (1.10.3) applies, with the bound = the TOSA-level run on the case's bound inputs.
The lowered modules are also printed generically and fed to iree-opt and MLIR 22's mlir-opt.
"""

from __future__ import annotations

import subprocess
import zlib

import numpy as np
import pytest
from cases import (
    AVG_ROWS,
    CONV_ROWS,
    MATMUL_ROWS,
    MAX_ROWS,
    Case,
    avg_pool_case,
    conv_case,
    data,
    func,
    matmul_case,
    max_pool_case,
    ttype,
)
from lowering_harness import assert_same, lower, parse, run_both, tosa_ops_left
from test_differential import check_dotproduct

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.interpreter import run
from tosa_xdsl.printing import print_ir

PIPELINE = "tosa-to-linalg-named,tosa-to-tensor,tosa-to-arith"
HWCF = "tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true},tosa-to-tensor,tosa-to-arith"
REPEATS = 2


def _rng(key: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(key.encode()))


TRANSPOSE_TYPES = ["i8", "i16", "i32", "fp16", "bf16", "fp32", "fp8e4m3", "fp8e5m2"]


def transpose_case(rng, t: str, idx: int) -> Case:
    rank = int(rng.integers(1, 5))
    shape = tuple(int(rng.integers(1, 4)) for _ in range(rank))
    perms = [int(p) for p in rng.permutation(rank)]
    oshape = tuple(shape[p] for p in perms)
    body = [f"%r = tosa.transpose %x {{perms = array<i32: {', '.join(map(str, perms))}>}} : "
            f"({ttype(shape, t)}) -> {ttype(oshape, t)}"]
    x = data(rng, shape, t, specials=True)
    return Case(f"transpose-{t}-{idx}", func([("x", shape, t)], body, [("r", oshape, t)]), [x], "exact")


def _cases() -> list[Case]:
    out: list[Case] = []
    for i in range(REPEATS):
        for op in ("conv2d", "conv3d", "depthwise_conv2d", "transpose_conv2d"):
            for row in CONV_ROWS:
                out.append(conv_case(_rng(f"{op}{row}{i}"), op, row, i))
        for row in MATMUL_ROWS:
            out.append(matmul_case(_rng(f"matmul{row}{i}"), row, i))
        for row in AVG_ROWS:
            out.append(avg_pool_case(_rng(f"avg{row}{i}"), row, i))
        for t in MAX_ROWS:
            for mode in ("PROPAGATE", "IGNORE"):
                out.append(max_pool_case(_rng(f"max{t}{mode}{i}"), t, mode, i))
        for t in TRANSPOSE_TYPES:
            out.append(transpose_case(_rng(f"transpose{t}{i}"), t, i))
    return out


CASES = _cases()


def check(case: Case, pipeline: str = PIPELINE) -> None:
    want, got, lowered = run_both(case.mlir, pipeline, case.inputs)
    assert tosa_ops_left(lowered) == [], tosa_ops_left(lowered)
    if case.check in ("exact", "exact_pm0"):
        assert_same(got, want, case.id, pm0=case.check == "exact_pm0")
        return
    assert case.check == "dot" and case.bound_inputs is not None
    # the dot-product rule: reference = TOSA-level result, bound = TOSA-level run on |inputs|
    (bound,) = run(parse(case.mlir), case.bound_inputs(case.inputs))
    assert got[0].shape == want[0].shape and got[0].dtype == want[0].dtype
    check_dotproduct(got[0], want[0], bound, case)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_lowered_matches_tosa(case: Case):
    check(case)


CONV2D = [c for c in CASES if c.id.startswith("conv2d-")]


@pytest.mark.parametrize("case", CONV2D, ids=[c.id for c in CONV2D])
def test_conv2d_hwcf_option(case: Case):
    check(case, HWCF)
    assert "linalg.conv_2d_nhwc_hwcf" in print_ir(lower(case.mlir, HWCF))


def test_integer_conv_is_bit_exact_with_extreme_values():
    """Inputs at the type limits and non-zero zero points: the _q path is exact (i32 wraps
    never happen inside the spec's REQUIRE range)."""
    for row in [r for r in CONV_ROWS if r[0].startswith("i")]:
        case = conv_case(_rng(f"extreme{row}"), "conv2d", row, 0)
        x, w, b = case.inputs
        case.inputs = [np.full_like(x, x.min()), np.full_like(w, w.max()), b]
        check(case)


def _transpose_conv_with_inf() -> tuple[str, list[np.ndarray]]:
    """stride 2: half the taps of each output fall between input rows; a weight of +Inf at such
    a tap must not turn the result into NaN (the spec never multiplies there)."""
    mlir = func(
        [("x", (1, 2, 2, 1), "fp32"), ("w", (1, 2, 2, 1), "fp32"), ("b", (1,), "fp32")],
        ['%izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>',
         '%wzp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>',
         "%r = tosa.transpose_conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, "
         "stride = array<i64: 2, 2>} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, "
         "tensor<1xf32>) -> tensor<1x4x4x1xf32>"],
        [("r", (1, 4, 4, 1), "fp32")])
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32).reshape(1, 2, 2, 1)
    w = np.array([1.0, np.inf, 0.5, 2.0], np.float32).reshape(1, 2, 2, 1)
    return mlir, [x, w, np.array([0.25], np.float32)]


def test_transpose_conv2d_invents_no_nan():
    mlir, inputs = _transpose_conv_with_inf()
    want, got, _ = run_both(mlir, PIPELINE, inputs)
    assert not np.isnan(want[0]).any()  # the spec's result has Inf but no NaN
    assert_same(got, want, "transpose_conv2d inf")


def test_max_pool_all_nan_window_and_negative_infinity():
    """IGNORE: an all-NaN window gives NaN, otherwise NaNs are skipped; PROPAGATE: any NaN wins;
    a window of -Inf gives -Inf (padding must never win)."""
    x = np.array([np.nan, np.nan, -np.inf, 1.0, np.nan, -np.inf, -np.inf, -np.inf], np.float32).reshape(1, 2, 4, 1)
    for mode in ("IGNORE", "PROPAGATE"):
        mlir = func([("x", (1, 2, 4, 1), "fp32")],
                    [f"%r = tosa.max_pool2d %x {{kernel = array<i64: 2, 2>, nan_mode = {mode}, "
                     "pad = array<i64: 1, 0, 1, 1>, stride = array<i64: 1, 2>} : (tensor<1x2x4x1xf32>) -> "
                     "tensor<1x2x3x1xf32>"], [("r", (1, 2, 3, 1), "fp32")])
        want, got, _ = run_both(mlir, PIPELINE, [x])
        assert_same(got, want, mode, pm0=True)
        if mode == "IGNORE":
            assert np.isnan(want[0][0, 0, 0, 0]) and want[0][0, 1, 1, 0] == -np.inf


def test_zero_point_ops_are_erased_or_lowered():
    case = conv_case(_rng("zp"), "conv2d", ("i8", "i8", "i32", "i32"), 0)
    module = lower(case.mlir, "tosa-to-linalg-named")
    assert tosa_ops_left(module) == []


def test_nonconstant_zero_point_is_a_located_error():
    mlir = func([("a", (1, 2, 3), "i8"), ("b", (1, 3, 2), "i8"), ("z", (1,), "i8")],
                ["%r = tosa.matmul %a, %b, %z, %z : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, "
                 "tensor<1xi8>) -> tensor<1x2x2xi32>"], [("r", (1, 2, 2), "i32")])
    with pytest.raises(LocatedError, match="tosa-to-linalg-named: cannot lower 'tosa.matmul': a_zp must be a "
                                           "compile-time constant"):
        lower(mlir, "tosa-to-linalg-named")


# ------------------------------------------------------------------ upstream acceptance


def _accepts(tool, text: str) -> None:
    r = subprocess.run([str(tool), "--allow-unregistered-dialect", "-o", "/dev/null"], input=text,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[:2000]


def _acceptance_text() -> str:
    """One module with a function per lowered case (first repeat), printed generically."""
    chosen = [c for c in CASES if c.id.endswith("-0")]
    texts = []
    for k, case in enumerate(chosen):
        for pipeline in ((PIPELINE, HWCF) if case.id.startswith("conv2d-") else (PIPELINE,)):
            m = lower(case.mlir, pipeline)
            body = print_ir(m, style="generic")
            texts.append(body.replace("@main", f"@f{k}_{len(texts)}"))
    mlir, _ = _transpose_conv_with_inf()
    texts.append(print_ir(lower(mlir, PIPELINE), style="generic").replace("@main", "@tinf"))
    return "\n".join(texts)


@pytest.fixture(scope="module")
def acceptance_text() -> str:
    return _acceptance_text()


def test_iree_opt_accepts_lowered_ir(iree_opt, acceptance_text):
    _accepts(iree_opt, acceptance_text)


def test_mlir_opt_22_accepts_lowered_ir(mlir_opt_22, acceptance_text):
    _accepts(mlir_opt_22, acceptance_text)

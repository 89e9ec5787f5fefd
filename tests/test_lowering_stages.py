"""The cross-stage differential test of the lowering: every TOSA operator x every row of its
Supported Data Types table, run after EVERY stage of the pipeline (docs/lowering.md):

  1 linalg on tensors   tosa-to-linalg-pipeline{validation=false}
  2 linalg on memrefs   + one-shot-bufferize
  3 affine loops        + convert-linalg-to-affine-loops
  4 scf loops           + lower-affine
  5 cf                  + convert-scf-to-cf
  6 llvm, natively      tosa-to-llvm{validation=false} + tosa_xdsl.jit

Expected values come from the TOSA-level interpreter (itself checked against Arm's reference
model in tests/differential), never from a lowered stage:
* stage 1 vs TOSA level: the operator's precision rule, through the comparison helpers of
  tests/test_lowering_{elementwise,tensor_ops}.py and tests/differential (integers exact);
* stages 2-5 vs stage 1: bit for bit (same arithmetic in the same order; a NaN matches any
  NaN) -- so every loop stage inherits stage 1's agreement with the TOSA level;
* stage 6 (JIT) vs stage 1: bit for bit, except where libm computes a transcendental function
  (numpy's and the C library's exp/log/sin/... may differ in the last places: 2 ulp, as
  tests/test_jit.py documents); FFT2D/RFFT2D, whose cos/sin feed a sum, are checked against
  the TOSA level with the FFT dot-product bound instead.

The loop stages are interpreted one scalar op at a time, so stages 1-5 use TINY cases: each
operator x row is drawn from several seeds of the shared generators (tests/differential/
cases.py, cases_elementwise.py) and the smallest draw is kept. The JIT stage takes the
generators' ordinary random shapes (a different draw). Every stage also checks what it must
have removed (no tosa op after 1, no tensor after 2, no linalg after 3, no affine after 4, no
scf after 5). The example model runs at stage 2 and natively, against the reference outputs.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import cases as C
import cases_elementwise as E
import ml_dtypes
import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse, tosa_ops_left
from test_differential import check_dotproduct, check_resize, fft_bound
from test_lowering_elementwise import compare as compare_elementwise
from test_lowering_tensor_ops import check_fragment
from xdsl.dialects.builtin import ModuleOp, TensorType

from tosa_xdsl.interpreter import run

LINALG = "tosa-to-linalg-pipeline{validation=false}"
LLVM = "tosa-to-llvm{validation=false}"


def _no_tensors(m: ModuleOp) -> list[str]:
    return sorted({op.name for op in m.walk()
                   if any(isinstance(v.type, TensorType) for v in (*op.results, *op.operands))})


def _prefix(p: str):
    return lambda m: sorted({op.name for op in m.walk() if op.name.startswith(p)})


# (name, passes added to the previous stage, what must be gone afterwards)
STAGES = [
    ("linalg", LINALG, tosa_ops_left),
    ("memref", "one-shot-bufferize", _no_tensors),
    ("affine", "convert-linalg-to-affine-loops", _prefix("linalg.")),
    ("scf", "lower-affine", _prefix("affine.")),
    ("cf", "convert-scf-to-cf", _prefix("scf.")),
]


def run_stages(src: str, inputs: list) -> tuple[list, list[list]]:
    """(TOSA-level results, [results after each of STAGES])."""
    want = run(parse(src), inputs, allow_unpredictable=True)
    module = parse(src)
    per_stage = []
    for name, passes, gone in STAGES:
        lower(module, passes)  # in place: each stage continues from the previous one
        left = gone(module)
        assert not left, f"after stage {name}: {left} left"
        per_stage.append(run(module, inputs, allow_unpredictable=True))
    return want, per_stage


def assert_loop_stages_equal(per_stage: list[list], what: str) -> None:
    for (name, _, _), got in zip(STAGES[1:], per_stage[1:]):
        assert_same(got, per_stage[0], f"{what} at stage {name} vs linalg")


# ------------------------------------------------------------------ tiny draws

SEEDS = range(8)


def _elems(shapes) -> int:
    return sum(int(np.prod(s)) for s in shapes)


def _sub_size(s: E.Sub) -> int:
    return _elems([sh for _, sh, _ in s.args] + [sh for _, sh, _ in s.results])


def tiny_fragments() -> dict[str, list[E.Sub]]:
    """op -> one fragment per generated position (every row, every RESCALE attribute combo),
    each the smallest of len(SEEDS) draws."""
    draws = [E.all_subs(seed=1000 + k, repeats=1) for k in SEEDS]
    out: dict[str, list[E.Sub]] = {}
    for op, first in draws[0].items():
        for j, s in enumerate(first):
            same = [d[op][j] for d in draws if len(d[op]) > j and d[op][j].id == s.id]
            if s.expect == "VALID":
                out.setdefault(op, []).append(min(same, key=_sub_size))
    return out


_RESULT_TYPES = re.compile(r"->\s*\((.*?)\)\s*\{")
_TENSOR = re.compile(r"tensor<((?:\d+x)*)[a-zA-Z]")


def _case_work(case: C.Case) -> int:
    """Scalar work estimate: output elements x kernel size (the DFT size for FFTs) + inputs."""
    results = _RESULT_TYPES.search(case.mlir).group(1)
    outs = [tuple(int(d) for d in dims.split("x") if d) for dims in _TENSOR.findall(results)]
    return _elems(outs) * max(case.ks, 1) + _elems([np.shape(x) for x in case.inputs])


def graph_draws(rng) -> list[C.Case]:
    """One case per operator x row (x nan_mode) of the one-graph generators; TRANSPOSE and
    the remaining operators come with the fragments."""
    out: list[C.Case] = []
    for op in ("conv2d", "conv3d", "depthwise_conv2d", "transpose_conv2d"):
        out += [C.conv_case(rng, op, row, 0) for row in C.CONV_ROWS]
    out += [C.matmul_case(rng, row, 0) for row in C.MATMUL_ROWS]
    out += [C.avg_pool_case(rng, row, 0) for row in C.AVG_ROWS]
    for mode in ("PROPAGATE", "IGNORE"):
        out += [C.max_pool_case(rng, t, mode, 0) for t in C.MAX_ROWS]
        out += [C.argmax_case(rng, t, mode, 0) for t in C.MAX_ROWS]
    out += [C.gather_case(rng, t, 0) for t in C.GS_ROWS]
    out += [C.scatter_case(rng, t, 0) for t in C.GS_ROWS]
    out += [C.table_case(rng, t, 0) for t in ("i8", "i16")]
    out += [C.resize_case(rng, row, 0) for row in C.RESIZE_ROWS]
    out += [C.fft_case(rng, inv, 0) for inv in (False, True)]
    out.append(C.rfft_case(rng, 0))
    return out


def tiny_cases() -> list[C.Case]:
    draws = [graph_draws(np.random.default_rng(2000 + k)) for k in SEEDS]
    return [min(same, key=_case_work) for same in zip(*draws)]


FRAGMENTS = tiny_fragments()
CASES = tiny_cases()


# ------------------------------------------------------------------ stage 1 vs the TOSA level


def check_case(case: C.Case, got: list, want: list) -> None:
    """The comparisons of tests/test_lowering_named.py / test_lowering_tensor_ops.py."""
    assert [np.shape(g) for g in got] == [np.shape(w) for w in want]
    assert [np.asarray(g).dtype for g in got] == [np.asarray(w).dtype for w in want]
    if case.check in ("exact", "exact_pm0"):
        assert_same(got, want, case.id, pm0=case.check == "exact_pm0")
    elif case.check == "resize":
        check_resize(np.asarray(got[0]), np.asarray(want[0]), case.inputs[0], case)
    elif case.check == "fft":
        for g, w, bnd in zip(got, want, fft_bound(case)):
            check_dotproduct(g, w, bnd, case)
    else:  # "dot": bound = the TOSA-level run on the case's bound inputs
        (bound,) = run(parse(case.mlir), case.bound_inputs(case.inputs))
        check_dotproduct(got[0], want[0], bound, case)


def check_subs(subs: list[E.Sub], got: list, want: list) -> None:
    errs: list[str] = []
    for s, g, w in zip(subs, E.split_outputs(subs, got), E.split_outputs(subs, want)):
        # reductions' outputs do not have their inputs' shape: tensor_ops' check, as there
        if s.check in ("dot", "inexact") or s.op.startswith("REDUCE_"):
            try:
                check_fragment(s, g, w, s.inputs)
            except AssertionError as err:
                errs.append(str(err))
        else:
            errs += compare_elementwise(s, g, w)
    assert not errs, "\n".join(errs[:10])


# ------------------------------------------------------------------ stages 1-5, interpreted


@pytest.mark.parametrize("op", sorted(FRAGMENTS))
def test_fragments_every_stage(op: str):
    subs = FRAGMENTS[op]
    src, inputs = E.batch(subs)
    want, per_stage = run_stages(src, inputs)
    check_subs(subs, per_stage[0], want)
    assert_loop_stages_equal(per_stage, op)


@pytest.mark.parametrize("case", CASES, ids=[c.id.removesuffix("-0") for c in CASES])
def test_graph_case_every_stage(case: C.Case):
    want, per_stage = run_stages(case.mlir, case.inputs)
    check_case(case, per_stage[0], want)
    assert_loop_stages_equal(per_stage, case.id)


# ------------------------------------------------------------------ coverage


# The operators the one-graph cases stage: a case id starts with its operator ("conv2d-...").
GRAPH_OPS = {c.id.split("-")[0].upper() for c in CASES}
# CUSTOM has no semantics to lower (a diagnostic, tests/test_lowering_*); the shape operator
# and the variable read/write come inside the fragments that use them (PAD, VARIABLE, ...)
NOT_ALONE = {"CUSTOM", "CONST_SHAPE", "VARIABLE_READ", "VARIABLE_WRITE"}


def test_every_operator_and_row_is_staged():
    """Every operator of the spec is staged, with every row of its Supported Data Types table."""
    from tosa_xdsl.spec_tables import ops

    spec = {o.name: o for o in ops()}
    assert set(spec) == set(FRAGMENTS) | GRAPH_OPS | NOT_ALONE, set(spec) ^ (set(FRAGMENTS) | GRAPH_OPS | NOT_ALONE)
    for op, subs in FRAGMENTS.items():
        if op in ("COND_IF", "WHILE_LOOP"):
            continue  # no type table of their own: their bodies' operators have
        rows = {s.row if op in ("CAST", "MUL", "RESCALE") else s.row.split("-")[0] for s in subs}
        assert set(E.op_rows(op)) <= rows, (op, sorted(set(E.op_rows(op)) - rows))
    for op in GRAPH_OPS:
        name = op.lower()
        rows = {re.sub(r"-(PROPAGATE|IGNORE)|-(inv|fwd)|-\d+$", "", c.id) for c in CASES
                if c.id.split("-")[0] == name}
        assert len(rows) >= len(spec[op].type_rows), (op, sorted(rows))


def test_cases_are_tiny():
    """The loop stages interpret one scalar op at a time: keep the draws small."""
    assert max(_case_work(c) for c in CASES) <= 4000, max(CASES, key=_case_work).id
    assert max(_sub_size(s) for subs in FRAGMENTS.values() for s in subs) <= 200


def test_rank1_reductions_bufferize():
    """Found by this file: a reduction of a rank-1 tensor keeps its axis through
    `tensor.reshape` (rank 0 -> 1), which one-shot-bufferize had no rule for."""
    src = """func.func @main(%a: tensor<5xi32>, %b: tensor<4xf32>) -> (tensor<1xi32>, tensor<1xf32>) {
  %s = tosa.reduce_sum %a {axis = 0 : i32} : (tensor<5xi32>) -> tensor<1xi32>
  %m = tosa.reduce_max %b {axis = 0 : i32, nan_mode = IGNORE} : (tensor<4xf32>) -> tensor<1xf32>
  return %s, %m : tensor<1xi32>, tensor<1xf32>
}"""
    a = np.array([1, -7, 2**31 - 1, 5, 0], np.int32)
    b = np.array([np.nan, -0.0, -3.0, np.nan], np.float32)
    want, per_stage = run_stages(src, [a, b])
    # the spec's values: the exact sum (in range), IGNORE skips the NaNs
    assert want[0].tolist() == [2147483646]
    assert want[1].tolist() == [-0.0]
    assert_same(per_stage[0], want, "rank-1 reductions")
    assert_loop_stages_equal(per_stage, "rank-1 reductions")


# ------------------------------------------------------------------ stage 6: llvm, natively

# math functions the native code takes from the C library: neither it nor numpy rounds them
# correctly, so their results may differ in the last places
LIBM_MATH = {"math.exp", "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10",
             "math.log1p", "math.sin", "math.cos", "math.tan", "math.tanh", "math.erf",
             "math.powf", "math.rsqrt", "math.atan", "math.atan2", "math.cbrt"}
LIBM_ULPS = 2  # tests/test_jit.py: numpy vs the C library, last places


def _ulp(w: np.ndarray, dtype) -> np.ndarray:
    info = ml_dtypes.finfo(dtype)
    e = np.floor(np.log2(np.maximum(np.abs(w), float(info.smallest_normal))))
    return np.where(np.isfinite(w), 2.0 ** (e - info.nmant), np.inf)


def assert_close_bits(got: list, want: list, ulps: int, what: str) -> None:
    """Bit-equal (any NaN matches any NaN); floats within `ulps` units of `want` if ulps."""
    if not ulps:
        assert_same(got, want, what)
        return
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (what, k, g.shape, w.shape, g.dtype, w.dtype)
        if g.dtype.kind in "iub":
            assert_same([g], [w], what)
            continue
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        with np.errstate(all="ignore"):
            ok = ((g64 == w64) & (np.signbit(g64) == np.signbit(w64))) | (np.isnan(g64) & np.isnan(w64))
            ok |= np.abs(g64 - w64) <= ulps * _ulp(w64, g.dtype)
        if not ok.all():
            i = tuple(np.argwhere(~ok)[0])
            raise AssertionError(f"{what} result {k}: {int((~ok).sum())} mismatches, first at {list(i)}: "
                                 f"jit {g[i]!r} linalg {w[i]!r}")


def _as_args(src_module: ModuleOp, inputs: list) -> list:
    """The generators give rank-0 inputs as shape (1,); native calls need the exact shape."""
    from tosa_xdsl.jit import tosa_signature

    args, _ = tosa_signature(src_module, "main")
    return [np.asarray(x).reshape(tuple(t.get_shape())) for x, t in zip(inputs, args)]


def native(src: str, inputs: list, fp_contract: str = "off") -> list:
    """fp_contract "off" by default here: these tests check that the lowering is exact, bit for
    bit against the interpreted linalg stage (the default FMA in float dot products is within
    the spec's bound instead: tests/native/test_fp_contract.py)."""
    from tosa_xdsl import jit

    module = parse(src)
    return jit.NativeModule(module, pipeline=LLVM, fp_contract=fp_contract).call(_as_args(module, inputs))


# ordinary random shapes (a draw of its own), several operators per native module: the
# compile is the cost
JIT_SUBS = E.all_subs(seed=4242, repeats=1)
JIT_GROUPS = {
    "activation+unary": E.chapter_ops("2.4", "2.6"),
    "binary": E.BINARY_OPS + ["MUL", "SELECT"],
    "reduction+layout": E.REDUCE_OPS + list(E.LAYOUT) + ["CONST", "IDENTITY"],
    "cast": ["CAST"],
    "rescale": ["RESCALE"],
    "control+variables": ["COND_IF", "WHILE_LOOP", "VARIABLE"],
}


@functools.cache
def calls_libm(op: str) -> bool:
    """Does the linalg lowering of the operator's fragments compute a libm function?"""
    subs = [s for s in JIT_SUBS.get(op, []) if s.expect == "VALID"]
    if not subs:
        return False
    src, _ = E.batch(subs)
    return any(o.name in LIBM_MATH for o in lower(src, LINALG).walk())


def test_jit_groups_cover_every_fragment_operator():
    assert set(JIT_SUBS) == {op for ops in JIT_GROUPS.values() for op in ops}


@pytest.mark.parametrize("group", sorted(JIT_GROUPS))
def test_fragments_native(group: str):
    subs = [s for op in JIT_GROUPS[group] for s in JIT_SUBS.get(op, []) if s.expect == "VALID"]
    src, inputs = E.batch(subs)
    want = run(parse(src), inputs, allow_unpredictable=True)
    linalg = run(lower(src, LINALG), inputs, allow_unpredictable=True)
    check_subs(subs, linalg, want)
    got = native(src, inputs)
    for s, g, w in zip(subs, E.split_outputs(subs, got), E.split_outputs(subs, linalg)):
        assert_close_bits(g, w, LIBM_ULPS if calls_libm(s.op) else 0, f"{s.id} native")


JIT_CASES = [c for c in C.all_cases(seed=4243, repeats=1)]


@pytest.mark.parametrize("case", JIT_CASES, ids=[c.id.removesuffix("-0") for c in JIT_CASES])
def test_graph_case_native(case: C.Case):
    want = run(parse(case.mlir), case.inputs, allow_unpredictable=True)
    got = native(case.mlir, case.inputs)
    if case.check == "fft":  # libm cos/sin feed a sum: the spec's FFT bound, vs the TOSA level
        check_case(case, got, want)
        return
    linalg = run(lower(case.mlir, LINALG), case.inputs, allow_unpredictable=True)
    check_case(case, linalg, want)
    assert_same(got, linalg, f"{case.id} native vs linalg")


# ------------------------------------------------------------------ the example model

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _example() -> tuple[str, np.ndarray]:
    return (EXAMPLES / "face_detection_front.tosa.mlir").read_text(), np.load(EXAMPLES / "face_detection_front.input_0.npy")


def test_example_model_on_buffers():
    """Stage 2 (linalg on memrefs) of the example reproduces the reference model's outputs and
    stage 1 bit for bit (stage 1 itself: tests/test_lowering_example.py)."""
    from test_lowering_example import check_outputs

    src, x = _example()
    module = lower(src, LINALG)
    linalg = run(module, [x])
    lower(module, "one-shot-bufferize")
    assert _no_tensors(module) == []
    buffers = run(module, [x])
    check_outputs(buffers)
    assert_same(buffers, linalg, "example on buffers vs linalg")


def test_example_model_native():
    """The whole pipeline to LLVM, run natively: the reference outputs within the example's
    tolerance (examples/demo.py), and stage 1 bit for bit (the model calls no libm function:
    conv, depthwise conv, max pool, add, clamp, cast, layout)."""
    from test_lowering_example import check_outputs

    src, x = _example()
    got = native(src, [x])
    check_outputs(got)
    linalg = run(lower(src, LINALG), [x])
    assert_same(got, linalg, "example native vs linalg")
    check_outputs(native(src, [x], fp_contract="fast"))  # the default: FMA in the convolutions

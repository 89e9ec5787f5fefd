"""Upstream's permissive type rows: every operator on bool, narrow, wide and unsigned integers
(i1, i4, i8, i16, i32, i48, i64, ui8, ui16, ui32) as MLIR 22's op verifier takes them.

- Verdicts: tosa_xdsl/verification/upstream_rows.json holds MLIR 22's (and iree-opt's) verdict
  on one module per (operator, type), written by tests/fixtures/upstream_type_rows.py. Our
  verifier accepts each module MLIR 22 accepts (but the rows producer_types.NOT_YET lists) and
  rejects each one it rejects; tosa-validate reports an accepted row in MLIR 22's words.
- Values: one module per type with every runnable operator; the expected values are the
  operators' meaning computed with numpy on the integers the bits stand for (signless: two's
  complement, unsigned: the unsigned value; arithmetic modulo 2^width). MLIR 22's own lowering,
  run natively (test_wrapping_rows' harness), gives the same values for the signless types;
  our interpreter, every lowering stage and the JIT must give them bit for bit.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from test_wrapping_rows import BIN, STAGES, UPSTREAM, _upstream_native

from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.values import dtype_of
from tosa_xdsl.jit import NativeModule
from tosa_xdsl.tools.tosa_opt import main as tosa_opt
from tosa_xdsl.verification.producer_types import NOT_YET

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
import upstream_type_rows as gen  # noqa: E402

TABLE = json.loads((Path(__file__).resolve().parents[2] / "tosa_xdsl/verification/upstream_rows.json").read_text())
CASES = [(op, t) for op in TABLE["ops"] for t in TABLE["types"]]


def _verify(src: str, args: list[str], tmp_path: Path) -> tuple[int, str]:
    path = tmp_path / "m.mlir"
    path.write_text(src)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_opt([str(path), *args, "-o", "/dev/null"])
    return code, err.getvalue()


def test_verifier_agrees_with_upstream(tmp_path):
    """Every (operator, type) module: ours accepts it iff MLIR 22 does (NOT_YET: both reject
    or only upstream accepts)."""
    wrong = []
    for op, t in CASES:
        entry = TABLE["ops"][op][t]
        upstream = entry["mlir-22"] == "ok"
        code, err = _verify(gen.module(op, t), [], tmp_path)
        want = upstream and t not in NOT_YET.get(op, ())
        if (code == 0) != want:
            wrong.append(f"{op} {t}: ours {'accepts' if code == 0 else 'rejects: ' + err.strip()[:200]}, "
                         f"upstream {entry['mlir-22']}")
    assert not wrong, "\n".join(wrong)


def _errors(text: str) -> list[str]:
    return [m.strip() for m in re.findall(r"error: (.*)", text)]


def test_validate_reports_as_upstream(tmp_path):
    """tosa-validate on the accepted rows beyond the profiles: MLIR 22's message (unsigned:
    its rule, then the pass that fixes it)."""
    wrong = []
    for op, t in CASES:
        entry = TABLE["ops"][op][t]
        want = entry.get("mlir-22 tosa-validate", "ok")
        # i64 keeps its EXT-INT64 report (test_torch_models; docs/producers.md)
        if entry["mlir-22"] != "ok" or want == "ok" or t in NOT_YET.get(op, ()) or t == "i64":
            continue
        code, err = _verify(gen.module(op, t), ["-p", "tosa-validate"], tmp_path)
        # the report on the op upstream's names (RESCALE on ui8: its zero point's tosa.const;
        # we also report the rescale itself, docs/producers.md)
        ours = [e for e in _errors(err) if e.split(" op ", 1)[0] == want.split(" op ", 1)[0]]
        fix = "; run tosa-convert-integer-type-to-signless" if t.startswith("ui") else ""
        if code != 1 or not ours or ours[-1] != want + fix:
            wrong.append(f"{op} {t}:\n  ours     {ours[-1:] }\n  upstream {want}")
    assert not wrong, "\n".join(wrong)


# ------------------------------------------------------------------ values

def _width(t: str) -> int:
    return int(t.lstrip("ui")) if t != "i1" else 1


def _meaning(x: np.ndarray, t: str) -> np.ndarray:
    """The integers the stored bits stand for (i1: true is -1, as a signless 1-bit value)."""
    v = np.asarray(x).astype(np.int64)
    return -v if t == "i1" else v


def _bits(v, t: str) -> np.ndarray:
    """v modulo 2^width, stored as the type's numpy dtype (signless: sign-extended)."""
    w = _width(t)
    v = np.asarray(v).astype(np.int64)
    if w < 64:
        v = v & ((1 << w) - 1)
        if not t.startswith("ui"):
            v = np.where(v >= 1 << (w - 1), v - (1 << w), v)
    return (v & 1).astype(bool) if t == "i1" else v.astype(dtype_of(parse_type(t)))


def parse_type(t: str):
    return parse(f"func.func @f(%a: tensor<1x{t}>) {{\n  return\n}}\n").body.block.first_op.function_type.inputs.data[0]


def _range(t: str) -> tuple[int, int]:
    w = _width(t)
    return (0, (1 << w) - 1) if t.startswith("ui") else (-(1 << (w - 1)), (1 << (w - 1)) - 1)


def _clz(v: np.ndarray, t: str) -> np.ndarray:
    w = _width(t)
    u = np.asarray(v).astype(np.int64) & ((1 << w) - 1) if w < 64 else v
    return np.array([w - int(x).bit_length() for x in u.reshape(-1)]).reshape(u.shape)


# operator -> expected value from (a, b, s: their meanings, t); s are shift amounts in 0..w-1
EXPECT = {
    "ADD": lambda a, b, s, t: _bits(a + b, t),
    "SUB": lambda a, b, s, t: _bits(a - b, t),
    "MUL": lambda a, b, s, t: _bits(a * b, t),
    "MAXIMUM": lambda a, b, s, t: _bits(np.maximum(a, b), t),
    "MINIMUM": lambda a, b, s, t: _bits(np.minimum(a, b), t),
    "BITWISE_AND": lambda a, b, s, t: _bits(a & b, t),
    "BITWISE_OR": lambda a, b, s, t: _bits(a | b, t),
    "BITWISE_XOR": lambda a, b, s, t: _bits(a ^ b, t),
    "LOGICAL_LEFT_SHIFT": lambda a, b, s, t: _bits(a << s, t),
    "LOGICAL_RIGHT_SHIFT": lambda a, b, s, t: _bits((a & ((1 << _width(t)) - 1)) >> s, t),
    "ARITHMETIC_RIGHT_SHIFT": lambda a, b, s, t: _bits(a >> s, t),  # unsigned a: zeros shift in
    "EQUAL": lambda a, b, s, t: a == b,
    "GREATER": lambda a, b, s, t: a > b,
    "GREATER_EQUAL": lambda a, b, s, t: a >= b,
    "ABS": lambda a, b, s, t: _bits(np.abs(a), t),
    "BITWISE_NOT": lambda a, b, s, t: _bits(~a, t),
    "CLZ": lambda a, b, s, t: _bits(_clz(a, t), t),
    "IDENTITY": lambda a, b, s, t: _bits(a, t),
    "NEGATE": lambda a, b, s, t: _bits(np.clip(-a, *_range(t)), t),  # saturating, as upstream's
    # bounds 0 and `1 : t` (i1: true, which is -1: MLIR 22's lowering clips to true everywhere)
    "CLAMP": lambda a, b, s, t: _bits(np.minimum(np.maximum(a, 0), -1 if t == "i1" else 1), t),
    "SELECT": lambda a, b, s, t: _bits(np.where(np.array([True, False, True]), a, b), t),
    "REDUCE_ALL": lambda a, b, s, t: _bits((a != 0).all(0, keepdims=True), t),  # the spec's &&: 1 or 0
    "REDUCE_ANY": lambda a, b, s, t: _bits((a != 0).any(0, keepdims=True), t),
    "REDUCE_MAX": lambda a, b, s, t: _bits(a.max(0, keepdims=True), t),
    "REDUCE_MIN": lambda a, b, s, t: _bits(a.min(0, keepdims=True), t),
    "REDUCE_SUM": lambda a, b, s, t: _bits(a.sum(0, keepdims=True), t),
    "REDUCE_PRODUCT": lambda a, b, s, t: _bits(np.prod(a.astype(np.uint64), 0, keepdims=True).astype(np.int64), t),
    "ARGMAX": lambda a, b, s, t: a.argmax(0).astype(np.int32),
    "CONCAT": lambda a, b, s, t: _bits(np.concatenate([a, b]), t),
    "PAD": lambda a, b, s, t: _bits(np.pad(a, ((1, 0), (0, 2))), t),
    "RESHAPE": lambda a, b, s, t: _bits(a.reshape(3, 4), t),
    "REVERSE": lambda a, b, s, t: _bits(a[:, ::-1], t),
    "SLICE": lambda a, b, s, t: _bits(a[1:3, 0:3], t),
    "TILE": lambda a, b, s, t: _bits(np.tile(a, (1, 2)), t),
    "TRANSPOSE": lambda a, b, s, t: _bits(a.T, t),
    "GATHER": lambda a, b, s, t: _bits(a[[3, 0]][None], t),
    "SCATTER": lambda a, b, s, t: _bits(a[None], t),  # rows 3 and 0 get rows 1 and 2 of a... see below
    "CAST:from": lambda a, b, s, t: (a != 0 if t == "i1" else a).astype(np.float32),  # bool reads 0/1
    # round to f32 (nearest even), back with saturation to the type's range (bool: != 0)
    "CAST:to": lambda a, b, s, t: (a != 0) if t == "i1" else _bits(
        np.clip(a.astype(np.float32).astype(np.float64), *_range(t)).astype(np.int64), t),
    "CONST": lambda a, b, s, t: _bits(np.zeros((4, 3), np.int64), t),
    "MUL:wide": lambda a, b, s, t: _bits(a * b, "i32").astype(np.int32),  # the values' product, low 32 bits
    # upstream's linalg.matmul: the inputs' values (i1: true is -1) cast to i32, sums modulo 2^32
    "MATMUL": lambda a, b, s, t: _bits(a.reshape(1, 4, 3) @ b.reshape(1, 3, 4), "i32").astype(np.int32),
    # upstream's pooling sum: values cast to i32, summed modulo 2^32 (read signed), then the
    # spec's apply_scale_32 with reciprocal_scale(4) (multiplier 2^30 + 1, shift 32, single
    # rounding) and the clip to the type's range
    "AVG_POOL2D": lambda a, b, s, t: _bits(np.clip((_bits(sum(
        a[i:i + 3, j:j + 2] for i in (0, 1) for j in (0, 1)), "i32").astype(np.int64) * ((1 << 30) + 1)
        + (1 << 31)) >> 32, *_range(t)).reshape(1, 3, 2, 1), t),
    # integer POW (no upstream lowering): math.ipowi's x^e modulo 2^width (Python's pow)
    "POW": lambda a, b, s, t: _bits(np.vectorize(lambda x, e: pow(int(x), int(e), 1 << 62))(
        a, -s if t == "i1" else s), t),
    # multiplier 2^14, shift 14: the value itself, clipped to the output's range
    "RESCALE": lambda a, b, s, t: _bits(a, t),
    # input_unsigned = false: an unsigned tensor's bits read signed (ui8 255 -> -1)
    "RESCALE:to_i32": lambda a, b, s, t: _bits(_bits(a, t[1:]) if t.startswith("ui") else a, "i32").astype(np.int32),
    "MAX_POOL2D": lambda a, b, s, t: _bits(np.maximum.reduce(
        [a[i:i + 3, j:j + 2] for i in (0, 1) for j in (0, 1)]).reshape(1, 3, 2, 1), t),
}
EXPECT["SCATTER"] = lambda a, b, s, t: _bits(np.stack([a[1], a[1], a[2], a[0]])[None], t)
# operators whose second operand is %sh (amounts 0..width-1): the shifts, and POW's exponent
SHIFTS = ("LOGICAL_LEFT_SHIFT", "LOGICAL_RIGHT_SHIFT", "ARITHMETIC_RIGHT_SHIFT", "POW")
SIGNLESS = ("i1", "i4", "i8", "i16", "i48")
UNSIGNED = ("ui8", "ui16", "ui32")


def _runnable(op: str, t: str) -> bool:
    """A row beyond the spec that our verifier accepts (spec rows have their own tests)."""
    entry = TABLE["ops"][op][t]
    return (op in EXPECT and entry["mlir-22"] == "ok" and entry.get("mlir-22 tosa-validate", "ok") != "ok"
            and t not in NOT_YET.get(op, ()))


def _batch(t: str, skip: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """One func with every runnable operator on t: (module text, operator per result)."""
    ops = [op for op in EXPECT if _runnable(op, t) and op not in skip]
    ty = f"tensor<4x3x{t}>"
    lines, results = [], []
    for op in ops:
        single = gen.module(op, t)
        body = single.split("{\n", 1)[1].rsplit("\n  return", 1)[0]
        result_type = single.split("-> ", 1)[1].split(" {", 1)[0]
        if op in SHIFTS:
            body = body.replace("%b", "%sh")
        tag = re.sub(r"\W", "_", op.lower())
        body = re.sub(r"%(?!a\b|b\b|sh\b)(\w+)", lambda m: f"%{tag}_{m.group(1)}", body)
        lines.append(body)
        results.append((f"%{tag}_r", result_type))
    text = (f"func.func @main(%a: {ty}, %b: {ty}, %sh: {ty}) -> ({', '.join(r for _, r in results)}) {{\n"
            + "\n".join(lines) + f"\n  return {', '.join(n for n, _ in results)} : "
            + ", ".join(r for _, r in results) + "\n}\n")
    return text, ops


def _inputs(t: str, seed: int = 1) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    w = _width(t)
    lo, hi = _range(t)
    if w == 48:
        lo, hi = -(1 << 20), 1 << 20  # CAST to f32 stays exact
    a, b = (rng.integers(lo, hi, (4, 3), endpoint=True) for _ in range(2))
    a[0, :3] = [hi, lo, 0]  # the extremes
    b[0, :3] = [hi, hi, lo]
    s = rng.integers(0, w - 1, (4, 3), endpoint=True)
    return [_bits(v, t) for v in (a, b, s)]


def _expected(t: str, ops: list[str], xs: list[np.ndarray]) -> list[np.ndarray]:
    a, b = (_meaning(x, t) for x in xs[:2])
    s = np.asarray(xs[2]).astype(np.int64) & 0xFF if t != "i1" else np.zeros((4, 3), np.int64)
    return [EXPECT[op](a, b, s, t) for op in ops]


@pytest.mark.parametrize("t", SIGNLESS + UNSIGNED)
def test_values(t):
    src, ops = _batch(t)
    xs = _inputs(t)
    want = _expected(t, ops, xs)
    got = run(parse(src), xs)
    for op, g, w in zip(ops, got, want):
        assert_same([g], [w], f"{t} {op} interpreter")
    for stage in STAGES:
        assert_same(run(lower(src, stage), xs), want, f"{t} {stage}")
    assert_same(NativeModule(parse(src), pipeline="tosa-to-llvm{validation=false}").call(xs), want, f"{t} jit")


@pytest.mark.skipif(not (BIN / "mlir-opt").exists(), reason="MLIR 22 not installed")
@pytest.mark.parametrize("t", ("i1", "i8", "i16"))
def test_expectations_are_upstreams_values(t):
    """For signless types our expected values are what MLIR 22's own lowering computes. (Not
    for i4 and i48, nor SCATTER's i1 copy: MLIR 22's memref lowering sizes their elements in
    bits / 8, not as LLVM stores them, so its native code reads and writes the wrong bytes:
    garbage and crashes.)"""
    # REDUCE_ALL / REDUCE_ANY on integers: upstream's lowering refuses them ("failed to legalize")
    # POW on integers: upstream has no lowering either ("failed to legalize")
    src, ops = _batch(t, skip=("REDUCE_ALL", "REDUCE_ANY", "POW") + (("SCATTER",) if t == "i1" else ()))
    xs = _inputs(t)
    want = _expected(t, ops, xs)
    assert_same(_upstream_native(src, xs, want, FULL_UPSTREAM), want, f"{t} MLIR 22")


# every TOSA conversion upstream has (data layout in tosa-to-linalg-named / -tensor, SCATTER
# in tosa-to-scf)
FULL_UPSTREAM = UPSTREAM.replace("func.func(tosa-to-linalg),", "func.func(tosa-to-scf),func.func(tosa-to-linalg-named),"
                                 "func.func(tosa-to-linalg),func.func(tosa-to-tensor),"
                                 "func.func(tosa-to-arith{include-apply-rescale=true}),").replace(
    "expand-strided-metadata,", "expand-strided-metadata,lower-affine,")  # the slices' index maps


def _conv_module(t: str) -> str:
    """CONV2D on t with i32 accumulator: a as a 1x4x3x1 image, b as three 2x2 filters, a bias."""
    ty = f"tensor<4x3x{t}>"
    return f"""func.func @main(%a: {ty}, %b: {ty}) -> tensor<1x3x2x3xi32> {{
  %s5 = tosa.const_shape {{values = dense<[1, 4, 3, 1]> : tensor<4xindex>}} : () -> !tosa.shape<4>
  %sw = tosa.const_shape {{values = dense<[3, 2, 2, 1]> : tensor<4xindex>}} : () -> !tosa.shape<4>
  %v = tosa.reshape %a, %s5 : ({ty}, !tosa.shape<4>) -> tensor<1x4x3x1x{t}>
  %w = tosa.reshape %b, %sw : ({ty}, !tosa.shape<4>) -> tensor<3x2x2x1x{t}>
  %z = "tosa.const"() <{{values = dense<0> : tensor<1x{t}>}}> : () -> tensor<1x{t}>
  %bias = "tosa.const"() <{{values = dense<[1, 2, -3]> : tensor<3xi32>}}> : () -> tensor<3xi32>
  %r = tosa.conv2d %v, %w, %bias, %z, %z {{acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : (tensor<1x4x3x1x{t}>, tensor<3x2x2x1x{t}>, tensor<3xi32>, tensor<1x{t}>, tensor<1x{t}>) -> tensor<1x3x2x3xi32>
  return %r : tensor<1x3x2x3xi32>
}}
"""


@pytest.mark.parametrize("t", ("i1", "i4", "i32", "i48", "i64", "ui32"))
def test_conv2d_values(t):
    """CONV2D on upstream's rows (T input and weights, i32 accumulator): upstream's
    linalg.conv_2d_nhwc_fhwc casts each value to i32 (signless: sign-extended, i1 true is -1;
    unsigned: zero-extended; i48/i64: the low 32 bits) and sums modulo 2^32, then adds the bias
    (arith.addi, modulo 2^32). i32 also against MLIR 22 run natively."""
    src = _conv_module(t)
    xs = _inputs(t)[:2]
    x, k = (_meaning(v, t) for v in xs)
    k = k.reshape(3, 2, 2)
    acc = np.array([[[(x[i:i + 2, j:j + 2] * k[o]).sum() for o in range(3)] for j in range(2)] for i in range(3)])
    want = [_bits(acc + np.array([1, 2, -3]), "i32").astype(np.int32)[None]]
    assert_same(run(parse(src), xs), want, f"{t} interpreter")
    for stage in STAGES:
        assert_same(run(lower(src, stage), xs), want, f"{t} {stage}")
    assert_same(NativeModule(parse(src), pipeline="tosa-to-llvm{validation=false}").call(xs), want, f"{t} jit")
    if t == "i32" and (BIN / "mlir-opt").exists():
        assert_same(_upstream_native(src, xs, want, FULL_UPSTREAM), want, f"{t} MLIR 22")


@pytest.mark.parametrize("op, t", [("MAXIMUM", "i8"), ("GREATER", "ui16")])
def test_tosa_run_profile_reports_as_upstream(op, t, tmp_path):
    """`tosa-run --profile` runs the same check as tosa-validate: MLIR 22's words, exit 1."""
    from tosa_xdsl.tools.tosa_run import main as tosa_run

    path = tmp_path / "m.mlir"
    path.write_text(gen.module(op, t))
    args = [str(path)]
    for i, x in enumerate(_inputs(t)[:2]):
        np.save(tmp_path / f"x{i}.npy", x)
        args += ["-i", str(tmp_path / f"x{i}.npy")]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_run([*args, "--profile", "pro_int"])
    fix = "; run tosa-convert-integer-type-to-signless" if t.startswith("ui") else ""
    assert code == 1 and _errors(err.getvalue())[-1] == TABLE["ops"][op][t]["mlir-22 tosa-validate"] + fix
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert tosa_run(args) == 0  # without a profile it runs


def test_unsigned_matmul_pool_conv_use_the_unsigned_values():
    """MATMUL, AVG_POOL2D, CONV2D on ui8 (the spec's i8 rows widened; zero points 0 by
    ERROR_IF): numpy's products and sums of the unsigned values; AVG_POOL2D rounds acc / 4 half
    up (apply_scale_32 with reciprocal_scale(4) = 2^30 >> 32)."""
    src = """func.func @main(%a: tensor<1x4x3x1xui8>, %w: tensor<1x2x2x1xui8>) -> (tensor<1x3x2x1xi32>, tensor<1x3x2x1xui8>, tensor<1x4x4xi32>) {
  %z = "tosa.const"() <{values = dense<0> : tensor<1xui8>}> : () -> tensor<1xui8>
  %bias = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %c = tosa.conv2d %a, %w, %bias, %z, %z {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x3x1xui8>, tensor<1x2x2x1xui8>, tensor<1xi32>, tensor<1xui8>, tensor<1xui8>) -> tensor<1x3x2x1xi32>
  %p = tosa.avg_pool2d %a, %z, %z {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x3x1xui8>, tensor<1xui8>, tensor<1xui8>) -> tensor<1x3x2x1xui8>
  %s3 = tosa.const_shape {values = dense<[1, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %ma = tosa.reshape %a, %s3 : (tensor<1x4x3x1xui8>, !tosa.shape<3>) -> tensor<1x4x3xui8>
  %mb = tosa.reshape %a, %s4 : (tensor<1x4x3x1xui8>, !tosa.shape<3>) -> tensor<1x3x4xui8>
  %m = tosa.matmul %ma, %mb, %z, %z : (tensor<1x4x3xui8>, tensor<1x3x4xui8>, tensor<1xui8>, tensor<1xui8>) -> tensor<1x4x4xi32>
  return %c, %p, %m : tensor<1x3x2x1xi32>, tensor<1x3x2x1xui8>, tensor<1x4x4xi32>
}
"""
    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, (1, 4, 3, 1), endpoint=False).astype(np.uint8)
    a[0, 0, 0, 0] = 255
    w = rng.integers(128, 256, (1, 2, 2, 1)).astype(np.uint8)  # all with the top bit set
    x, k = a[0, :, :, 0].astype(np.int64), w[0, :, :, 0].astype(np.int64)
    windows = [[x[i:i + 2, j:j + 2] for j in range(2)] for i in range(3)]
    want = [np.array([[(v * k).sum() for v in row] for row in windows], np.int32).reshape(1, 3, 2, 1),
            np.array([[np.floor(v.sum() / 4 + 0.5) for v in row] for row in windows]).astype(np.uint8).reshape(1, 3, 2, 1),
            (x.reshape(1, 4, 3) @ x.reshape(1, 3, 4)).astype(np.int32)]
    xs = [a, w]
    assert_same(run(parse(src), xs), want, "interpreter")
    for stage in STAGES:
        assert_same(run(lower(src, stage), xs), want, stage)
    assert_same(NativeModule(parse(src), pipeline="tosa-to-llvm{validation=false}").call(xs), want, "jit")


def test_integer_pow_negative_exponents():
    """POW on i8 with negative exponents (math.ipowi's rule, MLIR's MathToFuncs expansion):
    base 1 -> 1, base -1 -> -1 for odd and 1 for even exponents, other bases -> 0; and base 0
    to a negative power is unpredictable (the interpreter's REQUIRE)."""
    src = """func.func @main(%a: tensor<6xi8>, %b: tensor<6xi8>) -> tensor<6xi8> {
  %r = tosa.pow %a, %b : (tensor<6xi8>, tensor<6xi8>) -> tensor<6xi8>
  return %r : tensor<6xi8>
}
"""
    xs = [np.array([1, -1, -1, 2, -128, 3], np.int8), np.array([-5, -3, -128, -1, -2, 5], np.int8)]
    want = [np.array([1, -1, 1, 0, 0, 243 - 256], np.int8)]  # 3^5 = 243 modulo 2^8
    assert_same(run(parse(src), xs), want, "interpreter")
    for stage in STAGES:
        assert_same(run(lower(src, stage), xs), want, stage)
    assert_same(NativeModule(parse(src), pipeline="tosa-to-llvm{validation=false}").call(xs), want, "jit")
    with pytest.raises(Exception, match="unpredictable"):
        run(parse(src), [np.array([0] * 6, np.int8), xs[1]])


def _conv_form_module(form: str, t: str) -> tuple[str, str]:
    """DEPTHWISE_CONV2D, TRANSPOSE_CONV2D or CONV3D on t with an i32 accumulator: a as the
    image, b as the 12 weights, bias [1, 2, -3]: (module, result type)."""
    ty = f"tensor<4x3x{t}>"
    image, weights, out, op, attrs = {
        "DEPTHWISE_CONV2D": ("1, 4, 3, 1", "2, 2, 1, 3", "1x3x2x3", "depthwise_conv2d",
                             "dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>"),
        "TRANSPOSE_CONV2D": ("1, 4, 3, 1", "3, 2, 2, 1", "1x5x4x3", "transpose_conv2d",
                             "out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>"),
        "CONV3D": ("1, 1, 4, 3, 1", "3, 1, 2, 2, 1", "1x1x3x2x3", "conv3d", "dilation = array<i64: 1, 1, 1>, "
                   "pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>"),
    }[form]
    it, wt, rt = (f"tensor<{s.replace(', ', 'x')}x{t}>" for s in (image, weights, "x"))
    rt = f"tensor<{out}xi32>"
    n_i, n_w = image.count(",") + 1, weights.count(",") + 1
    return f"""func.func @main(%a: {ty}, %b: {ty}) -> {rt} {{
  %si = tosa.const_shape {{values = dense<[{image}]> : tensor<{n_i}xindex>}} : () -> !tosa.shape<{n_i}>
  %sw = tosa.const_shape {{values = dense<[{weights}]> : tensor<{n_w}xindex>}} : () -> !tosa.shape<{n_w}>
  %v = tosa.reshape %a, %si : ({ty}, !tosa.shape<{n_i}>) -> {it}
  %w = tosa.reshape %b, %sw : ({ty}, !tosa.shape<{n_w}>) -> {wt}
  %z = "tosa.const"() <{{values = dense<0> : tensor<1x{t}>}}> : () -> tensor<1x{t}>
  %bias = "tosa.const"() <{{values = dense<[1, 2, -3]> : tensor<3xi32>}}> : () -> tensor<3xi32>
  %r = tosa.{op} %v, %w, %bias, %z, %z {{acc_type = i32, {attrs}}} : ({it}, {wt}, tensor<3xi32>, tensor<1x{t}>, tensor<1x{t}>) -> {rt}
  return %r : {rt}
}}
""", rt


def _conv_form_expected(form: str, x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The spec's accumulation loops on the values (x 4x3 image, k the 12 weights), int64."""
    if form == "TRANSPOSE_CONV2D":  # out[iy + ky, ix + kx, oc] += x[iy, ix] * w[oc, ky, kx]
        w = k.reshape(3, 2, 2)
        acc = np.zeros((5, 4, 3), np.int64)
        for ky in range(2):
            for kx in range(2):
                acc[ky:ky + 4, kx:kx + 3] += x[:, :, None] * w[:, ky, kx]
        return acc[None]
    w = k.reshape(2, 2, 3) if form == "DEPTHWISE_CONV2D" else np.moveaxis(k.reshape(3, 2, 2), 0, -1)
    acc = np.array([[[(x[i:i + 2, j:j + 2] * w[:, :, o]).sum() for o in range(3)] for j in range(2)]
                    for i in range(3)])
    return acc[None, None] if form == "CONV3D" else acc[None]


@pytest.mark.parametrize("form", ("DEPTHWISE_CONV2D", "TRANSPOSE_CONV2D", "CONV3D"))
@pytest.mark.parametrize("t", ("i1", "i4", "i32", "i48", "ui32"))
def test_conv_forms_values(form, t):
    """The other convolutions on upstream's rows: as CONV2D (test_conv2d_values), each value
    cast to i32 and summed modulo 2^32, bias added modulo 2^32."""
    src, _ = _conv_form_module(form, t)
    xs = _inputs(t)[:2]
    x, k = (_meaning(v, t) for v in xs)
    want = [_bits(_conv_form_expected(form, x, k) + np.array([1, 2, -3]), "i32").astype(np.int32)]
    assert_same(run(parse(src), xs), want, f"{form} {t} interpreter")
    for stage in STAGES:
        assert_same(run(lower(src, stage), xs), want, f"{form} {t} {stage}")
    assert_same(NativeModule(parse(src), pipeline="tosa-to-llvm{validation=false}").call(xs), want, f"{form} {t} jit")

"""Native execution (tosa_xdsl.jit over convert-to-llvm) against the interpreter.

Each case is one elementwise kernel on memrefs (an scf.for over N elements: load the
operands, apply the op, store the result), run twice on the same inputs:
  * expected: our interpreter on the scf/memref module (tosa_xdsl/interpreter/lowered, itself
    checked against numpy and, through the TOSA level, Arm's reference model);
  * got: convert-scf-to-cf + convert-to-llvm, JIT-compiled, called on the numpy buffers.
Integers and exactly-rounded float ops must agree bit for bit (any NaN matches any NaN);
libm-backed transcendental functions within 2 ulp (numpy's and the C library's exp/log/sin/
cos/tanh/erf/pow may differ in the last place), fma within 1 ulp (the interpreter rounds
twice, f64 then the type). Inputs include the edge values (INT_MIN, -1, 0, shift amounts >=
the width, +-0, +-inf, NaN, subnormals, random fp8 codes).
"""

from __future__ import annotations

import ml_dtypes as md
import numpy as np
import pytest
from xdsl.parser import Parser
from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf

from tosa_xdsl import jit
from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter.runner import build_interpreter
from tosa_xdsl.lowering.to_llvm.convert_to_llvm import ConvertToLLVMPass

N = 96
DT = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "i48": np.int64,
      "index": np.int64, "f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": md.bfloat16,
      "f8E4M3FN": md.float8_e4m3fn, "f8E5M2": md.float8_e5m2}
INTS = ["i8", "i16", "i32", "i64", "i48"]
FLOATS = ["f16", "f32", "f64", "bf16", "f8E4M3FN", "f8E5M2"]


def kernel(body: str, in_types: list[str], out_type: str, n: int = N) -> str:
    """func @k(%a0.., %out): for i in 0..n: out[i] = body(x0, x1, ...)."""
    args = ", ".join(f"%a{k}: memref<{n}x{t}>" for k, t in enumerate(in_types))
    loads = "\n".join(f"    %x{k} = memref.load %a{k}[%i] : memref<{n}x{t}>" for k, t in enumerate(in_types))
    return f"""
func.func @k({args}, %out: memref<{n}x{out_type}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {n} : index
  scf.for %i = %c0 to %cn step %c1 {{
{loads}
    {body}
    memref.store %r, %out[%i] : memref<{n}x{out_type}>
  }}
  func.return
}}
"""


def values(t: str, rng: np.random.Generator, n: int = N, small_shift: bool = False) -> np.ndarray:
    dt = DT[t]
    if t == "i1":
        return rng.integers(0, 2, n).astype(np.bool_)
    if t in INTS or t == "index":
        w = 48 if t == "i48" else 64 if t == "index" else np.iinfo(dt).bits
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        if small_shift:
            return rng.integers(0, w + 3, n).astype(dt)
        edge = [lo, hi, 0, -1, 1, lo + 1, 2, -2, 3, -3, 7]
        v = np.concatenate([np.array(edge, dtype=np.int64),
                            rng.integers(lo, hi, n, dtype=np.int64, endpoint=True)[: n // 2],
                            rng.integers(-300, 300, n, dtype=np.int64)])[:n]
        return v.astype(dt)
    if t in ("f8E4M3FN", "f8E5M2"):  # random codes, NaN and inf codes included
        codes = np.concatenate([[0x7F, 0xFF, 0x7C, 0xFC, 0x00, 0x80, 0x01], rng.permutation(256)])[:n]
        return codes.astype(np.uint8).view(dt)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.5, -2.5, 3.5, 1e-40,
                        -1e-45, 65504.0, 70000.0, 1e30], np.float64)
    v = np.concatenate([special, rng.standard_normal(n) * 4, rng.standard_normal(n) * 1e3])[:n]
    with np.errstate(all="ignore"):
        return v.astype(dt)


def lower(src: str):
    ctx = make_context()
    module = Parser(ctx, src).parse_module()
    module.verify()
    lowered = module.clone()
    ConvertScfToCf().apply(ctx, lowered)
    ConvertToLLVMPass().apply(ctx, lowered)
    lowered.verify()
    assert {op.name.split(".")[0] for op in lowered.walk()} <= {"builtin", "llvm"}
    return module, lowered


def run_both(src: str, inputs: list[np.ndarray], out_dtype) -> tuple[np.ndarray, np.ndarray]:
    module, lowered = lower(src)
    want = np.zeros(inputs[0].shape[0], out_dtype)
    interp = build_interpreter(module)
    with np.errstate(all="ignore"):
        interp.call_op("k", (*[x.copy() for x in inputs], want))
    got = np.zeros_like(want)
    jit.compile(lowered, "k")(*[x.copy() for x in inputs], got)
    return want, got


def _ulp(w: np.ndarray, dtype) -> np.ndarray:
    """The gap between representable values of `dtype` around w."""
    info = md.finfo(dtype)
    a = np.abs(w)
    e = np.floor(np.log2(np.maximum(a, float(info.smallest_normal))))
    return np.where(np.isfinite(a), 2.0 ** (e - info.nmant), np.inf)


def assert_bits(got: np.ndarray, want: np.ndarray, ulps: int = 0, what: str = "") -> None:
    if got.dtype.kind in "iub":
        bad = got.astype(np.int64) != want.astype(np.int64)
    else:
        g, w = got.astype(np.float64), want.astype(np.float64)
        same = ((g == w) & (np.signbit(g) == np.signbit(w))) | (np.isnan(g) & np.isnan(w))
        if ulps:
            with np.errstate(all="ignore"):
                same |= np.abs(g - w) <= ulps * _ulp(w, got.dtype)
        bad = ~same
    if bad.any():
        i = int(np.argwhere(bad)[0][0])
        raise AssertionError(f"{what}: {int(bad.sum())} mismatches, first at {i}: jit {got[i]!r} "
                             f"interpreter {want[i]!r}")


# ------------------------------------------------------------------------ integers

INT_BINARY = ["addi", "subi", "muli", "andi", "ori", "xori", "divsi", "divui", "remsi", "remui",
              "floordivsi", "ceildivsi", "ceildivui", "maxsi", "minsi", "maxui", "minui"]


@pytest.mark.parametrize("t", INTS)
def test_integer_binary(t):
    rng = np.random.default_rng(1)
    a, b = values(t, rng), values(t, rng)
    b[:8] = [0, -1, 0, -1, 1, 0, -1, 2]  # division by 0 and INT_MIN / -1 included
    a[:8] = [a[0], a[0], 5, 7, a[0], -5, -7, -7]
    for op in INT_BINARY:
        want, got = run_both(kernel(f"%r = arith.{op} %x0, %x1 : {t}", [t, t], t), [a, b], DT[t])
        assert_bits(got, want, what=f"arith.{op} {t}")


@pytest.mark.parametrize("t", INTS)
def test_integer_shifts(t):
    rng = np.random.default_rng(2)
    a, b = values(t, rng), values(t, rng, small_shift=True)
    for op in ("shli", "shrsi", "shrui"):
        want, got = run_both(kernel(f"%r = arith.{op} %x0, %x1 : {t}", [t, t], t), [a, b], DT[t])
        assert_bits(got, want, what=f"arith.{op} {t}")


@pytest.mark.parametrize("t", INTS)
def test_integer_compare_select(t):
    rng = np.random.default_rng(3)
    a, b = values(t, rng), values(t, rng)
    b[::3] = a[::3]
    for pred in ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"):
        want, got = run_both(kernel(f"%r = arith.cmpi {pred}, %x0, %x1 : {t}", [t, t], "i1"), [a, b], np.bool_)
        assert_bits(got, want, what=f"arith.cmpi {pred} {t}")
    c = values("i1", rng)
    want, got = run_both(kernel(f"%r = arith.select %x0, %x1, %x2 : {t}", ["i1", t, t], t), [c, a, b], DT[t])
    assert_bits(got, want, what="arith.select")


@pytest.mark.parametrize("src,dst,op", [
    ("i8", "i32", "extsi"), ("i8", "i32", "extui"), ("i32", "i48", "extsi"), ("i48", "i64", "extsi"),
    ("i16", "i64", "extui"), ("i1", "i32", "extui"), ("i1", "i8", "extsi"), ("i64", "i8", "trunci"),
    ("i48", "i32", "trunci"), ("i32", "i1", "trunci"), ("i32", "index", "index_cast"),
    ("index", "i8", "index_cast"), ("i64", "i48", "trunci"),
])
def test_integer_casts(src, dst, op):
    rng = np.random.default_rng(4)
    a = values(src, rng)
    want, got = run_both(kernel(f"%r = arith.{op} %x0 : {src} to {dst}", [src], dst), [a], DT[dst])
    assert_bits(got, want, what=f"arith.{op} {src} -> {dst}")


@pytest.mark.parametrize("t", ["i8", "i16", "i32", "i64"])
def test_math_integer(t):
    rng = np.random.default_rng(5)
    a = values(t, rng)
    for op in ("absi", "ctlz", "ctpop"):
        want, got = run_both(kernel(f"%r = math.{op} %x0 : {t}", [t], t), [a], DT[t])
        assert_bits(got, want, what=f"math.{op} {t}")


# ------------------------------------------------------------------------ floats

@pytest.mark.parametrize("t", FLOATS)
def test_float_binary_exact(t):
    rng = np.random.default_rng(6)
    a, b = values(t, rng), values(t, rng)
    a[:4], b[:4] = np.array([0.0, -0.0, 0.0, np.nan]).astype(DT[t]), np.array([-0.0, 0.0, 0.0, 1.0]).astype(DT[t])
    for op in ("addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf"):
        want, got = run_both(kernel(f"%r = arith.{op} %x0, %x1 : {t}", [t, t], t), [a, b], DT[t])
        assert_bits(got, want, what=f"arith.{op} {t}")
    want, got = run_both(kernel(f"%r = arith.negf %x0 : {t}", [t], t), [a], DT[t])
    assert_bits(got, want, what=f"arith.negf {t}")


@pytest.mark.parametrize("t", FLOATS)
def test_float_compare(t):
    rng = np.random.default_rng(7)
    a, b = values(t, rng), values(t, rng)
    b[::4] = a[::4]
    for pred in ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
                 "ule", "une", "uno", "true"):
        want, got = run_both(kernel(f"%r = arith.cmpf {pred}, %x0, %x1 : {t}", [t, t], "i1"), [a, b], np.bool_)
        assert_bits(got, want, what=f"arith.cmpf {pred} {t}")


@pytest.mark.parametrize("t", FLOATS)
def test_math_exact(t):
    rng = np.random.default_rng(8)
    a = values(t, rng)
    for op in ("absf", "ceil", "floor", "trunc", "roundeven", "round", "sqrt"):
        want, got = run_both(kernel(f"%r = math.{op} %x0 : {t}", [t], t), [a], DT[t])
        assert_bits(got, want, what=f"math.{op} {t}")


@pytest.mark.parametrize("t", ["f16", "f32", "bf16", "f8E4M3FN", "f64"])
def test_math_transcendental(t):
    rng = np.random.default_rng(9)
    a, b = values(t, rng), values(t, rng)
    for op in ("exp", "log", "sin", "cos", "tanh", "erf", "rsqrt"):
        want, got = run_both(kernel(f"%r = math.{op} %x0 : {t}", [t], t), [a], DT[t])
        assert_bits(got, want, ulps=2, what=f"math.{op} {t}")
    a_pos = np.abs(a.astype(np.float64)).astype(DT[t])
    want, got = run_both(kernel(f"%r = math.powf %x0, %x1 : {t}", [t, t], t), [a_pos, b], DT[t])
    assert_bits(got, want, ulps=2, what=f"math.powf {t}")


@pytest.mark.parametrize("t", ["f16", "f32", "f64", "bf16", "f8E4M3FN"])
def test_math_fma(t):
    """f32/f64: fused, i.e. a*b+c correctly rounded once — checked against exact rational
    arithmetic (the interpreter computes f64 a*b+c, which is not fused for f64). The small
    types: computed in f64 and rounded to the type, bit-equal to the interpreter."""
    from fractions import Fraction

    rng = np.random.default_rng(10)
    a, b, c = (values(t, rng) for _ in range(3))
    c[10:40] = (-(a[10:40].astype(np.float64) * b[10:40].astype(np.float64))).astype(DT[t])  # cancellation
    want, got = run_both(kernel(f"%r = math.fma %x0, %x1, %x2 : {t}", [t, t, t], t), [a, b, c], DT[t])
    if t in ("f32", "f64"):
        exact = []
        for x, y, z in zip(a.astype(np.float64), b.astype(np.float64), c.astype(np.float64)):
            if not all(np.isfinite([x, y, z])):
                exact.append(x * y + z)
                continue
            v = Fraction(x) * Fraction(y) + Fraction(z)
            r = np.float64(float(v)) if t == "f64" else _round_f32(v)
            exact.append(-0.0 if v == 0 and (np.signbit(x * y) and np.signbit(z)) else r)
        want = np.array(exact).astype(DT[t])
    assert_bits(got, want, what=f"math.fma {t}")


def _round_f32(v) -> np.float32:
    """A rational rounded once to f32 (nearest, ties to even)."""
    from fractions import Fraction

    f = np.float32(float(v))  # double rounding possible: fix by checking the neighbours
    cands = [f, np.nextafter(f, np.float32(np.inf)), np.nextafter(f, np.float32(-np.inf))]
    best = min(cands, key=lambda c: (abs(Fraction(float(c)) - v), int(np.float32(c).view(np.uint32)) & 1))
    return np.float32(best)


_BITS = {"f16": 16, "f32": 32, "f64": 64, "bf16": 16, "f8E4M3FN": 8, "f8E5M2": 8}
FLOAT_CASTS = [(s, d) for s in FLOATS for d in FLOATS if _BITS[s] != _BITS[d]]


@pytest.mark.parametrize("src,dst", FLOAT_CASTS)
def test_float_casts(src, dst):
    rng = np.random.default_rng(11)
    a = values(src, rng)
    op = "extf" if _BITS[dst] > _BITS[src] else "truncf"
    want, got = run_both(kernel(f"%r = arith.{op} %x0 : {src} to {dst}", [src], dst), [a], DT[dst])
    assert_bits(got, want, what=f"arith.{op} {src} -> {dst}")


@pytest.mark.parametrize("it", ["i8", "i32", "i64", "i1"])
@pytest.mark.parametrize("ft", FLOATS)
def test_int_float_casts(it, ft):
    rng = np.random.default_rng(12)
    a = values(it, rng)
    for op in ("sitofp", "uitofp"):
        want, got = run_both(kernel(f"%r = arith.{op} %x0 : {it} to {ft}", [it], ft), [a], DT[ft])
        assert_bits(got, want, what=f"arith.{op} {it} -> {ft}")
    if it == "i1":
        return
    # fptosi/fptoui are poison out of range (as in MLIR): compare on in-range inputs only
    f = values(ft, rng).astype(np.float64)
    w = np.iinfo(DT[it]).bits
    f = np.where(np.isfinite(f) & (np.abs(f) < 2.0 ** (w - 2)), f, 1.5).astype(DT[ft])
    want, got = run_both(kernel(f"%r = arith.fptosi %x0 : {ft} to {it}", [ft], it), [f], DT[it])
    assert_bits(got, want, what=f"arith.fptosi {ft} -> {it}")
    f = np.abs(f.astype(np.float64)).astype(DT[ft])
    want, got = run_both(kernel(f"%r = arith.fptoui %x0 : {ft} to {it}", [ft], it), [f], DT[it])
    assert_bits(got, want, what=f"arith.fptoui {ft} -> {it}")


@pytest.mark.parametrize("dst", ["bf16", "f8E4M3FN", "f8E5M2"])
@pytest.mark.parametrize("src", ["f32", "f64"])
def test_truncf_many_values(src, dst):
    """arith.truncf to the emulated types on 200k random bit patterns (every exponent, ties,
    NaN payloads), JIT only, against one round-to-nearest-even of the exact value.

    ml_dtypes (what the interpreter calls) is the oracle for f32 sources and for f64 values
    exact in f32; it converts f64 through f32 and so rounds twice (0x1.4affff501acefp-121
    -> bf16 gives 0x1.4cp-121, the nearest is 0x1.4ap-121): for the other f64 values the
    nearest of ml_dtypes' answer and its two neighbours is computed exactly (Fraction)."""
    from fractions import Fraction

    n = 200_000
    rng = np.random.default_rng(13)
    bits = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    bits[: n // 4] = (bits[: n // 4] & np.uint32(0xFFFF0000)) | np.uint32(0x8000)  # bf16 ties
    x = bits.view(np.float32)
    if src == "f64":
        wide = (rng.standard_normal(2000) * 2.0 ** rng.integers(-160, 140, 2000)).astype(np.float64)
        wide[0] = float.fromhex("0x1.4affff501acefp-121")
        x = np.concatenate([x.astype(np.float64), wide])
        n = x.size
    _, lowered = lower(kernel(f"%r = arith.truncf %x0 : {src} to {dst}", [src], dst, n))
    got = np.zeros(n, DT[dst])
    jit.compile(lowered, "k")(x.copy(), got)
    with np.errstate(all="ignore"):
        want = x.astype(DT[dst])
    if src == "f64":
        codes = want.view(np.uint16 if dst == "bf16" else np.uint8)
        for i in range(n - 2000, n):
            v = x[i]
            if not np.isfinite(v) or not np.isfinite(float(want[i])):  # NaN, inf, overflow
                continue
            cands = [c for c in (int(codes[i]) - 1, int(codes[i]), int(codes[i]) + 1) if 0 <= c < len(_ALL[dst])]
            vals = [float(_ALL[dst][c]) for c in cands]
            ok = [(abs(Fraction(f) - Fraction(v)), c & 1, c) for c, f in zip(cands, vals) if np.isfinite(f)
                  and (np.signbit(f) == np.signbit(v) or f == 0)]
            want[i] = _ALL[dst][min(ok)[2]]
    assert_bits(got, want, what=f"truncf {src} -> {dst}")


_ALL = {name: np.arange(1 << (16 if name == "bf16" else 8), dtype=np.uint32).astype(
    np.uint16 if name == "bf16" else np.uint8).view(DT[name]) for name in ("bf16", "f8E4M3FN", "f8E5M2")}


def test_argument_checks():
    from xdsl.dialects.builtin import MemRefType, i32

    _, lowered = lower(kernel("%r = arith.addi %x0, %x0 : i32", ["i32"], "i32", 4))
    fn = jit.compile(lowered, "k", arg_types=[MemRefType(i32, [4]), MemRefType(i32, [4])])
    with pytest.raises(ValueError, match="argument #0"):
        fn(np.zeros(4, np.int64), np.zeros(4, np.int32))
    with pytest.raises(ValueError, match="takes 2"):
        fn(np.zeros(4, np.int32))
    with pytest.raises(jit.JitError, match="no llvm.func @nope"):
        jit.compile(lowered, "nope")

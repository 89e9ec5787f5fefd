"""`arith-emulate-fp8` (lowering/emulate_fp8.py): arith/math on f8E4M3FN / f8E5M2 rewritten to
integer code on the i8 bits.

Every check runs one module twice in the interpreter, before the pass (the interpreter's own
fp8 arith: ml_dtypes / numerics.round_to_nearest_float, itself checked against Arm's reference
model) and after it, and compares bit for bit. The op sits in a vectorised linalg.generic
body, so whole value sets run at once:

* extf: all 256 bit patterns of each fp8 type to f16/bf16/f32/f64;
* truncf: every f16 and bf16 bit pattern; from f32/f64 every fp8 value, every midpoint between
  neighbours (the first missing codes above the largest finite value included: the overflow
  boundaries), midpoints +-1 ulp of the source type, the subnormal range, NaNs of both signs
  and several payloads, +-inf, +-0, source subnormals and random bit patterns; for f64 also
  midpoints +- 2**-40 relative, which an f64 -> f32 -> f8 path would round twice;
* cmpf (all 16 predicates), maximumf/minimumf/maxnumf/minnumf, addf/subf/mulf/divf on all
  256 x 256 pairs; negf, math.absf/sqrt, fptosi, sitofp, constants;
* the emulated loops are lowered by MLIR 22's standard passes and translated to LLVM IR.
"""

from __future__ import annotations

import subprocess

import ml_dtypes as md
import numpy as np
import pytest
from lowering_harness import lower, parse

from tosa_xdsl.interpreter import run
from tosa_xdsl.printing import print_ir

FP8 = {"f8E4M3FN": md.float8_e4m3fn, "f8E5M2": md.float8_e5m2}
# (mantissa bits, bias, first code above the largest finite value) per type, from the formats
FORMAT = {"f8E4M3FN": (3, 7, 0x7F), "f8E5M2": (2, 15, 0x7C)}
SRC = {"f16": np.float16, "bf16": md.bfloat16, "f32": np.float32, "f64": np.float64}
UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64, 1: np.uint8}
ALLOWED_F8_OPS = {"arith.bitcast", "arith.select", "linalg.yield", "linalg.generic", "func.func",
                  "func.return", "tensor.empty", "memref.load", "memref.store", "affine.load",
                  "affine.store", "memref.alloc", "memref.dealloc", "memref.copy"}

GENERIC = """
#id = affine_map<(d0) -> (d0)>
func.func @main({args}) -> tensor<{n}x{u}> {{
  %e = tensor.empty() : tensor<{n}x{u}>
  %r = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
      ins({ins} : {ins_t}) outs(%e : tensor<{n}x{u}>) {{
  ^bb0({bb}, %o: {u}):
    {body}
    linalg.yield %v : {u}
  }} -> tensor<{n}x{u}>
  return %r : tensor<{n}x{u}>
}}
"""


def module(types: list[str], u: str, body: str, n: int) -> str:
    names = [f"%a{i}" for i in range(len(types))]
    return GENERIC.format(
        n=n, u=u, body=body,
        args=", ".join(f"{a}: tensor<{n}x{t}>" for a, t in zip(names, types)),
        maps=", ".join(["#id"] * (len(types) + 1)),
        ins=", ".join(names), ins_t=", ".join(f"tensor<{n}x{t}>" for t in types),
        bb=", ".join(f"%x{i}: {t}" for i, t in enumerate(types)))


def bits(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    return a.view(UINT[a.dtype.itemsize]) if a.dtype.kind not in "b" else a


def before_after(src: str, inputs: list[np.ndarray]):
    """(interpreter result before the pass, after it, the emulated module)."""
    want = run(parse(src), inputs, "main")[0]
    emulated = lower(src, "arith-emulate-fp8")
    left = {op.name for op in emulated.walk()
            if any(str(v.type).startswith("f8") for v in (*op.operands, *op.results))}
    assert left <= ALLOWED_F8_OPS, left - ALLOWED_F8_OPS
    got = run(emulated, inputs, "main")[0]
    return np.asarray(want), np.asarray(got), emulated


def assert_bits(got, want, what, inputs=None):
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    bad = np.nonzero(bits(got) != bits(want))[0]
    if bad.size:
        i = bad[0]
        src = "" if inputs is None else " input " + ", ".join(hex(int(bits(x)[i])) for x in inputs)
        pytest.fail(f"{what}: {bad.size} mismatches, first #{i}{src}: emulated {hex(int(bits(got)[i]))} "
                    f"interpreter {hex(int(bits(want)[i]))}")


def value(t: str, code: int) -> float:
    """The value of a non-negative fp8 code by the format's definition (codes past the largest
    finite one read as if the exponent/mantissa continued: the overflow boundaries)."""
    m, b, _ = FORMAT[t]
    e, f = code >> m, code & ((1 << m) - 1)
    return f * 2.0 ** (1 - b - m) if e == 0 else (1 + f / 2 ** m) * 2.0 ** (e - b)


def truncf_inputs(t: str, src: str, rng) -> np.ndarray:
    dt = SRC[src]
    top = FORMAT[t][2]
    vals = [value(t, c) for c in range(top + 2)]
    mids = [(x + y) / 2 for x, y in zip(vals, vals[1:])]
    base = np.array(vals + mids + [v / 4 for v in vals[:8]] + [vals[1] / 2 * 1.0001, 1e30, 1e-30],
                    np.float64)
    xs = [base, -base]
    exact = base.astype(dt)
    with np.errstate(all="ignore"):
        up = np.nextafter(exact, np.array(np.inf, dt)) if dt != md.bfloat16 else \
            (bits(exact) + 1).view(dt)
        down = np.nextafter(exact, np.array(0, dt)) if dt != md.bfloat16 else \
            (bits(exact) - 1).view(dt)
    xs += [up.astype(np.float64), down.astype(np.float64), -up.astype(np.float64), -down.astype(np.float64)]
    if src == "f64":
        m = np.array(mids, np.float64)
        xs += [m * (1 + 2.0 ** -40), m * (1 - 2.0 ** -40), -m * (1 + 2.0 ** -40), -m * (1 - 2.0 ** -40)]
    x = np.concatenate(xs)
    x = x[np.isfinite(x.astype(dt))] if src != "f64" else x
    x = x.astype(dt)
    w = np.dtype(dt).itemsize
    u = UINT[w]
    specials = {2: [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFD55, 0x0001, 0x8001, 0x03FF],
                4: [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF,
                    0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0xFF7FFFFF],
                8: [0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
                    0xFFF8000000000000, 0x7FF0000000000001, 0x0000000000000001, 0x800FFFFFFFFFFFFF,
                    0x7FEFFFFFFFFFFFFF]}[w]
    if src == "bf16":  # bf16 is f32's top half
        specials = [s >> 16 for s in [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
                                      0x7F810000, 0x00010000, 0x807F0000]]
    rand = rng.integers(0, np.iinfo(u).max, 4000, dtype=u, endpoint=True)
    return np.concatenate([x, np.array(specials, u).view(dt), rand.view(dt)])


# ------------------------------------------------------------------ extf


@pytest.mark.parametrize("t", FP8)
@pytest.mark.parametrize("u", SRC)
def test_extf_all_bit_patterns(t, u):
    x = np.arange(256, dtype=np.uint8).view(FP8[t])
    want, got, _ = before_after(module([t], u, f"%v = arith.extf %x0 : {t} to {u}", 256), [x])
    assert_bits(got, want, f"extf {t} -> {u}", [x])
    # independent of the interpreter: the finite values by the format's definition
    finite = [c for c in range(256) if (c & 0x7F) < FORMAT[t][2]]
    expect = np.array([(-1) ** (c >> 7) * value(t, c & 0x7F) for c in finite])
    np.testing.assert_array_equal(got[finite].astype(np.float64), expect)


# ------------------------------------------------------------------ truncf


@pytest.mark.parametrize("t", FP8)
@pytest.mark.parametrize("src", SRC)
def test_truncf(t, src):
    rng = np.random.default_rng(1)
    if src in ("f16", "bf16"):  # exhaustive
        x = np.arange(1 << 16, dtype=np.uint16).view(SRC[src])
    else:
        x = truncf_inputs(t, src, rng)
    want, got, _ = before_after(module([src], t, f"%v = arith.truncf %x0 : {src} to {t}", x.size), [x])
    assert_bits(got, want, f"truncf {src} -> {t}", [x])


def test_truncf_hand_values():
    """A few results derived from the formats, not from the interpreter."""
    x = np.array([464.0, 464.0 * (1 + 2 ** -20), 2.0 ** -10, 2.0 ** -10 * (1 + 2 ** -20), -0.0,
                  3 * 2.0 ** -10, 61440.0, 57344.0 * 1.0625], np.float64)
    for src in ("f32", "f64"):
        _, got, _ = before_after(module([src], "f8E4M3FN", f"%v = arith.truncf %x0 : {src} to f8E4M3FN",
                                        x.size), [x.astype(SRC[src])])
        # 464 ties to 448 (even mantissa 110); above it NaN; 2**-10 ties to 0; above it 2**-9;
        # -0 keeps its sign; 3*2**-10 = 1.5 * 2**-9 ties up to code 2 (even); 61440 and 60928 overflow -> NaN
        assert bits(got).tolist() == [0x7E, 0x7F, 0x00, 0x01, 0x80, 0x02, 0x7F, 0x7F], src
    _, got, _ = before_after(module(["f64"], "f8E5M2", "%v = arith.truncf %x0 : f64 to f8E5M2", 4),
                             [np.array([61440.0, 61439.0, 2.0 ** -17, -1e300])])
    # 61440 is the midpoint of 57344 (0x7B, odd) and 65536 (would be 0x7C): rounds up -> inf
    assert bits(got).tolist() == [0x7C, 0x7B, 0x00, 0xFC]


def test_truncf_f64_rounds_once():
    """0x1.1p+0 + 2**-40 is just above the E5M2 midpoint between 1.0 and 1.25 (1.125); in f32 it
    is the midpoint itself, which then ties down to 1.0. One rounding gives 1.25 (0x3D)."""
    x = np.array([1.125 + 2.0 ** -40, 1.125 - 2.0 ** -40, 1.125], np.float64)
    _, got, _ = before_after(module(["f64"], "f8E5M2", "%v = arith.truncf %x0 : f64 to f8E5M2", 3), [x])
    assert bits(got).tolist() == [0x3D, 0x3C, 0x3C]


# ------------------------------------------------------------------ arithmetic on pairs


def pairs(t: str) -> tuple[np.ndarray, np.ndarray]:
    c = np.arange(256, dtype=np.uint8)
    a, b = np.meshgrid(c, c, indexing="ij")
    return a.ravel().view(FP8[t]), b.ravel().view(FP8[t])


CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
        "une", "uno", "true"]


@pytest.mark.parametrize("t", FP8)
def test_cmpf_all_predicates_all_pairs(t):
    a, b = pairs(t)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    by_hand = {"oeq": a64 == b64, "uno": np.isnan(a64) | np.isnan(b64), "olt": a64 < b64}
    for pred in CMPF:
        want, got, _ = before_after(module([t, t], "i1", f"%v = arith.cmpf {pred}, %x0, %x1 : {t}", a.size), [a, b])
        assert_bits(got, want, f"cmpf {pred} {t}", [a, b])
        if pred in by_hand:
            np.testing.assert_array_equal(got, by_hand[pred], err_msg=pred)


@pytest.mark.parametrize("t", FP8)
@pytest.mark.parametrize("op", ["maximumf", "minimumf", "maxnumf", "minnumf", "addf", "subf", "mulf", "divf"])
def test_binary_all_pairs(t, op):
    a, b = pairs(t)
    want, got, _ = before_after(module([t, t], t, f"%v = arith.{op} %x0, %x1 : {t}", a.size), [a, b])
    assert_bits(got, want, f"{op} {t}", [a, b])


@pytest.mark.parametrize("t", FP8)
@pytest.mark.parametrize("body,u", [
    ("%v = arith.negf %x0 : {t}", "{t}"), ("%v = math.absf %x0 : {t}", "{t}"),
    ("%v = math.sqrt %x0 : {t}", "{t}"), ("%v = math.fma %x0, %x0, %x0 : {t}", "{t}"),
    ("%v = arith.fptosi %x0 : {t} to i32", "i32"),
    ("%c = arith.constant -1.5 : {t}\n    %v = arith.addf %x0, %c : {t}", "{t}"),
])
def test_unary_all_bit_patterns(t, body, u):
    x = np.arange(256, dtype=np.uint8).view(FP8[t])
    if "fptosi" in body:  # NaN to int is poison: finite inputs only
        x = x[np.isfinite(x.astype(np.float32))]
    want, got, _ = before_after(module([t], u.format(t=t), body.format(t=t), x.size), [x])
    assert_bits(got, want, f"{body} {t}", [x])


@pytest.mark.parametrize("t", FP8)
@pytest.mark.parametrize("src", ["i8", "i16", "i32", "i64"])
def test_int_to_fp8(t, src):
    rng = np.random.default_rng(2)
    dt = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}[src]
    info = np.iinfo(dt)
    edges = [0, 1, -1, 7, 9, 17, 19, 33, 35, 448, 464, 465, 480, 57344, 61439, 61440, 61441, 2 ** 20,
             -(2 ** 20) - 1, 2 ** 53 + 1, info.max, info.min]
    x = np.concatenate([np.array([e for e in edges if info.min <= e <= info.max], dt),
                        rng.integers(info.min, info.max, 2000, dtype=dt), np.arange(-600, 600).astype(dt)])
    for op in ("sitofp", "uitofp"):
        want, got, _ = before_after(module([src], t, f"%v = arith.{op} %x0 : {src} to {t}", x.size), [x])
        assert_bits(got, want, f"{op} {src} -> {t}", [x])


# ------------------------------------------------------------------ MLIR 22


LOOPS = "one-shot-bufferize,convert-linalg-to-affine-loops,arith-emulate-fp8"
UPSTREAM_TO_LLVM = ["--lower-affine", "--convert-scf-to-cf", "--expand-strided-metadata",
                    "--finalize-memref-to-llvm", "--convert-to-llvm", "--reconcile-unrealized-casts"]


def test_mlir_22_lowers_and_translates_emulated_loops(mlir_opt_22):
    translate = mlir_opt_22.with_name("mlir-translate")
    bodies = []
    for t in FP8:
        bodies += [([t], "f32", f"%v = arith.extf %x0 : {t} to f32"),
                   ([t], "f64", f"%v = arith.extf %x0 : {t} to f64"),
                   ([t], "bf16", f"%v = arith.extf %x0 : {t} to bf16"),
                   *[([s], t, f"%v = arith.truncf %x0 : {s} to {t}") for s in SRC],
                   ([t, t], "i1", f"%v = arith.cmpf olt, %x0, %x1 : {t}"),
                   ([t, t], t, f"%v = arith.maximumf %x0, %x1 : {t}"),
                   ([t, t], t, f"%v = arith.minnumf %x0, %x1 : {t}"),
                   ([t], t, f"%c = arith.constant 2.0 : {t}\n    %v = arith.mulf %x0, %c : {t}"),
                   (["i32"], t, f"%v = arith.sitofp %x0 : i32 to {t}"),
                   ([t], t, f"%v = arith.negf %x0 : {t}")]
    for types, u, body in bodies:
        src = module(types, u, body, 4)
        plain = lower(src, LOOPS)
        # the loops still compute what the tensor form computes
        rng = np.random.default_rng(3)
        inputs = [rng.integers(0, 256, 4, dtype=np.uint8).view(FP8[x]) if x in FP8 else
                  rng.integers(-300, 300, 4).astype(SRC.get(x, np.int32)) for x in types]
        want = run(parse(src), inputs, "main")
        got = run(plain, inputs, "main")
        assert_bits(np.asarray(got[0]), np.asarray(want[0]), body)
        text = print_ir(plain, style="generic")
        opt = subprocess.run([str(mlir_opt_22), *UPSTREAM_TO_LLVM], input=text, capture_output=True, text=True)
        assert opt.returncode == 0, f"{body}:\n{opt.stderr[:2000]}"
        ll = subprocess.run([str(translate), "--mlir-to-llvmir"], input=opt.stdout, capture_output=True, text=True)
        assert ll.returncode == 0, f"{body}:\n{ll.stderr[:2000]}"


def test_shaped_fp8_arith_is_a_located_error():
    src = """func.func @main(%a: tensor<4xf8E4M3FN>) -> tensor<4xf32> {
      %r = arith.extf %a : tensor<4xf8E4M3FN> to tensor<4xf32>
      return %r : tensor<4xf32>
    }"""
    with pytest.raises(Exception, match="shaped fp8"):
        lower(src, "arith-emulate-fp8")

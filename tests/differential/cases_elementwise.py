"""Random test cases for the differential test of every operator that tests/differential/
cases.py does not cover: activation (CLAMP, ERF, SIGMOID, TANH), elementwise binary (but
TABLE), elementwise unary, SELECT, comparison, reduction, data layout, CAST, RESCALE, CONST,
IDENTITY, COND_IF, WHILE_LOOP and the variable operators.

Unlike cases.py (one graph per case), these cases are *fragments* (`Sub`): a few body lines,
their arguments and results. `batch(subs)` joins many fragments into one `func.func @main`
(SSA names prefixed per fragment) so that one reference-model invocation checks dozens of
operator instances; the reference model runs one graph per process, so this is what keeps the
whole file fast. A fragment whose graph is expected to be UNPREDICTABLE or ERROR runs alone
(`Sub.expect`), because one failing REQUIRE stops the whole graph.

Checks (`Sub.check`, one per fragment, applied to each of its results):

* "exact": integers/bools equal, floats bit-equal (any NaN matches any NaN) -- against the
  reference model in its default mode;
* "exact_pm0": as exact, but +0.0 and -0.0 match (operators whose precision rules allow
  either sign of a zero result: CLAMP, MAXIMUM, MINIMUM, REDUCE_MAX/MIN);
* "ulp": `tosa_reference_check_fp<t>(imp, ref, Sub.ulp)` against the precise run (`-p 1`,
  fp64 = the spec's out_ref);
* "bnd": `tosa_reference_check_fp_bnd<t>(imp, ref, Sub.bound(inputs, ref))`, same reference;
* "dot": the dot-product rule (REDUCE_SUM: a dot product with a vector of ones), via
  test_differential.check_dotproduct with Sub.dot = (ks, out_t, acc_t) and the bound
  computed here (sum of max(|x|, normal_min)).
For "ulp"/"bnd" checks, elements whose input is NaN, an infinity or a zero are compared
bit-exactly with the precise reference rounded to the output type: the operators'
"Infinity, NaN, and Zero behavior" tables define those results exactly.

Every row of each operator's Supported Data Types table (tosa_xdsl.spec_tables) is generated;
`ROWS` maps operator -> rows and `COVERAGE` records what each generated fragment covers, for
the table in docs/interpreter.md ("Differential coverage")."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from cases import MLIR_TYPE, a64, const, const_shape, ints, ttype  # noqa: F401  (shared helpers)

from tosa_xdsl import numerics as nx
from tosa_xdsl import spec_tables

FLOAT3 = ("fp16", "fp32", "bf16")


@dataclass
class Sub:
    id: str  # "<op>-<row>-<n>"
    op: str  # spec operator name
    row: str  # type row, e.g. "fp16" or "i8->i32"
    args: list  # [(name, shape, t)]
    inputs: list  # numpy arrays in interpreter storage dtypes
    body: list  # MLIR lines (attribute-dictionary syntax)
    results: list  # [(name, shape, t)]
    check: str = "exact"
    ulp: float = 0.0
    bound: Callable | None = field(default=None, repr=False)  # (inputs, ref) -> err_bnd
    dot: tuple | None = None  # (ks, out_t, acc_t) for "dot"
    expect: str = "VALID"  # or UNPREDICTABLE / ERROR
    decls: list = field(default_factory=list)  # module-level lines (tosa.variable)
    verify: bool = True  # translator verification (False for ERROR_IF cases)
    special_exact: bool = True  # ulp/bnd: NaN/inf/zero inputs compared exactly
    ref_expect: str | None = None  # the reference model's verdict where it differs (documented)

    @property
    def precise(self) -> bool:
        return self.check in ("ulp", "bnd", "dot")


# ----------------------------------------------------------------------------- batching

_NAME = re.compile(r"%([A-Za-z_][A-Za-z0-9_]*)")


def _rename(line: str, p: str) -> str:
    return _NAME.sub(lambda m: f"%{p}{m.group(1)}", line)


def batch(subs: list[Sub]) -> tuple[str, list]:
    """One module with a func @main running every fragment; its inputs in argument order."""
    args, body, results, inputs, decls = [], [], [], [], []
    for i, s in enumerate(subs):
        p = f"c{i}_"
        args += [(p + n, sh, t) for n, sh, t in s.args]
        body += [_rename(b, p) for b in s.body]
        results += [(p + n, sh, t) for n, sh, t in s.results]
        inputs += list(s.inputs)
        decls += s.decls
    sig = ", ".join(f"%{n}: {tt(sh, t)}" for n, sh, t in args)
    rts = ", ".join(tt(sh, t) for _, sh, t in results)
    ret = ", ".join(f"%{n}" for n, _, _ in results)
    lines = "\n".join("  " + b for b in body)
    fn = f"func.func @main({sig}) -> ({rts}) {{\n{lines}\n  return {ret} : {rts}\n}}\n"
    if decls:
        fn = "module {\n" + "\n".join("  " + d for d in decls) + "\n" + fn + "}\n"
    return fn, inputs


def split_outputs(subs: list[Sub], outputs: list) -> list[list]:
    out, k = [], 0
    for s in subs:
        out.append(outputs[k:k + len(s.results)])
        k += len(s.results)
    return out


# ----------------------------------------------------------------------------- data

def fspecials(t: str) -> list[float]:
    nm, big = nx.normal_min(t), nx.normal_max(t)
    sp = [0.0, -0.0, np.nan, big, -big, nm, -nm, nm / 4, -nm / 2, 1.0, -1.0, 0.5, -2.5]
    if t != "fp8e4m3":
        sp += [np.inf, -np.inf]
    return sp


def fdata(rng, shape, t: str, lo=-4.0, hi=4.0, specials=True, k=None) -> np.ndarray:
    """Uniform values in [lo, hi] mixed with log-uniform magnitudes (same range) and, if
    `specials`, the type's edge values (zeros of both signs, NaN, +-inf, +-max, normal_min,
    subnormals) at random positions."""
    x = rng.uniform(lo, hi, size=shape)
    m = max(abs(lo), abs(hi))
    mag = m * 2.0 ** rng.uniform(-14, 0, size=shape)
    sign = np.where(rng.integers(0, 2, size=shape) == 1, 1.0, -1.0)
    if lo >= 0:
        sign = np.ones(shape)
    logu = np.clip(sign * mag, lo, hi)
    x = np.where(rng.integers(0, 2, size=shape) == 1, x, logu)
    x = np.array(x, dtype=np.float64).reshape(shape)
    if specials is True:
        specials = fspecials(t)
    if specials and x.size:
        flat = x.reshape(-1)
        n = min(len(specials), max(1, flat.size // 3)) if k is None else min(k, flat.size)
        pos = rng.choice(flat.size, size=n, replace=False)
        vals = rng.choice(np.array(specials, dtype=np.float64), size=n, replace=n > len(specials))
        flat[pos] = vals
    return nx.round_to_nearest_float(x, t)


def idata(rng, shape, t: str, lo=None, hi=None) -> np.ndarray:
    if t == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    lo = nx.minimum_s(t) if lo is None else lo
    hi = nx.maximum_s(t) if hi is None else hi
    return ints(rng, shape, t, lo, hi) if int(np.prod(shape)) >= 4 else \
        rng.integers(lo, hi + 1, size=shape, dtype=np.int64).astype(nx.storage_dtype(t))


def anydata(rng, shape, t: str) -> np.ndarray:
    if t == "bool" or not nx.is_floating_point(t):
        return idata(rng, shape, t)
    return fdata(rng, shape, t)


def rshape(rng, rank=None, lo=1, hi=4) -> tuple:
    rank = int(rng.integers(1, 5)) if rank is None else rank
    return tuple(int(rng.integers(lo, hi + 1)) for _ in range(rank))


def bshapes(rng, n=2) -> tuple[tuple, list[tuple]]:
    """An output shape and n operand shapes broadcasting to it (each dim: full or 1)."""
    rank = int(rng.choice([0, 1, 2, 3, 4], p=[0.08, 0.23, 0.23, 0.23, 0.23]))
    out = rshape(rng, rank)
    ins = [tuple(d if rng.random() < 0.7 else 1 for d in out) for _ in range(n)]
    # the result shape is the broadcast of the operands
    out = tuple(max(ds) for ds in zip(*ins)) if rank else ()
    return out, ins


def tflt(t: str) -> str:
    return MLIR_TYPE.get(t, t) if t != "bool" else "i1"


def tt(shape, t: str) -> str:
    if t == "bool":
        dims = "x".join(str(d) for d in shape)
        return f"tensor<{dims}xi1>" if dims else "tensor<i1>"
    return ttype(shape, t)


def fconst(v: float, t: str) -> str:
    """A float attribute value as MLIR text (hex for inf/nan)."""
    if math.isnan(v) or math.isinf(v):
        bits = {"fp32": ("0x{:08X}", np.float32, np.uint32), "fp16": ("0x{:04X}", np.float16, np.uint16)}
        if t in bits:
            fmt, ft, it = bits[t]
            return fmt.format(int(np.array(v, ft).view(it)))
        import ml_dtypes
        return "0x{:04X}".format(int(np.array(v, ml_dtypes.bfloat16).view(np.uint16)))
    return repr(float(v))




# ----------------------------------------------------------------------------- precision

def calc_abs_error_bound(t: str, mag, bounds_value, lower_bound, normal_divisor):
    """Spec 4.5.3 calcAbsErrorBound<in_t> (elementwise)."""
    mag = np.abs(np.asarray(mag, np.float64))
    bv = np.asarray(bounds_value, np.float64)
    with np.errstate(all="ignore"):
        vb = np.maximum(mag, nx.normal_min(t))
        if lower_bound > 0:
            vb = np.maximum(lower_bound / bv, vb)
        eb = 2.0 ** (-nx.normal_frac(t) / normal_divisor) * vb * bv
    return np.where(np.isfinite(bv) | (mag != 0.0), eb, 0.0)


def _x64(a):
    return np.asarray(a).astype(np.float64)


def bound_fn(op: str, t: str):
    """err_bnd(inputs, ref) for the operators whose precision rule is a bound."""
    eb = 3.0 if t == "fp32" else 1.0
    if op == "SIGMOID":
        return lambda ins, ref: calc_abs_error_bound(t, ref, 2 * (1 + np.abs(_x64(ins[0]))), 0, 1)
    if op == "TANH":
        return lambda ins, ref: calc_abs_error_bound(t, ref, 4 * (eb + 2 * np.abs(_x64(ins[0]))), 0.5, 1)
    if op == "EXP":
        return lambda ins, ref: calc_abs_error_bound(t, ref, eb + 2 * np.abs(_x64(ins[0])), 0, 1)
    if op == "LOG":
        return lambda ins, ref: calc_abs_error_bound(t, ref, 5, 0.5, 1)
    if op == "COS":
        return lambda ins, ref: calc_abs_error_bound(t, 1 + np.abs(_x64(ins[0])), 1, 0, 2)
    if op == "SIN":
        return lambda ins, ref: np.maximum(calc_abs_error_bound(t, _x64(ins[0]), 2, 0, 2),
                                           np.pi * nx.normal_min(t))
    if op == "POW":
        def pow_bnd(ins, ref):
            x, y = np.broadcast_arrays(_x64(ins[0]), _x64(ins[1]))
            with np.errstate(all="ignore"):
                ylx = y * np.log(x)
                mul_err = calc_abs_error_bound(t, ylx, 5.5, 0, 1)
                # lower_bound |0.55 y| is elementwise: apply it by hand
                lb = np.abs(0.55 * y)
                vb = np.maximum(np.maximum(np.abs(ylx), nx.normal_min(t)), lb / 5.5)
                mul_err = np.where(lb > 0, 2.0 ** -nx.normal_frac(t) * vb * 5.5, mul_err)
                exp_err = calc_abs_error_bound(t, ref, eb + 2 * np.abs(ylx + mul_err), 0, 1)
                bnd = np.abs(ref) * np.expm1(mul_err) + exp_err
            # x == 0, y > 0 -> exactly 0; x > 0, y == 0 -> exactly 1
            return np.where(((x == 0) & (y > 0)) | ((x > 0) & (y == 0)), 0.0, bnd)
        return pow_bnd
    if op == "REDUCE_PRODUCT":
        def prod_bnd(ins, ref, axis):
            n = ins[0].shape[axis]
            return np.maximum(np.abs(_x64(ref)), nx.normal_min(t)) * \
                ((1 + 2.0 ** (-nx.normal_frac(t) - 1)) ** n - 1)
        return prod_bnd
    raise KeyError(op)


# ----------------------------------------------------------------------------- generators

def _sub(op, row, idx, args, inputs, body, results, **kw) -> Sub:
    return Sub(f"{op.lower()}-{row}-{idx}", op, row, args, inputs, body, results, **kw)


def clamp_sub(rng, t, mode, idx):
    shape = rshape(rng)
    x = anydata(rng, shape, t)
    if nx.is_floating_point(t):
        a, b = sorted(float(v) for v in nx.round_to_nearest_float(rng.uniform(-3, 3, 2), t))
        if rng.random() < 0.2:
            a, b = -math.inf, math.inf if rng.random() < 0.5 else float(nx.normal_max(t))
        lo, hi = f"{fconst(a, t)} : {tflt(t)}", f"{fconst(b, t)} : {tflt(t)}"
    else:
        a, b = sorted(int(v) for v in rng.integers(nx.minimum_s(t), nx.maximum_s(t) + 1, 2))
        lo, hi = f"{a} : {tflt(t)}", f"{b} : {tflt(t)}"
    body = [f"%r = tosa.clamp %x {{max_val = {hi}, min_val = {lo}, nan_mode = {mode}}} : ({tt(shape, t)}) -> {tt(shape, t)}"]
    return _sub("CLAMP", f"{t}-{mode}", idx, [("x", shape, t)], [x], body, [("r", shape, t)], check="exact_pm0")


UNARY_FLOAT = {  # op -> (data range, check, ulp)
    "ERF": ((-5, 5), "ulp", 5), "SIGMOID": ((-20, 20), "bnd", 0), "TANH": ((-10, 10), "bnd", 0),
    "EXP": ((-12, 12), "bnd", 0), "LOG": ((-1, 100), "bnd", 0), "COS": ((-10, 10), "bnd", 0),
    "SIN": ((-10, 10), "bnd", 0), "RECIPROCAL": ((-100, 100), "ulp", 1), "RSQRT": ((-1, 1000), "ulp", 2),
    "CEIL": ((-100, 100), "exact", 0), "FLOOR": ((-100, 100), "exact", 0),
}


def unary_float_sub(rng, op, t, idx):
    shape = rshape(rng)
    (lo, hi), check, ulp = UNARY_FLOAT[op]
    if t == "fp16" and op == "EXP":
        lo, hi = -12, 12
    x = fdata(rng, shape, t, lo, hi)
    name = op.lower()
    body = [f"%r = tosa.{name} %x : ({tt(shape, t)}) -> {tt(shape, t)}"]
    kw = dict(check=check, ulp=ulp)
    if check == "bnd":
        kw["bound"] = bound_fn(op, t)
    return _sub(op, t, idx, [("x", shape, t)], [x], body, [("r", shape, t)], **kw)


def abs_sub(rng, t, idx):
    shape = rshape(rng)
    x = idata(rng, shape, t, lo=-(2**31) + 1) if t == "i32" else fdata(rng, shape, t, -100, 100)
    body = [f"%r = tosa.abs %x : ({tt(shape, t)}) -> {tt(shape, t)}"]
    return _sub("ABS", t, idx, [("x", shape, t)], [x], body, [("r", shape, t)])


def negate_sub(rng, t, idx):
    shape = rshape(rng)
    if nx.is_floating_point(t):
        x, zi, zo = fdata(rng, shape, t, -100, 100), 0.0, 0.0
    else:
        zi = int(rng.integers(-128, 128)) if t == "i8" else 0
        zo = int(rng.integers(-128, 128)) if t == "i8" else 0
        if t == "i8":
            # out = clip(-(x - zi) + zo) after apply_sub_s in i32: always in range
            x = idata(rng, shape, t)
        else:
            x = idata(rng, shape, t, lo=nx.minimum_s(t) + 1)
    body = [const("zi", zi, t), const("zo", zo, t),
            f"%r = tosa.negate %x, %zi, %zo : ({tt(shape, t)}, {tt((1,), t)}, {tt((1,), t)}) -> {tt(shape, t)}"]
    return _sub("NEGATE", t, idx, [("x", shape, t)], [x], body, [("r", shape, t)])


def int_unary_sub(rng, op, t, idx):
    shape = rshape(rng)
    x = idata(rng, shape, t)
    body = [f"%r = tosa.{op.lower()} %x : ({tt(shape, t)}) -> {tt(shape, t)}"]
    return _sub(op, t, idx, [("x", shape, t)], [x], body, [("r", shape, t)])



def binary_sub(rng, op, t, idx, mode=None):
    out, (sa, sb) = bshapes(rng)
    out_t = "bool" if op in ("EQUAL", "GREATER", "GREATER_EQUAL") else t
    check = "exact_pm0" if op in ("MAXIMUM", "MINIMUM") else "exact"
    kw = {}
    if nx.is_floating_point(t) if t != "bool" else False:
        if op == "POW":
            a = fdata(rng, sa, t, 0.0, 8.0, specials=[0.0, 1.0, 0.5, 2.0, nx.normal_min(t)])
            b = fdata(rng, sb, t, -4.0, 4.0, specials=[0.0, 1.0, -1.0, 0.5, 2.0])
            # REQUIRE(value1 > 0 || value2 > 0): zero bases get a positive exponent
            av, bv = np.broadcast_arrays(a.astype(np.float64), b.astype(np.float64))
            if np.any((av == 0) & (bv <= 0)):
                a = np.where(a.astype(np.float64) == 0, np.array(1.0).astype(a.dtype), a).astype(a.dtype)
            check, kw = "bnd", dict(bound=bound_fn("POW", t))
        else:
            a, b = fdata(rng, sa, t, -100, 100), fdata(rng, sb, t, -100, 100)
            if op in ("EQUAL", "GREATER", "GREATER_EQUAL") and a.size and b.size:
                # equal pairs: copy some values of a into b where the shapes allow
                if sa == sb:
                    m = rng.random(sa) < 0.3
                    b = np.where(m, a, b).astype(a.dtype)
    else:
        lo, hi = (None, None)
        if op in ("ADD", "SUB") and t == "i32":
            lo, hi = -(2**30), 2**30 - 1
        a = idata(rng, sa, t, lo, hi)
        b = idata(rng, sb, t, lo, hi)
        if op in ("LOGICAL_LEFT_SHIFT", "LOGICAL_RIGHT_SHIFT", "ARITHMETIC_RIGHT_SHIFT"):
            bits = nx.bit_width(t)
            b = rng.integers(0, bits, size=sb).astype(nx.storage_dtype(t))
        if op == "INTDIV":
            b = np.where(b == 0, 1, b).astype(b.dtype)
            av, bv = np.broadcast_arrays(a, b)
            if np.any((av == nx.minimum_s(t)) & (bv == -1)):
                b = np.where(b == -1, 3, b).astype(b.dtype)
        if op in ("EQUAL", "GREATER", "GREATER_EQUAL") and sa == sb:
            m = rng.random(sa) < 0.3
            b = np.where(m, a, b).astype(a.dtype)
    attrs = ""
    if mode is not None:
        attrs = f" {{nan_mode = {mode}}}"
    if op == "ARITHMETIC_RIGHT_SHIFT":
        attrs = f" {{round = {str(bool(rng.integers(0, 2))).lower()}}}"
    line = f"%r = tosa.{op.lower()} %a, %b{attrs} : ({tt(sa, t)}, {tt(sb, t)}) -> {tt(out, out_t)}"
    row = t if mode is None else f"{t}-{mode}"
    return _sub(op, row, idx, [("a", sa, t), ("b", sb, t)], [a, b], [line], [("r", out, out_t)],
                check=check, **kw)


def mul_sub(rng, in_t, out_t, idx):
    out, (sa, sb) = bshapes(rng)
    shift = 0
    if nx.is_floating_point(in_t):
        a, b = fdata(rng, sa, in_t, -100, 100), fdata(rng, sb, in_t, -100, 100)
    elif in_t == "i32":
        shift = int(rng.choice([0, 0, 1, 5, 15, 31, 40, 63]))
        # |a*b| >> shift must fit i32 (REQUIRE): pick magnitudes accordingly
        e = min(31, (31 + shift) // 2) if shift else 31
        a, b = idata(rng, sa, "i32", -(2**e) + 1, 2**e - 1), idata(rng, sb, "i32", -(2**e) + 1, 2**e - 1)
        av, bv = np.broadcast_arrays(a.astype(np.int64), b.astype(np.int64))
        p = av.astype(object) * bv.astype(object)
        if shift:
            p = [(int(v) + (1 << (shift - 1))) >> shift for v in np.ravel(p)]
        if shift and any(not (-(2**31) <= int(v) < 2**31) for v in np.ravel(p)):
            a = (a // 2).astype(a.dtype)
            b = (b // 2).astype(b.dtype)
    else:
        a, b = idata(rng, sa, in_t), idata(rng, sb, in_t)
    body = [const("s", shift, "i8"),
            f"%r = tosa.mul %a, %b, %s : ({tt(sa, in_t)}, {tt(sb, in_t)}, {tt((1,), 'i8')}) -> {tt(out, out_t)}"]
    return _sub("MUL", f"{in_t}->{out_t}", idx, [("a", sa, in_t), ("b", sb, in_t)], [a, b], body,
                [("r", out, out_t)])


def select_sub(rng, t, idx):
    out, shapes = bshapes(rng, 3)
    sc, sa, sb = shapes
    c = rng.integers(0, 2, size=sc).astype(np.bool_)
    a, b = anydata(rng, sa, t), anydata(rng, sb, t)
    line = f"%r = tosa.select %c, %a, %b : ({tt(sc, 'bool')}, {tt(sa, t)}, {tt(sb, t)}) -> {tt(out, t)}"
    return _sub("SELECT", t, idx, [("c", sc, "bool"), ("a", sa, t), ("b", sb, t)], [c, a, b], [line],
                [("r", out, t)])


def reduce_sub(rng, op, t, idx, mode=None):
    shape = rshape(rng)
    axis = int(rng.integers(0, len(shape)))
    oshape = tuple(1 if i == axis else d for i, d in enumerate(shape))
    kw = {}
    check = "exact"
    if t == "bool":
        x = idata(rng, shape, t)
        if rng.random() < 0.5:  # mostly-true / mostly-false rows
            x = (rng.random(shape) < (0.9 if op == "REDUCE_ALL" else 0.1))
    elif op == "REDUCE_SUM" and t == "i32":
        x = idata(rng, shape, t, -(2**26), 2**26)
    elif op == "REDUCE_PRODUCT":
        x = fdata(rng, shape, t, -3, 3, specials=[0.0, -0.0, 1.0, -1.0, np.nan, np.inf, 0.5], k=1)
        pb = bound_fn("REDUCE_PRODUCT", t)
        check, kw = "bnd", dict(bound=lambda ins, ref, pb=pb, axis=axis: pb(ins, ref, axis),
                                special_exact=False)
    elif op == "REDUCE_SUM":
        x = fdata(rng, shape, t, -100, 100, specials=[0.0, -0.0, 1.0, nx.normal_min(t) / 4], k=2)
        acc = "fp32" if t == "bf16" else t
        check, kw = "dot", dict(dot=(shape[axis], t, acc))
        kw["bound"] = lambda ins, ref, axis=axis, t=t: np.sum(
            np.maximum(np.abs(_x64(ins[0])), nx.normal_min(t)), axis=axis, keepdims=True)
    else:
        x = anydata(rng, shape, t)
        if nx.is_floating_point(t):
            check = "exact_pm0"
            if x.size > 2 and rng.random() < 0.5:  # all-NaN rows, repeated extremes
                flat = x.reshape(-1)
                flat[: flat.size // 2] = np.nan if rng.random() < 0.5 else flat[0]
    attrs = f"axis = {axis} : i32" + (f", nan_mode = {mode}" if mode else "")
    line = f"%r = tosa.{op.lower()} %x {{{attrs}}} : ({tt(shape, t)}) -> {tt(oshape, t)}"
    row = t if mode is None else f"{t}-{mode}"
    return _sub(op, row, idx, [("x", shape, t)], [x], [line], [("r", oshape, t)], check=check, **kw)


LAYOUT_T = ["fp16", "fp32", "bool", "i16", "i32", "i8", "bf16", "fp8e4m3", "fp8e5m2"]


def concat_sub(rng, t, idx):
    shape = rshape(rng)
    axis = int(rng.integers(0, len(shape)))
    n = int(rng.integers(1, 4))
    shapes = [tuple(int(rng.integers(1, 4)) if i == axis else d for i, d in enumerate(shape)) for _ in range(n)]
    out = tuple(sum(s[axis] for s in shapes) if i == axis else d for i, d in enumerate(shape))
    args = [(f"x{i}", s, t) for i, s in enumerate(shapes)]
    ins = [anydata(rng, s, t) for s in shapes]
    line = (f"%r = tosa.concat {', '.join('%' + a[0] for a in args)} {{axis = {axis} : i32}} : "
            f"({', '.join(tt(s, t) for s in shapes)}) -> {tt(out, t)}")
    return _sub("CONCAT", t, idx, args, ins, [line], [("r", out, t)])


def _pad_const_attr(v, t):
    if t == "bool":
        return "true" if v else "false"
    if nx.is_floating_point(t):
        return repr(float(v))
    return str(int(v))


def pad_sub(rng, t, idx):
    shape = rshape(rng)
    pads = [int(rng.integers(0, 3)) for _ in range(2 * len(shape))]
    out = tuple(d + pads[2 * i] + pads[2 * i + 1] for i, d in enumerate(shape))
    x = anydata(rng, shape, t)
    pv = anydata(rng, (1,), t)
    if nx.is_floating_point(t) and t != "bool":
        pv = nx.round_to_nearest_float(np.array([rng.choice([0.0, -0.0, 1.5, -3.0, 0.25])]), t)
    args = [("x", shape, t), ("pc", (1,), t)]
    body = [const_shape("p", pads),
            f"%r = tosa.pad %x, %p, %pc : ({tt(shape, t)}, !tosa.shape<{len(pads)}>, {tt((1,), t)}) -> {tt(out, t)}"]
    return _sub("PAD", t, idx, args, [x, pv], body, [("r", out, t)])


def reshape_sub(rng, t, idx):
    shape = rshape(rng)
    n = int(np.prod(shape))
    # a random factorization of n
    dims, rest = [], n
    for _ in range(int(rng.integers(0, 4))):
        divs = [d for d in range(1, rest + 1) if rest % d == 0]
        d = int(rng.choice(divs))
        dims.append(d)
        rest //= d
    dims.append(rest)
    rng.shuffle(dims)
    out = tuple(dims)
    x = anydata(rng, shape, t)
    body = [const_shape("s", out),
            f"%r = tosa.reshape %x, %s : ({tt(shape, t)}, !tosa.shape<{len(out)}>) -> {tt(out, t)}"]
    return _sub("RESHAPE", t, idx, [("x", shape, t)], [x], body, [("r", out, t)])


def reverse_sub(rng, t, idx):
    shape = rshape(rng)
    axis = int(rng.integers(0, len(shape)))
    x = anydata(rng, shape, t)
    line = f"%r = tosa.reverse %x {{axis = {axis} : i32}} : ({tt(shape, t)}) -> {tt(shape, t)}"
    return _sub("REVERSE", t, idx, [("x", shape, t)], [x], [line], [("r", shape, t)])


def slice_sub(rng, t, idx):
    shape = rshape(rng, hi=5)
    start = [int(rng.integers(0, d)) for d in shape]
    size = [int(rng.integers(1, d - s + 1)) for d, s in zip(shape, start)]
    x = anydata(rng, shape, t)
    r = len(shape)
    body = [const_shape("st", start), const_shape("sz", size),
            f"%r = tosa.slice %x, %st, %sz : ({tt(shape, t)}, !tosa.shape<{r}>, !tosa.shape<{r}>) -> {tt(tuple(size), t)}"]
    return _sub("SLICE", t, idx, [("x", shape, t)], [x], body, [("r", tuple(size), t)])


def tile_sub(rng, t, idx):
    shape = rshape(rng, hi=3)
    mult = [int(rng.integers(1, 4)) for _ in shape]
    out = tuple(d * m for d, m in zip(shape, mult))
    x = anydata(rng, shape, t)
    body = [const_shape("m", mult),
            f"%r = tosa.tile %x, %m : ({tt(shape, t)}, !tosa.shape<{len(shape)}>) -> {tt(out, t)}"]
    return _sub("TILE", t, idx, [("x", shape, t)], [x], body, [("r", out, t)])


def transpose_sub(rng, t, idx):
    shape = rshape(rng)
    perms = [int(p) for p in rng.permutation(len(shape))]
    out = tuple(shape[p] for p in perms)
    x = anydata(rng, shape, t)
    line = (f"%r = tosa.transpose %x {{perms = array<i32: {', '.join(map(str, perms))}>}} : "
            f"({tt(shape, t)}) -> {tt(out, t)}")
    return _sub("TRANSPOSE", t, idx, [("x", shape, t)], [x], [line], [("r", out, t)])


def identity_sub(rng, t, idx):
    shape = rshape(rng)
    if t == "i48":
        x = idata(rng, shape, t)
    elif t == "i4":
        x = idata(rng, shape, t, -7, 7)
    else:
        x = anydata(rng, shape, t)
    line = f"%r = tosa.identity %x : ({tt(shape, t)}) -> {tt(shape, t)}"
    return _sub("IDENTITY", t, idx, [("x", shape, t)], [x], [line], [("r", shape, t)])


def _dense_text(v: np.ndarray, t: str) -> str:
    """Dense literal: hex for floats (exact bits, NaN/inf included), decimal ints."""
    flat = v.reshape(-1)
    if t == "bool":
        items = ["true" if b else "false" for b in flat]
    elif nx.is_floating_point(t):
        w = v.dtype.itemsize * 2
        u = {1: np.uint8, 2: np.uint16, 4: np.uint32}[v.dtype.itemsize]
        items = [f"0x{int(b):0{w}X}" for b in flat.view(u)]
    else:
        items = [str(int(b)) for b in flat]
    if not v.shape:
        return items[0]
    def nest(items, shape):
        if len(shape) == 1:
            return "[" + ", ".join(items) + "]"
        k = len(items) // shape[0]
        return "[" + ", ".join(nest(items[i * k:(i + 1) * k], shape[1:]) for i in range(shape[0])) + "]"
    return nest(items, v.shape)


def const_sub(rng, t, idx):
    shape = rshape(rng, hi=3)
    if t == "i48":
        x = idata(rng, shape, t)
    elif t == "i4":
        x = idata(rng, shape, t, -7, 7)
    else:
        x = anydata(rng, shape, t)
    ty = tt(shape, t)
    # the reference model needs at least one graph input: pass one through
    d = np.array([idx if isinstance(idx, int) else 0], np.int8)
    body = [f'%r = "tosa.const"() {{values = dense<{_dense_text(x, t)}> : {ty}}} : () -> {ty}',
            f"%dd = tosa.identity %d : ({tt((1,), 'i8')}) -> {tt((1,), 'i8')}"]
    return _sub("CONST", t, idx, [("d", (1,), "i8")], [d], body, [("r", shape, t), ("dd", (1,), "i8")])


CAST_ROWS: list[tuple[str, str]] = []  # filled from the spec tables below


def cast_sub(rng, in_t, out_t, idx):
    shape = rshape(rng)
    if in_t == "bool":
        x = idata(rng, shape, "bool")
    elif nx.is_floating_point(in_t):
        if out_t in ("i8", "i16", "i32"):
            hi = {"i8": 300.0, "i16": 70000.0, "i32": 5e9}[out_t]
            sp = [0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, nx.normal_max(in_t), -nx.normal_max(in_t),
                  nx.normal_min(in_t) / 4]
            if in_t != "fp8e4m3":
                sp += [np.inf, -np.inf]  # saturate; NaN is UNPREDICTABLE (expect case)
            x = fdata(rng, shape, in_t, -hi, hi, specials=sp)
            # halves: ties to even
            if x.size > 3:
                x.reshape(-1)[:2] = nx.round_to_nearest_float(np.array([float(rng.integers(-50, 50)) + 0.5] * 2), in_t)
        else:
            x = fdata(rng, shape, in_t, -70000.0, 70000.0)
    else:
        x = idata(rng, shape, in_t)
    line = f"%r = tosa.cast %x : ({tt(shape, in_t)}) -> {tt(shape, out_t)}"
    return _sub("CAST", f"{in_t}->{out_t}", idx, [("x", shape, in_t)], [x], [line], [("r", shape, out_t)])


RESCALE_ROWS = [("i16", "i16"), ("i16", "i32"), ("i16", "i8"), ("i32", "i16"), ("i32", "i32"),
                ("i32", "i8"), ("i8", "i16"), ("i8", "i32"), ("i8", "i8"), ("i48", "i16"),
                ("i48", "i32"), ("i48", "i8")]


def rescale_sub(rng, in_t, out_t, idx, scale32=None, rounding=None, per_channel=None,
                in_u=None, out_u=None):
    shape = rshape(rng)
    # attribute combinations allowed by the ERROR_IFs
    if scale32 is None:
        scale32 = in_t != "i48" and bool(rng.integers(0, 2))
    if rounding is None:
        rounding = str(rng.choice(["SINGLE_ROUND", "DOUBLE_ROUND"] if scale32 else ["SINGLE_ROUND"]))
    if per_channel is None:
        per_channel = bool(rng.integers(0, 2))
    if in_u is None:
        in_u = in_t in ("i8", "i16") and out_t != "i32" and rng.random() < 0.3
    if out_u is None:
        out_u = (not in_u) and out_t in ("i8", "i16") and in_t not in ("i32", "i48") and rng.random() < 0.3
    nc = shape[-1] if per_channel else 1
    mul_t = "i32" if scale32 else "i16"
    mult = rng.integers(0, 2**31 if scale32 else 2**15, size=nc, dtype=np.int64)
    if rng.random() < 0.3:
        mult[0] = (2**31 - 1) if scale32 else 2**15 - 1
    shift = rng.integers(2, 63, size=nc, dtype=np.int64)
    # input zero points
    if in_t == "i8":
        izp = int(rng.integers(-128, 128))
    elif in_t == "i16" and in_u:
        izp = int(rng.choice([0, -32768]))  # 32768 as i16 bits
    else:
        izp = 0
    if out_t == "i8":
        ozp = int(rng.integers(-128, 128))
    elif out_t == "i16" and out_u:
        ozp = int(rng.choice([0, -32768]))
    else:
        ozp = 0
    if in_t == "i48":
        x = idata(rng, shape, "i48")
    else:
        x = idata(rng, shape, in_t)
    ext = nx.zero_extend if in_u else nx.sign_extend
    v = ext(x, in_t).astype(np.int64) - int(ext(np.array(izp), in_t))
    # REQUIRE(value in [-(1 << (shift-1)), 1 << (shift-1))) and the i32 range of the
    # scaled result: raise the shift where needed
    vmax = int(np.abs(v).max()) if v.size else 0
    need = max(2, vmax.bit_length() + 2)
    shift = np.maximum(shift, need)
    mb = 31 if scale32 else 15
    # |v * m| >> shift < 2**31 - 2**8 (room for the output zero point)
    shift = np.maximum(shift, min(62, vmax.bit_length() + mb - 30 + 1))
    shift = np.minimum(shift, 62)
    mult_c = np.array(mult, dtype=np.int32 if scale32 else np.int16)
    shift_c = np.array(shift, dtype=np.int8)
    body = [
        f'%m = "tosa.const"() {{values = dense<[{", ".join(map(str, mult_c))}]> : {tt((nc,), mul_t)}}} : () -> {tt((nc,), mul_t)}',
        f'%s = "tosa.const"() {{values = dense<[{", ".join(map(str, shift_c))}]> : {tt((nc,), "i8")}}} : () -> {tt((nc,), "i8")}',
        const("zi", izp, in_t), const("zo", ozp, out_t),
        (f"%r = tosa.rescale %x, %m, %s, %zi, %zo {{input_unsigned = {str(in_u).lower()}, "
         f"output_unsigned = {str(out_u).lower()}, per_channel = {str(per_channel).lower()}, "
         f"rounding_mode = {rounding}, scale32 = {str(scale32).lower()}}} : "
         f"({tt(shape, in_t)}, {tt((nc,), mul_t)}, {tt((nc,), 'i8')}, {tt((1,), in_t)}, {tt((1,), out_t)}) "
         f"-> {tt(shape, out_t)}")]
    row = f"{in_t}->{out_t}"
    s = _sub("RESCALE", row, idx, [("x", shape, in_t)], [x], body, [("r", shape, out_t)],
             check="inexact" if rounding == "INEXACT_ROUND" else "exact")
    s.id += f"-s{int(scale32)}{rounding[0]}{'c' if per_channel else ''}{'u' if in_u else ''}{'U' if out_u else ''}"
    s.rescale = dict(scale32=scale32, rounding=rounding, per_channel=per_channel, in_u=in_u, out_u=out_u,
                     mult=mult_c, shift=shift_c, izp=izp, ozp=ozp)
    return s


def cond_if_sub(rng, t, idx):
    shape = rshape(rng)
    c = np.array(bool(rng.integers(0, 2)))
    a, b = anydata(rng, shape, t), anydata(rng, shape, t)
    ty = tt(shape, t)
    then_op = "add" if t != "bool" else "logical_and"
    else_op = "sub" if t != "bool" else "logical_or"
    if t == "i32":  # no overflow in add/sub (REQUIRE)
        a, b = idata(rng, shape, t, -(2**30), 2**30), idata(rng, shape, t, -(2**30), 2**30)
    body = [f"%r = tosa.cond_if %c (%ta = %a, %tb = %b) : tensor<i1> ({ty}, {ty}) -> {ty} {{",
            f"^bb0(%ta: {ty}, %tb: {ty}):",
            f"  %1 = tosa.{then_op} %ta, %tb : ({ty}, {ty}) -> {ty}",
            f"  tosa.yield %1 : {ty}",
            "} else {",
            f"^bb0(%ta: {ty}, %tb: {ty}):",
            f"  %1 = tosa.{else_op} %ta, %tb : ({ty}, {ty}) -> {ty}",
            f"  tosa.yield %1 : {ty}",
            "}"]
    return _sub("COND_IF", f"{t}-{'then' if c else 'else'}", idx, [("c", (), "bool"), ("a", shape, t), ("b", shape, t)],
                [c, a, b], body, [("r", shape, t)])


def while_sub(rng, idx):
    """Count i from 0 to n (input), accumulating acc += x each iteration (i32)."""
    shape = rshape(rng)
    n = np.array(int(rng.integers(0, 6)), np.int32)
    x = idata(rng, shape, "i32", -1000, 1000)
    acc0 = idata(rng, shape, "i32", -1000, 1000)
    ty, si = tt(shape, "i32"), "tensor<i32>"
    zero = f'%zero = "tosa.const"() {{values = dense<0> : {si}}} : () -> {si}'
    # x travels as a loop-carried value rather than being captured from the enclosing graph
    body = [
        zero,
        f"%r:4 = tosa.while_loop (%i = %zero, %acc = %acc0, %lim = %n, %xx = %x) : ({si}, {ty}, {si}, {ty}) -> ({si}, {ty}, {si}, {ty}) {{",
        f"  %p = tosa.greater %lim, %i : ({si}, {si}) -> tensor<i1>",
        "  tosa.yield %p : tensor<i1>",
        "} do {",
        f"^bb0(%i: {si}, %acc: {ty}, %lim: {si}, %xx: {ty}):",
        f'  %one = "tosa.const"() {{values = dense<1> : {si}}} : () -> {si}',
        f"  %i2 = tosa.add %i, %one : ({si}, {si}) -> {si}",
        f"  %a2 = tosa.add %acc, %xx : ({ty}, {ty}) -> {ty}",
        f"  tosa.yield %i2, %a2, %lim, %xx : {si}, {ty}, {si}, {ty}",
        "}",
        f"%acc_out = tosa.identity %r#1 : ({ty}) -> {ty}",
        f"%i_out = tosa.identity %r#0 : ({si}) -> {si}",
    ]
    return _sub("WHILE_LOOP", "i32", idx, [("n", (), "i32"), ("acc0", shape, "i32"), ("x", shape, "i32")],
                [n, acc0, x], body, [("acc_out", shape, "i32"), ("i_out", (), "i32")])


def variable_sub(rng, t, idx):
    shape = rshape(rng, hi=3)
    init = anydata(rng, shape, t)
    x = anydata(rng, shape, t)
    ty = tt(shape, t)
    name = f"var_{t}_{idx}"
    decl = f"tosa.variable @{name} = dense<{_dense_text(init, t)}> : {ty}"
    body = [f"%v0 = tosa.variable_read @{name} : {ty}",
            f"tosa.variable_write @{name}, %x : {ty}",
            f"%v1 = tosa.variable_read @{name} : {ty}"]
    return _sub("VARIABLE", t, idx, [("x", shape, t)], [x], body, [("v0", shape, t), ("v1", shape, t)],
                decls=[decl])


# ----------------------------------------------------------------------------- expected verdicts

def verdict_subs(rng) -> list[Sub]:
    """Graphs the reference model must call UNPREDICTABLE (a REQUIRE fails) or ERROR."""
    out: list[Sub] = []

    def bin_(op, t, a, b, expect, attrs="", out_t=None):
        a = np.array(a, nx.storage_dtype(t)); b = np.array(b, nx.storage_dtype(t))
        out_t = out_t or t
        line = f"%r = tosa.{op.lower()} %a, %b{attrs} : ({tt(a.shape, t)}, {tt(b.shape, t)}) -> {tt(a.shape, out_t)}"
        out.append(_sub(op, t, f"{expect.lower()}{len(out)}", [("a", a.shape, t), ("b", b.shape, t)], [a, b],
                        [line], [("r", a.shape, out_t)], expect=expect))

    bin_("INTDIV", "i32", [7, 1], [0, 1], "UNPREDICTABLE")
    bin_("INTDIV", "i32", [-(2**31), 1], [-1, 1], "UNPREDICTABLE")
    bin_("ADD", "i32", [2**31 - 1], [1], "UNPREDICTABLE")
    bin_("SUB", "i32", [-(2**31)], [1], "UNPREDICTABLE")
    bin_("LOGICAL_LEFT_SHIFT", "i32", [1], [32], "UNPREDICTABLE")
    bin_("LOGICAL_LEFT_SHIFT", "i8", [1], [8], "UNPREDICTABLE")
    bin_("LOGICAL_RIGHT_SHIFT", "i16", [1], [-1], "UNPREDICTABLE")
    bin_("ARITHMETIC_RIGHT_SHIFT", "i32", [1], [32], "UNPREDICTABLE", " {round = false}")
    bin_("POW", "fp32", [-2.0], [2.0], "UNPREDICTABLE")
    bin_("POW", "fp32", [0.0], [-1.0], "UNPREDICTABLE")
    bin_("POW", "fp16", [np.nan], [1.0], "UNPREDICTABLE")
    bin_("POW", "fp32", [np.inf], [1.0], "UNPREDICTABLE")
    # MUL i32 overflow and shift out of range
    for a, b, s in (([2**20], [2**12], 1), ([3], [4], 64)):
        a = np.array(a, np.int32); b = np.array(b, np.int32)
        body = [const("s", s, "i8"),
                f"%r = tosa.mul %a, %b, %s : ({tt((1,), 'i32')}, {tt((1,), 'i32')}, {tt((1,), 'i8')}) -> {tt((1,), 'i32')}"]
        out.append(_sub("MUL", "i32->i32", f"unpredictable{len(out)}", [("a", (1,), "i32"), ("b", (1,), "i32")],
                        [a, b], body, [("r", (1,), "i32")], expect="UNPREDICTABLE", verify=s < 64))
    # MUL i8 with shift != 0
    a = np.array([3], np.int8)
    body = [const("s", 1, "i8"),
            f"%r = tosa.mul %a, %a, %s : ({tt((1,), 'i8')}, {tt((1,), 'i8')}, {tt((1,), 'i8')}) -> {tt((1,), 'i32')}"]
    out.append(_sub("MUL", "i8->i32", f"unpredictable{len(out)}", [("a", (1,), "i8")], [a], body,
                    [("r", (1,), "i32")], expect="UNPREDICTABLE", verify=False, ref_expect="VALID"))
    # CAST NaN to int, REDUCE_SUM overflow, ABS / NEGATE of the i32 minimum
    x = np.array([np.nan, 1.0], np.float32)
    out.append(_sub("CAST", "fp32->i32", f"unpredictable{len(out)}", [("x", (2,), "fp32")], [x],
                    [f"%r = tosa.cast %x : ({tt((2,), 'fp32')}) -> {tt((2,), 'i32')}"], [("r", (2,), "i32")],
                    expect="UNPREDICTABLE", ref_expect="VALID"))
    x = np.array([2**31 - 1, 1], np.int32)
    out.append(_sub("REDUCE_SUM", "i32", f"unpredictable{len(out)}", [("x", (2,), "i32")], [x],
                    [f"%r = tosa.reduce_sum %x {{axis = 0 : i32}} : ({tt((2,), 'i32')}) -> {tt((1,), 'i32')}"],
                    [("r", (1,), "i32")], expect="UNPREDICTABLE"))
    x = np.array([-(2**31)], np.int32)
    out.append(_sub("ABS", "i32", f"unpredictable{len(out)}", [("x", (1,), "i32")], [x],
                    [f"%r = tosa.abs %x : ({tt((1,), 'i32')}) -> {tt((1,), 'i32')}"], [("r", (1,), "i32")],
                    expect="UNPREDICTABLE"))
    body = [const("zi", 0, "i32"), const("zo", 0, "i32"),
            f"%r = tosa.negate %x, %zi, %zo : ({tt((1,), 'i32')}, {tt((1,), 'i32')}, {tt((1,), 'i32')}) -> {tt((1,), 'i32')}"]
    out.append(_sub("NEGATE", "i32", f"unpredictable{len(out)}", [("x", (1,), "i32")], [x], body,
                    [("r", (1,), "i32")], expect="UNPREDICTABLE"))
    # ERROR_IFs (translator verification off so the graph reaches the reference model)
    x = np.array([1, 2], np.int16)
    body = [const("zi", 3, "i16"), const("zo", 0, "i16"),
            f"%r = tosa.negate %x, %zi, %zo : ({tt((2,), 'i16')}, {tt((1,), 'i16')}, {tt((1,), 'i16')}) -> {tt((2,), 'i16')}"]
    out.append(_sub("NEGATE", "i16", f"error{len(out)}", [("x", (2,), "i16")], [x], body,
                    [("r", (2,), "i16")], expect="ERROR", verify=False))
    x = np.array([1.0, 2.0], np.float32)
    out.append(_sub("CLAMP", "fp32", f"error{len(out)}", [("x", (2,), "fp32")], [x],
                    [f"%r = tosa.clamp %x {{max_val = 0.0 : f32, min_val = 1.0 : f32}} : ({tt((2,), 'fp32')}) -> {tt((2,), 'fp32')}"],
                    [("r", (2,), "fp32")], expect="ERROR", verify=False))
    return out


# ----------------------------------------------------------------------------- all

def _rows(op: str) -> list[tuple[str, ...]]:
    from tosa_xdsl.spec_tables import op_spec
    rows = []
    for r in op_spec(op).type_rows:
        rows.append(tuple(v.removesuffix("_t") for v in r.spec_types.values()))
    return rows


def chapter_ops(*sections: str) -> list[str]:
    """The spec names of the operators of these chapters ("2.5", ...), in spec order."""
    return [o.name for o in spec_tables.ops() if o.chapter_section in sections]


def _spec_element_types(op: str) -> set[str]:
    return {t for r in spec_tables.op_spec(op).type_rows for t in r.spec_types.values()}


def _is_float_spec_type(t: str) -> bool:
    return t.startswith(("fp", "bf"))


# Which generator draws an operator follows from its chapter and its Supported Data Types:
# elementwise binary and comparison operators share binary_sub, except MUL (its shift operand
# and widening rows: mul_sub) and TABLE (a lookup, tests/differential/cases.py).
BINARY_OPS = [op for op in chapter_ops("2.5", "2.8") if op not in ("MUL", "TABLE")]
# unary operators (activation, elementwise unary) of floats only: unary_float_sub, which
# needs the operator's data range and check in UNARY_FLOAT
FLOAT_UNARY = [op for op in chapter_ops("2.4", "2.6")
               if all(_is_float_spec_type(t) for t in _spec_element_types(op))]
# elementwise unary operators of integers/bool only (ABS and NEGATE, of both, have their own)
INT_UNARY = [op for op in chapter_ops("2.6")
             if not any(_is_float_spec_type(t) for t in _spec_element_types(op))]
REDUCE_OPS = chapter_ops("2.9")
LAYOUT = {"CONCAT": concat_sub, "PAD": pad_sub, "RESHAPE": reshape_sub, "REVERSE": reverse_sub,
          "SLICE": slice_sub, "TILE": tile_sub, "TRANSPOSE": transpose_sub}
NAN_MODES = ("PROPAGATE", "IGNORE")


def op_rows(op: str) -> list[str]:
    """The row key of every Supported Data Types row, as `Sub.row` spells it (without the
    nan_mode suffix)."""
    rows = _rows(op)
    if op in ("MUL", "CAST", "RESCALE"):
        return [f"{r[0]}->{r[1]}" for r in rows]
    if op == "NEGATE":  # columns in_out_t, acc_t: int rows are i8/i16/i32 with acc i32
        return sorted({r[1] if r[0] == "i32" and r[1] != "i32" else r[0] for r in rows})
    if op == "REDUCE_SUM":  # (in_out_t, acc_t); the bf16 row reads (fp32, bf16)
        return sorted({r[1] if r[1] == "bf16" else r[0] for r in rows})
    return [r[0] for r in rows]


def all_subs(seed: int = 20251, repeats: int = 2) -> dict[str, list[Sub]]:
    """op -> its fragments (VALID ones), every type row x `repeats`."""
    rng = np.random.default_rng(seed)
    by_op: dict[str, list[Sub]] = {}

    def add(s: Sub):
        by_op.setdefault(s.op, []).append(s)

    for i in range(repeats):
        for t in op_rows("CLAMP"):
            for mode in NAN_MODES:
                add(clamp_sub(rng, t, mode, i))
        for op in FLOAT_UNARY:
            for t in op_rows(op):
                add(unary_float_sub(rng, op, t, i))
        for op in BINARY_OPS:
            for t in op_rows(op):
                modes = NAN_MODES if op in ("MAXIMUM", "MINIMUM") else (None,)
                for mode in modes:
                    add(binary_sub(rng, op, t, i, mode))
        for row in op_rows("MUL"):
            add(mul_sub(rng, *row.split("->"), i))
        for t in op_rows("ABS"):
            add(abs_sub(rng, t, i))
        for t in op_rows("NEGATE"):
            add(negate_sub(rng, t, i))
        for op in INT_UNARY:
            for t in op_rows(op):
                add(int_unary_sub(rng, op, t, i))
        for t in op_rows("SELECT"):
            add(select_sub(rng, t, i))
        for op in REDUCE_OPS:
            for t in op_rows(op):
                modes = NAN_MODES if op in ("REDUCE_MAX", "REDUCE_MIN") else (None,)
                for mode in modes:
                    add(reduce_sub(rng, op, t, i, mode))
        for op, gen in LAYOUT.items():
            for t in op_rows(op):
                add(gen(rng, t, i))
        for row in op_rows("CAST"):
            add(cast_sub(rng, *row.split("->"), i))
        for row in op_rows("RESCALE"):
            add(rescale_sub(rng, *row.split("->"), i))
        for t in op_rows("CONST"):
            add(const_sub(rng, t, i))
        for t in op_rows("IDENTITY"):
            add(identity_sub(rng, t, i))
        for t in ("fp32", "i32", "bool", "fp16", "bf16"):  # ADD/SUB or LOGICAL_AND/OR types
            add(cond_if_sub(rng, t, i))
        add(while_sub(rng, i))
        for t in op_rows("VARIABLE"):
            add(variable_sub(rng, t, i))
    # RESCALE: every attribute combination the ERROR_IFs allow, once
    k = 0
    for in_t, out_t in RESCALE_ROWS:
        for scale32 in (False, True):
            if scale32 and in_t == "i48":
                continue
            for rounding in (["SINGLE_ROUND", "DOUBLE_ROUND", "INEXACT_ROUND"] if scale32 else ["SINGLE_ROUND", "INEXACT_ROUND"]):
                for pc in (False, True):
                    us = [(False, False)]
                    if in_t in ("i8", "i16") and out_t != "i32":
                        us.append((True, False))
                    if out_t in ("i8", "i16") and in_t in ("i8", "i16"):
                        us.append((False, True))
                    for iu, ou in us:
                        add(rescale_sub(rng, in_t, out_t, f"x{k}", scale32, rounding, pc, iu, ou))
                        k += 1
    return by_op


# ----------------------------------------------------------------------------- coverage table

TOLERANCE = {
    "exact": "exact (floats bit-equal, any NaN matches any NaN)",
    "exact_pm0": "exact, a zero result may have either sign",
    "inexact": "INEXACT_ROUND interval out_ref_min_int..out_ref_max_int (2.13.2)",
    "dot": "dot-product rule (1.10.3) with weights 1, KS = axis length",
}
BOUND_TEXT = {
    "SIGMOID": "check_fp_bnd, calcAbsErrorBound(out_ref, 2(1+\\|x\\|), 0, 1)",
    "TANH": "check_fp_bnd, calcAbsErrorBound(out_ref, 4(eb+2\\|x\\|), 0.5, 1), eb = 3 (fp32) / 1",
    "EXP": "check_fp_bnd, calcAbsErrorBound(out_ref, eb+2\\|x\\|, 0, 1), eb = 3 (fp32) / 1",
    "LOG": "check_fp_bnd, calcAbsErrorBound(out_ref, 5, 0.5, 1)",
    "COS": "check_fp_bnd, calcAbsErrorBound(1+\\|x\\|, 1, 0, 2)",
    "SIN": "check_fp_bnd, max(calcAbsErrorBound(x, 2, 0, 2), π·normal_min)",
    "POW": "check_fp_bnd, out_ref·expm1(mul_err) + exp_err (2.5.15)",
    "REDUCE_PRODUCT": "check_fp_bnd, max(\\|out_ref\\|, normal_min)·((1+2^(−frac−1))^n − 1)",
}


def coverage_rows(by_op: dict[str, list[Sub]], verdicts: list[Sub]) -> list[str]:
    """Markdown rows: operator | type rows (tested/all) | fragments | comparison."""
    lines = ["| operator | Supported Data Types rows tested | fragments | comparison (floats vs the precise reference unless exact) |",
             "|---|---|---|---|"]
    for op in sorted(by_op):
        subs = by_op[op]
        spec_rows = op_rows(op) if op not in ("COND_IF", "WHILE_LOOP") else []
        tested = {s.row.split("-")[0] if op not in ("CAST", "RESCALE", "MUL") else s.row for s in subs}
        if spec_rows:
            missing = [r for r in spec_rows if r not in tested]
            rows = f"{len(spec_rows) - len(missing)}/{len(spec_rows)}: {', '.join(spec_rows)}"
            if missing:
                rows += f" (missing: {', '.join(missing)})"
        else:
            rows = "(no type table): " + ", ".join(sorted(tested))
        checks = []
        for c in dict.fromkeys(s.check for s in subs):
            if c == "ulp":
                checks.append(f"check_fp, {subs[[s.check for s in subs].index('ulp')].ulp:g} ulp")
            elif c == "bnd":
                checks.append(BOUND_TEXT[op])
            else:
                checks.append(TOLERANCE[c])
        nv = [s for s in verdicts if s.op == op]
        extra = f"; verdicts: {', '.join(sorted({s.expect for s in nv}))}" if nv else ""
        label = "VARIABLE, VARIABLE_READ, VARIABLE_WRITE" if op == "VARIABLE" else op
        lines.append(f"| {label} | {rows} | {len(subs)}{extra} | {'; '.join(checks)} |")
    return lines


def write_docs(path) -> None:
    """Replace the table between the differential-coverage markers of docs/interpreter.md."""
    from pathlib import Path

    path = Path(path)
    text = path.read_text()
    begin, end = "<!-- differential-coverage:begin -->", "<!-- differential-coverage:end -->"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    table = "\n".join(coverage_rows(all_subs(), verdict_subs(np.random.default_rng(7))))
    path.write_text(f"{head}{begin}\n{table}\n{end}{tail}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if sys.argv[1:] == ["--write-docs"]:
        write_docs(Path(__file__).resolve().parents[2] / "docs" / "interpreter.md")
    else:
        print("\n".join(coverage_rows(all_subs(), verdict_subs(np.random.default_rng(7)))))

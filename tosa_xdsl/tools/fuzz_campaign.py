"""A mutation fuzzer over the lit corpus: `tosa-opt` and `tosa-run` must never crash.

    python -m tosa_xdsl.tools.fuzz_campaign --cases N [--seed S] [--jit-every K] [--timeout T]

Each case takes one `// -----` chunk of a tests/filecheck/**/*.mlir file, applies one to three
text mutations (integer literals: huge, negative, wide; integer widths; attribute values of the
wrong kind; a property deleted from a generic-form op; shapes; words; truncation) and runs it
in-process through `tosa_xdsl.tools.tosa_opt.main` (several option sets, random pipelines) or
`tosa_xdsl.tools.tosa_run.main` (random inputs written as .npy, interpreter or, every K-th
case, the JIT in a child process so a signal or hang is seen, not suffered). Some tosa-run
cases get a spoiled .npy input (`corrupt_npy`: truncated, bit flips, huge shape header, other
dtype or shape, pickles, not an .npy), and some cases take the bundled real model
(examples/face_detection_front .tosa.mlir mutated, or its .tflite with bytes flipped).
Each case's time is measured; the slowest are reported and cases over SLOW_SECONDS logged.

A case FAILS when the output holds "internal error" or "Traceback", the exit code is not 0, 1
or 2, a child process dies of a signal or runs past the time limit, or the interpreter and the
JIT disagree on a program both accept. docs/robustness.md records the figures of the last
long campaign. tests/robustness/test_fuzz_robustness.py runs a small seeded slice of it.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import io
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS_GLOB = os.path.join(ROOT, "tests", "filecheck", "**", "*.mlir")

OPT_OPTIONS = (
    [], ["-p", "tosa-validate"], ["--tosa-syntax=attr-dict"], ["--print-op-generic"],
    ["-p", "canonicalize"], ["-p", "tosa-infer-shapes"], ["-p", "tosa-layerwise-constant-fold"],
    ["-p", "tosa-to-linalg-pipeline"], ["-p", "tosa-to-llvm"],
)
# random pipelines: every registered pass but view-op-graph (it writes files)
PASSES = ("canonicalize", "tosa-validate", "tosa-infer-shapes", "tosa-layerwise-constant-fold",
          "tosa-make-broadcastable", "tosa-to-linalg-pipeline", "one-shot-bufferize",
          "convert-linalg-to-affine-loops", "tosa-to-llvm", "tosa-reduce-transposes")


def random_pipeline(rng: random.Random) -> list[str]:
    from tosa_xdsl.pass_registry import TOSA_PASSES

    names = PASSES if rng.random() < 0.5 else sorted(n for n in TOSA_PASSES if n != "view-op-graph")
    return ["-p", ",".join(rng.sample(names, rng.randint(1, 3)))]

INT_LITERAL = re.compile(r"(?<![\w.#%@^])-?\d+(?![\w.])")
INT_TYPE = re.compile(r"\b([iu]i?|si)(\d+)\b")
FLOAT_TYPE = re.compile(r"\b(f16|f32|bf16|f8E4M3FN|f8E5M2|f64)\b")
DIMS = re.compile(r"(tensor<|memref<)((?:\d+x)*)")
ATTR_VALUE = re.compile(r"(\b[a-z_]+ = )([^,}]+)")
PROPERTY = re.compile(r"(<\{|, )[a-z_]+ = [^,}]+(?=[,}])")

NUMBERS = ("0", "-1", "1", "2", "3", "7", "-2147483648", "2147483647", "4294967296",
           "9223372036854775807", "-9223372036854775809", "18446744073709551616", "9" * 5000,
           "65536", "-32769", "128", "255")
ATTRS = ('"x"', "unit", "i32", "[1, 2]", "dense<1> : tensor<2xi32>", "1.5 : f32", "true",
         "array<i32: 1, 2>", "(tensor<1xi32>) -> tensor<1xi32>", "@f", "{a = 1}",
         "dense<> : tensor<0xi32>", "3 : i7", "#tosa<acc_type f32>", "0 : i1")
WORDS = ("tosa.add", "tosa.const", "tosa.const_shape", "func.func", "return", "tosa.yield",
         "tosa.variable", "tosa.clamp", "tosa.reduce_all", "tosa.gather", "tosa.table")


def corpus() -> list[str]:
    """Every `// -----` chunk of the lit corpus, in a stable order."""
    chunks: list[str] = []
    for path in sorted(glob.glob(CORPUS_GLOB, recursive=True)):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for chunk in text.split("// -----"):
            body = "\n".join(line for line in chunk.splitlines() if not line.lstrip().startswith("//"))
            if body.strip():
                chunks.append(body)
    return chunks


# ------------------------------------------------------------------------------ mutations


def _sub_one(rng: random.Random, pattern: re.Pattern[str], text: str, repl) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[:m.start()] + repl(m) + text[m.end():]


def mutate(rng: random.Random, text: str) -> str:
    kind = rng.randrange(10)
    if kind == 0:
        return _sub_one(rng, INT_LITERAL, text, lambda m: rng.choice(NUMBERS))
    if kind == 1:
        widths = (1, 2, 3, 4, 7, 8, 12, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 128)
        return _sub_one(rng, INT_TYPE, text, lambda m: m.group(1) + str(rng.choice(widths)))
    if kind == 2:
        types = ("f16", "f32", "bf16", "f8E4M3FN", "f8E5M2", "f64", "i8", "i32", "i48")
        return _sub_one(rng, FLOAT_TYPE, text, lambda m: rng.choice(types))
    if kind == 3:
        return _sub_one(rng, ATTR_VALUE, text, lambda m: m.group(1) + rng.choice(ATTRS))
    if kind == 4:  # drop a property (generic form `<{...}>` or an attribute dictionary entry)
        return _sub_one(rng, PROPERTY, text, lambda m: m.group(1) if m.group(1) == "<{" else "")
    if kind == 5:
        def dims(m: re.Match[str]) -> str:
            parts = [p for p in m.group(2).split("x") if p]
            if parts and rng.random() < 0.7:
                parts[rng.randrange(len(parts))] = str(rng.choice((0, 1, 2, 3, 5, 65536)))
            elif parts:
                parts.pop(rng.randrange(len(parts)))
            else:
                parts = [str(rng.choice((1, 2, 3)))]
            return m.group(1) + "".join(p + "x" for p in parts)
        return _sub_one(rng, DIMS, text, dims)
    if kind == 6:
        return _sub_one(rng, re.compile(r"\btosa\.\w+|\bfunc\.func\b|\breturn\b"), text,
                        lambda m: rng.choice(WORDS))
    if kind == 7 and text:
        return text[:rng.randrange(len(text))]
    if kind == 8 and text:  # delete, duplicate or insert one character
        i = rng.randrange(len(text))
        op = rng.randrange(3)
        return text[:i] + text[i + 1:] if op == 0 else text[:i] + text[i] + text[i:] if op == 1 \
            else text[:i] + rng.choice("<>{}[](),:=%@x0-\"") + text[i:]
    # swap two lines
    lines = text.splitlines()
    if len(lines) > 2:
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
    return "\n".join(lines)


# -------------------------------------------------------------------------------- running


@dataclass
class Outcome:
    code: int
    out: str
    err: str


class CaseTimeout(BaseException):
    """Raised by SIGALRM in an in-process run that takes too long (a hang)."""


IN_PROCESS_SECONDS = 30
# a never-ending WHILE_LOOP must stop with a located error: a small bound keeps cases fast
# (the JIT runs the programs the interpreter finished, and those it stopped at this bound:
# native code must stop at the same loop with the same diagnostic)
MAX_LOOP_ITERATIONS = 2000
SLOW_SECONDS = 10  # logged (with the case id) so slow cases can be looked at; not a failure


def _alarm(signum, frame) -> None:
    import traceback
    raise CaseTimeout("".join(traceback.format_stack(frame)[-6:]))


def _in_process(main, argv: list[str]) -> Outcome:
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(IN_PROCESS_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # pragma: no cover - a bug either way
                code = e.code if isinstance(e.code, int) else 3
    except CaseTimeout as t:
        return Outcome(-1000, out.getvalue(), f"HANG: more than {IN_PROCESS_SECONDS} s in\n{t}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return Outcome(code, out.getvalue(), err.getvalue())


def run_opt(path: str, options: list[str]) -> Outcome:
    from tosa_xdsl.tools.tosa_opt import main
    return _in_process(main, [path, *options])


def random_inputs(rng: random.Random, text: str, workdir: str) -> list[str] | None:
    """.npy files for @main's (or the first function's) arguments, or None if unreadable."""
    import numpy as np

    from tosa_xdsl.context import make_context
    from tosa_xdsl.interpreter.values import dtype_of
    from tosa_xdsl.ir.access import shape_of

    try:
        from xdsl.dialects import func
        from xdsl.parser import Parser
        module = Parser(make_context(), text).parse_module()
        fns = [op for op in module.walk() if isinstance(op, func.FuncOp)]
        if not fns:
            return None
        fn = next((f for f in fns if f.sym_name.data == "main"), fns[0])
        paths = []
        for i, t in enumerate(fn.function_type.inputs.data):
            shape = shape_of(t)
            if shape is None or any(d < 0 for d in shape) or int(np.prod(shape)) > 4096:
                return None
            dtype = dtype_of(t)
            if dtype.kind == "b":
                a = rng.getrandbits(1) * np.ones(shape, bool) if rng.random() < 0.3 else \
                    np.random.default_rng(rng.getrandbits(32)).integers(0, 2, shape).astype(bool)
            elif dtype.kind in "iu":
                info = np.iinfo(dtype)
                g = np.random.default_rng(rng.getrandbits(32))
                # (a WHILE_LOOP counting from INT_MIN meets --max-loop-iterations)
                wide = rng.random() < 0.5
                lo, hi = (info.min, info.max) if wide else (-4, 5)
                a = g.integers(max(lo, info.min), min(hi, info.max), shape, dtype=dtype, endpoint=True)
            else:
                g = np.random.default_rng(rng.getrandbits(32))
                # no overflow-sized values: where an accumulation or its cast to out_t
                # overflows, the order of the sum (free for floats; the lowering adds a
                # convolution's bias first, in acc_t) decides between inf and NaN, and the
                # spec's compliance check has no accuracy limit there (1.10.3: an infinite
                # bound). fp16/bf16 dot products of x100 values overflow: scale 1; fp8 0.25.
                wide_float = dtype.itemsize >= 4
                scale = rng.choice((1, 100)) if wide_float else 1 if dtype.itemsize == 2 else 0.25
                vals = g.standard_normal(shape) * scale
                if rng.random() < 0.3:
                    flat = vals.reshape(-1)
                    flat[g.integers(0, max(flat.size, 1), 2) % max(flat.size, 1)] = rng.choice(
                        (np.inf, -np.inf, np.nan)) if flat.size else 0
                a = vals.astype(dtype)
            p = os.path.join(workdir, f"in{i}.npy")
            np.save(p, a)
            paths.append(p)
        return ["--entry", fn.sym_name.data, *[x for p in paths for x in ("-i", p)]]
    except Exception:
        return None


def run_run(path: str, args: list[str]) -> Outcome:
    from tosa_xdsl.tools.tosa_run import main
    return _in_process(main, [path, *args])


def run_child(argv: list[str], timeout: float) -> Outcome:
    """A child `python -m tosa_xdsl.tools.<tool>`: signals and hangs are outcomes too."""
    try:
        p = subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True,
                           timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return Outcome(-1000, "", f"HANG: more than {timeout} s")
    return Outcome(p.returncode, p.stdout, p.stderr)


LOOP_LIMIT = "did not finish within"  # the loop-bound diagnostic (interpreter/errors.py)


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0] if lines else ""


def failure(o: Outcome) -> str | None:
    """Why this outcome is a bug, or None."""
    both = o.out + o.err
    if "internal error" in both:
        return next(line for line in both.splitlines() if "internal error" in line)
    if "Traceback" in both:
        return "traceback: " + both.strip().splitlines()[-1]
    if o.code == -1000:
        return o.err
    if o.code < 0:
        return f"killed by signal {-o.code}"
    if o.code not in (0, 1, 2):
        return f"exit code {o.code}"
    return None


def _results(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("result #")]


@dataclass
class Stats:
    cases: int = 0
    opt_runs: int = 0
    run_runs: int = 0
    jit_runs: int = 0
    bad_npy_runs: int = 0
    model_runs: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    slowest: list[tuple[float, str]] = field(default_factory=list)  # (seconds, "seed:i"), top 5


BAD_NPY_RATE = 0.15  # of tosa-run cases: one input corrupted (corrupt_npy)
MODEL_RATE = 0.01  # of cases: the bundled real model (text or .tflite) mutated
MODEL_FILES = ("face_detection_front.tosa.mlir", "face_detection_front.tflite")
_model_cache: dict[str, bytes] = {}


def corrupt_npy(rng: random.Random, path: str) -> str:
    """Spoil one .npy input the ways a user can; returns what was done (for the log)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        data, how = _spoiled(rng, data)
    except (ValueError, TypeError, OverflowError):  # a conversion numpy refuses (bf16 bytes to U3)
        data, how = data[:len(data) // 2], "truncated"
    with open(path, "wb") as f:
        f.write(data)
    return how


def _spoiled(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    import warnings

    import numpy as np

    warnings.simplefilter("ignore", RuntimeWarning)  # casts of inf/NaN
    kind = rng.randrange(7)
    if kind == 0:
        data, how = data[:rng.randrange(len(data))], "truncated"
    elif kind == 1:
        i = rng.randrange(len(data))
        data, how = data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:], f"bit flipped at {i}"
    elif kind == 2:  # a header declaring a huge array over a few bytes
        buf = io.BytesIO()
        np.lib.format.write_array_header_1_0(buf, {"descr": "<f4", "fortran_order": False,
                                                   "shape": (1 << rng.choice((31, 40, 62)),)})
        data, how = buf.getvalue() + b"\0" * 16, "huge shape header"
    elif kind == 3:  # another dtype, same shape (object arrays are pickles)
        a = np.load(io.BytesIO(data), allow_pickle=False)
        dtype = rng.choice((np.float64, np.int16, np.complex64, np.uint64, object, "U3", "V3"))
        buf = io.BytesIO()
        np.save(buf, a.astype(dtype) if dtype is not object else np.array(a.tolist() or [None], dtype=object),
                allow_pickle=True)
        data, how = buf.getvalue(), f"as {np.dtype(dtype).str}"
    elif kind == 4:  # another shape
        a = np.load(io.BytesIO(data), allow_pickle=False)
        buf = io.BytesIO()
        np.save(buf, np.stack([a, a]) if rng.random() < 0.5 else a.reshape(-1)[:max(a.size - 1, 0)])
        data, how = buf.getvalue(), "reshaped"
    elif kind == 5:
        data, how = (b"" if rng.random() < 0.5 else bytes(rng.getrandbits(8) for _ in range(64))), "not an npy"
    else:  # Fortran order, scalar, or a non-native byte order
        a = np.load(io.BytesIO(data), allow_pickle=False)
        b = rng.choice((np.asfortranarray(a), a.astype(a.dtype.newbyteorder(">")) if a.dtype.kind in "iuf" else a,
                        np.array(a.reshape(-1)[0] if a.size else 0)))
        buf = io.BytesIO()
        np.save(buf, b)
        data, how = buf.getvalue(), "re-laid out"
    return data, how


def model_case(rng: random.Random, stats: Stats, workdir: str) -> None:
    """A real model (examples/face_detection_front: the .tosa.mlir text mutated as the corpus
    is, or the .tflite with bytes flipped or cut) through tosa-opt."""
    name = rng.choice(MODEL_FILES)
    if name not in _model_cache:
        with open(os.path.join(ROOT, "examples", name), "rb") as f:
            _model_cache[name] = f.read()
    data = _model_cache[name]
    if name.endswith(".mlir"):
        text = data.decode()
        for _ in range(rng.randint(1, 3)):
            text = mutate(rng, text)
        data, how = text.encode(), "mutated text"
    else:
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.getrandbits(8)
        data = bytes(b[:rng.randrange(len(b))]) if rng.random() < 0.2 else bytes(b)
        how = "bytes flipped"
    path = os.path.join(workdir, "model" + os.path.splitext(name)[1])
    with open(path, "wb") as f:
        f.write(data)
    options = rng.choice(([], ["-p", "tosa-validate"], ["-p", "canonicalize"], ["-p", "tosa-infer-shapes"]))
    stats.opt_runs += 1
    stats.model_runs += 1
    o = run_opt(path, list(options))
    why = failure(o)
    if why:
        stats.failures.append((why, f"tosa-opt {' '.join(options)} on {name} ({how}; rerun the case id to get it)"))


def one_case(rng: random.Random, chunks: list[str], stats: Stats, workdir: str,
             jit: bool, timeout: float) -> None:
    if rng.random() < MODEL_RATE:
        stats.cases += 1
        model_case(rng, stats, workdir)
        return
    text = rng.choice(chunks)
    for _ in range(rng.randint(1, 3)):
        text = mutate(rng, text)
    path = os.path.join(workdir, "case.mlir")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    stats.cases += 1
    r = rng.random()
    if r < 0.55 or "func.func" not in text:
        if rng.random() < 0.2:
            options = random_pipeline(rng)
        else:
            options = rng.choice(OPT_OPTIONS)
        stats.opt_runs += 1
        o = run_opt(path, list(options))
        why = failure(o)
        if why:
            stats.failures.append((why, f"tosa-opt {' '.join(options)}\n{text}"))
        return
    args = random_inputs(rng, text, workdir)
    if args is None:
        return
    args += ["--print", "--max-loop-iterations", str(MAX_LOOP_ITERATIONS)]
    inputs = [a for a in args if a.endswith(".npy")]
    if inputs and rng.random() < BAD_NPY_RATE:
        how = corrupt_npy(rng, rng.choice(inputs))
        stats.bad_npy_runs += 1
        stats.run_runs += 1
        o = run_run(path, args)
        why = failure(o)
        if why:
            stats.failures.append((why, f"tosa-run {' '.join(args)} (an input {how})\n{text}"))
        return
    stats.run_runs += 1
    o = run_run(path, args)
    why = failure(o)
    if why:
        stats.failures.append((why, f"tosa-run {' '.join(args)}\n{text}"))
        return
    if jit and o.code == 1 and LOOP_LIMIT in o.err:
        # a WHILE_LOOP past the bound: native code must stop at the same loop with the same
        # diagnostic (bound-while-loops), not run on
        stats.jit_runs += 1
        j = run_child(["tosa_xdsl.tools.tosa_run", path, *[a for a in args if a != "--print"],
                       "--backend", "jit"], timeout)
        why = failure(j)
        if why is None and (j.code, _first_line(j.err)) != (1, _first_line(o.err)):
            why = f"the JIT does not stop the loop as the interpreter does: {_first_line(j.err) or j.code}"
        if why:
            stats.failures.append((why, f"tosa-run --backend jit {' '.join(args)}\n{text}"))
        return
    if jit and o.code == 0:
        stats.jit_runs += 1
        n_out = len(_results(o.out))
        outs = [os.path.join(workdir, f"interp{k}.npy") for k in range(n_out)]
        jouts = [os.path.join(workdir, f"jit{k}.npy") for k in range(n_out)]
        base = [a for a in args if a != "--print"]
        o2 = run_run(path, [*base, *[x for p in outs for x in ("-o", p)]])
        j = run_child(["tosa_xdsl.tools.tosa_run", path, *base, "--backend", "jit",
                       *[x for p in jouts for x in ("-o", p)]], timeout)
        why = failure(j)
        if why:
            stats.failures.append((why, f"tosa-run --backend jit {' '.join(args)}\n{text}"))
        elif j.code == 0 and o2.code == 0:
            diff = compare_outputs(outs, jouts, extra_multiplies=_extra_multiplies_matter(text, args))
            if diff:
                stats.failures.append((f"interpreter and JIT disagree: {diff}",
                                       f"tosa-run {' '.join(args)}\n{text}\n-- interp:\n{o.out}"))


CONVOLUTION = re.compile(r"\btosa\.(conv2d|conv3d|depthwise_conv2d|transpose_conv2d)\b")


def _extra_multiplies_matter(text: str, args: list[str]) -> bool:
    """A convolution fed a non-finite value: the spec lets an implementation multiply the
    padding too (tosa_extra_multiplies is IMPLEMENTATION_DEFINED, 1.10.3), so `inf * 0` may
    make a NaN the reference (no extra multiplies) does not have; the compliance check then
    has a NaN bound and "no further accuracy requirements"."""
    import numpy as np

    if not CONVOLUTION.search(text):
        return False
    for a in args:
        if a.endswith(".npy"):
            x = np.load(a, allow_pickle=False)
            if x.dtype.kind == "f" and not np.isfinite(x).all():
                return True
    return "inf" in text or "nan" in text or "0x7F8" in text or "0xFF8" in text


def compare_outputs(a_paths: list[str], b_paths: list[str], extra_multiplies: bool = False) -> str | None:
    """Why two runs' .npy outputs differ, or None: integers and booleans bit-exactly; floats
    with the same NaN and infinity positions and finite values within float tolerance (the
    spec lets float accumulation order differ). `extra_multiplies`: b (the implementation)
    may have NaN where a (the reference) has none (see _extra_multiplies_matter); where a has
    NaN, b must too, as the compliance check says."""
    import numpy as np

    for k, (pa, pb) in enumerate(zip(a_paths, b_paths)):
        a, b = np.load(pa), np.load(pb)
        if a.shape != b.shape or a.dtype != b.dtype:
            return f"result {k}: {a.dtype}{list(a.shape)} vs {b.dtype}{list(b.shape)}"
        if a.dtype.kind == "V":  # bf16/fp8 raw bits
            a, b = a.view(f"u{a.dtype.itemsize}"), b.view(f"u{b.dtype.itemsize}")
        if a.dtype.kind != "f":
            if not np.array_equal(a, b):
                return f"result {k}: integers differ at {np.argwhere(a != b)[:3].tolist()}"
            continue
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        if extra_multiplies:
            free = np.isnan(b64) & ~np.isnan(a64)
            a64, b64 = np.where(free, np.nan, a64), np.where(free, np.nan, b64)
        if not np.array_equal(np.isnan(a64), np.isnan(b64)):
            return f"result {k}: NaN positions differ at {np.argwhere(np.isnan(a64) != np.isnan(b64))[:3].tolist()}"
        inf_a, inf_b = np.where(np.isinf(a64), a64, 0), np.where(np.isinf(b64), b64, 0)
        if not np.array_equal(inf_a, inf_b):
            return f"result {k}: infinities differ at {np.argwhere(inf_a != inf_b)[:3].tolist()}"
        fin = np.isfinite(a64)
        scale = max(float(np.max(np.abs(a64[fin]), initial=0.0)), 1.0)
        if not np.allclose(a64[fin], b64[fin], rtol=1e-2, atol=1e-3 * scale):
            return f"result {k}: finite values differ beyond tolerance"
    return None


def _shorten(text: str) -> str:
    return re.sub(r"\d{60,}", lambda m: f"{m.group()[0]}*{len(m.group())}", text)


def campaign(cases: int, seed: int, jit_every: int = 0, timeout: float = 60.0,
             budget: float | None = None, log=None) -> Stats:
    chunks = corpus()
    stats = Stats()
    start = time.monotonic()
    from tosa_xdsl.xdsl_patches import quiet_emit_error
    with tempfile.TemporaryDirectory() as workdir, quiet_emit_error():
        for i in range(cases):
            if budget is not None and time.monotonic() - start > budget:
                break
            rng = random.Random(f"{seed}:{i}")
            n = len(stats.failures)
            t0 = time.monotonic()
            one_case(rng, chunks, stats, workdir, bool(jit_every) and i % jit_every == 0, timeout)
            seconds = time.monotonic() - t0
            stats.slowest = sorted([*stats.slowest, (seconds, f"{seed}:{i}")], reverse=True)[:5]
            if log is not None and len(stats.failures) > n:
                why, case = stats.failures[-1]
                log.write(f"=== case {seed}:{i} ({seconds:.1f} s): {why}\n{_shorten(case)}\n")
                log.flush()
            elif log is not None and seconds > SLOW_SECONDS:
                log.write(f"=== slow case {seed}:{i}: {seconds:.1f} s (not a failure)\n")
                log.flush()
    return stats


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="fuzz_campaign", description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jit-every", type=int, default=50, help="every K-th run case also runs the JIT (0: never)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds for a child JIT run")
    p.add_argument("--log", default="-", help="where to write failing cases")
    p.add_argument("--budget", type=float, default=None, help="stop after this many seconds")
    args = p.parse_args(argv)
    log = sys.stdout if args.log == "-" else open(args.log, "w", encoding="utf-8")
    t0 = time.monotonic()
    stats = campaign(args.cases, args.seed, args.jit_every, args.timeout, budget=args.budget, log=log)
    kinds: dict[str, int] = {}
    for why, _ in stats.failures:
        key = re.sub(r"\d+", "N", why.splitlines()[0].split("error: ", 1)[-1])[:140]
        kinds[key] = kinds.get(key, 0) + 1
    sys.stdout.write(f"cases {stats.cases} (tosa-opt {stats.opt_runs}, tosa-run {stats.run_runs}, "
                     f"jit {stats.jit_runs}, bad .npy {stats.bad_npy_runs}, model {stats.model_runs}) in {time.monotonic() - t0:.0f} s: "
                     f"{len(stats.failures)} failures, {len(kinds)} kinds\n")
    for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]):
        sys.stdout.write(f"  {n:5d}  {k}\n")
    sys.stdout.write("slowest cases: " + ", ".join(f"{c} {s:.1f} s" for s, c in stats.slowest) + "\n")
    return 1 if stats.failures else 0


if __name__ == "__main__":
    sys.exit(main())

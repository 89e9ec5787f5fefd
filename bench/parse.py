"""Parse / verify / print throughput of TOSA IR.

    python bench/parse.py                # table on stdout
    python bench/parse.py --record       # ... and into docs/performance.md, section "Parsing"
    python bench/parse.py --ops 5000 --repeat 1 --no-slow   # quicker

Inputs:
- examples/face_detection_front.tosa.mlir: the bundled model (attr-dict syntax, ~260 ops,
  large hex dense constants);
- a generated module of N (default 20k) tensor-typed TOSA ops: add/mul/sub on
  tensor<1x16x16x8xf32>, conv2d, const_shape + reshape, clamp, rescale; written in the
  keyword syntax, in the attr-dict syntax and in the generic syntax.

Each custom-syntax input is parsed with the TOSA fast paths (tosa_xdsl.dialects.tosa.fast_parse) and
without them (the plain `Parser`-method path, the "before" numbers); the generic-syntax
input is parsed by xDSL's generic op parser, the baseline. Times are CPU time of this
process (time.process_time: the benchmark box is shared, and wall time there measures the
neighbours as much as us), best of `--repeat` runs. Verify is `module.verify()`; print is
`tosa_xdsl.printing.print_ir` in the input's style.
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "face_detection_front.tosa.mlir"
DOC = ROOT / "docs" / "performance.md"

T = "tensor<1x16x16x8xf32>"
Q = "tensor<1x16x16x8xi8>"

# ------------------------------------------------------------------------ generated module

_HEADER = {
    "keyword": [
        '%w = tosa.const values(dense<5.000000e-01> : tensor<8x3x3x8xf32>) : () -> tensor<8x3x3x8xf32>',
        '%b = tosa.const values(dense<0.000000e+00> : tensor<8xf32>) : () -> tensor<8xf32>',
        '%zp = tosa.const values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>',
        '%sh = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>',
        '%m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>',
        '%s4 = tosa.const_shape values(dense<[1, 16, 16, 8]> : tensor<4xindex>) : () -> !tosa.shape<4>',
    ],
    "attr-dict": [
        '%w = "tosa.const"() <{values = dense<5.000000e-01> : tensor<8x3x3x8xf32>}> : () -> tensor<8x3x3x8xf32>',
        '%b = "tosa.const"() <{values = dense<0.000000e+00> : tensor<8xf32>}> : () -> tensor<8xf32>',
        '%zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>',
        '%sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>',
        '%m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>',
        '%s4 = tosa.const_shape {values = dense<[1, 16, 16, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>',
    ],
}
_HEADER["generic"] = [
    line.replace("tosa.const_shape {", '"tosa.const_shape"() <{').replace("} :", "}> :")
    for line in _HEADER["attr-dict"]
]

# One group of ten ops; {p} is the value the group starts from, {i} a unique prefix.
_CONV = "(%s, tensor<8x3x3x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> %s" % (T, T)
_RESCALE = "(%s, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> %s" % (Q, Q)
_GROUP = {
    "keyword": [
        f"%{{i}}a = tosa.add {{p}}, %arg0 : ({T}, {T}) -> {T}",
        f"%{{i}}b = tosa.mul %{{i}}a, {{p}}, %sh : ({T}, {T}, tensor<1xi8>) -> {T}",
        f"%{{i}}c = tosa.sub %{{i}}b, %{{i}}a : ({T}, {T}) -> {T}",
        f"%{{i}}d = tosa.conv2d %{{i}}c, %w, %b, %zp, %zp pad([1, 1, 1, 1]) stride([1, 1]) "
        f"dilation([1, 1]) acc_type(f32) : {_CONV}",
        "%{i}e = tosa.const_shape values(dense<[1, 256, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>",
        f"%{{i}}f = tosa.reshape %{{i}}d, %{{i}}e : ({T}, !tosa.shape<3>) -> tensor<1x256x8xf32>",
        f"%{{i}}g = tosa.reshape %{{i}}f, %s4 : (tensor<1x256x8xf32>, !tosa.shape<4>) -> {T}",
        f"%{{i}}h = tosa.clamp %{{i}}g min_val(0.000000e+00 : f32) max_val(6.000000e+00 : f32) : ({T}) -> {T}",
        "%{i}q = tosa.rescale %arg1, %m, %sh, %sh, %sh scale32(true) rounding_mode<DOUBLE_ROUND> "
        f"per_channel(false) input_unsigned(false) output_unsigned(false) : {_RESCALE}",
        f"%{{i}}z = tosa.add %{{i}}h, %{{i}}c : ({T}, {T}) -> {T}",
    ],
    "attr-dict": [
        f"%{{i}}a = tosa.add {{p}}, %arg0 : ({T}, {T}) -> {T}",
        f"%{{i}}b = tosa.mul %{{i}}a, {{p}}, %sh : ({T}, {T}, tensor<1xi8>) -> {T}",
        f"%{{i}}c = tosa.sub %{{i}}b, %{{i}}a : ({T}, {T}) -> {T}",
        "%{i}d = tosa.conv2d %{i}c, %w, %b, %zp, %zp {{acc_type = f32, dilation = array<i64: 1, 1>, "
        "pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}} : " + _CONV,
        "%{i}e = tosa.const_shape {{values = dense<[1, 256, 8]> : tensor<3xindex>}} : () -> !tosa.shape<3>",
        f"%{{i}}f = tosa.reshape %{{i}}d, %{{i}}e : ({T}, !tosa.shape<3>) -> tensor<1x256x8xf32>",
        f"%{{i}}g = tosa.reshape %{{i}}f, %s4 : (tensor<1x256x8xf32>, !tosa.shape<4>) -> {T}",
        "%{i}h = tosa.clamp %{i}g {{max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32}} : "
        f"({T}) -> {T}",
        "%{i}q = tosa.rescale %arg1, %m, %sh, %sh, %sh {{input_unsigned = false, output_unsigned = false, "
        "per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true}} : " + _RESCALE,
        f"%{{i}}z = tosa.add %{{i}}h, %{{i}}c : ({T}, {T}) -> {T}",
    ],
    "generic": [
        f'%{{i}}a = "tosa.add"({{p}}, %arg0) : ({T}, {T}) -> {T}',
        f'%{{i}}b = "tosa.mul"(%{{i}}a, {{p}}, %sh) : ({T}, {T}, tensor<1xi8>) -> {T}',
        f'%{{i}}c = "tosa.sub"(%{{i}}b, %{{i}}a) : ({T}, {T}) -> {T}',
        '%{i}d = "tosa.conv2d"(%{i}c, %w, %b, %zp, %zp) <{{acc_type = f32, dilation = array<i64: 1, 1>, '
        "pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}}> : " + _CONV,
        '%{i}e = "tosa.const_shape"() <{{values = dense<[1, 256, 8]> : tensor<3xindex>}}> : () -> !tosa.shape<3>',
        f'%{{i}}f = "tosa.reshape"(%{{i}}d, %{{i}}e) : ({T}, !tosa.shape<3>) -> tensor<1x256x8xf32>',
        f'%{{i}}g = "tosa.reshape"(%{{i}}f, %s4) : (tensor<1x256x8xf32>, !tosa.shape<4>) -> {T}',
        '%{i}h = "tosa.clamp"(%{i}g) <{{max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32, '
        "nan_mode = #tosa.nan_mode<PROPAGATE>}}> : "
        f"({T}) -> {T}",
        '%{i}q = "tosa.rescale"(%arg1, %m, %sh, %sh, %sh) <{{input_unsigned = false, output_unsigned = false, '
        "per_channel = false, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, scale32 = true}}> : "
        + _RESCALE,
        f'%{{i}}z = "tosa.add"(%{{i}}h, %{{i}}c) : ({T}, {T}) -> {T}',
    ],
}
GROUP_SIZE = len(_GROUP["keyword"])
HEADER_SIZE = len(_HEADER["keyword"])


def generate(n_ops: int = 20_000, style: str = "keyword") -> str:
    """A func of about `n_ops` TOSA ops (rounded to whole groups of ten, plus a six-op
    header and the return) in `style` ("keyword", "attr-dict" or "generic")."""
    groups = max(1, (n_ops - HEADER_SIZE) // GROUP_SIZE)
    lines = [
        f"func.func @main(%arg0: {T}, %arg1: {Q}) -> {T} {{",
        *("  " + line for line in _HEADER[style]),
    ]
    prev = "%arg0"
    template = ["  " + line for line in _GROUP[style]]
    for g in range(groups):
        i = f"v{g}"
        lines.extend(line.format(i=i, p=prev) for line in template)
        prev = f"%{i}z"
    ret = f"  func.return {prev} : {T}" if style != "generic" else f'  "func.return"({prev}) : ({T}) -> ()'
    lines.append(ret)
    lines.append("}")
    return "\n".join(lines) + "\n"


def count_ops(module) -> int:
    return sum(1 for _ in module.walk())


# ------------------------------------------------------------------------------ measuring


def make_context():
    try:
        from tosa_xdsl.context import make_context as make

        return make()
    except ImportError:  # pragma: no cover - before context.py existed
        from xdsl.context import Context
        from xdsl.dialects.builtin import Builtin
        from xdsl.dialects.func import Func

        from tosa_xdsl.dialects.tosa.dialect import Tosa

        ctx = Context()
        for d in (Builtin, Func, Tosa):
            ctx.load_dialect(d)
        return ctx


def best_of(repeat: int, fn: Callable[[], object]) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def measure(text: str, fast: bool, repeat: int, print_style: str | None) -> dict[str, float]:
    from xdsl.parser import Parser

    from tosa_xdsl.dialects.tosa import fast_parse
    from tosa_xdsl.printing import print_ir

    ctx = make_context()
    Parser(ctx, generate(20, "keyword")).parse_module()  # load lazy dialects outside the timing
    with fast_parse.enabled(fast):
        t_parse, module = best_of(repeat, lambda: Parser(ctx, text).parse_module())
    def verify_cold():
        # each run starts without recorded verdicts (tosa_xdsl/dialects/tosa/ops/verify_cache.py):
        # a repeated verification of the same module would otherwise measure cache hits only
        from tosa_xdsl.dialects.tosa.ops import verify_cache

        verify_cache.invalidate()
        t0 = time.process_time()
        module.verify()
        return time.process_time() - t0

    t_verify = min(verify_cold() for _ in range(repeat))
    row = {
        "ops": count_ops(module) - 1,  # without the builtin.module
        "bytes": len(text.encode()),
        "parse": t_parse,
        "verify": t_verify,
    }
    if print_style is not None:
        row["print"], _ = best_of(repeat, lambda: print_ir(module, style=print_style))
    return row


def fmt_rate(n: float, t: float) -> str:
    return f"{n / t:,.0f}" if t > 0 else "-"


def table(rows: list[tuple[str, str, dict[str, float]]]) -> str:
    out = [
        "| input | parser | ops | MB | parse s | parse ops/s | parse MB/s | verify s | verify ops/s "
        "| print s (same style) |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for name, how, r in rows:
        mb = r["bytes"] / 1e6
        out.append(
            f"| {name} | {how} | {r['ops']:,} | {mb:.2f} | {r['parse']:.3f} | "
            f"{fmt_rate(r['ops'], r['parse'])} | {mb / r['parse']:.2f} | {r['verify']:.3f} | "
            f"{fmt_rate(r['ops'], r['verify'])} | "
            + (f"{r['print']:.3f}" if "print" in r else "-")
            + " |"
        )
    return "\n".join(out)


# ------------------------------------------------------------------------- docs/performance.md

SECTION = "## Parsing"


def record(section_body: str) -> None:
    """Replace (or append) the "## Parsing" section of docs/performance.md, leaving the
    other sections alone."""
    text = DOC.read_text() if DOC.exists() else "# Performance\n"
    section = f"{SECTION}\n\n{section_body.strip()}\n"
    pattern = re.compile(r"^## Parsing\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1).rstrip() + "\n"
    else:
        text = text.rstrip() + "\n\n" + section
    DOC.write_text(text)


MEASURED_START = "<!-- bench/parse.py --record: start -->"
MEASURED_END = "<!-- bench/parse.py --record: end -->"


def record_measurements(body: str) -> None:
    """Replace only the measured block inside the Parsing section (keeping its prose)."""
    text = DOC.read_text() if DOC.exists() else ""
    block = f"{MEASURED_START}\n{body.strip()}\n{MEASURED_END}"
    if MEASURED_START in text and MEASURED_END in text:
        start = text.index(MEASURED_START)
        end = text.index(MEASURED_END) + len(MEASURED_END)
        DOC.write_text(text[:start] + block + text[end:])
    else:
        record(block)


# ------------------------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", type=int, default=20_000, help="size of the generated module")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    ap.add_argument("--no-slow", action="store_true", help="skip the runs without fast paths")
    ap.add_argument("--record", action="store_true", help="write the table into docs/performance.md")
    args = ap.parse_args(argv)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    rows: list[tuple[str, str, dict[str, float]]] = []

    def run(name: str, how: str, text: str, fast: bool, style: str | None, repeat: int) -> None:
        row = measure(text, fast, repeat, style)
        rows.append((name, how, row))
        print(table(rows[-1:]).splitlines()[-1], flush=True)

    print(table([]), flush=True)
    example = EXAMPLE.read_text()
    run("face_detection_front (attr-dict)", "TOSA fast path", example, True, "attr-dict", args.repeat)
    if not args.no_slow:
        run("face_detection_front (attr-dict)", "TOSA, no fast path", example, False, None, args.repeat)
    gen_name = f"generated {args.ops // 1000}k ops"
    for style in ("keyword", "attr-dict"):
        text = generate(args.ops, style)
        run(f"{gen_name} ({style})", "TOSA fast path", text, True, style, args.repeat)
        if not args.no_slow:
            run(f"{gen_name} ({style})", "TOSA, no fast path", text, False, None, 1)
    run(f"{gen_name} (generic)", "xDSL generic", generate(args.ops, "generic"), True, "generic", 1)

    if args.record:
        body = (
            f"Measured on {machine()} with `python bench/parse.py`"
            + (f" --ops {args.ops}" if args.ops != 20_000 else "")
            + ".\n\n"
            + table(rows)
        )
        record_measurements(body)
        print(f"recorded in {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

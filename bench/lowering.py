"""Lowering speed on the bundled model, side by side with upstream MLIR's own TOSA lowering.

    python bench/lowering.py [--repeat N] [--record]

Rows (same input, one run, CPU time = user + sys, median of --repeat):
- tosa-opt -p tosa-to-linalg-pipeline, whole process (start-up + parse + passes + print);
- the same passes in-process (parsed module, passes only);
- iree-opt (newest upstream MLIR): `--iree-tosa-input-transformation-pipeline`, IREE's TOSA
  input pipeline, which runs upstream's tosa-to-linalg-named / tosa-to-linalg / tosa-to-tensor /
  tosa-to-arith with their pre-passes (iree-opt registers none of those passes on their own
  except tosa-to-linalg/-tensor/-arith), whole process;
- MLIR 22 mlir-opt: the same list with tosa-optional-decompositions, whole process (its
  tosa-to-linalg-pipeline proper rejects this valid model at level 8k, see docs/lowering.md).
`--record` rewrites the "Lowering" block of docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MODEL, machine, record, timed  # noqa: E402

UPSTREAM = ("canonicalize,tosa-infer-shapes,tosa-make-broadcastable,tosa-to-linalg-named,canonicalize,"
            "tosa-layerwise-constant-fold,tosa-make-broadcastable,tosa-to-linalg,tosa-to-tensor,tosa-to-arith")
MLIR_22 = Path("/usr/lib/llvm-22/bin/mlir-opt")


def in_process(repeat: int) -> tuple[float, float]:
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context
    from tosa_xdsl.lowering.pipelines import TosaToLinalgPipelinePass

    text = MODEL.read_text()
    cpu, wall = [], []
    for _ in range(repeat):
        module = Parser(make_context(), text).parse_module()
        c, t = time.process_time(), time.perf_counter()
        TosaToLinalgPipelinePass().apply(make_context(), module)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(cpu), statistics.median(wall)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--record", action="store_true")
    args = ap.parse_args()
    bindir = Path(sys.executable).parent
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        keyword = Path(tmp) / "model.mlir"  # iree-opt reads only the keyword syntax
        attr_dict = Path(tmp) / "model_attr_dict.mlir"  # MLIR 22 only the attribute-dictionary one
        subprocess.run([str(bindir / "tosa-opt"), str(MODEL), "-o", str(keyword)], check=True)
        subprocess.run([str(bindir / "tosa-opt"), str(MODEL), "--tosa-syntax=attr-dict", "-o", str(attr_dict)],
                       check=True)
        ours = [str(bindir / "tosa-opt"), str(MODEL), "-p", "tosa-to-linalg-pipeline", "-o", "/dev/null"]
        rows.append(("tosa-opt -p tosa-to-linalg-pipeline, whole process", *timed(ours, args.repeat)))
        try:
            rows.append(("the same passes in-process (parse excluded)", in_process(args.repeat), None))
        except Exception as exc:  # noqa: BLE001
            rows.append(("the same passes in-process (parse excluded)", None, [str(exc)]))
        iree = [str(bindir / "iree-opt"), "--iree-tosa-input-transformation-pipeline", str(keyword),
                "-o", "/dev/null"]
        rows.append(("iree-opt --iree-tosa-input-transformation-pipeline (upstream's TOSA lowering), whole process",
                     *timed(iree, args.repeat)))
        m22 = [str(MLIR_22), f"--pass-pipeline=builtin.module(func.func(tosa-optional-decompositions,{UPSTREAM}))",
               str(attr_dict), "-o", "/dev/null"]
        rows.append(("MLIR 22 mlir-opt, same passes + tosa-optional-decompositions, whole process",
                     *timed(m22, args.repeat)))
    lines = ["| lowering the example model to linalg | CPU time (user+sys), median | wall time, median |",
             "|---|---|---|"]
    for name, t, err in rows:
        if t is None:
            lines.append(f"| {name} | n/a ({'; '.join(err or [])}) | |")
        else:
            lines.append(f"| {name} | {t[0]:.3f} s | {t[1]:.3f} s |")
    text = (f"Measured on {machine()} with `python bench/lowering.py --repeat {args.repeat}` "
            f"(median of {args.repeat} runs).\n\n" + "\n".join(lines))
    print(text)
    if args.record:
        record("lowering.py", "Lowering", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

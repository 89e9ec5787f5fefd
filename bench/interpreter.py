"""Interpreter speed on the bundled model, side by side with Arm's reference model.

    python bench/interpreter.py [--repeat N] [--no-record]

Measures
- tosa-run whole process, one inference (parse + verify + run + write outputs);
- in-process steady state per inference (Session.call on an already parsed module);
- tosa_reference_model whole process on the same model (translator-serialized once).
Results are recorded under the "Interpreter" heading of docs/performance.md.
Goal: per inference at most half the reference model's whole-process time.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "examples/face_detection_front.tosa.mlir"
INPUT = ROOT / "examples/face_detection_front.input_0.npy"
DOC = ROOT / "docs/performance.md"


def timed(cmd, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if proc.returncode != 0:
            return None, proc.stderr.strip().splitlines()[-1:] or ["failed"]
    return statistics.median(times), None


def reference_model(repeat):
    sys.path.insert(0, str(ROOT))
    from tests import oracle

    with tempfile.TemporaryDirectory() as tmp:
        graph = oracle.serialize(MODEL.read_text())
        gpath = Path(tmp) / "g.json"
        import json

        gpath.write_text(json.dumps(graph))
        block = graph["regions"][0]["blocks"][0]
        cmd = [str(oracle.REFERENCE_MODEL), "--tosa_file", str(gpath), "--operator_fbs", str(oracle.SCHEMA),
               "--ifm_name", ",".join(block["inputs"]), "--ifm_file", str(INPUT),
               "--ofm_name", ",".join(block["outputs"]),
               "--ofm_file", ",".join(str(Path(tmp) / f"o{i}.npy") for i in range(len(block["outputs"]))),
               "--output_dir", tmp]
        return timed(cmd, repeat)


def in_process(repeat):
    from tosa_xdsl.interpreter.runner import Session
    from tosa_xdsl.tools.tosa_run import load_module

    loaded = load_module(str(MODEL), MODEL.read_text(), [])
    session = Session(loaded.module)
    x = np.load(INPUT)
    session.call([x])  # warm-up (constants converted once)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        session.call([x])
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def record(text: str) -> None:
    DOC.parent.mkdir(exist_ok=True)
    doc = DOC.read_text() if DOC.exists() else "# Performance\n"
    section = "## Interpreter\n\n" + text.strip() + "\n"
    if "## Interpreter\n" in doc:
        doc = re.sub(r"## Interpreter\n.*?(?=\n## |\Z)", section, doc, flags=re.S)
    else:
        doc = doc.rstrip() + "\n\n" + section
    DOC.write_text(doc)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args()
    tosa_run = Path(sys.executable).with_name("tosa-run")
    with tempfile.TemporaryDirectory() as tmp:
        whole, err = timed([str(tosa_run), str(MODEL), "-i", str(INPUT), "-o", f"{tmp}/o0.npy",
                            "-o", f"{tmp}/o1.npy"], args.repeat)
    try:
        steady = in_process(args.repeat) if err is None else None
    except Exception as exc:  # noqa: BLE001
        steady, err = None, [str(exc)]
    ref, ref_err = reference_model(args.repeat)
    rows = [
        ("tosa-run, whole process, 1 inference", whole, err),
        ("interpreter in-process, steady state, per inference", steady, err),
        ("tosa_reference_model, whole process, 1 inference", ref, ref_err),
    ]
    lines = ["| measurement | median time |", "|---|---|"]
    for name, t, e in rows:
        lines.append(f"| {name} | {f'{t:.3f} s' if t is not None else 'n/a (' + '; '.join(e or []) + ')'} |")
    verdict = ""
    if steady is not None and ref is not None:
        verdict = (f"\nGoal (per inference <= half the reference model's whole-process time, "
                   f"{ref / 2:.3f} s): {'met' if steady <= ref / 2 else 'NOT met'} "
                   f"({steady / ref:.2f}x).")
    text = (f"Model: examples/{MODEL.name}, median of {args.repeat} runs "
            f"(`python bench/interpreter.py`).\n\n" + "\n".join(lines) + "\n" + verdict)
    print(text)
    if not args.no_record:
        record(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Interpreter speed on the bundled model, side by side with Arm's reference model.

    python bench/interpreter.py [--repeat N] [--record]

Measures
- tosa-run whole process, one inference (start-up, parse + verify + run + write outputs, exit);
- in-process steady state per inference (Session.call on an already parsed module);
- tosa_reference_model whole process on the same model (translator-serialized once).

Every time is given as CPU time (user + sys of the process, `os.wait4` / `time.process_time`)
and as wall-clock time, median of --repeat runs. The verdicts use CPU time: the box is
shared by several developers, and wall-clock time there mostly measures the neighbours
(a single-threaded process waits for a core). Compare rows of one run with each other.

Before timing, tosa-run runs once untimed with bytecode writing allowed: this environment
sets PYTHONDONTWRITEBYTECODE=1, so every module edited since its .pyc was written would be
compiled again on every start-up (tens of ms per module), which is not what an installed
tool costs.

Goals (docs/performance.md, "Interpreter"): per inference at most half the reference
model's whole-process time; tosa-run's whole process at most 3x the reference model's.
`--record` rewrites the "Interpreter" section of docs/performance.md (keeping the text
before the first table: the history of what changed).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
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
MARK_START = "<!-- bench/interpreter.py --record: start -->"
MARK_END = "<!-- bench/interpreter.py --record: end -->"


def _run_once(cmd, env=None) -> tuple[float, float, subprocess.CompletedProcess | None, str]:
    """(cpu seconds, wall seconds, returncode, last stderr line) of one child process."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    lines = err.decode(errors="replace").strip().splitlines()
    return usage.ru_utime + usage.ru_stime, wall, proc.returncode, (lines[-1] if lines else "failed")


def timed(cmd, repeat, env=None):
    """((median cpu, median wall), None) or (None, [error line])."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, w, code, last = _run_once(cmd, env)
        if code != 0:
            return None, [last]
        cpu.append(c)
        wall.append(w)
    return (statistics.median(cpu), statistics.median(wall)), None


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
        env = dict(os.environ, TOSA_MODEL_NO_BACKTRACE="1")
        return timed(cmd, repeat, env)


def in_process(repeat):
    from tosa_xdsl.interpreter.runner import Session
    from tosa_xdsl.tools.tosa_run import load_module

    loaded = load_module(str(MODEL), MODEL.read_text(), [])
    session = Session(loaded.module)
    x = np.load(INPUT)
    session.call([x])  # warm-up (constants converted once)
    cpu, wall = [], []
    for _ in range(repeat):
        c, t = time.process_time(), time.perf_counter()
        session.call([x])
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(cpu), statistics.median(wall)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    except OSError:
        load = "n/a"
    import xdsl

    xdsl_version = getattr(xdsl, "__version__", "?")
    return (f"{os.cpu_count()} CPUs, {cpu}; Python {platform.python_version()}, xDSL {xdsl_version}, "
            f"numpy {np.__version__}; {datetime.date.today().isoformat()}; load average {load}")


def record(text: str) -> None:
    """Replace the measured block of the Interpreter section (or append the section)."""
    block = f"{MARK_START}\n{text.strip()}\n{MARK_END}"
    doc = DOC.read_text() if DOC.exists() else "# Performance\n"
    if MARK_START in doc and MARK_END in doc:
        doc = re.sub(re.escape(MARK_START) + r".*?" + re.escape(MARK_END), lambda _: block, doc, flags=re.S)
    elif "## Interpreter\n" in doc:
        doc = re.sub(r"(## Interpreter\n)(.*?)(?=\n## |\Z)", lambda m: m.group(1) + "\n" + block + "\n",
                     doc, count=1, flags=re.S)
    else:
        doc = doc.rstrip() + "\n\n## Interpreter\n\n" + block + "\n"
    DOC.write_text(doc)


def _fmt(v):
    return "n/a" if v is None else f"{v:.3f} s"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--record", action="store_true", help="rewrite the measured block of docs/performance.md")
    ap.add_argument("--no-record", action="store_true", help=argparse.SUPPRESS)  # the old default
    args = ap.parse_args()
    tosa_run = Path(sys.executable).with_name("tosa-run")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [str(tosa_run), str(MODEL), "-i", str(INPUT), "-o", f"{tmp}/o0.npy", "-o", f"{tmp}/o1.npy"]
        warm_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        _run_once(cmd, warm_env)  # untimed: writes the bytecode caches
        whole, err = timed(cmd, args.repeat)
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
    lines = ["| measurement | CPU time (user+sys), median | wall time, median |", "|---|---|---|"]
    for name, t, e in rows:
        if t is None:
            lines.append(f"| {name} | n/a ({'; '.join(e or [])}) | |")
        else:
            lines.append(f"| {name} | {_fmt(t[0])} | {_fmt(t[1])} |")
    verdicts = []
    if ref is not None:
        if steady is not None:
            r = steady[0] / ref[0]
            verdicts.append(f"- per inference <= half the reference model's whole process "
                            f"({ref[0] / 2:.3f} s CPU): {'met' if r <= 0.5 else 'NOT met'} ({r:.2f}x)")
        if whole is not None:
            r = whole[0] / ref[0]
            verdicts.append(f"- tosa-run whole process <= 3x the reference model's "
                            f"({3 * ref[0]:.3f} s CPU): {'met' if r <= 3 else 'NOT met'} ({r:.2f}x)")
    text = (f"Measured on {machine()} with `python bench/interpreter.py --repeat {args.repeat}` "
            f"(median of {args.repeat} runs).\n\n" + "\n".join(lines) + "\n\nGoals (CPU time):\n"
            + "\n".join(verdicts))
    print(text)
    if args.record and not args.no_record:
        record(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

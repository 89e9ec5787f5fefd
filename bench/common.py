"""What every bench/ script shares: timing child processes in CPU and wall time, a one-line
description of the machine, and rewriting its measured block in docs/performance.md.

CPU time (user + sys of the child, from os.wait4) is the number to compare: the box is shared,
and wall-clock time there mostly measures the neighbours."""

from __future__ import annotations

import datetime
import os
import platform
import re
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs/performance.md"
MODEL = ROOT / "examples/face_detection_front.tosa.mlir"
INPUT = ROOT / "examples/face_detection_front.input_0.npy"


def run_once(cmd, env=None, stdout=subprocess.DEVNULL) -> tuple[float, float, int, str]:
    """(cpu seconds, wall seconds, exit code, last stderr line) of one child process."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, env=env)
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    lines = err.decode(errors="replace").strip().splitlines()
    return usage.ru_utime + usage.ru_stime, wall, code, (lines[-1] if lines else "failed")


def timed(cmd, repeat: int, env=None):
    """((median cpu, median wall), None) or (None, [error line])."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, w, code, last = run_once(cmd, env)
        if code != 0:
            return None, [last]
        cpu.append(c)
        wall.append(w)
    return (statistics.median(cpu), statistics.median(wall)), None


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
    import numpy as np
    import xdsl

    xdsl_version = getattr(xdsl, "__version__", "?")
    return (f"{os.cpu_count()} CPUs, {cpu}; Python {platform.python_version()}, xDSL {xdsl_version}, "
            f"numpy {np.__version__}; {datetime.date.today().isoformat()}; load average {load}")


def record(script: str, section: str, text: str) -> None:
    """Replace the block between `<!-- bench/<script> --record: start/end -->` in
    docs/performance.md, or append `## <section>` with the block (prose outside the markers
    is kept: it holds the history of what changed)."""
    start, end = f"<!-- bench/{script} --record: start -->", f"<!-- bench/{script} --record: end -->"
    block = f"{start}\n{text.strip()}\n{end}"
    doc = DOC.read_text() if DOC.exists() else "# Performance\n"
    if start in doc and end in doc:
        doc = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: block, doc, flags=re.S)
    elif f"## {section}\n" in doc:
        doc = re.sub(rf"(## {re.escape(section)}\n)(.*?)(?=\n## |\Z)",
                     lambda m: m.group(1) + m.group(2).rstrip() + "\n\n" + block + "\n", doc, count=1, flags=re.S)
    else:
        doc = doc.rstrip() + f"\n\n## {section}\n\n" + block + "\n"
    DOC.write_text(doc)

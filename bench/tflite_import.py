"""Import + legalize a .tflite model: ours in-process, and both as command lines side by
side with Arm's tosa-converter-for-tflite (CPU time of the child, median of N runs).

    python bench/tflite_import.py [model.tflite] [-n 5]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import run_once

DEFAULT = Path(__file__).resolve().parents[1] / "examples" / "face_detection_front.tflite"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("model", nargs="?", default=str(DEFAULT))
    ap.add_argument("-n", type=int, default=5)
    args = ap.parse_args()
    from tosa_xdsl.frontends.tflite import import_tflite

    data = Path(args.model).read_bytes()
    import_tflite(data)  # warm up imports
    times = []
    for _ in range(args.n):
        t = time.perf_counter()
        import_tflite(data)
        times.append(time.perf_counter() - t)
    print(f"in-process import_tflite (read + tosa-legalize-tfl): {statistics.median(times) * 1000:.0f} ms")
    rows = [("tosa-translate --import-tflite (ours)",
             [sys.executable, "-m", "tosa_xdsl.tools.tosa_translate", "--import-tflite", args.model, "-o", "/dev/null"])]
    conv = shutil.which("tosa-converter-for-tflite") or str(Path(sys.executable).parent / "tosa-converter-for-tflite")
    if Path(conv).exists():
        rows.append(("tosa-converter-for-tflite --text (Arm, C++)", [conv, args.model, "--text", "-o", "/dev/null"]))
    for name, cmd in rows:
        cpu = statistics.median(run_once(cmd)[0] for _ in range(args.n))
        print(f"{name:45s} {cpu * 1000:6.0f} ms CPU")


if __name__ == "__main__":
    main()

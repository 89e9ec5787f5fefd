"""NNEF import time of a small graph (nn.conv + nn.relu), with and without the standard-library
parse cache (frontends/nnef/modules.py; docs/nnef.md, "Standard library").

    python bench/nnef_import.py [--repeat N]

Prints the first import in the process (module imports and the library's parse included) and
the median CPU (process_time) and wall time of the repeats, cached and with
TOSA_XDSL_NNEF_STDLIB_CACHE=0. CPU time is the verdict on a shared box."""

from __future__ import annotations

import argparse
import os
import statistics
import time

DOC = """version 2.0;
import nn;
graph G {
  @input { x: real[1,3,16,16]; }
  @output { y: real[1,8,16,16]; }
  @variable { w: real[8,3,3,3]; b: real[8]; }
  @compose { c = nn.conv{padding=1}(x, w, b); y = nn.relu(c); }
}
"""


def timed(fn) -> tuple[float, float]:
    c, w = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c, time.perf_counter() - w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    from tosa_xdsl.frontends.nnef import import_nnef
    from tosa_xdsl.frontends.nnef.modules import CACHE_ENV

    cpu, wall = timed(lambda: import_nnef(DOC))
    print(f"first import:        {cpu:.3f} s CPU, {wall:.3f} s wall")
    for label, value in (("cached", "1"), ("uncached", "0")):
        os.environ[CACHE_ENV] = value
        runs = [timed(lambda: import_nnef(DOC)) for _ in range(args.repeat)]
        print(f"repeat, {label + ':':10s} {statistics.median(c for c, _ in runs):.4f} s CPU, "
              f"{statistics.median(w for _, w in runs):.4f} s wall (median of {args.repeat})")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

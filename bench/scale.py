"""How tosa-run's time and peak memory grow with the weights of a model.

    python bench/scale.py                       # 1 MB, 10 MB, 100 MB (table on stdout)
    python bench/scale.py --sizes 1,10,100,1000 --record   # ... and 1 GB, into docs/performance.md
    python bench/scale.py --containers resource,bytecode  # a subset

The model: a chain of LAYERS tosa.matmul ops, x[1,1,K] x W_i[1,K,K] -> [1,1,K], each W_i a
float32 constant, K chosen so that the weights total the requested size. Activations are
K floats, so everything beyond the weights is the process's own baseline. The same graph is
written in each container tosa-run reads:
- `hex`: MLIR text, constants as hex literals `dense<"0x...">` (what the printer writes);
- `resource`: MLIR text, constants as `dense_resource<w_i>` with the blobs in a trailing
  `{-# dialect_resources #-}` section (torch-mlir's and IREE's form);
- `bytecode`: MLIR bytecode (tosa_xdsl/formats/bytecode, blobs in its resource section);
- `tosa`: a TOSA flatbuffer (.tosa, tosa_xdsl/formats/tosa_flatbuffer).

Each point is one fresh `tosa-run FILE -i x.npy -o y.npy` process (tosa-run's main() under
`python -c`; parse, verify, one inference, write the result): CPU time (user + sys) of the
child from os.wait4 and its peak resident memory (VmHWM, reported by the child at exit),
median of --repeat runs. "baseline" is the same run on a model
with 1 kB of weights: the interpreter, xDSL and numpy loaded, the parse and run machinery
warm; "extra / weights" is (peak - baseline) / weight bytes, the figure the goal bounds
(at most 1.5). The files are generated once into --workdir (default: a temporary folder).

`--record` writes the table into docs/performance.md (section "Scaling with weight size")
and, if matplotlib is installed (`pip install -e .[bench]`), docs/scale.png.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, machine  # noqa: E402
from common import record as record_block  # noqa: E402

LAYERS = 8
CONTAINERS = ("hex", "resource", "bytecode", "tosa")
EXT = {"hex": "mlir", "resource": "mlir", "bytecode": "mlirbc", "tosa": "tosa"}
PLOT = ROOT / "docs/scale.png"


# ------------------------------------------------------------------------ the models


def side(weight_bytes: int) -> int:
    """K such that LAYERS float32 KxK matrices hold about `weight_bytes`."""
    return max(2, round(math.sqrt(weight_bytes / (4 * LAYERS))))


def _weights(k: int, layer: int) -> np.ndarray:
    rng = np.random.default_rng(layer)
    # scaled so that activations stay O(1) along the chain
    return (rng.standard_normal((1, k, k), dtype=np.float32) / np.float32(math.sqrt(k))).astype(np.float32)


def _body(k: int, const_value) -> list[str]:
    t_x, t_w = f"tensor<1x1x{k}xf32>", f"tensor<1x{k}x{k}xf32>"
    lines = [
        "module {",
        f"  func.func @main(%x: {t_x}) -> {t_x} {{",
        '    %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>',
    ]
    prev = "%x"
    for i in range(LAYERS):
        lines.append(f'    %w{i} = "tosa.const"() <{{values = {const_value(i)} : {t_w}}}> : () -> {t_w}')
        lines.append(f"    %y{i} = tosa.matmul {prev}, %w{i}, %zp, %zp : ({t_x}, {t_w}, tensor<1xf32>, "
                     f"tensor<1xf32>) -> {t_x}")
        prev = f"%y{i}"
    lines += [f"    func.return {prev} : {t_x}", "  }", "}"]
    return lines


def write_hex(path: Path, k: int) -> None:
    """MLIR text with hex literals, written layer by layer (the generator's memory stays at
    one layer)."""
    head, *rest = "\n".join(_body(k, lambda i: f"@@{i}@@")).split("@@")
    with open(path, "w") as f:
        f.write(head)
        for piece in rest:
            if piece.isdigit():
                f.write('dense<"0x' + _weights(k, int(piece)).tobytes().hex().upper() + '">')
            else:
                f.write(piece)
        f.write("\n")


def write_resource(path: Path, k: int) -> None:
    with open(path, "w") as f:
        f.write("\n".join(_body(k, lambda i: f"dense_resource<w{i}>")) + "\n")
        f.write("{-#\n  dialect_resources: {\n    builtin: {\n")
        for i in range(LAYERS):
            sep = "," if i < LAYERS - 1 else ""
            f.write(f'      w{i}: "0x04000000' + _weights(k, i).tobytes().hex().upper() + f'"{sep}\n')
        f.write("    }\n  }\n#-}\n")


def write_binary(path: Path, k: int, container: str, resource_text: Path) -> None:
    """bytecode / .tosa from the dense_resource text, in a child process (its memory is not
    ours)."""
    code = (
        "import sys\n"
        "from tosa_xdsl.formats.loader import load\n"
        "m = load(sys.argv[1])\n"
        "if sys.argv[3] == 'bytecode':\n"
        "    from tosa_xdsl.formats.bytecode.writer import write_bytecode as w\n"
        "else:\n"
        "    from tosa_xdsl.formats.tosa_flatbuffer import serialize as w\n"
        "open(sys.argv[2], 'wb').write(w(m))\n"
    )
    subprocess.run([sys.executable, "-c", code, str(resource_text), str(path), container], check=True)


def model(workdir: Path, container: str, weight_bytes: int) -> tuple[Path, Path, int]:
    """(model file, input .npy, K), generated unless present."""
    k = side(weight_bytes)
    stem = workdir / f"scale_{k}"
    x = Path(f"{stem}.x.npy")
    if not x.exists():
        np.save(x, np.random.default_rng(0).standard_normal((1, 1, k), dtype=np.float32))
    path = Path(f"{stem}.{container}.{EXT[container]}")
    if not path.exists():
        if container == "hex":
            write_hex(path, k)
        else:
            text = Path(f"{stem}.resource.mlir")
            if not text.exists():
                write_resource(text, k)
            if container != "resource":
                write_binary(path, k, container, text)
    return path, x, k


# ------------------------------------------------------------------------ measuring


# tosa-run's own main() (as its console script calls it), then the process's peak RSS
# (VmHWM) on stderr. Not the child's ru_maxrss: Linux charges a child the RSS of the parent
# it was forked from (exec records the old address space's high-water mark), so a bench
# process that grew while checking a 1 GB result made every later child look that big.
_CHILD = (
    "import sys\n"
    "from tosa_xdsl.tools.tosa_run import main\n"
    "sys.argv = ['tosa-run', *sys.argv[1:]]\n"
    "try:\n"
    "    code = main()\n"
    "finally:\n"
    "    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')]\n"
    "    sys.stderr.write('\\n' + (hwm[0].strip() if hwm else 'VmHWM: 0 kB') + '\\n')\n"
    "sys.exit(code)\n"
)


def run(model_path: Path, x: Path, out: Path) -> tuple[float, float, int, str]:
    """(cpu s, wall s, peak RSS bytes, error) of one tosa-run process."""
    cmd = [sys.executable, "-c", _CHILD, str(model_path), "-i", str(x), "-o", str(out)]
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    lines = err.decode(errors="replace").strip().splitlines() or [""]
    peak = int(lines[-1].split()[1]) * 1024 if lines[-1].startswith("VmHWM:") else usage.ru_maxrss * 1024
    last = next((line for line in reversed(lines) if line and not line.startswith("VmHWM:")), "failed")
    return usage.ru_utime + usage.ru_stime, wall, peak, (last if code else "")


def measure(model_path: Path, x: Path, out: Path, repeat: int) -> dict[str, float] | str:
    cpu, wall, rss = [], [], []
    for _ in range(repeat):
        c, w, r, err = run(model_path, x, out)
        if err:
            return err
        cpu.append(c)
        wall.append(w)
        rss.append(r)
    return {"cpu": statistics.median(cpu), "wall": statistics.median(wall), "rss": statistics.median(rss)}


def check_result(out: Path, x: Path, k: int) -> float:
    """Max relative error of tosa-run's result against numpy's float64 chain (a sanity check
    that the weights were read, not a bit-exactness test)."""
    v = np.load(x).astype(np.float64)
    for i in range(LAYERS):
        v = v @ _weights(k, i).astype(np.float64)
    got = np.load(out).astype(np.float64)
    return float(np.max(np.abs(got - v)) / max(1e-30, float(np.max(np.abs(v)))))


# ------------------------------------------------------------------------ report


def table(rows: list[dict]) -> str:
    out = ["| container | weights | file | CPU s | wall s | peak RSS | peak / weights | extra / weights |",
           "|---|--:|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['container']} | {r['weights'] / 1e6:,.0f} MB | | failed: {r['error']} | | | | |")
            continue
        out.append(
            f"| {r['container']} | {r['weights'] / 1e6:,.0f} MB | {r['file'] / 1e6:,.0f} MB | {r['cpu']:.2f} | "
            f"{r['wall']:.2f} | {r['rss'] / 1e6:,.0f} MB | {r['rss'] / r['weights']:.2f} | "
            f"{(r['rss'] - r['baseline']) / r['weights']:.2f} |")
    return "\n".join(out)


def plot(rows: list[dict], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(10, 4))
    for container in CONTAINERS:
        pts = [r for r in rows if r["container"] == container and "error" not in r]
        if not pts:
            continue
        mb = [r["weights"] / 1e6 for r in pts]
        ax_t.plot(mb, [r["cpu"] for r in pts], marker="o", label=container)
        ax_m.plot(mb, [r["rss"] / 1e6 for r in pts], marker="o", label=container)
    if rows:
        sizes = sorted({r["weights"] / 1e6 for r in rows})
        ax_m.plot(sizes, [1.5 * s for s in sizes], "k--", label="1.5x weights")
    for ax, label in ((ax_t, "tosa-run CPU time (s)"), (ax_m, "peak RSS (MB)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("weights (MB)")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle("tosa-run: parse + verify + one inference, by weight size and container")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1,10,100", help="weight sizes in MB (comma-separated)")
    ap.add_argument("--containers", default=",".join(CONTAINERS))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workdir", type=Path, default=None, help="keep the generated models here")
    ap.add_argument("--record", action="store_true")
    args = ap.parse_args(argv)
    containers = [c for c in args.containers.split(",") if c]
    sizes = [int(float(s) * 1_000_000) for s in args.sizes.split(",") if s]

    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        out = Path(tmp) / "y.npy"
        rows: list[dict] = []
        print(table([]), flush=True)
        for container in containers:
            base_model, base_x, _ = model(workdir, container, 1000)
            base = measure(base_model, base_x, out, args.repeat)
            if isinstance(base, str):
                print(f"{container}: baseline failed: {base}", flush=True)
                continue
            for size in sizes:
                path, x, k = model(workdir, container, size)
                weights = LAYERS * k * k * 4
                m = measure(path, x, out, 1 if size >= 500_000_000 else args.repeat)
                row = {"container": container, "weights": weights, "file": path.stat().st_size,
                       "baseline": base["rss"]}
                if isinstance(m, str):
                    row["error"] = m
                else:
                    row.update(m)
                    err = check_result(out, x, k)
                    if err > 1e-3:
                        row["error"] = f"result off by {err:.1e}"
                rows.append(row)
                print(table([row]).splitlines()[-1], flush=True)
                if size >= 500_000_000 and args.workdir is None:
                    path.unlink()  # the 1 GB files: not all at once on disk
    text = (f"Measured on {machine()} with `python bench/scale.py --sizes {args.sizes}"
            f"{' --containers ' + args.containers if args.containers != ','.join(CONTAINERS) else ''}` "
            f"(median of {args.repeat} runs; one run at 1 GB). Baseline peak RSS (1 kB of weights): "
            + ", ".join(f"{c} {r['baseline'] / 1e6:.0f} MB" for c, r in
                        {r['container']: r for r in rows}.items())
            + ".\n\n" + table(rows))
    print(text)
    if args.record:
        drawn = plot(rows, PLOT)
        if drawn:
            text += f"\n\n![tosa-run time and peak memory by weight size]({PLOT.name})"
        record_block("scale.py", "Scaling with weight size", text)
        print("recorded" + (f"; plot in {PLOT.relative_to(ROOT)}" if drawn else " (no matplotlib: no plot)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

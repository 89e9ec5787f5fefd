"""Run TOSA MLIR through Arm's tosa-tools (translator + reference model) as a test oracle.

The pipeline, per call, in a fresh temporary directory:

1. the translator (`<site-packages>/bin/tosa-opt`, *not* our `.venv/bin/tosa-opt`) turns a
   `func.func @main` into the TOSA flatbuffer's JSON form:
   ``tosa-opt in.mlir --tosa-serialize-json --tosa-flatbuffer-filename=g.json
   --tosa-flatbuffer-schema=<bin>/tosa.fbs -o /dev/null``
   (the JSON form lets tests read tensor names/types and edit a graph before running it);
2. the reference model runs it on .npy inputs:
   ``tosa_reference_model --tosa_file g.json --operator_fbs <bin>/tosa.fbs
   --ifm_name TosaInput_0,... --ifm_file in0.npy,... --ofm_name TosaOutput_0,...
   --ofm_file out0.npy,... --output_dir <tmp> --terminate_early [-p 1]``
   with ``TOSA_MODEL_NO_BACKTRACE=1`` (otherwise a fatal error attaches gdb for a backtrace).
   ``--terminate_early`` matters: without it the model keeps evaluating after a failed
   REQUIRE and INTDIV by zero then dies of SIGFPE instead of reporting UNPREDICTABLE.

The reference model's verdict is its exit code, confirmed by the last stderr line
``Graph result: UNPREDICTABLE.`` / ``Graph result: ERROR.``:
0 = VALID, 1 = UNPREDICTABLE (a REQUIRE failed; no outputs are written),
2 = ERROR (an ERROR_IF held). Anything else (134 = abort on a fatal error such as a numpy
type mismatch) raises `OracleToolError`.

The translator verifies the MLIR first, so graphs that break an ERROR_IF usually fail at
step 1; pass ``verify=False`` (``--mlir-very-unsafe-disable-verifier-on-parsing
--verify-each=false``) or a ``mutate`` callback that edits the JSON graph to reach the
reference model's own ERROR_IF checks.

Validation against a target: ``validate(mlir, profiles=..., extensions=..., level=...)``
runs ``tosa-opt --tosa-attach-target="profiles=.. extensions=.. level=.."
--tosa-validate`` and returns (ok, return code, diagnostics).

Storage conventions of the reference model's .npy files (found by experiment):
bool -> bool, i4/i8 -> int8, i16 -> int16, i32 -> int32, i48/shape -> int64, fp16/fp32 as
is, bf16 -> ml_dtypes.bfloat16 (npy descr '<V2'), fp8e4m3 -> ml_dtypes.float8_e4m3fn,
fp8e5m2 -> its uint8 bits. Outputs of bf16/fp8 come back as raw '|V2'/'|V1' bytes; they are
returned here as ml_dtypes arrays. In precise mode (``precise=True``, ``-p 1``) float
outputs may come back as float64.

Example::

    from oracle import run
    mlir = '''
    func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
      %0 = tosa.add %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
      return %0 : tensor<3xi32>
    }'''
    (out,) = run(mlir, np.array([1, 2, 3], np.int32), np.array([10, 20, 30], np.int32))
    # or, to see UNPREDICTABLE / ERROR verdicts:
    res = run_mlir(mlir, [a, b]); res.verdict, res.returncode, res.outputs
"""

from __future__ import annotations

import json
import os
import subprocess
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import ml_dtypes
import numpy as np


def _tools_bin() -> Path:
    # tosa-tools keeps its native binaries in <site-packages>/bin
    # (a venv that sees another venv's packages through a .pth file has them on sys.path)
    import sys

    for base in [sysconfig.get_path("purelib"), sysconfig.get_path("platlib"), *sys.path]:
        cand = Path(base) / "bin"
        if (cand / "tosa_reference_model").exists():
            return cand
    return Path(__file__).resolve().parents[1] / ".venv/lib/python3.11/site-packages/bin"


BIN = _tools_bin()
TRANSLATOR = BIN / "tosa-opt"
REFERENCE_MODEL = BIN / "tosa_reference_model"
SCHEMA = BIN / "tosa.fbs"
TIMEOUT = 60.0

VERDICTS = {0: "VALID", 1: "UNPREDICTABLE", 2: "ERROR"}

# flatbuffer tensor type -> (.npy storage dtype written as input, dtype to view outputs as)
_NPY = {
    "BOOL": (np.dtype(np.bool_), np.dtype(np.bool_)),
    "INT4": (np.dtype(np.int8), np.dtype(np.int8)),
    "INT8": (np.dtype(np.int8), np.dtype(np.int8)),
    "INT16": (np.dtype(np.int16), np.dtype(np.int16)),
    "INT32": (np.dtype(np.int32), np.dtype(np.int32)),
    "INT48": (np.dtype(np.int64), np.dtype(np.int64)),
    "SHAPE": (np.dtype(np.int64), np.dtype(np.int64)),
    "FP16": (np.dtype(np.float16), np.dtype(np.float16)),
    "FP32": (np.dtype(np.float32), np.dtype(np.float32)),
    "BF16": (np.dtype(ml_dtypes.bfloat16), np.dtype(ml_dtypes.bfloat16)),
    "FP8E4M3": (np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e4m3fn)),
    "FP8E5M2": (np.dtype(np.uint8), np.dtype(ml_dtypes.float8_e5m2)),
}


class OracleToolError(RuntimeError):
    """A tool failed in a way that is not a TOSA verdict (bad MLIR, crash, timeout)."""

    def __init__(self, what: str, cmd: Sequence[str], returncode: int | None, stdout: str, stderr: str):
        self.cmd, self.returncode, self.stdout, self.stderr = list(cmd), returncode, stdout, stderr
        tail = "\n".join((stderr or stdout).strip().splitlines()[-15:])
        super().__init__(f"{what} (exit {returncode}): {' '.join(map(str, cmd))}\n{tail}")


@dataclass
class RefResult:
    """What the reference model said about one graph."""

    verdict: str  # "VALID" | "UNPREDICTABLE" | "ERROR"
    returncode: int
    outputs: list[np.ndarray] | None  # None unless VALID
    stdout: str
    stderr: str
    graph: dict = field(repr=False, default_factory=dict)


@dataclass
class Validation:
    """Result of the translator's --tosa-validate against a target environment."""

    ok: bool
    returncode: int
    diagnostics: str


def _run(cmd: Sequence[str], timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        raise OracleToolError(f"timed out after {timeout}s", cmd, None,
                              str(e.stdout or ""), str(e.stderr or "")) from None


_UNSAFE = ("--mlir-very-unsafe-disable-verifier-on-parsing", "--verify-each=false")


def serialize(mlir: str, *, verify: bool = True, timeout: float = TIMEOUT) -> dict:
    """Translate MLIR text to the TOSA flatbuffer JSON graph (as a dict)."""
    with tempfile.TemporaryDirectory(prefix="tosa-oracle-") as tmp:
        src, out = Path(tmp) / "in.mlir", Path(tmp) / "g.json"
        src.write_text(mlir)
        cmd = [TRANSLATOR, src, *(() if verify else _UNSAFE), "--tosa-serialize-json",
               f"--tosa-flatbuffer-filename={out}", f"--tosa-flatbuffer-schema={SCHEMA}",
               "-o", os.devnull]
        p = _run(cmd, timeout)
        if p.returncode != 0 or not out.exists():
            raise OracleToolError("translator rejected the MLIR", cmd, p.returncode, p.stdout, p.stderr)
        return json.loads(out.read_text())


def validate(mlir: str, *, profiles: Sequence[str] = ("pro_int", "pro_fp"),
             extensions: Sequence[str] = (), level: str = "8k",
             timeout: float = TIMEOUT) -> Validation:
    """Run the translator's --tosa-validate with an attached target environment.

    profiles: pro_int, pro_fp; extensions e.g. int16, int4, bf16, fp8e4m3, fp8e5m2, fft,
    variable, controlflow, dynamic, doubleround, inexactround; level: 8k or none."""
    with tempfile.TemporaryDirectory(prefix="tosa-oracle-") as tmp:
        src = Path(tmp) / "in.mlir"
        src.write_text(mlir)
        target = f"profiles={','.join(profiles)} level={level}"
        if extensions:
            target += f" extensions={','.join(extensions)}"
        cmd = [TRANSLATOR, src, f"--tosa-attach-target={target}", "--tosa-validate", "-o", os.devnull]
        p = _run(cmd, timeout)
        if p.returncode not in (0, 1):
            raise OracleToolError("translator crashed", cmd, p.returncode, p.stdout, p.stderr)
        return Validation(p.returncode == 0, p.returncode, p.stderr)


def _block(graph: dict) -> dict:
    return graph["regions"][0]["blocks"][0]


def _tensor_types(graph: dict) -> dict[str, str]:
    return {t["name"]: t["type"] for t in _block(graph)["tensors"]}


def _to_storage(x, tosa_type: str) -> np.ndarray:
    store = _NPY[tosa_type][0]
    x = np.asarray(x)
    if tosa_type == "FP8E5M2":
        return x.astype(ml_dtypes.float8_e5m2).view(np.uint8)
    if store.kind in "iu" and x.dtype.kind in "iub":
        info = np.iinfo(store)
        if x.size and (x.min() < info.min or x.max() > info.max):
            raise ValueError(f"input values do not fit {tosa_type}")
    return x.astype(store)


def _from_storage(a: np.ndarray, tosa_type: str) -> np.ndarray:
    view = _NPY.get(tosa_type, (None, a.dtype))[1]
    if a.dtype.kind == "V" or (tosa_type == "FP8E5M2" and a.dtype == np.uint8):
        return a.view(view)
    return a


def run_graph(graph: dict, inputs: Sequence, *, precise: bool = False,
              timeout: float = TIMEOUT) -> RefResult:
    """Run a JSON graph (from `serialize`, possibly edited) on the reference model."""
    blk = _block(graph)
    in_names, out_names = blk["inputs"], blk["outputs"]
    if len(inputs) != len(in_names):
        raise ValueError(f"graph has {len(in_names)} inputs, got {len(inputs)}")
    types = _tensor_types(graph)
    with tempfile.TemporaryDirectory(prefix="tosa-oracle-") as tmp:
        t = Path(tmp)
        (t / "g.json").write_text(json.dumps(graph))
        ifm = []
        for i, (name, x) in enumerate(zip(in_names, inputs)):
            f = t / f"in{i}.npy"
            np.save(f, _to_storage(x, types[name]))
            ifm.append(str(f))
        ofm = [str(t / f"out{i}.npy") for i in range(len(out_names))]
        cmd = [REFERENCE_MODEL, "--tosa_file", t / "g.json", "--operator_fbs", SCHEMA,
               "--output_dir", t, "--terminate_early", "--ofm_name", ",".join(out_names), "--ofm_file", ",".join(ofm)]
        if in_names:
            cmd += ["--ifm_name", ",".join(in_names), "--ifm_file", ",".join(ifm)]
        if precise:
            cmd += ["-p", "1"]
        p = _run(cmd, timeout, env={**os.environ, "TOSA_MODEL_NO_BACKTRACE": "1"})
        verdict = VERDICTS.get(p.returncode)
        if verdict is None:
            raise OracleToolError("reference model failed", cmd, p.returncode, p.stdout, p.stderr)
        said = [ln for ln in p.stderr.splitlines() if ln.startswith("Graph result:")]
        if said and verdict not in said[-1]:
            raise OracleToolError(f"exit code says {verdict} but log says {said[-1]!r}", cmd,
                                  p.returncode, p.stdout, p.stderr)
        outputs = None
        if verdict == "VALID":
            outputs = [_from_storage(np.load(f), types[n]) for f, n in zip(ofm, out_names)]
        return RefResult(verdict, p.returncode, outputs, p.stdout, p.stderr, graph)


def run_mlir(mlir: str, inputs: Sequence, *, precise: bool = False, verify: bool = True,
             mutate: Callable[[dict], None] | None = None, timeout: float = TIMEOUT) -> RefResult:
    """Serialize MLIR, optionally edit the JSON graph in place with `mutate`, run it."""
    graph = serialize(mlir, verify=verify, timeout=timeout)
    if mutate is not None:
        mutate(graph)
    return run_graph(graph, inputs, precise=precise, timeout=timeout)


def run(mlir: str, *inputs, precise: bool = False) -> list[np.ndarray]:
    """Run a graph that must be VALID and return its outputs; raise AssertionError otherwise."""
    res = run_mlir(mlir, inputs, precise=precise)
    if res.verdict != "VALID":
        tail = "\n".join(res.stderr.strip().splitlines()[-6:])
        raise AssertionError(f"reference model verdict {res.verdict}:\n{tail}")
    return res.outputs

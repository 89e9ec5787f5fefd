"""Arm's tosa-tools as an oracle for binary `.tosa` files: the translator's
`--tosa-serialize` / `--tosa-deserialize` and the reference model run on a `.tosa` file
(tests/oracle.py drives the JSON form; this is the same with the binary form)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import oracle

from tosa_xdsl.formats.tosa_flatbuffer import schema
from tosa_xdsl.formats.tosa_flatbuffer.reader import decode

AVAILABLE = oracle.TRANSLATOR.exists() and oracle.REFERENCE_MODEL.exists()


def arm_serialize(mlir: str) -> bytes:
    """Arm's `tosa-opt --tosa-serialize` of MLIR text (attribute-dictionary syntax)."""
    with tempfile.TemporaryDirectory(prefix="tosa-fb-") as tmp:
        src, out = Path(tmp) / "in.mlir", Path(tmp) / "out.tosa"
        src.write_text(mlir)
        p = subprocess.run([oracle.TRANSLATOR, src, f"--tosa-serialize=tosa-flatbuffer-filename={out}",
                            "-o", os.devnull], capture_output=True, text=True, timeout=60)
        if p.returncode != 0 or not out.exists():
            raise oracle.OracleToolError("translator rejected the MLIR", ["--tosa-serialize"],
                                         p.returncode, p.stdout, p.stderr)
        return out.read_bytes()


def arm_deserialize(data: bytes) -> subprocess.CompletedProcess:
    """Arm's `tosa-opt --tosa-deserialize` (it verifies the module it builds). Its stdout
    loses the `WARNING: ...` line it prints for files without a `software_version` (the
    serialization library's own release, which we do not claim to be)."""
    with tempfile.TemporaryDirectory(prefix="tosa-fb-") as tmp:
        src, empty = Path(tmp) / "in.tosa", Path(tmp) / "empty.mlir"
        src.write_bytes(data)
        empty.write_text("module {}\n")
        p = subprocess.run([oracle.TRANSLATOR, f"--tosa-deserialize=tosa-flatbuffer-filename={src}",
                            empty], capture_output=True, text=True, timeout=60)
        p.stdout = "".join(ln for ln in p.stdout.splitlines(True) if not ln.startswith("WARNING:"))
        return p


def reference_run(data: bytes, inputs: Sequence, precise: bool = False) -> list[np.ndarray]:
    """Run a binary .tosa on the reference model; outputs (must be VALID)."""
    graph = decode(data)
    blk = graph["regions"][0]["blocks"][0]
    dtype_names = schema.ENUMS["DType"]
    types = {t["name"]: dtype_names[t["type"]] for t in blk["tensors"]}
    in_names, out_names = blk["inputs"], blk["outputs"]
    assert len(inputs) == len(in_names), (len(inputs), in_names)
    with tempfile.TemporaryDirectory(prefix="tosa-fb-") as tmp:
        t = Path(tmp)
        (t / "g.tosa").write_bytes(data)
        ifm = []
        for i, (name, x) in enumerate(zip(in_names, inputs)):
            np.save(t / f"in{i}.npy", oracle._to_storage(x, types[name]))
            ifm.append(str(t / f"in{i}.npy"))
        ofm = [str(t / f"out{i}.npy") for i in range(len(out_names))]
        cmd = [oracle.REFERENCE_MODEL, "--tosa_file", t / "g.tosa", "--output_dir", t,
               "--terminate_early", "--ofm_name", ",".join(out_names), "--ofm_file", ",".join(ofm)]
        if in_names:
            cmd += ["--ifm_name", ",".join(in_names), "--ifm_file", ",".join(ifm)]
        if precise:
            cmd += ["-p", "1"]
        p = oracle._run(cmd, 60, env={**os.environ, "TOSA_MODEL_NO_BACKTRACE": "1"})
        if p.returncode != 0:
            raise oracle.OracleToolError("reference model did not say VALID", cmd, p.returncode,
                                         p.stdout, p.stderr)
        return [oracle._from_storage(np.load(f), types[n]) for f, n in zip(ofm, out_names)]

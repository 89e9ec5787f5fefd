"""Ahead-of-time compilation: a TOSA module -> a native shared library (`.so`).

    tosa-translate --emit-shared-library model.mlir -o model.so

The module is lowered with `tosa-to-llvm` (validation included), compiled to object code as
the JIT does (codegen/llvm.py) and linked by the system's C compiler driver (`$CC`, else
`cc`) with `-shared -lm`. Every function of the module becomes an exported C function of
the same name with the bare-pointer, out-parameter convention of docs/native.md:

    void main(const float *input0, float *result0, float *result1);

Static shapes only (the lowering requires them); the weights are inside the library.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

PIPELINE = "tosa-to-llvm"


class LinkError(Exception):
    pass


def linker() -> str | None:
    """The C compiler driver that links the library, or None."""
    return shutil.which(os.environ.get("CC") or "cc")


def emit_shared_library(module: Any, opt_level: int = 2) -> bytes:
    """The bytes of a shared library implementing every function of the TOSA `module`."""
    from tosa_xdsl.codegen.llvm import compile_object
    from tosa_xdsl.jit import lower_to_llvm

    cc = linker()
    if cc is None:
        raise LinkError(f"--emit-shared-library needs a C compiler driver to link: "
                        f"'{os.environ.get('CC') or 'cc'}' not found (install one or set CC)")
    obj = compile_object(lower_to_llvm(module.clone(), PIPELINE), opt_level)
    return link(obj, cc)


def link(obj: bytes, cc: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="tosa-xdsl-so-") as tmp:
        o, so = Path(tmp) / "module.o", Path(tmp) / "module.so"
        o.write_bytes(obj)
        try:
            proc = subprocess.run([cc, "-shared", "-o", str(so), str(o), "-lm"], capture_output=True, text=True,
                                  timeout=300)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise LinkError(f"cannot run the linker '{cc}': {err}") from None
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
            raise LinkError(f"linking failed ({cc}): {last}")
        return so.read_bytes()

"""Shared pytest fixtures: the oracle binaries and a Context with our `tosa`.

Oracles (each fixture skips the test when the binary is missing):
- `translator`: Arm's tosa-tools MLIR translator, `<site-packages>/bin/tosa-opt` (reads and
  prints the attribute-dictionary form). NOT `.venv/bin/tosa-opt`, which is our driver.
- `iree_opt`: `iree-opt` next to the Python executable (newest MLIR, keyword form only).
- `mlir_opt_22`: `/usr/lib/llvm-22/bin/mlir-opt` (MLIR 22, attribute-dictionary form).
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# test helpers are imported by their top-level names: tests/ (oracle, lowering_harness) and
# tests/differential (the per-operator case generators, reused by the lowering tests)
for _dir in (ROOT / "tests", ROOT / "tests" / "differential"):
    if str(_dir) not in sys.path:
        sys.path.insert(0, str(_dir))


def _executable(path: Path | str | None) -> Path | None:
    if path is None:
        return None
    path = Path(path)
    return path if path.is_file() and os.access(path, os.X_OK) else None


def translator_path() -> Path | None:
    # tosa-tools keeps its binaries in <site-packages>/bin; a venv that sees another venv's
    # packages through a .pth file has them on sys.path only (tests/oracle.py does the same)
    for base in [sysconfig.get_path("purelib"), sysconfig.get_path("platlib"), *sys.path]:
        found = _executable(Path(base) / "bin" / "tosa-opt")
        if found is not None:
            return found
    return None


def iree_opt_path() -> Path | None:
    return _executable(Path(sys.executable).parent / "iree-opt")


def mlir_opt_22_path() -> Path | None:
    return _executable("/usr/lib/llvm-22/bin/mlir-opt")


def _require(path: Path | None, what: str) -> Path:
    if path is None:
        pytest.skip(f"{what} not installed")
    return path


@pytest.fixture(scope="session")
def translator() -> Path:
    return _require(translator_path(), "tosa-tools translator (site-packages/bin/tosa-opt)")


@pytest.fixture(scope="session")
def iree_opt() -> Path:
    return _require(iree_opt_path(), "iree-opt")


@pytest.fixture(scope="session")
def mlir_opt_22() -> Path:
    return _require(mlir_opt_22_path(), "MLIR 22 mlir-opt")


@pytest.fixture
def ctx():
    """A fresh xDSL Context with every xDSL dialect and our `tosa` (not xDSL's)."""
    from tosa_xdsl.context import make_context

    return make_context()


@pytest.fixture(autouse=True, scope="session")
def _compiled_module_cache_in_tmp(tmp_path_factory):
    """`tosa-run --backend jit` caches compiled modules (tosa_xdsl/codegen/cache.py): the
    suite's go to a temporary folder (in-process and subprocess runs), never the user's home."""
    saved = os.environ.get("TOSA_XDSL_CACHE_DIR")
    os.environ["TOSA_XDSL_CACHE_DIR"] = str(tmp_path_factory.mktemp("tosa-xdsl-cache"))
    yield
    if saved is None:
        os.environ.pop("TOSA_XDSL_CACHE_DIR", None)
    else:
        os.environ["TOSA_XDSL_CACHE_DIR"] = saved


@pytest.fixture(autouse=True, scope="session")
def _nnef_stdlib_cache_unchanged():
    """The NNEF frontend parses its standard library once per process (frontends/nnef/modules.py):
    after the session every cached document must still equal a fresh parse of its file, i.e. no
    import changed a library syntax tree in place (which would leak into the next import).
    Here rather than in a tests/frontends/nnef/conftest.py: a second conftest module shadows this
    one for the tests that `from conftest import ...`."""
    yield
    modules = sys.modules.get("tosa_xdsl.frontends.nnef.modules")
    if modules is not None:  # only when an NNEF import ran in this process
        stale = modules.stale_stdlib_documents()
        assert not stale, f"an import changed the cached standard-library documents in place: {stale}"

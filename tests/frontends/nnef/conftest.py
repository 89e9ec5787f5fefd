"""The NNEF tests share one process's cache of the parsed standard library (modules.py): after
the session every cached document must still equal a fresh parse of its file, i.e. no import
changed a library syntax tree in place (which would leak into the next test's import)."""

from __future__ import annotations

import pytest

from tosa_xdsl.frontends.nnef.modules import stale_stdlib_documents


@pytest.fixture(scope="session", autouse=True)
def stdlib_cache_unchanged():
    yield
    stale = stale_stdlib_documents()
    assert not stale, f"an import changed the cached standard-library documents in place: {stale}"

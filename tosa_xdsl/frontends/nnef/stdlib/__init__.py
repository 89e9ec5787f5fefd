"""The SkriptND standard library (draft chapter 4) as .sknd modules, extracted from the draft
document in ../shared/spec (beside the checkout) by extract.py (see there for the repairs of the document's
page-break and typesetting damage)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
MODULES = ("layout", "math", "linalg", "nn", "image", "quant", "algo")


def module_path(name: str) -> Path | None:
    p = HERE / f"{name}.sknd"
    return p if p.exists() else None

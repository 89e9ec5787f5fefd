"""Generate reference pages under docs/ from the extracted spec tables.

    python -m tosa_xdsl.docs_gen            # (re)write every generated page
    python -m tosa_xdsl.docs_gen --check    # exit 1 if a committed page is stale

Each page is one function returning Markdown, registered in `PAGES`; add a page (an
operator table, an ERROR_IF coverage table, ...) by writing another renderer and adding
it there. Pages are built only from `tosa_xdsl.spec_tables`, never by hand, so the docs
cannot drift from the data the verifiers use.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

# The repository this package is checked out in (the docs are generated from a checkout).
REPO = Path(__file__).resolve().parents[2]
DOCS_DIR = REPO / "docs"
LIT_VERIFY_DIR = REPO / "tests" / "filecheck" / "verify"


def _ops() -> str:
    from tosa_xdsl.docs_gen.ops import render_ops

    return render_ops()


def _spec_tables() -> str:
    from tosa_xdsl.docs_gen.spec_tables_page import render_spec_tables

    return render_spec_tables()


def _error_if() -> str:
    from tosa_xdsl.docs_gen.error_if import render_error_if

    return render_error_if(LIT_VERIFY_DIR)


def _validation() -> str:
    from tosa_xdsl.docs_gen.validation import render_validation

    return render_validation()


# Page file name (under docs/) -> renderer. Add further generated pages here.
# (docs/agreement.md is built from the test suite's case tables by tests/agreement_page.py.)
PAGES: dict[str, Callable[[], str]] = {
    "ops.md": _ops,
    "spec-tables.md": _spec_tables,
    "error-if.md": _error_if,
    "validation.md": _validation,
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    stale = []
    for name, render in PAGES.items():
        path, text = DOCS_DIR / name, render()
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            DOCS_DIR.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        print("stale generated docs:", ", ".join(stale), file=sys.stderr)
        return 1
    return 0

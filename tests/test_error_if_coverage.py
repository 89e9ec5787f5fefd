"""Every ERROR_IF of the spec (tosa_xdsl.spec_tables: operators and chapter-4/2.2 helpers) has
a registered verifier check (tosa_xdsl.verification, both developers' modules) or a documented
exemption (EXEMPT_CONDITIONS), and a negative lit test marked `// ERROR_IF: <id>` in
tests/filecheck/verify/. docs/error-if.md is generated from the same data and must be current.
"""

from __future__ import annotations

import pytest

from tosa_xdsl import docs_gen
from tosa_xdsl.docs_gen import error_if
from tosa_xdsl.verification import CHECKS, EXEMPT_CONDITIONS, checked_condition_ids

INVENTORY = error_if.condition_inventory()
ALL_IDS = [cid for cid, _, _ in INVENTORY]
KNOWN = set(ALL_IDS) | set(error_if.EXTRA_CONDITIONS)


def test_inventory_counts():
    # 166 ERROR_IFs in 1.0.1: 153 in operators + 13 in helpers (2.2, 4.4.6, 4.5.2, 4.5.4).
    assert len(ALL_IDS) == len(set(ALL_IDS))
    assert sum(1 for cid in ALL_IDS if cid.split("#")[0].isupper()) == 153
    assert {cid.split("#")[0] for cid in ALL_IDS if not cid.split("#")[0].isupper()} == {
        "tosa_execute_graph", "broadcast_shape", "apply_broadcast", "make_unsigned",
        "idiv_check"}


def test_registered_and_exempt_ids_exist():
    unknown = (checked_condition_ids() | set(EXEMPT_CONDITIONS)) - KNOWN
    assert not unknown, f"ids that name no ERROR_IF of the spec: {sorted(unknown)}"


def test_no_condition_both_checked_and_exempt():
    assert not checked_condition_ids() & set(EXEMPT_CONDITIONS)


def test_every_condition_checked_or_exempt():
    checked = checked_condition_ids()
    gaps = [cid for cid in ALL_IDS if cid not in checked and cid not in EXEMPT_CONDITIONS]
    assert not gaps, f"{len(gaps)} ERROR_IFs with neither a check nor an exemption: {gaps}"


def test_every_condition_has_a_negative_lit_test():
    markers = error_if.lit_markers(docs_gen.LIT_VERIFY_DIR)
    gaps = [cid for cid in ALL_IDS + list(error_if.EXTRA_CONDITIONS)
            if cid not in EXEMPT_CONDITIONS and cid not in markers]
    assert not gaps, f"{len(gaps)} conditions without a `// ERROR_IF: <id>` lit test: {gaps}"


def test_lit_markers_name_known_ids():
    unknown = set(error_if.lit_markers(docs_gen.LIT_VERIFY_DIR)) - KNOWN
    assert not unknown, f"lit markers naming no ERROR_IF: {sorted(unknown)}"


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.function.__name__)
def test_each_check_cites_the_spec(check):
    # Each check function carries a one-line comment citing the spec section and its ids.
    import inspect

    source = inspect.getsource(check.function)
    body = source.split(":\n", 1)[1] if ":\n" in source else source
    assert any(line.strip().startswith("#") for line in body.splitlines()[:3]), (
        f"{check.function.__module__}.{check.function.__name__} has no spec-citing comment")


def test_error_if_page_is_current():
    page = docs_gen.DOCS_DIR / "error-if.md"
    assert page.exists() and page.read_text(encoding="utf-8") == docs_gen.PAGES["error-if.md"](), (
        "docs/error-if.md is stale: run `python -m tosa_xdsl.docs_gen`")

"""Cross-checks between the spec's redundant tables.

The spec states some facts twice: each operator's Supported Data Types / CTC tables and
Appendix B's per-profile/extension lists; the extension table of 1.6 and Appendix B's
"Compatible profiles"; chapter 3's "Required Extension" and Appendix B's "Enum
Changes". A disagreement means either a spec erratum or an extraction bug, so the tests
require these lists to stay empty (or equal to a reviewed list of errata).

Appendix B's convention for rows needing several names ("EXT-BF16 and EXT-FP8E4M3",
"EXT-VARIABLE and PRO-FP"): the row is listed under each *extension* involved, with the
note "If <other> is also supported"; profile tables list only rows a profile alone
enables.
"""

from __future__ import annotations

from . import appendix_b, enums, extensions, ops


def _expected_appendix_entries() -> set[tuple[str, str, str, str]]:
    """(table, operator, mode, note) implied by the per-operator tables."""
    out = set()
    for op in ops():
        for row in op.type_rows:
            for alt in row.requirements:
                if len(alt) == 1:
                    (name,) = alt
                    out.add((name, op.name, row.mode, ""))
                    continue
                for name in alt:
                    if name.startswith("EXT-"):
                        others = " and ".join(sorted(alt - {name}))
                        out.add((name, op.name, row.mode, f"If {others} is also supported"))
        for ctc in op.ctc:
            for ext in ctc.disabled_extensions:
                out.add((ext, op.name, "all", f"Remove CTC from {ctc.argument}"))
    return out


def appendix_b_mismatches() -> list[str]:
    """Human-readable disagreements between Appendix B and the rest of the spec."""
    problems = []
    expected = _expected_appendix_entries()
    listed = {(t.name, e["operator"], e["mode"], e["note"])
              for t in appendix_b() for e in t.operators}
    for name, op, mode, note in sorted(expected - listed):
        problems.append(f"{op} '{mode}' is in the operator's tables but not under {name} "
                        f"in Appendix B" + (f" (note {note!r})" if note else ""))
    for name, op, mode, note in sorted(listed - expected):
        problems.append(f"Appendix B {name} lists {op} '{mode}'"
                        + (f" (note {note!r})" if note else "")
                        + " but the operator's tables do not")

    tables = {t.name: t for t in appendix_b()}
    for ext in extensions():
        t = tables.get(ext.name)
        if t is None:
            problems.append(f"{ext.name} has no Appendix B section")
        elif t.compatible_profiles != ext.allowed_profiles:
            problems.append(f"{ext.name}: allowed profiles {sorted(ext.allowed_profiles)} "
                            f"(1.6) vs compatible {sorted(t.compatible_profiles)} (App. B)")

    required = {(v.required_extension, name, v.name)
                for name, values in enums().items() for v in values if v.required_extension}
    changed = {(t.name, c["enum"], c["value"]) for t in appendix_b() for c in t.enum_changes}
    for ext, enum, value in sorted(required ^ changed):
        problems.append(f"enum {enum}.{value} / {ext}: chapter 3 and Appendix B disagree")
    return problems

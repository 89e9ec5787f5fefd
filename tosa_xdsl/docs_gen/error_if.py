"""docs/error-if.md: every ERROR_IF of the spec, the verifier check that decides it and the
negative lit test that exercises it (`// ERROR_IF: <id>` markers, read from the repository's
tests/filecheck/verify/ as files; nothing from tests/ is imported)."""

from __future__ import annotations

from pathlib import Path

from tosa_xdsl import spec_tables as st
from tosa_xdsl.docs_gen.markdown import GENERATED_NOTE, table
from tosa_xdsl.docs_gen.markdown import cell as _cell
from tosa_xdsl.docs_gen.markdown import code as _code

# Conditions that are not ERROR_IF statements of the pseudocode but are checked like them.
EXTRA_CONDITIONS = {
    "supported_data_types": ("2.2", "operator element types form a row of the operator's "
                             "Supported Data Types table (in some profile or extension)"),
}


def condition_inventory() -> list[tuple[str, str, str]]:
    """Every ERROR_IF of the spec as (id, section, text): operators' `NAME#i` (1-based, in
    pseudocode order) then helpers' `helper#i` (counting that helper's ERROR_IFs only)."""
    rows = [(f"{o.name}#{i}", o.section, c.text)
            for o in st.ops() for i, c in enumerate(o.error_ifs, 1)]
    counts: dict[str, int] = {}
    for c in st.helper_conditions():
        if c.kind != "ERROR_IF":
            continue
        counts[c.helper] = counts.get(c.helper, 0) + 1
        rows.append((f"{c.helper}#{counts[c.helper]}", c.section, c.text))
    return rows


def lit_markers(directory: Path) -> dict[str, list[str]]:
    """Condition id -> lit test files (relative to the repository) with `// ERROR_IF: id`."""
    found: dict[str, list[str]] = {}
    root = directory.parents[2]
    for path in sorted(directory.glob("*.mlir")) if directory.exists() else ():
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line.startswith("// ERROR_IF:"):
                for cid in line[len("// ERROR_IF:"):].replace(",", " ").split():
                    rel = str(path.relative_to(root))
                    if rel not in found.setdefault(cid, []):
                        found[cid].append(rel)
    return found


def render_error_if(lit_verify_dir: Path) -> str:
    from tosa_xdsl.verification import CHECKS, EXEMPT_CONDITIONS

    checks: dict[str, list[str]] = {}
    for check in CHECKS:
        name = f"`{check.function.__module__.rsplit('.', 1)[-1]}.{check.function.__name__}`"
        for cid in check.condition_ids:
            if name not in checks.setdefault(cid, []):
                checks[cid].append(name)
    markers = lit_markers(lit_verify_dir)
    inventory = condition_inventory() + [(k, sec, text) for k, (sec, text) in
                                         EXTRA_CONDITIONS.items()]
    rows, missing = [], 0
    for cid, section, text in inventory:
        how = ", ".join(checks.get(cid, []))
        if cid in EXEMPT_CONDITIONS:
            how = (how + "; " if how else "") + "exempt: " + _cell(EXEMPT_CONDITIONS[cid])
        if not how:
            how, missing = "**not checked yet**", missing + 1
        tests = ", ".join(f"`{t}`" for t in markers.get(cid, [])) or "-"
        rows.append([_code(cid), section, _code(text), how, tests])
    intro = (f"# ERROR_IF conditions and their verifiers\n\n{GENERATED_NOTE}\n\n"
             "Every ERROR_IF statement of the TOSA 1.0.1 pseudocode (operators, then the "
             "shared helpers), the verifier function that decides it statically "
             "(`tosa_xdsl/verification/`), the negative lit test that exercises it "
             "(`// ERROR_IF: <id>` markers in `tests/filecheck/verify/`), or why it is "
             "exempt. Checks that need a value (a const_shape, a zero point) apply when "
             "the value is a constant and are skipped otherwise; shape checks skip dynamic "
             "dims and unranked tensors.\n\n"
             f"{len(inventory)} conditions; {missing} neither checked nor exempt.")
    return intro + "\n\n" + table(["id", "section", "condition", "verifier / exemption",
                                    "lit test"], rows) + "\n"

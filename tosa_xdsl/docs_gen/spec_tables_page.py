"""docs/spec-tables.md: the spec's tables as extracted (levels, profiles, enums, the operator
inventory, supported data types)."""

from __future__ import annotations

from tosa_xdsl import spec_tables as st
from tosa_xdsl.docs_gen.markdown import GENERATED_NOTE, table
from tosa_xdsl.docs_gen.markdown import cell as _cell
from tosa_xdsl.docs_gen.markdown import code as _code


def _requirements(row: st.TypeRow) -> str:
    return " or ".join(" and ".join(sorted(alt)) for alt in row.requirements)


def _levels_section() -> str:
    levels = st.levels()
    names = list(levels)
    limits = list(next(iter(levels.values())))
    rows = [[_code(limit)] + [levels[n][limit] for n in names] for limit in limits]
    return "## Levels (spec 1.7)\n\n" + table(["limit"] + [f"level {n}" for n in names], rows)


def _profiles_section() -> str:
    profile_rows = [[_code(p.name), p.title, p.description, p.status] for p in st.profiles()]
    ext_rows = [[_code(e.name), e.description, ", ".join(sorted(e.allowed_profiles)), e.status]
                for e in st.extensions()]
    return ("## Profiles and extensions (spec 1.6)\n\n"
            + table(["profile", "title", "description", "status"], profile_rows)
            + "\n\n"
            + table(["extension", "description", "cooperates with", "status"], ext_rows))


def _enums_section() -> str:
    rows = [[_code(name), _code(v.name), v.value, _cell(v.description), v.required_extension]
            for name, values in st.enums().items() for v in values]
    return "## Enumerations (spec 3)\n\n" + table(
        ["enum", "value", "#", "description", "required extension"], rows)


def _inventory_section() -> str:
    ops = st.ops()
    rows = [[o.section, _code(o.name), _code(o.mlir_name), len(o.type_rows),
             len(o.error_ifs), len(o.level_checks), len(o.requires),
             ", ".join(_code(c.argument) for c in o.ctc)] for o in ops]
    totals = ["", "**total**", f"{len(ops)} ops", sum(len(o.type_rows) for o in ops),
              sum(len(o.error_ifs) for o in ops), sum(len(o.level_checks) for o in ops),
              sum(len(o.requires) for o in ops), ""]
    helpers = st.helper_conditions()
    helper_rows = [[c.section, _code(c.helper), c.kind, _code(c.text)] for c in helpers]
    return ("## Operators (spec 2)\n\n"
            + table(["section", "operator", "MLIR", "type rows", "ERROR_IF", "LEVEL_CHECK",
                     "REQUIRE", "compile-time constants"], rows + [totals])
            + "\n\n### Validation statements in shared helpers\n\n"
            + table(["section", "helper", "kind", "condition"], helper_rows))


def _data_types_section() -> str:
    parts = ["## Supported data types per operator (MLIR element types)"]
    for o in st.ops():
        extra = sorted({k for r in o.type_rows for k in r.values})
        header = ["profile / extension", "mode", *o.type_columns]
        rows = [[_requirements(r), _cell(r.mode),
                 *[_code(r.types[c]) if c in r.types else r.values.get(c, "")
                   for c in o.type_columns]] for r in o.type_rows]
        args = ", ".join(f"{a.kind.lower()} {_code(a.name)}: {_code(a.type)}"
                         for a in o.arguments)
        parts.append(f"### {o.section} {o.name} (`{o.mlir_name}`)\n\n{args}\n\n"
                     + table(header, rows)
                     + (f"\n\nnon-type columns: {', '.join(extra)}" if extra else ""))
    return "\n\n".join(parts)


def render_spec_tables() -> str:
    src = st.source()
    intro = (f"# TOSA 1.0.1 specification tables\n\n{GENERATED_NOTE}\n\n"
             f"Extracted from `{src['spec_file']}` (sha256 `{src['sha256'][:16]}…`) by "
             "`python -m tosa_xdsl.spec_tables.extract`; API in `tosa_xdsl.spec_tables`.")
    sections = [intro, _levels_section(), _profiles_section(), _enums_section(),
                _inventory_section(), _data_types_section()]
    return "\n\n".join(sections) + "\n"

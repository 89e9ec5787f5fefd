"""Extract the TOSA 1.0.1 specification's tables into the JSON files of this package.

    python -m tosa_xdsl.spec_tables.extract [SPEC.md] [--check]

reads the Markdown conversion of the spec (default: $TOSA_SPEC, else
../shared/spec/tosa-1.0.1-spec.md beside the checkout) and writes, next to this file:

- ``operators.json``  the 75 operators of chapter 2: arguments, compile-time-constant
  status, supported data types, and the LEVEL_CHECK / ERROR_IF / REQUIRE statements;
- ``helpers.json``    the same statements inside shared pseudocode helpers (2.2, 4.x);
- ``levels.json``     table "Level maxima" (1.7);
- ``profiles.json``   profiles and extensions (1.6) and Appendix B's per-profile tables;
- ``enums.json``      the enumerations of chapter 3;
- ``source.json``     which spec file (sha256) the data came from.

The output is deterministic (sorted keys, spec order for lists), so a re-extraction of
the same spec gives no diff. ``--check`` compares instead of writing (exit 1 on a diff).
The script fails loudly on anything it does not understand rather than guessing: a
silently wrong table would become a silently wrong verifier.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

from . import errata
from ._document import SpecDocument, clean_cell, squash
from ._pseudocode import KINDS, enclosing_functions, find_conditions

# The steering repository's shared/ sits next to our checkout (../shared in CI and here).
_BESIDE_CHECKOUT = Path(__file__).resolve().parents[2].parent / "shared" / "spec" / "tosa-1.0.1-spec.md"
DEFAULT_SPEC = Path(os.environ.get("TOSA_SPEC", str(_BESIDE_CHECKOUT)))
OUT_DIR = Path(__file__).resolve().parent
OPERATOR_CHAPTER = "2"
VALIDATION_HELPER_DEFINITIONS = "4.3"  # defines REQUIRE/ERROR_IF themselves: not uses


class SpecFormatError(ValueError):
    """The spec text does not have the shape this extractor expects."""


# -- profiles, extensions, levels ------------------------------------------------------


def extract_profiles(doc: SpecDocument) -> dict:
    start, end = doc.own_span("1.6")
    profiles, extensions = [], []
    for t in doc.merged_tables(start, end, "Profile"):
        for title, name, desc, status in _rows(t, 4):
            profiles.append({"name": squash(name), "title": title, "description": desc,
                             "status": status})
    for t in doc.merged_tables(start, end, "Name"):
        for name, desc, allowed, status in _rows(t, 4):
            extensions.append({
                "name": squash(name), "description": desc, "status": status,
                "allowed_profiles": [squash(p) for p in allowed.split(",")],
            })
    if not profiles or not extensions:
        raise SpecFormatError("section 1.6: profile/extension tables not found")
    return {"profiles": profiles, "extensions": extensions}


def extract_levels(doc: SpecDocument) -> dict:
    start, end = doc.own_span("1.7")
    (table,) = doc.merged_tables(start, end, "tosa_level_t")
    names = [squash(h).removeprefix("tosa_level_") for h in table.header[1:]]
    levels: dict[str, dict[str, int]] = {n: {} for n in names}
    descriptions: dict[str, str] = {}
    for row in _rows(table, len(table.header)):
        key, values = squash(row[0]), row[1:]
        for name, value in zip(names, values):
            if key == "Description":
                descriptions[name] = value
            else:
                levels[name][key] = int(squash(value))
    # JSON keys are sorted for stable output, so the spec's order is kept separately.
    return {"levels": levels, "descriptions": descriptions, "level_order": names,
            "limit_order": [squash(r[0]) for r in table.rows if squash(r[0]) != "Description"]}


def extract_enums(doc: SpecDocument) -> dict:
    enums = []
    for h in doc.subsections("3"):
        start, end = doc.own_span(h.number)
        values = []
        for t in doc.merged_tables(start, end, "Name"):
            for name, value, desc, ext in _rows(t, 4):
                values.append({"name": squash(name), "value": int(value),
                               "description": desc, "required_extension": squash(ext)})
        enums.append({"name": squash(h.title), "section": h.number, "values": values})
    return {"enums": enums}


def extract_appendix_b(doc: SpecDocument, profiles: dict) -> dict:
    """Appendix B: per profile and extension, the (operator, mode) pairs it adds."""
    by_title = {p["title"]: p["name"] for p in profiles["profiles"]}
    appendix = doc.headings[[h.title.startswith("Appendix B") for h in doc.headings].index(True)]
    groups = doc.subsections(appendix.number)  # 6.1 Profiles, 6.2 Profile Extensions
    out = []
    for group in groups:
        for h in doc.subsections(group.number):
            start, end = doc.section_span(h.number)
            name = by_title.get(h.title) or squash(h.title.split()[0])
            text = "\n".join(doc.lines[start:end])
            status = re.search(r"^Status:\s*(\S+)", text, re.M)
            compatible = re.search(r"^Compatible profiles:\s*(.+)$", text, re.M)
            entries = []
            for t in doc.merged_tables(start, end, "Operator"):
                for row in _rows(t, len(t.header)):
                    if row[0] == "No changes":
                        continue
                    entries.append({"operator": squash(row[0]), "mode": row[1],
                                    "version": row[2], "note": row[3] if len(row) > 3 else ""})
            enum_changes = [
                {"enum": squash(r[0]), "value": squash(r[1]), "note": r[2]}
                for t in doc.merged_tables(start, end, "Enum") for r in _rows(t, 3)
            ]
            out.append({
                "name": name, "section": h.number,
                "status": status.group(1) if status else "",
                "compatible_profiles": [squash(p) for p in compatible.group(1).split(",")]
                if compatible else [],
                "operators": entries, "enum_changes": enum_changes,
            })
    return {"appendix_b": out}


# -- operators ---------------------------------------------------------------------------


def extract_operators(doc: SpecDocument, known_requirements: set[str]) -> dict:
    operators = []
    for chapter in doc.subsections(OPERATOR_CHAPTER):
        for h in doc.subsections(chapter.number):
            operators.append(_operator(doc, chapter.title, h, known_requirements))
    return {"operators": operators}


def _operator(doc, chapter: str, h, known: set[str]) -> dict:
    name = squash(h.title)
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
        raise SpecFormatError(f"section {h.number}: unexpected operator name {h.title!r}")
    start, end = doc.own_span(h.number)
    code = doc.code_lines(start, end)
    identifiers = set(re.findall(r"\w+", " ".join(t for _, t in code)))

    arguments, ctc, type_columns, type_rows, notes = [], [], [], [], []
    for t in doc.merged_tables(start, end, "Argument"):
        kind = squash(t.header[1]).lower()
        if kind == "type":
            if arguments:
                raise SpecFormatError(f"{name}: two Arguments tables")
            arguments = [_argument(name, row, identifiers, notes) for row in _rows(t, 6)]
        elif kind.startswith("ctcenabled"):
            if ctc:
                raise SpecFormatError(f"{name}: two Compile Time Constant Status tables")
            ctc = [_ctc_row(row) for row in _rows(t, 3)]
    sdt = doc.merged_tables(start, end, "Profile/Extension")
    if len(sdt) > 1:
        raise SpecFormatError(f"{name}: Supported Data Types tables with different headers")
    if sdt:
        type_columns = [squash(c) for c in sdt[0].header[2:]]
        type_rows = [_type_row(name, row, type_columns, known)
                     for row in _rows(sdt[0], len(sdt[0].header))]
    arg_names = {a["name"] for a in arguments}
    for row in ctc:
        if row["argument"] not in arg_names:
            raise SpecFormatError(f"{name}: CTC row for unknown argument {row['argument']}")

    conditions = find_conditions(code)
    _check_no_condition_outside_code(doc, start, end, name)
    by_kind = {k: [_condition_json(c) for c in conditions if c.kind == k] for k in KINDS}
    return {
        "name": name,
        "mlir_name": "tosa." + name.lower(),
        "section": h.number,
        "chapter": chapter,
        "chapter_section": h.number.rsplit(".", 1)[0],
        "arguments": arguments,
        "ctc": ctc,
        "type_columns": type_columns,
        "type_rows": type_rows,
        "level_checks": by_kind["LEVEL_CHECK"],
        "error_ifs": by_kind["ERROR_IF"],
        "requires": by_kind["REQUIRE"],
        "notes": notes,
    }


def _letters_key(ident: str) -> str:
    # "per_channnel" ~ "per_channel", "rounding_mod_e" ~ "rounding_mode": PDF artefacts
    # (and a typo) differ from the pseudocode's spelling only by "_" and doubled letters.
    return re.sub(r"(.)\1+", r"\1", ident.replace("_", "").lower())


def _argument(op: str, row: list[str], identifiers: set[str], notes: list[str]) -> dict:
    kind, typ, name, shape, rank, desc = row
    spec_name, name, typ = squash(name), squash(name), squash(typ)
    if kind not in ("Input", "Attribute", "Output"):
        raise SpecFormatError(f"{op}: argument kind {kind!r}")
    if name not in identifiers:
        # Prefer the pseudocode's spelling when the table's differs only by PDF noise.
        matches = sorted(i for i in identifiers if _letters_key(i) == _letters_key(name))
        if len(matches) == 1 and matches[0] != name:
            notes.append(f"argument name {spec_name!r} in the table read as {matches[0]!r} "
                         "(the spelling used by the pseudocode)")
            name = matches[0]
    return {
        "kind": kind, "type": typ, "name": name, "shape": squash(shape),
        "rank": clean_cell(rank), "description": desc,
        "is_list": typ.startswith("tensor_list_t"),
    }


def _ctc_row(row: list[str]) -> dict:
    arg, enabled, disabled = row
    return {
        "argument": squash(arg),
        "enabled_profiles": [squash(p) for p in enabled.split(",") if p.strip()],
        "disabled_extensions": [squash(p) for p in disabled.split(",") if p.strip()],
    }


def _type_row(op: str, row: list[str], columns: list[str], known: set[str]) -> dict:
    requirements = []
    # "PRO-INT or PRO-FP": either suffices; "EXT-BF16 and EXT-FP8E4M3": both needed.
    for alternative in re.split(r"\s+or\s+", row[0]):
        names = sorted(squash(n) for n in re.split(r"\s+and\s+", alternative))
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SpecFormatError(f"{op}: unknown profile/extension {unknown} in {row[0]!r}")
        requirements.append(names)
    types, values = {}, {}
    for col, cell in zip(columns, row[2:]):
        cell = squash(cell)
        # Type variables hold spec types ("i8_t"); other columns (TABLE_SIZE) are numbers.
        (types if cell.endswith("_t") else values)[col] = cell
    return {"requirements": requirements, "requirement_text": row[0], "mode": row[1],
            "types": types, "values": values}


def _condition_json(c) -> dict:
    return {"text": c.text, "comment": c.comment, "line": c.line}


def _check_no_condition_outside_code(doc, start, end, op) -> None:
    for i in range(start, end):
        line = doc.lines[i].replace("\\_", "_")
        if not doc.in_code[i] and re.search(r"\b(LEVEL_CHECK|ERROR_IF|REQUIRE)\(", line):
            raise SpecFormatError(f"{op}: validation statement outside code at line {i + 1}")


# -- helpers ----------------------------------------------------------------------------


def extract_helpers(doc: SpecDocument, operators: list[dict]) -> dict:
    """Validation statements in pseudocode outside the operator sections."""
    excluded = [doc.section_span(op["section"]) for op in operators]
    excluded.append(doc.section_span(VALIDATION_HELPER_DEFINITIONS))
    code = [(i, t) for i, t in doc.code_lines(0, len(doc.lines))
            if not any(s <= i < e for s, e in excluded)]
    functions = enclosing_functions(code)
    out = []
    for c in find_conditions(code):
        section = max((h for h in doc.headings if h.line < c.line), key=lambda h: h.line)
        out.append({"helper": functions[c.line - 1], "section": section.number,
                    "kind": c.kind, **_condition_json(c)})
    return {"conditions": out}


# -- driver -----------------------------------------------------------------------------


def _rows(table, width: int) -> list[list[str]]:
    for row, line in zip(table.rows, table.row_lines):
        if len(row) != width:
            raise SpecFormatError(
                f"line {line + 1}: {len(row)} cells, expected {width}: {row}")
    return table.rows


def extract(text: str, spec_name: str = "tosa-1.0.1-spec.md") -> dict[str, dict]:
    """Spec text -> {json file name: content}."""
    doc = SpecDocument(text)
    profiles = extract_profiles(doc)
    known = {p["name"] for p in profiles["profiles"]} | {e["name"] for e in profiles["extensions"]}
    profiles.update(extract_appendix_b(doc, profiles))
    operators = extract_operators(doc, known)
    # the 1.0.2 changes on top of the 1.0.1 text
    return errata.apply({
        "operators.json": operators,
        "helpers.json": extract_helpers(doc, operators["operators"]),
        "levels.json": extract_levels(doc),
        "profiles.json": profiles,
        "enums.json": extract_enums(doc),
        "source.json": {"spec_file": spec_name,
                        "sha256": hashlib.sha256(text.encode()).hexdigest()},
    })


def dumps(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    spec = Path(args[0]) if args else DEFAULT_SPEC
    files = extract(spec.read_text(encoding="utf-8"), spec.name)
    stale = []
    for name, data in files.items():
        path = OUT_DIR / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != dumps(data):
                stale.append(name)
        else:
            path.write_text(dumps(data), encoding="utf-8")
    if check and stale:
        print("stale:", ", ".join(stale), file=sys.stderr)
        return 1
    ops = files["operators.json"]["operators"]
    print(f"{len(ops)} operators, "
          f"{sum(len(o['type_rows']) for o in ops)} type rows, "
          + ", ".join(f"{sum(len(o[k]) for o in ops)} {k}"
                      for k in ("error_ifs", "level_checks", "requires")))
    return 0


if __name__ == "__main__":
    sys.exit(main())

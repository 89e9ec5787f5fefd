"""Element types producers emit beyond TOSA 1.0.1's profiles: f64, i64, and upstream's permissive rows.

torch-mlir writes f64 constants (Python floats in LayerNorm, softmax, comparisons) and i64
index math; upstream MLIR's op verifier accepts them (its ODS allows every Tosa number type)
and leaves profile conformance to `tosa-validate` ("is not profile-aligned: element type 'f64'
is not legal"). We follow that split: the Supported Data Types check (data_types.py) also
accepts each table row "widened" as below; tosa-validate (validation/profiles.py) reports such
a combination, naming the narrowing pass that makes it conformant.

Widening (per row, each type variable independently):
- f32 -> f64 (f64 computes as f64: the interpreter and the lowering keep the width);
- i32 -> i64 (TOSA 1.1's EXT-INT64 rows are the i32 rows with i64);
- i8/i16/i32 -> ui8/ui16/ui32 (upstream's verifier accepts unsigned tensors; tosa-convert-
  integer-type-to-signless makes them signless);
- an operator whose integer rows are all narrower than 32 bits (CLAMP, ...) also gets i32
  and i64 rows (upstream's verifier accepts them; torch clamps int64 tensors);
- CAST: every pair of distinct types (and i32->i32, f32->f32, which narrowing leaves) among bool, i8, i16, i32, i64, f16, bf16, f32, f64
  (the narrowing passes materialise f64<->f32 and i64<->i32 casts);
- upstream's permissive rows, as data (upstream_rows.json, written by hand-run
  tests/fixtures/upstream_type_rows.py from MLIR 22's and iree-opt's verdicts on one module
  per operator and element type among i1, i4, i8, i16, i32, i48, i64, ui8, ui16, ui32): an
  operator the table covers also accepts the rows MLIR 22 accepts there (but NOT_YET) and
  rejects those it rejects. Upstream's ODS types most operands `Tosa_Tensor` (any signless or
  unsigned integer, TosaTypesBase.td). `tosa-validate` reports them with upstream's words
  ("illegal: operation operand/result data types did not align with any profile or extension,
  got (i1,i1,i1), did you mean (i32,i32,i32)? ..."; unsigned: "is not profile-aligned: element
  type 'ui8' is not legal"). What they compute: docs/producers.md (signless: the spec's signed
  meaning, arithmetic modulo 2^width as upstream's lowering: WRAPPING_TYPES; unsigned: the
  unsigned values).
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

from tosa_xdsl import spec_tables as st

WIDER = {"f32": ("f32", "f64"), "i32": ("i32", "i64", "ui32"), "i16": ("i16", "ui16"), "i8": ("i8", "ui8")}
CAST_TYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")
PRODUCER_ONLY = frozenset({"f64", "i64", "ui8", "ui16", "ui32"})
_FIX = {"f64": "tosa-narrow-f64-to-f32", "i64": "tosa-narrow-i64-to-i32", "ui8": "tosa-convert-integer-type-to-signless",
        "ui16": "tosa-convert-integer-type-to-signless", "ui32": "tosa-convert-integer-type-to-signless"}


# ADD/SUB/MUL (and the other arithmetic: ABS, NEGATE, REDUCE_SUM/PRODUCT) on types without a
# spec row compute modulo 2^width (the interpreter's and the lowering's `wrapping`
# arithmetic); the spec's own rows keep their REQUIREs
WRAPPING_TYPES = ("i1", "i4", "i8", "i16", "i48", "ui8", "ui16", "ui32")

# Upstream's permissive rows as data: MLIR 22's verdict on one module per (operator, element
# type), written by tests/fixtures/upstream_type_rows.py (run by hand). An operator it covers
# accepts exactly the rows upstream accepts there (beyond the spec and the widening above) and
# rejects those upstream rejects (INTDIV on ui32); the widening stays for its other rows.
_UPSTREAM_ROWS = Path(__file__).with_name("upstream_rows.json")

# Rows upstream's verifier accepts that we keep rejecting, by the table's operator form
# (docs/producers.md)
NOT_YET: dict[str, tuple[str, ...]] = {
    # TABLE (T, T[256]) -> T beyond i8/ui8: MLIR 22's lowering fails to legalize them (it has
    # i8 -> i8 and i16 -> i32 only), so there is no upstream meaning to give them
    "TABLE": ("i1", "i4", "i16", "i32", "i48", "i64", "ui16", "ui32"),
}


@functools.lru_cache(maxsize=1)
def _upstream_table() -> dict[str, dict]:
    return json.loads(_UPSTREAM_ROWS.read_text())["ops"]


@functools.lru_cache(maxsize=None)
def upstream_rows(spec_name: str) -> tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]]]:
    """(rows we accept, rows upstream rejects) of `spec_name` in its table's columns."""
    accepted: set[tuple[str, ...]] = set()
    rejected: set[tuple[str, ...]] = set()
    for name, entry in _upstream_table().items():
        if name.split(":")[0] != spec_name:
            continue
        for t, verdict in entry.items():
            if verdict["row"] is None:
                continue
            row = tuple(verdict["row"])
            if verdict["mlir-22"] != "ok":
                rejected.add(row)
            elif t not in NOT_YET.get(name, ()):
                accepted.add(row)
    return frozenset(accepted), frozenset(rejected)


def widened_keys(spec_name: str, keys: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The combinations accepted beyond the spec's `keys` (rows as type tuples)."""
    extra: set[tuple[str, ...]] = set()
    for key in keys:
        extra.update(itertools.product(*(WIDER.get(t, (t,)) for t in key)))
    ints = {t for key in keys for t in key if t in ("i8", "i16", "i32")}
    if keys and all(len(k) == 1 for k in keys) and ints and "i32" not in ints:
        extra.update({("i32",), ("i64",)})
    if spec_name == "CAST":
        extra.update((a, b) for a in CAST_TYPES for b in CAST_TYPES if a != b)
        # the narrowing passes leave same-type casts (upstream's output has them too); other
        # same-type casts stay the spec's error (tests/filecheck/verify/data_types_error_if.mlir)
        extra.update({("i32", "i32"), ("f32", "f32")})
    accepted, rejected = upstream_rows(spec_name)
    return frozenset((extra | accepted) - rejected - keys)


def _upstream_list(spec_name: str, types: dict[str, str]) -> str:
    """Types as upstream's profile check lists them: one per operand/result argument whose type
    is a table column (MUL's shift, SELECT's condition and attributes are not listed), and
    acc_type (acc_t) before the output where the operator has it (CONV2D, AVG_POOL2D)."""
    spec = st.op_spec(spec_name)
    names = [types.get(a.type_variable, "?") for a in _listed(spec)]
    if "acc_t" in spec.type_columns and any(a.name == "acc_type" for a in spec.arguments):
        names.insert(len(names) - 1, types.get("acc_t", "?"))
    return "(" + ",".join(names) + ")"


def _listed(spec):
    return [a for a in spec.arguments if a.kind in ("Input", "Output") and a.type_variable in spec.type_columns]


# the order in which upstream's profile check tries types for its suggestion: integers by
# width, then floats
_TYPE_ORDER = ("i1", "i4", "i8", "i16", "i32", "i48", "i64", "f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2")


def _nearest_row(spec_name: str, types: dict[str, str]) -> str | None:
    """Upstream's "did you mean": the profile row matching most listed positions; ties go to
    the row whose types come first (integers before floats, narrower first)."""
    args = _listed(st.op_spec(spec_name))
    best = None
    for row in st.op_spec(spec_name).type_rows:
        mlir = dict(row.types)
        if any(a.type_variable not in mlir for a in args):
            continue
        matches = sum(mlir[a.type_variable] == types.get(a.type_variable) for a in args)
        order = tuple(_TYPE_ORDER.index(mlir[a.type_variable]) if mlir[a.type_variable] in _TYPE_ORDER
                      else len(_TYPE_ORDER) for a in args)
        # upstream tries the profiles' rows before the extensions' (CONV2D on i4: i8 x i8, not
        # EXT-INT4's i8 x i4)
        extension = any(name.startswith("EXT-") for req in row.requirements for name in req)
        if best is None or (-matches, extension, order) < best[0]:
            best = ((-matches, extension, order), mlir)
    return None if best is None else _upstream_list(spec_name, best[1])


def producer_type_message(op_name: str, types: tuple[str, ...], variables: tuple[str, ...] = ()) -> str:
    """tosa-validate's report for a widened combination (upstream's wording, plus the fix)."""
    wide = [t for t in types if t in PRODUCER_ONLY]
    if not wide:
        # a signless combination in no profile (ADD on i1, ...): upstream's profile report
        spec = op_name.removeprefix("tosa.").upper()
        by_var = dict(zip(variables, types))
        near = _nearest_row(spec, by_var)
        suggestion = f"did you mean {near}? " if near else ""
        return (f"'{op_name}' op illegal: operation operand/result data types did not align with any profile "
                f"or extension, got {_upstream_list(spec, by_var)}, {suggestion}Otherwise, please refer to the "
                f"'supported data types' for '{op_name}' in the specification.")
    first = wide[0]
    hint = ", ".join(dict.fromkeys(_FIX[t] for t in wide))
    text = f"'{op_name}' op is not profile-aligned: element type '{first}' is not legal"
    if "i64" in wide:
        text += " (i64 needs TOSA 1.1's EXT-INT64)"
    return text + (f"; run {hint}" if hint else "")

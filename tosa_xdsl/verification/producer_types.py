"""Element types producers emit beyond TOSA 1.0.1's profiles: f64 and i64.

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
- ADD, SUB, MUL: (T, T, T) for T = i1, i8, i16, ui8, ui16, ui32 (i64 comes from the
  widening above). Upstream's ODS types these operands `Tosa_Tensor` (any signless or
  unsigned integer, TosaTypesBase.td) with the same element type throughout, and MLIR 22's
  verifier accepts them; `tosa-validate` reports them with upstream's words ("illegal:
  operation operand/result data types did not align with any profile or extension, got
  (i1,i1,i1), did you mean (i32,i32,i32)? ..."; unsigned: "is not profile-aligned: element type
  'ui8' is not legal"). They compute as upstream's lowering defines them: `arith.addi` /
  `subi` / `muli` on the bits, i.e. modulo 2^width (WRAPPING_ROWS; bool: xor, xor, and).
"""

from __future__ import annotations

import itertools

WIDER = {"f32": ("f32", "f64"), "i32": ("i32", "i64", "ui32"), "i16": ("i16", "ui16"), "i8": ("i8", "ui8")}
CAST_TYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")
PRODUCER_ONLY = frozenset({"f64", "i64", "ui8", "ui16", "ui32"})
_FIX = {"f64": "tosa-narrow-f64-to-f32", "i64": "tosa-narrow-i64-to-i32", "ui8": "tosa-convert-integer-type-to-signless",
        "ui16": "tosa-convert-integer-type-to-signless", "ui32": "tosa-convert-integer-type-to-signless"}


# ADD/SUB/MUL rows beyond the spec that compute modulo 2^width (the interpreter's and the
# lowering's `wrapping` arithmetic); the spec's own rows keep their REQUIREs
WRAPPING_OPS = ("ADD", "SUB", "MUL")
WRAPPING_TYPES = ("i1", "i8", "i16", "ui8", "ui16", "ui32")
_SUGGEST = {"ADD": "(i32,i32,i32)", "SUB": "(i32,i32,i32)", "MUL": "(i8,i8,i32)"}


def widened_keys(spec_name: str, keys: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The combinations accepted beyond the spec's `keys` (rows as type tuples)."""
    extra: set[tuple[str, ...]] = set()
    for key in keys:
        extra.update(itertools.product(*(WIDER.get(t, (t,)) for t in key)))
    ints = {t for key in keys for t in key if t in ("i8", "i16", "i32")}
    if keys and all(len(k) == 1 for k in keys) and ints and "i32" not in ints:
        extra.update({("i32",), ("i64",)})
    if spec_name in WRAPPING_OPS:
        width = len(next(iter(keys))) if keys else 3
        extra.update((t,) * width for t in WRAPPING_TYPES)
    if spec_name == "CAST":
        extra.update((a, b) for a in CAST_TYPES for b in CAST_TYPES if a != b)
        # the narrowing passes leave same-type casts (upstream's output has them too); other
        # same-type casts stay the spec's error (tests/filecheck/verify/data_types_error_if.mlir)
        extra.update({("i32", "i32"), ("f32", "f32")})
    return frozenset(extra - keys)


def producer_type_message(op_name: str, types: tuple[str, ...]) -> str:
    """tosa-validate's report for a widened combination (upstream's wording, plus the fix)."""
    wide = [t for t in types if t in PRODUCER_ONLY]
    if not wide:
        # a signless combination in no profile (ADD on i1, ...): upstream's profile report
        spec = op_name.removeprefix("tosa.").upper()
        near = "(i16,i16,i32)" if spec == "MUL" and types[0] == "i16" else _SUGGEST.get(spec)
        suggestion = f"did you mean {near}? " if near else ""  # upstream's nearest profile row
        # upstream lists input1, input2, output: the table's type variables spelled out
        got = (types[0],) * 3 if spec in ("ADD", "SUB") else (types[0], types[0], types[1]) if spec == "MUL" else types
        return (f"'{op_name}' op illegal: operation operand/result data types did not align with any profile "
                f"or extension, got ({','.join(got)}), {suggestion}Otherwise, please refer to the 'supported "
                f"data types' for '{op_name}' in the specification.")
    first = wide[0]
    hint = ", ".join(dict.fromkeys(_FIX[t] for t in wide))
    text = f"'{op_name}' op is not profile-aligned: element type '{first}' is not legal"
    if "i64" in wide:
        text += " (i64 needs TOSA 1.1's EXT-INT64)"
    return text + (f"; run {hint}" if hint else "")

"""TOSA 1.0.2 (arm/tosa-specification tag v1.0.2): the normative changes since 1.0.1, as data.

The tables of this package are extracted from the 1.0.1 document (extract.py); 1.0.2 has no
separate document here, so its changes are applied on top, by `apply()`, at extraction time
(the JSON files therefore already include them). docs/spec-1.0.2.md lists every change with
its section and test.

Changes (git diff v1.0.1..v1.0.2 of arm/tosa-specification):
- 2.3.1 ARGMAX: `REQUIRE(i <= maximum<out_t>())` when a new maximum is recorded (#40).
- Appendix A: the B bounds of mixed fp8e4m3/fp8e5m2 inputs (with fp16 and fp32 outputs) are
  removed: no operator takes mixed fp8 inputs.
- 1.4 / 4.3: `graph_result` is a value that REQUIRE/ERROR_IF/LEVEL_CHECK update and that
  `tosa_execute_graph` (and COND_IF / WHILE_LOOP for their subgraphs) returns, instead of the
  global `tosa_graph_result`; an unpredictable graph must not write outside any tensor.
- 2.1: every output's shape must be derivable from the operator's inputs and attributes.
"""

from __future__ import annotations

from typing import Any

SPEC_VERSION = "1.0.2"

ARGMAX_REQUIRE = {
    "text": "i <= maximum<out_t>()",
    "comment": "TOSA 1.0.2: the output index must fit out_t",
    "line": 0,  # not in the 1.0.1 document
}

# Appendix A (1.0.2): B for the floating-point test data generator, by (input type, output
# type): the largest value representable by the input type whose square does not overflow
# the output type. 1.0.1 also listed ("fp8e4m3 and fp8e5m2", fp16) = 224 and (..., fp32) = 448.
DOT_PRODUCT_B: dict[tuple[str, str], float] = {
    ("fp8e4m3", "fp16"): (1 << 8) - (1 << 4),
    ("fp8e4m3", "fp32"): 448.0,
    ("fp8e5m2", "fp16"): (1 << 8) - (1 << 5),
    ("fp8e5m2", "fp32"): 57344.0,
    ("fp8e4m3", "fp8e4m3"): 20.0,
    ("fp8e5m2", "fp8e5m2"): 224.0,
    ("fp16", "fp16"): (1 << 8) - (1 / 8),
    ("fp16", "fp32"): (1 << 16) - (1 << 5),
    ("bf16", "bf16"): float((1 << 64) - (1 << 56)),
    ("bf16", "fp32"): float((1 << 64) - (1 << 56)),
    ("fp32", "fp32"): float((1 << 64) - (1 << 40)),
}


def apply(files: dict[str, Any]) -> dict[str, Any]:
    """Apply the 1.0.2 changes to freshly extracted 1.0.1 tables (in place; returned)."""
    for op in files["operators.json"]["operators"]:
        if op["name"] == "ARGMAX" and ARGMAX_REQUIRE not in op["requires"]:
            op["requires"].append(dict(ARGMAX_REQUIRE))
    files["source.json"]["errata"] = SPEC_VERSION
    return files

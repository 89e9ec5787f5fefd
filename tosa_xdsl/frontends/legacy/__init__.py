"""Pre-1.0 TOSA (MLIR's TOSA dialect of LLVM 14-18, 2021-2024) read and upgraded to 1.0.1.

- `dialect.py`: the legacy `tosa` op set (one permissive op class per old op name) and the
  old `#tosa.*_quant` attributes, in their own Context (`legacy_context()`).
- `quant_types.py`: a minimal `!quant.uniform<...>` type for the legacy reader only.
- `upgrade.py`: the `tosa-upgrade-to-1.0` pass (legacy ops -> 1.0.1 ops).
- `reader.py`: `read_legacy(text)` and the tosa-opt hook that upgrades on read.
"""

from tosa_xdsl.frontends.legacy.reader import read_legacy, upgrade_text

__all__ = ["read_legacy", "upgrade_text"]

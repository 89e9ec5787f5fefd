"""The `canonicalize` pass: xDSL's, which also applies the TOSA patterns because each TOSA op
declares its own (CanonicalizationPatterns trait; the patterns are in
tosa_xdsl.passes.canonicalization_patterns)."""

from __future__ import annotations

from xdsl.transforms.canonicalize import CanonicalizePass


class TosaCanonicalizePass(CanonicalizePass):
    """xDSL's `canonicalize` (folders, canonicalization patterns of every dialect, dead
    code elimination), registered under our pass registry so that `-p canonicalize` keeps
    canonicalizing func/arith/... exactly as before and adds TOSA."""

    name = "canonicalize"

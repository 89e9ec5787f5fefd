"""Road 2: an operator instance compiled from its @lower formulas (draft 2.12).

Each formula `out[idx] op= value, i < n, ...` becomes one `linalg.generic`: the index symbols
are its loop dimensions (a pack bound `i < s` gives one dimension per item), the indices of
each tensor access its affine indexing map, dimensions absent from the output are reductions.
`=` gives the initial value (or the reducing assignment starts from its null element: 0 for
`+=`, 1 for `*=`, -inf/inf for `>?=`/`<?=`, false/true for `|=`/`&=`). Conditional formulas and updates `:=` (argmax-like
searches whose condition reads the output) become scf.for nests carrying the output (loops.py). A bounds-checked access
`x[|e|]` reads a padded copy of `x` holding the null element of the reduction, which skips the
out-of-range terms exactly when the access is a factor of the reduced term (the draft's
conv, pools and sliding windows). Remapped bounds `|e <> lower : upper|` (lower and upper
multiples of e plus constants, as layout.pad's REFLECT/SYMMETRIC/REPLICATE) read a copy
extended over e's range by a tosa.gather of the remapped rows; an access reaching outside its
tensor under a condition (layout.pad's CONSTANT) reads a zero-padded copy; folds of packs of
loop indices (`(zi >= 0 && zi < s) && ..`) are compiled item by item; a compile-time pack indexed
by a loop index (per-channel `scale[i[channel_axis]]`) is a constant tensor read affinely. A
formula reading items of a tensor pack (`inputs[ni][...]`, layout.concat) is unrolled over the
items, each piece (with its own, jagged, bounds) written into its part of the output with
tensor.insert_slice. An output position summing loop indices (nn.deconv's
`stride * i + j - offset`) in a reducing formula, and writes at indices read from tensors
(layout.scatter, scatter_nd; outside the output skipped) are scf loops of tensor.insert.
Computed indices (rounded reals of the resizes, indices read from tensors as in gather and
gather_nd, packs of them) are tensor.extract in the generic: clamped, guarded or remapped.
Formulas over packs of tensors (unroll, packed outputs, packed assignment) compile one formula
per item; an output with a data-dependent extent is written at its counter symbol.

Modules, one concern each: affine.py (index expressions -> affine maps), scalar.py (the
right-hand side's ops), reads.py (tensor reads in a generic), computed.py (non-affine
indices), generic.py (one formula -> linalg.generic), loops.py (-> scf loops), counted.py
(data-dependent extents), packs.py (formulas over packs), lower.py (an operator instance);
intrinsics.py (with text.py, intrinsic_algo.py, intrinsic_image.py): hand-written lowerings of
the standard operators the draft gives no formulas (top_k, nonmax_suppress, the ROI pools,
_cubic_grid_sample, cubic_resize).
Not compiled (a located error): a conditional packed assignment to a pack whose items differ
in shape."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef.to_linalg.lower import lower_node  # noqa: F401

# standard-library operators whose formulas road 2 does not compile yet (with a TOSA mapping,
# road 1 imports them); the reason is part of the located error
KNOWN_GAPS: dict[str, tuple[str, str]] = {}

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
tensor.insert_slice. Formulas indexing by values read from tensors (layout.gather's reads,
layout.scatter's writes) become scf loops of tensor.extract/insert (loops.py), writes outside
the output skipped. Not compiled (a located error): non-affine indices of rounded reals and
packs of data-dependent indices (gather_nd), `unroll` formulas, packed outputs,
data-dependent shapes. An output position summing loop indices (nn.deconv's
`stride * i + j - offset`) in a reducing formula is compiled as loops too."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef.to_linalg.generic import lower_node  # noqa: F401

# standard-library operators whose formulas road 2 does not compile yet (with a TOSA mapping,
# road 1 imports them); the reason is part of the located error
KNOWN_GAPS: dict[str, tuple[str, str]] = {}

"""Road 2 for the standard-library operators the draft gives no formulas: its text calls them
"intrinsic operators in an actual compiler implementation" (4.5.3 ROI operators, 4.7
algorithmic operators) or leaves their body out (4.5.4 `_cubic_grid_sample`, 4.5.2
`cubic_resize`, which road 1 maps; this is its road 2 for `lower_all`). Each is a
hand-written lowering producing what road 2 produces from formulas: scf loops carrying
tensors, `tensor.extract`/`tensor.insert` and arith/math on scalars (text.py writes the MLIR),
so they run in the interpreter and natively like any formula.

The meaning where the draft is silent (its prose and attribute lists are all it gives) follows
the operators Khronos' converters map onto these (NNEF-Tools v2.0, onnx_to_sknd: ONNX TopK,
NonMaxSuppression, GridSample; nnef_to_sknd: NNEF 1 avg/max_roi_pool), as each module says."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef.to_linalg.intrinsic_algo import nonmax_suppress, top_k
from tosa_xdsl.frontends.nnef.to_linalg.intrinsic_image import (
    cubic_grid_sample,
    cubic_resize,
    roi_pool,
)

INTRINSICS = {
    "algo.top_k": top_k,
    "algo.nonmax_suppress": nonmax_suppress,
    "image.max_roi_pool": lambda em, node, ins: roi_pool(em, node, ins, "max"),
    "image.avg_roi_pool": lambda em, node, ins: roi_pool(em, node, ins, "avg"),
    "image._cubic_grid_sample": cubic_grid_sample,
    "image.cubic_resize": cubic_resize,
}

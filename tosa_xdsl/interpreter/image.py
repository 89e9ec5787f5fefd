"""Spec 2.12 Image Operators: RESIZE.

The arithmetic is `numerics.resize` (ERROR_IF checks of 2.12.1 included):
* integer BILINEAR: v00 * (unit_y - dy) * (unit_x - dx) + ... exactly in int64, returned
  unscaled in out_t (i8 -> i32, i16 -> i48), as the pseudocode writes `acc`;
* integer NEAREST: index iy1 when 2 * dy >= scale_y_n (same for x);
* floating-point: dy = ry / scale_y_n and the bilinear sum computed in fp32 (fp64 for fp64)
  and rounded once to the input type; the NEAREST decision dy >= 0.5 taken on the fp32
  quotient, which equals the decision on the exact ratio (ry/n < 1/2 implies
  ry/n <= 1/2 - 1/(2n) with n <= 2048, far from 1/2 at fp32 precision) and hence the fp64
  reference the precision rule is stated against. (The pseudocode's resize_t = bf16 would
  round e.g. 1023/2047 up to 0.5; the fp64 reference does not -- see docs/interpreter.md.)
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops import image as IM
from tosa_xdsl.interpreter.common import prop, shape_arg, tname


def resize(x, scale, offset, border, mode: str, *, in_t: str, out_t: str,
           out_hw: tuple[int, int] | None = None) -> np.ndarray:
    """RESIZE (spec 2.12.1) on x [N,IH,IW,C]. out_hw defaults to the size the ERROR_IF
    formula gives (OH = (IH - 1) * scale_y_n - offset_y + border_y) / scale_y_d + 1)."""
    x = np.asarray(x)
    scale, offset, border = (tuple(int(v) for v in a) for a in (scale, offset, border))
    nx.error_if(len(scale) != 4 or len(offset) != 2 or len(border) != 2, "scale/offset/border rank")
    nx.error_if(min(scale) <= 0, "scale_y_n <= 0 || scale_y_d <= 0 || scale_x_n <= 0 || scale_x_d <= 0")
    if out_hw is None:
        out_hw = (nx.resize_output_size(x.shape[1], scale[0], scale[1], offset[0], border[0]),
                  nx.resize_output_size(x.shape[2], scale[2], scale[3], offset[1], border[1]))
    mode = str(mode)
    out = nx.resize(x, out_hw, scale, offset, border, mode, in_t,
                    out_t if mode == "BILINEAR" and not nx.is_floating_point(in_t) else None)
    return np.asarray(out).astype(nx.storage_dtype(out_t), copy=False)


@register_impls
class ImageFunctions(InterpreterFunctions):
    @impl(IM.ResizeOp)
    def run_resize(self, interpreter, op, args):
        x, scale, offset, border = args
        shape = op.output.type.get_shape() if hasattr(op.output.type, "get_shape") else None
        out_hw = None
        if shape is not None and len(shape) == 4 and shape[1] >= 0 and shape[2] >= 0:
            out_hw = (shape[1], shape[2])
        return (resize(x, shape_arg(scale), shape_arg(offset), shape_arg(border),
                       prop(op, "mode"), in_t=tname(op.input), out_t=tname(op.output),
                       out_hw=out_hw),)

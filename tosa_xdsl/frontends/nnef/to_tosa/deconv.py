"""nn.deconv -> TOSA TRANSPOSE_CONV2D with layout transposes.

The definition adds input[b, ic, i] * filter[ic, oc, j] into output[b, oc, stride*i + j - offset]
(terms outside the output skipped); TRANSPOSE_CONV2D adds input[n, iy, ix, ic] * weight[oc, ky,
kx, ic] into output[n, iy*stride + out_pad_top + ky, ...] over an output of (IH - 1) * stride +
out_pad_top + out_pad_bottom + KH rows. So out_pad_top = -offset and out_pad_bottom takes up the
rest of the definition's output size (ox, output_size when given). The filter's 'N' axis is the
input channel and 'C' the output channel. Dilation, groups and 1-d/3-d deconvolutions have no
TOSA form here (road 2)."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef.to_tosa.ops import FILTER_TO_NCX, Unsupported, mapping


@mapping("nn.deconv", how="TOSA transpose_conv2d (groups 1, no dilation; NCX/NXC data, any filter format) "
         "with layout transposes")
def _deconv(em, env, ins, outs):
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    data_format = env.get("data_format", "NCX")
    filter_format = env.get("filter_format", "NCX")
    if len(x.shape) != 4 or data_format not in ("NCX", "NXC") or filter_format not in FILTER_TO_NCX:
        raise Unsupported("deconvolution other than 2-d NCX/NXC")
    if env["g"] != 1 or any(v != 1 for v in env["dilation"]):
        raise Unsupported("grouped or dilated deconvolution")
    w = em.transpose(w, FILTER_TO_NCX[filter_format](2))       # [IC, OC, KH, KW]
    weight = em.transpose(w, [1, 2, 3, 0])                    # [OC, KH, KW, IC]
    xt = em.transpose(x, [0, 2, 3, 1]) if data_format == "NCX" else x
    out = [outs[0].shape[i] for i in (0, 2, 3, 1)] if data_format == "NCX" else list(outs[0].shape)
    offset = env["offset"]
    offset = offset if isinstance(offset, list) else [offset] * 2
    stride = env["stride"]
    kernel = weight.shape[1:3]
    out_pad = []
    for n, o, k, s, off in zip(xt.shape[1:3], out[1:3], kernel, stride, offset):
        top = -off
        bottom = o - (n - 1) * s - k - top
        if top <= -k or bottom <= -k:
            raise Unsupported("deconvolution cropping a whole kernel")
        out_pad += [top, bottom]
    if bias is None:
        bias = em.const([0.0], [1], "real")
    arr = lambda v: f"array<i64: {', '.join(str(int(i)) for i in v)}>"
    y = em.op("tosa.transpose_conv2d", [xt, weight, bias, em.zp("real"), em.zp("real")], out, "real",
              f"acc_type = f32, out_pad = {arr(out_pad)}, stride = {arr(stride)}")
    return [em.transpose(y, [0, 3, 1, 2]) if data_format == "NCX" else y]

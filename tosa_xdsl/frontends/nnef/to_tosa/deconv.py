"""nn.deconv -> TOSA TRANSPOSE_CONV2D with layout transposes.

The definition adds input[b, gi*m + mi, i] * filter[gi*m + mi, ci, j] into
output[b, gi*fc + ci, stride*i + dilation*j - offset] (terms outside the output skipped);
TRANSPOSE_CONV2D adds input[n, iy, ix, ic] * weight[oc, ky, kx, ic] into
output[n, iy*stride + out_pad_top + ky, ...] over an output of (IH - 1) * stride + out_pad_top +
out_pad_bottom + KH rows. So out_pad_top = -offset and out_pad_bottom takes up the rest of the
definition's output size (ox, output_size when given). The filter's 'N' axis is the input
channel and 'C' the output channel (of its group).

- groups g > 1 (0: one per input channel): one TRANSPOSE_CONV2D per group, reading the
  group's input channels [gi*m, (gi+1)*m) and filter rows (SLICEs of the NHWC input and of the
  NCX filter), its bias' channels [gi*fc, (gi+1)*fc), the outputs CONCATenated along C: what
  the definition sums per group, term by term (no block-diagonal weight whose zeros would
  turn an infinite input into NaNs of other groups).
- dilation > 1: the filter with dilation - 1 zeros between its taps (a RESHAPE to unit axes
  after each spatial one, a zero PAD of those, a RESHAPE back and a SLICE to (K - 1) * d + 1
  taps): tap j lands at d*j as in the definition, the zeros add nothing for finite inputs (an
  infinite or NaN input times a zero tap gives NaN where the definition adds no term).
  TOSA operators on any filter, a constant or not; export_layout.py recognises both forms.
1-d/3-d deconvolutions have no TOSA form here (road 2)."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef.to_tosa.ops import FILTER_TO_NCX, Unsupported, mapping


def _slice(em, v, axis, start, size):
    first = [0] * len(v.shape)
    first[axis] = start
    shape = list(v.shape)
    shape[axis] = size
    if shape == list(v.shape):
        return v
    return em.op("tosa.slice", [v, em.shape(first), em.shape(shape)], shape, v.dtype)


def dilate(em, w, dilation):
    """The NCX filter [IC, OC, KH, KW] with dilation - 1 zero taps between its taps."""
    ic, oc, kh, kw = w.shape
    dh, dw = dilation
    unit = em.reshape(w, [ic, oc, kh, 1, kw, 1])
    spread = [ic, oc, kh, dh, kw, dw]
    padded = em.op("tosa.pad", [unit, em.shape([0, 0, 0, 0, 0, 0, 0, dh - 1, 0, 0, 0, dw - 1]),
                                em.const([0.0], [1], w.dtype)], spread, w.dtype)
    flat = em.reshape(padded, [ic, oc, kh * dh, kw * dw])
    taps = [ic, oc, (kh - 1) * dh + 1, (kw - 1) * dw + 1]
    return em.op("tosa.slice", [flat, em.shape([0, 0, 0, 0]), em.shape(taps)], taps, w.dtype)


@mapping("nn.deconv", how="TOSA transpose_conv2d (NCX/NXC data, any filter format) with layout transposes; "
         "one per group + concat; a dilated filter zero-stuffed")
def _deconv(em, env, ins, outs):
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    data_format = env.get("data_format", "NCX")
    filter_format = env.get("filter_format", "NCX")
    if len(x.shape) != 4 or data_format not in ("NCX", "NXC") or filter_format not in FILTER_TO_NCX:
        raise Unsupported("deconvolution other than 2-d NCX/NXC")
    if None in x.shape[1:] or None in w.shape:      # a run-time batch is TRANSPOSE_CONV2D's too
        raise Unsupported("deconvolution with extents known only at run time")
    w = em.transpose(w, FILTER_TO_NCX[filter_format](2))       # [IC, FC, KH, KW]
    g, dilation = env["g"], list(env["dilation"])
    n, fc = w.shape[0], w.shape[1]
    if g < 1 or n % g:
        raise Unsupported("groups that do not divide the input channels")
    if g > 1 and None in x.shape:
        raise Unsupported("grouped deconvolution with a run-time batch (SLICE sizes are compile-time shapes)")
    m = n // g
    xt = em.transpose(x, [0, 2, 3, 1]) if data_format == "NCX" else x
    out = [outs[0].shape[i] for i in (0, 2, 3, 1)] if data_format == "NCX" else list(outs[0].shape)
    if xt.shape[3] != n or out[3] != fc * g:
        raise Unsupported("channels the filter does not match")
    offset = env["offset"]
    offset = offset if isinstance(offset, list) else [offset] * 2
    stride = env["stride"]
    kernel = [(k - 1) * d + 1 for k, d in zip(w.shape[2:], dilation)]
    out_pad = []
    for size, o, k, s, off in zip(xt.shape[1:3], out[1:3], kernel, stride, offset):
        top = -off
        bottom = o - (size - 1) * s - k - top
        if top <= -k or bottom <= -k:
            raise Unsupported("deconvolution cropping a whole kernel")
        out_pad += [top, bottom]
    if bias is None:
        bias = em.const([0.0], [1], "real")
    if bias.shape not in ([1], [fc * g]):
        raise Unsupported("a bias that is not one value per output channel")
    arr = lambda v: f"array<i64: {', '.join(str(int(i)) for i in v)}>"
    ys = []
    for gi in range(g):
        wg = _slice(em, w, 0, gi * m, m)
        if any(d != 1 for d in dilation):
            wg = dilate(em, wg, dilation)
        weight = em.transpose(wg, [1, 2, 3, 0])                # [FC, KH, KW, m]
        bg = bias if bias.shape == [1] else _slice(em, bias, 0, gi * fc, fc)
        ys.append(em.op("tosa.transpose_conv2d", [_slice(em, xt, 3, gi * m, m), weight, bg, em.zp("real"),
                                                  em.zp("real")], out[:3] + [fc], "real",
                        f"acc_type = f32, out_pad = {arr(out_pad)}, stride = {arr(stride)}"))
    y = ys[0] if g == 1 else em.op("tosa.concat", ys, out, "real", "axis = 3 : i32")
    return [em.transpose(y, [0, 3, 1, 2]) if data_format == "NCX" else y]

"""TOSA -> NNEF 2.0: a func.func of TOSA operators becomes a graph of standard-library
invocations (`main.sknd`) plus one `<variable>.dat` per constant tensor.

Layouts: TOSA convolutions and pools are NHWC, NNEF's NCHW. Each TOSA value is tracked as
(NNEF tensor, permutation) with `tosa = transpose(nnef, perm)`; tosa.transpose only composes
the permutation, and a transpose is written out only where an operator needs another layout.
So the transposes the importer puts around nn.conv vanish again, and NNEF -> TOSA -> NNEF ->
TOSA gives the same TOSA (tests/frontends/nnef/test_nnef_export.py). Integer (quantized)
values are export_quant.py's: `real` tensors with a @quantize entry."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType

from tosa_xdsl.frontends.nnef.export_cast import recognise_more, write_cast, write_scatter
from tosa_xdsl.frontends.nnef.export_layout import recognise
from tosa_xdsl.frontends.nnef.export_quant import QSTORAGE, ExportError, QuantExport, elem
from tosa_xdsl.frontends.nnef.lexer import KEYWORDS
from tosa_xdsl.frontends.nnef.tensor_data import encode_tensor
from tosa_xdsl.frontends.nnef.to_tosa.image import _coordinates, resize_params
from tosa_xdsl.frontends.nnef.to_tosa.ops import Unsupported
from tosa_xdsl.ir.dense import to_numpy

# i8/i16 are quantized storage (export_quant.py): `real` tensors with a @quantize entry
DTYPE = {"f32": "real", "i32": "int", "i1": "bool", "i8": "real", "i16": "real"}
F32_MAX = 3.4028234663852886e38

UNARY = {"tosa.exp": "math.exp", "tosa.log": "math.log", "tosa.sin": "math.sin", "tosa.cos": "math.cos",
         "tosa.tanh": "math.tanh", "tosa.abs": "math.abs", "tosa.floor": "math.floor", "tosa.ceil": "math.ceil",
         "tosa.reciprocal": "math.rcp", "tosa.rsqrt": "math.rsqrt", "tosa.logical_not": "math.not",
         "tosa.sigmoid": "nn.sigmoid", "tosa.erf": "nn.erf", "tosa.identity": "math.iden"}
BINARY = {"tosa.add": "math.add", "tosa.sub": "math.sub", "tosa.maximum": "math.max",
          "tosa.minimum": "math.min", "tosa.pow": "math.pow", "tosa.greater": "math.gt",
          "tosa.greater_equal": "math.ge", "tosa.equal": "math.eq", "tosa.logical_and": "math.and",
          "tosa.logical_or": "math.or", "tosa.logical_xor": "math.xor", "tosa.intdiv": "math.div"}
REDUCE = {"tosa.reduce_sum": "math.sum_reduce", "tosa.reduce_max": "math.max_reduce",
          "tosa.reduce_min": "math.min_reduce", "tosa.reduce_product": "math.prod_reduce",
          "tosa.reduce_any": "math.any_reduce", "tosa.reduce_all": "math.all_reduce"}


def _type(t) -> tuple[str, list[int]]:
    if not isinstance(t, TensorType):
        raise ExportError(f"cannot export a value of type {t}")
    el = str(t.get_element_type())
    if el not in DTYPE:
        raise ExportError(f"element type {el} has no NNEF counterpart here (real=f32, int=i32, bool=i1, "
                          "quantized real=i8/i16)")
    return DTYPE[el], list(t.get_shape())     # a `?` dim is -1


# TOSA has no upper bound for a `?` dim, but the draft (2.6.1) wants one on every run-time
# extent of the main graph's inputs: the largest extent TOSA itself allows (level 8K:
# tensor_size_t up to 2^(MAX_LOG2_SIZE=31) - 1), so the bound promises nothing TOSA does not
RUNTIME_BOUND = (1 << 31) - 1


def _dims(shape, bound: bool) -> str:
    """An NNEF shape: a `?` dim is a run-time extent, `~|bound` on an input, `~` on an output
    (2.6.1: a graph's output shape may be left to derivation component-wise)."""
    run_time = f"~|{RUNTIME_BOUND}" if bound else "~"
    return ", ".join(run_time if d < 0 else str(d) for d in shape)


def _arr(op, name):
    return [int(v) for v in op.properties[name].get_values()]


def _inv(perm):
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p] = i
    return out


def _fmt(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, float):
        return "inf" if v == math.inf else "-inf" if v == -math.inf else repr(v)
    return str(v)


def _lst(vs) -> str:
    return "[" + ", ".join(_fmt(v) for v in vs) + "]"


class Exporter:
    def __init__(self, fn: func.FuncOp):
        self.fn = fn
        self.lines: list[str] = []
        self.variables: dict[str, np.ndarray] = {}
        self.vals: dict = {}    # SSA value -> (nnef name, perm)
        self.pending: dict = {}  # SSA value -> constant array not yet written as a variable
        self.n = 0
        self.nvars = 0
        self.var_types: dict[str, str] = {}     # declared type of a variable whose data is integer storage
        self.origin: dict = {}                  # constant SSA value -> position of its tosa.const
        self.var_order: dict[str, int] = {}
        self.q = QuantExport(self)
        self.resize_views: dict = {}            # reshape result -> (source, k): the importer's as_nhwc view
        self.resized: dict = {}                 # resize result -> (NNEF output, its source-shaped extents)
        self.forms = recognise(fn)              # the importer's edge paddings and gathers (export_layout.py)
        recognise_more(fn, self.forms)          # its casts, roundings and scatters (export_cast.py)
        for op in fn.body.block.ops:
            if op.name == "tosa.resize" and getattr(op.operands[0].owner, "name", None) == "tosa.reshape":
                view = op.operands[0]
                k = _resize_view(view)
                if k and all(u.operation.name == "tosa.resize" for u in view.uses):
                    self.resize_views[view] = k

    def fresh(self, base="t"):
        self.n += 1
        return f"{base}{self.n}"

    def emit(self, text: str, base="t") -> str:
        name = self.fresh(base)
        self.lines.append(f"        {name} = {text};")
        return name

    def emit_lazy(self, text_fn) -> str:
        """A line whose text needs the quantization scales (known once the graph is read)."""
        name = self.fresh()
        self.lines.append(lambda: "        " + text_fn())
        return name

    def variable(self, arr: np.ndarray, declared: str | None = None, source=None) -> str:
        """A variable for constant data; `source` (the SSA value of a constant) places its
        declaration where the constant was, so a re-import creates the constants in order."""
        self.nvars += 1
        var = f"w{self.nvars}"
        self.variables[var] = arr
        self.var_order[var] = self.origin.get(source, len(self.origin) + self.nvars)
        if declared:
            self.var_types[var] = declared
        return var

    def get(self, v, want=None) -> str:
        """NNEF name of SSA value v in the layout `want` (perm from the NNEF tensor), identity default."""
        if v in self.pending:
            # a constant is written in the layout its first user wants (no transpose in NNEF)
            arr, t = self.pending.pop(v)
            if str(t.get_element_type()) in ("i8", "i16"):
                raise ExportError("a quantized constant read by an operation that is not a quantized pattern")
            dtype, _ = _type(t)
            arr = arr.astype({"real": np.float32, "int": np.int32, "bool": np.bool_}[dtype])
            layout = want or list(range(arr.ndim))
            var = self.variable(np.ascontiguousarray(arr.transpose(_inv(layout))), source=v)
            self.vals[v] = (var, list(layout))
        name, perm = self.vals[v]
        want = want or list(range(len(perm)))
        if perm == want:
            return name
        # v = transpose(x, perm); u with v = transpose(u, want) is transpose(x, q),
        # q[i] = perm[inv(want)[i]]
        q = [perm[j] for j in _inv(want)]
        out = self.emit(f"layout.transpose{{perm={_lst(q)}}}({name})")
        self.q.derive(out, name)
        return out

    def run(self):
        self.q.scan(self.fn)
        where = f"@{self.fn.sym_name.data}"
        for i, op in enumerate(self.fn.body.block.ops):
            try:
                self.op(op)
            except ExportError as err:
                msg = str(err)
                msg = msg if msg.startswith(f"'{op.name}'") else f"'{op.name}': {msg}"
                raise ExportError(f"{where}, operation {i}: {msg}") from None
            except (KeyError, IndexError, ValueError, TypeError, AttributeError, ArithmeticError) as err:
                # an operand form no pattern foresaw (e.g. mutated TOSA): refused, never a traceback
                raise ExportError(f"{where}, operation {i}: '{op.name}' in a form the exporter does not know "
                                  f"({type(err).__name__})") from None

    def op(self, op):
        name = op.name
        res = op.results[0] if op.results else None
        if name == "tosa.const":
            # written only when an exported operator reads it (zero points and shifts are not)
            self.pending[res] = (to_numpy(op.properties["values"]), res.type)
            self.origin[res] = len(self.origin)
            return
        if name == "tosa.const_shape":
            return
        if name in ("func.return",):
            return
        if op in self.forms.skipped:
            return                  # a member of a form written by its last operation
        if op in self.forms.pads:
            self.edge_pad(op)
            return
        if op in self.forms.deconvs:
            self.deconv(op, list(res.type.get_shape()), self.forms.deconvs[op])
            return
        if op in self.forms.gathers:
            g = self.forms.gathers[op]
            out = self.emit(f"layout.gather{{axis={g.axis}}}({self.get(g.data)}, {self.get(g.index)})")
            self.vals[res] = (out, list(range(len(res.type.get_shape()))))
            return
        if op in self.forms.casts or op in self.forms.rounds or op in self.forms.scatters:
            self.cast_form(op)
            return
        if name in ("tosa.transpose", "tosa.reshape") and op.operands[0] in self.pending:
            # layout of a constant: folded into the variable's data
            arr, _ = self.pending[op.operands[0]]
            shape = list(res.type.get_shape())
            arr = arr.transpose(_arr(op, "perms")) if name == "tosa.transpose" else arr.reshape(shape)
            self.pending[res] = (arr, res.type)
            self.origin[res] = self.origin.get(op.operands[0], len(self.origin))
            return
        if name == "tosa.cast" and op.operands[0] in self.pending and str(res.type.get_element_type()) == "i16" \
                and str(op.operands[0].type.get_element_type()) == "i8":
            # 8-bit weights widened for a 16x8 MATMUL (i16 x i16): the i8 data stays the variable's
            self.pending[res] = (self.pending[op.operands[0]][0], res.type)
            self.origin[res] = self.origin.get(op.operands[0], len(self.origin))
            return
        if name == "tosa.reshape" and res in self.resize_views:
            return                  # the NHWC view of a resize: the resize reads its source
        if name == "tosa.reshape" and op.operands[0] in self.resized:
            out, shape, layout = self.resized[op.operands[0]]
            if list(res.type.get_shape()) == shape:     # the resize's result back in its source's shape
                self.vals[res] = (out, layout)
                return
        if self.q.claims(op) and (name != "tosa.transpose" or op.operands[0] in self.q.pend):
            self.q.handle(op)
            return
        if name == "tosa.transpose":
            src, perm = self.vals[op.operands[0]]
            p = _arr(op, "perms")
            self.vals[res] = (src, [perm[i] for i in p])
            return
        self.generic(op)

    def generic(self, op):
        name = op.name
        res = op.results[0]
        dtype, shape = _type(res.type)
        ident = list(range(len(shape)))
        ins = op.operands
        if name in UNARY:
            out = self.emit(f"{UNARY[name]}({self.get(ins[0])})")
        elif name == "tosa.negate":
            out = self.emit(f"math.neg({self.get(ins[0])})")
        elif name in BINARY:
            out = self.emit(f"{BINARY[name]}({self.get(ins[0])}, {self.get(ins[1])})")
        elif name == "tosa.mul":
            shift = ins[2].owner
            if shift.name != "tosa.const" or np.any(to_numpy(shift.properties["values"]) != 0):
                raise ExportError("tosa.mul with a non-zero shift")
            out = self.emit(f"math.mul({self.get(ins[0])}, {self.get(ins[1])})")
        elif name == "tosa.select":
            out = self.emit(f"math.select({', '.join(self.get(x) for x in ins)})")
        elif name == "tosa.clamp":
            lo, hi = op.properties["min_val"].value.data, op.properties["max_val"].value.data
            x = self.get(ins[0])
            if lo == 0 and dtype == "real":
                out = self.emit(f"nn.relu({x})" if hi >= F32_MAX * 0.99 else f"nn.relu{{max={_fmt(float(hi))}}}({x})")
            else:
                # bounds as variables of x's rank: a literal re-imports as a scalar constant
                # RESHAPEd to that rank, which the next export would write as such a variable
                kind = np.float32 if dtype == "real" else np.int32
                hi_v, lo_v = (self.variable(np.full([1] * len(shape), b, dtype=kind)) for b in (hi, lo))
                m = self.emit(f"math.min({x}, {hi_v})")
                out = self.emit(f"math.max({m}, {lo_v})")
        elif name in REDUCE:
            axis = op.properties["axis"].value.data
            out = self.emit(f"{REDUCE[name]}{{axes=[{axis}]}}({self.get(ins[0])})")
        elif name == "tosa.reshape":
            if any(d < 0 for d in shape):       # the -1 of TOSA's shape operand is NNEF's too
                shape = [int(v) for v in to_numpy(ins[1].owner.properties["values"])]
            out = self.emit(f"layout.reshape{{shape={_lst(shape)}}}({self.get(ins[0])})")
        elif name == "tosa.tile":
            reps = [int(v) for v in to_numpy(ins[1].owner.properties["values"])]
            out = self.emit(f"layout.tile{{axes={_lst(ident)}, repeats={_lst(reps)}}}({self.get(ins[0])})")
        elif name == "tosa.concat":
            axis = op.properties["axis"].value.data
            out = self.emit(f"layout.concat{{axis={axis}}}([{', '.join(self.get(x) for x in ins)}])")
        elif name == "tosa.slice":
            start = [int(v) for v in to_numpy(ins[1].owner.properties["values"])]
            size = [int(v) for v in to_numpy(ins[2].owner.properties["values"])]
            out = self.emit(f"layout.slice{{axes={_lst(ident)}, begin={_lst(start)}, "
                            f"end={_lst([a + b for a, b in zip(start, size)])}}}({self.get(ins[0])})")
        elif name == "tosa.pad":
            pads = [int(v) for v in to_numpy(ins[1].owner.properties["values"])]
            value = to_numpy(ins[2].owner.properties["values"]).reshape(-1)[0]
            padding = pads[0::2] + pads[1::2]
            arg = self.get(ins[0])
            extra = f", {_fmt(value.item())}" if value != 0 else ""
            out = self.emit(f"layout.pad{{axes={_lst(ident)}, padding={_lst(padding)}}}({arg}{extra})")
        elif name == "tosa.matmul":
            for z in ins[2:]:
                if np.any(to_numpy(z.owner.properties["values"]) != 0):
                    raise ExportError("tosa.matmul with non-zero zero points")
            out = self.emit(f"linalg.matmul({self.get(ins[0])}, {self.get(ins[1])})")
        elif name == "tosa.reverse":
            # layout.slice with stride -1 over the whole axis (re-imported as this REVERSE)
            axis = op.properties["axis"].value.data
            if shape[axis] < 0:
                raise ExportError("tosa.reverse along an extent known only at run time (layout.slice's "
                                  "bounds are compile-time values here)")
            out = self.emit(f"layout.slice{{axes=[{axis}], begin=[{shape[axis] - 1}], end=[-1], stride=[-1]}}"
                            f"({self.get(ins[0])})")
        elif name == "tosa.gather":
            out = self.gather(op, shape)
        elif name == "tosa.cast":
            out = write_cast(self, op)
        elif name == "tosa.scatter":
            out = write_scatter(self, op, shape)
        elif name == "tosa.argmax":
            # TOSA drops the axis: the definition's squeeze=true (importer: the same ARGMAX)
            axis = op.properties["axis"].value.data
            out = self.emit(f"math.argmax{{axis={axis}, squeeze=true}}({self.get(ins[0])})")
        elif name == "tosa.resize":
            self.resize(op)
            return
        elif name == "tosa.transpose_conv2d":
            self.deconv(op, shape)
            return
        elif name in ("tosa.conv2d", "tosa.depthwise_conv2d", "tosa.max_pool2d", "tosa.avg_pool2d"):
            self.spatial(op, name, shape)
            return
        else:
            raise ExportError(f"'{name}' has no NNEF standard-library counterpart in the exporter")
        self.vals[res] = (out, ident)

    def cast_form(self, op):
        """The importer's layout.cast / math.round / layout.scatter forms (export_cast.py)."""
        res = op.results[0]
        if op in self.forms.casts:
            c = self.forms.casts[op]
            out = self.emit(f"layout.cast<{c.to}>({self.get(c.source)})")
        elif op in self.forms.rounds:
            out = self.emit(f"math.round({self.get(self.forms.rounds[op].source)})")
        else:
            s = self.forms.scatters[op]
            out = self.emit(f"layout.scatter{{axis={s.axis}}}({self.get(s.data)}, {self.get(s.indices)}, "
                            f"{self.get(s.updates)})")
        self.vals[res] = (out, list(range(len(res.type.get_shape()))))

    def gather(self, op, shape) -> str:
        """GATHER in its general form, output[n, w, c] = values[n, indices[n, w], c]: the
        definition's layout.gather{axis=0} (output[w.., c] = input[index[w..], c]) reads the
        values viewed as [N*K, C] at indices + n*K (the offsets a constant [N, 1] column).
        The importer's own form (one index for every n) is export_layout.py's single gather."""
        values, indices = op.operands
        n, k, c = _type(values.type)[1]
        if min(n, k, c) < 0:
            raise ExportError("tosa.gather with extents known only at run time")
        flat = self.emit(f"layout.reshape{{shape={_lst([n * k, c])}}}({self.get(values)})")
        idx = self.get(indices)
        if n > 1:
            offsets = self.variable((np.arange(n, dtype=np.int32) * k).reshape(n, 1))
            idx = self.emit(f"math.add({idx}, {offsets})")
        return self.emit(f"layout.gather{{axis=0}}({flat}, {idx})")

    def edge_pad(self, op):
        """The importer's REFLECT / SYMMETRIC / REPLICATE padding (export_layout.py) as one
        layout.pad; on quantized storage between tensors of one scale and zero point."""
        pad, res = self.forms.pads[op], op.results[0]
        x = pad.source
        quantized = elem(x.type) in QSTORAGE
        if quantized:
            if x in self.pending:
                raise ExportError("a quantized constant moved by layout operators")
            src = self.q.quantized_name(x)
        axes = sorted(pad.pads)
        padding = [pad.pads[a][0] for a in axes] + [pad.pads[a][1] for a in axes]
        out = self.emit(f"layout.pad{{axes={_lst(axes)}, padding={_lst(padding)}, method='{pad.method}'}}"
                        f"({self.get(x)})")
        if quantized:
            self.q.new_tensor(out, res)
            self.q.s.same(src, out)
        self.vals[res] = (out, list(range(len(res.type.get_shape()))))

    def channels_last(self, v) -> bool:
        """A convolution or pool reads v in NNEF's NXC layout when v's NNEF tensor already is
        channels-last (TOSA's NHWC): no transposes around it (a TFLite model's layout)."""
        return v in self.vals and self.vals[v][1] == [0, 1, 2, 3]

    def bias(self, v, channels: int) -> str:
        """`, bias` for a convolution: NNEF wants one value per output channel, where TOSA
        broadcasts a [1] bias (the importer's zero bias for an nn.conv without one): a zero
        one is left out (re-imported as the same zero), another is written per channel."""
        if v in self.pending and np.prod(np.shape(self.pending[v][0])) == 1 and channels != 1:
            arr, t = self.pending.pop(v)
            if not np.any(arr):
                return ""
            self.pending[v] = (np.full(channels, np.asarray(arr).reshape(-1)[0]), t)
        return f", {self.get(v)}"

    def resize(self, op, res=None):
        """RESIZE -> image.nearest_resize / image.linear_resize (to_tosa/image.py inverted): the
        importer views the resized axes as H (and W) of an [N, H, W, 1] tensor, every other axis
        folded into N (as_nhwc: a reshape of the source with those axes last), so the resize of
        such a view is written on the source, over its last axes, and the reshape of the result
        back to the source's extents is that NNEF output. Another input (e.g. TFLite's NHWC with
        C > 1) is resized as NCHW over axes 2, 3 (re-imported as such a view). Each resized
        axis' (scale, offset, border) must be what the importer computes for one coordinate
        transform (and rounding method): the first that reproduces them is written."""
        view, res = op.operands[0], res or op.results[0]   # res: the quantized form's RESCALE after it
        n, h, w, _ = view.type.get_shape()
        _, oh, ow, _ = res.type.get_shape()
        sh, dh, sw, dw = [int(v) for v in to_numpy(op.operands[1].owner.properties["values"])]
        offy, offx = [int(v) for v in to_numpy(op.operands[2].owner.properties["values"])]
        by, bx = [int(v) for v in to_numpy(op.operands[3].owner.properties["values"])]
        params = [(h, oh, (sh, dh, offy, by)), (w, ow, (sw, dw, offx, bx))]
        nearest = str(op.properties["mode"].data.value) == "NEAREST_NEIGHBOR"
        if view in self.resize_views:
            k = self.resize_views[view]
            src = view.owner.operands[0]
            rank = len(src.type.get_shape())
            back = list(src.type.get_shape())[:rank - k] + [oh, ow][:k]
            name, perm = self.vals.get(src, (None, None))
            if perm is not None and perm[:rank - k] == sorted(perm[:rank - k]):
                # src is a transpose of an NNEF tensor bringing the resized axes last, as the
                # importer's as_nhwc does for axes other than the last: resized there directly
                x, axes, back_layout = name, perm[rank - k:], perm
            else:
                x, axes, back_layout = self.get(src), list(range(rank - k, rank)), list(range(rank))
            params = params[:k]
            layout = None
        else:
            x, rank, axes, back = self.get(view, [0, 2, 3, 1]), 4, [2, 3], None
            layout = [0, 2, 3, 1]
        # float RESIZE samples at (o * d + offset) / n, a ratio: (k*n, k*d, k*offset, k*border)
        # compute the same (the TFLite legalization writes such, e.g. n = 2 * OH) and are
        # written as the importer's reduced parameters; the integer BILINEAR's i32/i48 result is
        # the value times n_y * n_x (its RESCALE divides by exactly that): n must be the importer's
        exact = elem(res.type) != elem(view.type)
        same = (lambda p, q: p == q) if exact else (lambda p, q: _sampling(p) == _sampling(q))
        kept = []
        for a, (size, out, p) in zip(axes, params):
            if size == out:
                if not same(p, (1, 1, 0, 0)):
                    raise ExportError("tosa.resize shifting an axis it does not resize (the NNEF resizes "
                                      "keep such an axis as it is)")
                continue
            kept.append((a, size, out, p))
        if not kept:
            raise ExportError("tosa.resize that resizes no axis")
        roundings = ["ROUND_PREFER_FLOOR", "ROUND_PREFER_CEIL", "FLOOR", "CEIL"] if nearest else [None]
        choice = None
        for transform in ("SYMMETRIC", "ASYMMETRIC", "ALIGNED"):
            for rounding in roundings:
                try:
                    if all(same(resize_params(size, out, *_coordinates(size, out, transform), rounding), p)
                           for _, size, out, p in kept):
                        choice = (transform, rounding)
                        break
                except Unsupported:
                    pass
            if choice:
                break
        if choice is None:
            raise ExportError(f"tosa.resize scale/offset/border {[p for *_, p in kept]} match no NNEF "
                              "coordinate transform" + (" and rounding method" if nearest else ""))
        attrs = f"axes={_lst([a for a, *_ in kept])}, size={_lst([o for _, _, o, _ in kept])}, " \
                f"coordinate_transform=\"{choice[0]}\""
        if nearest:
            out = self.emit(f"image.nearest_resize{{{attrs}, rounding_method=\"{choice[1]}\"}}({x})")
        else:
            out = self.emit(f"image.linear_resize{{{attrs}, antialias=false}}({x})")
        self.resize_out = out
        if layout is None:
            self.resized[res] = (out, back, back_layout)
            if any(u.operation.name != "tosa.reshape" or list(u.operation.results[0].type.get_shape()) != back
                   for u in res.uses):      # read as the [N, H, W, 1] view itself
                t = out
                if back_layout != sorted(back_layout):
                    t = self.emit(f"layout.transpose{{perm={_lst(back_layout)}}}({out})")
                self.vals[res] = (self.emit(f"layout.reshape{{shape={_lst([n, oh, ow, 1])}}}({t})"), [0, 1, 2, 3])
        else:
            self.vals[res] = (out, layout)

    def deconv(self, op, shape, form=None):
        """TRANSPOSE_CONV2D -> nn.deconv (to_tosa/deconv.py inverted): TOSA's output is
        (IH - 1) * stride + out_pad_top + out_pad_bottom + KH rows with input row iy landing at
        iy * stride + out_pad_top; the definition's at stride * i - padding_begin over
        (IH - 1) * stride + KH - (padding_begin + padding_end) rows: padding = -out_pad. The
        filter [OC, KH, KW, IC] is NNEF's NCX [IC, OC, KH, KW]. `form` (export_layout.Deconv):
        the importer's per-group TRANSPOSE_CONV2Ds and zero-stuffed dilated filter, whose
        NCX filter and whole bias it names: nn.deconv{groups, dilation} of those."""
        conv = form.conv if form else op
        for z in conv.operands[3:5]:
            if np.any(to_numpy(z.owner.properties["values"]) != 0):
                raise ExportError("tosa.transpose_conv2d with non-zero zero points")
        x_v = form.x if form else op.operands[0]
        nxc = self.channels_last(x_v)
        layout = [0, 1, 2, 3] if nxc else [0, 2, 3, 1]
        x = self.get(x_v, layout)
        w = self.get(form.w) if form else self.get(op.operands[1], [1, 2, 3, 0])
        top, bottom, left, right = _arr(conv, "out_pad")
        padding = [-top, -left, -bottom, -right]
        fmt = ', data_format="NXC"' if nxc else ""
        extra = ""
        if form and form.dilation != [1, 1]:
            extra += f", dilation={_lst(form.dilation)}"
        if form and form.groups != 1:
            extra += f", groups={form.groups}"
        out = self.emit(f"nn.deconv{{stride={_lst(_arr(conv, 'stride'))}{extra}, padding={_lst(padding)}{fmt}}}"
                        f"({x}, {w}{self.bias(form.bias if form else op.operands[2], shape[3])})")
        self.vals[op.results[0]] = (out, layout)

    def spatial(self, op, name, shape):
        nxc = self.channels_last(op.operands[0])
        layout = [0, 1, 2, 3] if nxc else [0, 2, 3, 1]   # tosa NHWC = transpose(nnef NCHW, [0, 2, 3, 1])
        x = self.get(op.operands[0], layout)
        pad = _arr(op, "pad")       # top, bottom, left, right
        padding = [pad[0], pad[2], pad[1], pad[3]]
        stride = _arr(op, "stride")
        if name == "tosa.conv2d" or name == "tosa.depthwise_conv2d":
            for z in op.operands[3:5]:
                if np.any(to_numpy(z.owner.properties["values"]) != 0):
                    raise ExportError(f"{name} with non-zero zero points")
            dil = _arr(op, "dilation")
            b = self.bias(op.operands[2], shape[3])
            if name == "tosa.conv2d":
                w = self.get(op.operands[1], layout)                # OHWI, or OHWI -> OIHW
                groups = ', data_format="NXC", filter_format="NXC"' if nxc else ""
            else:
                h, wd, c, m = list(op.operands[1].type.get_shape())
                if nxc:     # H,W,C,M -> 1,H,W,(C*M) (CXN)
                    w = self.emit(f"layout.reshape{{shape={_lst([1, h, wd, c * m])}}}({self.get(op.operands[1])})")
                    groups = ', groups=0, data_format="NXC", filter_format="CXN"'
                else:       # H,W,C,M -> (C*M),1,H,W
                    t = self.emit(f"layout.transpose{{perm=[2, 3, 0, 1]}}({self.get(op.operands[1])})")
                    w = self.emit(f"layout.reshape{{shape={_lst([c * m, 1, h, wd])}}}({t})")
                    groups = ", groups=0"
            out = self.emit(f"nn.conv{{stride={_lst(stride)}, dilation={_lst(dil)}, padding={_lst(padding)}"
                            f"{groups}}}({x}, {w}{b})")
        else:
            kernel = _arr(op, "kernel")
            kind = "nn.max_pool" if name == "tosa.max_pool2d" else "nn.avg_pool"
            out = self.emit(f"{kind}{{axes={'[1, 2]' if nxc else '[2, 3]'}, size={_lst(kernel)}, "
                            f"stride={_lst(stride)}, padding={_lst(padding)}}}({x})")
        self.vals[op.results[0]] = (out, layout)


def _sampling(p) -> tuple:
    """What one axis of a float RESIZE computes: (scale, offset, border) as ratios to scale_n."""
    n, d, offset, border = p
    return Fraction(d, n), Fraction(offset, n), Fraction(border, n)


def _resize_view(view) -> int:
    """k when `view` ([N, H, W, 1]) is a reshape of a tensor whose last k axes are the
    resized H (and W) and whose other axes make N (to_tosa/emit.py as_nhwc), else 0."""
    src = list(view.owner.operands[0].type.get_shape())
    n, h, w, c = view.type.get_shape()
    if c != 1 or any(d < 0 for d in src + [n]):
        return 0
    if len(src) >= 2 and src[-2:] == [h, w] and math.prod(src[:-2]) == n:
        return 2
    if w == 1 and src and src[-1] == h and math.prod(src[:-1]) == n:
        return 1
    return 0


def _input_name(arg, i: int, taken) -> str:
    """The argument's own name when it is a plain identifier the export does not generate
    (so an imported graph's inputs keep their names), else input<i>."""
    hint = arg.name_hint or ""
    used = {name for name, _ in taken.values()}
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", hint) and not re.fullmatch(r"(t|w|input|output)\d+", hint) \
            and hint not in used and hint not in KEYWORDS and hint not in ("math", "nn", "layout", "linalg", "quant"):
        return hint
    return f"input{i}"


def export_nnef(module: ModuleOp, entry: str | None = None) -> tuple[str, dict[str, np.ndarray]]:
    """(main.sknd text, {variable: array}) for function `entry` (the first one by default)."""
    fns = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    fn = next((f for f in fns if entry is None or f.sym_name.data == entry), None)
    if fn is None:
        raise ExportError(f"no function '{entry}'")
    ex = Exporter(fn)
    inputs = []
    for i, arg in enumerate(fn.body.block.args):
        dtype, shape = _type(arg.type)
        name = _input_name(arg, i, ex.vals)
        inputs.append(f"        {name}: {dtype}[{_dims(shape, bound=True)}];")
        ex.vals[arg] = (name, list(range(len(shape))))
    ex.run()
    ret = fn.body.block.last_op
    outs, decls = [], []
    for i, v in enumerate(ret.operands):
        dtype, shape = _type(v.type)
        if v in ex.q.pend:
            raise ExportError(f"func.return: returns the unfinished quantized pattern of '{v.owner.name}'")
        src = ex.get(v)
        if src in ex.q.s and str(v.type.get_element_type()) not in ("i8", "i16"):
            raise ExportError(f"func.return: result {i} is a dequantized tensor (as an NNEF output it would "
                              "be quantized: an integer result on re-import)")
        outs.append(f"        output{i} = {src};")
        decls.append(f"        output{i}: {dtype}[{_dims(shape, bound=False)}];")
        if str(v.type.get_element_type()) in ("i8", "i16"):
            ex.q.derive(f"output{i}", ex.q.quantized_name(v))
    try:
        ex.q.s.solve()
        quantize = ex.q.s.entries()
    except ExportError as err:
        raise ExportError(f"@{fn.sym_name.data}, @quantize: {err}") from None
    variables = "\n".join(f"        {k}: {ex.var_types.get(k) or DTYPE_OF[v.dtype]}[{', '.join(map(str, v.shape))}];"
                          for k, v in sorted(ex.variables.items(), key=lambda kv: ex.var_order[kv[0]]))
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in fn.sym_name.data) or "G"
    lines = [line() if callable(line) else line for line in ex.lines]
    uses_image = any(isinstance(line, str) and " = image." in line for line in lines)
    text = ("import nn;\nimport math;\nimport linalg;\nimport layout;\n" + ("import image;\n" if uses_image else "")
            + ("import quant;\n" if quantize else "")
            + f"\ngraph {name} {{\n    @input {{\n" + "\n".join(inputs) + "\n    }\n"
            "    @output {\n" + "\n".join(decls) + "\n    }\n"
            + ("    @variable {\n" + variables + "\n    }\n" if ex.variables else "")
            + "    @compose {\n" + "\n".join(lines + outs) + "\n    }\n"
            + ("    @quantize {\n" + "\n".join(quantize) + "\n    }\n" if quantize else "") + "}\n")
    return text, ex.variables


DTYPE_OF = {np.dtype(np.float32): "real", np.dtype(np.int32): "int", np.dtype(np.bool_): "bool"}


def export_nnef_folder(module: ModuleOp, folder, entry: str | None = None) -> Path:
    """Write `folder/main.sknd` and one `<variable>.dat` per constant."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    text, variables = export_nnef(module, entry)
    (folder / "main.sknd").write_text(text)
    graph = text.split("graph ", 1)[1].split(" ", 1)[0]
    for k, v in variables.items():
        (folder / f"main.{graph}.{k}.dat").write_bytes(encode_tensor(v))
    return folder

"""Integer (quantized) TOSA -> NNEF 2.0 with a `@quantize` block: the inverse of
to_tosa/integer.py.

The importer holds a quantized NNEF tensor as its integer storage (i8, u8 as i8 bits, i16,
i32) and turns each operator between quantized tensors into the TFLite legalization's
patterns (RESCALE with multiplier/shift from compute_scale_32, zero points as operands). The
export recognises those patterns and writes the operator back, every integer tensor as a
`real` NNEF tensor with a `quant.zero_point_linear_quantize` entry.

Zero points, widths and signedness are read from the TOSA operands. Scales are not: integer
TOSA only holds ratios of scales (each RESCALE's multiplier * 2^-shift). The export recovers
them as a system of ratios (`Scales`, a weighted union-find over the NNEF tensors):
    requantization x -> y by r:          s_y = s_x / r
    add/sub (2^20 headroom, r_a, r_b, r_o): s_b = s_a * r_b / r_a,  s_o = s_a / (r_a * r_o)
    max/min, pools, reshapes, ...:       the same scale in and out
    mul by r:                            s_o = s_a * s_b / r     (solved after the ratios)
    conv/linear by r[c]:                 s_w[c] = r[c] * s_o / s_x,  s_bias[c] = s_x * s_w[c]
Each group of tensors tied by ratios has one free scale (integer TOSA cannot tell it): it is
fixed by the f32 constants of the mixed path where there are some (quant.py's dequantization
`(q - zp) * scale` and quantization `round(x * (1/scale)) + zp`, clamped: the NNEF tensor
itself, and an entry on the real tensor), else by a product, else 1.0. Re-importing computes
compute_scale_32 of a ratio of these scales, which is the exact dyadic r = multiplier *
2^-shift up to a few double ulps, far from a rounding tie of the 31-bit multiplier, so the RESCALE parameters come back identical
and NNEF -> TOSA -> NNEF -> TOSA is a fixpoint. Where it could fail: a cycle of ratios (a
tensor reached by two chains of rescales, e.g. `concat([x, requantized(x)])` or `mul(x, x)`)
is only consistent up to the 2^-31 rounding of each multiplier: the export keeps the first
chain's scale and refuses (ExportError) a cycle inconsistent beyond 1e-6 relative.

What is not one of these patterns (an i8 operation without an integer form in the importer,
a TABLE no function builds (export_tables.py), a RESCALE feeding something else than add/sub/mul, ...) is an ExportError naming the
operation; plain i32 arithmetic is exported by export.py as NNEF `int` operators."""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from tosa_xdsl.frontends.legalize_common import (
    compute_scale_32,
    softmax_exp_table_q16,
    table_contents,
    table_contents_16,
)
from tosa_xdsl.frontends.nnef.export_tables import softmax_input_scale, table_function
from tosa_xdsl.frontends.nnef.to_tosa.integer_functions import FUNCTIONS
from tosa_xdsl.ir.dense import to_numpy

QSTORAGE = {"i8": 8, "i16": 16}
# the operations on quantized storage (i8/i16) the export knows (in the patterns below)
STORAGE_OPS = frozenset({"tosa.const", "tosa.rescale", "tosa.conv2d", "tosa.depthwise_conv2d", "tosa.matmul",
                         "tosa.cast", "tosa.clamp", "tosa.max_pool2d", "tosa.avg_pool2d", "tosa.reshape",
                         "tosa.transpose", "tosa.slice", "tosa.concat", "tosa.identity", "tosa.pad", "tosa.tile",
                         "tosa.reduce_max", "tosa.reduce_min", "tosa.resize", "tosa.reverse"})
HEADROOM = {8: 20, 16: 15}      # the importer's add/sub: both sides to i32 with this many bits


class ExportError(Exception):
    """What the export cannot write (export.py raises it too)."""


QuantExportError = ExportError


def _lst(vs) -> str:
    return "[" + ", ".join(str(v) for v in vs) + "]"


def elem(t) -> str:
    return str(t.get_element_type()) if isinstance(t, TensorType) else ""


def _const(v) -> np.ndarray:
    op = v.owner
    if getattr(op, "name", None) != "tosa.const":
        raise QuantExportError("a zero point, multiplier or shift that is not a constant")
    return to_numpy(op.properties["values"])


def _flag(op, name) -> bool:
    a = op.properties.get(name)
    return bool(a.value.data) if a is not None and hasattr(a, "value") else a is not None and bool(a)


class Scales:
    """Quantization parameters of the NNEF tensors: per tensor a scale known as a ratio to its
    group's root (s = s_root * k), a zero point, a width and signedness; per-channel tensors
    (weights, biases) get their scales from `derived` once the roots are fixed."""

    def __init__(self):
        self.parent: dict[str, str] = {}
        self.k: dict[str, float] = {}
        self.root_value: dict[str, float] = {}
        self.zp: dict[str, int] = {}           # per zero-point group (zroot)
        self.zparent: dict[str, str] = {}
        self.bits: dict[str, int] = {}
        self.unsigned: dict[str, bool] = {}
        self.read_signed: set[str] = set()     # zroots written or read as signed storage
        self.products: list[tuple] = []
        self.derived: dict[str, tuple] = {}     # name -> (fn() -> list of scales, axis)
        self.anchors: list[tuple] = []          # (name, scale, check(scale) -> bool) from f32 constants
        self.order: list[str] = []
        self.symmetric: set[str] = set()

    def add(self, name: str, bits: int, unsigned: bool = False, zp: int | None = None):
        if name not in self.parent and name not in self.derived:
            self.parent[name], self.k[name] = name, 1.0
            self.order.append(name)
        self.bits[name] = bits
        if unsigned and self.zroot(name) in self.read_signed:
            raise QuantExportError(f"tensor '{name}' is read both as signed and as unsigned storage")
        if unsigned:
            self.unsigned[self.zroot(name)] = True
        if zp is not None:
            self.set_zp(name, zp, unsigned)

    def __contains__(self, name) -> bool:
        return name in self.parent or name in self.derived

    def zroot(self, name: str) -> str:
        """Tensors with the same parameters share one zero point (set by whichever reads it)."""
        while self.zparent.get(name, name) != name:
            name = self.zparent[name]
        return name

    def set_zp(self, name: str, zp: int, unsigned: bool = False):
        """`name` is written or read with zero point `zp`, as unsigned storage (a RESCALE's
        input_unsigned/output_unsigned) or signed (every other reader and writer: TOSA's i8).
        All of them must agree: one NNEF quantization cannot say both, and the re-import would
        compute another graph."""
        name = self.zroot(name)
        if (name in self.read_signed) if unsigned else self.unsigned.get(name, False):
            raise QuantExportError(f"tensor '{name}' is read both as signed and as unsigned storage")
        if unsigned:
            self.unsigned[name] = True
        else:
            self.read_signed.add(name)
        zp = int(zp) % 256 if self.unsigned.get(name) else int(zp)
        old = self.zp.setdefault(name, zp)
        if old != zp:
            raise QuantExportError(f"tensor '{name}' is read with zero points {old} and {zp}")

    def find(self, name: str) -> tuple[str, float]:
        k = 1.0
        while self.parent[name] != name:
            k *= self.k[name]
            name = self.parent[name]
        return name, k

    def relate(self, a: str, b: str, ratio: float):
        """s_b = s_a * ratio."""
        ra, ka = self.find(a)
        rb, kb = self.find(b)
        if ra == rb:
            if not math.isclose(kb, ka * ratio, rel_tol=1e-6):
                raise QuantExportError(f"the scales of '{a}' and '{b}' are tied by inconsistent rescales")
            return
        # s_rb * kb = s_ra * ka * ratio
        self.parent[rb], self.k[rb] = ra, ka * ratio / kb
        if rb in self.root_value and ra not in self.root_value:
            self.root_value[ra] = self.root_value[rb] * kb / (ka * ratio)

    def same(self, a: str, b: str):
        self.relate(a, b, 1.0)
        ra, rb = self.zroot(a), self.zroot(b)
        if ra == rb:
            return
        self.zparent[rb] = ra
        if (self.unsigned.get(rb) and ra in self.read_signed) or (self.unsigned.get(ra) and rb in self.read_signed):
            raise QuantExportError(f"tensors '{a}' and '{b}' share a quantization but not a signedness")
        if self.unsigned.get(rb):
            self.unsigned[ra] = True
        if rb in self.read_signed:
            self.read_signed.add(ra)
        if rb in self.zp:
            self.set_zp(ra, self.zp[rb])

    def scale(self, name: str) -> float:
        root, k = self.find(name)
        return self.root_value.setdefault(root, 1.0) * k

    def anchor(self, name: str, value: float, check):
        """An absolute scale read from a dequantization/quantization constant (f32): `check`
        says whether a candidate scale gives that constant back when re-imported."""
        self.anchors.append((name, float(value), check))

    def solve(self):
        """Fix the free roots: anchors first (the candidate every anchor of the group
        reproduces, else the first), products next (each fixes one group still free), then 1.0."""
        groups: dict[str, list] = {}
        for name, value, check in self.anchors:
            root, k = self.find(name)
            groups.setdefault(root, []).append((value / k, k, check))
        for root, items in groups.items():
            good = [c for c, _, _ in items if all(chk(c * k) for _, k, chk in items)]
            self.root_value[root] = good[0] if good else items[0][0]
        for o, a, b, r in self.products:
            roots = [self.find(n)[0] for n in (o, a, b)]
            free = [n for n, root in zip((o, a, b), roots) if root not in self.root_value and roots.count(root) == 1]
            if not free:
                so, sa, sb = self.scale(o), self.scale(a), self.scale(b)
                if not math.isclose(so, sa * sb / r, rel_tol=1e-6):
                    raise QuantExportError(f"the scales of '{a}', '{b}' and their product '{o}' are inconsistent")
                continue
            n = free[0]
            root, k = self.find(n)
            if n == o:
                value = self.scale(a) * self.scale(b) / r
            elif n == b:
                value = self.scale(o) * r / self.scale(a)
            else:
                value = self.scale(o) * r / self.scale(b)
            self.root_value[root] = value / k

    def entries(self) -> list[str]:
        out = []
        for name in self.order + [n for n in self.derived if n not in self.order]:
            bits = self.bits[name]
            zp = self.zp.get(self.zroot(name), 0)
            unsigned = self.unsigned.get(self.zroot(name), False)
            lo, hi = (0, 255) if unsigned else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
            if not lo <= zp <= hi or (bits > 8 and zp != 0):
                # the importer would keep such a tensor fake-quantized (reals): another graph
                raise QuantExportError(f"'{name}': zero point {zp} does not fit {bits}-bit "
                                       f"{'unsigned ' if unsigned else ''}storage (wider storage needs 0)")
            if name in self.derived:
                fn, axis = self.derived[name]
                scales = fn()
                scale = "[" + ", ".join(repr(float(s)) for s in scales) + "]" if len(scales) > 1 else repr(
                    float(scales[0]))
            else:
                scale, axis = repr(float(self.scale(name))), 0
            out.append(f"        {name}: quant.zero_point_linear_quantize{{zero_point={zp}, scale={scale}, "
                       f"bits={bits}, signed={'false' if unsigned else 'true'}, "
                       f"symmetric={'true' if name in self.symmetric else 'false'}, "
                       f"channel_axis={axis}}};")
        return out


def _gives(const: float, of_scale):
    """check(scale): does the re-import's f32 constant `of_scale(scale)` equal `const`?"""
    want = np.float32(const)
    return lambda scale: np.float32(of_scale(scale)) == want


def rescale_params(op) -> tuple[np.ndarray, int, int, bool, bool]:
    """(ratios multiplier * 2^-shift, input zp, output zp, input_unsigned, output_unsigned).
    The importer's RESCALEs are scale32 DOUBLE_ROUND, except from i48 (16-bit accumulators):
    a 16-bit multiplier (compute_scale_16) and SINGLE_ROUND, as TOSA's ERROR_IFs require."""
    mode = str(op.properties.get("rounding_mode"))
    if elem(op.operands[0].type) == "i48":
        if _flag(op, "scale32") or "SINGLE_ROUND" not in mode:
            raise QuantExportError("a RESCALE of i48 other than scale32=false with SINGLE_ROUND")
    elif not _flag(op, "scale32") or "DOUBLE_ROUND" not in mode:
        raise QuantExportError("a RESCALE other than scale32 with DOUBLE_ROUND")
    mult = _const(op.operands[1]).astype(np.float64).reshape(-1)
    shift = _const(op.operands[2]).astype(np.int64).reshape(-1)
    ratios = mult * np.exp2(-shift.astype(np.float64))
    if not np.all(ratios > 0) or not np.all(np.isfinite(ratios)):
        raise QuantExportError("a RESCALE by a zero or negative multiplier (no ratio of scales)")
    izp = int(_const(op.operands[3]).reshape(-1)[0])
    ozp = int(_const(op.operands[4]).reshape(-1)[0])
    return ratios, izp, ozp, _flag(op, "input_unsigned"), _flag(op, "output_unsigned")


class QuantExport:
    """The integer half of export.Exporter: `claims(op)` says whether an operation belongs to a
    quantized pattern, `handle(op)` writes it (or keeps it pending until the pattern's end)."""

    MOVES = ("tosa.reshape", "tosa.slice", "tosa.concat", "tosa.identity", "tosa.reverse")

    def __init__(self, ex):
        self.ex = ex
        self.s = Scales()
        self.pend: dict = {}        # SSA value -> (kind, ...) of a pattern not finished yet
        self.bilinear_outs: dict = {}   # NNEF output of a quantized BILINEAR resize -> (scale_n product, storage)
        self.starts: set = set()
        self.absorbed: set = set()      # operations of a pattern already written (the int8 softmax's)

    def scan(self, fn):
        """Mark the f32 MULs that start the importer's quantization of reals (quant.py
        quantize_int): mul by 1/scale, cast to i32, add the zero point, clamp, cast to storage."""
        self.starts = set()
        for op in fn.body.block.ops:
            if op.name != "tosa.mul" or elem(op.results[0].type) != "f32":
                continue
            # signed storage: ... clamp, cast; u8: ... clamp to [0, 255], add -128, cast to i8,
            # RESCALE to u8 (TOSA writes u8 only from a RESCALE)
            for chain_ops in (("tosa.cast", "tosa.add", "tosa.clamp", "tosa.cast"),
                              ("tosa.cast", "tosa.add", "tosa.clamp", "tosa.add", "tosa.cast", "tosa.rescale")):
                chain, v = [op], op.results[0]
                for want in chain_ops:
                    users = list(v.uses)
                    if len(users) != 1 or users[0].operation.name != want:
                        break
                    chain.append(users[0].operation)
                    v = chain[-1].results[0]
                else:
                    if elem(chain[1].results[0].type) == "i32" and elem(v.type) in QSTORAGE:
                        self.starts.add(op)

    # ---------------------------------------------------------------- helpers
    def quantized_name(self, v) -> str:
        """NNEF name of a quantized SSA value (layout as tracked)."""
        if v in self.ex.pending:
            # a quantized constant (e.g. math.mul's scalar operand): integer data, real declaration
            arr, _ = self.ex.pending.pop(v)
            bits = QSTORAGE.get(elem(v.type))
            if bits is None:
                raise QuantExportError("an integer constant that is not quantized storage")
            var = self.ex.variable(np.asarray(arr).astype(np.int8 if bits == 8 else np.int16), "real", v)
            self.ex.vals[v] = (var, list(range(np.ndim(arr))))
            self.s.add(var, bits)
        if v not in self.ex.vals:
            raise QuantExportError("reads a value the exporter did not write")
        name, _ = self.ex.vals[v]
        if name not in self.s:
            bits = QSTORAGE.get(elem(v.type))
            if bits is None:
                raise QuantExportError("an integer value that is not quantized storage")
            self.s.add(name, bits)
        return name

    def claims(self, op) -> bool:
        if op.name == "tosa.rescale" or op in self.starts or op in self.absorbed or \
                any(o in self.pend for o in op.operands):
            return True
        # the data operand or a result is storage (float ops have i8 shifts and zero points too)
        return any(elem(v.type) in QSTORAGE for v in list(op.operands[:1]) + list(op.results))

    def new_tensor(self, name: str, v):
        """A quantized NNEF tensor for result v."""
        bits = QSTORAGE.get(elem(v.type), 32)
        self.s.add(name, bits)
        return name

    def derive(self, new: str, src: str):
        """`new` is a layout change of the quantized `src` (same parameters)."""
        if src in self.s and src not in self.s.derived:
            self.s.add(new, self.s.bits[src])
            self.s.same(src, new)

    def weight(self, v, arr_fn, dtype, scales_fn, zp: int, bits: int, axis: int = 0) -> str:
        """A quantized constant (weights, biases) as an integer data file under a `real`
        declaration (Khronos' converter writes them so), per-channel along `axis`."""
        if v not in self.ex.pending:
            raise QuantExportError("quantized weights that are not constants")
        arr, _ = self.ex.pending[v]     # not popped: a constant shared by two convolutions (CSE) gets
        # a variable per use, each with the scales of its own use
        var = self.ex.variable(np.ascontiguousarray(arr_fn(arr)).astype(dtype), "real", v)
        self.s.derived[var] = (scales_fn, axis)
        self.s.bits[var] = bits
        self.s.zp[var] = zp
        return var

    # ---------------------------------------------------------------- dispatch
    def handle(self, op):
        try:
            self._handle(op)
        except QuantExportError as err:
            msg = str(err)
            raise QuantExportError(msg if msg.startswith(f"'{op.name}'") else f"'{op.name}': {msg}") from None

    def _handle(self, op):
        name = op.name
        ins = list(op.operands)
        res = op.results[0] if op.results else None
        pend = [self.pend.get(v) for v in ins]
        if op in self.absorbed:
            return
        if name == "tosa.table" and (elem(ins[0].type), elem(res.type)) in (("i8", "i8"), ("i16", "i32")) \
                and pend[0] is None:
            return self.table(op)
        if name == "tosa.reduce_max" and pend[0] is not None and pend[0][0] == "castwide":
            return self.softmax(op, pend[0][1])
        if name == "tosa.rescale":
            return self.rescale(op)
        if name == "tosa.reshape" and pend[0] is not None and pend[0][0] == "castwide" and \
                sorted(u.operation.name for u in res.uses) == ["tosa.reduce_max", "tosa.sub"]:
            # an integer softmax's rows: the values flattened to [rows, depth] (checked in softmax)
            self.pend[res] = ("castwide", pend[0][1], [0, 1])
            return
        if name in ("tosa.reshape", "tosa.transpose") and pend[0] is not None:
            self.pend[res] = self.moved(op, pend[0], list(ins[0].type.get_shape()), list(res.type.get_shape()))
            return
        if name == "tosa.reshape" and elem(res.type) in QSTORAGE and len(list(res.uses)) == 1 \
                and next(iter(res.uses)).operation.name == "tosa.matmul":
            self.pend[res] = ("through", ins[0], [])
            return
        if name in ("tosa.conv2d", "tosa.depthwise_conv2d") and elem(ins[0].type) in QSTORAGE:
            nxc = self.ex.channels_last(ins[0])
            self.pend[res] = ("conv", op, nxc, [0, 1, 2, 3] if nxc else [0, 2, 3, 1])
            return
        if name == "tosa.matmul" and elem(ins[0].type) in QSTORAGE:
            self.pend[res] = ("linear", op, None, [0, 1, 2])
            return
        if name == "tosa.add" and pend[0] is not None and pend[0][0] == "linear" and pend[0][2] is None \
                and pend[0][-1] == [0, 1] and ins[1] in self.ex.pending:
            self.pend[res] = ("linear", pend[0][1], ins[1], pend[0][-1])
            return
        if name == "tosa.reduce_sum" and pend[0] is not None and (pend[0][0] == "reduce_sum" or (
                pend[0][0] == "wide" and pend[0][2] == 1.0)):
            # the importer's math.sum_reduce / mean_reduce: zero point removed into i32, one
            # REDUCE_SUM per axis, one RESCALE to the output
            axes = (pend[0][2] if pend[0][0] == "reduce_sum" else []) + [op.properties["axis"].value.data]
            self.pend[res] = ("reduce_sum", pend[0][1], axes, [])
            return
        if name == "tosa.greater_equal" and pend[0] is not None and pend[0][0] == "wide" and pend[0][2] == 1.0 \
                and ins[1] in self.ex.pending and not np.any(self.ex.pending[ins[1]][0]):
            self.pend[res] = ("centered_ge", pend[0][1], None, [])      # x - zp >= 0: leaky relu's test
            return
        if name == "tosa.select" and pend[0] is not None and pend[0][0] == "centered_ge" \
                and all(p is not None and p[0] == "wide" and p[1] == pend[0][1] for p in pend[1:3]):
            # the importer's leaky relu: x >= 0 ? x * r_pos : x * r_neg, in i32
            self.pend[res] = ("leaky", pend[0][1], (pend[1][2], pend[2][2]), [])
            return
        if name == "tosa.abs" and pend[0] is not None and pend[0][0] == "wide" and pend[0][2] == 1.0:
            self.pend[res] = ("abs", pend[0][1], None, [])    # the importer's math.abs: |x - zp| in i32
            return
        if name in ("tosa.add", "tosa.sub", "tosa.mul") and all(p is not None and p[0] == "wide" for p in pend[:2]):
            if name == "tosa.mul" and np.any(_const(ins[2]) != 0):
                raise QuantExportError("a quantized product with a non-zero shift")
            self.pend[res] = ("sum" if name != "tosa.mul" else "prod", name, pend[0], pend[1], [])
            return
        if name == "tosa.cast" and elem(ins[0].type) in QSTORAGE and elem(res.type) == "i32" and pend[0] is None:
            self.quantized_name(ins[0])
            self.pend[res] = ("castwide", ins[0], list(range(len(res.type.get_shape()))))
            return
        if self.dequantize(op, name, ins, res, pend) or self.quantize(op, name, ins, res, pend):
            return
        if name in ("tosa.maximum", "tosa.minimum") and all(p is not None and p[0] == "castwide" for p in pend):
            self.pend[res] = ("maxmin", name, pend[0][1], pend[1][1], [])
            return
        if name == "tosa.cast" and pend[0] is not None and pend[0][0] == "maxmin" and elem(res.type) in QSTORAGE:
            _, which, xa, xb, _ = pend[0]
            (a_name, b_name), perm = self.operands(xa, xb)
            out = self.ex.emit(f"math.{'max' if which == 'tosa.maximum' else 'min'}({a_name}, {b_name})")
            self.new_tensor(out, res)
            self.s.same(self.quantized_name(xa), out)
            self.s.same(self.quantized_name(xb), out)
            self.ex.vals[res] = (out, perm or list(range(len(res.type.get_shape()))))
            return
        if name == "tosa.clamp" and elem(ins[0].type) in QSTORAGE:
            return self.relu(op)
        if name in ("tosa.max_pool2d", "tosa.avg_pool2d") and elem(ins[0].type) in QSTORAGE:
            if name == "tosa.avg_pool2d" and any(np.any(_const(z) != 0) for z in ins[1:3]):
                raise QuantExportError("average pooling with zero points (the importer pools the stored values)")
            src = self.quantized_name(ins[0])
            self.ex.spatial(op, name, list(res.type.get_shape()))
            out = self.ex.vals[res][0]
            self.new_tensor(out, res)
            self.s.same(src, out)
            return
        if name == "tosa.resize" and elem(ins[0].type) in QSTORAGE and elem(res.type) == "i32" \
                and str(op.properties["mode"].data.value) == "BILINEAR":
            return self.bilinear(op)
        if name in self.STORED and elem(res.type) == elem(ins[0].type) in QSTORAGE and pend[0] is None:
            return self.stored(op, name, ins, res)
        if name in self.MOVES and elem(res.type) in QSTORAGE and not any(p is not None for p in pend):
            srcs = [v for v in ins if elem(v.type) == elem(res.type)] if name == "tosa.concat" else ins[:1]
            names = []
            for v in srcs:
                if v in self.ex.pending:
                    raise QuantExportError("a quantized constant moved by layout operators")
                names.append(self.quantized_name(v))
            self.ex.generic(op)
            out = self.ex.vals[res][0]
            self.new_tensor(out, res)
            for n in names:
                self.s.same(n, out)
            return
        what = next((p[0] for p in pend if p is not None), None)
        el = next((elem(v.type) for v in list(ins) + list(op.results) if elem(v.type) in QSTORAGE), "i32")
        if what is not None:
            raise QuantExportError(f"reads a value of an unfinished quantized pattern ({what}): not a pattern "
                                   "the NNEF importer writes")
        raise QuantExportError(f"on element type {el} is not a quantized pattern the exporter knows "
                               "(no NNEF operator between quantized tensors imports as it)")

    # to_tosa/integer_layout.py's forms on the stored values, the scale and zero point kept
    STORED = ("tosa.pad", "tosa.tile", "tosa.reduce_max", "tosa.reduce_min", "tosa.resize")

    def stored(self, op, name, ins, res):
        """PAD (CONSTANT, the pad value the input's zero point: the importer pads a quantized
        tensor with its zero point, a real 0), TILE, REDUCE_MAX/MIN (monotonic) and RESIZE
        NEAREST_NEIGHBOR on stored values: the NNEF operator between tensors of one scale and
        zero point (a requantization after it is the RESCALE the importer adds)."""
        if ins[0] in self.ex.pending:
            raise QuantExportError("a quantized constant moved by layout operators")
        if name == "tosa.resize":
            if str(op.properties["mode"].data.value) != "NEAREST_NEIGHBOR":
                raise QuantExportError("a BILINEAR resize to stored values (the importer's is i8 -> i32 + RESCALE)")
            view = ins[0]
            src = self.quantized_name(view.owner.operands[0] if view in self.ex.resize_views else view)
            self.ex.resize(op)
            out = self.ex.resize_out
            self.new_tensor(out, res)
            self.s.same(src, out)
            return
        src = self.quantized_name(ins[0])
        if name == "tosa.pad":
            self.s.set_zp(src, int(_const(ins[2]).reshape(-1)[0]))
            pads = [int(v) for v in to_numpy(ins[1].owner.properties["values"]).reshape(-1)]
            rank = len(pads) // 2
            out = self.ex.emit(f"layout.pad{{axes={_lst(range(rank))}, padding={_lst(pads[0::2] + pads[1::2])}}}"
                               f"({self.ex.get(ins[0])})")
            self.ex.vals[res] = (out, list(range(rank)))
        else:
            self.ex.generic(op)
            out = self.ex.vals[res][0]
        self.new_tensor(out, res)
        self.s.same(src, out)

    def table(self, op):
        """A TABLE of a function of one value (to_tosa/integer_functions.py: TFLite's LUT,
        legalize_common.table_contents(f, s_in, zp_in, s_out, zp_out); 16-bit values TOSA's
        interpolated table_contents_16, i32 out, and a RESCALE by 1/128 to i16, absorbed here):
        the function and the parameters the rest of the graph leaves free are solved from the
        table (export_tables.table_function); the written line checks that the final scales
        rebuild the identical table."""
        x, res = op.operands[0], op.results[0]
        table = np.asarray(_const(op.operands[1])).reshape(-1)
        bits = QSTORAGE[elem(x.type)]
        if bits == 16:
            users = [u.operation for u in res.uses]
            r_op = users[0] if len(users) == 1 else None
            if r_op is None or r_op.name != "tosa.rescale" or elem(r_op.results[0].type) != "i16" or \
                    _flag(r_op, "per_channel") or table.size != 513 or \
                    rescale_params(r_op)[1:] != (0, 0, False, False) or float(rescale_params(r_op)[0][0]) != 1 / 128:
                raise QuantExportError("a 16-bit TABLE that is not the importer's (513 entries, then a RESCALE "
                                       "by 1/128 to i16)")
            self.absorbed.add(r_op)
            res = r_op.results[0]
        build = table_contents if bits == 8 else table_contents_16
        src = self.quantized_name(x)
        if self.s.unsigned.get(self.s.zroot(src)):
            raise QuantExportError("a TABLE of u8 values")
        found = table_function(table, self.s.zp.get(self.s.zroot(src)))
        if found is None:
            raise QuantExportError(f"a TABLE that is no function's the importer tables ({build.__name__} of "
                                   "sigmoid, tanh, exp, log, sqrt, rsqrt, ... at any scales)")
        fname, s_in, zp_in, s_out, zp_out = found
        self.s.set_zp(src, zp_in)
        xname, perm = self.ex.vals[x]
        holder = []

        def text():
            fn = FUNCTIONS[fname]({})
            with np.errstate(all="ignore"):
                rebuilt = build(fn, self.s.scale(src), zp_in, self.s.scale(holder[0]), zp_out)
            if not np.array_equal(rebuilt.astype(np.int64), table.astype(np.int64)):
                raise QuantExportError(f"'tosa.table': the scales of '{xname}' and '{holder[0]}' fixed by the rest "
                                       f"of the graph do not rebuild its {fname} table")
            return f"{holder[0]} = {fname}({xname});"
        out = self.ex.emit_lazy(text)
        holder.append(out)
        self.s.add(out, bits, zp=zp_out)
        self.s.anchor(src, s_in, lambda c: math.isclose(c, s_in, rel_tol=1e-12))
        self.s.anchor(out, s_out, lambda c: math.isclose(c, s_out, rel_tol=1e-12))
        self.ex.vals[res] = (out, perm)

    def softmax(self, op, x):
        """The importer's integer nn.softmax along one axis (to_tosa/integer_functions.py): x
        is the input with that axis moved last (a TRANSPOSE: a layout, see Exporter.get), its
        rows flattened to a matrix (a RESHAPE after the CAST, undone by one after the final
        RESCALE); on the matrix m = REDUCE_MAX(CAST x); int8: e = GATHER(table, m - x), the
        input scale the one the table is built from (export_tables.py); 16-bit: x - m RESCALEd
        by s_in / step (step = 10/65535: the input scale), + 32767, to i16, the fixed exp
        TABLE, RESCALE by 1/128; then s = REDUCE_SUM e, INTDIV(e * K + (s >> 1), s), RESCALE
        by 1 to the output, whose scale is 1/K."""
        def fail(why="an integer softmax that is not the importer's"):
            raise QuantExportError(why)

        def users(v, n=1):
            us = [u.operation for u in v.uses]
            if len(us) != n:
                fail()
            return us

        def const(v):       # the constants come after this operation: read from their op
            return np.asarray(_const(v))

        def rescale_by(r_op, ratio=None, out="i32", ozp=0):
            """r_op is a RESCALE from i32 with input zero point 0 (by `ratio` if given): its ratio."""
            if r_op.name != "tosa.rescale" or elem(r_op.results[0].type) != out or _flag(r_op, "per_channel"):
                fail()
            ratios, izp_, ozp_, iu_, ou_ = rescale_params(r_op)
            if izp_ != 0 or ozp_ != ozp or iu_ or ou_ or (ratio is not None and float(ratios[0]) != ratio):
                fail()
            return float(ratios[0])
        x32 = op.operands[0]
        shape = list(x32.type.get_shape())
        bits = QSTORAGE.get(elem(x.type))
        x_shape = list(x.type.get_shape())
        if len(shape) != 2 or op.properties["axis"].value.data != 1 or bits is None or not x_shape or \
                shape != [math.prod(x_shape[:-1]), x_shape[-1]]:
            fail("an integer softmax other than the importer's along the last axis of its rows")
        rows, depth = shape
        if x32.owner.name == "tosa.reshape":        # the rows of a tensor other than a matrix
            cast = x32.owner.operands[0]
            if [u.operation for u in cast.uses] != [x32.owner] or cast.owner.name != "tosa.cast" or \
                    cast.owner.operands[0] != x:
                fail()
        elif x32.owner.name != "tosa.cast" or x_shape != shape:
            fail()
        m = op.results[0]
        sub = users(m)[0]
        if sub.name != "tosa.sub" or {u.operation for u in x32.uses} != {op, sub}:
            fail()
        chain = [sub]
        if bits == 8:
            flat = users(sub.results[0])[0]
            if list(sub.operands) != [m, x32]:
                fail()
            if rows == 1 and flat.name == "tosa.gather":      # [1, depth] is already the indices' shape
                gather, flat = flat, sub
            else:
                gather = users(flat.results[0])[0] if flat.name == "tosa.reshape" else fail()
            if gather.name != "tosa.gather" or gather.operands[1] != flat.results[0]:
                fail()
            table = const(gather.operands[0]).reshape(-1)
            e = users(gather.results[0])[0]
            if e.name != "tosa.reshape" or list(e.results[0].type.get_shape()) != [rows, depth]:
                fail()
            chain += [flat, gather, e]
            scale = softmax_input_scale(table)
            if scale is None:
                fail("a softmax exp table that is no input scale's (legalize_common.softmax_exp_table_q16)")
            check = lambda c: np.array_equal(softmax_exp_table_q16(c), table)
        else:
            if list(sub.operands) != [x32, m]:
                fail()
            scaled = users(sub.results[0])[0]
            r = rescale_by(scaled)
            shifted = users(scaled.results[0])[0]
            if shifted.name != "tosa.add" or shifted.operands[0] != scaled.results[0] or \
                    const(shifted.operands[1]).reshape(-1).tolist() != [32767]:
                fail()
            q16 = users(shifted.results[0])[0]
            rescale_by(q16, 1.0, "i16")
            tab = users(q16.results[0])[0]
            step = 10.0 / 65535.0
            if tab.name != "tosa.table" or not np.array_equal(
                    const(tab.operands[1]).reshape(-1), table_contents_16(np.exp, step, 32767, 1.0 / 32768.0, 0)):
                fail("a 16-bit softmax whose exp TABLE is not the importer's")
            e = users(tab.results[0])[0]
            rescale_by(e, 1.0 / 128.0)
            chain += [scaled, shifted, q16, tab, e]
            scale = r * step
            check = lambda c: compute_scale_32(c / step) == compute_scale_32(r)
        e_uses = sorted(users(e.results[0], 2), key=lambda o: o.name)
        mul, total = e_uses if [o.name for o in e_uses] == ["tosa.mul", "tosa.reduce_sum"] else fail()
        t_uses = sorted(users(total.results[0], 2), key=lambda o: o.name)
        half, div = t_uses if [o.name for o in t_uses] == ["tosa.arithmetic_right_shift", "tosa.intdiv"] else fail()
        add = users(mul.results[0])[0]
        if add.name != "tosa.add" or list(add.operands) != [mul.results[0], half.results[0]] or \
                users(half.results[0])[0] != add or list(div.operands) != [add.results[0], total.results[0]] or \
                mul.operands[0] != e.results[0] or np.any(const(mul.operands[2]) != 0) or \
                const(half.operands[1]).reshape(-1).tolist() != [1] or total.operands[0] != e.results[0] or \
                total.properties["axis"].value.data != 1:
            fail()
        k = int(const(mul.operands[1]).reshape(-1)[0])
        out_op = users(div.results[0])[0]
        if out_op.name != "tosa.rescale" or elem(out_op.results[0].type) != elem(x.type) or \
                not 0 < k <= (1 << 15 if bits == 16 else 1 << 14):
            fail()
        ozp = int(const(out_op.operands[4]).reshape(-1)[0])
        rescale_by(out_op, 1.0, elem(x.type), ozp)
        if bits == 16 and ozp != 0:
            fail()
        res = out_op.results[0]
        if x_shape != shape:                    # the rows back in x's shape
            back = users(res)[0]
            if back.name != "tosa.reshape" or list(back.results[0].type.get_shape()) != x_shape:
                fail()
            chain.append(back)
            res = back.results[0]
        src = self.quantized_name(x)
        self.s.anchor(src, scale, check)
        name, layout = self.ex.vals[x]
        if layout[:-1] != sorted(layout[:-1]):
            # not the importer's transpose (the other axes in order): the softmax of x itself
            name, layout = self.ex.get(x), list(range(len(x_shape)))
        # x is the NNEF tensor `name` with its axes in `layout`: the softmax's is the last
        out = self.ex.emit(f"nn.softmax{{axes=[{layout[-1]}]}}({name})")
        self.s.add(out, bits, zp=ozp)
        self.s.anchor(out, 1.0 / k, lambda c: round(1.0 / c) == k)
        self.ex.vals[res] = (out, layout)
        self.absorbed |= set(chain) | {mul, total, half, add, div, out_op}

    def moved(self, op, kind, src: list[int], shape: list[int]):
        """A pattern's value through a transpose or reshape, where the importer puts one: the
        layout transposes around a convolution's accumulator, nn.linear's [1, b, n] -> [b, n],
        and the rank alignment (leading 1s: NNEF's default) of an add/sub/mul/max/min operand.
        Anything else would change what the exported operator computes: refused."""
        if op.name == "tosa.transpose":
            if kind[0] != "conv":
                raise QuantExportError(f"a transpose inside a quantized pattern ({kind[0]})")
            p = [int(x) for x in op.properties["perms"].get_values()]
            return kind[:-1] + ([kind[-1][i] for i in p],)
        if kind[0] == "linear" and kind[2] is None and len(src) == 3 and src[0] == 1 and shape == src[1:]:
            return kind[:-1] + ([0, 1],)
        if kind[0] in ("wide", "castwide") and shape == [1] * (len(shape) - len(src)) + src:
            return kind[:-1] + (list(range(len(shape))),)
        raise QuantExportError(f"a reshape inside a quantized pattern ({kind[0]})")

    def _scalar_const(self, v, dtype):
        """The value of a constant with one element (left pending: written only if something
        else reads it, and a CSE'd graph may share it between patterns)."""
        if v not in self.ex.pending:
            return None
        arr, _ = self.ex.pending[v]
        if np.size(arr) != 1:
            raise QuantExportError("per-channel (de)quantization constants")
        return np.asarray(arr).reshape(-1)[0].astype(dtype).item()

    def dequantize(self, op, name, ins, res, pend) -> bool:
        """quant.py's dequantize of a stored value: cast to i32, subtract the zero point, cast
        to f32, multiply by the scale. The result *is* the quantized NNEF tensor (the importer
        dequantizes it again for the real operator that reads it); the f32 scale anchors its
        group's scales."""
        p = pend[0]
        if name == "tosa.sub" and p is not None and p[0] == "castwide" and ins[1] in self.ex.pending:
            zp = self._scalar_const(ins[1], np.int64)
            self.s.set_zp(self.quantized_name(p[1]), zp)
            self.pend[res] = ("dq_centered", p[1], p[-1])
            return True
        if name == "tosa.cast" and p is not None and p[0] == "castwide" and elem(res.type) == "f32":
            # zero point 0: the subtraction folded away (canonicalized TOSA)
            self.s.set_zp(self.quantized_name(p[1]), 0)
            self.pend[res] = ("dq_real", p[1], p[-1])
            return True
        if name == "tosa.cast" and p is not None and p[0] == "u8_centered" and elem(res.type) == "i32":
            self.pend[res] = ("dq_centered", p[1], p[-1])
            return True
        if name == "tosa.cast" and p is not None and p[0] == "dq_centered" and elem(res.type) == "f32":
            self.pend[res] = ("dq_real", p[1], p[-1])
            return True
        if name == "tosa.mul" and p is not None and p[0] == "dq_real" and ins[1] in self.ex.pending:
            if np.any(_const(ins[2]) != 0):
                raise QuantExportError("a dequantization with a non-zero shift")
            scale = self._scalar_const(ins[1], np.float32)
            if not (np.isfinite(scale) and scale > 0):
                raise QuantExportError("a dequantization by a scale that is not positive")
            x = p[1]
            src = self.quantized_name(x)
            self.s.anchor(src, scale, _gives(scale, lambda c: c))
            self.ex.vals[res] = self.ex.vals[x]
            return True
        return False

    def quantize(self, op, name, ins, res, pend) -> bool:
        """quant.py's quantize_int of reals (see scan), then the cast to storage: the real
        tensor gets the @quantize entry (the importer quantizes it where it is defined)."""
        p = pend[0]
        if op in self.starts:
            if np.any(_const(ins[2]) != 0) or ins[1] not in self.ex.pending:
                return False
            y = ins[0]
            if y not in self.ex.vals or len(list(y.uses)) != 1:
                raise QuantExportError("a quantized real that is also read unquantized")
            name_y = self.ex.vals[y][0]
            if not isinstance(y.owner, Operation) or name_y in self.s or \
                    sum(1 for n, _ in self.ex.vals.values() if n == name_y) != 1:
                # the entry would quantize a graph input (the importer makes it an integer
                # argument) or a tensor other values read as reals
                raise QuantExportError("quantizes a real that is a graph input or read elsewhere as a real")
            inv = self._scalar_const(ins[1], np.float32)
            if not (np.isfinite(inv) and inv > 0):
                raise QuantExportError("a quantization by a scale that is not positive")
            self.pend[res] = ("q_scaled", y, inv, [])
            return True
        if p is None or not p[0].startswith("q_"):
            return False
        if name == "tosa.cast" and p[0] == "q_scaled" and elem(res.type) == "i32":
            self.pend[res] = ("q_rounded",) + p[1:]
            return True
        if name == "tosa.add" and p[0] == "q_rounded" and ins[1] in self.ex.pending:
            zp = self._scalar_const(ins[1], np.int64)
            self.pend[res] = ("q_shifted", p[1], p[2], zp, [])
            return True
        if name == "tosa.clamp" and p[0] == "q_shifted":
            lo, hi = op.properties["min_val"].value.data, op.properties["max_val"].value.data
            self.pend[res] = ("q_clamped",) + p[1:-1] + (lo, hi, [])
            return True
        if name == "tosa.add" and p[0] == "q_clamped" and ins[1] in self.ex.pending:
            if p[4:6] != (0, 255) or self._scalar_const(ins[1], np.int64) != -128:
                raise QuantExportError("a u8 quantization that is not the importer's (clamp to [0, 255], -128)")
            self.pend[res] = ("q_u8shifted",) + p[1:]
            return True
        if name == "tosa.cast" and p[0] == "q_u8shifted" and elem(res.type) == "i8":
            self.pend[res] = ("q_u8bits",) + p[1:]
            return True
        if name == "tosa.cast" and p[0] == "q_clamped" and elem(res.type) in QSTORAGE:
            _, y, inv, zp, lo, hi, _ = p
            bits = QSTORAGE[elem(res.type)]
            top = (1 << (bits - 1)) - 1
            if hi != top or lo not in (-top, -top - 1):
                raise QuantExportError("a quantization clamp that is not a signed storage range")
            self.quantized_real(res, y, inv, zp, bits, False, lo == -top)
            return True
        return False

    def quantized_real(self, res, y, inv: float, zp: int, bits: int, unsigned: bool, symmetric: bool):
        """The end of a quantization of the real y: y's NNEF tensor gets the entry."""
        name_y, perm = self.ex.vals[y]
        self.s.add(name_y, bits, unsigned)
        self.s.set_zp(name_y, zp, unsigned)
        if symmetric:
            self.s.symmetric.add(name_y)
        self.s.anchor(name_y, 1.0 / inv, _gives(inv, lambda c: 1.0 / c))
        self.ex.vals[res] = (name_y, perm)

    def operands(self, xa, xb):
        """NNEF names of two operands of an element-wise operator in one layout (a's, when
        the ranks agree; the identity otherwise, where the importer aligns ranks)."""
        perm = self.ex.vals[xa][1]
        if len(perm) != len(self.ex.vals[xb][1]):
            return (self.ex.get(xa), self.ex.get(xb)), None
        return (self.ex.get(xa, perm), self.ex.get(xb, perm)), perm

    # ---------------------------------------------------------------- patterns
    def relu(self, op):
        x, res = op.operands[0], op.results[0]
        src = self.quantized_name(x)
        lo, hi = op.properties["min_val"].value.data, op.properties["max_val"].value.data
        bits = self.s.bits[src]
        unsigned = self.s.unsigned.get(self.s.zroot(src), False)
        if unsigned:
            raise QuantExportError("a clamp of u8 values")
        qmax = (1 << (bits - 1)) - 1
        self.s.set_zp(src, lo)      # the importer's relu clamps from the zero point (0.0)
        xname, perm = self.ex.vals[x]
        out_holder = []

        def text():
            if hi >= qmax:
                return f"{out_holder[0]} = nn.relu({xname});"
            top = (hi - lo) * self.s.scale(src)
            return f"{out_holder[0]} = nn.relu{{max={top!r}}}({xname});"
        out = self.ex.emit_lazy(text)
        out_holder.append(out)
        self.new_tensor(out, res)
        self.s.same(src, out)
        self.ex.vals[res] = (out, perm)

    def rescale(self, op):
        x, res = op.operands[0], op.results[0]
        ratios, izp, ozp, iu, ou = rescale_params(op)
        per_channel = _flag(op, "per_channel")
        rank = len(res.type.get_shape())
        p = self.pend.get(x)
        out_el = elem(res.type)
        if p is not None and p[0] == "q_u8bits":
            if per_channel or not ou or iu or izp != 0 or ozp != -128 or float(ratios[0]) != 1.0:
                raise QuantExportError("a u8 quantization whose RESCALE is not the importer's (+128, unsigned out)")
            _, y, inv, zp, _, _, _ = p
            return self.quantized_real(res, y, inv, zp, 8, True, False)
        if p is None and iu and not ou and not per_channel and out_el == "i16" and ozp == 0 \
                and float(ratios[0]) == 1.0 and elem(x.type) == "i8":
            # u8 widened to i16 without its zero point: the start of its dequantization
            self.s.set_zp(self.quantized_name(x), izp, True)
            self.pend[res] = ("u8_centered", x, list(range(rank)))
            return
        if p is not None:
            if out_el not in QSTORAGE or izp != 0 or iu or ou:
                raise QuantExportError("an accumulator rescaled to other than 8/16-bit storage")
            if p[0] == "conv":
                return self.conv(op, p, ratios, ozp, per_channel)
            if p[0] == "linear":
                return self.linear(op, p, ratios, ozp, per_channel)
            if p[0] in ("sum", "prod") and not per_channel:
                return self.arith(op, p, float(ratios[0]), ozp)
            if p[0] == "leaky" and not per_channel and float(ratios[0]) == 1.0:
                return self.leaky_relu(op, p, ozp)
            if p[0] in ("reduce_sum", "abs") and not per_channel:
                return self.sum_reduce(op, p, float(ratios[0]), ozp)
            raise QuantExportError(f"rescales an unfinished quantized pattern ({p[0]})")
        if p is None and x in self.ex.vals and self.ex.vals[x][0] in self.bilinear_outs:
            prod, storage = self.bilinear_outs[self.ex.vals[x][0]]
            if per_channel or izp or ozp or iu or ou or out_el != storage or abs(float(ratios[0]) * prod - 1) > 1e-9:
                raise QuantExportError("a BILINEAR resize rescaled otherwise than by 1 / (scale_y_n * scale_x_n)")
            self.ex.vals[res] = self.ex.vals[x]
            return
        if per_channel:
            raise QuantExportError("a per-channel rescale of activations")
        bits = QSTORAGE.get(elem(x.type))
        if bits is None:
            raise QuantExportError(f"rescales {elem(x.type)} values that are not a quantized pattern")
        src = self.quantized_name(x)
        self.s.set_zp(src, izp, iu)
        r = float(ratios[0])
        if out_el == "i32" and ozp == 0 and not ou:
            self.pend[res] = ("wide", x, r, list(range(rank)))
            return
        if out_el in QSTORAGE:
            out = self.ex.emit(f"math.iden({self.ex.vals[x][0]})")
            self.s.add(out, QSTORAGE[out_el], ou)
            self.s.set_zp(out, ozp, ou)
            self.s.relate(src, out, 1.0 / r)
            self.ex.vals[res] = (out, self.ex.vals[x][1])
            return
        raise QuantExportError(f"a rescale to {out_el} that is not a quantized pattern")

    def arith(self, op, p, r_o: float, ozp: int):
        res = op.results[0]
        kind, which, wa, wb, _ = p
        _, xa, r_a, _ = wa
        _, xb, r_b, _ = wb
        a, b = self.quantized_name(xa), self.quantized_name(xb)
        (an, bn), perm = self.operands(xa, xb)
        out_bits = QSTORAGE[elem(res.type)]
        if kind == "sum":
            shift = HEADROOM.get(self.s.bits[a])
            if shift is None or self.s.bits[a] != self.s.bits[b] or max(r_a, r_b) != 2.0 ** (shift - 1):
                raise QuantExportError("an integer add/sub that is not the importer's (2^20 headroom) form")
            out = self.ex.emit(f"math.{'add' if which == 'tosa.add' else 'sub'}({an}, {bn})")
            self.s.add(out, out_bits, zp=ozp)
            self.s.relate(a, b, r_b / r_a)
            self.s.relate(a, out, 1.0 / (r_a * r_o))
        else:
            if r_a != 1.0 or r_b != 1.0:
                raise QuantExportError("an integer mul whose operands are rescaled")
            out = self.ex.emit(f"math.mul({an}, {bn})")
            self.s.add(out, out_bits, zp=ozp)
            self.s.products.append((out, a, b, r_o))
        self.ex.vals[res] = (out, perm or list(range(len(res.type.get_shape()))))

    def sum_reduce(self, op, p, r: float, ozp: int):
        """math.sum_reduce (or math.abs) with s_out = s_x / r: its re-import RESCALEs by
        s_x / s_out = r. A mean_reduce's RESCALE (s_x / s_out / count) is the same integer
        computation, so a mean comes back as a sum with an output scale count times larger."""
        res = op.results[0]
        kind, x, axes, _ = p
        src = self.quantized_name(x)
        call = "math.abs" if kind == "abs" else f"math.sum_reduce{{axes={_lst(sorted(axes))}}}"
        out = self.ex.emit(f"{call}({self.ex.get(x)})")
        self.s.add(out, QSTORAGE[elem(res.type)], zp=ozp)
        self.s.relate(src, out, 1.0 / r)
        self.ex.vals[res] = (out, list(range(len(res.type.get_shape()))))

    def bilinear(self, op):
        """image.linear_resize between tensors of one scale and zero point: the importer's
        RESIZE BILINEAR to i32 (the stored values times scale_y_n * scale_x_n), moved back to
        the source's layout, and one RESCALE by the inverse product (to_tosa/integer_layout.py):
        the NNEF output is written here, the RESCALE checked in rescale()."""
        view = op.operands[0]
        src = self.quantized_name(view.owner.operands[0] if view in self.ex.resize_views else view)
        self.ex.resize(op)
        out = self.ex.resize_out
        self.new_tensor(out, view)
        self.s.same(src, out)
        sy, _, sx, _ = [int(v) for v in to_numpy(op.operands[1].owner.properties["values"])]
        self.bilinear_outs[out] = (sy * sx, elem(view.type))

    def leaky_relu(self, op, p, ozp: int):
        """nn.relu{alpha = r_neg / r_pos} with s_out = s_x / r_pos: the re-import's RESCALEs
        are s_x / s_out = r_pos and alpha times it = r_neg (to a double ulp)."""
        res = op.results[0]
        _, x, (r_pos, r_neg), _ = p
        src = self.quantized_name(x)
        out = self.ex.emit(f"nn.relu{{alpha={r_neg / r_pos!r}}}({self.ex.get(x)})")
        self.s.add(out, QSTORAGE[elem(res.type)], zp=ozp)
        self.s.relate(src, out, 1.0 / r_pos)
        self.ex.vals[res] = (out, list(range(len(res.type.get_shape()))))

    def _bias(self, bias_v, channels, x_name, ws_fn):
        """A bias const (i32, acc-scaled) as a per-channel 32-bit quantized variable; a zero
        [1] const is the importer's 'no bias'."""
        arr, _ = self.ex.pending[bias_v]
        arr = np.asarray(arr).reshape(-1)
        if arr.size == 1 and arr[0] == 0 and channels != 1:
            return None
        if arr.size != channels:
            raise QuantExportError("a bias that is not one value per output channel")
        return self.weight(bias_v, lambda a: np.asarray(a).reshape(-1), np.int32,
                           lambda: list(self.s.scale(x_name) * np.asarray(ws_fn())), 0, 32)

    def _ws(self, ratios, channels, x_name, out_name):
        """The weight scales a conv/linear leaves free: s_w[c] = r[c] * s_out / s_x."""
        r = np.broadcast_to(np.asarray(ratios, np.float64), (channels,))
        return lambda: list(r * self.s.scale(out_name) / self.s.scale(x_name))

    def conv(self, op, p, ratios, ozp, per_channel):
        """nn.conv in the layout of its input: NXC data with NXC (OHWI) or, depthwise, CXN
        (1,H,W,C*M) filters as Khronos' TFLite converter writes them; NCX/NCX otherwise."""
        res = op.results[0]
        _, cop, nxc, perm = p
        if per_channel and perm[-1] != (3 if nxc else 1):
            raise QuantExportError("a per-channel rescale along another axis than the channels")
        x, w, b, xzp, wzp = cop.operands
        x_name = self.quantized_name(x)
        self.s.set_zp(x_name, int(_const(xzp).reshape(-1)[0]))
        wz = int(_const(wzp).reshape(-1)[0])
        if self.s.bits[x_name] != 8 or elem(w.type) != "i8":
            raise QuantExportError("only 8-bit convolutions")
        out_name = self.ex.fresh()
        self.s.add(out_name, QSTORAGE[elem(res.type)], zp=ozp)
        xn = self.ex.get(x, [0, 1, 2, 3] if nxc else [0, 2, 3, 1])
        pad = [int(v) for v in cop.properties["pad"].get_values()]
        stride = [int(v) for v in cop.properties["stride"].get_values()]
        dil = [int(v) for v in cop.properties["dilation"].get_values()]
        waxis = 0
        if cop.name == "tosa.conv2d":
            channels = w.type.get_shape()[0]
            if nxc:
                wdata, fmt = (lambda a: np.asarray(a)), ', data_format="NXC", filter_format="NXC"'
            else:
                wdata, fmt = (lambda a: np.asarray(a).transpose(0, 3, 1, 2)), ""
        else:
            h, wd, c, m = w.type.get_shape()
            channels = c * m
            if nxc:
                wdata = lambda a: np.asarray(a).reshape(1, h, wd, c * m)
                fmt, waxis = ', groups=0, data_format="NXC", filter_format="CXN"', 3
            else:
                wdata = lambda a: np.asarray(a).transpose(2, 3, 0, 1).reshape(c * m, 1, h, wd)
                fmt = ", groups=0"
        ws = self._ws(ratios, channels, x_name, out_name)
        wn = self.weight(w, wdata, np.int8, ws, wz, 8, waxis)
        bn = self._bias(b, channels, x_name, ws)
        padding = [pad[0], pad[2], pad[1], pad[3]]
        args = ", ".join([xn, wn] + ([bn] if bn else []))
        self.ex.lines.append(f"        {out_name} = nn.conv{{stride={_lst(stride)}, dilation={_lst(dil)}, "
                             f"padding={_lst(padding)}{fmt}}}({args});")
        self.ex.vals[res] = (out_name, perm)

    def linear(self, op, p, ratios, ozp, per_channel):
        res = op.results[0]
        _, mop, bias, perm = p
        if len(res.type.get_shape()) != 2 or perm != [0, 1]:
            raise QuantExportError("a matmul that is not the importer's nn.linear form")
        x3, w3, xzp, wzp = mop.operands
        px = self.pend.get(x3)
        if px is None or px[0] != "through":
            raise QuantExportError("a matmul whose input is not reshaped from a matrix")
        x = px[1]
        shape3 = list(x3.type.get_shape())
        if len(shape3) != 3 or shape3[0] != 1 or w3 not in self.ex.pending \
                or np.shape(self.ex.pending[w3][0])[0] != 1:
            raise QuantExportError("a matmul that is not the importer's nn.linear form")
        x_name = self.quantized_name(x)
        self.s.set_zp(x_name, int(_const(xzp).reshape(-1)[0]))
        wz = int(_const(wzp).reshape(-1)[0])
        b_, c_ = shape3[1:]
        n = res.type.get_shape()[1]
        out_name = self.ex.fresh()
        self.s.add(out_name, QSTORAGE[elem(res.type)], zp=ozp)
        xn = self.ex.get(x)
        if list(x.type.get_shape()) != [b_, c_]:
            # the matrix reshape folded into another one (canonicalized TOSA): written out
            flat = self.ex.emit(f"layout.reshape{{shape={_lst([b_, c_])}}}({xn})")
            self.derive(flat, xn)
            xn = flat
        ws = self._ws(ratios, n, x_name, out_name)
        wn = self.weight(w3, lambda a: np.asarray(a).reshape(c_, n).T, np.int8, ws, wz, 8)
        bn = self._bias(bias, n, x_name, ws) if bias is not None else None
        self.ex.lines.append(f"        {out_name} = nn.linear({', '.join([xn, wn] + ([bn] if bn else []))});")
        self.ex.vals[res] = (out_name, [0, 1])

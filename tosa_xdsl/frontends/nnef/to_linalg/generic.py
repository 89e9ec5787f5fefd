"""One linalg.generic per @lower formula (see the package docstring)."""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.semantics import BINARY, Env, Unknown, unparse
from tosa_xdsl.frontends.nnef.to_linalg.affine import Aff, GAff, Indexer, RAff
from tosa_xdsl.frontends.nnef.to_linalg.computed import index_items, pack_reads, positions
from tosa_xdsl.frontends.nnef.to_linalg.packs import instances
from tosa_xdsl.frontends.nnef.to_tosa.emit import ELEMENT, Emitter, Value

NULL = {"+=": 0, "*=": 1, ">?=": -math.inf, "<?=": math.inf, "|=": False, "&=": True}
REDUCE_OPS = {
    ("+=", "f32"): "arith.addf", ("+=", "i32"): "arith.addi",
    ("*=", "f32"): "arith.mulf", ("*=", "i32"): "arith.muli",
    (">?=", "f32"): "arith.maximumf", (">?=", "i32"): "arith.maxsi",
    ("<?=", "f32"): "arith.minimumf", ("<?=", "i32"): "arith.minsi",
    ("|=", "i1"): "arith.ori", ("&=", "i1"): "arith.andi",
}
FBIN = {"+": "arith.addf", "-": "arith.subf", "*": "arith.mulf", "/": "arith.divf",
        "<?": "arith.minimumf", ">?": "arith.maximumf", "**": "math.powf"}
IBIN = {"+": "arith.addi", "-": "arith.subi", "*": "arith.muli", "/": "arith.floordivsi",
        "\\": "arith.ceildivsi", "%": "arith.remsi", "<?": "arith.minsi", ">?": "arith.maxsi"}
BBIN = {"&&": "arith.andi", "||": "arith.ori", "^": "arith.xori"}
FCMP = {"<": "olt", "<=": "ole", ">": "ogt", ">=": "oge", "==": "oeq", "!=": "une"}
ICMP = {"<": "slt", "<=": "sle", ">": "sgt", ">=": "sge", "==": "eq", "!=": "ne"}
MATH = {"exp": "math.exp", "log": "math.log", "sin": "math.sin", "cos": "math.cos", "tan": "math.tan",
        "tanh": "math.tanh", "sqrt": "math.sqrt", "floor": "math.floor", "ceil": "math.ceil",
        "abs": "math.absf", "erf": "math.erf", "round": "math.roundeven"}


def _elt(dtype: str) -> str:
    return ELEMENT[dtype]


def _kind(v) -> str:
    return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "real"


def _const_text(v, t: str) -> str:
    if t == "i1":
        return "1" if v else "0"
    if t == "f32":
        v = float(v)
        if math.isnan(v):
            return "0x7FC00000"
        if math.isinf(v):
            return "0x7F800000" if v > 0 else "0xFF800000"
        return repr(v)
    return str(int(v))


class Body:
    """The scalar region of one generic: operands with maps, block arguments, ops."""

    def __init__(self, em: Emitter, env: Env, idx: Indexer, extents, tensors, pad_value, loc):
        self.em, self.env, self.idx, self.extents = em, env, idx, extents
        self.tensors = tensors            # name -> Value | None
        self.pad_value = pad_value
        self.loc = loc
        self.operands: list[tuple[Value, str]] = []
        self.args: list[tuple[str, str]] = []   # (block arg, element type)
        self.lines: list[str] = []
        self.n = 0
        self.locals: dict[str, object] = {}       # loop-local name -> expression
        self.local_values: dict[str, object] = {}
        self.local_packs: dict[str, list] = {}
        self.dims_seen: set[int] = set()

    def fresh(self):
        self.n += 1
        return f"%s{self.n}"

    def const(self, v, t):
        s = self.fresh()
        self.lines.append(f"      {s} = arith.constant {_const_text(v, t)} : {t}")
        return s, t

    def operand(self, value: Value, exprs: list[Aff]) -> tuple[str, str]:
        nd = len(self.extents)
        value = self.tight(value, exprs)
        amap = f"affine_map<({', '.join(f'd{k}' for k in range(nd))}) -> ({', '.join(a.text() for a in exprs)})>"
        for a in exprs:
            if len(a.coefs) == 1 and a.coefs[0][1] == 1 and a.const == 0:
                self.dims_seen.add(a.coefs[0][0])
        for i, (v, m) in enumerate(self.operands):
            if v.ssa == value.ssa and m == amap:
                return self.args[i]
        self.operands.append((value, amap))
        arg = (f"%a{len(self.args)}", _elt(value.dtype))
        self.args.append(arg)
        return arg

    def tight(self, value: Value, exprs: list[Aff]) -> Value:
        """A tensor read along an axis by a plain loop index covering only its first part (a
        piece of layout.split): linalg infers loop ranges from such operands, so the operand
        is the slice the loop reads."""
        size = list(value.shape)
        for k, a in enumerate(exprs):
            if len(a.coefs) == 1 and a.coefs[0][1] == 1 and a.const == 0 and self.extents[a.coefs[0][0]] < size[k]:
                size[k] = self.extents[a.coefs[0][0]]
        if size == list(value.shape):
            return value
        em = self.em
        return em.op("tosa.slice", [value, em.shape([0] * len(size)), em.shape(size)], size, value.dtype)

    # ---------------------------------------------------------------- values
    def compile(self, e):
        """(ssa, type), a Python constant, or None (null)."""
        if isinstance(e, A.Literal):
            return e.value
        if isinstance(e, A.Index) and isinstance(e.base, A.Ident) and e.base.name in self.tensors:
            # the draft writes 'bias[ni]' for the access 'bias[ni,]' of a 1-d tensor
            return self.access(A.Access(e.loc, e.base, [e.index]))
        if isinstance(e, A.Ident):
            if e.name in self.locals:
                if e.name not in self.local_values:
                    self.local_values[e.name] = self.compile(self.locals[e.name])
                return self.local_values[e.name]
            if e.name in self.idx.loop:
                dim = self.idx.loop[e.name]
                if isinstance(dim, list):
                    raise NnefError(e.loc, f"pack index '{e.name}' used as a value")
                return self.index_value(dim)
            return self.compile_time(e)
        if isinstance(e, A.Access):
            return self.access(e)
        if isinstance(e, A.Coalesce):
            v = self.compile(e.value)
            return self.compile(e.fallback) if v is None else v
        if isinstance(e, A.Unary):
            v = self.compile(e.arg)
            if v is None or not isinstance(v, tuple):
                return None if v is None else BINARY["-"](e.loc, 0, v) if e.op == "-" else (not v if e.op == "!" else v)
            s, t = v
            if e.op == "-":
                if t == "f32":
                    r = self.fresh()
                    self.lines.append(f"      {r} = arith.negf {s} : f32")
                    return r, t
                return self.binop(e, "-", self.const(0, t), v)
            if e.op == "!":
                return self.binop(e, "^", v, self.const(True, "i1"))
            return v
        if isinstance(e, A.Binary):
            a, b = self.compile(e.lhs), self.compile(e.rhs)
            if a is None or b is None:
                return None
            if not isinstance(a, tuple) and not isinstance(b, tuple):
                return BINARY[e.op](e.loc, a, b)
            return self.binop(e, e.op, a, b)
        if isinstance(e, A.Select):
            c = self.compile(e.cond)
            if c is None:
                return None
            if not isinstance(c, tuple):
                return self.compile(e.then) if c else (self.compile(e.other) if e.other is not None else None)
            a, b = self.compile(e.then), self.compile(e.other) if e.other is not None else None
            if a is None or b is None:
                raise NnefError(e.loc, "a formula's value must not be optional here (use '??')")
            t = a[1] if isinstance(a, tuple) else b[1] if isinstance(b, tuple) else "f32"
            a, b = self.as_ssa(a, t), self.as_ssa(b, t)
            r = self.fresh()
            self.lines.append(f"      {r} = arith.select {c[0]}, {a[0]}, {b[0]} : {t}")
            return r, t
        if isinstance(e, A.Call):
            return self.call(e)
        if isinstance(e, A.Index) and self.idx.uses_loop(e.index):
            return self.pack_read(e)
        if isinstance(e, A.Fold) and not e.cumulative and self.idx.uses_loop(e.arg):
            return self.fold(e)
        if isinstance(e, (A.Member, A.Index, A.Fold, A.ListExpr)):
            return self.compile_time(e)
        raise NnefError(e.loc, f"'{unparse(e)}' cannot be compiled in a formula")

    def compile_time(self, e):
        try:
            v = self.env.eval(e)
        except Unknown as u:
            raise NnefError(e.loc, f"'{u.name}' is not known in formula '{unparse(e)}'") from None
        if isinstance(v, list):
            raise NnefError(e.loc, f"'{unparse(e)}' is a pack; a formula's value must be a scalar")
        return v

    def fold(self, e: A.Fold):
        """`p op ..` over a pack that depends on the loop indices (e.g. layout.pad's in-range
        test `(zi >= 0 && zi < s) && ..` over the axes): the items compiled one by one."""
        items = self.compile_pack(e.arg)
        if not items:
            raise NnefError(e.loc, f"fold of an empty pack '{unparse(e)}'")
        acc = items[0]
        for x in items[1:]:
            if acc is None or x is None:
                return None
            if not isinstance(acc, tuple) and not isinstance(x, tuple):
                acc = BINARY[e.op](e.loc, acc, x)
            else:
                acc = self.binop(e, e.op, acc, x)
        return acc

    def compile_pack(self, e) -> list:
        """A pack expression item by item: compile-time items as Python values, affine index
        items as index arithmetic, the rest element-wise."""
        if not self.idx.uses_loop(e):
            v = self.compile_time_value(e)
            return v if isinstance(v, list) else [v]
        if isinstance(e, A.Ident) and e.name in self.locals and not isinstance(self.locals[e.name], list):
            if e.name not in self.local_packs:
                self.local_packs[e.name] = self.compile_pack(self.locals[e.name])
            return self.local_packs[e.name]
        if isinstance(e, A.Call) and e.arg is not None:
            name = self.env.dtypes.get(e.name, e.name)
            return [None if x is None else self.apply(e, name, x) if isinstance(x, tuple)
                    else self.compile_time(A.Call(e.loc, e.name, A.Literal(e.loc, x, _kind(x))))
                    for x in self.compile_pack(e.arg)]
        if isinstance(e, A.Select) and not self.idx.uses_loop(e.cond):
            c = self.compile_time(e.cond)
            if isinstance(c, list):
                raise NnefError(e.loc, f"a pack condition in '{unparse(e)}' is not compiled")
            if c:
                return self.compile_pack(e.then)
            return self.compile_pack(e.other) if e.other is not None else [None]
        if isinstance(e, A.Unary) and e.op in ("-", "+"):
            return self.compile_pack(A.Binary(e.loc, e.op, A.Literal(e.loc, 0, "int"), e.arg))
        if isinstance(e, A.Binary):
            a, b = self.compile_pack(e.lhs), self.compile_pack(e.rhs)
            if len(a) != len(b) and 1 not in (len(a), len(b)):
                raise NnefError(e.loc, f"pack lengths differ in '{unparse(e)}'")
            n = max(len(a), len(b))
            a, b = (a * n if len(a) == 1 else a), (b * n if len(b) == 1 else b)
            out = []
            for x, y in zip(a, b):
                if x is None or y is None:
                    out.append(None)
                elif not isinstance(x, tuple) and not isinstance(y, tuple):
                    out.append(BINARY[e.op](e.loc, x, y))
                else:
                    out.append(self.binop(e, e.op, x, y))
            return out
        if isinstance(e, A.Access):
            reads = pack_reads(self, e)
            if reads is not None:
                return reads
        try:
            affs = self.idx.eval(e)
        except NnefError:
            affs = None
        if isinstance(affs, list) and all(isinstance(a, Aff) for a in affs):
            return [self.aff_i32(a) for a in affs]
        if isinstance(affs, Aff):
            return [self.aff_i32(affs)]
        if isinstance(e, (A.Access, A.Index, A.Select, A.Coalesce, A.Call, A.Unary, A.Ident)):
            return [self.compile(e)]     # one scalar (a tensor read, a loop-local value)
        raise NnefError(e.loc, f"pack expression '{unparse(e)}' cannot be compiled in a formula")

    def compile_time_value(self, e):
        try:
            return self.env.eval(e)
        except Unknown as u:
            raise NnefError(e.loc, f"'{u.name}' is not known in formula '{unparse(e)}'") from None

    def aff_value(self, a: Aff):
        """The i32 value of an affine expression of the loop dimensions."""
        acc = None
        for k, c in a.coefs:
            term = self.index_value(Aff.dim(k))
            if c != 1:
                term = self.binop(None, "*", term, c)
            acc = term if acc is None else self.binop(None, "+", acc, term)
        if acc is None:
            return self.const(a.const, "i32")
        return self.binop(None, "+", acc, a.const) if a.const else acc

    def pack_read(self, e: A.Index):
        """A compile-time pack indexed by a loop index (a per-channel attribute such as
        `scale[i[channel_axis]]`): a 1-d constant tensor read through an affine map."""
        values = self.compile_time_pack(e.base)
        exprs = self.idx.item(e.index)
        if len(exprs) != 1 or not isinstance(exprs[0], Aff) or isinstance(exprs[0], GAff):
            raise NnefError(e.loc, f"index of '{unparse(e)}' is not an affine loop index")
        kinds = {type(v) for v in values}
        dtype = "bool" if kinds == {bool} else "int" if kinds == {int} else "real"
        return self.operand(self.em.const(values, [len(values)], dtype), exprs)

    def compile_time_pack(self, e) -> list:
        try:
            v = self.env.eval(e)
        except Unknown as u:
            raise NnefError(e.loc, f"'{u.name}' is not known in formula '{unparse(e)}'") from None
        if not isinstance(v, list) or not v or any(isinstance(x, (list, str)) or x is None for x in v):
            raise NnefError(e.loc, f"'{unparse(e)}' must be a pack of numbers to be indexed by a loop index")
        return v

    def index_value(self, a: Aff):
        s = self.fresh()
        (k, c), = a.coefs if len(a.coefs) == 1 else ((None, None),)
        if k is None or c != 1 or a.const:
            raise NnefError(self.loc, "only plain loop indices can be used as values")
        self.lines.append(f"      {s} = linalg.index {k} : index")
        r = self.fresh()
        self.lines.append(f"      {r} = arith.index_cast {s} : index to i32")
        return r, "i32"

    def as_ssa(self, v, t):
        if isinstance(v, tuple):
            return v
        return self.const(v, t)

    def binop(self, e, op, a, b):
        t = a[1] if isinstance(a, tuple) else b[1]
        if t != "f32" and any(isinstance(x, float) for x in (a, b)):
            raise NnefError(e.loc if e is not None else self.loc, f"operands of '{op}' differ in type ({t} vs real)")
        if not isinstance(a, tuple):
            a = self.const(a, t)
        if not isinstance(b, tuple):
            b = self.const(b, t)
        if a[1] != b[1]:
            raise NnefError(e.loc, f"operands of '{op}' differ in type ({a[1]} vs {b[1]})")
        r = self.fresh()
        if op in FCMP or op == "is":
            op = "==" if op == "is" else op
            kind, pred = ("arith.cmpf", FCMP[op]) if t == "f32" else ("arith.cmpi", ICMP[op])
            self.lines.append(f"      {r} = {kind} {pred}, {a[0]}, {b[0]} : {t}")
            return r, "i1"
        table = FBIN if t == "f32" else BBIN if t == "i1" else IBIN
        if op not in table:
            raise NnefError(e.loc, f"operator '{op}' on {t} is not supported in formulas")
        self.lines.append(f"      {r} = {table[op]} {a[0]}, {b[0]} : {t}")
        return r, t

    def call(self, e: A.Call):
        name = self.env.dtypes.get(e.name, e.name)
        if e.arg is None:
            return {"int": 0, "real": 0.0, "bool": False}.get(name, 0)
        v = self.compile(e.arg)
        if v is None:
            return None
        if not isinstance(v, tuple):
            return self.compile_time(e)
        return self.apply(e, name, v)

    def apply(self, e: A.Call, name: str, v):
        """A built-in function or cast of a compiled scalar."""
        s, t = v
        if name in ("real", "int", "bool"):
            want = ELEMENT[name]
            if want == t:
                return v
            r = self.fresh()
            if want == "f32" and t == "i32":
                self.lines.append(f"      {r} = arith.sitofp {s} : i32 to f32")
            elif want == "i32" and t == "f32":
                self.lines.append(f"      {r} = arith.fptosi {s} : f32 to i32")
            elif want == "f32" and t == "i1":
                self.lines.append(f"      {r} = arith.uitofp {s} : i1 to f32")
            elif want == "i32" and t == "i1":
                self.lines.append(f"      {r} = arith.extui {s} : i1 to i32")
            else:
                z = self.const(0, t)
                cmp = "arith.cmpf une" if t == "f32" else "arith.cmpi ne"
                self.lines.append(f"      {r} = {cmp}, {s}, {z[0]} : {t}")
            return r, want
        if name == "abs" and t == "i32":
            r = self.fresh()
            self.lines.append(f"      {r} = math.absi {s} : i32")
            return r, t
        if name in MATH and t == "f32":
            r = self.fresh()
            self.lines.append(f"      {r} = {MATH[name]} {s} : f32")
            return r, t
        if name == "frac" and t == "f32":
            f, r = self.fresh(), self.fresh()
            self.lines += [f"      {f} = math.floor {s} : f32", f"      {r} = arith.subf {s}, {f} : f32"]
            return r, t
        raise NnefError(e.loc, f"function '{e.name}' on {t} is not supported in formulas")

    def access(self, e: A.Access):
        base, item = e.base, None
        if isinstance(base, A.Index) and isinstance(base.base, A.Ident) and not self.idx.uses_loop(base.index):
            # 'inputs[ni][...]' of a tensor pack, ni bound at compile time (an unrolled pack loop)
            base, item = base.base, self.compile_time(base.index)
        if not isinstance(base, A.Ident):
            raise NnefError(e.loc, "tensor packs are not supported in compiled formulas")
        name = base.name
        if name not in self.tensors:
            raise NnefError(e.loc, f"'{name}' is not an input of this operator (reading outputs is an update)")
        value = self.tensors[name]
        if value is None:
            return None
        if isinstance(value, list) and isinstance(item, int) and not isinstance(item, bool) \
                and -len(value) <= item < len(value):
            value = value[item]
        if isinstance(value, list) or (item is not None and not isinstance(self.tensors[name], list)):
            raise NnefError(e.loc, "tensor packs are indexed only by a compile-time item in compiled formulas")
        try:
            exprs = []
            for ix in e.indices:
                exprs.extend(self.idx.item(ix))
        except NnefError:
            return self.computed_access(e, value)
        bounded = [k for k, x in enumerate(exprs) if isinstance(x, GAff)]
        if any(not isinstance(x, Aff) for x in exprs):
            raise NnefError(e.loc, f"indices of '{unparse(e)}' are not integer-affine")
        if len(exprs) != len(value.shape):
            raise NnefError(e.loc, f"'{unparse(e)}' has {len(exprs)} indices for a rank-{len(value.shape)} tensor")
        if bounded:
            value, exprs = self.padded(e, value, exprs, bounded)
        for k, x in enumerate(exprs):
            if isinstance(x, RAff):
                value, exprs[k] = self.remapped(e, value, k, x)
        outside = [k for k, x in enumerate(exprs) if not isinstance(x, GAff) and (
            x.range(self.extents)[0] < 0 or x.range(self.extents)[1] >= value.shape[k])]
        if outside:
            # an access reaching outside the tensor, which the formula's condition selects away
            # (layout.pad's 'in range ? input[zi..] : value'; the draft leaves such reads
            # undefined): a zero-padded copy keeps the generic's reads in bounds
            value, exprs = self.padded(e, value, exprs, outside, fill=0)
        return self.operand(value, exprs)

    def computed_access(self, e: A.Access, value: Value):
        """A read at non-affine indices (computed.py): tensor.extract inside the generic; a
        guarded index out of range reads the reduction's null element (the term is skipped)."""
        items = index_items(self, e.indices)
        if len(items) != len(value.shape):
            raise NnefError(e.loc, f"'{unparse(e)}' has {len(items)} indices for a rank-{len(value.shape)} tensor")
        idx, guards = positions(self, items, value.shape)
        r = self.fresh()
        self.lines.append(f"      {r} = tensor.extract {value.ssa}[{', '.join(idx)}] : {value.type}")
        if not guards:
            return r, _elt(value.dtype)
        if self.pad_value is None:
            raise NnefError(e.loc, "a bounds-checked access is compiled only in a reducing formula "
                            "(+=, *=, <?=, >?=), where skipping equals reading the null element")
        ok = guards[0]
        for g in guards[1:]:
            ok = self.binop(e, "&&", (ok, "i1"), (g, "i1"))[0]
        return self.select(ok, (r, _elt(value.dtype)), self.const(self.pad_value, _elt(value.dtype)))

    def select(self, cond: str, a, b):
        r = self.fresh()
        self.lines.append(f"      {r} = arith.select {cond}, {a[0]}, {b[0]} : {a[1]}")
        return r, a[1]

    def cidx(self, c: int) -> str:
        s = self.fresh()
        self.lines.append(f"      {s} = arith.constant {int(c)} : index")
        return s

    def aff_i32(self, a: Aff):
        return self.aff_value(a)

    def aff_index(self, a: Aff) -> str:
        """An affine expression of the loop dimensions as an index value."""
        v = self.aff_value(a)
        if not isinstance(v, tuple):
            return self.cidx(v)
        s = self.fresh()
        self.lines.append(f"      {s} = arith.index_cast {v[0]} : i32 to index")
        return s

    def remapped(self, e, value: Value, axis: int, x: RAff):
        """A remapped-bounds read `|e <> lower : upper|` along `axis`: a copy extended over e's
        whole range, row j holding row remap(j), gathered with tosa.gather; e - (first row)
        then reads it affinely. A remap that still falls outside the tensor (e.g. REFLECT
        padding wider than the input) is a read the definition leaves undefined: an error."""
        lo, hi = x.range(self.extents)
        s = value.shape[axis]
        for j in {lo, hi} | ({-1, s} & set(range(lo, hi + 1))):     # each side is linear in j
            if not 0 <= x.remap(j, s) < s:
                raise NnefError(e.loc, f"remapped index {x.remap(j, s)} (from {j}) is outside the "
                                f"tensor's extent {s} in '{unparse(e)}'")
        rows = [x.remap(j, s) for j in range(lo, hi + 1)]
        plain = Aff(x.coefs, x.const)
        if rows == list(range(lo, hi + 1)):
            return value, plain
        em = self.em
        lead, trail = math.prod(value.shape[:axis]), math.prod(value.shape[axis + 1:])
        table = em.const(rows, [1, len(rows)], "int")
        if lead != 1:
            table = em.op("tosa.tile", [table, em.shape([lead, 1])], [lead, len(rows)], "int")
        flat = em.reshape(value, [lead, s, trail])
        got = em.op("tosa.gather", [flat, table], [lead, len(rows), trail], value.dtype)
        shape = list(value.shape)
        shape[axis] = len(rows)
        return em.reshape(got, shape), plain + Aff.constant(-lo)

    def padded(self, e, value: Value, exprs, bounded, fill=None):
        if fill is None and self.pad_value is None:
            raise NnefError(e.loc, "a bounds-checked access is compiled only in a reducing formula "
                            "(+=, *=, <?=, >?=), where skipping equals reading the null element")
        pads = [0] * (2 * len(exprs))
        new = list(exprs)
        for k in bounded:
            lo, hi = exprs[k].range(self.extents)
            before = max(0, -lo)
            after = max(0, hi - (value.shape[k] - 1))
            pads[2 * k], pads[2 * k + 1] = before, after
            new[k] = Aff(exprs[k].coefs, exprs[k].const) + Aff.constant(before)
        if not any(pads):
            return value, exprs
        shape = [n + pads[2 * k] + pads[2 * k + 1] for k, n in enumerate(value.shape)]
        fill = self.em.const([self.pad_value if fill is None else fill], [1], value.dtype)
        out = self.em.op("tosa.pad", [value, self.em.shape(pads), fill], shape, value.dtype)
        return out, new


def _mixed_radix(a: Aff, extents) -> list[int] | None:
    """The loop dims of an output index `c1*d1 + c2*d2 + ...` that enumerates the merged axis in
    row-major order (last coefficient 1, each coefficient the product of the later extents),
    outermost first; None otherwise."""
    if a.const != 0 or not a.coefs:
        return None
    terms = sorted(a.coefs, key=lambda kc: -kc[1])
    expect = 1
    for k, c in reversed(terms):
        if c != expect:
            return None
        expect *= extents[k]
    return [k for k, _ in terms]


def _empty(em: Emitter, out_type) -> Value:
    v = Value(em.fresh(), out_type.shape, out_type.dtype)
    em.lines.append(f"    {v.ssa} = tensor.empty() : {v.type}")
    return v


def _insert(em: Emitter, piece: Value, into: Value, offsets: list[int]) -> Value:
    res = Value(em.fresh(), into.shape, into.dtype)
    ones = ", ".join("1" for _ in offsets)
    em.lines.append(f"    {res.ssa} = tensor.insert_slice {piece.ssa} into {into.ssa}[{', '.join(map(str, offsets))}] "
                    f"[{', '.join(map(str, piece.shape))}] [{ones}] : {piece.type} into {into.type}")
    return res


def lower_node(em: Emitter, node, ins) -> list[Value]:
    op = node.definition
    env = node.instance.env
    if not op.lowerings:
        raise NnefError(node.loc, f"'{node.op}' has no TOSA mapping for these attributes and no @lower formulas")
    tensors = {}
    for p, v in zip(op.inputs, list(ins) + [None] * (len(op.inputs) - len(ins))):
        tensors[p.name] = v
    results: dict[tuple, Value] = {}       # (output, pack item or None) -> value
    out_types = {p.name: ([x.type for x in t] if isinstance(t, list) else t.type)
                 for p, t in zip(op.outputs, node.outputs)}
    params = {p.name: p for p in op.outputs}
    for low in op.lowerings:
        for name, item, item_env, piece in instances(low, env, out_types, tensors):
            out_type = out_types[name] if item is None else out_types[name][item]
            results[name, item] = _formula(em, item_env, piece, tensors, out_type, results.get((name, item)),
                                           param=params[name])
    outs = []
    for p in op.outputs:
        keys = [(p.name, k) for k in range(len(out_types[p.name]))] if isinstance(out_types[p.name], list) \
            else [(p.name, None)]
        missing = [k for k in keys if k not in results]
        if missing:
            raise NnefError(node.loc, f"the formulas of '{node.op}' do not assign output '{p.name}'"
                            + (f" item {missing[0][1]}" if missing[0][1] is not None else ""))
        outs.append([results[k] for k in keys] if isinstance(out_types[p.name], list) else results[keys[0]])
    return outs


def _walk(node):
    """Every syntax node below `node` (the AST dataclasses use slots)."""
    yield node
    for f in getattr(node, "__dataclass_fields__", {}):
        v = getattr(node, f, None)
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(x, tuple):
                for y in x:
                    yield from _walk(y)
            elif hasattr(x, "__dataclass_fields__"):
                yield from _walk(x)


def _pack_loop(low: A.Lowering, tensors) -> str | None:
    """The loop index that selects items of a tensor pack ('inputs[ni][...]', layout.concat),
    if any: such formulas are unrolled over the items (their bounds may differ per item)."""
    names = {n for n, _ in low.bounds}
    for node in _walk(low.value):
        if isinstance(node, A.Access) and isinstance(node.base, A.Index) and isinstance(node.base.base, A.Ident) \
                and isinstance(tensors.get(node.base.base.name), list) and isinstance(node.base.index, A.Ident) \
                and node.base.index.name in names:
            return node.base.index.name
    return None


def _data_dependent(low: A.Lowering, tensors) -> bool:
    """A formula reading a tensor at indices read from a tensor (layout.gather's
    `data[si.., index[ni..], ti..]`) is a generic with tensor.extract (computed.py), unless a
    guarded index in an '=' formula must skip the step: then scf loops (loops.py)."""
    if low.op != "=" or not any(isinstance(x, A.Bounded) for x in _walk(low.value)):
        return False
    for node in _walk(low.value):
        if isinstance(node, A.Access):
            for ix in node.indices:
                if any(isinstance(x, A.Access) or (isinstance(x, A.Index) and isinstance(x.base, A.Ident)
                                                   and x.base.name in tensors) for x in _walk(ix)):
                    return True
    return False


def _unrolled(em, env: Env, low: A.Lowering, tensors, out_type, init, name: str) -> Value:
    """One formula per item of the tensor pack: `name` becomes a compile-time value, so jagged
    bounds (`zi < u ?? z[ni]`) and per-item offsets (`offs[ni] + zi`) are constants, and each
    piece writes its part of the output (tensor.insert_slice)."""
    bound = dict(low.bounds)[name]
    try:
        n = env.eval(bound)
    except Unknown as u:
        raise NnefError(bound.loc, f"'{u.name}' is not known in the bound of '{name}'") from None
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 4096:
        raise NnefError(bound.loc, f"the tensor-pack loop '{name}' needs a compile-time count, got {n}")
    rest = [(i, b) for i, b in low.bounds if i != name]
    current = init
    for k in range(n):
        inner = Env(env.dtypes)
        inner.values = {**env.values, name: k}
        piece = A.Lowering(low.loc, low.target, low.op, low.value, rest, low.condition, low.locals, None)
        current = _formula(em, inner, piece, tensors, out_type, current, partial_ok=True)
    if current is None:
        raise NnefError(low.loc, "a tensor-pack loop over no items leaves the output undefined")
    return current


def _formula(em: Emitter, env: Env, low: A.Lowering, tensors, out_type, init: Value | None,
             partial_ok: bool = False, param: A.Param | None = None) -> Value:
    pack_loop = _pack_loop(low, tensors)
    if pack_loop is not None and low.condition is None and low.op == "=":
        return _unrolled(em, env, low, tensors, out_type, init, pack_loop)
    reducing = low.op != "="
    if low.op == "=" and init is not None and not partial_ok:
        raise NnefError(low.loc, "a second '=' formula for the same output")
    loop: dict[str, object] = {}
    extents: list[int] = []
    for iname, bound in low.bounds:
        try:
            b = env.eval(bound)
        except Unknown as u:
            raise NnefError(bound.loc, f"'{u.name}' is not known in the bound of '{iname}'") from None
        if isinstance(b, list):
            loop[iname] = [Aff.dim(len(extents) + k) for k in range(len(b))]
            extents.extend(b)
        else:
            loop[iname] = Aff.dim(len(extents))
            extents.append(b)
    if any(not isinstance(n, int) or n < 0 for n in extents):
        raise NnefError(low.loc, f"loop bounds must be non-negative integers, got {extents}")
    if None in out_type.shape:
        # a data-dependent extent (2.6.1): written at a counter symbol (counted.py)
        from tosa_xdsl.frontends.nnef.to_linalg.counted import counted_formula, counted_symbol
        if init is not None or param is None:
            raise NnefError(low.loc, "an output with a data-dependent extent takes one formula")
        return counted_formula(em, env, low, tensors, out_type, param, counted_symbol(low, env, out_type),
                               loop, extents)
    if low.condition is not None or low.op == ":=" or _data_dependent(low, tensors):
        from tosa_xdsl.frontends.nnef.to_linalg.loops import loop_formula
        return loop_formula(em, env, low, tensors, out_type, init, loop, extents)
    idx = Indexer(env, loop, dict(low.locals))
    # output indices: each a plain loop dimension, or the constant 0 of a kept (size-1) axis
    out_exprs = []
    for ix in low.target.indices:
        out_exprs.extend(Aff(x.coefs, x.const) if isinstance(x, Aff) else x for x in idx.item(ix))
    if len(out_exprs) != len(out_type.shape):
        raise NnefError(low.target.loc, f"the output access has {len(out_exprs)} indices for rank {len(out_type.shape)}")
    out_dims, reduced_shape = [], []
    offsets, tile = [], []        # a piece of an unrolled formula writes part of the output
    for a, n in zip(out_exprs, out_type.shape):
        if not isinstance(a, Aff):
            raise NnefError(low.target.loc, "output indices must be integer-affine")
        if a.is_const:
            if partial_ok and 0 <= a.const < n:
                offsets.append(a.const)
                tile.append(1)
                continue
            if a.const != 0 or n != 1:
                raise NnefError(low.target.loc, "constant output indices are compiled only for size-1 axes")
            offsets.append(0)
            tile.append(1)
            continue
        if partial_ok and len(a.coefs) == 1 and a.coefs[0][1] == 1 and a.const > 0:
            k = a.coefs[0][0]
            if a.const + extents[k] > n:
                raise NnefError(low.target.loc, f"output index '{a.text()}' reaches past the extent {n}")
            out_dims.append(k)
            reduced_shape.append(extents[k])
            offsets.append(a.const)
            tile.append(extents[k])
            continue
        dims = _mixed_radix(a, extents)
        if dims is None and low.op != "=" and not partial_ok:
            # an output position that sums loop indices (nn.deconv's `stride * i + j - offset`):
            # a reduction scattered into the output, compiled as loops (loops.py)
            from tosa_xdsl.frontends.nnef.to_linalg.loops import loop_formula
            return loop_formula(em, env, low, tensors, out_type, init, loop, extents)
        if dims is None:
            raise NnefError(low.target.loc, f"output index '{a.text()}' is neither a loop index nor a "
                            "row-major merge of loop indices (not compiled yet)")
        for k in dims:
            if k in out_dims:
                raise NnefError(low.target.loc, "a loop index appears twice in the output access")
            out_dims.append(k)
            reduced_shape.append(extents[k])
        covered = math.prod(extents[k] for k in dims)
        offsets.append(0)
        tile.append(covered)
        if covered != n and not (partial_ok and covered < n):
            raise NnefError(low.loc, f"loop bounds {[extents[k] for k in dims]} of an output axis do not "
                            f"cover its extent {n}")
    partial = tile != list(out_type.shape)
    if partial and (reducing or low.condition is not None):
        raise NnefError(low.loc, "a partial write of the output is compiled only for '=' formulas")
    if not partial and low.op == "=" and init is not None:
        raise NnefError(low.loc, "a second '=' formula for the same output")
    base = None
    if partial:
        base = init if init is not None else _empty(em, out_type)
        if 0 in tile:
            return base
        init = None
    red_dims = [k for k in range(len(extents)) if k not in out_dims]
    if red_dims and not reducing:
        raise NnefError(low.loc, "an index used only on the right-hand side needs a reducing assignment (+= ...)")
    t = _elt(out_type.dtype)
    pad_value = NULL.get(low.op)
    body = Body(em, env, idx, extents, tensors, pad_value, low.loc)
    body.locals = dict(low.locals)
    v = body.compile(low.value)
    if v is None:
        raise NnefError(low.value.loc, "the formula's value is null (resolve optional inputs with '??')")
    v = body.as_ssa(v, t)
    if v[1] != t:
        raise NnefError(low.value.loc, f"the formula computes {v[1]}, the output is {t}")
    # loop dimensions no operand determines get a shape-only operand (linalg infers loop ranges
    # from operand shapes)
    nd = len(extents)
    missing = [k for k in range(nd) if k not in body.dims_seen and k not in out_dims]
    if missing:
        probe = em.const([0], [extents[k] for k in missing], "bool")
        body.operand(probe, [Aff.dim(k) for k in missing])
    # the output operand
    if init is not None:
        outs = em.reshape(init, reduced_shape)
    elif reducing:
        outs = em.const([NULL[low.op]], reduced_shape, out_type.dtype)
    else:
        outs = Value(em.fresh(), reduced_shape, out_type.dtype)
        em.lines.append(f"    {outs.ssa} = tensor.empty() : {outs.type}")
    out_map = f"affine_map<({', '.join(f'd{k}' for k in range(nd))}) -> ({', '.join(f'd{k}' for k in out_dims)})>"
    lines = list(body.lines)
    if reducing:
        key = (low.op, t)
        if key not in REDUCE_OPS:
            raise NnefError(low.loc, f"'{low.op}' on {t} is not supported")
        lines.append(f"      %r = {REDUCE_OPS[key]} %acc, {v[0]} : {t}")
        yielded = "%r"
    else:
        yielded = v[0]
    iters = ", ".join('"reduction"' if k in red_dims else '"parallel"' for k in range(nd))
    maps = ", ".join([m for _, m in body.operands] + [out_map])
    ins_ssa = ", ".join(v.ssa for v, _ in body.operands)
    ins_types = ", ".join(v.type for v, _ in body.operands)
    bb_args = ", ".join([f"{a}: {ty}" for a, ty in body.args] + [f"%acc: {t}"])
    res = em.fresh()
    ins_clause = f"ins({ins_ssa} : {ins_types}) " if body.operands else ""
    em.lines.append(f"    {res} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}} "
                    f"{ins_clause}outs({outs.ssa} : {outs.type}) {{")
    em.lines.append(f"    ^bb0({bb_args}):")
    em.lines.extend(lines)
    em.lines.append(f"      linalg.yield {yielded} : {t}")
    em.lines.append(f"    }} -> {outs.type}")
    out = Value(res, reduced_shape, out_type.dtype)
    if partial:
        return _insert(em, em.reshape(out, tile), base, offsets)
    return em.reshape(out, out_type.shape)

"""The scalar side of a formula: its right-hand side compiled into the ops of a linalg.generic
body (or of an scf loop body, loops.py): literals and compile-time symbols as constants, loop
indices through linalg.index, arithmetic, comparisons, selects, casts and built-in functions in
arith/math, packs item by item (folds, loop-local packs), and the tables of the reducing
assignments' combining ops and null elements. Tensor reads are reads.py's."""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.semantics import BINARY, Env, Unknown, unparse
from tosa_xdsl.frontends.nnef.to_linalg.affine import Aff, GAff, Indexer
from tosa_xdsl.frontends.nnef.to_linalg.computed import pack_reads
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
    """The scalar region of one formula: block arguments, ops; tensor reads in subclasses."""

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
        # numbered by the emitter: unique in the function, so bodies of formulas emitted at
        # the top level (no loop indices) never clash with later ones
        self.em.n += 1
        return f"%s{self.em.n}"

    def const(self, v, t):
        s = self.fresh()
        self.lines.append(f"      {s} = arith.constant {_const_text(v, t)} : {t}")
        return s, t

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
        if isinstance(e, A.Access):
            reads = pack_reads(self, e)
            if reads is not None:
                return reads
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
        if op == "%" and t in ("f32", "i32"):
            # modulo of the rounding-down division '/' (as the compile-time evaluation): a -
            # floor(a / b) * b, the sign of b (arith.remf/remsi would take a's)
            q, m = self.fresh(), self.fresh()
            if t == "f32":
                d = self.fresh()
                self.lines += [f"      {d} = arith.divf {a[0]}, {b[0]} : f32", f"      {q} = math.floor {d} : f32",
                               f"      {m} = arith.mulf {q}, {b[0]} : f32", f"      {r} = arith.subf {a[0]}, {m} : f32"]
            else:
                self.lines += [f"      {q} = arith.floordivsi {a[0]}, {b[0]} : i32",
                               f"      {m} = arith.muli {q}, {b[0]} : i32", f"      {r} = arith.subi {a[0]}, {m} : i32"]
            return r, t
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
        if name in ("sinh", "cosh", "asinh", "acosh", "atanh") and t == "f32":
            return self.hyperbolic(e, name, v)
        if name in ("asin", "acos", "atan") and t == "f32":
            return self.inverse_trig(e, name, v)
        if name == "frac" and t == "f32":
            f, r = self.fresh(), self.fresh()
            self.lines += [f"      {f} = math.floor {s} : f32", f"      {r} = arith.subf {s}, {f} : f32"]
            return r, t
        raise NnefError(e.loc, f"function '{e.name}' on {t} is not supported in formulas")

    def hyperbolic(self, e: A.Call, name: str, x):
        """The hyperbolic functions and their inverses from exp, log and sqrt (the math
        dialect's sinh/cosh/asinh/acosh/atanh are not all run by our interpreter and LLVM
        lowering)."""
        def f(fn, v):
            return self.apply(e, fn, v)
        if name in ("sinh", "cosh"):
            r = self.binop(e, "-" if name == "sinh" else "+", f("exp", x), f("exp", self.binop(e, "-", 0.0, x)))
            return self.binop(e, "*", r, 0.5)
        if name in ("asinh", "acosh"):
            root = f("sqrt", self.binop(e, "+" if name == "asinh" else "-", self.binop(e, "*", x, x), 1.0))
            return f("log", self.binop(e, "+", x, root))
        ratio = self.binop(e, "/", self.binop(e, "+", 1.0, x), self.binop(e, "-", 1.0, x))
        return self.binop(e, "*", f("log", ratio), 0.5)

    def inverse_trig(self, e: A.Call, name: str, x):
        """asin, acos, atan from arithmetic, sqrt and selects (our interpreter and LLVM
        lowering run no math.asin/acos/atan): atan as Cephes' atanf (range reduction by
        tan(3pi/8) and tan(pi/8), a degree-9 odd polynomial; about 2 ulps in float32);
        asin(x) = atan(x / sqrt((1 - x)(1 + x))), acos(x) = 2 atan(sqrt((1 - x) / (1 + x)))
        (no cancellation near |x| = 1; |x| > 1 gives NaN through the sqrt, +-1 the infinities
        atan maps to +-pi/2)."""
        def b(op, p, q):
            return self.binop(e, op, p, q)
        if name == "asin":
            return self.inverse_trig(e, "atan", b("/", x, self.apply(e, "sqrt", b("*", b("-", 1.0, x), b("+", 1.0, x)))))
        if name == "acos":
            half = self.inverse_trig(e, "atan", self.apply(e, "sqrt", b("/", b("-", 1.0, x), b("+", 1.0, x))))
            return b("*", half, 2.0)
        a = self.apply(e, "abs", x)
        big, mid = b(">", a, 2.414213562373095), b(">", a, 0.4142135623730950)
        r = self.select(big[0], b("/", -1.0, a), self.select(mid[0], b("/", b("-", a, 1.0), b("+", a, 1.0)), a))
        y0 = self.select(big[0], self.const(math.pi / 2, "f32"),
                         self.select(mid[0], self.const(math.pi / 4, "f32"), self.const(0.0, "f32")))
        z = b("*", r, r)
        p = b("*", z, 8.05374449538e-2)
        for c in (-1.38776856032e-1, 1.99777106478e-1):
            p = b("*", b("+", p, c), z)
        p = b("+", p, -3.33329491539e-1)
        y = b("+", b("+", b("*", b("*", p, z), r), r), y0)
        # the sign of x, -0 included (1 / -0 = -inf): atan(-0) = -0
        neg = b("||", b("<", x, 0.0), b("<", b("/", 1.0, x), 0.0))
        return self.select(neg[0], b("*", y, -1.0), y)

    def select(self, cond: str, a, b):
        r = self.fresh()
        self.lines.append(f"      {r} = arith.select {cond}, {a[0]}, {b[0]} : {a[1]}")
        return r, a[1]

    def cidx(self, c: int) -> str:
        s = self.fresh()
        self.lines.append(f"      {s} = arith.constant {int(c)} : index")
        return s

    def tensor_shape(self, name: str):
        """The shape of a tensor the formula reads (None for a pack or an unknown name)."""
        value = self.tensors.get(name)
        return None if value is None or isinstance(value, list) else value.shape

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

"""Graph composition (draft chapter 3): a graph instantiated with its attributes becomes a
list of operator invocations with every attribute and tensor type known. Operators the
importer maps itself stay whole; a composite operator without a mapping is expanded from its
@compose block; an operator with only @lower formulas is kept for the formula compiler."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import Loc, NnefError
from tosa_xdsl.frontends.nnef.extents import Dyn, RunTimeExtent
from tosa_xdsl.frontends.nnef.modules import Library
from tosa_xdsl.frontends.nnef.semantics import (
    Env,
    Instance,
    TensorType,
    Unknown,
    _may_equal,
    constant_value,
    eval_shape,
    fmt_value,
    instantiate,
    unparse,
)


@dataclass
class Tensor:
    name: str
    type: TensorType
    value: object = None          # compile-time scalar/array for constants


@dataclass
class Node:
    op: str                        # qualified operator name "nn.conv"
    definition: A.Operator
    instance: Instance
    inputs: list                   # Tensor | None | list[Tensor]
    outputs: list[Tensor]
    loc: Loc
    branches: list | None = None   # dynamic branch: [(nodes, yielded tensors)] for then / else
    loop: tuple | None = None      # dynamic loop: (carried placeholders, cond nodes, cond tensor,
    #                                 body nodes, body tensors)
    quantizes: str | None = None   # a @quantize entry's node: the name of the tensor it quantizes


@dataclass
class Scoped:
    """A @quantize entry naming a tensor inside a labelled invocation (`label.tensor`), with
    the module and attributes of the block that wrote it."""
    entry: A.Quantization
    module: str
    env: object


@dataclass
class Graph:
    name: str
    inputs: list[Tensor]
    outputs: list[Tensor]
    variables: list[Tensor]
    nodes: list[Node] = field(default_factory=list)


MAX_NODES = 100_000
MAX_EXTENT = (1 << 63) - 1      # a given input extent must fit MLIR's int64 dims
MAX_RANK = 64                   # a graph input's packed extent (TOSA's level 8K allows rank 6)
TENSOR_TYPES = ("real", "int", "bool")


class Composer:
    def __init__(self, lib: Library, keep: callable, input_shapes: dict | None = None,
                 keep_quantized: callable | None = None):
        self.lib = lib
        # keep_quantized(qualified_name, attribute values, [input entry's attribute values],
        # [output entry's attribute values], [input shapes]) -> True to keep a composite whole
        # between tensors with @quantize entries (it has an integer form: to_tosa/integer.py)
        self.keep_quantized = keep_quantized
        self.entry_of: dict[int, dict] = {}     # id(quantized tensor) -> its entry's attribute values
        self.quantize: dict[str, A.Quantization | Scoped] = {}   # the current block's @quantize entries
        self.scoped: dict[str, dict[str, Scoped]] = {}  # label -> entries naming tensors inside its invocation
        self.keep = keep     # keep(qualified_name, op, instance, arg types) -> True to keep the invocation whole
        # graph input name -> a static shape for its run-time extents (else they stay `?`)
        self.input_shapes = dict(input_shapes or {})
        self.site: Loc | None = None     # the graph's invocation a composite is being expanded for
        self.symbol_bounds: dict[str, int] = {}     # graph input symbol -> its upper bound
        self.counter = 0

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}_{self.counter}"

    def graph(self, doc_module: str, op: A.Operator, attribs: dict) -> Graph:
        if op.compose is None:
            raise NnefError(op.loc, f"graph '{op.name}' has no @compose block")
        env = Env()
        for p in op.attribs:
            if p.name in attribs:
                env.values[p.name] = attribs[p.name]
            elif p.default is not None:
                env.values[p.name] = env.eval(p.default)
            elif p.type.optional:
                env.values[p.name] = None
            else:
                raise NnefError(p.loc, f"graph attribute '{p.name}' needs a value")
        unknown = set(attribs) - {p.name for p in op.attribs}
        if unknown:
            raise NnefError(op.loc, f"graph '{op.name}' has no attribute '{min(unknown)}'")
        tensors: dict[str, object] = {}
        g = Graph(op.name, [], [], [])
        self.main = g       # where invoked sub-graphs put their variables
        self.quantize, self.scoped = self.quantize_entries(op, doc_module, env)
        unknown = set(self.input_shapes) - {p.name for p in op.inputs}
        if unknown:
            raise NnefError(op.loc, f"graph '{op.name}' has no input '{min(unknown)}' (given a shape)")
        for p in op.inputs:
            t = Tensor(p.name, self.input_type(env, p, self.input_shapes.get(p.name)))
            tensors[p.name] = t
            g.inputs.append(t)
        for p in op.variables:
            t = Tensor(p.name, self.param_type(env, p))
            tensors[p.name] = t
            g.variables.append(t)
        for p in op.inputs + op.variables:
            self.quantized(doc_module, p.name, env, tensors, g)
        for p in op.constants:
            t = Tensor(p.name, self.param_type(env, p))
            t.value = constant_value(env, p, t.type.shape)
            tensors[p.name] = t
        self.components(doc_module, op.compose, env, tensors, g)
        for p in op.outputs:
            if p.name not in tensors:
                raise NnefError(p.loc, f"output '{p.name}' is not assigned in @compose")
            t = tensors[p.name]
            if isinstance(t, list):     # a graph's outputs are its function's results: tensors
                raise NnefError(p.loc, f"output '{p.name}' is a pack of {len(t)} tensors; a graph "
                                f"output must be one tensor (declare an output per item)")
            want = self.param_type(env, p, allow_missing=True)
            if want.shape is not None and not _may_equal(want.shape, t.type.shape):
                raise NnefError(p.loc, f"output '{p.name}' declared {fmt_value(want.shape)}, "
                                f"composed {fmt_value(t.type.shape)}")
            for k, (w, c) in enumerate(zip(want.shape or [], t.type.shape)):
                if isinstance(w, Dyn) and w.bound is not None and isinstance(c, int) and c > w.bound:
                    raise NnefError(p.loc, f"output '{p.name}' has extent {c} at axis {k}, above its upper "
                                    f"bound {w.bound}")
            g.outputs.append(t)
        return g

    def quantize_entries(self, op: A.Operator, module: str, env) -> tuple[dict, dict]:
        """@quantize (draft 2.14): tensor name -> the quantization operator binding, and label ->
        {name inside the labelled invocation -> entry} for names scoped by an explicit label
        (`conv1.t`, `block.conv1.t`), applied when that invocation is expanded (evaluated in
        this block's module and attributes)."""
        entries, scoped = {}, {}
        labels = {c.value.label for c in op.compose or [] if isinstance(c.value, A.Invocation) and c.value.label}
        for q in op.quantize:
            if "." in q.tensor:
                label, _, rest = q.tensor.partition(".")
                if label not in labels:
                    raise NnefError(q.loc, f"@quantize names '{q.tensor}', but no invocation in '{op.name}' "
                                    f"is labelled '{label}'")
                if rest in scoped.setdefault(label, {}):
                    raise NnefError(q.loc, f"tensor '{q.tensor}' is quantized twice")
                scoped[label][rest] = Scoped(q, module, env)
                continue
            if q.tensor in entries:
                raise NnefError(q.loc, f"tensor '{q.tensor}' is quantized twice")
            entries[q.tensor] = q
        known = {p.name for p in op.inputs + op.outputs + op.variables + op.constants}
        known |= {r.name for c in op.compose or [] for r in c.results if isinstance(r, A.Result) and r.name}
        for name, q in entries.items():
            if name not in known:
                raise NnefError(q.loc, f"@quantize names '{name}', which '{op.name}' does not declare")
        return entries, scoped

    def scoped_entries(self, op: A.Operator, label: str | None, qname: str, mod: str, env) -> tuple[dict, dict]:
        """The entries of an expanded composite: its own block's, plus the outer block's
        entries scoped by the invocation's label (one level consumed, deeper ones passed on)."""
        entries, scoped = self.quantize_entries(op, mod, env)
        known = {p.name for p in op.inputs + op.outputs + op.constants}
        known |= {r.name for c in op.compose or [] for r in c.results if isinstance(r, A.Result) and r.name}
        labels = {c.value.label for c in op.compose or [] if isinstance(c.value, A.Invocation) and c.value.label}
        for rest, sq in (self.scoped.get(label, {}) if label else {}).items():
            head, dot, tail = rest.partition(".")
            if dot and head in labels:
                scoped.setdefault(head, {})[tail] = sq
            elif dot or rest not in known:
                raise NnefError(sq.entry.loc, f"@quantize names '{label}.{rest}', which '{qname}' does not declare")
            elif rest in entries:
                raise NnefError(sq.entry.loc, f"tensor '{rest}' of '{qname}' is quantized twice")
            else:
                entries[rest] = sq
        return entries, scoped

    def quantized(self, module, name: str, env, tensors: dict, g: Graph):
        """A tensor with quantization info is replaced, where it is defined, by its quantized
        value: the quantization operator (one input, one output) invoked on it."""
        q = self.quantize.get(name)
        if q is None or name not in tensors:
            return
        if isinstance(q, Scoped):       # an outer block's `label.name` entry: its module and attributes
            q, module, env = q.entry, q.module, q.env
        hidden = f"{name} (before quantization)"
        tensors[hidden] = tensors[name]
        inv = q.invocation
        call = A.Invocation(inv.loc, None, inv.name, inv.types, inv.attribs, [A.Ident(q.loc, hidden)])
        outs = self.invoke(module, call, env, tensors, g, [name])
        if g.nodes and len(outs) == 1 and g.nodes[-1].outputs[0] is outs[0]:
            g.nodes[-1].quantizes = name
            if g.nodes[-1].op == "quant.zero_point_linear_quantize":
                self.entry_of[id(outs[0])] = g.nodes[-1].instance.env.values
        del tensors[hidden]
        if len(outs) != 1:
            raise NnefError(inv.loc, f"a quantization operator must have one output; '{inv.name}' has {len(outs)}")
        t = outs[0]
        before = tensors[name]
        if not isinstance(before, Tensor) or t.type.shape != before.type.shape or t.type.dtype != before.type.dtype:
            raise NnefError(inv.loc, f"'{inv.name}' does not map '{name}' to a tensor of its own type")
        tensors[name] = t

    def input_type(self, env: Env, p: A.Param, given: list | None) -> TensorType:
        """A graph input's type (2.6.1): an extent with an upper bound (`s|10`, `~|10`) is known
        only at run time, a Dyn (`?` in the signature) whose symbol `s` later inputs and the
        output shapes may use; `given` (the importer's input_shapes) fixes such extents
        instead, each checked against its bound and the symbol's other uses."""
        spec = p.type
        if spec.name not in TENSOR_TYPES:
            return self.param_type(env, p)
        if spec.shape is None:
            raise NnefError(p.loc, f"'{p.name}' needs a shape")
        if spec.packed or any(x.spread for x in spec.shape):
            # a function argument is one tensor (the outputs say the same)
            raise NnefError(p.loc, f"graph input '{p.name}' is a pack of tensors; a graph input must be one "
                            f"tensor (declare an input per item)")
        axes, packs = self.input_axes(env, p)
        if given is not None and len(given) != len(axes):
            raise NnefError(p.loc, f"input '{p.name}' has rank {len(axes)}, the given shape "
                            f"{fmt_value(list(given))} has rank {len(given)}")
        shape = []
        for k, (x, fixed) in enumerate(axes):
            symbol = x.expr.name if isinstance(x.expr, A.Ident) else None
            try:
                if fixed is not None:
                    d = fixed
                elif x.bound is None and (x.expr is None or isinstance(x.expr, A.Tilde)):
                    # `~` without a bound: the draft asks the main graph for one (2.6.1), Khronos'
                    # v2.0 writer omits it (an ONNX dim_param); the import needs none
                    d = Dyn(("input", f"{p.name}[{k}]"), None, "?")
                    if given is not None:
                        d = given[k]
                        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= MAX_EXTENT:
                            raise NnefError(p.loc, f"input '{p.name}': invalid extent {fmt_value(d)} (axis {k})")
                elif x.bound is None:
                    d = env.eval(x.expr)
                else:
                    bound = env.eval(x.bound)
                    if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
                        raise NnefError(x.bound.loc, f"the upper bound of '{p.name}' must be a non-negative "
                                        f"int, got {fmt_value(bound)}")
                    if symbol is not None and env.known(symbol):
                        d = env.values[symbol]
                        have = self.symbol_bounds.get(symbol)
                        if have is not None and have != bound:
                            raise NnefError(x.bound.loc, f"'{symbol}' has upper bound {fmt_value(have)} "
                                            f"elsewhere, {bound} here")
                    elif symbol is None and x.expr is not None and not isinstance(x.expr, A.Tilde):
                        raise NnefError(x.loc, "an extent with an upper bound is a new symbol or '~'")
                    else:
                        d = Dyn(("input", symbol or f"{p.name}[{k}]"), bound, symbol or "?")
                        if given is not None:
                            d = given[k]
                            if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= bound:
                                raise NnefError(p.loc, f"input '{p.name}': the given extent {fmt_value(d)} "
                                                f"(axis {k}) is outside 0..{bound}")
                        if symbol is not None:
                            env.values[symbol] = d
                            self.symbol_bounds[symbol] = bound
            except Unknown as u:
                raise NnefError(p.loc, f"undefined identifier '{u.name}' in the shape of '{p.name}'") from None
            if given is not None and isinstance(d, Dyn):
                d = given[k]        # a symbol another input left at run time: this one is fixed
                limit = self.symbol_bounds.get(symbol or "")
                if limit is not None and isinstance(d, int) and not 0 <= d <= limit:
                    raise NnefError(p.loc, f"input '{p.name}': the given extent {fmt_value(d)} (axis {k}) is "
                                    f"outside 0..{limit}")
            if given is not None and d != given[k]:
                raise NnefError(p.loc, f"input '{p.name}': the given shape {fmt_value(list(given))} differs "
                                f"from the declared one at axis {k} ({fmt_value(d)})")
            if not isinstance(d, (int, Dyn)) or isinstance(d, bool) or isinstance(d, int) and d < 0:
                raise NnefError(x.loc, f"invalid extent {fmt_value(d)} of '{p.name}'")
            shape.append(d)
        for name, count in packs:      # the items of a packed symbol: the pack `s`
            env.values[name] = [env.values.pop(f"{name}[{j}]") for j in range(count)]
            bounds = {self.symbol_bounds.pop(f"{name}[{j}]", None) for j in range(count)} - {None}
            if bounds:
                self.symbol_bounds[name] = bounds.pop()
        return TensorType(spec.name, shape)

    def input_axes(self, env: Env, p: A.Param) -> tuple[list, list]:
        """The axes of a graph input's shape: (extent, None) for an extent input_type binds,
        (extent, value) for one an evaluated packed extent gives (`s..` of an earlier input,
        `3..(2)`). A packed extent with an upper bound (2.6.1: `x: real[s|10 ..(3)]` or
        `real[~|10 ..(3)]` is "a dynamic input of rank 3 with upper bound 10 for each
        component") gives one bounded axis per component, `s` an item symbol `s[j]` each,
        collected into the pack `s` afterwards: packs lists those (name, length)."""
        axes, packs = [], []
        try:
            for x in p.type.shape:
                if not isinstance(x.expr, A.Expand):
                    axes.append((x, None))
                elif x.bound is None:
                    axes += [(x, d) for d in eval_shape(env, [x], p.loc)]
                else:
                    item = x.expr.item
                    if x.expr.count is None:
                        raise NnefError(x.loc, f"the packed extent of '{p.name}' needs a length '..(n)' "
                                        "(the rank of a graph input is a compile-time value)")
                    count = env.eval(x.expr.count)
                    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_RANK:
                        raise NnefError(x.expr.count.loc, f"the length of a packed extent of '{p.name}' must be "
                                        f"an int in 0..{MAX_RANK}, got {fmt_value(count)}")
                    if isinstance(item, A.Tilde):
                        axes += [(A.Extent(x.loc, item, x.bound, False), None)] * count
                        continue
                    if not isinstance(item, A.Ident):
                        raise NnefError(x.loc, "an extent with an upper bound is a new symbol or '~'")
                    if env.known(item.name):
                        have = env.values[item.name]
                        if not isinstance(have, list) or len(have) != count:
                            raise NnefError(x.loc, f"'{item.name}' is {fmt_value(have)} elsewhere, here a pack of "
                                            f"{count} extents")
                        for j, d in enumerate(have):
                            env.values[f"{item.name}[{j}]"] = d
                            if item.name in self.symbol_bounds:
                                self.symbol_bounds[f"{item.name}[{j}]"] = self.symbol_bounds[item.name]
                    packs.append((item.name, count))
                    axes += [(A.Extent(x.loc, A.Ident(item.loc, f"{item.name}[{j}]"), x.bound, False), None)
                             for j in range(count)]
        except Unknown as u:
            raise NnefError(p.loc, f"undefined identifier '{u.name}' in the shape of '{p.name}'") from None
        return axes, packs

    def whole_between_quantized(self, module, qname, inst, args, types, env, names) -> bool:
        """A composite whose tensor inputs are quantized and whose results have @quantize
        entries (zero_point_linear_quantize) in this block, when keep_quantized takes it."""
        if self.keep_quantized is None or any(isinstance(a, list) for a in args):
            return False
        ins = [a for a in args if a is not None]
        if not ins or any(id(a) not in self.entry_of for a in ins) or len(names) < len(inst.outputs):
            return False
        outs = []
        for name in names[:len(inst.outputs)]:
            entry = self.quantize.get(name) if name else None
            if entry is None:
                return False
            where, scope = module, env
            if isinstance(entry, Scoped):
                entry, where, scope = entry.entry, entry.module, entry.env
            try:
                if self.lib.lookup(entry.invocation.name, where, entry.loc)[0] != "quant.zero_point_linear_quantize":
                    return False
                outs.append({k: scope.eval(e) for k, e in entry.invocation.attribs})
            except (NnefError, Unknown):
                return False        # reported where the entry is invoked
        return self.keep_quantized(qname, inst.env.values, [self.entry_of[id(a)] for a in ins], outs,
                                   [t.shape for t in types if t is not None])

    def param_type(self, env: Env, p: A.Param, allow_missing=False) -> TensorType:
        if p.type.name not in TENSOR_TYPES:
            raise NnefError(p.type.loc, f"'{p.name}' has type '{p.type.name}'; graph tensors are "
                            f"{', '.join(TENSOR_TYPES)}")
        if p.type.shape is None and not allow_missing:
            raise NnefError(p.loc, f"'{p.name}' needs a shape")
        for x in p.type.shape or []:
            # dynamic extents (2.6.1): the importer instantiates at the upper bound; a `~`
            # needs one
            if x.expr is None and x.bound is None:
                if allow_missing:
                    return TensorType(p.type.name, None)
                raise NnefError(x.loc, f"'{p.name}' has an extent without size or upper bound")
        try:
            if p.type.shape is None:
                return TensorType(p.type.name, None)
            shape = []
            for x in p.type.shape:
                at = _at_bound(env, x)
                dims = eval_shape(env, [A.Extent(x.loc, at, None, x.spread)], p.loc)
                if allow_missing and at is not x.expr:
                    # a declared output's `~|6` / `t|6` (2.6.1): any extent up to the bound,
                    # static or not (a given input shape makes it static)
                    dims = [Dyn(bound=d) for d in dims]
                shape += dims
        except Unknown as u:
            raise NnefError(p.loc, f"undefined identifier '{u.name}' in the shape of '{p.name}'") from None
        return TensorType(p.type.name, shape)

    def components(self, module, comps, env: Env, tensors: dict, g: Graph):
        for c in comps:
            self.component(module, c, env, tensors, g)

    def arg(self, e, env, tensors, loc):
        if e is None:
            return None
        if isinstance(e, A.Ident) and e.name in tensors:
            return tensors[e.name]
        if isinstance(e, A.ListExpr) and all(isinstance(i, A.Ident) and i.name in tensors for i in e.items):
            return [tensors[i.name] for i in e.items]
        if isinstance(e, A.Index) and isinstance(e.base, A.Ident) and isinstance(tensors.get(e.base.name), list):
            return self.pack_items(e, env, tensors[e.base.name])
        try:
            v = env.eval(e)
        except Unknown as u:
            raise NnefError(e.loc, f"undefined tensor or identifier '{u.name}'") from None
        except RunTimeExtent as err:
            raise NnefError(self.site or e.loc, f"'{unparse(e)}': {err}") from None
        if v is None:
            return None
        if isinstance(v, Dyn):
            where = self.site or e.loc
            note = f"\n{e.loc}: note: computed here" if self.site is not None else ""
            raise NnefError(where, f"'{unparse(e)}' is an extent known only at run time ({v!r}); as a tensor value "
                            "it would be a run-time shape expression (draft 3.1), which TOSA 1.0.1 has no "
                            f"operator to compute{note}")
        if isinstance(v, list):
            raise NnefError(e.loc, "a pack argument must be a list of tensors")
        if isinstance(v, str):
            raise NnefError(e.loc, "a string cannot be a tensor argument")
        dtype = "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "real"
        t = Tensor(self.fresh("const"), TensorType(dtype, []), v)
        return t

    def pack_items(self, e: A.Index, env, pack: list):
        """`bs[i]`, `bs[i:j]`, `bs[mask]` of a pack of tensors: the index is evaluated as it
        would be on a pack of values (2.3), on the items' positions, so every indexing form
        means what it means for values."""
        positions = A.ListExpr(e.loc, [A.Literal(e.loc, k, "int") for k in range(len(pack))])
        try:
            picked = env.eval(A.Index(e.loc, positions, e.index))
        except Unknown as u:
            raise NnefError(e.loc, f"undefined tensor or identifier '{u.name}'") from None
        except RunTimeExtent as err:
            raise NnefError(self.site or e.loc, f"'{unparse(e)}': {err}") from None
        if isinstance(picked, list):
            return [pack[k] for k in picked]
        return pack[picked]

    def component(self, module, c: A.Component, env, tensors, g):
        value = c.value
        if isinstance(value, A.Branch):
            value = self.static_branch(value, env, tensors)
            if isinstance(value, A.Branch):
                self.dynamic_branch(module, c, value, env, tensors, g)
                return
        results = list(c.results)
        names = [None if isinstance(r, A.ResultList) else r.name for r in results]
        if isinstance(value, A.Loop):
            vals = self.loop(module, value, env, tensors, g)
        else:
            vals = self.callable_values(module, value, env, tensors, g, names)
        if len(vals) < len(results) or (not isinstance(value, A.Invocation) and len(vals) != len(results)):
            raise NnefError(c.loc, f"{len(results)} results for {len(vals)} values")
        for r, v in zip(results, vals):
            for name, item in self.bind_result(r, v, env):
                tensors[name] = item
                if not isinstance(item, list):
                    self.quantized(module, name, env, tensors, g)

    def bind_result(self, r, v, env) -> list:
        """(name, tensor or pack of tensors) pairs of one result: `a`, a pack `a..(n)`, or a
        result list `[b, c..(k)]` taking the items of a packed result in order (2.10)."""
        if isinstance(r, A.ResultList):
            if not isinstance(v, list):
                raise NnefError(r.loc, "a result list needs a packed result")
            out, rest = [], list(v)
            for k, item in enumerate(r.items):
                if item.packed:
                    n = len(rest) - (len(r.items) - k - 1) if item.count is None else self.count(item, env)
                    take, rest = rest[:n], rest[n:]
                    out.append((item.name, take))
                    if len(take) != n:
                        raise NnefError(item.loc, f"the packed result has {len(v)} items, too few for the list")
                else:
                    if not rest:
                        raise NnefError(item.loc, f"the packed result has {len(v)} items, too few for the list")
                    out.append((item.name, rest.pop(0)))
            if rest:
                raise NnefError(r.loc, f"the packed result has {len(v)} items, more than the list takes")
            return [(n, x) for n, x in out if n is not None]
        # the draft asks packed results to be marked `a..(n)`; an unmarked name binding a pack
        # (a scan loop's result, as the draft's own examples write it) is accepted
        if r.packed and not isinstance(v, list):
            raise NnefError(r.loc, f"result '{r.name}' is declared packed ('..'), the value is not a pack")
        if r.packed and r.count is not None and self.count(r, env) != len(v):
            raise NnefError(r.loc, f"the packed result has {len(v)} items, declared {self.count(r, env)}")
        return [] if r.name is None else [(r.name, v)]

    @staticmethod
    def count(r, env) -> int:
        try:
            n = env.eval(r.count)
        except Unknown as u:
            raise NnefError(r.count.loc, f"undefined identifier '{u.name}' in the pack length") from None
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise NnefError(r.count.loc, f"a pack length must be a non-negative int, got {n!r}")
        return n

    def static_branch(self, b: A.Branch, env, tensors):
        """The taken alternative when the conditions are compile-time values; else b itself."""
        for cond, cons in zip(b.conditions, b.consequents):
            if not (isinstance(cond, A.Region) and not cond.components and len(cond.yields) == 1):
                return b
            y = cond.yields[0]
            if isinstance(y, A.Ident) and y.name in tensors:
                return b
            try:
                cv = env.eval(y)
            except Unknown as u:
                raise NnefError(cond.loc, f"undefined identifier '{u.name}' in the branch condition") from None
            if cv:
                return cons
        return b.alternative

    def dynamic_branch(self, module, c: A.Component, b: A.Branch, env, tensors, g):
        """A tensor condition: both alternatives composed into sub-graphs of a cond_if node."""
        if len(b.conditions) != 1:
            # elif: the else branch is itself a branch on the next condition
            inner = A.Branch(b.loc, b.conditions[1:], b.consequents[1:], b.alternative)
            b = A.Branch(b.loc, b.conditions[:1], b.consequents[:1],
                         A.Region(b.loc, None, [A.Component(b.loc, c.results, inner)],
                                  [A.Ident(r.loc, r.name) for r in c.results]))
            if any(r.name is None for r in c.results if isinstance(r, A.Result)):
                raise NnefError(b.loc, "'~' results of an elif chain are not supported")
        conds = self.callable_values(module, b.conditions[0], env, tensors, g, [])
        if len(conds) != 1 or not isinstance(conds[0], Tensor) or conds[0].type.dtype != "bool" \
                or math.prod(conds[0].type.shape) != 1:
            raise NnefError(b.loc, "a branch condition must be one bool tensor of volume 1")
        branches = []
        types = None
        for alt in (b.consequents[0], b.alternative):
            sub = Graph(g.name, [], [], [])
            vals = self.callable_values(module, alt, env, dict(tensors), sub, [])
            if any(not isinstance(v, Tensor) for v in vals):
                raise NnefError(b.loc, "branches must yield tensors")
            t = [(v.type.dtype, v.type.shape) for v in vals]
            if types is not None and t != types:
                raise NnefError(b.loc, f"the branches yield different types: {types} vs {t}")
            types = t
            branches.append((sub.nodes, vals))
        results = [r for r in c.results if isinstance(r, A.Result)]
        if len(results) != len(types):
            raise NnefError(c.loc, f"{len(results)} results for {len(types)} values")
        outs = [Tensor(self.fresh(r.name or "branch"), TensorType(dt, list(sh))) for r, (dt, sh) in zip(results, types)]
        g.nodes.append(Node("if", None, None, [conds[0]], outs, b.loc, branches))
        for r, t in zip(results, outs):
            if r.name is not None:
                tensors[r.name] = t
                self.quantized(module, r.name, env, tensors, g)     # its @quantize entry, as any result's

    def loop_inits(self, L: A.Loop, env, tensors) -> list:
        """The initial tensors of a data-dependent loop's variables; a constant initial value
        takes the shape the variable declares."""
        inits = []
        for res, e in L.carries:
            v = self.arg(e, env, tensors, e.loc)
            if not isinstance(v, Tensor):
                raise NnefError(e.loc, f"loop variable '{res.name}' needs a tensor initial value")
            if res.type is not None and res.type.shape is not None and v.value is not None:
                v = Tensor(self.fresh(res.name), TensorType(res.type.name, eval_shape(env, res.type.shape, res.loc)),
                           v.value)
            inits.append(v)
        return inits

    def dynamic_loop(self, module, L: A.Loop, env, tensors, g) -> list:
        """A loop whose end depends on tensor data (a `while` condition or a tensor trip count):
        a tosa.while_loop node; its condition and body are composed as sub-graphs over
        placeholders for the loop-carried tensors (plus a counter for `..(i -> n)`)."""
        if L.scans:
            return self.guarded_scan_loop(module, L, env, tensors, g)
        inits = self.loop_inits(L, env, tensors)
        names = [res.name for res, _ in L.carries]
        count = None
        if L.count is not None:
            count = self.arg(L.count, env, tensors, L.count.loc)
            if not isinstance(count, Tensor) or count.type.dtype != "int" or count.type.shape not in ([], [1]):
                raise NnefError(L.count.loc, "an iteration count must be an int scalar")
        do_while = not L.pretest and L.condition is not None
        if count is not None or L.index is not None or do_while:
            inits.append(Tensor(self.fresh("iter"), TensorType("int", []), 0))
            names.append(L.index or self.fresh("iter"))
        placeholders = [Tensor(self.fresh(n), v.type) for n, v in zip(names, inits)]

        def scope():
            local = dict(tensors)
            for n, p in zip(names, placeholders):
                local[n] = p
            return local

        def sub_call(callable_, sub=None):
            sub = sub or Graph(g.name, [], [], [])
            vals = self.callable_values(module, callable_, env, scope(), sub, [])
            return sub.nodes, vals

        cond_nodes, cond_val = [], None
        if L.condition is not None:
            cond_graph = Graph(g.name, [], [], [])
            cond_nodes, vals = sub_call(L.condition, cond_graph)
            if len(vals) != 1 or not isinstance(vals[0], Tensor) or vals[0].type.dtype != "bool" \
                    or math.prod(vals[0].type.shape) != 1:
                raise NnefError(L.loc, "a loop condition must be one bool tensor of volume 1")
            cond_val = vals[0]
            if do_while:
                # do-while: the condition is tested after each step, so the first step (counter 0)
                # runs on it untested; a count still bounds every step, the first included
                k0 = len(L.carries)
                first = self.math_op("eq", placeholders[k0], Tensor(self.fresh("zero"), TensorType("int", []), 0),
                                     env, cond_graph, L.loc)
                cond_val = self.math_op("or", cond_val, first, env, cond_graph, L.loc)
        body_nodes, body_vals = sub_call(L.body)
        k = len(L.carries)
        if len(body_vals) != k:
            raise NnefError(L.loc, f"the loop body yields {len(body_vals)} values for {k} loop variables: "
                            + RUN_TIME_SCAN_OUTPUTS)
        for v, p in zip(body_vals, placeholders):
            if not isinstance(v, Tensor) or (v.type.dtype, v.type.shape) != (p.type.dtype, p.type.shape):
                raise NnefError(L.loc, "a loop variable changes its type or shape in the body")
        outs = [Tensor(self.fresh(n), p.type) for n, p in zip(names, placeholders)]
        counter = (placeholders[k], count) if len(placeholders) > k else None
        g.nodes.append(Node("while", None, None, list(inits), outs, L.loc,
                            loop=(placeholders, cond_nodes, cond_val, body_nodes, list(body_vals), counter)))
        return outs[:k]

    def math_op(self, op: str, a: Tensor, b: Tensor, env, g, loc) -> Tensor:
        """`math.<op>(a, b)` of the standard library (looked up from its own module, so the
        document need not import it) appended to g: the stop tests loops compose."""
        inv = A.Invocation(loc, None, f"math.{op}", [], [], [A.Ident(loc, "a"), A.Ident(loc, "b")])
        return self.invoke("math", inv, env, {"a": a, "b": b}, g, [])[0]

    def guarded_scan_loop(self, module, L: A.Loop, env, tensors, g) -> list:
        """Scan inputs in a loop that a tensor trip count or a `while` condition may stop early.
        The scan inputs' length n is a compile-time bound on the trip count (2.10.1, "Iteration
        count and iteration index": a dynamic count allows "a partial iteration over the scan
        inputs (whose lengths are fixed in compile-time)"; with a condition the loop stops at
        "either the iteration index reaching the iteration count or the condition becoming
        false"): unrolled over the n items, step `it` a tosa.cond_if on "every step so far ran,
        it < count and the condition holds" whose else region passes the loop variables on
        (a count above n is a run-time error: scan_count_check).
        Scan outputs would be packs whose length is the run-time trip count: refused."""
        scans = []
        for name, e in L.scans:
            pack = self.arg(e, env, tensors, e.loc)
            if not isinstance(pack, list):
                raise NnefError(e.loc, f"scan input of '{name}' must be a pack of tensors")
            scans.append((name, pack))
        lengths = {len(p) for _, p in scans}
        if len(lengths) > 1:
            raise NnefError(L.loc, f"scan inputs differ in length: {sorted(lengths)}")
        n = lengths.pop()
        carried = self.loop_inits(L, env, tensors)
        count = None
        if L.count is not None:
            count = self.arg(L.count, env, tensors, L.count.loc)
            if not isinstance(count, Tensor) or count.type.dtype != "int" or count.type.shape not in ([], [1]):
                raise NnefError(L.count.loc, "an iteration count must be an int scalar")
            carried = self.scan_count_check(count, n, carried, L.loc, g)

        def logical(op, a, b):
            return self.math_op(op, a, b, env, g, L.loc)

        def scope(it):
            local = dict(tensors)
            for (res, _), v in zip(L.carries, carried):
                local[res.name] = v
            for name, pack in scans:
                local[name] = pack[it]
            if L.index is not None:
                local[L.index] = Tensor(self.fresh(L.index), TensorType("int", []), it)
            return local

        k = len(carried)
        active = None       # None: every step so far runs unconditionally
        for it in range(n):
            step = None
            if count is not None:
                step = logical("gt", count, Tensor(self.fresh("iter"), TensorType("int", []), it))
            if L.condition is not None and (L.pretest or it > 0):
                vals = self.callable_values(module, L.condition, env, scope(it), g, [])
                if len(vals) != 1 or not isinstance(vals[0], Tensor) or vals[0].type.dtype != "bool" \
                        or math.prod(vals[0].type.shape) != 1:
                    raise NnefError(L.loc, "a loop condition must be one bool tensor of volume 1")
                step = vals[0] if step is None else logical("and", step, vals[0])
            if step is not None:
                active = step if active is None else logical("and", active, step)
            sub = Graph(g.name, [], [], []) if active is not None else g
            vals = self.callable_values(module, L.body, env, scope(it), sub, [])
            if len(vals) != k:
                raise NnefError(L.loc, f"the loop body yields {len(vals)} values for {k} loop variables: "
                                + RUN_TIME_SCAN_OUTPUTS)
            for v, c in zip(vals, carried):
                if not isinstance(v, Tensor) or (v.type.dtype, v.type.shape) != (c.type.dtype, c.type.shape):
                    raise NnefError(L.loc, "a loop variable changes its type or shape in the body")
            if active is None:
                carried = list(vals)
                continue
            outs = [Tensor(self.fresh(res.name), c.type) for (res, _), c in zip(L.carries, carried)]
            g.nodes.append(Node("if", None, None, [active], outs, L.loc, [(sub.nodes, list(vals)), ([], carried)]))
            carried = outs
        return carried

    def scan_count_check(self, count: Tensor, n: int, carried: list, loc: Loc, g: Graph) -> list:
        """The run-time check that a tensor trip count does not exceed its scan inputs' length
        n (2.10.1: "the length of the scan inputs **must** be an upper bound for the dynamic
        value of the loop count"; a larger count makes the document invalid, 1.3 "must":
        consumers are advised to give an error). A SCAN_COUNT_CHECK node (importer.py emits it)
        passing the loop variables' initial tensors through, so the steps that follow depend on it."""
        outs = [Tensor(self.fresh("checked"), c.type) for c in carried]
        bound = Tensor(self.fresh("scan_length"), TensorType("int", []), n)
        g.nodes.append(Node(SCAN_COUNT_CHECK, None, None, [count, bound] + list(carried), outs, loc))
        return outs

    def sub_graph_variables(self, op: A.Operator, inv: A.Invocation, env: Env, inner: dict):
        """An invoked graph's variables (2.11: a graph is its own name scope, rooted at its name
        or at the invocation's explicit label) are variables of the main graph named
        `<scope>.<name>` (data file `main.<Graph>.<scope>.<name>.dat`); invocations in the same
        scope share them."""
        scope = inv.label or op.name
        known = {t.name: t for t in self.main.variables}
        for p in op.variables:
            name = f"{scope}.{p.name}"
            t = known.get(name)
            ty = self.param_type(env, p)
            if t is None:
                t = Tensor(name, ty)
                self.main.variables.append(t)
            elif (t.type.dtype, t.type.shape) != (ty.dtype, ty.shape):
                raise NnefError(inv.loc, f"variable '{name}' has type {ty.dtype}{ty.shape} here and "
                                f"{t.type.dtype}{t.type.shape} in another invocation of its scope")
            inner[p.name] = t

    def callable_values(self, module, value, env, tensors, g, names) -> list:
        if isinstance(value, A.Region):
            if value.components:
                inner = dict(tensors)
                self.components(module, value.components, env, inner, g)
                return [self.arg(y, env, inner, y.loc) for y in value.yields]
            return [self.arg(y, env, tensors, y.loc) for y in value.yields]
        return self.invoke(module, value, env, tensors, g, names)

    def loop(self, module, L: A.Loop, env, tensors, g) -> list:
        """Loops with a compile-time trip count (scans over packs, a constant `..(n)`) are
        unrolled (2.10.1: `unroll` and `do` compute the same); loop-carried tensors are
        renamed per step, scan outputs collected into packs."""
        dynamic_count = L.count is not None and isinstance(L.count, A.Ident) and L.count.name in tensors
        if L.condition is not None or dynamic_count:
            return self.dynamic_loop(module, L, env, tensors, g)
        scans = []
        for name, e in L.scans:
            pack = self.arg(e, env, tensors, e.loc)
            if not isinstance(pack, list):
                raise NnefError(e.loc, f"scan input of '{name}' must be a pack of tensors")
            scans.append((name, pack))
        count = None
        if L.count is not None:
            try:
                count = env.eval(L.count)
            except Unknown as u:
                raise NnefError(L.count.loc, f"iteration count uses '{u.name}', not a compile-time value") from None
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 4096:
                raise NnefError(L.count.loc, f"iteration count must be an int in [0, 4096], got {count!r}")
        lengths = {len(p) for _, p in scans}
        if len(lengths) > 1:
            raise NnefError(L.loc, f"scan inputs differ in length: {sorted(lengths)}")
        if scans:
            n = lengths.pop()
            if count is not None and count > n:
                raise NnefError(L.loc, f"iteration count {count} exceeds the scan length {n}")
            count = n if count is None else count
        if count is None:
            raise NnefError(L.loc, "the loop has no compile-time iteration count")
        carried = []
        for res, e in L.carries:
            v = self.arg(e, env, tensors, e.loc)
            if res.type is not None and res.type.shape is not None and isinstance(v, Tensor) and v.value is not None:
                try:
                    shape = eval_shape(env, res.type.shape, res.loc)
                except Unknown as u:
                    raise NnefError(res.loc, f"undefined identifier '{u.name}' in the shape of '{res.name}'") from None
                v = Tensor(self.fresh(res.name), TensorType(res.type.name, shape), v.value)
            carried.append(v)
        outputs = []
        for it in range(count):
            local = dict(tensors)
            for (res, _), v in zip(L.carries, carried):
                local[res.name] = v
            for name, pack in scans:
                local[name] = pack[it]
            if L.index is not None:
                local[L.index] = Tensor(self.fresh(L.index), TensorType("int", []), it)
            vals = self.callable_values(module, L.body, env, local, g, [])
            if len(vals) < len(carried):
                raise NnefError(L.loc, f"the loop body yields {len(vals)} values for {len(carried)} loop variables")
            outputs.append(vals[len(carried):])
            carried = vals[:len(carried)]
        scan_outs = [list(col) for col in zip(*outputs)] if outputs else []
        return carried + scan_outs

    def invoke(self, module, inv: A.Invocation, env, tensors, g: Graph, names) -> list:
        if len(g.nodes) > MAX_NODES:
            raise NnefError(inv.loc, "graph too large")
        qname, op = self.lib.lookup(inv.name, module, inv.loc)
        if op.is_graph and op.compose is None:
            raise NnefError(inv.loc, f"the invoked graph '{qname}' has no @compose block")
        attribs = {}
        for k, e in inv.attribs:
            try:
                attribs[k] = env.eval(e)
            except Unknown as u:
                raise NnefError(e.loc, f"undefined identifier '{u.name}' in attribute '{k}'") from None
            except RunTimeExtent as err:
                raise NnefError(self.site or e.loc, f"attribute '{k}' of '{inv.name}': {err}") from None
        args = [self.arg(a, env, tensors, inv.loc) for a in inv.args]
        types = [a.type if isinstance(a, Tensor) else [x.type for x in a] if isinstance(a, list) else None
                 for a in args]
        try:
            inst = instantiate(op, qname, attribs, types, inv.loc, inv.types)
        except RunTimeExtent as err:
            # a shape computation of the definition that needs the number itself (a range over
            # it, a branch on it): it would be a run-time shape expression (draft 3.1)
            raise NnefError(inv.loc, f"'{inv.name}' cannot be instantiated with an extent known only at run "
                            f"time: {err} (argument shapes {_shapes(types)})") from None
        for p, t in zip(op.outputs, inst.outputs):
            for x in (t if isinstance(t, list) else [t]):
                if x.dtype not in TENSOR_TYPES:
                    raise NnefError(inv.loc, f"output '{p.name}' of '{qname}' has type '{x.dtype}' "
                                    f"(unknown or not a tensor type: {', '.join(TENSOR_TYPES)})")
        inside = self.scoped.get(inv.label) if inv.label else None      # entries naming its inner tensors
        if inside and op.compose is None:
            sq = next(iter(inside.values()))
            raise NnefError(sq.entry.loc, f"@quantize names '{inv.label}.{next(iter(inside))}', a tensor inside "
                            f"'{qname}', which has no @compose (its inner tensors are not composed)")
        try:
            kept = not inside and not op.is_graph and (
                self.keep(qname, op, inst, types) or op.compose is None
                or self.whole_between_quantized(module, qname, inst, args, types, env, names))
        except RunTimeExtent as err:
            raise NnefError(inv.loc, f"'{inv.name}': {err} (argument shapes {_shapes(types)})") from None
        if kept:
            outs = []
            for i, t in enumerate(inst.outputs):
                base = names[i] if i < len(names) and names[i] else op.outputs[i].name
                if isinstance(t, list):     # a packed output: a pack of tensors
                    outs.append([Tensor(self.fresh(base), x) for x in t])
                else:
                    outs.append(Tensor(self.fresh(base), t))
            g.nodes.append(Node(qname, op, inst, args, outs, inv.loc))
            return outs
        # expand the composite operator in its own scope
        inner_env = inst.env
        inner: dict[str, object] = {}
        for p, a in zip(op.inputs, args + [None] * (len(op.inputs) - len(args))):
            inner[p.name] = a
        for p in op.constants:
            t = Tensor(self.fresh(p.name), self.param_type(inner_env, p))
            t.value = constant_value(inner_env, p, t.type.shape)
            inner[p.name] = t
        if op.is_graph:
            self.sub_graph_variables(op, inv, inner_env, inner)
        mod = qname.rpartition(".")[0]
        outer_quantize, outer_scoped = self.quantize, self.scoped
        self.quantize, self.scoped = self.scoped_entries(op, inv.label, qname, mod, inner_env)
        outer_site, self.site = self.site, self.site or inv.loc
        for p in op.inputs:
            self.quantized(mod, p.name, inner_env, inner, g)
        self.components(mod, op.compose, inner_env, inner, g)
        self.quantize, self.scoped, self.site = outer_quantize, outer_scoped, outer_site
        outs = []
        for p in op.outputs:
            if p.name not in inner:
                raise NnefError(p.loc, f"output '{p.name}' of '{qname}' is not assigned")
            outs.append(inner[p.name])
        return outs


# the node op of Composer.scan_count_check
SCAN_COUNT_CHECK = "scan count check"

# why a loop that a tensor trip count or a condition may stop early has no scan outputs: the
# draft makes them packs ("the outputs of each step of the iteration are then packed", 2.10.1),
# which would be as long as the run-time trip count, while a pack's length is a compile-time
# value (2.3 `T..(k)`; 2.10.1: scan inputs' "lengths are fixed in compile-time"; `?` is a tensor
# extent, 2.6.1, not a pack length): a tensor stacked over the steps would be another type
RUN_TIME_SCAN_OUTPUTS = ("scan outputs of a loop with a tensor trip count or a condition would be a pack of "
                         "run-time length, and pack lengths are compile-time values (2.10.1)")


def _at_bound(env: Env, x: A.Extent):
    """The expression of extent x at its upper bound where it is a new symbol or `~` (`s|10`,
    `~|10`, and packed, `s|10 ..(3)`), else its own."""
    def new(e) -> bool:
        return e is None or isinstance(e, A.Tilde) or isinstance(e, A.Ident) and not env.known(e.name)
    if x.bound is None:
        return x.bound if x.expr is None else x.expr
    if new(x.expr):
        return x.bound
    if isinstance(x.expr, A.Expand) and new(x.expr.item):
        return A.Expand(x.expr.loc, x.bound, x.expr.count)
    return x.expr


def _shapes(types) -> str:
    return ", ".join(fmt_value(t.shape) if isinstance(t, TensorType) else "null" if t is None
                     else "[" + ", ".join(fmt_value(x.shape) for x in t) + "]" for t in types)

"""`import_nnef(path_or_text, ctx) -> ModuleOp`: a SkriptND model (a .sknd file, a model folder
with `main.sknd` and its tensor data files, or the document's text) to a module whose
`func.func @<graph>` computes the graph: standard-library operators with a TOSA mapping
become TOSA (road 1); other operators with @lower formulas are compiled from their formulas
to linalg.generic (road 2; with `lower_all=True` every operator takes road 2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.compose import SCAN_COUNT_CHECK, Composer, Graph
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.extents import RunTimeExtent, plain
from tosa_xdsl.frontends.nnef.modules import Library
from tosa_xdsl.frontends.nnef.parser import parse
from tosa_xdsl.frontends.nnef.semantics import TensorType
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value, ttype
from tosa_xdsl.frontends.nnef.to_tosa.integer import Plan, keeps_whole
from tosa_xdsl.frontends.nnef.to_tosa.ops import MAPPINGS, Unsupported


def load_document(path_or_text, file: str | None = None, root=None) -> tuple[A.Document, Library]:
    root = Path(root) if root is not None else None
    if isinstance(path_or_text, Path) or (isinstance(path_or_text, str) and "\n" not in path_or_text
                                          and (path_or_text.endswith(".sknd") or Path(path_or_text).is_dir())):
        p = Path(path_or_text)
        if p.is_dir():
            root, p = p, p / "main.sknd"
        else:
            root = p.parent
        try:
            text = p.read_text()
        except (OSError, UnicodeDecodeError) as err:
            raise NnefError(None, f"cannot read: {err}", file=str(p)) from None
        file = str(p)
    else:
        text = path_or_text
        file = file or "<input>"
    doc = parse(text, file)
    lib = Library(root)
    lib.add("main", doc)
    return doc, lib


def compose_graph(path_or_text, attribs: dict | None = None, graph: str | None = None,
                  lower_all: bool = False, file: str | None = None, root=None,
                  input_shapes: dict | None = None, integer: bool = False) -> Graph:
    """`integer`: composites with an integer form between quantized tensors (nn.softmax,
    math.mean_reduce: to_tosa/integer.py's WHOLE) are kept whole for it."""
    doc, lib = load_document(path_or_text, file, root)
    graphs = [op for op in doc.operators if op.is_graph]
    if not graphs:
        raise NnefError(None, "the main document defines no graph", file=doc.file)
    g = graphs[0] if graph is None else next((x for x in graphs if x.name == graph), None)
    if g is None:
        raise NnefError(None, f"no graph named '{graph}'", file=doc.file)
    keep = (lambda name, op, inst, types: op.lowerings and not op.compose) if lower_all else (
        lambda name, op, inst, types: not op.compose or _maps(name, inst, types))
    whole = keeps_whole if integer and not lower_all else None
    try:
        return Composer(lib, keep, input_shapes, whole).graph("main", g, dict(attribs or {}))
    except RunTimeExtent as err:      # a compile-time use of a run-time extent no site reported
        raise NnefError(g.loc, str(err)) from None


def _plain_types(types) -> list:
    """The types a mapping sees: run-time extents as None (a `?`)."""
    return [t if t is None else [_plain_types([x])[0] for x in t] if isinstance(t, list)
            else TensorType(t.dtype, plain(t.shape)) for t in types]


def _maps(name: str, inst, types) -> bool:
    """Whether the TOSA mapping of `name` takes this instance: a dry run on placeholder values
    (a composite whose mapping declines, e.g. avg_pool with dilation, is expanded instead)."""
    f = MAPPINGS.get(name)
    if f is None:
        return False

    def placeholder(t):
        if t is None:
            return None
        if isinstance(t, list):
            return [placeholder(x) for x in t]
        return Value("%x", t.shape, t.dtype)
    try:
        f(Emitter(), inst.env.values, [placeholder(t) for t in types], _plain_types(inst.outputs))
    except Unsupported:
        return False
    except (TypeError, RunTimeExtent):
        # a shape the mapping computes from an extent known only at run time (`?`): a
        # composite is expanded instead; a plain operator reports it when emitted
        if not any(None in (t.shape or []) for t in _plain_types(types + list(inst.outputs))
                   if isinstance(t, TensorType)):
            raise
        return False
    except NnefError:
        return True       # reported again, located, when the node is emitted
    return True


def graph_to_mlir(g: Graph, variables: dict | None = None, lower_all: bool = False,
                  fake_quant: bool = False) -> str:
    """The MLIR text of `g`: inputs, then variables without data, are function arguments.
    Tensors with @quantize entries are integer TOSA (to_tosa/integer.py) unless `fake_quant`
    (or `lower_all`) asks for the definitions' fake quantization in reals."""
    from tosa_xdsl.frontends.nnef.to_linalg import lower_node

    em = Emitter()
    values: dict[int, Value] = {}
    plan = Plan(g, integer=not (lower_all or fake_quant))
    plan.values = values
    args = []
    for t in g.inputs:
        v = plan.argument(t, f"%{_ident(t.name)}") or Value(f"%{_ident(t.name)}", t.type.shape, t.type.dtype)
        if id(t) not in plan.raw:
            values[id(t)] = v
        args.append(v)
    for t in g.variables:
        data = (variables or {}).get(t.name)
        if data is None:
            v = plan.argument(t, f"%{_ident(t.name)}")
            args.append(v or Value(f"%{_ident(t.name)}", t.type.shape, t.type.dtype))
            if v is not None:
                continue
            v = args[-1]
        else:
            arr = np.asarray(data)
            if list(arr.shape) != t.type.shape:
                raise NnefError(None, f"variable '{t.name}': data shape {list(arr.shape)} differs from "
                                f"the declared {t.type.shape}")
            v = plan.variable(em, t, arr)
            if v is not None:
                continue
            v = em.const(plan.real_variable_data(t, arr), t.type.shape, t.type.dtype)
        values[id(t)] = v

    def get(t, values=values):
        if t is None:
            return None
        if isinstance(t, list):
            return [get(x, values) for x in t]
        if id(t) not in values and id(t) in plan.raw:      # a quantized tensor read unquantized
            values[id(t)] = plan.real(em, plan.raw[id(t)])
        if id(t) not in values:
            if t.value is None:
                raise NnefError(None, f"tensor '{t.name}' has no value")
            values[id(t)] = em.const(t.value, t.type.shape, t.type.dtype)
        return values[id(t)]

    def emit_nodes(nodes, values):
        for node in nodes:
            try:
                emit_node(node, values)
            except RunTimeExtent as err:
                raise NnefError(node.loc, f"'{node.op}': {err}") from None
            except NnefError as err:
                if err.loc is not None or node.loc is None:
                    raise
                # an emitter check (a constant that does not fit its type, ...) knows no place:
                # the invocation is where it came from
                raise NnefError(node.loc, err.message) from None

    def emit_node(node, values):
        if node.branches is not None:
            emit_cond_if(node, values)
            return
        if node.loop is not None:
            emit_while(node, values)
            return
        if node.op == SCAN_COUNT_CHECK:
            emit_scan_count_check(node, values)
            return
        if plan.integer and plan.emit(em, node, values, get):
            return
        ins = [plan.real(em, get(t, values)) for t in node.inputs]
        outs = None
        packed = any(isinstance(t, list) for t in node.outputs)
        f = None if lower_all or packed else MAPPINGS.get(node.op)
        if f is not None:
            try:
                outs = f(em, node.instance.env.values, ins, _plain_types([t.type for t in node.outputs]))
            except Unsupported:
                outs = None
            except (TypeError, RunTimeExtent) as err:
                shapes = [v.type for v in _flat(ins) if v is not None]
                if not any(None in v.shape for v in _flat(ins) if v is not None) and \
                        not any(None in (t.shape or []) for t in _plain_types([t.type for t in _flat(node.outputs)])):
                    raise
                raise NnefError(node.loc, f"'{node.op}' has no TOSA form for these run-time extents "
                                f"({', '.join(shapes)}): {err}") from None
        if outs is None:
            try:
                outs = lower_node(em, node, ins)
            except TypeError as err:
                # arithmetic on a `?` extent (None) the formula compiler does not handle yet
                if not any(None in v.shape for v in _flat(ins) if v is not None):
                    raise
                raise NnefError(node.loc, f"'{node.op}': road 2 does not compile these formulas with extents "
                                f"known only at run time ({', '.join(v.type for v in _flat(ins) if v is not None)}): "
                                f"{err}") from None
        for t, v in zip(_flat(node.outputs), _flat(outs)):
            if v.shape != plain(t.type.shape):
                raise NnefError(node.loc, f"internal: '{node.op}' produced shape {v.shape}, "
                                f"expected {plain(t.type.shape)}")
            values[id(t)] = v

    def emit_cond_if(node, values):
        """A branch on a tensor condition: tosa.cond_if, its regions taking the outer tensors
        they use as block arguments (TOSA regions are isolated from above)."""
        cond = em.reshape(get(node.inputs[0], values), [])
        captured = []
        for sub_nodes, yields in node.branches:
            for t in _uses(sub_nodes, yields):
                if id(t) in values and all(t is not c for c in captured):
                    captured.append(t)
        # quantized values cross region boundaries as reals (dequantized here, requantized by
        # the entries inside / after): both branches must yield one type, which the outputs'
        # declared (real) types give, while their quantizations could differ
        outer = [plan.real(em, values[id(t)]) for t in captured]
        res = em.fresh()
        n = len(node.outputs)
        out_types = [ttype(t.type.shape, t.type.dtype) for t in node.outputs]
        binds = ", ".join(f"%{res[1:]}_a{k} = {v.ssa}" for k, v in enumerate(outer))
        head = f"    {res}{':' + str(n) if n > 1 else ''} = tosa.cond_if {cond.ssa} ({binds}) : tensor<i1> " \
               f"({', '.join(v.type for v in outer)}) -> ({', '.join(out_types)}) {{"
        em.lines.append(head)
        for i, (sub_nodes, yields) in enumerate(node.branches):
            if i:
                em.lines.append("    } else {")
            inner = {id(t): Value(f"%{res[1:]}_b{i}_{k}", v.shape, v.dtype) for k, (t, v) in
                     enumerate(zip(captured, outer))}
            em.lines.append(f"    ^bb0({', '.join(f'{v.ssa}: {v.type}' for v in inner.values())}):")
            emit_nodes(sub_nodes, inner)
            ys = [plan.real(em, get(y, inner)) for y in yields]
            em.lines.append(f"    tosa.yield {', '.join(y.ssa for y in ys)} : {', '.join(y.type for y in ys)}")
        em.lines.append("    }")
        for k, t in enumerate(node.outputs):
            values[id(t)] = Value(f"{res}#{k}" if n > 1 else res, t.type.shape, t.type.dtype)

    def emit_while(node, values):
        """tosa.while_loop over the loop-carried tensors, the outer tensors the regions read
        passed along as extra carried values."""
        placeholders, cond_nodes, cond_val, body_nodes, body_vals, counter = node.loop
        inits = [plan.real(em, get(t, values)) for t in node.inputs]     # reals across regions, as cond_if
        ph_ids = {id(p) for p in placeholders}
        captured = []
        for t in _uses(cond_nodes, [cond_val] if cond_val is not None else []) + _uses(body_nodes, body_vals) + \
                ([counter[1]] if counter and counter[1] is not None else []):
            if id(t) not in ph_ids and all(t is not c for c in captured):
                captured.append(t)
        outer = inits + [plan.real(em, get(t, values)) for t in captured]
        res = em.fresh()
        n = len(outer)
        types = ", ".join(v.type for v in outer)
        binds = ", ".join(f"{res}_c{k} = {v.ssa}" for k, v in enumerate(outer))
        em.lines.append(f"    {res}:{n} = tosa.while_loop ({binds}) : ({types}) -> ({types}) {{")
        cmap = {}
        for k, t in enumerate(list(placeholders) + captured):
            cmap[id(t)] = Value(f"{res}_c{k}", outer[k].shape, outer[k].dtype)
        emit_nodes(cond_nodes, cmap)
        cond = em.reshape(plan.real(em, get(cond_val, cmap)), []) if cond_val is not None else None
        if counter is not None and counter[1] is not None:
            i = cmap[id(counter[0])]
            lim = em.reshape(get(counter[1], cmap), [])
            more = em.op("tosa.greater", [lim, i], [], "bool")
            cond = more if cond is None else em.op("tosa.logical_and", [cond, more], [], "bool")
        em.lines.append(f"    tosa.yield {cond.ssa} : tensor<i1>")
        em.lines.append("    } do {")
        bmap = {}
        for k, t in enumerate(list(placeholders) + captured):
            bmap[id(t)] = Value(f"{res}_d{k}", outer[k].shape, outer[k].dtype)
        em.lines.append(f"    ^bb0({', '.join(f'{v.ssa}: {v.type}' for v in bmap.values())}):")
        emit_nodes(body_nodes, bmap)
        ys = [plan.real(em, get(y, bmap)) for y in body_vals]
        if counter is not None:
            one = em.const(1, [], "int")
            ys.append(em.op("tosa.add", [bmap[id(counter[0])], one], [], "int"))
        ys += [bmap[id(t)] for t in captured]
        em.lines.append(f"    tosa.yield {', '.join(y.ssa for y in ys)} : {', '.join(y.type for y in ys)}")
        em.lines.append("    }")
        for k, t in enumerate(node.outputs):
            values[id(t)] = Value(f"{res}#{k}", t.type.shape, t.type.dtype)

    def emit_scan_count_check(node, values):
        """A tensor trip count above the scan inputs' length n is an invalid document (draft
        2.10.1) known only at run time. TOSA 1.0.1 has no assertion; what it makes a failure
        at run time is a REQUIRE (the graph is unpredictable), and our native code checks none,
        but stops a WHILE_LOOP that never ends (--max-loop-iterations). So: a tosa.while_loop
        entered only when count > n, passing the loop variables' initial tensors through, whose
        body GATHERs item `count` of an n-item table, past its end: the interpreter stops there
        (REQUIRE(0 <= k && k < K) of GATHER), native code reads the clamped last item (n), so
        `count > n` holds again and the loop never ends. Both ops carry the NNEF loop's
        location, so either error names it."""
        count = em.reshape(get(node.inputs[0], values), [])
        n = int(node.inputs[1].value)
        carried = [plan.real(em, get(t, values)) for t in node.inputs[2:]]
        where = _mlir_loc(node.loc)
        over = em.op("tosa.greater", [count, em.const(n, [], "int")], [], "bool")
        outer = [over, count] + carried
        res = em.fresh()
        types = ", ".join(v.type for v in outer)
        binds = ", ".join(f"{res}_c{k} = {v.ssa}" for k, v in enumerate(outer))
        em.lines.append(f"    {res}:{len(outer)} = tosa.while_loop ({binds}) : ({types}) -> ({types}) {{")
        em.lines.append(f"    tosa.yield {res}_c0 : tensor<i1>")
        em.lines.append("    } do {")
        inner = [Value(f"{res}_d{k}", v.shape, v.dtype) for k, v in enumerate(outer)]
        em.lines.append(f"    ^bb0({', '.join(f'{v.ssa}: {v.type}' for v in inner)}):")
        table = em.const(np.full([1, max(n, 1), 1], n), [1, max(n, 1), 1], "int")
        item = em.op("tosa.gather", [table, em.reshape(inner[1], [1, 1])], [1, 1, 1], "int")
        em.lines[-1] += where
        again = em.op("tosa.greater", [inner[1], em.reshape(item, [])], [], "bool")
        ys = [again] + inner[1:]
        em.lines.append(f"    tosa.yield {', '.join(y.ssa for y in ys)} : {', '.join(y.type for y in ys)}")
        em.lines.append("    }" + where)
        for k, t in enumerate(node.outputs):
            values[id(t)] = Value(f"{res}#{k + 2}", t.type.shape, t.type.dtype)

    emit_nodes(g.nodes, values)
    results = [get(t) for t in g.outputs]
    sig = ", ".join(f"{a.ssa}: {a.type}" for a in args)
    rtypes = ", ".join(r.type for r in results)
    body = "\n".join(em.lines)
    ret = f"    func.return {', '.join(r.ssa for r in results)} : {rtypes}"
    return (f"func.func @{_ident(g.name)}({sig}) -> ({rtypes}) {{\n{body}\n{ret}\n  }}").replace("\n    ", "\n    ")


def _uses(nodes, yields) -> list:
    """Tensors read by `nodes` (and the yields) that the nodes do not produce."""
    made, used = set(), []

    def add(t):
        if isinstance(t, list):
            for x in t:
                add(x)
        elif t is not None and id(t) not in made and all(t is not u for u in used):
            used.append(t)
    for n in nodes:
        if n.loop is not None:
            placeholders, cn, cv, bn, bv, counter = n.loop
            ph = {id(p) for p in placeholders}
            for t in n.inputs:
                add(t)
            for t in _uses(cn, [cv] if cv is not None else []) + _uses(bn, bv) + \
                    ([counter[1]] if counter and counter[1] is not None else []):
                if id(t) not in ph:
                    add(t)
        elif n.branches is not None:
            add(n.inputs[0])
            for sub, ys in n.branches:
                for t in _uses(sub, ys):
                    add(t)
        else:
            for t in n.inputs:
                add(t)
        for t in _flat(n.outputs):
            made.add(id(t))
    for y in yields:
        add(y)
    return used


def _flat(items) -> list:
    """Outputs with packed ones (lists of tensors) spread out."""
    return [x for t in items for x in (t if isinstance(t, list) else [t])]


def _mlir_loc(loc) -> str:
    """` loc("file":line:col)` for an op's text, or "" when there is no location or xDSL's
    parser cannot read the file name back (it takes a location's string as it is, and
    stops at a backslash or quote)."""
    if loc is None or not loc.file.isprintable() or any(c in loc.file for c in '"\\'):
        return ""
    return f' loc("{loc.file}":{loc.line}:{loc.col})'


def _ident(name: str) -> str:
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def import_nnef(path_or_text, ctx: Context | None = None, *, attribs: dict | None = None,
                graph: str | None = None, variables: dict | None = None, lower_all: bool = False,
                file: str | None = None, root=None, fake_quant: bool = False,
                input_shapes: dict | None = None) -> ModuleOp:
    """Import a SkriptND graph as a module with one func.func named after the graph. Text
    given with `root` (its folder) finds imported modules and variable data files there.
    @quantize entries become integer TOSA; `fake_quant=True` keeps the definitions' fake
    quantization (real tensors), which is also what `lower_all` compiles. Graph inputs'
    run-time extents (`s|10`, draft 2.6.1) are `?` dims of the function's arguments unless
    `input_shapes` ({input name: shape}) fixes them."""
    from tosa_xdsl.context import make_context

    g = compose_graph(path_or_text, attribs, graph, lower_all, file, root, input_shapes,
                      integer=not fake_quant)
    if root is None and isinstance(path_or_text, (str, Path)) and "\n" not in str(path_or_text):
        p = Path(path_or_text)
        root = p if p.is_dir() else p.parent
    if variables is None and root is not None:
        from tosa_xdsl.frontends.nnef.tensor_data import read_variables
        variables = read_variables(root, [t.name for t in g.variables], g.name)
    text = "builtin.module {\n  " + graph_to_mlir(g, variables, lower_all, fake_quant) + "\n}\n"
    from xdsl.utils.exceptions import ParseError, VerifyException

    try:
        module = Parser(ctx or make_context(), text).parse_module()
        module.verify()
    except (ParseError, VerifyException) as err:
        # a gap of the importer, reported as a diagnostic rather than a traceback
        where = str(path_or_text) if "\n" not in str(path_or_text) else (file or "<input>")
        first = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
        raise NnefError(None, f"the imported module is not valid ({first}); please report", file=where) from None
    return module

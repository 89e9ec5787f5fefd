"""`one-shot-bufferize`: the linalg-on-tensors stage -> buffers (memrefs), destination-passing.

What it does (docs/bufferization.md has the full account and the calling convention):

* every statically shaped tensor value gets a buffer; each function is rebuilt op by op on
  memrefs (old tensor value -> new memref value), then its old body is dropped;
* a linalg op's `outs` tensor becomes the buffer it writes (the op then has no results). The
  buffer is the init's own buffer when the analysis below proves that writing it is safe,
  otherwise a new `memref.alloc` (plus a `memref.copy` of the init only when the op reads
  it). `tensor.empty` has no buffer of its own: each use as a destination gets a fresh alloc;
* `arith.constant dense<..>` -> `memref.global "private" constant` + `memref.get_global`
  (read-only: never a destination in place);
* extract_slice -> `memref.subview` (a view), insert_slice -> subview of the destination +
  copy, pad -> alloc + `linalg.fill` + copy into the interior subview, collapse/expand_shape
  -> the memref views, concat -> alloc + copies into subviews;
* scf.if / scf.for / scf.while carry their tensor values in buffers allocated before the
  op (results then are those buffers; the memref forms have no tensor results); yields copy
  into them unless the value was computed in them;
* function boundaries (upstream `bufferize-function-boundaries` + `buffer-results-to-out-
  params`): tensor arguments -> memref arguments the function never writes, each tensor
  result -> a trailing out-param memref the function writes, no results. The function
  carries `tosa_xdsl.out_params = N` so runners know which arguments are outputs;
* every `memref.alloc` gets a `memref.dealloc` after the last use of the buffer or a view of
  it, in the alloc's block (allocs never escape their block: yields/returns copy out or
  have the alloc replaced by the destination buffer).

In-place analysis (`_Converter.can_write`): a buffer "root" (an alloc, an argument, a global,
a loop-carried or scf.if result buffer) is written in place at op `op` only if it is
writable (not an argument/constant), created in the current loop iteration (or carried by
the loop), and no tensor value aliasing it is used after `op` in program order (uses in
enclosing blocks after the enclosing op count; a use inside `op`'s own region conflicts; a
read of the same buffer by `op` is allowed only for an all-parallel linalg.generic reading
it through the same indexing map as it writes).

Static shapes only; any op without a bufferization rule stops the pass with a located
diagnostic naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, ml_program, scf, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.lowering.linalg_ops import GlobalLoadOp, GlobalStoreOp

PASS = "one-shot-bufferize"
OUT_PARAMS_ATTR = "tosa_xdsl.out_params"


def fail(op: Operation, reason: str) -> LocatedError:
    return LocatedError(op, f"{PASS}: cannot lower '{op.name}': {reason}")


# ------------------------------------------------------------------------------ types


def _is_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType | UnrankedTensorType)


def _check_static(op: Operation) -> None:
    for kind, values in (("operand", op.operands), ("result", op.results)):
        for i, v in enumerate(values):
            t = v.type
            if isinstance(t, UnrankedTensorType):
                raise fail(op, f"{kind} #{i} is an unranked tensor ({t}); static shapes are required")
            if isinstance(t, TensorType) and any(int(d) < 0 for d in t.get_shape()):
                raise fail(op, f"{kind} #{i} has a dynamic dimension ({t}); static shapes are required")


def buffer_type(t: TensorType) -> MemRefType:
    return MemRefType(t.element_type, list(t.get_shape()))


def _strides_offset(t: MemRefType) -> tuple[list[int], int]:
    """Strides and offset of a memref type (identity layout: row major, offset 0)."""
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = [int(s.data) for s in layout.strides.data]  # type: ignore[union-attr]
        off = layout.offset
        return strides, int(off.data)  # type: ignore[union-attr]
    shape = list(t.get_shape())
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    return strides, 0


def _is_identity(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and isinstance(t.layout, NoneAttr)


def _index_const(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


# ------------------------------------------------------------------------------ roots


@dataclass(eq=False)
class _Root:
    """One buffer and the (old) tensor values that share it."""

    writable: bool
    scope: Block | None  # the old block it was created in (None: function level / global)
    aliases: list[SSAValue] = field(default_factory=list)
    loops: set[Operation] = field(default_factory=set)  # loops carrying it (in-place across iterations)
    empty: bool = False  # a tensor.empty: no buffer, a fresh alloc at every use


_LOOPS = (scf.ForOp, scf.WhileOp)
_NO_READ_INIT = (linalg.FillOp, linalg.TransposeOp, linalg.BroadcastOp, linalg.CopyOp)
_VIEW_OPS = (memref.SubviewOp, memref.CollapseShapeOp, memref.ExpandShapeOp, memref.CastOp)


def _is_linalg(op: Operation) -> bool:
    return isinstance(op, LinalgStructuredOperation | linalg.ReduceOp | linalg.BroadcastOp) or (
        op.name.startswith("linalg.") and hasattr(op, "inputs") and hasattr(op, "outputs"))


class _Converter:
    """Rebuilds the functions of one module on buffers."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.vmap: dict[SSAValue, SSAValue] = {}
        self.roots: dict[SSAValue, _Root] = {}
        self.block: Block | None = None  # the new block being filled
        self.globals: dict[tuple[Attribute, Attribute], str] = {}
        self.new_globals: list[Operation] = []
        self.symbols = {getattr(o, "sym_name").data for o in module.ops if hasattr(o, "sym_name")
                        and isinstance(getattr(o, "sym_name"), StringAttr)}
        self.position: dict[Operation, int] = {}
        self.signatures: dict[str, tuple[list[Attribute], list[Attribute]]] = {}

    # ------------------------------------------------------------------ emission

    def emit(self, op: Operation) -> Operation:
        assert self.block is not None
        self.block.add_op(op)
        return op

    def alloc(self, t: MemRefType | TensorType) -> SSAValue:
        if isinstance(t, TensorType):
            t = buffer_type(t)
        if not _is_identity(t):
            t = MemRefType(t.element_type, list(t.get_shape()))
        return self.emit(memref.AllocOp([], [], t)).results[0]

    def copy(self, src: SSAValue, dst: SSAValue) -> None:
        self.emit(memref.CopyOp(src, dst))

    def fresh_root(self, scope: Block | None, *values: SSAValue) -> _Root:
        r = _Root(writable=True, scope=scope)
        for v in values:
            self.bind(v, r)
        return r

    def bind(self, value: SSAValue, root: _Root) -> None:
        self.roots[value] = root
        root.aliases.append(value)

    def buf(self, value: SSAValue) -> SSAValue:
        """The buffer of old tensor value `value` (an uninitialised alloc for tensor.empty)."""
        r = self.roots.get(value)
        if r is not None and r.empty:
            return self.alloc(value.type)  # type: ignore[arg-type]
        return self.vmap[value]

    def contiguous(self, value: SSAValue) -> SSAValue:
        """The buffer of `value` with an identity layout (a copy when it is a strided view)."""
        b = self.buf(value)
        if _is_identity(b.type):
            return b
        new = self.alloc(value.type)  # type: ignore[arg-type]
        self.copy(b, new)
        return new

    # ------------------------------------------------------------------ analysis

    def _later_use(self, root: _Root, op: Operation, value: SSAValue, same_ok) -> bool:
        """Is any alias of `root` used after `op` (see the module docstring)?"""
        levels: list[tuple[Block, Operation]] = []  # (block, op's ancestor in it), innermost first
        o = op
        while True:
            b = o.parent_block()
            assert b is not None
            levels.append((b, o))
            parent = b.parent_op()
            if parent is None or isinstance(parent, func.FuncOp):
                break
            if isinstance(parent, _LOOPS):
                if parent in root.loops:
                    break  # the loop's own state: uses outside the loop come after it
                if root.scope not in [blk for blk, _ in levels]:
                    return True  # created outside this loop: read again by the next iteration
            o = parent
        for alias in root.aliases:
            for use in alias.uses:
                user = use.operation
                if user is op:
                    if alias is value and use.index == self._dest_index:
                        continue
                    if not same_ok(use.index):
                        return True
                    continue
                for k, (blk, lvl) in enumerate(levels):
                    anc = blk.find_ancestor_op_in_block(user)
                    if anc is None:
                        continue
                    if anc is lvl:
                        if k == 0:
                            return True  # read inside op's own region
                        break  # another region of an enclosing op (the other branch)
                    if self.position[anc] > self.position[lvl]:
                        return True
                    break
        return False

    _dest_index = -1

    def can_write(self, value: SSAValue, op: Operation, dest_index: int, same_ok=lambda i: False) -> bool:
        r = self.roots.get(value)
        if r is None or r.empty or not r.writable:
            return False
        self._dest_index = dest_index
        try:
            return not self._later_use(r, op, value, same_ok)
        finally:
            self._dest_index = -1

    def dest(self, value: SSAValue, op: Operation, index: int, reads: bool,
             same_ok=lambda i: False) -> tuple[SSAValue, _Root]:
        """The buffer op writes for its destination operand #index `value`."""
        r = self.roots.get(value)
        if r is not None and r.empty:
            return self.alloc(value.type), self.fresh_root(op.parent_block())  # type: ignore[arg-type]
        if self.can_write(value, op, index, same_ok):
            assert r is not None
            return self.vmap[value], r
        new = self.alloc(value.type)  # type: ignore[arg-type]
        if reads:
            self.copy(self.vmap[value], new)
        return new, self.fresh_root(op.parent_block())

    # ------------------------------------------------------------------ blocks

    def convert_block(self, old: Block, new: Block) -> None:
        saved = self.block
        self.block = new
        try:
            for i, o in enumerate(old.ops):
                self.position[o] = i
            for o in old.ops:
                self.convert_op(o)
        finally:
            self.block = saved

    def convert_region_like(self, old: Region) -> Region:
        """A copy of a scalar region (linalg bodies, pad): same block arguments."""
        new_regions = []
        for blk in old.blocks:
            nb = Block(arg_types=[a.type for a in blk.args])
            for a, b in zip(blk.args, nb.args):
                self.vmap[a] = b
            self.convert_block(blk, nb)
            new_regions.append(nb)
        return Region(new_regions)

    def convert_op(self, op: Operation) -> None:
        _check_static(op)
        handler = _HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op)
            return
        if _is_linalg(op):
            self.linalg(op)
            return
        if any(_is_tensor(v.type) for v in (*op.operands, *op.results)):
            raise fail(op, "no bufferization rule for this op")
        if op.regions:
            for inner in op.walk():
                if inner is not op and any(_is_tensor(v.type) for v in (*inner.operands, *inner.results)):
                    raise fail(op, f"tensors inside its region ('{inner.name}') cannot be bufferized")
        self.emit(op.clone(self.vmap))

    # ------------------------------------------------------------------ linalg

    def linalg(self, op: Operation) -> None:
        if isinstance(op, linalg.ReduceOp | linalg.BroadcastOp):  # single input/init operands
            ins, outs = [op.input], [op.init]
        else:
            ins = list(op.inputs)  # type: ignore[attr-defined]
            outs = list(op.outputs)  # type: ignore[attr-defined]
        n_in = len(ins)
        new_ins = [self.buf(v) if _is_tensor(v.type) else self.vmap.get(v, v) for v in ins]
        block = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        same_map = self._same_map_ok(op, n_in)
        new_outs: list[SSAValue] = []
        for j, init in enumerate(outs):
            if not _is_tensor(init.type):
                raise fail(op, "linalg on buffers is not an input of this pass")
            if isinstance(op, _NO_READ_INIT):
                reads = False
            elif block is not None and len(block.args) == n_in + len(outs):
                reads = bool(block.args[n_in + j].uses)
            else:
                reads = True
            target, root = self.dest(init, op, n_in + j, reads, lambda i, j=j: same_map(i, n_in + j))
            new_outs.append(target)
            self.vmap[op.results[j]] = target
            self.bind(op.results[j], root)
        regions = [self.convert_region_like(r) for r in op.regions]
        new = type(op).create(operands=[*new_ins, *new_outs], result_types=[],
                              properties=dict(op.properties), attributes=dict(op.attributes),
                              regions=regions)
        self.emit(new)

    @staticmethod
    def _same_map_ok(op: Operation, n_in: int):
        """For an all-parallel generic: input i may share the output's buffer if it reads
        each element through the same map as the output writes it (element-wise in place)."""
        if not isinstance(op, linalg.GenericOp):
            return lambda i, j: False
        if any(it.data != IteratorType.PARALLEL for it in op.iterator_types.data):
            return lambda i, j: False
        maps = [m.data for m in op.indexing_maps.data]
        return lambda i, j: i < n_in and maps[i] == maps[j]

    # ------------------------------------------------------------------ terminators

    def store_results(self, values: list[SSAValue], targets: list[SSAValue], carried: set[_Root]) -> None:
        """Make each target buffer hold the matching old tensor value: nothing if it already
        is that buffer, the alloc replaced by the target if the value was computed in an
        alloc of this block, else a copy (through a temporary when the source is another
        carried buffer, which the copies may overwrite)."""
        assert self.block is not None
        replace: list[tuple[SSAValue, SSAValue]] = []
        temps: list[tuple[SSAValue, SSAValue]] = []
        direct: list[tuple[SSAValue, SSAValue]] = []
        taken: set[SSAValue] = set()
        for v, t in zip(values, targets):
            src = self.buf(v)
            if src is t:
                continue
            owner = src.owner
            if (not carried and isinstance(owner, memref.AllocOp) and owner.parent_block() is self.block
                    and src not in taken and src.type == t.type):
                taken.add(src)
                replace.append((src, t))
                continue
            r = self.roots.get(v)
            if r is not None and r in carried:  # saved before any carried buffer is written
                tmp = self.alloc(v.type)  # type: ignore[arg-type]
                self.copy(src, tmp)
                temps.append((tmp, t))
            else:
                direct.append((src, t))
        for src, t in (*direct, *temps):
            self.copy(src, t)
        for src, t in replace:
            owner = src.owner
            src.replace_all_uses_with(t)
            assert isinstance(owner, Operation)
            owner.detach()
            owner.erase()

    # ------------------------------------------------------------------ functions

    def convert_function(self, fn: func.FuncOp) -> tuple[Block, FunctionType] | None:
        ins = list(fn.function_type.inputs.data)
        outs = list(fn.function_type.outputs.data)
        for t in (*ins, *outs):
            if isinstance(t, UnrankedTensorType) or (isinstance(t, TensorType) and any(int(d) < 0 for d in t.get_shape())):
                raise fail(fn, f"the signature has a non-static tensor type ({t}); static shapes are required")
        new_ins = [buffer_type(t) if isinstance(t, TensorType) else t for t in ins]
        out_params = [buffer_type(t) for t in outs if isinstance(t, TensorType)]
        new_outs = [t for t in outs if not isinstance(t, TensorType)]
        ftype = FunctionType.from_lists([*new_ins, *out_params], new_outs)
        if not fn.body.blocks:
            return None, ftype  # type: ignore[return-value]
        if len(fn.body.blocks) != 1:
            raise fail(fn, "only single-block function bodies are supported")
        old = fn.body.blocks[0]
        new = Block(arg_types=[*new_ins, *out_params])
        for a, b in zip(old.args, new.args):
            self.vmap[a] = b
            b.name_hint = a.name_hint
            if isinstance(a.type, TensorType):
                r = _Root(writable=False, scope=None)
                self.bind(a, r)
        self._out_params = list(new.args[len(new_ins):])
        self.convert_block(old, new)
        return new, ftype


# ------------------------------------------------------------------------------ handlers


def _constant(c: _Converter, op: arith.ConstantOp) -> None:
    t = op.result.type
    if not isinstance(t, TensorType):
        c.emit(op.clone(c.vmap))
        return
    value = op.value
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise fail(op, f"only dense constants can become globals, got {type(value).__name__}")
    key = (t, value)
    name = c.globals.get(key)
    mt = buffer_type(t)
    if name is None:
        shape = "x".join(str(d) for d in t.get_shape())
        base = f"__constant_{shape + 'x' if shape else ''}{t.element_type}"
        name, n = base, 0
        while name in c.symbols:
            n += 1
            name = f"{base}_{n}"
        c.symbols.add(name)
        c.globals[key] = name
        c.new_globals.append(memref.GlobalOp.get(StringAttr(name), mt, value, StringAttr("private"),
                                                 constant=UnitAttr(), alignment=64))
    g = c.emit(memref.GetGlobalOp(name, mt))
    c.vmap[op.result] = g.results[0]
    c.bind(op.result, _Root(writable=False, scope=None))


def _empty(c: _Converter, op: tensor.EmptyOp) -> None:
    c.roots[op.tensor] = _Root(writable=True, scope=op.parent_block(), empty=True)


def _extract(c: _Converter, op: tensor.ExtractOp) -> None:
    load = c.emit(memref.LoadOp.get(c.buf(op.tensor), [c.vmap[i] for i in op.indices]))
    c.vmap[op.result] = load.results[0]


def _insert(c: _Converter, op: tensor.InsertOp) -> None:
    target, root = c.dest(op.dest, op, 1, reads=True)
    c.emit(memref.StoreOp.get(c.vmap[op.scalar], target, [c.vmap[i] for i in op.indices]))
    c.vmap[op.result] = target
    c.bind(op.result, root)


def _static_list(op: Operation, dynamic, static: DenseArrayBase, what: str) -> list[int]:
    if len(dynamic):
        raise fail(op, f"dynamic {what} are not supported (static shapes are required)")
    return [int(v) for v in static.get_values()]


def _subview(c: _Converter, op: Operation, base: SSAValue, offsets: list[int], sizes: list[int],
             strides: list[int], result_shape: list[int]) -> SSAValue:
    """memref.subview of `base`, rank-reduced to `result_shape` (unit dims dropped)."""
    bt = base.type
    assert isinstance(bt, MemRefType)
    bstrides, boff = _strides_offset(bt)
    offset = boff + sum(o * s for o, s in zip(offsets, bstrides))
    full = [s * k for s, k in zip(bstrides, strides)]
    if len(result_shape) != len(sizes):  # rank-reducing: keep the dims the result keeps
        kept, j = [], 0
        for d, n in enumerate(sizes):
            if j < len(result_shape) and result_shape[j] == n and (n != 1 or len(sizes) - d - 1 < len(result_shape) - j):
                kept.append(d)
                j += 1
            elif n != 1:
                raise fail(op, "cannot match the rank-reduced result shape")
        if j != len(result_shape):
            raise fail(op, "cannot match the rank-reduced result shape")
        full = [full[d] for d in kept]
    layout = StridedLayoutAttr(full, offset)
    rt = MemRefType(bt.element_type, result_shape, layout)
    sv = c.emit(memref.SubviewOp(base, [], [], [], offsets, sizes, strides, rt))
    return sv.results[0]


def _extract_slice(c: _Converter, op: tensor.ExtractSliceOp) -> None:
    offsets = _static_list(op, op.offsets, op.static_offsets, "offsets")
    sizes = _static_list(op, op.sizes, op.static_sizes, "sizes")
    strides = _static_list(op, op.strides, op.static_strides, "strides")
    src = op.source
    r = c.roots.get(src)
    if r is not None and r.empty:  # a slice of undefined contents: a buffer to view
        base = c.alloc(src.type)  # type: ignore[arg-type]
        c.vmap[src] = base
        r.empty = False
        r.scope = op.parent_block()
    view = _subview(c, op, c.vmap[src], offsets, sizes, strides, list(op.result.type.get_shape()))
    c.vmap[op.result] = view
    c.bind(op.result, c.roots[src])


def _insert_slice(c: _Converter, op: tensor.InsertSliceOp) -> None:
    offsets = _static_list(op, op.offsets, op.static_offsets, "offsets")
    sizes = _static_list(op, op.sizes, op.static_sizes, "sizes")
    strides = _static_list(op, op.strides, op.static_strides, "strides")
    target, root = c.dest(op.dest, op, 1, reads=True)
    view = _subview(c, op, target, offsets, sizes, strides, list(op.source.type.get_shape()))
    c.copy(c.buf(op.source), view)
    c.vmap[op.result] = target
    c.bind(op.result, root)


def _pad(c: _Converter, op: tensor.PadOp) -> None:
    low = _static_list(op, op.low, op.static_low, "low paddings")
    high = _static_list(op, op.high, op.static_high, "high paddings")
    if any(v < 0 for v in (*low, *high)):
        raise fail(op, "negative padding is not supported")
    block = op.region.block
    if any(a.uses for a in block.args):
        raise fail(op, "the padding value depends on the index (only a uniform value is supported)")
    term = block.last_op
    assert term is not None
    for o in block.ops:  # the padding value's computation (constants), once
        if o is not term:
            c.convert_op(o)
    value = c.vmap.get(term.operands[0], term.operands[0])
    out = c.alloc(op.result.type)  # type: ignore[arg-type]
    c.emit(linalg.FillOp([value], [out], res=()))
    src_shape = list(op.source.type.get_shape())
    view = _subview(c, op, out, low, src_shape, [1] * len(low), src_shape)
    c.copy(c.buf(op.source), view)
    c.vmap[op.result] = out
    c.fresh_root(op.parent_block(), op.result)


def _reshape_view(c: _Converter, op: Operation, cls) -> None:
    src = op.operands[0]
    base = c.contiguous(src)
    rt = buffer_type(op.results[0].type)  # type: ignore[arg-type]
    props = {"reassociation": op.properties["reassociation"]}
    if cls is memref.ExpandShapeOp:
        props["static_output_shape"] = DenseArrayBase.from_list(i64, list(rt.get_shape()))
    new = c.emit(cls.build(operands=[base, []] if cls is memref.ExpandShapeOp else [base],
                           result_types=[rt], properties=props))
    c.vmap[op.results[0]] = new.results[0]
    if base is c.vmap.get(src):
        c.bind(op.results[0], c.roots[src])
    else:
        c.fresh_root(op.parent_block(), op.results[0])


def _collapse(c: _Converter, op: tensor.CollapseShapeOp) -> None:
    _reshape_view(c, op, memref.CollapseShapeOp)


def _expand(c: _Converter, op: tensor.ExpandShapeOp) -> None:
    if len(op.dynamic_output_shape):
        raise fail(op, "dynamic output shapes are not supported")
    _reshape_view(c, op, memref.ExpandShapeOp)


def _reshape(c: _Converter, op: tensor.ReshapeOp) -> None:
    """tensor.reshape of a rank-0 tensor (tosa-to-linalg's rank-1 reductions emit it, as the
    tensor expand_shape verifier rejects the empty reassociation): memref.expand_shape with
    the empty reassociation, a view. Other reshapes are not emitted by our lowering."""
    rt = op.result.type
    if op.source.type.get_shape() or not isinstance(rt, TensorType) or -1 in rt.get_shape():
        raise fail(op, "no bufferization rule for this op (only a rank-0 source to a static shape)")
    base = c.contiguous(op.source)
    props = {"reassociation": ArrayAttr([]),
             "static_output_shape": DenseArrayBase.from_list(i64, list(rt.get_shape()))}
    new = c.emit(memref.ExpandShapeOp.build(operands=[base, []], result_types=[buffer_type(rt)],
                                            properties=props))
    c.vmap[op.result] = new.results[0]
    if base is c.vmap.get(op.source):
        c.bind(op.result, c.roots[op.source])
    else:
        c.fresh_root(op.parent_block(), op.result)


def _concat(c: _Converter, op: tensor.ConcatOp) -> None:
    out = c.alloc(op.result.type)  # type: ignore[arg-type]
    axis = op.dim.value.data
    rank = len(op.result.type.get_shape())
    at = 0
    for v in op.inputs:
        shape = list(v.type.get_shape())  # type: ignore[attr-defined]
        offsets = [at if d == axis else 0 for d in range(rank)]
        view = _subview(c, op, out, offsets, shape, [1] * rank, shape)
        c.copy(c.buf(v), view)
        at += shape[axis]
    c.vmap[op.result] = out
    c.fresh_root(op.parent_block(), op.result)


def _from_elements(c: _Converter, op: tensor.FromElementsOp) -> None:
    t = op.result.type
    out = c.alloc(t)  # type: ignore[arg-type]
    shape = list(t.get_shape())  # type: ignore[attr-defined]
    consts: dict[int, SSAValue] = {}
    for flat, v in enumerate(op.elements):
        idx, rem = [], flat
        for d in reversed(shape):
            idx.insert(0, rem % d)
            rem //= d
        vals = []
        for i in idx:
            if i not in consts:
                consts[i] = c.emit(_index_const(i)).results[0]
            vals.append(consts[i])
        c.emit(memref.StoreOp.get(c.vmap[v], out, vals))
    c.vmap[op.result] = out
    c.fresh_root(op.parent_block(), op.result)


def _splat(c: _Converter, op: tensor.SplatOp) -> None:
    if len(op.operands) > 1:
        raise fail(op, "dynamic sizes are not supported")
    out = c.alloc(op.result.type)  # type: ignore[arg-type]
    c.emit(linalg.FillOp([c.vmap[op.operands[0]]], [out], res=()))
    c.vmap[op.result] = out
    c.fresh_root(op.parent_block(), op.result)


def _cast(c: _Converter, op: tensor.CastOp) -> None:
    src = op.source
    if src.type == op.result.type:
        c.vmap[op.result] = c.buf(src)
    else:
        base = c.contiguous(src)
        c.vmap[op.result] = c.emit(memref.CastOp.get(base, buffer_type(op.result.type))).results[0]
    c.bind(op.result, c.roots[src])


def _dim(c: _Converter, op: tensor.DimOp) -> None:
    index = op.index.owner
    if not isinstance(index, arith.ConstantOp):
        raise fail(op, "the dimension index must be a constant")
    d = index.value.value.data  # type: ignore[attr-defined]
    size = op.source.type.get_shape()[d]  # type: ignore[attr-defined]
    c.vmap[op.result] = c.emit(_index_const(int(size))).results[0]


# ------------------------------------------------------------------------------ scf


def _if(c: _Converter, op: scf.IfOp) -> None:
    parent = op.parent_block()
    targets: dict[int, SSAValue] = {}
    for i, r in enumerate(op.results):
        if isinstance(r.type, TensorType):
            targets[i] = c.alloc(r.type)
            c.vmap[r] = targets[i]
            c.fresh_root(parent, r)
    scalar_types = [r.type for r in op.results if not isinstance(r.type, TensorType)]
    regions = []
    for region in (op.true_region, op.false_region):
        nb = Block()
        if region.blocks:
            old = region.blocks[0]
            saved = c.block
            c.block = nb
            for i, o in enumerate(old.ops):
                c.position[o] = i
            for o in old.ops:
                if o is old.last_op:
                    break
                c.convert_op(o)
            y = old.last_op
            assert isinstance(y, scf.YieldOp)
            vals = list(y.operands)
            c.store_results([vals[i] for i in targets], list(targets.values()), set())
            c.emit(scf.YieldOp(*[c.vmap[v] for i, v in enumerate(vals) if i not in targets]))
            c.block = saved
        elif scalar_types or targets:
            raise fail(op, "an scf.if with results needs an else region")
        regions.append(Region(nb) if region.blocks else Region())
    new = c.emit(scf.IfOp(c.vmap[op.cond], scalar_types, regions[0], regions[1]))
    scalars = iter(new.results)
    for r in op.results:
        if not isinstance(r.type, TensorType):
            c.vmap[r] = next(scalars)


def _carry(c: _Converter, op: Operation, inits: list[SSAValue], index_offset: int) -> dict[int, tuple[SSAValue, _Root]]:
    """Buffers for the tensor values a loop carries: the init's own buffer when the loop may
    consume it, else a copy."""
    carried: dict[int, tuple[SSAValue, _Root]] = {}
    for i, v in enumerate(inits):
        if not isinstance(v.type, TensorType):
            continue
        r = c.roots.get(v)
        if r is not None and not r.empty and c.can_write(v, op, index_offset + i) and _is_identity(c.vmap[v].type):
            if any(v is w for k, w in enumerate(inits) if k != i):
                r = None
            else:
                r.loops.add(op)
                carried[i] = (c.vmap[v], r)
                continue
        b = c.alloc(v.type)
        if r is None or not r.empty:
            c.copy(c.vmap[v], b)
        root = _Root(writable=True, scope=op.parent_block(), loops={op})
        carried[i] = (b, root)
    return carried


def _for(c: _Converter, op: scf.ForOp) -> None:
    inits = list(op.iter_args)
    carried = _carry(c, op, inits, 3)
    old = op.body.block
    scalar_idx = [i for i in range(len(inits)) if i not in carried]
    nb = Block(arg_types=[old.args[0].type, *[old.args[1 + i].type for i in scalar_idx]])
    c.vmap[old.args[0]] = nb.args[0]
    for k, i in enumerate(scalar_idx):
        c.vmap[old.args[1 + i]] = nb.args[1 + k]
    for i, (b, r) in carried.items():
        c.vmap[old.args[1 + i]] = b
        c.bind(old.args[1 + i], r)
    _loop_body(c, old, nb, carried)
    new = c.emit(scf.ForOp(c.vmap[op.lb], c.vmap[op.ub], c.vmap[op.step],
                           [c.vmap[inits[i]] for i in scalar_idx], Region(nb)))
    for k, i in enumerate(scalar_idx):
        c.vmap[op.results[i]] = new.results[k]
    for i, (b, r) in carried.items():
        c.vmap[op.results[i]] = b
        c.bind(op.results[i], r)


def _loop_body(c: _Converter, old: Block, nb: Block, carried: dict[int, tuple[SSAValue, _Root]]) -> None:
    saved = c.block
    c.block = nb
    for i, o in enumerate(old.ops):
        c.position[o] = i
    for o in old.ops:
        if o is old.last_op:
            break
        c.convert_op(o)
    y = old.last_op
    assert isinstance(y, scf.YieldOp)
    vals = list(y.operands)
    roots = {r for _, r in carried.values()}
    c.store_results([vals[i] for i in carried], [b for b, _ in carried.values()], roots)
    c.emit(scf.YieldOp(*[c.vmap[v] for i, v in enumerate(vals) if i not in carried]))
    c.block = saved


def _while(c: _Converter, op: scf.WhileOp) -> None:
    inits = list(op.arguments)
    carried = _carry(c, op, inits, 0)
    before, after = op.before_region.block, op.after_region.block
    cond = before.last_op
    assert isinstance(cond, scf.ConditionOp)
    fwd = list(cond.args)
    # after-region / result buffers: the carried ones when the condition forwards the
    # before-region arguments unchanged (tosa.while_loop's form), else buffers of their own
    same = len(fwd) == len(before.args) and all(f is a for f, a in zip(fwd, before.args))
    fwd_bufs: dict[int, tuple[SSAValue, _Root]] = {}
    for i, v in enumerate(fwd):
        if not isinstance(v.type, TensorType):
            continue
        if same and i in carried:
            fwd_bufs[i] = carried[i]
        else:
            fwd_bufs[i] = (c.alloc(v.type), _Root(writable=True, scope=op.parent_block(), loops={op}))
    scalar_in = [i for i in range(len(inits)) if i not in carried]
    scalar_fwd = [i for i in range(len(fwd)) if i not in fwd_bufs]
    nbefore = Block(arg_types=[before.args[i].type for i in scalar_in])
    for k, i in enumerate(scalar_in):
        c.vmap[before.args[i]] = nbefore.args[k]
    for i, (b, r) in carried.items():
        c.vmap[before.args[i]] = b
        c.bind(before.args[i], r)
    # before region
    saved = c.block
    c.block = nbefore
    for i, o in enumerate(before.ops):
        c.position[o] = i
    for o in before.ops:
        if o is cond:
            break
        c.convert_op(o)
    if not same:
        c.store_results([fwd[i] for i in fwd_bufs], [b for b, _ in fwd_bufs.values()], set())
    c.emit(scf.ConditionOp(c.vmap[cond.condition], *[c.vmap[fwd[i]] for i in scalar_fwd]))
    c.block = saved
    # after region
    nafter = Block(arg_types=[after.args[i].type for i in scalar_fwd])
    for k, i in enumerate(scalar_fwd):
        c.vmap[after.args[i]] = nafter.args[k]
    for i, (b, r) in fwd_bufs.items():
        c.vmap[after.args[i]] = b
        c.bind(after.args[i], r)
    _loop_body(c, after, nafter, carried)
    new = c.emit(scf.WhileOp([c.vmap[inits[i]] for i in scalar_in],
                             [op.results[i].type for i in scalar_fwd], Region(nbefore), Region(nafter)))
    for k, i in enumerate(scalar_fwd):
        c.vmap[op.results[i]] = new.results[k]
    for i, (b, r) in fwd_bufs.items():
        c.vmap[op.results[i]] = b
        c.bind(op.results[i], r)


# ------------------------------------------------------------------------------ func, ml_program


def _return(c: _Converter, op: func.ReturnOp) -> None:
    tensors = [v for v in op.arguments if isinstance(v.type, TensorType)]
    c.store_results(tensors, c._out_params, set())
    c.emit(func.ReturnOp(*[c.vmap[v] for v in op.arguments if not isinstance(v.type, TensorType)]))


def _call(c: _Converter, op: func.CallOp) -> None:
    args = [c.contiguous(v) if isinstance(v.type, TensorType) else c.vmap[v] for v in op.arguments]
    outs: list[SSAValue] = []
    for r in op.results:
        if isinstance(r.type, TensorType):
            b = c.alloc(r.type)
            outs.append(b)
            c.vmap[r] = b
            c.fresh_root(op.parent_block(), r)
    scalar = [r for r in op.results if not isinstance(r.type, TensorType)]
    new = c.emit(func.CallOp(op.callee, [*args, *outs], [r.type for r in scalar]))
    for old, nr in zip(scalar, new.results):
        c.vmap[old] = nr


def _global_load(c: _Converter, op: GlobalLoadOp) -> None:
    t = op.result.type
    g = c.emit(memref.GetGlobalOp(op.global_.root_reference.data, buffer_type(t)))  # type: ignore[arg-type]
    # a copy: a later global_store must not change the value read here
    b = c.alloc(t)  # type: ignore[arg-type]
    c.copy(g.results[0], b)
    c.vmap[op.result] = b
    c.fresh_root(op.parent_block(), op.result)


def _global_store(c: _Converter, op: GlobalStoreOp) -> None:
    t = op.value.type
    g = c.emit(memref.GetGlobalOp(op.global_.root_reference.data, buffer_type(t)))  # type: ignore[arg-type]
    c.copy(c.buf(op.value), g.results[0])


_HANDLERS = {
    arith.ConstantOp: _constant,
    tensor.EmptyOp: _empty,
    tensor.ExtractOp: _extract,
    tensor.InsertOp: _insert,
    tensor.ExtractSliceOp: _extract_slice,
    tensor.InsertSliceOp: _insert_slice,
    tensor.PadOp: _pad,
    tensor.CollapseShapeOp: _collapse,
    tensor.ExpandShapeOp: _expand,
    tensor.ReshapeOp: _reshape,
    tensor.ConcatOp: _concat,
    tensor.FromElementsOp: _from_elements,
    tensor.SplatOp: _splat,
    tensor.CastOp: _cast,
    tensor.DimOp: _dim,
    scf.IfOp: _if,
    scf.ForOp: _for,
    scf.WhileOp: _while,
    func.ReturnOp: _return,
    func.CallOp: _call,
    GlobalLoadOp: _global_load,
    GlobalStoreOp: _global_store,
}


# ------------------------------------------------------------------------------ deallocation


def insert_deallocs(root: Operation) -> None:
    """A memref.dealloc after the last use of each alloc (or of a view of it) in its block."""
    for alloc in [o for o in root.walk() if isinstance(o, memref.AllocOp)]:
        block = alloc.parent_block()
        assert block is not None
        views = [alloc.results[0]]
        last: Operation = alloc
        pos = {o: i for i, o in enumerate(block.ops)}
        k = 0
        while k < len(views):
            for use in views[k].uses:
                user = use.operation
                if isinstance(user, _VIEW_OPS) and use.index == 0:
                    views.append(user.results[0])
                anc = block.find_ancestor_op_in_block(user)
                assert anc is not None, "a buffer escaped its block"
                if pos[anc] > pos[last]:
                    last = anc
            k += 1
        block.insert_op_after(memref.DeallocOp.get(alloc.results[0]), last)


# ------------------------------------------------------------------------------ the pass


def _convert_global(op: ml_program.GlobalOp) -> memref.GlobalOp:
    t = op.type
    if not isinstance(t, TensorType) or any(int(d) < 0 for d in t.get_shape()):
        raise fail(op, f"static shapes are required, got {t}")
    init = op.value if op.value is not None else UnitAttr()
    if not isinstance(init, DenseIntOrFPElementsAttr | UnitAttr):
        raise fail(op, "only dense initial values are supported")
    return memref.GlobalOp.get(op.sym_name, buffer_type(t), init, StringAttr("private"),
                               constant=None if op.is_mutable is not None else UnitAttr())


@dataclass(frozen=True)
class OneShotBufferizePass(ModulePass):
    """Tensors -> memrefs with destination passing, out-params at function boundaries and
    deallocation (see the module docstring and docs/bufferization.md)."""

    name: ClassVar[str] = "one-shot-bufferize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in op.walk():
            if o.name.startswith("tosa.") or o.name.startswith("bufferization."):
                raise fail(o, "no bufferization rule for this op (lower it to linalg/tensor first)")
        c = _Converter(op)
        done: list[tuple[func.FuncOp, Block | None, FunctionType, int]] = []
        for fn in [o for o in op.ops if isinstance(o, func.FuncOp)]:
            n_out = sum(isinstance(t, TensorType) for t in fn.function_type.outputs.data)
            new, ftype = c.convert_function(fn)
            done.append((fn, new, ftype, n_out))
        for fn, new, ftype, n_out in done:
            fn.properties["function_type"] = ftype
            fn.properties.pop("arg_attrs", None)
            fn.properties.pop("res_attrs", None)
            if n_out:
                fn.attributes[OUT_PARAMS_ATTR] = IntegerAttr(n_out, 64)
            if new is None:
                continue
            old = fn.body.blocks[0]
            fn.body.detach_block(old)
            fn.body.add_block(new)
            for o in reversed(list(old.walk())):
                o.drop_all_references()
            old.erase(safe_erase=False)
            insert_deallocs(fn)
        for o in list(op.ops):
            if isinstance(o, ml_program.GlobalOp):
                new_g = _convert_global(o)
                op.body.block.insert_op_before(new_g, o)
                o.detach()
                o.erase()
        first = op.body.block.first_op
        for g in c.new_globals:
            if first is None:
                op.body.block.add_op(g)
            else:
                op.body.block.insert_op_before(g, first)

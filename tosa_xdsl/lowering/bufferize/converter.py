"""The converter of one-shot-bufferize: rebuilds a module's functions op by op on buffers
(old tensor value -> new memref value), dispatching each op to its rule.

It owns what every rule uses: emission into the new block, the buffer of a value, the
destination buffer an op writes (in place when the analysis of in_place.py allows it, else
a new alloc), and `store_results`, which terminators (scf yields, func.return) use to put
their values into the buffers the enclosing op or the caller provided.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, memref, scf, tensor
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from tosa_xdsl.lowering.bufferize import (
    constant_rules,
    function_boundaries,
    ml_program_globals,
    scf_rules,
    tensor_rules,
)
from tosa_xdsl.lowering.bufferize.common import (
    PASS,
    buffer_type,
    fail,
    is_identity,
    is_tensor,
)
from tosa_xdsl.lowering.bufferize.in_place import InPlaceAnalysis, Root
from tosa_xdsl.lowering.bufferize.linalg_rules import bufferize_linalg, is_linalg
from tosa_xdsl.lowering.preconditions import DynamicDims, require_static

# the ops whose rules handle dynamic dims (memref.alloc with sizes, memref.dim); linalg ops
# too. Any other op with a `?` stops the pass with a located error naming the operand.
DYNAMIC_OPS = (tensor.EmptyOp, tensor.DimOp, tensor.ExtractOp, tensor.CollapseShapeOp, tensor.ExpandShapeOp,
               tensor.CastOp, tensor.PadOp, tensor.InsertSliceOp, tensor.ExtractSliceOp, func.ReturnOp,
               tensor.InsertOp, scf.ForOp, scf.YieldOp, scf.IfOp, scf.WhileOp)
DYNAMIC_OK = DynamicDims("tensor.empty/dim/extract/insert/collapse_shape/expand_shape/cast/pad/insert_slice/"
                         "extract_slice, scf.for/yield/if/while, linalg ops and func.return")

# op type -> rule(converter, op); linalg ops are matched by `is_linalg` instead (convert_op)
HANDLERS = {
    **constant_rules.HANDLERS,
    **tensor_rules.HANDLERS,
    **scf_rules.HANDLERS,
    **function_boundaries.HANDLERS,
    **ml_program_globals.HANDLERS,
}


class Converter(InPlaceAnalysis):
    """Rebuilds the functions of one module on buffers."""

    def __init__(self, module: ModuleOp):
        super().__init__()
        self.module = module
        self.vmap: dict[SSAValue, SSAValue] = {}
        self.block: Block | None = None  # the new block being filled
        # dense constants -> the memref.global each becomes (constant_rules.py); the new
        # globals are added to the module by the pass, their names kept clear of `symbols`
        self.globals: dict[tuple[Attribute, Attribute], str] = {}
        self.new_globals: list[Operation] = []
        self.symbols = {getattr(o, "sym_name").data for o in module.ops if hasattr(o, "sym_name")
                        and isinstance(getattr(o, "sym_name"), StringAttr)}
        self.out_params: list[SSAValue] = []  # of the function being converted (function_boundaries.py)
        self.returns_buffers = False  # it returns its tensor results (one is dynamic) instead
        # owned buffers already handed over (to a yield, a loop, the caller): see `handover`
        self.consumed: set[SSAValue] = set()
        self.loop_blocks: set[Block] = set()  # new scf.while region blocks (own their memref arguments)

    # ------------------------------------------------------------------ emission

    def emit(self, op: Operation) -> Operation:
        assert self.block is not None
        self.block.add_op(op)
        return op

    def alloc(self, t: MemRefType | TensorType, like: SSAValue | None = None) -> SSAValue:
        """A new buffer of type `t`; a dynamic dim takes its size from old tensor value `like`
        (the value the buffer will hold or a value of the same shape): `memref.alloc(%d)`."""
        if isinstance(t, TensorType):
            t = buffer_type(t)
        if not is_identity(t):
            t = MemRefType(t.element_type, list(t.get_shape()))
        sizes: list[SSAValue] = []
        if any(int(d) < 0 for d in t.get_shape()):
            sizes = self.dynamic_sizes(like, t)
        return self.emit(memref.AllocOp(sizes, [], t)).results[0]

    def dynamic_sizes(self, like: SSAValue | None, t: Attribute) -> list[SSAValue]:
        """The run-time sizes of the dynamic dims of old tensor value `like`: the operands of
        its `tensor.empty`, else `memref.dim` of its buffer (EXT-DYNAMIC)."""
        if like is None:
            raise fail(self.module, f"internal: no source for the dynamic sizes of {t}")
        owner = like.owner
        if isinstance(owner, tensor.EmptyOp):
            return [self.vmap[v] for v in owner.dynamic_sizes]
        if like not in self.vmap:
            where = owner if isinstance(owner, Operation) else self.module
            raise fail(where, f"the dynamic sizes of {like.type} are not known here")
        b = self.vmap[like]
        sizes = []
        for d, size in enumerate(like.type.get_shape()):  # type: ignore[attr-defined]
            if int(size) < 0:
                i = self.emit(arith.ConstantOp(IntegerAttr(d, IndexType()))).results[0]
                sizes.append(self.emit(memref.DimOp.from_source_and_index(b, i)).results[0])
        return sizes

    def copy(self, src: SSAValue, dst: SSAValue) -> None:
        self.emit(memref.CopyOp(src, dst))

    def owns(self, b: SSAValue) -> bool:
        """Does the block being filled own new buffer `b` (and has not handed it over yet)?
        Owned: its own `memref.alloc`s, the memref results of its scf.if / scf.while (dynamic
        shapes, scf_rules.py) and, in an scf.while region, the memref block arguments."""
        if b in self.consumed or not isinstance(b.type, MemRefType) or not is_identity(b.type):
            return False
        if isinstance(b, BlockArgument):
            return b.block is self.block and b.block in self.loop_blocks
        owner = b.owner
        return isinstance(owner, memref.AllocOp | scf.IfOp | scf.WhileOp) and owner.parent_block() is self.block

    def handover(self, value: SSAValue) -> SSAValue:
        """A buffer holding old tensor `value` whose ownership leaves the block being filled
        (an scf.yield / scf.condition operand, a returned dynamic result): the value's own
        buffer when the block owns it, else a copy into a fresh alloc (an argument, a view, a
        constant, a buffer from an enclosing block or one handed over already). The
        deallocation pass frees every owned buffer that is not handed over."""
        b = self.buf(value)
        if not (self.owns(b) and b.type == buffer_type(value.type)):  # type: ignore[arg-type]
            new = self.alloc(value.type, value)  # type: ignore[arg-type]
            self.copy(b, new)
            b = new
        self.consumed.add(b)
        return b

    def buf(self, value: SSAValue) -> SSAValue:
        """The buffer of old tensor value `value` (an uninitialised alloc for tensor.empty)."""
        r = self.roots.get(value)
        if r is not None and r.empty:
            return self.alloc(value.type, value)  # type: ignore[arg-type]
        return self.vmap[value]

    def contiguous(self, value: SSAValue) -> SSAValue:
        """The buffer of `value` with an identity layout (a copy when it is a strided view)."""
        b = self.buf(value)
        if is_identity(b.type):
            return b
        new = self.alloc(value.type, value)  # type: ignore[arg-type]
        self.copy(b, new)
        return new

    def dest(self, value: SSAValue, op: Operation, index: int, reads: bool,
             same_ok=lambda i: False) -> tuple[SSAValue, Root]:
        """The buffer op writes for its destination operand #index `value`."""
        r = self.roots.get(value)
        if r is not None and r.empty:
            return self.alloc(value.type, value), self.fresh_root(op.parent_block())  # type: ignore[arg-type]
        if self.can_write(value, op, index, same_ok):
            assert r is not None
            return self.vmap[value], r
        new = self.alloc(value.type, value)  # type: ignore[arg-type]
        if reads:
            self.copy(self.vmap[value], new)
        return new, self.fresh_root(op.parent_block())

    # ------------------------------------------------------------------ blocks

    def convert_block(self, old: Block, new: Block, *, skip_terminator: bool = False) -> None:
        saved = self.block
        self.block = new
        try:
            for i, o in enumerate(old.ops):
                self.position[o] = i
            for o in old.ops:
                if skip_terminator and o is old.last_op:
                    break
                self.convert_op(o)
        finally:
            self.block = saved

    def convert_yielding_block(self, old: Block, new: Block, targets: dict[int, SSAValue],
                               carried: set[Root], owned: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        """Convert an scf region's block (an if branch, a loop body): the tensors its scf.yield
        hands over at the indices of `targets` are stored into those buffers, those at the
        indices in `owned` (dynamic shapes) are yielded as buffers the block hands over
        (`handover`), the other values are yielded as they are."""
        self.convert_block(old, new, skip_terminator=True)
        y = old.last_op
        assert isinstance(y, scf.YieldOp)
        vals = list(y.operands)
        saved = self.block
        self.block = new
        try:
            # handed over first: their copies read the values before store_results writes
            # into carried buffers
            handed = {i: self.handover(vals[i]) for i in sorted(owned)}
            self.store_results([vals[i] for i in targets], list(targets.values()), carried)
            self.emit(scf.YieldOp(*[handed[i] if i in handed else self.vmap[v]
                                    for i, v in enumerate(vals) if i not in targets]))
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
        require_static(op, PASS, DYNAMIC_OK if isinstance(op, DYNAMIC_OPS) or is_linalg(op) else None)
        handler = HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op)
            return
        if is_linalg(op):
            bufferize_linalg(self, op)
            return
        if any(is_tensor(v.type) for v in (*op.operands, *op.results)):
            raise fail(op, "no bufferization rule for this op")
        if op.regions:
            for inner in op.walk():
                if inner is not op and any(is_tensor(v.type) for v in (*inner.operands, *inner.results)):
                    raise fail(op, f"tensors inside its region ('{inner.name}') cannot be bufferized")
        self.emit(op.clone(self.vmap))

    # ------------------------------------------------------------------ terminators

    def store_results(self, values: list[SSAValue], targets: list[SSAValue], carried: set[Root]) -> None:
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
                tmp = self.alloc(v.type, v)  # type: ignore[arg-type]
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

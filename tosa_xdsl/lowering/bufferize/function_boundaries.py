"""Function boundaries in one-shot-bufferize: the out-param calling convention (upstream's
`bufferize-function-boundaries` + `buffer-results-to-out-params`).

Tensor arguments become memref arguments the function never writes; each tensor result
becomes a trailing out-param memref the function writes, and the function has no tensor
results; but when a result has a dynamic shape (EXT-DYNAMIC) every tensor result is returned
(in order) as a memref the function allocates and the caller owns (the pass marks it `tosa_xdsl.out_params = N` so runners know which arguments are
outputs). func.return stores into the out-params; func.call passes buffers the caller
allocates for the callee's results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, TensorType, UnrankedTensorType
from xdsl.ir import Block, SSAValue

from tosa_xdsl.lowering.bufferize.common import buffer_type, fail
from tosa_xdsl.lowering.bufferize.in_place import Root

if TYPE_CHECKING:
    from tosa_xdsl.lowering.bufferize.converter import Converter

OUT_PARAMS_ATTR = "tosa_xdsl.out_params"


def convert_function(c: Converter, fn: func.FuncOp) -> tuple[Block | None, FunctionType]:
    """The new body (None for a declaration) and type of `fn`; `fn` itself is left as it is."""
    ins = list(fn.function_type.inputs.data)
    outs = list(fn.function_type.outputs.data)
    for t in (*ins, *outs):
        if isinstance(t, UnrankedTensorType):
            raise fail(fn, f"the signature has an unranked tensor type ({t}); ranked types are required")
    new_ins = [buffer_type(t) if isinstance(t, TensorType) else t for t in ins]
    c.returns_buffers = any(isinstance(t, TensorType) and not _is_out_param(t, False) for t in outs)
    out_params = [buffer_type(t) for t in outs if _is_out_param(t, c.returns_buffers)]
    # a dynamically shaped result is returned: the caller cannot know its size beforehand
    new_outs = [buffer_type(t) if isinstance(t, TensorType) else t for t in outs
                if not _is_out_param(t, c.returns_buffers)]
    ftype = FunctionType.from_lists([*new_ins, *out_params], new_outs)
    if not fn.body.blocks:
        return None, ftype
    if len(fn.body.blocks) != 1:
        raise fail(fn, "only single-block function bodies are supported")
    old = fn.body.blocks[0]
    new = Block(arg_types=[*new_ins, *out_params])
    for a, b in zip(old.args, new.args):
        c.vmap[a] = b
        b.name_hint = a.name_hint
        if isinstance(a.type, TensorType):
            r = Root(writable=False, scope=None)
            c.bind(a, r)
    c.out_params = list(new.args[len(new_ins):])
    c.convert_block(old, new)
    return new, ftype


def _is_out_param(t, returns_buffers: bool) -> bool:
    """Tensor results become out-params, unless one of them has a dynamic shape: then every
    tensor result is returned (in order), as the caller cannot allocate a dynamic one."""
    return isinstance(t, TensorType) and not returns_buffers and all(int(d) >= 0 for d in t.get_shape())


def _return(c: Converter, op: func.ReturnOp) -> None:
    tensors = [v for v in op.arguments if _is_out_param(v.type, c.returns_buffers)]
    c.store_results(tensors, c.out_params, set())
    returned = []
    for v in op.arguments:
        if _is_out_param(v.type, c.returns_buffers):
            continue
        if isinstance(v.type, TensorType):
            # a dynamic result: a buffer the caller owns (a copy unless the function owns
            # it: never an argument, a view, a constant or a buffer returned twice)
            returned.append(c.handover(v))
        else:
            returned.append(c.vmap[v])
    c.emit(func.ReturnOp(*returned))


def _call(c: Converter, op: func.CallOp) -> None:
    if any(isinstance(r.type, TensorType) and not _is_out_param(r.type, False) for r in op.results):
        raise fail(op, "a call with a dynamically shaped tensor result is not supported")
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


HANDLERS = {
    func.ReturnOp: _return,
    func.CallOp: _call,
}

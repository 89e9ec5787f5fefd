"""`linalg-fuse-elementwise-ops`: producer-consumer fusion of elementwise linalg.generic ops on
tensors, as upstream MLIR's pass of that name (mlir/lib/Dialect/Linalg/Transforms/
ElementwiseOpFusion.cpp, `fuseElementwiseOps` under its default control function).

A generic P fuses into a generic C that reads P's result when

* both are all-parallel on tensors, P has one result and that result has one use (C's input),
* P's output indexing map is the identity (so P's iteration space is its result's index
  space) and P's body does not read its output block argument (an init like tensor.empty),
* C's indexing map for that input is a permutation, or P's body uses no linalg.index.

The fused generic has C's inputs with P's inputs in place of the fused operand (each P input map
composed with C's map of the fused operand), C's outputs, and a body that runs P's ops and then
C's with the fused block argument replaced by P's yielded value. The pass repeats to a fixed
point, so a chain bias-add -> add -> clamp becomes one loop nest and one buffer.

Like upstream (whose pass also applies `populateConstantFoldLinalgOperations`), a
`linalg.transpose` of a constant is folded into a transposed constant: the convolution and
matmul weights that tosa-to-linalg-named transposes (HWCF kernels, 1x1 convolutions as matmuls)
are then packed once at compile time instead of on every call.

Nothing is computed differently (the same ops on the same values, the intermediate never stored
and reloaded), so results are bit-identical. Differences from upstream: no reshape propagation
(`linalg-fuse-elementwise-ops` upstream also folds tensor.expand/collapse_shape by expansion and
fuses constants and splat fills); producers with several uses are left alone (upstream's default
too).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter


def _all_parallel(op: linalg.GenericOp) -> bool:
    return all(t.data == IteratorType.PARALLEL for t in op.iterator_types.data)


def _maps(op: linalg.GenericOp) -> list[AffineMap]:
    return [m.data for m in op.indexing_maps.data]


def _is_permutation(m: AffineMap) -> bool:
    dims = [r.position for r in m.results if isinstance(r, AffineDimExpr)]
    return len(dims) == len(m.results) == m.num_dims and sorted(dims) == list(range(m.num_dims))


def fusable(producer: linalg.GenericOp, consumer: linalg.GenericOp, index: int) -> bool:
    """May `producer` fuse into input #`index` of `consumer` (see the module docstring)?"""
    if not (_all_parallel(producer) and _all_parallel(consumer)):
        return False
    if len(producer.results) != 1 or len(producer.outputs) != 1:
        return False
    result = producer.results[0]
    if sum(1 for _ in result.uses) != 1 or not isinstance(result.type, TensorType):
        return False
    if any(not isinstance(v.type, TensorType) for v in (*consumer.operands, *producer.operands)
           if hasattr(v.type, "get_shape")):
        return False
    p_maps, c_maps = _maps(producer), _maps(consumer)
    out_map = p_maps[len(producer.inputs)]
    if out_map != AffineMap.identity(out_map.num_dims):
        return False
    if producer.body.block.args[len(producer.inputs)].uses:
        return False
    uses_index = any(isinstance(o, linalg.IndexOp) for o in producer.body.walk())
    c_map = c_maps[index]
    if uses_index and not _is_permutation(c_map):
        return False
    return c_map.num_dims == len(consumer.iterator_types.data) and len(c_map.results) == out_map.num_dims


def fuse(producer: linalg.GenericOp, consumer: linalg.GenericOp, index: int) -> linalg.GenericOp:
    """The fused generic (inserted before `consumer`, which it replaces; `producer` erased)."""
    p_maps, c_maps = _maps(producer), _maps(consumer)
    c_map = c_maps[index]
    n_pin = len(producer.inputs)
    c_inputs = list(consumer.inputs)
    inputs = c_inputs[:index] + list(producer.inputs) + c_inputs[index + 1:]
    maps = (c_maps[:index] + [m.compose(c_map) for m in p_maps[:n_pin]] + c_maps[index + 1:len(c_inputs)]
            + c_maps[len(c_inputs):])
    c_args = list(consumer.body.block.args)
    p_args = list(producer.body.block.args)
    arg_types = ([a.type for a in c_args[:index]] + [a.type for a in p_args[:n_pin]]
                 + [a.type for a in c_args[index + 1:]])
    block = Block(arg_types=arg_types)
    new_args = list(block.args)
    mapping: dict[SSAValue, SSAValue] = {}
    for a, n in zip(c_args[:index], new_args[:index]):
        mapping[a] = n
    for a, n in zip(p_args[:n_pin], new_args[index:index + n_pin]):
        mapping[a] = n
    for a, n in zip(c_args[index + 1:], new_args[index + n_pin:]):
        mapping[a] = n
    p_yield = producer.body.block.last_op
    assert isinstance(p_yield, linalg.YieldOp)
    for op in producer.body.block.ops:
        if op is p_yield:
            break
        if isinstance(op, linalg.IndexOp) and c_map != AffineMap.identity(c_map.num_dims):
            # the producer's dim d is the consumer's dim that c_map puts at position d
            r = c_map.results[op.dim.value.data]
            assert isinstance(r, AffineDimExpr)
            clone = linalg.IndexOp(r.position)
        else:
            clone = op.clone(value_mapper=mapping)
        block.add_op(clone)
        for old, new in zip(op.results, clone.results):
            mapping[old] = new
    mapping[c_args[index]] = mapping.get(p_yield.operands[0], p_yield.operands[0])
    for op in consumer.body.block.ops:
        clone = op.clone(value_mapper=mapping)
        block.add_op(clone)
        for old, new in zip(op.results, clone.results):
            mapping[old] = new
    fused = linalg.GenericOp(inputs, list(consumer.outputs), Region(block),
                             [AffineMapAttr(m) for m in maps], consumer.iterator_types,
                             [r.type for r in consumer.results])
    rw = Rewriter()
    rw.insert_op(fused, InsertPoint.before(consumer))
    for old, new in zip(consumer.results, fused.results):
        old.replace_all_uses_with(new)
    rw.erase_op(consumer)
    rw.erase_op(producer)
    return fused


def fold_constant_transposes(module: ModuleOp) -> int:
    """linalg.transpose of an arith.constant -> the transposed constant; the number folded."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    from tosa_xdsl.ir.dense import from_numpy, to_numpy

    count = 0
    rw = Rewriter()
    for op in [o for o in module.walk() if isinstance(o, linalg.TransposeOp)]:
        src = op.inputs[0].owner if len(op.inputs) == 1 else None
        if not (isinstance(src, arith.ConstantOp) and isinstance(src.value, DenseIntOrFPElementsAttr)
                and op.results and isinstance(op.results[0].type, TensorType)):
            continue
        perm = [int(p) for p in op.permutation.get_values()]
        folded = np.ascontiguousarray(np.transpose(to_numpy(src.value), perm))
        const = arith.ConstantOp(from_numpy(folded, op.results[0].type), op.results[0].type)
        rw.insert_op(const, InsertPoint.before(op))
        op.results[0].replace_all_uses_with(const.result)
        rw.erase_op(op)
        if not any(True for _ in src.result.uses):
            rw.erase_op(src)
        count += 1
    return count


def fuse_elementwise_ops(module: ModuleOp) -> int:
    """Fuse to a fixed point; the number of fusions."""
    count = 0
    changed = True
    while changed:
        changed = False
        for consumer in [op for op in module.walk() if isinstance(op, linalg.GenericOp)]:
            if consumer.parent is None:
                continue
            for index, v in enumerate(consumer.inputs):
                producer = v.owner
                if isinstance(producer, linalg.GenericOp) and fusable(producer, consumer, index):
                    fuse(producer, consumer, index)
                    count += 1
                    changed = True
                    break
    return count


@dataclass(frozen=True)
class LinalgFuseElementwiseOpsPass(ModulePass):
    name = "linalg-fuse-elementwise-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_constant_transposes(op)
        fuse_elementwise_ops(op)

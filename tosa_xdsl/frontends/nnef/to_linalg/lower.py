"""An operator instance on road 2: each @lower formula (one per item of the packs it
assigns, packs.py) compiled in order, the '=' one first, a reducing or updating one on top."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.semantics import TensorType, constant_value, eval_shape
from tosa_xdsl.frontends.nnef.to_linalg.generic import _formula
from tosa_xdsl.frontends.nnef.to_linalg.intrinsics import INTRINSICS
from tosa_xdsl.frontends.nnef.to_linalg.packs import atomic_packs, instances, stack, stacked_formula
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value


def lower_node(em: Emitter, node, ins) -> list[Value]:
    op = node.definition
    env = node.instance.env
    if not op.lowerings:
        if node.op in INTRINSICS:     # no formulas in the draft: a hand-written lowering
            return INTRINSICS[node.op](em, node, ins)
        raise NnefError(node.loc, f"'{node.op}' has no TOSA mapping for these attributes and no @lower formulas")
    tensors = {}
    for p, v in zip(op.inputs, list(ins) + [None] * (len(op.inputs) - len(ins))):
        tensors[p.name] = v
    for p in op.constants:      # compile-time tensors (image.linear_upsample's filter)
        shape = eval_shape(env, p.type.shape, p.loc) if p.type.shape is not None else []
        tensors[p.name] = em.const(constant_value(env, p, shape), shape, p.type.name)
    results: dict[tuple, Value] = {}       # (output, pack item or None) -> value
    out_types = {p.name: ([x.type for x in t] if isinstance(t, list) else t.type)
                 for p, t in zip(op.outputs, node.outputs)}
    params = {p.name: p for p in op.outputs}
    atomic = atomic_packs(op.lowerings, out_types)
    stacked_tensors = _stacked_inputs(em, tensors) if atomic else tensors
    for low in op.lowerings:
        name = low.target.base.name if isinstance(low.target.base, A.Ident) else None
        if name in atomic:
            piece = stacked_formula(low, atomic | {n for n, v in stacked_tensors.items() if isinstance(v, Value)
                                                   and isinstance(tensors[n], list)})
            items = out_types[name]
            if any(t.shape != items[0].shape for t in items) or not items:
                raise NnefError(low.loc, f"the items of the packed output '{name}' differ in shape: its "
                                "conditional packed assignment is not compiled")
            out_type = TensorType(items[0].dtype, [len(items), *items[0].shape])
            results[name, None] = _formula(em, env, piece, stacked_tensors, out_type, results.get((name, None)),
                                           param=params[name])
            continue
        for name, item, item_env, piece in instances(low, env, out_types, tensors):
            out_type = out_types[name] if item is None else out_types[name][item]
            results[name, item] = _formula(em, item_env, piece, tensors, out_type, results.get((name, item)),
                                           param=params[name])
    for name in atomic:      # the stacked tensor split into the pack's items
        whole = results.pop((name, None))
        inner = whole.shape[1:]
        for k in range(whole.shape[0]):
            part = em.op("tosa.slice", [whole, em.shape([k] + [0] * len(inner)), em.shape([1, *inner])],
                         [1, *inner], whole.dtype)
            results[name, k] = em.reshape(part, inner)
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


def _stacked_inputs(em: Emitter, tensors: dict) -> dict:
    """Input packs whose items share a shape, stacked along a new leading axis (for formulas
    of a stacked output pack, which read them as `xs[:, ...]`)."""
    out = dict(tensors)
    for name, v in tensors.items():
        if isinstance(v, list) and v and all(x.shape == v[0].shape and x.dtype == v[0].dtype for x in v):
            out[name] = stack(em, v)
    return out

"""An operator instance on road 2: each @lower formula (one per item of the packs it
assigns, packs.py) compiled in order, the '=' one first, a reducing or updating one on top."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.to_linalg.generic import _formula
from tosa_xdsl.frontends.nnef.to_linalg.packs import instances
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value


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

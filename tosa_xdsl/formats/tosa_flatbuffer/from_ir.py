"""Our TOSA IR -> TosaGraph (the dict shape writer.encode takes), as Arm's
`tosa-opt --tosa-serialize` lays it out:

- the entry function (`@main`, else the first `func.func`) is region and block "main";
  its arguments/results are named by `tosa.tensor_name` argument/result attributes when
  present (Arm's `--retain-graph-input-output-names`), else TosaInput_N / TosaOutput_N;
  other tensors are layer_N; an op producing a block output writes it directly;
- COND_IF / WHILE_LOOP regions are extra regions named `<op>_<N>_<then|else|cond|body>`
  referenced from the op's attribute, one block `<region>_bb0` each;
- module-level `tosa.variable`s are tensors with `variable = true`; VARIABLE_WRITE /
  VARIABLE_READ are IDENTITY ops into / out of them (what the reference model runs);
- shape values (`!tosa.shape<N>`) go to the block's `shapes`, constant data as int64.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FileLineColLoc,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tosa_xdsl.dense import to_numpy
from tosa_xdsl.ir.types import ShapeType

from . import dtypes, schema
from .to_ir import TENSOR_NAME

_OP_CODE = {name: code for code, name in enumerate(schema.OPS)}
_ENUM_SPELLING = {"NEAREST_NEIGHBOR": "NEAREST"}
_ENUM_VALUE = {enum: {n: v for v, n in values.items()} for enum, values in schema.ENUMS.items()}


class SerializeError(Exception):
    """The module has something the TOSA flatbuffer cannot express."""


def _op_desc(op: Operation) -> str:
    return f"'{op.name}'"


class _Serializer:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.regions: list[dict[str, Any]] = []
        self.names: dict[SSAValue, str] = {}
        self.counters = {"TosaInput": 0, "TosaOutput": 0, "layer": 0, "Variable": 0}
        self.variables: dict[str, dict[str, Any]] = {}  # symbol -> tensor entry
        self.region_ids = 0

    def fresh(self, kind: str) -> str:
        n = self.counters[kind]
        self.counters[kind] += 1
        return f"{kind}_{n}"

    # ------------------------------------------------------------------ entries
    def tensor_entry(self, name: str, ty: Attribute, data: bytes | None = None) -> dict[str, Any]:
        if isinstance(ty, UnrankedTensorType):
            elt, shape, unranked = ty.element_type, [], True
        elif isinstance(ty, TensorType):
            # dynamic dimensions are -1 in the flatbuffer
            elt, shape, unranked = ty.element_type, [max(int(d), -1) for d in ty.get_shape()], False
        else:
            raise SerializeError(f"value '{name}' has type {ty}, not a tensor")
        code = dtypes.dtype_of(elt)
        if code is None:
            raise SerializeError(f"element type {elt} has no TOSA flatbuffer form")
        return {"name": name, "shape": shape, "type": code, "is_unranked": unranked,
                "data": data}

    def constant_bytes(self, values: Attribute, ty: Attribute) -> bytes:
        code = dtypes.dtype_of(ty.get_element_type())  # type: ignore[attr-defined]
        assert code is not None
        return dtypes.pack(to_numpy(values), code)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ attributes
    def attribute(self, op: Operation, opname: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for field, typ in schema.fields(schema.attribute_table(opname)):
            a = op.properties.get(field) or op.attributes.get(field)
            if a is None:
                continue
            if typ == "[int32]":
                if not isinstance(a, DenseArrayBase):
                    raise SerializeError(f"{_op_desc(op)}: {field} is not an array")
                out[field] = [int(x) for x in a.get_values()]
            elif typ == "int32":
                out[field] = int(a.value.data)  # type: ignore[attr-defined]
            elif typ == "bool":
                out[field] = bool(a.value.data)  # type: ignore[attr-defined]
            elif typ == "string":
                out[field] = a.data  # type: ignore[attr-defined]
            elif typ == "DType":
                code = dtypes.dtype_of(a)
                if code is None:
                    raise SerializeError(f"{_op_desc(op)}: {field} = {a} has no flatbuffer type")
                out[field] = code
            elif typ in _ENUM_VALUE:
                name = str(a.data)  # type: ignore[attr-defined]
                out[field] = _ENUM_VALUE[typ][_ENUM_SPELLING.get(name, name)]
            elif typ == "[ubyte]" and isinstance(a, StringAttr):  # custom implementation_attrs
                out[field] = a.data.encode()
            elif typ == "[ubyte]" and isinstance(a, (IntegerAttr, FloatAttr)):  # clamp bounds
                code = dtypes.dtype_of(a.type)
                if code is None:
                    raise SerializeError(f"{_op_desc(op)}: {field} of type {a.type}")
                out[field] = dtypes.pack(np.array([a.value.data]), code)
            else:
                raise SerializeError(f"{_op_desc(op)}: cannot serialize {field} = {a}")
        return out

    # ------------------------------------------------------------------ blocks
    def block(self, block: Block, region_name: str, in_names: list[str] | None,
              out_names: list[str] | None, captured: list[SSAValue] = (),  # type: ignore[assignment]
              pass_through: bool = False) -> None:
        """One region of one block. `captured`: values from outside that become extra block
        inputs (and, with `pass_through`, extra outputs: a WHILE_LOOP's loop-carried copy)."""
        fb: dict[str, Any] = {"name": region_name if region_name == "main" else f"{region_name}_bb0",
                              "operators": [], "tensors": [], "shapes": []}
        self.regions.append({"name": region_name, "blocks": [fb]})
        inputs = []
        for i, arg in enumerate(block.args):
            name = in_names[i] if in_names and in_names[i] else self.fresh("TosaInput")
            self.names[arg] = name
            self.add_value_entry(fb, name, arg.type)
            inputs.append(name)
        outer_names = {v: self.names[v] for v in captured}
        for v in captured:
            name = self.fresh("TosaInput")
            self.names[v] = name
            self.add_value_entry(fb, name, v.type)
            inputs.append(name)
        term = block.last_op
        returned = list(term.operands) if term is not None else []
        # An op computing a block output writes it under the output's name (as Arm's
        # serializer does); block inputs and values from outside are listed by their name.
        out_for: dict[SSAValue, str] = {}
        for i, v in enumerate(returned):
            owner = v.owner
            if isinstance(owner, Operation) and owner.parent_block() is block and v not in out_for:
                out_for[v] = out_names[i] if out_names and out_names[i] else self.fresh("TosaOutput")
        for op in block.ops:
            if op is term:
                break
            self.operation(op, fb, out_for)
        outputs = [self.name_of(v, term) for v in returned]  # type: ignore[arg-type]
        if pass_through:
            outputs += [self.names[v] for v in captured]
        self.names.update(outer_names)
        fb["inputs"], fb["outputs"] = inputs, outputs

    def add_value_entry(self, fb: dict[str, Any], name: str, ty: Attribute,
                        data: bytes | None = None) -> None:
        if isinstance(ty, ShapeType):
            fb["shapes"].append({"name": name, "rank": ty.rank.data, "data": data})
        else:
            fb["tensors"].append(self.tensor_entry(name, ty, data))

    def operation(self, op: Operation, fb: dict[str, Any], out_for: dict[SSAValue, str]) -> None:
        if not op.name.startswith("tosa."):
            raise SerializeError(f"{_op_desc(op)} has no TOSA flatbuffer form")
        opname = op.name[len("tosa."):].upper()
        if opname in ("VARIABLE_WRITE", "VARIABLE_READ"):
            return self.variable_access(op, opname, fb, out_for)
        if opname not in _OP_CODE:
            raise SerializeError(f"{_op_desc(op)} has no TOSA flatbuffer form")
        out_names = []
        for r in op.results:
            name = out_for.get(r) or self.fresh("layer")
            self.names[r] = name
            out_names.append(name)
            data = None
            if opname in ("CONST", "CONST_SHAPE"):
                data = self.constant_bytes(op.properties["values"], op.properties["values"].type)  # type: ignore[attr-defined]
            self.add_value_entry(fb, name, r.type, data)
        attribute = self.attribute(op, opname)
        in_names = [self.name_of(v, op) for v in op.operands]
        if opname in ("COND_IF", "WHILE_LOOP"):
            # TOSA regions see only their inputs: values the regions use from outside
            # become extra inputs (and, for a loop, extra loop-carried outputs).
            captured = _captured(op)
            in_names += [self.name_of(v, op) for v in captured]
            loop = opname == "WHILE_LOOP"
            if loop:
                for v in captured:
                    name = self.fresh("layer")
                    self.add_value_entry(fb, name, v.type)
                    out_names.append(name)
            keys = ("then_graph", "else_graph") if opname == "COND_IF" else ("cond_graph", "body_graph")
            base = f"{op.name}_{self.region_ids}"
            self.region_ids += 1
            for key, region in zip(keys, op.regions):
                name = f"{base}_{key.split('_')[0]}"
                attribute[key] = name
                self.block(region.block, name, None, None, captured,
                           pass_through=loop and key == "body_graph")
        fb["operators"].append({"op": _OP_CODE[opname], "attribute_type": _OP_CODE[opname],
                                "attribute": attribute, "inputs": in_names, "outputs": out_names,
                                "location": _location(op)})

    def name_of(self, v: SSAValue, op: Operation) -> str:
        if v not in self.names:
            raise SerializeError(f"{_op_desc(op)} uses a value defined outside the graph")
        return self.names[v]

    def variable_access(self, op: Operation, opname: str, fb: dict[str, Any],
                        out_for: dict[SSAValue, str]) -> None:
        sym = op.properties["name"].data  # type: ignore[attr-defined]
        if sym not in self.variables:
            raise SerializeError(f"{_op_desc(op)}: no tosa.variable @{sym}")
        var = self.variables[sym]["name"]
        if opname == "VARIABLE_WRITE":
            ins, outs = [self.name_of(op.operands[0], op)], [var]
        else:
            r = op.results[0]
            name = out_for.get(r) or self.fresh("layer")
            self.names[r] = name
            self.add_value_entry(fb, name, r.type)
            ins, outs = [var], [name]
        fb["operators"].append({"op": _OP_CODE["IDENTITY"], "attribute_type": _OP_CODE["IDENTITY"],
                                "attribute": {}, "inputs": ins, "outputs": outs})

    # ------------------------------------------------------------------ module
    def graph(self, version: tuple[int, int, int, bool]) -> dict[str, Any]:
        funcs = [op for op in self.module.ops if isinstance(op, FuncOp)]
        if not funcs:
            raise SerializeError("the module has no func.func to serialize")
        fn = next((f for f in funcs if f.sym_name.data == "main"), funcs[0])
        for op in self.module.ops:
            if op.name == "tosa.variable":
                sym = op.properties["sym_name"].data  # type: ignore[attr-defined]
                ty = TensorType(op.properties["type"],  # type: ignore[arg-type]
                                [int(d) for d in op.properties["var_shape"].get_values()])  # type: ignore[attr-defined]
                init = op.properties.get("initial_value")
                data = self.constant_bytes(init, ty) if init is not None else None
                entry = self.tensor_entry(self.fresh("Variable"), ty, data)
                entry.update(variable=True, variable_name=sym)
                self.variables[sym] = entry

        def names(attrs: Any, n: int) -> list[str] | None:
            if attrs is None:
                return None
            got = [d.data.get(TENSOR_NAME) for d in attrs.data]
            return [g.data if isinstance(g, StringAttr) else "" for g in got] if len(got) == n else None

        body = fn.body.block
        self.block(body, "main", names(fn.arg_attrs, len(body.args)),
                   names(fn.res_attrs, len(fn.function_type.outputs.data)))
        self.regions[0]["blocks"][0]["tensors"][:0] = list(self.variables.values())
        major, minor, patch, draft = version
        return {"version": {"_major": major, "_minor": minor, "_patch": patch, "_draft": draft},
                "regions": self.regions}


def _location(op: Operation) -> dict[str, str] | None:
    """OpLocation as Arm's serializer writes it: `loc("file":line:col)`."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        name = loc.filename.data.replace("\\", "\\\\").replace('"', '\\"')
        return {"text": f'loc("{name}":{loc.line.data}:{loc.column.data})'}
    return None


def _captured(op: Operation) -> list[SSAValue]:
    """Values used inside op's regions but defined outside op, in first-use order."""
    inside: set[SSAValue] = set()
    used: dict[SSAValue, None] = {}
    for region in op.regions:
        for inner in region.walk():
            for blk in inner.regions:
                for b in blk.blocks:
                    inside.update(b.args)
            inside.update(inner.results)
        for b in region.blocks:
            inside.update(b.args)
    for region in op.regions:
        for inner in region.walk():
            for v in inner.operands:
                if v not in inside:
                    used.setdefault(v, None)
    return list(used)


def module_to_graph(module: ModuleOp, version: tuple[int, int, int, bool] = schema.NEWEST_VERSION
                    ) -> dict[str, Any]:
    """The TosaGraph dict of a (verified) module; raises SerializeError."""
    return _Serializer(module).graph(version)

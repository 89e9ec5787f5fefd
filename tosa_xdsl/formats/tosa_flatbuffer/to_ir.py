"""TosaGraph (decoded flatbuffer) -> our TOSA IR, as Arm's `tosa-opt --tosa-deserialize` does.

The first region becomes `func.func @main`; its block's inputs/outputs become the
function's arguments/results, named by `tosa.tensor_name` argument/result attributes; the
module carries `tosa.description` and `tosa.fbs_version` like Arm's translator writes.
Regions named by COND_IF / WHILE_LOOP attributes become the op's regions (their block
inputs the region arguments, their outputs a `tosa.yield`). Variables are tensors with
`variable = true`: each becomes a module-level `tosa.variable`, and IDENTITY into / out of
one (how Arm's serializer writes VARIABLE_WRITE / VARIABLE_READ) or the explicit ops become
`tosa.variable_write` / `tosa.variable_read`. Op properties come from the op's `CLAUSES`
(tosa_xdsl.dialects.tosa.syntax), keyed by the same names the schema uses.
"""

from __future__ import annotations

import re
from collections import ChainMap
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tosa_xdsl.dialects.tosa.syntax import Kind, normalized_properties
from tosa_xdsl.ir.dense import float_sem, from_numpy
from tosa_xdsl.ir.types import ShapeType

from . import dtypes, schema
from .reader import FlatbufferError

TENSOR_NAME = "tosa.tensor_name"
_LOC = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d{1,9}):(\d{1,9})\)')
MAX_REGION_DEPTH = 64
# Flatbuffer enum spellings that differ from our dialect's.
_ENUM_SPELLING = {"NEAREST": "NEAREST_NEIGHBOR"}


# Constants from this size on become dense_resource views of the input (see _constant).
LARGE_CONSTANT_BYTES = 1 << 20


def _raw_layout(arr: Any, ty: Attribute) -> bool:
    """Whether `arr`'s bytes are MLIR's raw storage of `ty`'s elements (floats of the same
    format, integers of the same width; not i1/i4/i48, which MLIR stores differently)."""
    elt = ty.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    if (sem := float_sem(elt)) is not None:
        return arr.dtype == sem.dtype
    width = getattr(getattr(elt, "width", None), "data", None)
    return arr.dtype.kind in "iu" and width in (8, 16, 32, 64) and arr.dtype.itemsize * 8 == width


def _resource_key(name: str) -> str:
    return name if name and name.replace("_", "a").isalnum() and not name[0].isdigit() else "tensor"


def check_version(version: dict[str, Any]) -> str:
    """The version as Arm prints it ("1.1.0d"); error for versions we do not know."""
    major, minor, patch, draft = (version["_major"], version["_minor"], version["_patch"],
                                  version["_draft"])
    text = f"{major}.{minor}.{patch}{'d' if draft else ''}"
    nmaj, nmin, npatch, ndraft = schema.NEWEST_VERSION
    newest = f"{nmaj}.{nmin}.{npatch}{' (draft)' if ndraft else ''}"
    if (major, minor) > (nmaj, nmin):
        raise FlatbufferError(f"TOSA flatbuffer schema version {text} is newer than the newest "
                              f"this reader knows ({newest})")
    if (major, minor) not in schema.KNOWN_VERSIONS:
        raise FlatbufferError(f"TOSA flatbuffer schema version {text} is not supported "
                              f"(known: 1.0 and {newest})")
    return text


class _Builder:
    def __init__(self, graph: dict[str, Any], ctx: Context):
        self.ctx = ctx
        self.regions: dict[str, dict[str, Any]] = {}
        for r in graph.get("regions") or []:
            self.regions.setdefault(r.get("name") or "", r)
        total_ops = sum(len(b.get("operators") or []) for r in self.regions.values()
                        for b in r.get("blocks") or [])
        # Regions may be shared by several ops: cap the ops built so sharing cannot explode.
        self.op_budget = 4 * total_ops + 1024
        self.variables: dict[str, Operation] = {}  # tensor name -> tosa.variable
        self.active: list[str] = []  # regions being built (innermost last)
        # where each op came from, for diagnostics: "block 'main' operator #3 (ADD) at loc(...)"
        self.origin: dict[Operation, str] = {}
        # tensors and shapes visible in the block being built (a region sees its parents')
        self.tensors: ChainMap = ChainMap()
        self.shapes: ChainMap = ChainMap()

    # ------------------------------------------------------------------ tensors
    def _tensor_type(self, t: dict[str, Any]) -> Attribute:
        elt = dtypes.element_type(t["type"])
        if elt is None:
            raise FlatbufferError(f"tensor '{t['name']}': type {dtypes.dtype_name(t['type'])} "
                                  "is not supported")
        if t.get("is_unranked"):
            return UnrankedTensorType(elt)
        shape = t.get("shape") or []
        if any(d < -1 for d in shape):
            raise FlatbufferError(f"tensor '{t['name']}': bad shape {shape}")
        return TensorType(elt, [DYNAMIC_INDEX if d == -1 else d for d in shape])

    def _constant(self, t: dict[str, Any], ty: Attribute) -> Attribute:
        """A constant's value: `dense<...>`, or for LARGE_CONSTANT_BYTES and more stored in
        MLIR's raw layout, a `dense_resource` viewing the input's bytes."""
        if not isinstance(ty, TensorType) or any(d < 0 for d in ty.get_shape()):
            raise FlatbufferError(f"constant tensor '{t['name']}' needs a static shape")
        try:
            arr = dtypes.unpack(t.get("data") or b"", t["type"], tuple(ty.get_shape()))
            if arr.nbytes >= LARGE_CONSTANT_BYTES and _raw_layout(arr, ty):
                # weights: a dense_resource on the file's own bytes (no copy; peak memory
                # stays at the file's size instead of twice it)
                from tosa_xdsl.ir.resources import make_dense_resource

                return make_dense_resource(arr, ty, key_hint=_resource_key(t["name"]), copy=False)
            return from_numpy(arr, ty)
        except (ValueError, TypeError, NotImplementedError) as e:
            raise FlatbufferError(f"constant tensor '{t['name']}': {e}") from None

    # ------------------------------------------------------------------ properties
    def _properties(self, cls: Any, fb_attr: dict[str, Any], opname: str,
                    operand_types: list[Attribute]) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {}
        table = dict(schema.fields(schema.attribute_table(opname)))
        for c in getattr(cls, "CLAUSES", ()):
            if c.name not in table or c.name not in fb_attr:
                continue
            v, typ = fb_attr[c.name], table[c.name]
            if c.kind is Kind.ARRAY:
                props[c.name] = DenseArrayBase.from_list(c.element, v or [])
            elif c.kind is Kind.INT:
                props[c.name] = IntegerAttr(v, i32)
            elif c.kind is Kind.BOOL:
                if v or not c.optional:
                    props[c.name] = BoolAttr.from_bool(bool(v))
            elif c.kind is Kind.STRING:
                props[c.name] = StringAttr(bytes(v).decode("utf-8", "replace")
                                           if isinstance(v, memoryview) else (v or ""))
            elif c.kind is Kind.TYPE:
                elt = dtypes.element_type(v)
                if elt is None:
                    raise FlatbufferError(f"{opname}: {c.name} has type {dtypes.dtype_name(v)}")
                props[c.name] = elt
            elif c.kind is Kind.ENUM:
                name = schema.ENUMS[typ].get(v, "UNKNOWN")
                if name == "UNKNOWN":
                    if c.default is None:
                        raise FlatbufferError(f"{opname}: {c.name} is {v}, not a {typ} value")
                    continue
                assert c.enum is not None
                props[c.name] = c.enum(c.enum.enum_type(_ENUM_SPELLING.get(name, name)))
            elif c.kind is Kind.ATTR and typ == "[ubyte]":  # clamp min_val / max_val
                props[c.name] = self._scalar_attr(v, operand_types, opname, c.name)
        return normalized_properties(getattr(cls, "CLAUSES", ()), props)

    def _scalar_attr(self, data: Any, operand_types: list[Attribute], opname: str,
                     field: str) -> Attribute:
        elt = operand_types[0].get_element_type() if operand_types else None  # type: ignore[union-attr]
        dtype = None if elt is None else dtypes.dtype_of(elt)
        if dtype is None:
            raise FlatbufferError(f"{opname}: cannot decode {field} without an input type")
        try:
            (value,) = dtypes.unpack(data or b"", dtype, (1,))
        except ValueError as e:
            raise FlatbufferError(f"{opname}: {field}: {e}") from None
        if float_sem(elt) is not None:
            return FloatAttr(float(value), elt)  # type: ignore[arg-type]
        assert isinstance(elt, IntegerType)
        return IntegerAttr(int(value), elt)

    # ------------------------------------------------------------------ blocks
    def region(self, name: str, where: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """(region, its single block) by name."""
        r = self.regions.get(name)
        if r is None:
            raise FlatbufferError(f"{where}: no region named '{name}'")
        blocks = r.get("blocks") or []
        if len(blocks) != 1:
            raise FlatbufferError(f"region '{name}' has {len(blocks)} blocks; TOSA expects one")
        return r, blocks[0]

    def block(self, fb_block: dict[str, Any], scope: ChainMap, block: Block) -> list[SSAValue]:
        """Fill `block` with the block's operators; returns the values of its outputs."""
        tensors = {t["name"]: t for t in fb_block.get("tensors") or []}
        shapes = {s["name"]: s for s in fb_block.get("shapes") or []}
        self.tensors, self.shapes = self.tensors.new_child(tensors), self.shapes.new_child(shapes)
        for name, t in tensors.items():  # every variable, used or not, as Arm declares them
            if t.get("variable"):
                self._variable(name)
        for name in fb_block.get("inputs") or []:
            scope[name] = block.insert_arg(self.value_type(name, "block input"), len(block.args))
        for i, fb_op in enumerate(fb_block.get("operators") or []):
            where = f"block '{fb_block.get('name')}' operator #{i}"
            loc = (fb_op.get("location") or {}).get("text")
            for op in self.operation(fb_op, scope, where):
                block.add_op(op)
                self.origin[op] = f"{where} ({schema.OPS[fb_op['op']]})" + (f" at {loc}" if loc else "")
                if loc and (m := _LOC.fullmatch(loc)):  # Arm's serializer writes loc("f":l:c)
                    file = re.sub(r"\\(.)", r"\1", m[1])
                    op.location = FileLineColLoc(StringAttr(file), IntAttr(int(m[2])), IntAttr(int(m[3])))
        return [self.lookup(scope, n, f"block '{fb_block.get('name')}' output")
                for n in fb_block.get("outputs") or []]

    def value_type(self, name: str, where: str) -> Attribute:
        if name in self.tensors:
            return self._tensor_type(self.tensors[name])
        if name in self.shapes:
            return ShapeType(self.shapes[name].get("rank", 0))
        raise FlatbufferError(f"{where}: no tensor or shape named '{name}'")

    def lookup(self, scope: ChainMap, name: str, where: str) -> SSAValue:
        if name in scope:
            return scope[name]
        raise FlatbufferError(f"{where}: '{name}' is used before it is defined")

    def _variable(self, name: str) -> Operation:
        if name not in self.variables:
            t = self.tensors[name]
            ty = self._tensor_type(t)
            cls = self.ctx.get_op("tosa.variable")
            init = self._constant(t, ty) if t.get("data") is not None and len(t["data"]) else None
            sym = t.get("variable_name") or name
            if not isinstance(ty, TensorType):
                raise FlatbufferError(f"variable '{sym}' needs a ranked tensor type")
            self.variables[name] = cls(sym, ty, init)
        return self.variables[name]

    def _is_variable(self, name: str) -> bool:
        return bool(name in self.tensors and self.tensors[name].get("variable"))

    def operation(self, fb_op: dict[str, Any], scope: ChainMap, where: str) -> list[Operation]:
        self.op_budget -= 1
        if self.op_budget < 0:
            raise FlatbufferError("too many operators (regions shared or nested too often)")
        code = fb_op.get("op", 0)
        opname = schema.OPS[code] if 0 < code < len(schema.OPS) else None
        if opname is None:
            raise FlatbufferError(f"{where}: unknown operator code {code}")
        where = f"{where} ({opname})"
        ins, outs = fb_op.get("inputs") or [], fb_op.get("outputs") or []
        attr = fb_op.get("attribute") or {}
        # Variables: IDENTITY into/out of a variable tensor, or the explicit ops.
        if opname in ("IDENTITY", "VARIABLE_WRITE", "VARIABLE_READ", "VARIABLE"):
            var_in = [n for n in ins if self._is_variable(n)]
            var_out = [n for n in outs if self._is_variable(n)]
            if opname == "VARIABLE" or var_in or var_out:
                return self._variable_op(opname, ins, outs, var_in, var_out, scope, where)
        mlir_name = "tosa." + opname.lower()
        cls = self.ctx.get_optional_op(mlir_name)
        if cls is None:
            raise FlatbufferError(f"{where}: operator {opname} is not part of TOSA 1.0 "
                                  "(not supported by this dialect)")
        result_types = [self.value_type(n, where) for n in outs]
        if opname in ("CONST", "CONST_SHAPE"):
            if len(outs) != 1 or ins:
                raise FlatbufferError(f"{where}: expects no inputs and one output")
            op = self._const(cls, outs[0], result_types[0], where)
        else:
            operands = [self.lookup(scope, n, where) for n in ins]
            props = self._properties(cls, attr, opname, [v.type for v in operands])
            regions: list[Region] = []
            if opname == "COND_IF":
                regions = [self._region(attr.get("then_graph"), scope, where),
                           self._region(attr.get("else_graph"), scope, where)]
            elif opname == "WHILE_LOOP":
                regions = [self._region(attr.get("cond_graph"), scope, where),
                           self._region(attr.get("body_graph"), scope, where)]
            op = cls.create(operands=operands, result_types=result_types, properties=props,
                            regions=regions)
        for n, r in zip(outs, op.results):
            scope[n] = r
        return [op]

    def _const(self, cls: Any, name: str, ty: Attribute, where: str) -> Operation:
        if name in self.shapes:
            s = self.shapes[name]
            rank = s.get("rank", 0)
            values = self._constant({"name": name, "type": dtypes.dtype_value("SHAPE"),
                                     "data": s.get("data")}, TensorType(IndexType(), [rank]))
        else:
            values = self._constant(self.tensors[name], ty)
        return cls.create(result_types=[ty], properties={"values": values})

    def _variable_op(self, opname: str, ins: list[str], outs: list[str], var_in: list[str],
                     var_out: list[str], scope: ChainMap, where: str) -> list[Operation]:
        if opname == "VARIABLE":
            for n in ins + outs:
                if self._is_variable(n):
                    self._variable(n)
            return []
        if var_out and len(ins) == 1 and not var_in:  # write: value -> variable
            sym = self._variable(var_out[0]).sym_name  # type: ignore[attr-defined]
            cls = self.ctx.get_op("tosa.variable_write")
            return [cls.create(operands=[self.lookup(scope, ins[0], where)],
                               properties={"name": sym})]
        if var_in and len(outs) == 1 and not var_out:  # read: variable -> value
            var = self._variable(var_in[0])
            cls = self.ctx.get_op("tosa.variable_read")
            op = cls.create(result_types=[self.value_type(outs[0], where)],
                            properties={"name": var.sym_name})  # type: ignore[attr-defined]
            scope[outs[0]] = op.results[0]
            return [op]
        raise FlatbufferError(f"{where}: cannot tell which variable is read or written")

    def _region(self, name: Any, scope: ChainMap, where: str) -> Region:
        if not isinstance(name, str):
            raise FlatbufferError(f"{where}: the attribute names no region")
        if name in self.active:
            raise FlatbufferError(f"{where}: region '{name}' contains itself")
        if len(self.active) >= MAX_REGION_DEPTH:
            raise FlatbufferError(f"{where}: regions nested deeper than {MAX_REGION_DEPTH}")
        _, fb_block = self.region(name, where)
        self.active.append(name)
        saved = self.tensors, self.shapes
        block = Block()
        outputs = self.block(fb_block, scope.new_child(), block)
        block.add_op(self.ctx.get_op("tosa.yield").create(operands=outputs))
        self.tensors, self.shapes = saved
        self.active.pop()
        return Region(block)

    # ------------------------------------------------------------------ module
    def module(self, version_text: str) -> ModuleOp:
        if not self.regions:
            raise FlatbufferError("the graph has no regions")
        main_name = "main" if "main" in self.regions else next(iter(self.regions))
        _, fb_block = self.region(main_name, "graph")
        block = Block()
        self.active.append(main_name)
        outputs = self.block(fb_block, ChainMap(), block)
        block.add_op(ReturnOp(*outputs))
        in_names, out_names = fb_block.get("inputs") or [], fb_block.get("outputs") or []
        fn = FuncOp("main", FunctionType.from_lists([a.type for a in block.args],
                                                    [v.type for v in outputs]),
                    Region(block),
                    arg_attrs=ArrayAttr([DictionaryAttr({TENSOR_NAME: StringAttr(n)}) for n in in_names]),
                    res_attrs=ArrayAttr([DictionaryAttr({TENSOR_NAME: StringAttr(n)}) for n in out_names]))
        module = ModuleOp([*self.variables.values(), fn])
        module.attributes["tosa.description"] = StringAttr("TOSA FBS Converted")
        module.attributes["tosa.fbs_version"] = StringAttr(version_text)
        return module


def graph_to_module(graph: dict[str, Any], ctx: Context) -> tuple[ModuleOp, dict[Operation, str]]:
    """The module for a decoded TosaGraph, and where each op came from (for diagnostics).
    Raises FlatbufferError on anything malformed (the caller verifies the module:
    operator-level errors come from our verifiers)."""
    version_text = check_version(graph["version"])
    builder = _Builder(graph, ctx)
    return builder.module(version_text), builder.origin

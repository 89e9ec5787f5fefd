"""Read a .tflite flatbuffer into a module of `tfl` ops (`read_tflite`).

- every subgraph becomes a `func.func` (subgraph 0 is `@main`), its input tensors the
  block arguments (named after the tensors, or the signature's names), its outputs the
  `func.return` operands; a `tf.entry_function = {inputs = "..", outputs = ".."}` attribute
  keeps the names, as TensorFlow's importer does;
- operators become `tfl.<name>` ops in file order (TFLite stores them topologically
  sorted), options become properties (`tosa_xdsl.frontends.tflite.dialect`);
  WHILE / IF get regions that call the cond/body (then/else) subgraph functions;
- tensors with a buffer become `tfl.pseudo_const` / `tfl.pseudo_qconst` (the buffer is
  read as a numpy view of the file and stored once as a dense attribute), quantized
  tensors get `!quant.uniform` element types (`tosa_xdsl.dialects.quant`).

Everything a file can get wrong ends as a `TFLiteError` ("file: error: message"):
truncation, a wrong identifier, out-of-range indices, missing or short buffers, vectors
longer than the file, custom or unknown operators, unsupported tensor types. Reading is
bounded by the file size: no vector is walked past what the file could hold.
"""

from __future__ import annotations

import re
import struct
import weakref
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BFloat16Type,
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
    UnitAttr,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl.dialects.quant import UniformQuantizedPerAxisType, UniformQuantizedType
from tosa_xdsl.frontends.tflite import dialect as tfl
from tosa_xdsl.frontends.tflite.schema import (
    BUILTIN_OPERATORS,
    BUILTIN_OPTIONS,
    BUILTIN_OPTIONS2,
    ENUM_FIELDS,
    TENSOR_TYPES,
    fb,
)

IDENTIFIER = b"TFL3"

# Where each imported op came from ("subgraph 0, operator 12 'conv2d'"), for diagnostics.
LOCATIONS: weakref.WeakKeyDictionary[Operation, str] = weakref.WeakKeyDictionary()


class TFLiteError(Exception):
    """A bad .tflite file: printed as `file: error: message`."""

    def __init__(self, message: str, filename: str = "<tflite>"):
        super().__init__(message)
        self.message = message
        self.filename = filename

    def __str__(self) -> str:
        return f"{self.filename}: error: {self.message}"


# TFLite tensor type -> (MLIR element type, numpy dtype of the buffer)
_ELEMENT: dict[str, tuple[Attribute, Any]] = {
    "FLOAT32": (Float32Type(), np.float32),
    "FLOAT16": (Float16Type(), np.float16),
    "FLOAT64": (Float64Type(), np.float64),
    "BFLOAT16": (BFloat16Type(), None),
    "INT32": (IntegerType(32), np.int32),
    "INT64": (IntegerType(64), np.int64),
    "INT16": (IntegerType(16), np.int16),
    "INT8": (IntegerType(8), np.int8),
    "UINT8": (IntegerType(8, Signedness.UNSIGNED), np.uint8),
    "UINT16": (IntegerType(16, Signedness.UNSIGNED), np.uint16),
    "UINT32": (IntegerType(32, Signedness.UNSIGNED), np.uint32),
    "UINT64": (IntegerType(64, Signedness.UNSIGNED), np.uint64),
    "BOOL": (IntegerType(1), np.bool_),
    "COMPLEX64": (ComplexType(Float32Type()), np.complex64),
}
_QUANTIZABLE = {"INT8": (8, True), "UINT8": (8, False), "INT16": (16, True), "INT32": (32, True),
                "INT4": (4, True), "INT64": (64, True)}

_SKIP_METHODS = {"Init"}


def _sanitize(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_$.]", "_", name)
    return s if s and not s[0].isdigit() else "_" + s


class _Reader:
    def __init__(self, data: bytes, filename: str):
        self.data = data
        self.view = memoryview(data)
        self.filename = filename
        self.limit = max(1, len(data) // 4)  # no vector of 4-byte items can be longer

    # --- bounded access --------------------------------------------------------------
    def fail(self, message: str):
        raise TFLiteError(message, self.filename)

    def count(self, n: int, what: str) -> int:
        if n < 0 or n > self.limit:
            self.fail(f"malformed flatbuffer: {what} has {n} entries, more than the file can hold")
        return n

    def vector(self, obj: Any, field: str, what: str) -> list[int]:
        if getattr(obj, field + "IsNone")():
            return []
        n = self.count(getattr(obj, field + "Length")(), what)
        if n == 0:
            return []
        return [int(v) for v in getattr(obj, field + "AsNumpy")()]

    # --- the model -------------------------------------------------------------------
    def read(self, ctx) -> ModuleOp:
        if len(self.data) < 8:
            self.fail(f"truncated file: {len(self.data)} bytes, a TFLite flatbuffer has at least 8")
        if self.data[4:8] != IDENTIFIER:
            self.fail(f"not a TFLite flatbuffer: file identifier at offset 4 is {bytes(self.data[4:8])!r}, expected b'TFL3'")
        root = struct.unpack_from("<I", self.data, 0)[0]
        if root + 4 > len(self.data):
            self.fail(f"truncated file: root table offset {root} is past the end ({len(self.data)} bytes)")
        model = fb.Model.GetRootAs(self.data, 0)
        self.model = model
        self.n_buffers = self.count(model.BuffersLength(), "buffers")
        self.codes = [self.opcode(model.OperatorCodes(i), i)
                      for i in range(self.count(model.OperatorCodesLength(), "operator_codes"))]
        n_sg = self.count(model.SubgraphsLength(), "subgraphs")
        if n_sg == 0:
            self.fail("the model has no subgraphs")
        self.signatures = self.read_signatures()
        self.func_names = [self.func_name(i) for i in range(n_sg)]
        module = ModuleOp([])
        desc = model.Description()
        if desc:
            module.attributes["tfl.description"] = StringAttr(desc.decode("utf-8", "replace"))
        module.attributes["tfl.schema_version"] = IntegerAttr(model.Version(), i32)
        for i in range(n_sg):
            module.body.block.add_op(self.subgraph(i))
        return module

    def opcode(self, code: Any, index: int) -> str | None:
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        name = BUILTIN_OPERATORS.get(builtin)
        if name == "CUSTOM":
            custom = code.CustomCode()
            return "CUSTOM:" + (custom.decode("utf-8", "replace") if custom else "?")
        if name is None:
            return f"UNKNOWN:{builtin}"
        return name

    def read_signatures(self) -> dict[int, tuple[str, dict[int, str], dict[int, str]]]:
        sigs: dict[int, tuple[str, dict[int, str], dict[int, str]]] = {}
        for i in range(self.count(self.model.SignatureDefsLength(), "signature_defs")):
            s = self.model.SignatureDefs(i)
            ins = {}
            for j in range(self.count(s.InputsLength(), "signature inputs")):
                m = s.Inputs(j)
                ins[m.TensorIndex()] = (m.Name() or b"").decode("utf-8", "replace")
            outs = {}
            for j in range(self.count(s.OutputsLength(), "signature outputs")):
                m = s.Outputs(j)
                outs[m.TensorIndex()] = (m.Name() or b"").decode("utf-8", "replace")
            key = (s.SignatureKey() or b"").decode("utf-8", "replace")
            sigs.setdefault(s.SubgraphIndex(), (key, ins, outs))
        return sigs

    def func_name(self, i: int) -> str:
        if i == 0:
            return "main"
        name = (self.model.Subgraphs(i).Name() or b"").decode("utf-8", "replace")
        return _sanitize(name) if name else f"subgraph_{i}"

    # --- tensors -----------------------------------------------------------------------
    def tensor_type(self, t: Any, index: int) -> TensorType:
        type_name = TENSOR_TYPES.get(t.Type())
        tname = (t.Name() or b"").decode("utf-8", "replace")
        if type_name is None or type_name not in _ELEMENT and type_name not in _QUANTIZABLE:
            self.fail(f"tensor {index} '{tname}': unsupported tensor type {type_name or t.Type()}")
        # `shape` holds the concrete dims TFLite allocates (an unknown batch is 1 there);
        # `shape_signature` marks them -1. TOSA wants static shapes, so `shape` wins.
        shape = self.vector(t, "Shape", "shape") or self.vector(t, "ShapeSignature", "shape_signature")
        if any(d < -1 for d in shape):
            self.fail(f"tensor {index} '{tname}': invalid dimension in shape {shape}")
        elem = self.quant_type(t, type_name, index, tname)
        if elem is None:
            if type_name not in _ELEMENT:
                self.fail(f"tensor {index} '{tname}': unsupported tensor type {type_name}")
            elem = _ELEMENT[type_name][0]
        return TensorType(elem, shape)

    def quant_type(self, t: Any, type_name: str, index: int, tname: str) -> Attribute | None:
        q = t.Quantization()
        if q is None or type_name not in _QUANTIZABLE:
            return None
        scales = self.vector_f(q, "Scale")
        if not scales:
            return None
        zps = self.vector(q, "ZeroPoint", "zero_point") or [0] * len(scales)
        if len(zps) != len(scales):
            self.fail(f"tensor {index} '{tname}': {len(scales)} scales but {len(zps)} zero points")
        if any(not (s > 0 and np.isfinite(s)) for s in scales):
            self.fail(f"tensor {index} '{tname}': quantization scale must be positive and finite, got {scales}")
        width, signed = _QUANTIZABLE[type_name]
        expressed = Float32Type()
        try:
            if len(scales) == 1:
                qt: Attribute = UniformQuantizedType(width, signed, expressed, scales[0], zps[0])
            else:
                qt = UniformQuantizedPerAxisType(width, signed, expressed, scales, zps, q.QuantizedDimension())
            qt.verify()
        except (VerifyException, ValueError, OverflowError) as e:  # out-of-range zero points etc.
            self.fail(f"tensor {index} '{tname}': invalid quantization parameters: {e}")
        return qt

    def vector_f(self, obj: Any, field: str) -> list[float]:
        if getattr(obj, field + "IsNone")():
            return []
        n = self.count(getattr(obj, field + "Length")(), field)
        return [float(v) for v in getattr(obj, field + "AsNumpy")()] if n else []

    def buffer_bytes(self, t: Any, index: int, tname: str) -> memoryview | None:
        b = t.Buffer()
        if b == 0:
            return None
        if b < 0 or b >= self.n_buffers:
            self.fail(f"tensor {index} '{tname}': buffer {b} does not exist (the model has {self.n_buffers})")
        buf = self.model.Buffers(b)
        offset, size = buf.Offset(), buf.Size()
        if offset > 1:  # large models keep buffers after the flatbuffer
            if offset + size > len(self.data):
                self.fail(f"tensor {index} '{tname}': buffer {b} at offset {offset} (+{size} bytes) is past the end of the file")
            return self.view[offset:offset + size]
        if buf.DataIsNone():
            return None
        n = buf.DataLength()
        if n == 0:
            return None
        start = buf._tab.Vector(buf._tab.Offset(4))  # the data vector's first byte
        if start + n > len(self.data):
            self.fail(f"tensor {index} '{tname}': buffer {b} ({n} bytes at offset {start}) is past the end of the file")
        return self.view[start:start + n]

    def constant(self, t: Any, index: int, ttype: TensorType, raw: memoryview) -> Operation:
        from tosa_xdsl.ir.dense import from_numpy

        tname = (t.Name() or b"").decode("utf-8", "replace")
        type_name = TENSOR_TYPES[t.Type()]
        dtype = {"INT4": None}.get(type_name, _ELEMENT.get(type_name, (None, None))[1])
        if dtype is None:
            self.fail(f"tensor {index} '{tname}': constant buffers of type {type_name} are not supported")
        shape = ttype.get_shape()
        if any(d < 0 for d in shape):
            self.fail(f"tensor {index} '{tname}': constant with a dynamic shape {list(shape)}")
        need = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
        if need != len(raw):
            self.fail(f"tensor {index} '{tname}': buffer {t.Buffer()} holds {len(raw)} bytes, "
                      f"its type {ttype} needs {need}")
        array = np.frombuffer(raw, dtype=dtype).reshape(shape)
        elem = ttype.element_type
        if isinstance(elem, (UniformQuantizedType, UniformQuantizedPerAxisType)):
            storage = TensorType(elem.storage_type, shape)
            op: Operation = tfl.PseudoQConstOp.create(
                result_types=[ttype],
                properties={"qtype": _type_attr(ttype), "value": from_numpy(array, storage)})
        else:
            op = tfl.PseudoConstOp.create(result_types=[ttype], properties={"value": from_numpy(array, ttype)})
        LOCATIONS[op] = f"tensor {index} '{tname}'"
        return op

    # --- operators ---------------------------------------------------------------------
    def options(self, op: Any, where: str) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {}
        for union, names in ((op.BuiltinOptionsType(), BUILTIN_OPTIONS),
                             (op.BuiltinOptions2Type(), BUILTIN_OPTIONS2)):
            if union == 0:
                continue
            cls_name = names.get(union)
            cls = getattr(fb, cls_name, None) if cls_name else None
            if cls is None:
                self.fail(f"{where}: unknown builtin options type {union}")
            table = op.BuiltinOptions() if names is BUILTIN_OPTIONS else op.BuiltinOptions2()
            if table is None:
                continue
            opts = cls()
            opts.Init(table.Bytes, table.Pos)
            props.update(self.option_fields(cls, opts, where))
        return props

    def option_fields(self, cls: type, opts: Any, where: str) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {}
        methods = [m for m in vars(cls) if m[0].isupper() and not m.startswith("GetRootAs")
                   and not m.endswith(("BufferHasIdentifier", "AsNumpy", "Length", "IsNone"))
                   and m not in _SKIP_METHODS]
        for m in methods:
            name = tfl.snake_case(m)
            if hasattr(cls, m + "Length"):
                if hasattr(cls, m + "AsNumpy"):
                    values = self.vector(opts, m, f"{where}: option {name}")
                    props[name] = DenseArrayBase.from_list(i32, values)
                continue
            try:
                value = getattr(opts, m)()
            except TypeError:
                continue  # a nested table or union accessor: not an option value
            if m in ENUM_FIELDS:
                label = ENUM_FIELDS[m].get(value)
                if label is None:
                    self.fail(f"{where}: option {name} has invalid value {value}")
                props[name] = StringAttr(label)
            elif isinstance(value, bool):
                props[name] = BoolAttr.from_bool(value)
            elif isinstance(value, int):
                props[name] = IntegerAttr(value, i32 if -(1 << 31) <= value < (1 << 31) else i64)
            elif isinstance(value, float):
                props[name] = FloatAttr(value, f32)
        return props

    def subgraph(self, si: int) -> func.FuncOp:
        sg = self.model.Subgraphs(si)
        n_tensors = self.count(sg.TensorsLength(), "tensors")
        types: dict[int, TensorType] = {}

        def tensor(i: int, where: str) -> Any:
            if not 0 <= i < n_tensors:
                self.fail(f"{where}: tensor index {i} out of range (subgraph {si} has {n_tensors} tensors)")
            return sg.Tensors(i)

        def ttype(i: int, where: str) -> TensorType:
            if i not in types:
                types[i] = self.tensor_type(tensor(i, where), i)
            return types[i]

        inputs = self.vector(sg, "Inputs", "subgraph inputs")
        outputs = self.vector(sg, "Outputs", "subgraph outputs")
        sig = self.signatures.get(si)
        block = Block(arg_types=[ttype(i, f"subgraph {si} input") for i in inputs])
        values: dict[int, SSAValue] = {}
        for arg, i in zip(block.args, inputs):
            name = (sig[1].get(i) if sig else None) or (sg.Tensors(i).Name() or b"").decode("utf-8", "replace")
            arg.name_hint = _sanitize(name) if name else None
            values[i] = arg

        def value(i: int, where: str) -> SSAValue:
            if i in values:
                return values[i]
            t = tensor(i, where)
            tt = ttype(i, where)
            raw = self.buffer_bytes(t, i, (t.Name() or b"").decode("utf-8", "replace"))
            if raw is None:
                if t.IsVariable():  # state of stateful ops (LSTM): starts as zeros
                    from tosa_xdsl.ir.dense import from_numpy

                    if any(d < 0 for d in tt.get_shape()) or not isinstance(tt.element_type, (Float32Type, IntegerType)):
                        self.fail(f"{where}: variable tensor {i} has no static float/int type")
                    op = tfl.PseudoConstOp.create(result_types=[tt], properties={"value": from_numpy(np.zeros(tt.get_shape(), np.float32 if isinstance(tt.element_type, Float32Type) else np.int64), tt)})
                else:
                    self.fail(f"{where}: tensor {i} '{(t.Name() or b'').decode('utf-8', 'replace')}' is read before "
                              "any operator writes it and has no buffer (missing buffer?)")
            else:
                op = self.constant(t, i, tt, raw)
            block.add_op(op)
            values[i] = op.results[0]
            return values[i]

        for oi in range(self.count(sg.OperatorsLength(), "operators")):
            op = sg.Operators(oi)
            where = f"subgraph {si}, operator {oi}"
            code_index = op.OpcodeIndex()
            if not 0 <= code_index < len(self.codes):
                self.fail(f"{where}: opcode index {code_index} out of range ({len(self.codes)} operator codes)")
            builtin = self.codes[code_index]
            if builtin.startswith("CUSTOM:"):
                self.fail(f"{where}: custom operator '{builtin[7:]}' is not supported")
            if builtin.startswith("UNKNOWN:"):
                self.fail(f"{where}: unknown builtin operator code {builtin[8:]}")
            where = f"{where} ({builtin})"
            operands = []
            for i in self.vector(op, "Inputs", "operator inputs"):
                if i == -1:  # an omitted optional operand
                    nv = tfl.NoValueOp.create(result_types=[_none_type()], properties={"value": UnitAttr()})
                    block.add_op(nv)
                    operands.append(nv.results[0])
                else:
                    operands.append(value(i, where))
            outs = [i for i in self.vector(op, "Outputs", "operator outputs")]
            if any(i < 0 for i in outs):
                self.fail(f"{where}: invalid output tensor index in {outs}")
            props = self.options(op, where)
            regions = self.regions(builtin, props, operands, where)
            new = tfl.OPS[tfl.op_name(builtin)].create(
                operands=operands, result_types=[ttype(i, where) for i in outs],
                properties=props, regions=regions)
            first_out = (sg.Tensors(outs[0]).Name() or b"").decode("utf-8", "replace") if outs else ""
            LOCATIONS[new] = f"{where} '{first_out}'" if first_out else where
            block.add_op(new)
            for i, r in zip(outs, new.results):
                values[i] = r
        rets = [value(i, f"subgraph {si} output") for i in outputs]
        block.add_op(func.ReturnOp(*rets))
        fn = func.FuncOp(self.func_names[si], ([a.type for a in block.args], [r.type for r in rets]),
                         Region(block))
        in_names = [(sig[1].get(i) if sig else None) or (sg.Tensors(i).Name() or b"").decode("utf-8", "replace") for i in inputs]
        out_names = [(sig[2].get(i) if sig else None) or (sg.Tensors(i).Name() or b"").decode("utf-8", "replace") for i in outputs]
        fn.attributes["tf.entry_function"] = DictionaryAttr({
            "inputs": StringAttr(",".join(in_names)), "outputs": StringAttr(",".join(out_names))})
        if sig and sig[0]:
            fn.attributes["tf_saved_model.exported_names"] = _str_array([sig[0]])
        return fn

    def regions(self, builtin: str, props: dict[str, Attribute], operands: list[SSAValue], where: str) -> list[Region]:
        """WHILE: cond/body regions; IF: then/else regions; each calls its subgraph function."""
        keys = {"WHILE": ("cond_subgraph_index", "body_subgraph_index"),
                "IF": ("then_subgraph_index", "else_subgraph_index")}.get(builtin)
        if keys is None:
            return []
        regions = []
        for k in keys:
            attr = props.pop(k, None)
            index = attr.value.data if isinstance(attr, IntegerAttr) else -1
            if not 0 <= index < len(self.func_names):
                self.fail(f"{where}: {k} {index} is not a subgraph")
            callee_sg = self.model.Subgraphs(index)
            res_types = [self.tensor_type(callee_sg.Tensors(i), i) for i in self.vector(callee_sg, "Outputs", "subgraph outputs")]
            args = operands if builtin == "WHILE" else operands[1:]
            block = Block(arg_types=[a.type for a in args] if builtin == "WHILE" else [])
            call_args = list(block.args) if builtin == "WHILE" else list(args)
            call = func.CallOp(self.func_names[index], call_args, res_types)
            block.add_op(call)
            block.add_op(tfl.YieldOp.create(operands=list(call.results)))
            regions.append(Region(block))
        return regions


def _type_attr(t: Attribute) -> Attribute:
    # MLIR's TypeAttr prints as the bare type; xDSL types are attributes already.
    return t


def _none_type() -> Attribute:
    from xdsl.dialects.builtin import NoneType

    return NoneType()


def _str_array(items: list[str]) -> Attribute:
    from xdsl.dialects.builtin import ArrayAttr

    return ArrayAttr([StringAttr(s) for s in items])


_MALFORMED = (struct.error, IndexError, ValueError, TypeError, OverflowError, UnicodeDecodeError,
              AttributeError, KeyError, RecursionError, MemoryError)


def read_tflite(data: bytes, ctx=None, filename: str = "<tflite>") -> ModuleOp:
    """A .tflite flatbuffer -> a module of `tfl` ops; raises TFLiteError on bad input."""
    if ctx is not None:
        tfl.load_tfl(ctx)
    reader = _Reader(bytes(data), filename)
    try:
        return reader.read(ctx)
    except TFLiteError:
        raise
    except _MALFORMED as e:
        raise TFLiteError(f"malformed flatbuffer: {type(e).__name__}: {e}", filename) from None

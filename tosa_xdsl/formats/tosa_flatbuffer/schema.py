"""The TOSA flatbuffer schema (`tosa.fbs` of tosa-tools) as data.

One description serves every schema version we read: flatbuffers are forward and
backward compatible by construction (a field missing from a table's vtable reads as its
default), so the 1.1-draft schema (tosa-tools 2026.2 to 2026.8 write 1.1.0 draft), which
only appends enum values and table fields to 1.0 (ExecuTorch 1.5 writes 1.0.0), reads both. Fields
are listed in declaration order: a field's vtable slot is its position, a union takes
two slots (`<name>_type` then `<name>`). tests/formats/test_tosa_flatbuffer.py checks
this file against the `tosa.fbs` shipped with the installed tosa-tools.

Field types: int32, uint32, uint64, bool, string, [int32], [ubyte], [string],
<Table>, [<Table>], an enum name (stored as uint32), or the union `Attribute`.
"""

from __future__ import annotations

FILE_IDENTIFIER = b"TOSA"

# Schema versions this module knows: (major, minor) -> what wrote it.
KNOWN_VERSIONS = {(1, 0): "TOSA 1.0 (ExecuTorch 1.5)",
                  (1, 1): "TOSA 1.1 draft (tosa-tools 2026.5, 2026.8)"}
NEWEST_VERSION = (1, 1, 0, True)  # major, minor, patch, draft

ENUMS: dict[str, dict[int, str]] = {
    "DType": dict(enumerate(
        "UNKNOWN BOOL INT4 INT8 INT16 INT32 INT48 FP32 FP16 BF16 SHAPE FP8E4M3 FP8E5M2 "
        "FP6E2M3 FP6E3M2 FP4E2M1 FP8UE8M0 INT64 MXINT8".split())),
    "ResizeMode": dict(enumerate("UNKNOWN NEAREST BILINEAR".split())),
    "NanPropagationMode": dict(enumerate("UNKNOWN PROPAGATE IGNORE".split())),
    "RoundingMode": dict(enumerate("UNKNOWN SINGLE_ROUND INEXACT_ROUND DOUBLE_ROUND".split())),
    "BlockSize": {0: "UNKNOWN", 1: "BLOCK_SIZE_1", 32: "BLOCK_SIZE_32"},
    "BlockShape": {0: "UNKNOWN", 32: "BLOCK_SHAPE_32"},
    "CompatibilityFeature": {0: "NONE", 1: "MXFP"},
}

# enum Op, in order; the union `Attribute` has one member per op, in the same order,
# named by ATTRIBUTE_TABLE below (union type value = op value).
OPS: list[str] = """UNKNOWN ARGMAX AVG_POOL2D CONV2D CONV3D DEPTHWISE_CONV2D FFT2D MATMUL MAX_POOL2D
RFFT2D TRANSPOSE_CONV2D CLAMP ERF SIGMOID TANH ADD ARITHMETIC_RIGHT_SHIFT BITWISE_AND BITWISE_OR
BITWISE_XOR INTDIV LOGICAL_AND LOGICAL_LEFT_SHIFT LOGICAL_RIGHT_SHIFT LOGICAL_OR LOGICAL_XOR MAXIMUM
MINIMUM MUL POW SUB TABLE ABS BITWISE_NOT CEIL CLZ COS EXP FLOOR LOG LOGICAL_NOT NEGATE RECIPROCAL
RSQRT SIN SELECT EQUAL GREATER GREATER_EQUAL REDUCE_ALL REDUCE_ANY REDUCE_MAX REDUCE_MIN
REDUCE_PRODUCT REDUCE_SUM CONCAT PAD RESHAPE REVERSE SLICE TILE TRANSPOSE GATHER SCATTER RESIZE CAST
RESCALE CONST IDENTITY CUSTOM COND_IF WHILE_LOOP VARIABLE VARIABLE_WRITE VARIABLE_READ CONST_SHAPE
MATMUL_T_BLOCK_SCALED CAST_FROM_BLOCK_SCALED CAST_TO_BLOCK_SCALED DIM CONCAT_SHAPE ADD_SHAPE SUB_SHAPE
MUL_SHAPE SLICE_SHAPE EXP2_SHAPE LOG2_CEIL_SHAPE LOG2_FLOOR_SHAPE MAX_SHAPE MIN_SHAPE MOD_SHAPE
DIV_CEIL_SHAPE DIV_FLOOR_SHAPE ASSERT_EQUAL_SHAPE CONV2D_BLOCK_SCALED MAX_POOL2D_ADAPTIVE
AVG_POOL2D_ADAPTIVE RESHAPE_BLOCK_SCALED ROW_GATHER_BLOCK_SCALED ROW_GATHER MATMUL_T""".split()

# The last op of the 1.0 schema: later ones are 1.1-draft additions.
LAST_1_0_OP = "CONST_SHAPE"

# Attribute table names that are not simply CamelCase of the op name.
_ATTR_NAME_EXCEPTIONS = {
    "AVG_POOL2D": "AvgPool2d", "CONV2D": "Conv2d", "CONV3D": "Conv3d",
    "DEPTHWISE_CONV2D": "DepthwiseConv2d", "FFT2D": "FFT2d", "MATMUL": "MatMul",
    "MAX_POOL2D": "MaxPool2d", "RFFT2D": "RFFT2d", "TRANSPOSE_CONV2D": "TransposeConv2d",
    "ARGMAX": "ArgMax", "INTDIV": "IntDiv", "MATMUL_T_BLOCK_SCALED": "MatMulTBlockScaled",
    "CONV2D_BLOCK_SCALED": "Conv2dBlockScaled", "MAX_POOL2D_ADAPTIVE": "MaxPool2dAdaptive",
    "AVG_POOL2D_ADAPTIVE": "AvgPool2dAdaptive", "MATMUL_T": "MatMulT",
    "EXP2_SHAPE": "Exp2Shape", "LOG2_CEIL_SHAPE": "Log2CeilShape",
    "LOG2_FLOOR_SHAPE": "Log2FloorShape",
}


def attribute_table(op: str) -> str:
    """The union member (attribute table) of an op: CONV2D -> Conv2dAttribute."""
    base = _ATTR_NAME_EXCEPTIONS.get(op) or "".join(w.capitalize() for w in op.split("_"))
    return base + "Attribute"


ATTRIBUTE_TABLES = [attribute_table(op) for op in OPS[1:]]  # union value i+1

_CONV = "pad:[int32] stride:[int32] dilation:[int32] local_bound:bool acc_type:DType"
_BLOCK = "block_size:BlockSize"

# Tables with fields; every other attribute table is empty.
TABLES: dict[str, list[tuple[str, str]]] = {name: [tuple(f.split(":", 1)) for f in spec.split()] for name, spec in {  # type: ignore[misc]
    "ArgMaxAttribute": "axis:int32 nan_mode:NanPropagationMode",
    "AvgPool2dAttribute": "kernel:[int32] stride:[int32] pad:[int32] acc_type:DType",
    "AvgPool2dAdaptiveAttribute": "acc_type:DType",
    "Conv2dAttribute": _CONV,
    "Conv3dAttribute": _CONV,
    "DepthwiseConv2dAttribute": _CONV,
    "FFT2dAttribute": "inverse:bool local_bound:bool",
    "MaxPool2dAttribute": "kernel:[int32] stride:[int32] pad:[int32] nan_mode:NanPropagationMode",
    "MaxPool2dAdaptiveAttribute": "nan_mode:NanPropagationMode",
    "RFFT2dAttribute": "local_bound:bool",
    "TransposeConv2dAttribute": "out_pad:[int32] stride:[int32] local_bound:bool acc_type:DType",
    "ClampAttribute": "min_val:[ubyte] max_val:[ubyte] nan_mode:NanPropagationMode",
    "ArithmeticRightShiftAttribute": "round:bool",
    "MaximumAttribute": "nan_mode:NanPropagationMode",
    "MinimumAttribute": "nan_mode:NanPropagationMode",
    "ReduceAllAttribute": "axis:int32",
    "ReduceAnyAttribute": "axis:int32",
    "ReduceMaxAttribute": "axis:int32 nan_mode:NanPropagationMode",
    "ReduceMinAttribute": "axis:int32 nan_mode:NanPropagationMode",
    "ReduceProductAttribute": "axis:int32",
    "ReduceSumAttribute": "axis:int32",
    "ConcatAttribute": "axis:int32",
    "ReshapeBlockScaledAttribute": _BLOCK,
    "ReverseAttribute": "axis:int32",
    "TransposeAttribute": "perms:[int32]",
    "RowGatherBlockScaledAttribute": _BLOCK,
    "ResizeAttribute": "mode:ResizeMode",
    "RescaleAttribute": "scale32:bool rounding_mode:RoundingMode per_channel:bool "
                        "input_unsigned:bool output_unsigned:bool",
    "CustomAttribute": "operator_name:string domain_name:string implementation_attrs:[ubyte]",
    "CondIfAttribute": "then_graph:string else_graph:string",
    "WhileLoopAttribute": "cond_graph:string body_graph:string",
    "MatMulTBlockScaledAttribute": _BLOCK,
    "CastFromBlockScaledAttribute": _BLOCK,
    "CastToBlockScaledAttribute": _BLOCK,
    "Conv2dBlockScaledAttribute": _BLOCK,
    "DimAttribute": "axis:int32",
    "AssertEqualShapeAttribute": "allow_broadcast:bool",
    "SoftwareVersion": "_major:int32 _minor:int32 _micro:int32 _modifier:string",
    "SerializationCompatibility": "min_reader_version:SoftwareVersion features:uint64",
    "Version": "_major:int32 _minor:int32 _patch:int32 _draft:bool",
    "TosaTensor": "name:string shape:[int32] type:DType data:[ubyte] variable:bool is_unranked:bool "
                  "variable_name:string offset:uint64 size:uint64 scale_type:DType scale_data:[ubyte] "
                  "block_shape:BlockShape scale_offset:uint64 scale_size:uint64",
    "TosaShape": "name:string rank:uint32 data:[ubyte]",
    "OpLocation": "text:string",
    "TosaOperator": "op:Op attribute:Attribute inputs:[string] outputs:[string] location:OpLocation",
    "TosaBasicBlock": "name:string operators:[TosaOperator] tensors:[TosaTensor] inputs:[string] "
                      "outputs:[string] shapes:[TosaShape]",
    "TosaRegion": "name:string blocks:[TosaBasicBlock]",
    "TosaGraph": "version:Version regions:[TosaRegion] software_version:SoftwareVersion "
                 "compatibility:SerializationCompatibility",
}.items()}

# Scalar defaults other than 0/false.
DEFAULTS: dict[tuple[str, str], int | bool] = {
    ("Version", "_major"): -1, ("Version", "_minor"): -1, ("Version", "_patch"): -1,
    ("Version", "_draft"): True,
    ("SoftwareVersion", "_major"): -1, ("SoftwareVersion", "_minor"): -1,
    ("SoftwareVersion", "_micro"): -1,
}

# Byte vectors declared `(force_align: 8)`.
ALIGNED_8 = {("TosaTensor", "data"), ("TosaTensor", "scale_data"), ("TosaShape", "data"),
             ("ClampAttribute", "min_val"), ("ClampAttribute", "max_val")}

SCALARS = {"int32": ("<i", 4), "uint32": ("<I", 4), "uint64": ("<Q", 8), "bool": ("<B", 1),
           "ubyte": ("<B", 1)}


def fields(table: str) -> list[tuple[str, str]]:
    return TABLES.get(table, [])


def slots(table: str) -> list[tuple[int, str, str]]:
    """(vtable slot, field name, type) of every field; a union takes two slots."""
    out, slot = [], 0
    for name, typ in fields(table):
        if typ == "Attribute":
            out.append((slot, name + "_type", "ubyte"))
            slot += 1
        out.append((slot, name, typ))
        slot += 1
    return out


def scalar_type(typ: str) -> str | None:
    """int32/uint32/... for scalars and enums, None for offsets (strings, vectors, tables)."""
    if typ in SCALARS:
        return typ
    if typ in ENUMS or typ == "Op":
        return "uint32"
    return None

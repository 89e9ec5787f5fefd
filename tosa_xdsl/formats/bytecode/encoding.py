"""Constants of the MLIR bytecode format (mlir/include/mlir/Bytecode/Encoding.h)."""

# Versions and the feature each one introduced.
DIALECT_VERSIONING = 1
LAZY_LOADING = 2  # isolated-from-above regions live in nested IR sections
USE_LIST_ORDERING = 3
ELIDE_UNKNOWN_BLOCK_ARG_LOCATION = 4  # op-name count prefix, block arg (type<<1|hasLoc)
NATIVE_PROPERTIES_ENCODING = 5  # properties section, op names carry `wasRegistered`
NATIVE_PROPERTIES_ODS_SEGMENT_SIZE = 6  # operandSegmentSizes as a sparse array
MIN_VERSION = 0
MAX_VERSION = 6  # the newest that MLIR 22/23 and IREE 3.13 write

# Section ids.
STRING = 0
DIALECT = 1
ATTR_TYPE = 2
ATTR_TYPE_OFFSET = 3
IR = 4
RESOURCE = 5
RESOURCE_OFFSET = 6
DIALECT_VERSIONS = 7
PROPERTIES = 8
NUM_SECTIONS = 9

SECTION_NAMES = {
    STRING: "string", DIALECT: "dialect", ATTR_TYPE: "attribute/type",
    ATTR_TYPE_OFFSET: "attribute/type offset", IR: "IR", RESOURCE: "resource",
    RESOURCE_OFFSET: "resource offset", DIALECT_VERSIONS: "dialect versions",
    PROPERTIES: "properties",
}

# Operation encoding mask bits.
HAS_ATTRS = 0x01
HAS_RESULTS = 0x02
HAS_OPERANDS = 0x04
HAS_SUCCESSORS = 0x08
HAS_INLINE_REGIONS = 0x10
HAS_USE_LIST_ORDERS = 0x20
HAS_PROPERTIES = 0x40

# Resource entry kinds (AsmResourceEntryKind).
RESOURCE_BLOB = 0
RESOURCE_BOOL = 1
RESOURCE_STRING = 2

# Builtin dialect attribute codes (BuiltinDialectBytecode.td, order is the code).
(ARRAY_ATTR, DICTIONARY_ATTR, STRING_ATTR, STRING_ATTR_WITH_TYPE, FLAT_SYMBOL_REF_ATTR,
 SYMBOL_REF_ATTR, TYPE_ATTR, UNIT_ATTR, INTEGER_ATTR, FLOAT_ATTR, CALL_SITE_LOC,
 FILE_LINE_COL_LOC, FUSED_LOC, FUSED_LOC_WITH_METADATA, NAME_LOC, UNKNOWN_LOC,
 DENSE_RESOURCE_ELEMENTS_ATTR, DENSE_ARRAY_ATTR, DENSE_INT_OR_FP_ELEMENTS_ATTR,
 DENSE_STRING_ELEMENTS_ATTR, SPARSE_ELEMENTS_ATTR, DISTINCT_ATTR,
 FILE_LINE_COL_RANGE) = range(23)

# Builtin dialect type codes.
(INTEGER_TYPE, INDEX_TYPE, FUNCTION_TYPE, BF16_TYPE, F16_TYPE, F32_TYPE, F64_TYPE,
 F80_TYPE, F128_TYPE, COMPLEX_TYPE, MEMREF_TYPE, MEMREF_TYPE_WITH_MEM_SPACE, NONE_TYPE,
 RANKED_TENSOR_TYPE, RANKED_TENSOR_TYPE_WITH_ENCODING, TUPLE_TYPE, UNRANKED_MEMREF_TYPE,
 UNRANKED_MEMREF_TYPE_WITH_MEM_SPACE, UNRANKED_TENSOR_TYPE, VECTOR_TYPE,
 VECTOR_TYPE_WITH_SCALABLE_DIMS) = range(21)

# Builtin float types that newer MLIR (as in IREE 3.13) encodes by code alone, after
# VectorTypeWithScalableDims; MLIR 22's mlir-opt still writes them as text. Codes
# observed from iree-opt --emit-bytecode, one type at a time.
SMALL_FLOAT_TYPES = {
    21: "tf32", 22: "f8E5M2", 23: "f8E4M3", 24: "f8E4M3FN", 25: "f8E5M2FNUZ",
    26: "f8E4M3FNUZ", 27: "f8E4M3B11FNUZ", 28: "f8E3M4", 29: "f4E2M1FN", 30: "f6E2M3FN",
    31: "f6E3M2FN", 32: "f8E8M0FNU",
}

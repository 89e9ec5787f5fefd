"""Robustness fuzzing of every TOSA operator's verifier and of `tosa-validate`.

For each TOSA 1.0.1 operator, hypothesis draws hostile inputs - attribute values that are
negative, zero, huge (beyond 2^63), empty or of the wrong length, of the wrong attribute kind
or enum; operand types of rank 0..7 with dynamic, 0-size and huge dims, unranked tensors,
odd element types (i1, i4, i48, ui8, f64, index, complex, fp8), `!tosa.shape<N>` where a
tensor is expected and vice versa; constant zero points / shifts / shapes with huge,
negative or wrongly-sized contents - and builds the op

- through the Python API (`Op.create(...)` in a `func.func`), and
- through the text parser, in the keyword form, the attribute-dictionary form and the
  generic form (`"tosa.x"(...) <{...}>`),

then verifies the module op by op and runs `tosa-validate` on it. The only exceptions allowed
are diagnostics: xDSL's VerifyException / DiagnosticException / ParseError and our
LocatedError (a VerifyException). Anything else (IndexError, OverflowError, TypeError,
ZeroDivisionError, ...) is a crash bug of a verifier, a validation check or the parser.

The budget is bounded and reproducible: `derandomize=True` (the examples are a function of
the test), `MAX_EXAMPLES` per operator and generation style, no example database. Crashes
found by this file are pinned with `@example` on the tests below (see the `REGRESSIONS`
tables) so they stay covered whatever hypothesis draws.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import OptOperandDef, OptResultDef, VarOperandDef, VarResultDef
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from tosa_xdsl import spec_tables
from tosa_xdsl.context import make_context
from tosa_xdsl.diagnostics import LocatedError, capture_diagnostics
from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops import SPEC_OPS
from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp, WhileLoopOp, YieldOp
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.dialects.tosa.ops.variable import (
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
)
from tosa_xdsl.ir.enums import (
    NanMode,
    NanModeAttr,
    ResizeMode,
    ResizeModeAttr,
    RoundingMode,
    RoundingModeAttr,
)
from tosa_xdsl.ir.types import ShapeType
from tosa_xdsl.passes.validate import TosaValidatePass

# What a diagnostic may be; everything else escaping verify()/parse/validate is a bug.
DIAGNOSTICS = (VerifyException, LocatedError, DiagnosticException, ParseError)

# Examples per operator and generation style. ~75 ops x 3 tests x MAX_EXAMPLES; the whole file
# runs in about a minute with `-n 2`. TOSA_FUZZ_EXAMPLES raises it for a longer local hunt
# (then also set TOSA_FUZZ_RANDOM=1 to draw fresh examples instead of the fixed ones).
MAX_EXAMPLES = int(os.environ.get("TOSA_FUZZ_EXAMPLES", "12"))
FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    derandomize=not os.environ.get("TOSA_FUZZ_RANDOM"),
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)

# The fuzz covers every operator the spec tables list (and nothing else).
assert [c.name for c in SPEC_OPS] == [o.mlir_name for o in spec_tables.ops()]
OP_IDS = [cls.name.removeprefix("tosa.") for cls in SPEC_OPS]

# ------------------------------------------------------------------------------- types

# Element types: the TOSA ones and odd ones no TOSA row has.
ELEMENT_TYPES: list[Attribute] = [
    i1, IntegerType(4), i8, IntegerType(16), i32, IntegerType(48), i64,
    IntegerType(8, Signedness.UNSIGNED), IntegerType(8, Signedness.SIGNED), IntegerType(2),
    Float16Type(), BFloat16Type(), Float32Type(), Float64Type(), Float8E4M3FNType(),
    Float8E5M2Type(), IndexType(), ComplexType(Float32Type()),
]
INT_ELEMENT_TYPES = [t for t in ELEMENT_TYPES if isinstance(t, IntegerType) and t.width.data <= 64]

DIMS = st.one_of(
    st.integers(0, 4),
    st.just(-1),  # dynamic
    st.sampled_from([16, 8193, 16384, 65536, 2**31, 2**40, 2**62]),
)


@st.composite
def tensor_types(draw, element: Attribute | None = None) -> Attribute:
    et = element if element is not None else draw(st.sampled_from(ELEMENT_TYPES))
    kind = draw(st.sampled_from(["ranked"] * 8 + ["unranked", "shape"]))
    if kind == "unranked":
        return UnrankedTensorType(et)
    if kind == "shape":
        return ShapeType(draw(st.integers(0, 8)))
    rank = draw(st.integers(0, 7))
    return TensorType(et, draw(st.lists(DIMS, min_size=rank, max_size=rank)))


# Integers that stress arithmetic: 0, +-1, powers of two, the int32/int64 edges.
INTS = st.one_of(
    st.integers(-4, 20),
    st.sampled_from([-2**63, -2**31 - 1, -2**31, -32769, -32768, -129, -128, 127, 128, 255,
                     256, 2048, 2049, 8192, 8193, 16384, 32767, 32768, 65535, 2**31 - 1,
                     2**31, 2**32, 2**62, 2**63 - 1]),
    st.integers(-2**63, 2**63 - 1),
)
# Beyond int64 (what an i64 attribute can still hold: xDSL accepts [-2^63, 2^64)).
HUGE = st.sampled_from([2**63, 2**64 - 1])


def _fits(value: int, width: int, signed_only: bool = False) -> bool:
    low = -(2 ** (width - 1))
    high = 2 ** (width - 1) if signed_only else 2**width
    return low <= value < high


# ------------------------------------------------------------------------- attributes


@st.composite
def int_attrs(draw) -> Attribute:
    t = draw(st.sampled_from([i32, i64, i1, i8, IntegerType(128), IndexType()]))
    v = draw(st.one_of(INTS, HUGE, st.sampled_from([2**70, -2**70])))
    if isinstance(t, IndexType):
        v = max(min(v, 2**63 - 1), -2**63)
    elif not _fits(v, t.width.data):
        v = v % (2 ** (t.width.data - 1))
    return IntegerAttr(v, t)


@st.composite
def dense_arrays(draw) -> Attribute:
    et = draw(st.sampled_from([i64, i64, i32, i8, i1]))
    n = draw(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8]))
    values = draw(st.lists(st.one_of(INTS, HUGE), min_size=n, max_size=n))
    width = et.width.data
    values = [v if _fits(v, width) else v % (2 ** (width - 1)) for v in values]
    if width == 1:
        values = [v & 1 for v in values]
    return DenseArrayBase.from_list(et, values)


ENUMS = [NanModeAttr(NanMode.PROPAGATE), NanModeAttr(NanMode.IGNORE),
         RoundingModeAttr(RoundingMode.SINGLE_ROUND), RoundingModeAttr(RoundingMode.DOUBLE_ROUND),
         RoundingModeAttr(RoundingMode.INEXACT_ROUND), ResizeModeAttr(ResizeMode.BILINEAR),
         ResizeModeAttr(ResizeMode.NEAREST_NEIGHBOR)]


@st.composite
def any_attrs(draw) -> Attribute:
    """An attribute of any kind: what a property of the wrong kind gets."""
    kind = draw(st.integers(0, 10))
    if kind <= 1:
        return draw(int_attrs())
    if kind <= 3:
        return draw(dense_arrays())
    if kind == 4:
        return draw(st.sampled_from(ENUMS))
    if kind == 5:
        return draw(st.sampled_from(ELEMENT_TYPES))
    if kind == 6:
        return FloatAttr(draw(st.floats(allow_nan=True, width=32)), Float32Type())
    if kind == 7:
        return StringAttr(draw(st.sampled_from(["", "x", "PROPAGATE", "BILINEAR"])))
    if kind == 8:
        return UnitAttr()
    if kind == 9:
        return ArrayAttr([draw(int_attrs()) for _ in range(draw(st.integers(0, 3)))])
    return draw(dense_elements())


@st.composite
def dense_elements(draw, t: Attribute | None = None) -> Attribute:
    """A dense constant: of type `t` when given (a static tensor of few elements), or random."""
    if t is None:
        et = draw(st.sampled_from(INT_ELEMENT_TYPES + [Float32Type(), Float16Type(), IndexType()]))
        n = draw(st.integers(0, 5))
        t = TensorType(et, [n])
    values = _values_for(draw, t)
    return DenseIntOrFPElementsAttr.from_list(t, values)


def _values_for(draw, t: TensorType) -> list:
    n = 1
    for d in t.get_shape():
        n *= d
    et = t.element_type
    if isinstance(et, IntegerType):
        width = et.width.data
        raw = draw(st.lists(st.one_of(INTS, HUGE), min_size=n, max_size=n))
        low = 0 if et.signedness.data == Signedness.UNSIGNED else -(2 ** (width - 1))
        span = 2**width
        return [((v - low) % span) + low for v in raw]
    if isinstance(et, IndexType):
        return draw(st.lists(INTS, min_size=n, max_size=n))
    big = [1e30] if isinstance(et, (Float32Type, Float64Type)) else []
    return draw(st.lists(st.one_of(st.floats(-4, 4), st.sampled_from([0.5, -0.0, 65504.0, *big])),
                         min_size=n, max_size=n))


def _denseable(t: Attribute) -> bool:
    if not isinstance(t, TensorType):
        return False
    shape = t.get_shape()
    if any(d < 0 for d in shape):
        return False
    n = 1
    for d in shape:
        n *= d
    et = t.element_type
    ok_et = (isinstance(et, (IntegerType, IndexType)) and (not isinstance(et, IntegerType) or et.width.data <= 64)) \
        or isinstance(et, (Float16Type, Float32Type, Float64Type))
    return n <= 16 and ok_et


@st.composite
def property_value(draw, op_type: type, name: str) -> Attribute | None:
    """A value for property `name` of `op_type`: usually of the right kind (with hostile
    contents), sometimes of another kind, sometimes absent (None)."""
    clause = next((c for c in getattr(op_type, "CLAUSES", ()) if c.name == name), None)
    roll = draw(st.integers(0, 19))
    if roll == 0:
        return None
    if roll == 1:
        return draw(any_attrs())
    if clause is None:  # variable ops' own properties
        if name in ("sym_name", "name"):
            return StringAttr(draw(st.sampled_from(["v", "w", ""])))
        if name == "var_shape":
            return draw(dense_elements(TensorType(IndexType(), [draw(st.integers(0, 3))])))
        if name == "type":
            return draw(st.sampled_from(ELEMENT_TYPES))
        return draw(any_attrs())
    kind = clause.kind
    if kind is syntax.Kind.ARRAY:
        return draw(dense_arrays())
    if kind is syntax.Kind.TYPE:
        return draw(st.sampled_from(ELEMENT_TYPES))
    if kind is syntax.Kind.INT:
        return draw(int_attrs())
    if kind is syntax.Kind.BOOL:
        return IntegerAttr(draw(st.integers(0, 1)), draw(st.sampled_from([i1, i1, i32])))
    if kind is syntax.Kind.STRING:
        return StringAttr(draw(st.sampled_from(["", "op", "dom", "\x00", "{}"])))
    if kind is syntax.Kind.ENUM:
        return draw(st.sampled_from(ENUMS))
    # Kind.ATTR: clamp's min/max_val, const's values
    if name in ("min_val", "max_val"):
        return draw(st.one_of(
            int_attrs(),
            st.builds(lambda v, t: FloatAttr(v, t), st.floats(allow_nan=True, allow_infinity=True, width=16),
                      st.sampled_from([Float32Type(), Float16Type(), BFloat16Type(), Float64Type()]))))
    return draw(dense_elements())


# -------------------------------------------------------------------- building the op


@dataclass
class Built:
    module: ModuleOp
    op: Operation

    def __repr__(self) -> str:  # what hypothesis prints for a failing example
        return "Built:\n" + _describe(self.module)


class _Body:
    """Collects the func arguments and the ops defining the operands of the op under test."""

    def __init__(self):
        self.arg_types: list[Attribute] = []
        self.block = Block()
        self.ops: list[Operation] = []
        self.module_ops: list[Operation] = []

    def value(self, draw, t: Attribute) -> SSAValue:
        how = draw(st.integers(0, 3))
        if how >= 2 and isinstance(t, ShapeType):
            n = t.rank.data if draw(st.integers(0, 4)) else draw(st.integers(0, 8))
            values = draw(st.lists(INTS, min_size=n, max_size=n))
            attr = DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [n]), values)
            op = ConstShapeOp.create(properties={"values": attr}, result_types=[t])
            self.ops.append(op)
            return op.results[0]
        if how >= 2 and _denseable(t):
            op = ConstOp(DenseIntOrFPElementsAttr.from_list(t, _values_for(draw, t)))
            self.ops.append(op)
            return op.results[0]
        return self.block.insert_arg(t, len(self.block.args))


def _operand_type(draw, op_type: type, name: str, previous: list[Attribute]) -> Attribute:
    """A type for operand `name`: often related to an earlier one (same element type, same
    rank), often a small zero-point-like tensor<1xT>, otherwise anything."""
    roll = draw(st.integers(0, 9))
    if previous and roll <= 3:
        base = draw(st.sampled_from(previous))
        if isinstance(base, TensorType):
            if roll <= 1:
                return base
            return TensorType(base.element_type, [draw(DIMS) for _ in base.get_shape()])
    if roll <= 6 and ("zp" in name or name in ("shift", "multiplier", "pad_const", "table")):
        et = draw(st.sampled_from(ELEMENT_TYPES)) if not previous or roll == 6 else \
            getattr(previous[0], "element_type", i8)
        return TensorType(et, [draw(st.sampled_from([1, 1, 1, 0, 2, 3]))])
    if roll <= 6 and name in ("padding", "shape", "start", "size", "multiples", "scale", "offset", "border"):
        return ShapeType(draw(st.integers(0, 8)))
    return draw(tensor_types())


def _n_variadic(draw) -> int:
    return draw(st.sampled_from([0, 1, 1, 2, 3, 65]))


@st.composite
def built_ops(draw, op_type: type) -> Built:
    """`op_type` built through the Python API, in a func.func of a module."""
    definition = op_type.get_irdl_definition()
    body = _Body()
    previous: list[Attribute] = []
    operands: list[SSAValue] = []
    segments: list[int] = []
    for name, odef in definition.operands:
        if isinstance(odef, (VarOperandDef, OptOperandDef)):
            n = _n_variadic(draw)
            if n == 65 and draw(st.booleans()):
                t = draw(tensor_types())
                vals = [body.value(draw, t) for _ in range(n)]
            else:
                n = min(n, 3)
                vals = [body.value(draw, _operand_type(draw, op_type, name, previous)) for _ in range(n)]
            operands += vals
            segments.append(len(vals))
        else:
            t = _operand_type(draw, op_type, name, previous)
            previous.append(t)
            operands.append(body.value(draw, t))
            segments.append(1)
    result_types: list[Attribute] = []
    for name, rdef in definition.results:
        count = draw(st.integers(0, 3)) if isinstance(rdef, (VarResultDef, OptResultDef)) else 1
        for _ in range(count):
            result_types.append(_operand_type(draw, op_type, name, previous))
    properties: dict[str, Attribute] = {}
    for name in definition.properties:
        value = draw(property_value(op_type, name))
        if value is not None:
            properties[name] = value
    if draw(st.integers(0, 9)) == 0:  # an unknown extra property
        properties["bogus"] = draw(any_attrs())
    attributes: dict[str, Attribute] = {}
    if draw(st.integers(0, 9)) == 0:  # a property name given as a discardable attribute
        names = list(definition.properties) or ["axis"]
        attributes[draw(st.sampled_from(names))] = draw(any_attrs())
    regions = [_region(draw, operands, result_types) for _ in definition.regions]
    if op_type in (VariableReadOp, VariableWriteOp) and draw(st.booleans()):
        var = VariableOp("v", TensorType(draw(st.sampled_from(ELEMENT_TYPES)),
                                         [draw(st.integers(0, 3)) for _ in range(draw(st.integers(0, 3)))]))
        body.module_ops.append(var)
    op = op_type.create(operands=operands, result_types=result_types, properties=properties,
                        attributes=attributes, regions=regions)
    if op_type is VariableOp:
        body.module_ops.append(op)
        func_ops = [*body.ops, ReturnOp()]
    else:
        func_ops = [*body.ops, op, ReturnOp()]
    body.block.add_ops(func_ops)
    func = FuncOp("main", FunctionType.from_lists(list(body.block.arg_types), []), Region(body.block))
    return Built(ModuleOp([*body.module_ops, func]), op)


def _region(draw, operands: list[SSAValue], result_types: list[Attribute]) -> Region:
    """A COND_IF / WHILE_LOOP region: empty, or one block (args from the operand types or
    random) ending in tosa.yield of some of its args, or in nothing."""
    roll = draw(st.integers(0, 9))
    if roll == 0:
        return Region()
    types = [o.type for o in operands]
    if roll <= 2:
        types = [draw(tensor_types()) for _ in range(draw(st.integers(0, 2)))]
    elif roll == 3 and types:
        types = types[1:]
    block = Block(arg_types=types)
    if roll != 4:
        yielded = list(block.args)
        if yielded and draw(st.booleans()):
            yielded = yielded[: draw(st.integers(0, len(yielded)))]
        block.add_op(YieldOp.create(operands=yielded))
    return Region(block)


# ------------------------------------------------------------------------------ checks


@contextlib.contextmanager
def _quiet_verify() -> Iterator[None]:
    """As tosa-opt does: raise the verifier's exception itself instead of xDSL's
    emit_error, which renders the whole module into the message (slow)."""
    original = Operation.emit_error

    def raise_it(self, message, underlying_error):
        raise underlying_error

    Operation.emit_error = raise_it  # type: ignore[method-assign]
    try:
        yield
    finally:
        Operation.emit_error = original  # type: ignore[method-assign]


def _describe(module: Operation) -> str:
    try:
        import io

        out = io.StringIO()
        Printer(stream=out, print_generic_format=True).print_op(module)
        return out.getvalue()
    except Exception as err:  # the crash report must not crash
        return f"<module does not print: {type(err).__name__}: {err}>"


# Crashes found by this file in code that is not a verifier / validation check / our syntax
# engine, keyed by (exception type, file, function) of the innermost frame. They are real
# bugs, but not fixed here: xDSL's own attribute parser (upstream), and tosa_xdsl/dense.py
# (owned elsewhere; reported). tosa-opt turns each into a located `error: internal error:
# ...` diagnostic, never a traceback (tests/test_fuzz_cli.py). Anything not listed fails.
KNOWN_FOREIGN_CRASHES: dict[tuple[str, str, str], str] = {
    ("AssertionError", "attribute_parser.py", "to_complex"):
        "xDSL 0.74: `dense<[0, 1]> : tensor<2xcomplex<f32>>` (non-pair values for a complex "
        "element type) trips an assert instead of a parse error",
}


def foreign_crash(err: BaseException) -> str | None:
    """The KNOWN_FOREIGN_CRASHES reason matching `err`'s innermost frame, else None."""
    import traceback

    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return None
    last = frames[-1]
    return KNOWN_FOREIGN_CRASHES.get(
        (type(err).__name__, os.path.basename(last.filename), last.name))


def check_module(module: ModuleOp) -> bool:
    """Verify every op (as tosa-opt does: each op on its own) and, if all verify, run
    tosa-validate (default target, and level none with every extension). Returns whether the
    module verified. Raises AssertionError with the module text on a non-diagnostic
    exception."""
    stage = "verify"
    try:
        with _quiet_verify():
            ok = True
            for op in list(module.walk()):
                try:
                    op.verify(verify_nested_ops=False)
                except DIAGNOSTICS:
                    ok = False
            if not ok:
                return False
            stage = "tosa-validate"
            for pass_ in (TosaValidatePass(),
                          TosaValidatePass(profile=("pro_int", "pro_fp"), level="none",
                                           extension=("int16", "int4", "bf16", "fp8e4m3", "fp8e5m2",
                                                      "fft", "variable", "controlflow", "dynamic",
                                                      "doubleround", "inexactround"))):
                with capture_diagnostics():
                    try:
                        pass_.apply(make_context(), module)
                    except DIAGNOSTICS:
                        pass
            return True
    except Exception as err:
        raise AssertionError(
            f"{stage} crashed with {type(err).__name__}: {err}\n{_describe(module)}") from err


def parse_and_check(text: str) -> bool | None:
    """Parse `text`; None on a parse diagnostic, else check_module's verdict."""
    try:
        module = Parser(make_context(), text).parse_module()
    except DIAGNOSTICS:
        return None
    except (Exception, MemoryError) as err:
        if foreign_crash(err) is not None:
            return None
        raise AssertionError(f"parsing crashed with {type(err).__name__}: {err}\n{text}") from err
    return check_module(module)


# ---------------------------------------------------------------------------- op texts

# Hostile spellings of a clause value / attribute value in the text forms.
INT_TOKENS = ["0", "-1", "1", "7", "-2147483649", "2147483648", "9223372036854775807",
              "9223372036854775808", "18446744073709551616", "-9223372036854775809",
              "99999999999999999999999999", "0x10", "true", "1.5", "-0.0"]
VALUE_TOKENS = INT_TOKENS + [
    "[]", "[1]", "[1, 2]", "[0, 0, 0, 0]", "[-1, -1, -1, -1]", "[9223372036854775808, 1]",
    "[1, 2, 3, 4, 5, 6, 7]", "[1,]", "array<i64>", "array<i64: 1, 2>", "array<i32: 1, 0>",
    "array<i8: 1, 0, 1, 1>", "array<i64: 99999999999999999999>", "f32", "i32", "i48", "index",
    "complex<f32>", "!tosa.shape<2>", '"x"', '""', "unit", "[1 : i32]",
    "dense<1> : tensor<1xi32>", "dense<[]> : tensor<0xi8>", "1 : i32", "2147483648 : i32",
    "99999999999999999999 : i64", "1.0 : f32", "0x7FC00000 : f32", "1 : i1", "true",
    "#tosa.nan_mode<IGNORE>", "#tosa.rounding_mode<DOUBLE_ROUND>", "#tosa.resize_mode<BILINEAR>",
    "PROPAGATE", "IGNORE", "SINGLE_ROUND", "DOUBLE_ROUND", "BILINEAR", "BOGUS", '"IGNORE"',
]
ENUM_TOKENS = ["PROPAGATE", "IGNORE", "SINGLE_ROUND", "DOUBLE_ROUND", "INEXACT_ROUND",
               "BILINEAR", "NEAREST_NEIGHBOR", "BOGUS", "propagate", "1"]


def _type_text(t: Attribute) -> str:
    return str(t)


@st.composite
def op_texts(draw, op_type: type) -> str:
    """A func.func holding one `op_type` spelled in the keyword, attribute-dictionary or
    generic form, with hostile clause values and random operand/result types."""
    definition = op_type.get_irdl_definition()
    clauses = list(getattr(op_type, "CLAUSES", ()))
    style = draw(st.sampled_from(["keyword", "attr-dict", "generic"]))
    args: list[str] = []
    body: list[str] = []
    operand_names: list[str] = []
    operand_types: list[str] = []
    previous: list[Attribute] = []
    for name, odef in definition.operands:
        count = min(_n_variadic(draw), 3) if isinstance(odef, (VarOperandDef, OptOperandDef)) else 1
        for _ in range(count):
            t = _operand_type(draw, op_type, name, previous)
            previous.append(t)
            i = len(operand_names)
            if isinstance(t, ShapeType) and draw(st.booleans()):
                n = t.rank.data if draw(st.integers(0, 3)) else draw(st.integers(0, 5))
                vals = ", ".join(draw(st.sampled_from(INT_TOKENS[:10])) for _ in range(n))
                body.append(f"%v{i} = tosa.const_shape {{values = dense<[{vals}]> : tensor<{n}xindex>}}"
                            f" : () -> {t}")
            elif _denseable(t) and draw(st.booleans()):
                vals = ", ".join(draw(st.sampled_from(INT_TOKENS[:10])) for _ in range(
                    max(1, min(4, len(_values_for(draw, t))))))
                body.append(f'%v{i} = "tosa.const"() <{{values = dense<[{vals}]> : {t}}}> : () -> {t}')
            else:
                args.append(f"%v{i}: {_type_text(t)}")
            operand_names.append(f"%v{i}")
            operand_types.append(_type_text(t))
    result_types = []
    for name, rdef in definition.results:
        count = draw(st.integers(0, 3)) if isinstance(rdef, (VarResultDef, OptResultDef)) else 1
        result_types += [_type_text(_operand_type(draw, op_type, name, previous)) for _ in range(count)]
    props: list[tuple[str, str, syntax.Clause | None]] = []
    names = [c.name for c in clauses] or list(definition.properties)
    for name in names:
        if draw(st.integers(0, 9)) == 0:
            continue  # missing
        clause = next((c for c in clauses if c.name == name), None)
        props.append((name, draw(st.sampled_from(VALUE_TOKENS)), clause))
    if draw(st.integers(0, 9)) == 0:
        props.append((draw(st.sampled_from(["bogus", *names] if names else ["bogus"])),
                      draw(st.sampled_from(VALUE_TOKENS)), None))
    results = ", ".join(f"%r{i}" for i in range(len(result_types)))
    lhs = f"{results} = " if result_types else ""
    functional = f"({', '.join(operand_types)}) -> ({', '.join(result_types)})"
    if style == "generic" or op_type in (CondIfOp, WhileLoopOp) or not clauses and definition.properties:
        entries = ", ".join(f"{n} = {v}" for n, v, _ in props)
        regions = ""
        if definition.regions:
            regions = " (" + ", ".join(_region_text(draw) for _ in definition.regions) + ")"
        line = (f'{lhs}"{op_type.name}"({", ".join(operand_names)}){regions} <{{{entries}}}> : '
                f"{functional}")
    elif style == "keyword":
        parts = []
        for n, v, clause in props:
            if clause is not None and clause.kind is syntax.Kind.ENUM:
                parts.append(f"{n}<{draw(st.sampled_from(ENUM_TOKENS))}>")
            else:
                parts.append(f"{n}({v})")
        line = f"{lhs}{op_type.name} {', '.join(operand_names)} {' '.join(parts)} : {functional}"
    else:
        entries = ", ".join(f"{n} = {v}" for n, v, _ in props)
        line = f"{lhs}{op_type.name} {', '.join(operand_names)} {{{entries}}} : {functional}"
    module_lines = []
    if op_type in (VariableReadOp, VariableWriteOp, VariableOp) and draw(st.booleans()):
        module_lines.append(draw(st.sampled_from([
            "tosa.variable @v : tensor<2xi8>", "tosa.variable @v = dense<1> : tensor<2x2xi32>",
            "tosa.variable @v : tensor<*xf32>", "tosa.variable @v : tensor<?xf32>"])))
    if op_type in (VariableReadOp, VariableWriteOp, VariableOp) and style != "generic":
        sym = draw(st.sampled_from(["@v", "@w", "@v2"]))
        t = draw(tensor_types())
        if op_type is VariableOp:
            module_lines.append(f"tosa.variable {sym} : {t}")
        elif op_type is VariableReadOp:
            line = f"%r0 = tosa.variable_read {sym} : {t}"
        else:
            line = (f"tosa.variable_write {sym}, {operand_names[0]} : {operand_types[0]}"
                    if operand_names else f"tosa.variable_write {sym} : {t}")
    if op_type is VariableOp:
        module_lines.append(line.removeprefix(lhs))
        line = ""
    func = "\n".join([f"func.func @main({', '.join(args)}) {{", *("  " + b for b in body),
                      "  " + line, "  return", "}"])
    return "\n".join([*module_lines, func])


def _region_text(draw) -> str:
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return "{}"
    if kind == 1:
        return "{\n^bb0:\n  tosa.yield\n}"
    if kind == 2:
        return "{\n^bb0(%a: tensor<i1>):\n  tosa.yield %a : tensor<i1>\n}"
    if kind == 3:
        return "{\n^bb0(%a: tensor<2xf32>, %b: tensor<*xi8>):\n  tosa.yield %b : tensor<*xi8>\n}"
    return "{\n^bb0(%a: tensor<2xf32>):\n  \"tosa.yield\"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> ()\n}"


# ------------------------------------------------------------------------------- tests


def _print(module: Operation, style: str) -> str | None:
    import io

    out = io.StringIO()
    token = syntax.print_style.set("attr-dict" if style == "attr-dict" else "keyword")
    try:
        Printer(stream=out, print_generic_format=style == "generic").print_op(module)
    except Exception:
        # printing a hostile op may fail (an attribute of the wrong kind); the parser
        # round trip then has nothing to read. Printing is not what this file tests.
        return None
    finally:
        syntax.print_style.reset(token)
    return out.getvalue()


@pytest.mark.parametrize("op_type", SPEC_OPS, ids=OP_IDS)
@FUZZ_SETTINGS
@given(data=st.data())
def test_api_built_op_verifies_or_diagnoses(op_type, data):
    built = data.draw(built_ops(op_type), label="op")
    check_module(built.module)
    # The same op printed in each form and read back: the parser must diagnose or accept.
    for style in ("keyword", "attr-dict", "generic"):
        text = _print(built.module, style)
        if text is not None:
            parse_and_check(text)


@pytest.mark.parametrize("op_type", SPEC_OPS, ids=OP_IDS)
@FUZZ_SETTINGS
@given(data=st.data())
def test_parsed_op_verifies_or_diagnoses(op_type, data):
    parse_and_check(data.draw(op_texts(op_type), label="text"))


# ----------------------------------------------------------- mutating valid snippets

# Random ops mostly fail early (IRDL, element types, ranks); mutating the valid snippets of
# the lit suites instead reaches every ERROR_IF check, the level/profile checks and the
# printers with near-valid, hostile IR.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED_DIRS = ("tests/filecheck/dialect", "tests/filecheck/verify", "tests/filecheck/validate")


def _load_seeds() -> list[str]:
    chunks: list[str] = []
    for d in SEED_DIRS:
        path = os.path.join(ROOT, d)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(path, name), encoding="utf-8") as f:
                text = f.read()
            for chunk in text.split("// -----"):
                lines = [ln for ln in chunk.splitlines() if not ln.strip().startswith("//")]
                chunk = "\n".join(lines).strip()
                if chunk:
                    chunks.append(chunk)
    return chunks


SEEDS = _load_seeds()


def seeds_of(op_type: type) -> list[str]:
    """The seed chunks that use `op_type` (in any spelling)."""
    import re

    pattern = re.compile(r'(?<![\w.])"?' + re.escape(op_type.name) + r'(?![\w])')
    return [s for s in SEEDS if pattern.search(s)]


DIM_TOKENS = ["0", "1", "2", "3", "?", "16", "8193", "16384", "2147483648", "4611686018427387904"]
ELEMENT_TOKENS = ["i1", "i4", "i8", "i16", "i32", "i48", "i64", "ui8", "f16", "bf16", "f32",
                  "f64", "index", "f8E4M3FN", "f8E5M2", "complex<f32>"]
INT_MUTANTS = ["0", "-1", "1", "2", "3", "-2", "7", "8", "127", "-128", "255", "256", "32768",
               "-32769", "8192", "8193", "2147483647", "2147483648", "-2147483648",
               "4294967296", "9223372036854775807", "-9223372036854775808",
               "9223372036854775808", "18446744073709551615", "99999999999999999999"]
SWAPS = [("true", "false"), ("PROPAGATE", "IGNORE"), ("SINGLE_ROUND", "DOUBLE_ROUND"),
         ("DOUBLE_ROUND", "INEXACT_ROUND"), ("BILINEAR", "NEAREST_NEIGHBOR"), ("i32", "i48"),
         ("f32", "f16"), ("i8", "i4"), ("i8", "ui8"), ("f32", "bf16"), ("i1", "i8")]


def _mutate_type(draw, text: str) -> str:
    import re

    types = sorted(set(re.findall(r"tensor<[^<>]*>|!tosa\.shape<\d+>", text)))
    if not types:
        return text
    old = draw(st.sampled_from(types))
    if old.startswith("!tosa.shape"):
        new = f"!tosa.shape<{draw(st.integers(0, 8))}>"
    else:
        parts = old[len("tensor<"):-1].split("x")
        dims, et = parts[:-1], parts[-1]
        how = draw(st.integers(0, 5))
        if how <= 1 and dims:
            i = draw(st.integers(0, len(dims) - 1))
            dims[i] = draw(st.sampled_from(DIM_TOKENS))
        elif how == 2 and dims:
            del dims[draw(st.integers(0, len(dims) - 1))]
        elif how == 3:
            dims.insert(draw(st.integers(0, len(dims))), draw(st.sampled_from(DIM_TOKENS)))
        elif how == 4:
            et = draw(st.sampled_from(ELEMENT_TOKENS))
        else:
            dims = ["*"]
        new = "tensor<" + "".join(d + "x" for d in dims) + et + ">"
    return text.replace(old, new)


def _mutate_int(draw, text: str) -> str:
    import re

    spots = [m for m in re.finditer(r"(?<![\w%#@^<.x!-])-?\d+(?![\w.])", text)
             if not text[m.end():m.end() + 1] == "x"]
    if not spots:
        return text
    m = draw(st.sampled_from(spots))
    return text[:m.start()] + draw(st.sampled_from(INT_MUTANTS)) + text[m.end():]


def _mutate_list(draw, text: str) -> str:
    import re

    spots = list(re.finditer(r"\[([-\d, ]*)\]|array<i(?:64|32|8|1): ([-\d, ]*)>", text))
    if not spots:
        return text
    m = draw(st.sampled_from(spots))
    group = 1 if m.group(1) is not None else 2
    items = [v.strip() for v in m.group(group).split(",") if v.strip()]
    if items and draw(st.booleans()):
        del items[draw(st.integers(0, len(items) - 1))]
    else:
        items.insert(draw(st.integers(0, len(items))), draw(st.sampled_from(INT_MUTANTS[:12])))
    return text[:m.start(group)] + ", ".join(items) + text[m.end(group):]


def _mutate_word(draw, text: str) -> str:
    import re

    a, b = draw(st.sampled_from(SWAPS))
    if draw(st.booleans()):
        a, b = b, a
    spots = list(re.finditer(r"\b" + re.escape(a) + r"\b", text))
    if not spots:
        return text
    m = draw(st.sampled_from(spots))
    return text[:m.start()] + b + text[m.end():]


MUTATIONS = (_mutate_type, _mutate_type, _mutate_int, _mutate_int, _mutate_list, _mutate_word)


@st.composite
def mutated_seeds(draw, op_type: type) -> str:
    """A valid lit snippet using `op_type`, with 1-3 hostile mutations."""
    text = draw(st.sampled_from(seeds_of(op_type)))
    for _ in range(draw(st.integers(1, 3))):
        text = draw(st.sampled_from(MUTATIONS))(draw, text)
    return text


def test_every_operator_has_a_seed():
    missing = [cls.name for cls in SPEC_OPS if not seeds_of(cls)]
    assert not missing, missing


@pytest.mark.parametrize("op_type", SPEC_OPS, ids=OP_IDS)
@FUZZ_SETTINGS
@given(data=st.data())
def test_mutated_snippet_verifies_or_diagnoses(op_type, data):
    parse_and_check(data.draw(mutated_seeds(op_type), label="text"))


# ------------------------------------------------------------------------- regressions

# Crashes this file found, fixed where noted; each stays an explicit example.
ARRAY_OUT_OF_RANGE = (  # syntax.py: ValueError from DenseArrayBase.from_list (i32 perms)
    "func.func @main(%0: tensor<i1>) {\n"
    "  %1 = tosa.transpose %0 perms([-9223372036854775808]) : (tensor<i1>) -> tensor<i1>\n"
    "  func.return\n}\n")
INT_OUT_OF_RANGE = (  # syntax.py: VerifyException from IntegerAttr(v, i32), not located
    "func.func @main(%0: tensor<2xf32>) {\n"
    "  %1 = tosa.reduce_sum %0 axis(99999999999) : (tensor<2xf32>) -> tensor<1xf32>\n"
    "  func.return\n}\n")


@FUZZ_SETTINGS
@given(text=st.sampled_from([ARRAY_OUT_OF_RANGE, INT_OUT_OF_RANGE]))
@example(text=ARRAY_OUT_OF_RANGE)
@example(text=INT_OUT_OF_RANGE)
def test_out_of_range_clause_values_are_parse_errors(text):
    with pytest.raises(ParseError, match="does not fit i32"):
        Parser(make_context(), text).parse_module()
    assert parse_and_check(text) is None

"""linalg named ops that upstream's TOSA lowering emits but xDSL 0.74 does
not define, as IRDL ops with upstream's names, operands (ins/outs), properties (strides,
dilations) and the same custom syntax as xDSL's own named ops (`linalg.conv_2d_nhwc_fhwc
{dilations = dense<1> : tensor<2xi64>, strides = ...} ins(...) outs(...) -> type`), which
mlir-opt reads; the generic form carries the hidden region as MLIR's does.

Defined here:
  linalg.batch_matmul, linalg.quantized_batch_matmul,
  linalg.conv_2d_nhwc_fhwc_q, linalg.conv_2d_nhwc_hwcf_q,
  linalg.conv_3d_ndhwc_dhwcf, linalg.conv_3d_ndhwc_dhwcf_q,
  linalg.depthwise_conv_2d_nhwc_hwcm, linalg.depthwise_conv_2d_nhwc_hwcm_q,
  linalg.pooling_nhwc_max, linalg.pooling_nhwc_max_unsigned, linalg.pooling_nhwc_min,
  linalg.pooling_nhwc_min_unsigned, linalg.pooling_nhwc_sum.

`linalg_dialect()` returns xDSL's linalg extended with these ops;
`tosa_xdsl.context.make_context` registers them in place of xDSL's.

The hidden regions follow the ops' OpDSL definitions: every operand is cast to the output
element type (TypeFn.cast_signed, or cast_unsigned for the *_unsigned variants), zero points
are subtracted in the output type, then mul/add (or max/min) in the output type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IntegerType,
)
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg.abstract_ops import (
    ConvOperation,
    NamedOperation,
    PoolingOperation,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, BlockArgument, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    irdl_op_definition,
)
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl.dialects.extend import extend_dialect

# ------------------------------------------------------------------ region building


def _cast(value: SSAValue, to: Attribute, unsigned: bool = False) -> SSAValue:
    """OpDSL TypeFn.cast_signed / cast_unsigned of a body value to element type `to`."""
    src = value.type
    if src == to:
        return value
    if isinstance(src, IntegerType) and isinstance(to, IntegerType):
        if src.width.data < to.width.data:
            op = arith.ExtUIOp(value, to) if unsigned else arith.ExtSIOp(value, to)
        else:
            op = arith.TruncIOp(value, to)
    elif isinstance(src, IntegerType) and isinstance(to, AnyFloat):
        op = arith.UIToFPOp(value, to) if unsigned else arith.SIToFPOp(value, to)
    elif isinstance(src, AnyFloat) and isinstance(to, IntegerType):
        op = arith.FPToUIOp(value, to) if unsigned else arith.FPToSIOp(value, to)
    elif isinstance(src, AnyFloat) and isinstance(to, AnyFloat):
        if src.bitwidth < to.bitwidth:
            op = arith.ExtFOp(value, to)
        else:
            op = arith.TruncFOp(value, to)
    else:
        return value
    return op.result


def _mac_region(arg_types: Sequence[Attribute], quantized: bool) -> Region:
    """out + (cast(a) [- cast(azp)]) * (cast(b) [- cast(bzp)])."""
    out_t = arg_types[-1]
    is_float = isinstance(out_t, AnyFloat)
    add, sub, mul = ((arith.AddfOp, arith.SubfOp, arith.MulfOp) if is_float
                     else (arith.AddiOp, arith.SubiOp, arith.MuliOp))

    @Builder.implicit_region(arg_types)
    def region(args: tuple[BlockArgument, ...]) -> None:
        a = _cast(args[0], out_t)
        b = _cast(args[1], out_t)
        if quantized:
            a = sub(a, _cast(args[2], out_t)).result
            b = sub(b, _cast(args[3], out_t)).result
        prod = mul(a, b).result
        LinalgYieldOp(add(args[-1], prod).result)

    return region


def _check_operand_counts(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue], n_in: int) -> None:
    """The body is built from the operands while the op is parsed or built, before any verifier
    runs: a wrong count (a mistyped `ins(`) is the input's error, not an IndexError of ours."""
    if len(inputs) != n_in or len(outputs) != 1:
        raise VerifyException(f"'{cls.name}' expects {n_in} inputs and 1 output, got {len(inputs)} and "
                              f"{len(outputs)}")


class _MacNamed:
    QUANTIZED: ClassVar[bool] = False

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        _check_operand_counts(cls, inputs, outputs, 4 if cls.QUANTIZED else 2)
        arg_types = NamedOperation.body_arg_types((*inputs, *outputs))
        return _mac_region(arg_types, cls.QUANTIZED)


def _dims(n: int):
    return tuple(AffineDimExpr(i) for i in range(n))


def _verify_window(op, spatial: int) -> None:
    """strides and dilations hold one value per spatial dim, as upstream's
    `RankedI64ElementsAttr<[N]>` requires; checked before the indexing maps are built from them."""
    for name in ("strides", "dilations"):
        shape = tuple(getattr(op, name).get_type().get_shape())
        if shape != (spatial,):
            raise VerifyException(f"attribute '{name}' failed to satisfy constraint: 64-bit signless int "
                                  f"elements attribute of shape [{spatial}] (got shape {list(shape)})")


# ------------------------------------------------------------------ matmul family


class _BatchMatmulBase(_MacNamed, NamedOperation):
    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        b, m, n, k = _dims(4)
        maps = [AffineMap(4, 0, (b, m, k)), AffineMap(4, 0, (b, k, n))]
        if self.QUANTIZED:
            maps += [AffineMap(4, 0, ()), AffineMap(4, 0, ())]
        return (*maps, AffineMap(4, 0, (b, m, n)))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        p, r = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr((p, p, p, r))


@irdl_op_definition
class BatchMatmulOp(_BatchMatmulBase):
    """linalg.batch_matmul: C[b,m,n] += cast(A[b,m,k]) * cast(B[b,k,n])."""

    name = "linalg.batch_matmul"


@irdl_op_definition
class QuantizedBatchMatmulOp(_BatchMatmulBase):
    """linalg.quantized_batch_matmul: C += (cast(A) - cast(azp)) * (cast(B) - cast(bzp))."""

    name = "linalg.quantized_batch_matmul"
    QUANTIZED: ClassVar[bool] = True


# ------------------------------------------------------------------ convolutions


class _Conv(_MacNamed, ConvOperation):
    REDUCTIONS: ClassVar[int] = 3

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        n = self.get_num_loops()
        return ArrayAttr((IteratorTypeAttr.parallel(),) * (n - self.REDUCTIONS)
                         + (IteratorTypeAttr.reduction(),) * self.REDUCTIONS)

    SPATIAL: ClassVar[int] = 2

    def verify_(self) -> None:
        _verify_window(self, self.SPATIAL)
        super().verify_()

    def _sd(self):
        return list(self.strides.get_values()), list(self.dilations.get_values())

    def _zp_maps(self, n: int) -> tuple[AffineMap, ...]:
        return (AffineMap(n, 0, ()), AffineMap(n, 0, ())) if self.QUANTIZED else ()


@irdl_op_definition
class Conv2DNhwcFhwcQOp(_Conv):
    name = "linalg.conv_2d_nhwc_fhwc_q"
    QUANTIZED: ClassVar[bool] = True

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, f, kh, kw, c = _dims(7)
        (sh, sw), (dh, dw) = self._sd()
        return (AffineMap(7, 0, (n, oh * sh + kh * dh, ow * sw + kw * dw, c)),
                AffineMap(7, 0, (f, kh, kw, c)), *self._zp_maps(7),
                AffineMap(7, 0, (n, oh, ow, f)))


@irdl_op_definition
class Conv2DNhwcHwcfQOp(_Conv):
    name = "linalg.conv_2d_nhwc_hwcf_q"
    QUANTIZED: ClassVar[bool] = True

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, f, kh, kw, c = _dims(7)
        (sh, sw), (dh, dw) = self._sd()
        return (AffineMap(7, 0, (n, oh * sh + kh * dh, ow * sw + kw * dw, c)),
                AffineMap(7, 0, (kh, kw, c, f)), *self._zp_maps(7),
                AffineMap(7, 0, (n, oh, ow, f)))


class _Conv3D(_Conv):
    REDUCTIONS: ClassVar[int] = 4
    SPATIAL: ClassVar[int] = 3

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, od, oh, ow, f, kd, kh, kw, c = _dims(9)
        (sd, sh, sw), (dd, dh, dw) = self._sd()
        return (AffineMap(9, 0, (n, od * sd + kd * dd, oh * sh + kh * dh, ow * sw + kw * dw, c)),
                AffineMap(9, 0, (kd, kh, kw, c, f)), *self._zp_maps(9),
                AffineMap(9, 0, (n, od, oh, ow, f)))


@irdl_op_definition
class Conv3DNdhwcDhwcfOp(_Conv3D):
    name = "linalg.conv_3d_ndhwc_dhwcf"


@irdl_op_definition
class Conv3DNdhwcDhwcfQOp(_Conv3D):
    name = "linalg.conv_3d_ndhwc_dhwcf_q"
    QUANTIZED: ClassVar[bool] = True


class _Depthwise(_Conv):
    REDUCTIONS: ClassVar[int] = 2

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, m, kh, kw = _dims(7)
        (sh, sw), (dh, dw) = self._sd()
        return (AffineMap(7, 0, (n, oh * sh + kh * dh, ow * sw + kw * dw, c)),
                AffineMap(7, 0, (kh, kw, c, m)), *self._zp_maps(7),
                AffineMap(7, 0, (n, oh, ow, c, m)))


@irdl_op_definition
class DepthwiseConv2DNhwcHwcmOp(_Depthwise):
    name = "linalg.depthwise_conv_2d_nhwc_hwcm"


@irdl_op_definition
class DepthwiseConv2DNhwcHwcmQOp(_Depthwise):
    name = "linalg.depthwise_conv_2d_nhwc_hwcm_q"
    QUANTIZED: ClassVar[bool] = True


# ------------------------------------------------------------------ pooling


class _PoolingNhwc(PoolingOperation):
    KIND: ClassVar[str] = "max"  # max | min | sum
    UNSIGNED: ClassVar[bool] = False

    def verify_(self) -> None:
        _verify_window(self, 2)
        super().verify_()

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        _check_operand_counts(cls, inputs, outputs, 2)
        arg_types = cls.body_arg_types((*inputs, *outputs))
        out_t = arg_types[-1]
        is_float = isinstance(out_t, AnyFloat)
        if cls.KIND == "sum":
            fn = arith.AddfOp if is_float else arith.AddiOp
        elif cls.KIND == "max":
            fn = arith.MaximumfOp if is_float else (arith.MaxUIOp if cls.UNSIGNED else arith.MaxSIOp)
        else:
            fn = arith.MinimumfOp if is_float else (arith.MinUIOp if cls.UNSIGNED else arith.MinSIOp)

        @Builder.implicit_region(arg_types)
        def region(args: tuple[BlockArgument, ...]) -> None:
            LinalgYieldOp(fn(args[-1], _cast(args[0], out_t, cls.UNSIGNED)).result)

        return region

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = _dims(6)
        sh, sw = self.strides.get_values()
        dh, dw = self.dilations.get_values()
        return (AffineMap(6, 0, (n, oh * sh + kh * dh, ow * sw + kw * dw, c)),
                AffineMap(6, 0, (kh, kw)),
                AffineMap(6, 0, (n, oh, ow, c)))


@irdl_op_definition
class PoolingNhwcMaxOp(_PoolingNhwc):
    name = "linalg.pooling_nhwc_max"


@irdl_op_definition
class PoolingNhwcMaxUnsignedOp(_PoolingNhwc):
    name = "linalg.pooling_nhwc_max_unsigned"
    UNSIGNED: ClassVar[bool] = True


@irdl_op_definition
class PoolingNhwcMinOp(_PoolingNhwc):
    name = "linalg.pooling_nhwc_min"
    KIND: ClassVar[str] = "min"


@irdl_op_definition
class PoolingNhwcMinUnsignedOp(_PoolingNhwc):
    name = "linalg.pooling_nhwc_min_unsigned"
    KIND: ClassVar[str] = "min"
    UNSIGNED: ClassVar[bool] = True


@irdl_op_definition
class PoolingNhwcSumOp(_PoolingNhwc):
    name = "linalg.pooling_nhwc_sum"
    KIND: ClassVar[str] = "sum"


LINALG_OPS = (
    BatchMatmulOp, QuantizedBatchMatmulOp, Conv2DNhwcFhwcQOp, Conv2DNhwcHwcfQOp,
    Conv3DNdhwcDhwcfOp, Conv3DNdhwcDhwcfQOp, DepthwiseConv2DNhwcHwcmOp,
    DepthwiseConv2DNhwcHwcmQOp, PoolingNhwcMaxOp, PoolingNhwcMaxUnsignedOp, PoolingNhwcMinOp,
    PoolingNhwcMinUnsignedOp, PoolingNhwcSumOp,
)


def linalg_dialect() -> Dialect:
    """xDSL's linalg plus LINALG_OPS (what make_context registers as `linalg`)."""
    return extend_dialect(Linalg, LINALG_OPS)


# unused-import guard for type checkers
_ = (AffineMapAttr,)

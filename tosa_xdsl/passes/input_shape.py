"""`tosa-experimental-input-shape{args=arg0:2x16,arg2:64x9}`: give function arguments static
shapes (upstream's TosaInputShape pass, name and option). Run `tosa-infer-shapes` afterwards to
propagate them (EXT-DYNAMIC graphs such as torch-mlir's dynamic batch become static).

Each entry `argN:D0xD1...` replaces the type of argument N of every function with a body by a
tensor of that shape, when compatible (same rank, equal static dims); the function type's inputs
follow, its results become the entry block's return types. Errors are located at the function,
with upstream's messages; a malformed entry is a pass-option error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.diagnostics import LocatedError

_ENTRY = re.compile(r"arg(\d+):(\d+(?:x\d+)*)\Z")


def parse_args(args: tuple[str, ...]) -> list[tuple[int, list[int]]]:
    parsed = []
    for text in args:
        m = _ENTRY.match(text.strip())
        if m is None or any(int(d) <= 0 for d in m.group(2).split("x")):
            raise ValueError(f"tosa-experimental-input-shape: expected 'argN:D0xD1...' with dims > 0, got '{text}'")
        parsed.append((int(m.group(1)), [int(d) for d in m.group(2).split("x")]))
    return parsed


def _compatible(old: tuple[int, ...], new: list[int]) -> bool:
    return len(old) == len(new) and all(o < 0 or o == n for o, n in zip(old, new))


@dataclass(frozen=True)
class TosaInputShapePass(ModulePass):
    name: ClassVar[str] = "tosa-experimental-input-shape"

    args: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            entries = parse_args(tuple(self.args))
        except ValueError as err:  # a bad option value, reported as the other passes report theirs
            raise LocatedError(op, str(err)) from None
        for fn in [o for o in op.walk() if isinstance(o, func.FuncOp)]:
            if not fn.body.blocks:
                continue
            entry = fn.body.blocks.first
            assert entry is not None
            for index, shape in entries:
                if index >= len(entry.args):
                    raise LocatedError(fn, f"provided arg index {index} is larger than number of inputs {len(entry.args)}.")
                t = entry.args[index].type
                if not isinstance(t, TensorType):
                    raise LocatedError(fn, f"expected tensor type, got {t}")
                if not _compatible(tuple(t.get_shape()), shape):
                    raise LocatedError(fn, f"arg{index} has incompatible shape with requested input shape "
                                           f"({', '.join(map(str, shape))}), got '{t}'")
                Rewriter.replace_value_with_new_type(entry.args[index], TensorType(t.element_type, shape, t.encoding))
            ret = fn.body.blocks.last.last_op if fn.body.blocks.last else None
            outputs = list(ret.operand_types) if isinstance(ret, func.ReturnOp) else list(fn.function_type.outputs.data)
            fn.properties["function_type"] = FunctionType.from_lists([a.type for a in entry.args], outputs)

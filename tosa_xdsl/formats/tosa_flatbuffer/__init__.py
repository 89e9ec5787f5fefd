"""TOSA flatbuffers (`.tosa`, file identifier `TOSA`): read and write them as Arm's
serialization library and translator do. See docs/tosa-flatbuffer.md.

- `deserialize(data, ctx=None, filename="<input>") -> ModuleOp` (verified);
- `serialize(module, version=(1, 1, 0, True)) -> bytes`;
- errors are `TosaFlatbufferError` with a one-line message.
"""

from __future__ import annotations

from typing import Any

from .reader import FlatbufferError, decode
from .schema import FILE_IDENTIFIER, NEWEST_VERSION


class TosaFlatbufferError(Exception):
    """A .tosa file we cannot read or a module we cannot write (one-line message)."""


def is_tosa_flatbuffer(data: bytes) -> bool:
    return len(data) >= 8 and bytes(data[4:8]) == FILE_IDENTIFIER


def deserialize(data: bytes | bytearray | memoryview, ctx: Any = None,
                filename: str = "<input>", verify: bool = True) -> Any:
    """A .tosa file's bytes -> a verified builtin.module (func.func @main)."""
    from tosa_xdsl.context import make_context

    from .to_ir import graph_to_module

    ctx = ctx or make_context()
    try:
        module, origin = graph_to_module(decode(data), ctx)
    except FlatbufferError as e:
        raise TosaFlatbufferError(str(e)) from None
    except RecursionError:
        raise TosaFlatbufferError("graph nested too deeply") from None
    except Exception as e:  # a bug of ours: still one line, never a traceback
        raise TosaFlatbufferError(f"internal error: {type(e).__name__}: {_first_line(e)}") from None
    if verify:
        _verify(module, origin)
    return module


def _verify(module: Any, origin: dict[Any, str]) -> None:
    """Verify op by op, so the first failure names the flatbuffer operator it came from."""
    from xdsl.utils.exceptions import VerifyException

    try:
        ops = list(module.walk())
        for op in ops:
            try:
                op.verify(verify_nested_ops=False)
            except VerifyException as e:
                where = f"{origin[op]}: " if op in origin else ""
                raise TosaFlatbufferError(f"{where}{_first_line(e)}") from None
    except RecursionError:
        raise TosaFlatbufferError("graph nested too deeply") from None
    except TosaFlatbufferError:
        raise
    except Exception as e:
        raise TosaFlatbufferError(f"the graph does not verify: internal error: "
                                  f"{type(e).__name__}: {_first_line(e)}") from None


def _first_line(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    return lines[0] if lines else type(e).__name__


def serialize(module: Any, version: tuple[int, int, int, bool] = NEWEST_VERSION) -> bytes:
    """A TOSA module (func.func @main, else the first function) -> .tosa bytes."""
    from .from_ir import SerializeError, module_to_graph
    from .writer import encode

    try:
        graph = module_to_graph(module, version)
    except SerializeError as e:
        raise TosaFlatbufferError(str(e)) from None
    return encode(graph)


__all__ = ["TosaFlatbufferError", "deserialize", "is_tosa_flatbuffer", "serialize"]

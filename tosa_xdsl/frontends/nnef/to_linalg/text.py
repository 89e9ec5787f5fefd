"""MLIR text of scalar scf loops for the hand-written lowerings (intrinsics.py): fresh SSA names
from the Emitter, indentation by nesting, `scf.for` carrying values, `scf.if` yielding values,
and the scalar ops they need by their MLIR names."""

from __future__ import annotations

import math
import struct
from contextlib import contextmanager

from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value, ttype


def f32_text(x: float) -> str:
    """An f32 literal arith.constant reads exactly (hex for infinities and NaN)."""
    if not math.isfinite(x):
        return f"0x{struct.unpack('<I', struct.pack('<f', x))[0]:08X}"
    return repr(float(x))


class Loop:
    __slots__ = ("args", "iv", "results", "yields")

    def __init__(self, iv, args, results):
        self.iv, self.args, self.results, self.yields = iv, args, results, None


class Text:
    def __init__(self, em: Emitter):
        self.em = em
        self.depth = 1
        self._consts: dict[tuple, str] = {}
        self._head = len(em.lines)      # where constants go: before every loop of this lowering
        self.c0, self.c1 = self.index(0), self.index(1)

    def line(self, s: str) -> None:
        self.em.lines.append("    " * self.depth + s)

    def let(self, rhs: str) -> str:
        v = self.em.fresh()
        self.line(f"{v} = {rhs}")
        return v

    # ---- constants (defined once, at the function's level: visible in every loop)
    def _const(self, text: str, t: str) -> str:
        key = (text, t)
        if key not in self._consts:
            v = self.em.fresh()
            typed = "" if t == "i1" else f" : {t}"       # arith's bool literal takes no type
            self.em.lines.insert(self._head, f"    {v} = arith.constant {text}{typed}")
            self._head += 1
            self._consts[key] = v
        return self._consts[key]

    def index(self, n: int) -> str:
        return self._const(str(int(n)), "index")

    def i32(self, n: int) -> str:
        return self._const(str(int(n)), "i32")

    def f32(self, x: float) -> str:
        return self._const(f32_text(x), "f32")

    def i1(self, b: bool) -> str:
        return self._const("true" if b else "false", "i1")

    def zeros(self, shape: list[int], dtype: str) -> str:
        """A zero-filled tensor to write into (`tensor.empty` when it has no elements: a dense
        constant cannot spell one)."""
        if math.prod(shape):
            return self.em.const([0], shape, dtype).ssa
        v = self.em.fresh()
        self.em.lines.append(f"    {v} = tensor.empty() : {ttype(shape, dtype)}")
        return v

    # ---- ops
    def bin(self, op: str, a: str, b: str, t: str) -> str:
        return self.let(f"arith.{op} {a}, {b} : {t}")

    def cmpf(self, pred: str, a: str, b: str) -> str:
        return self.let(f"arith.cmpf {pred}, {a}, {b} : f32")

    def cmpi(self, pred: str, a: str, b: str, t: str = "index") -> str:
        return self.let(f"arith.cmpi {pred}, {a}, {b} : {t}")

    def select(self, c: str, a: str, b: str, t: str) -> str:
        return self.let(f"arith.select {c}, {a}, {b} : {t}")

    def and_(self, *xs: str) -> str:
        out = xs[0]
        for x in xs[1:]:
            out = self.bin("andi", out, x, "i1")
        return out

    def or_(self, *xs: str) -> str:
        out = xs[0]
        for x in xs[1:]:
            out = self.bin("ori", out, x, "i1")
        return out

    def not_(self, x: str) -> str:
        return self.bin("xori", x, self.i1(True), "i1")

    def math(self, op: str, x: str, t: str = "f32") -> str:
        return self.let(f"math.{op} {x} : {t}")

    def cast(self, op: str, x: str, src: str, dst: str) -> str:
        return self.let(f"arith.{op} {x} : {src} to {dst}")

    def min_index(self, a: str, b: str) -> str:
        return self.select(self.cmpi("slt", a, b), a, b, "index")

    def max_index(self, a: str, b: str) -> str:
        return self.select(self.cmpi("sgt", a, b), a, b, "index")

    def extract(self, t: Value | tuple, idx: list[str]) -> str:
        ssa, typ = (t.ssa, t.type) if isinstance(t, Value) else t
        return self.let(f"tensor.extract {ssa}[{', '.join(idx)}] : {typ}")

    def insert(self, v: str, into: str, typ: str, idx: list[str]) -> str:
        return self.let(f"tensor.insert {v} into {into}[{', '.join(idx)}] : {typ}")

    # ---- regions
    @contextmanager
    def loop(self, lb: str, ub: str, carried: list[tuple[str, str]]):
        """`scf.for iv = lb to ub` carrying (initial value, type) pairs; the body sets
        `loop.yields` to the values carried to the next step."""
        res, iv = self.em.fresh(), self.em.fresh()
        args = [self.em.fresh() for _ in carried]
        n = len(carried)
        types = ", ".join(t for _, t in carried)
        binds = ", ".join(f"{a} = {init}" for a, (init, _) in zip(args, carried))
        self.line(f"{res}{':' + str(n) if n > 1 else ''} = scf.for {iv} = {lb} to {ub} step {self.c1} "
                  f"iter_args({binds}) -> ({types}) {{")
        box = Loop(iv, args, [f"{res}#{k}" for k in range(n)] if n > 1 else [res])
        self.depth += 1
        yield box
        self.line(f"scf.yield {', '.join(box.yields)} : {types}")
        self.depth -= 1
        self.line("}")

    def if_(self, cond: str, types: list[str], then, otherwise) -> list[str]:
        """`scf.if` yielding values: `then()` and `otherwise()` write their lines and return
        the values they yield."""
        res = self.em.fresh()
        n = len(types)
        self.line(f"{res}{':' + str(n) if n > 1 else ''} = scf.if {cond} -> ({', '.join(types)}) {{")
        self.depth += 1
        ys = then()
        self.line(f"scf.yield {', '.join(ys)} : {', '.join(types)}")
        self.depth -= 1
        self.line("} else {")
        self.depth += 1
        ys = otherwise()
        self.line(f"scf.yield {', '.join(ys)} : {', '.join(types)}")
        self.depth -= 1
        self.line("}")
        return [f"{res}#{k}" for k in range(n)] if n > 1 else [res]

"""The WHILE_LOOP iteration bound in lowered code (`--max-loop-iterations`).

The interpreter counts the iterations of each WHILE_LOOP (and of the scf.while it lowers to)
itself. Native code gets the same bound from the `bound-while-loops` pass
(lowering/to_llvm/bound_while_loops.py): each scf.while counts its iterations and reads the
bound from a global, and the loop that reaches it stores its id into a second global and
exits (so does every later loop, which sees that flag set). Whoever runs the code sets the
bound before a call and reads the flag after it: NativeModule, the interpreter on a module
past that pass (runner.Session), a C caller of the shared library (docs/native.md).

A loop id names the loop's source position, so the diagnostic lands on the WHILE_LOOP's
line whatever passes ran in between: `line << 32 | column` of its location, or, for
unlocated IR, its 1-based position among the module's loops in walk order (< 2**32).
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation

BOUND_GLOBAL = "tosa_xdsl_max_loop_iterations"  # i64, read by every check of a loop condition
FLAG_GLOBAL = "tosa_xdsl_loop_limit_exceeded"  # i64: 0, or the id of the loop that hit the bound

_LINE = 1 << 32


def loop_id(op: Operation, ordinal: int) -> int:
    """The id of loop `op`, the `ordinal`-th (1-based) of its module in walk order."""
    loc = op.location  # the op's own (an enclosing op's would be shared by its loops)
    if isinstance(loc, FileLineColLoc):
        line, col = loc.line.data, loc.column.data
        if 1 <= line < _LINE >> 1 and 0 <= col < _LINE:
            return line * _LINE + col
    return ordinal


def loops_by_id(module: Operation, names: tuple[str, ...] = ("tosa.while_loop", "scf.while")) -> dict[int, Operation]:
    """{loop id: loop op} for the loops of `module` (TOSA's or their scf.while forms)."""
    loops = [o for o in module.walk() if o.name in names]
    return {loop_id(o, k): o for k, o in enumerate(loops, start=1)}


def loop_at(module: Operation, ident: int) -> Operation | None:
    """The loop of `module` with id `ident`; past convert-scf-to-cf (no loop op left), any op
    at the loop's source position; None if nothing matches."""
    found = loops_by_id(module).get(ident)
    if found is not None or ident < _LINE:
        return found
    line, col = divmod(ident, _LINE)
    for o in module.walk():
        loc = o.location
        if isinstance(loc, FileLineColLoc) and (loc.line.data, loc.column.data) == (line, col):
            return o
    return None

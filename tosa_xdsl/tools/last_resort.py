"""What the CLIs do with an exception that escaped their own handling: one line on stderr and an
exit code, never a traceback. One place for tosa-opt, tosa-run and tosa-translate, so the three
answer the same way (an "internal error" line is still a bug to fix; the fuzz suite fails on it)."""

from __future__ import annotations

import sys

# `except LAST_RESORT as err: return last_resort(PROG, err)`: not SystemExit (argparse's exit)
LAST_RESORT = (KeyboardInterrupt, Exception)


def last_resort(prog: str, err: BaseException) -> int:
    """The exit code for `err`, after writing its one line."""
    if isinstance(err, KeyboardInterrupt):
        return 130
    if isinstance(err, BrokenPipeError):  # the reader went away: nothing to say to it
        return 1
    if isinstance(err, RecursionError):
        sys.stderr.write(f"{prog}: error: input nested too deeply (Python recursion limit reached)\n")
    elif isinstance(err, MemoryError):
        sys.stderr.write(f"{prog}: error: out of memory\n")
    else:  # a bug of ours that escaped the driver
        text = (str(err).strip().splitlines() or [""])[0][:500]
        sys.stderr.write(f"{prog}: internal error: {type(err).__name__}: {text}\n")
    return 1

"""Command-line entry points: tosa-opt, tosa-run (installed as tosa_xdsl.tools)."""

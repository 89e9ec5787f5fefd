"""Dialects other than `tosa` that tosa-xdsl reads and writes (quant, ...)."""

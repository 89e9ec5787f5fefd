"""Input and output formats (MLIR bytecode, text location helpers, ...)."""

"""The `tosa` dialect: operators by spec chapter (`ops/`), the custom syntax engine
(`syntax.py`, `fast_parse.py`) and the assembled `Dialect` object (`dialect.py`)."""

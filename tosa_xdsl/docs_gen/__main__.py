"""`python -m tosa_xdsl.docs_gen [--check]`: see the package docstring."""

import sys

from tosa_xdsl.docs_gen import main

if __name__ == "__main__":
    sys.exit(main())

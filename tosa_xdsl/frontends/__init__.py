"""Frontends: readers of other model formats that produce TOSA (+ linalg) modules."""

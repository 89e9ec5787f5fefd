"""tosa-opt: placeholder until the driver lands."""


def main() -> None:
    raise SystemExit("tosa-opt: not built yet")

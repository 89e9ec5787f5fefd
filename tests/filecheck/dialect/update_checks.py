"""Regenerate the CHECK lines of the per-chapter round-trip tests from UPSTREAM printers.

    .venv/bin/python tests/filecheck/dialect/update_checks.py [chapter.mlir ...]

The expected text is never our own output:
- KW  (keyword form)        = what iree-opt (newest MLIR) prints for the snippet;
- AD  (attr-dict form)      = what MLIR 22 `mlir-opt` prints after reading our attr-dict
                              printing (so the spelling is upstream's; the translator must
                              print the same, which is asserted here);
- GEN (generic form)        = what `iree-opt --mlir-print-op-generic` prints.
Only SSA names are loosened where MLIR and xDSL legitimately number differently
(multi-result `%0:2` vs `%0, %1`, block arguments of sibling regions). Review the diff.
"""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
from pathlib import Path

from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.printing import print_ir

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
IREE_OPT = ROOT / ".venv/bin/iree-opt"
MLIR22 = Path("/usr/lib/llvm-22/bin/mlir-opt")
TRANSLATOR = Path(sysconfig.get_path("purelib")) / "bin" / "tosa-opt"
SPLIT = "// -----"
# Chapters whose SSA names are loosened entirely (regions, module-level symbols).
LOOSE_NAMES = {"control_flow.mlir", "variable.mlir"}

RUN_LINES = """\
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
"""


def strip_checks(text: str) -> tuple[list[str], list[str]]:
    """(header comment lines, snippet chunks) of a test file, without RUN/CHECK lines."""
    lines = text.splitlines()
    header = []
    body_start = 0
    for i, line in enumerate(lines):
        if line.startswith("// RUN:"):
            continue
        if line.startswith("//") and not line.startswith(SPLIT):
            header.append(line)
            continue
        body_start = i
        break
    body = [l for l in lines[body_start:] if not re.match(r"\s*// (KW|AD|GEN)(-[A-Z]+)?:", l)]
    chunks = "\n".join(body).split(SPLIT)
    return header, [c.strip("\n") for c in chunks]


def run(cmd: list[str], text: str) -> str:
    res = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{res.stderr}\n--- input ---\n{text}")
    return res.stdout


def body_lines(module_text: str) -> list[str]:
    lines = [l.strip() for l in module_text.splitlines() if l.strip()]
    # drop the enclosing `module {` / `}` (custom) or `"builtin.module"() ({` / `}) : () -> ()`
    return lines[1:-1]


def escape(line: str) -> str:
    return re.sub(r"(\[\[|\{\{)", lambda m: "{{" + re.escape(m.group(1)) + "}}", line)


def loosen_results(line: str) -> str:
    line = re.sub(r"^%[\w]+:\d+ =", "<<ANY>> =", line)
    line = re.sub(r"^%output_real, %output_imag =", "<<ANY>> =", line)
    line = re.sub(r"%\w+#\d+|%output_real|%output_imag", "<<NAME>>", line)
    return line


def loosen_all(line: str) -> str:
    line = re.sub(r"%\w+:\d+ =", "<<ANY>> =", line)
    return re.sub(r"%\w+(#\d+)?", "<<NAME>>", line)


def finish(line: str) -> str:
    line = escape(line)
    return line.replace("<<ANY>>", "{{.+}}").replace("<<NAME>>", "%{{[a-z0-9_#]+}}")


def checks(prefix: str, lines: list[str], loose: bool, generic: bool) -> list[str]:
    out = []
    first = True
    for line in lines:
        line = loosen_all(line) if loose else loosen_results(line)
        if line.startswith("return") or line.startswith("func.return"):
            # xDSL prints `func.return` where MLIR prints `return` when a type is not builtin
            rest = line.split(" ", 1)[1] if " " in line else ""
            out.append(f"// {prefix}-NEXT: {{{{(func[.])?}}}}return {finish(rest)}".rstrip())
            continue
        m = re.search(r'sym_name = "(\w+)"', line) if generic else re.match(r"func\.func @(\w+)", line)
        if generic and m and line.startswith('"func.func"'):
            out.append(f'// {prefix}-LABEL: sym_name = "{m.group(1)}"')
            first = False
            continue
        if not generic and m:
            out.append(f"// {prefix}-LABEL: func.func @{m.group(1)}(")
            first = False
            continue
        kind = "" if first else "-NEXT"
        first = False
        out.append(f"// {prefix}{kind}: {finish(line)}")
    return out


def ours_attr_dict(chunk: str) -> str:
    module = Parser(make_context(), chunk).parse_module()
    module.verify()
    return print_ir(module, style="attr-dict")


def regenerate(path: Path) -> None:
    header, chunks = strip_checks(path.read_text())
    loose = path.name in LOOSE_NAMES
    parts = []
    for chunk in chunks:
        kw = body_lines(run([str(IREE_OPT)], chunk))
        gen = body_lines(run([str(IREE_OPT), "--mlir-print-op-generic"], chunk))
        ad_text = ours_attr_dict(chunk)
        ad = body_lines(run([str(MLIR22)], ad_text))
        tr = body_lines(run([str(TRANSLATOR)], ad_text))
        if [re.sub(r"\s+", " ", l) for l in tr] != [re.sub(r"\s+", " ", l) for l in ad]:
            raise SystemExit(f"translator and MLIR 22 print differently:\n{tr}\n{ad}")
        block = [chunk, ""]
        block += checks("KW", kw, loose, generic=False)
        block += [""] + checks("AD", ad, loose, generic=False)
        block += [""] + checks("GEN", gen, loose, generic=True)
        parts.append("\n".join(block))
    text = "\n".join(header) + "\n" + RUN_LINES + "\n" + f"\n\n{SPLIT}\n\n".join(parts) + "\n"
    path.write_text(text)


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or sorted(HERE.glob("*.mlir"))
    for p in paths:
        if p.name == "invalid_syntax.mlir":
            continue
        regenerate(p)
        print("updated", p)

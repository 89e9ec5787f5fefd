"""`view-op-graph`: the module as a Graphviz DOT graph, as mlir-opt's pass of that name writes
it (to stderr; the IR is left unchanged). Options as upstream's: `max-label-len`,
`print-attrs`, `print-control-flow-edges`, `print-data-flow-edges`, `print-result-types`;
and one of ours, `fold-constants` (default true): `tosa.const` / `tosa.const_shape` /
`arith.constant` become a line in their users' labels instead of a node each, so a real
model (hundreds of weight constants) stays readable.

A node per operation (name, then `key: value` attributes, shortened to max-label-len), a
node per block argument, a cluster per region (a function, a COND_IF branch); data-flow
edges carry the value's type. `tosa-translate --to-svg` renders the same graph with
Graphviz's `dot`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass

CONSTANT_OPS = ("tosa.const", "tosa.const_shape", "arith.constant")


@dataclass(frozen=True)
class GraphOptions:
    max_label_len: int = 20
    print_attrs: bool = True
    print_control_flow_edges: bool = False
    print_data_flow_edges: bool = True
    print_result_types: bool = True
    fold_constants: bool = True


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if limit <= 0 or len(text) <= limit else text[: max(limit - 3, 1)] + "..."


def _attr_text(attr: Attribute) -> str:
    from tosa_xdsl.ir.access import attr_value

    value = attr_value(attr)
    return str(value) if not isinstance(value, Attribute) else str(attr)


class _DotWriter:
    def __init__(self, options: GraphOptions):
        self.options = options
        self.lines: list[str] = ["digraph G {", "  compound = true;"]
        self.ids: dict[object, str] = {}
        self.clusters = 0

    def node_id(self, key: object) -> str:
        if key not in self.ids:
            self.ids[key] = f"v{len(self.ids)}"
        return self.ids[key]

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("  " * indent + text)

    # labels ---------------------------------------------------------------------------

    def constant_line(self, op: Operation) -> str:
        t = op.results[0].type if op.results else None
        return f"{op.name}: {_short(str(t), self.options.max_label_len)}"

    def op_label(self, op: Operation) -> str:
        lines = [op.name]
        if self.options.print_attrs:
            for name, attr in sorted({**op.properties, **op.attributes}.items()):
                if name in ("sym_name", "function_type", "values") and op.name != "func.func":
                    continue
                lines.append(f"{name}: {_short(_attr_text(attr), self.options.max_label_len)}")
        if self.options.fold_constants:
            for i, operand in enumerate(op.operands):
                owner = operand.owner
                if isinstance(owner, Operation) and owner.name in CONSTANT_OPS:
                    lines.append(f"#{i} = {self.constant_line(owner)}")
        if self.options.print_result_types and op.results:
            lines.append(" -> " + ", ".join(_short(str(r.type), self.options.max_label_len)
                                            for r in op.results))
        return "\n".join(lines)

    # structure ------------------------------------------------------------------------

    def is_folded(self, op: Operation) -> bool:
        return self.options.fold_constants and op.name in CONSTANT_OPS

    def region(self, region: Region, indent: int, label: str) -> None:
        self.clusters += 1
        self.emit(indent, f"subgraph cluster_{self.clusters} {{")
        self.emit(indent + 1, f"label = {_quote(label)};")
        for block in region.blocks:
            self.block(block, indent + 1)
        self.emit(indent, "}")

    def block(self, block: Block, indent: int) -> None:
        for arg in block.args:
            label = f"arg{arg.index}"
            if self.options.print_result_types:
                label += f"\n{_short(str(arg.type), self.options.max_label_len)}"
            self.emit(indent, f"{self.node_id(arg)} [label = {_quote(label)}, shape = plaintext];")
        previous: Operation | None = None
        for op in block.ops:
            if self.is_folded(op):
                continue
            self.operation(op, indent)
            if self.options.print_control_flow_edges and previous is not None:
                self.emit(indent, f"{self.node_id(previous)} -> {self.node_id(op)} [style = dashed];")
            previous = op

    def operation(self, op: Operation, indent: int) -> None:
        if op.regions:
            name = op.properties.get("sym_name") or op.attributes.get("sym_name")
            title = op.name + (f" @{name.data}" if name is not None and hasattr(name, "data") else "")
            for index, region in enumerate(op.regions):
                self.region(region, indent, title + (f" (region {index})" if len(op.regions) > 1 else ""))
            if isinstance(op, ModuleOp) or op.name == "func.func":
                return
        self.emit(indent, f"{self.node_id(op)} [label = {_quote(self.op_label(op))}, shape = ellipse];")

    def edges(self, module: ModuleOp) -> None:
        if not self.options.print_data_flow_edges:
            return
        for op in module.walk():
            if op.name == "func.func" or isinstance(op, ModuleOp) or self.is_folded(op):
                continue
            if op not in self.ids:
                continue
            for operand in op.operands:
                source = self.source_node(operand)
                if source is None:
                    continue
                label = _short(str(operand.type), self.options.max_label_len)
                self.lines.append(f"  {source} -> {self.node_id(op)} [label = {_quote(label)}];")

    def source_node(self, value: SSAValue) -> str | None:
        if isinstance(value, BlockArgument):
            return self.ids.get(value)
        owner = value.owner
        if isinstance(owner, Operation) and self.is_folded(owner):
            return None  # shown in the user's label
        return self.ids.get(owner)


def op_graph_dot(module: ModuleOp, options: GraphOptions = GraphOptions()) -> str:
    """The Graphviz DOT text of `module`."""
    writer = _DotWriter(options)
    for op in module.ops:
        writer.operation(op, 1)
    writer.edges(module)
    writer.lines.append("}")
    return "\n".join(writer.lines) + "\n"


@dataclass(frozen=True)
class ViewOpGraphPass(ModulePass):
    """Print the module as a Graphviz DOT graph to stderr (mlir-opt's `view-op-graph`)."""

    name: ClassVar[str] = "view-op-graph"

    max_label_len: int = 20
    print_attrs: bool = True
    print_control_flow_edges: bool = False
    print_data_flow_edges: bool = True
    print_result_types: bool = True
    fold_constants: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = GraphOptions(self.max_label_len, self.print_attrs, self.print_control_flow_edges,
                               self.print_data_flow_edges, self.print_result_types, self.fold_constants)
        sys.stderr.write(op_graph_dot(op, options))


def render_svg(module: ModuleOp, options: GraphOptions = GraphOptions()) -> bytes:
    """The module's graph as SVG, rendered by Graphviz's `dot` (Debian: graphviz). Raises
    RuntimeError with a one-line message when `dot` is missing or fails."""
    import shutil
    import subprocess

    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError("Graphviz 'dot' is not installed (Debian: apt-get install graphviz); "
                           "-p view-op-graph writes the DOT text without it")
    proc = subprocess.run([dot, "-Tsvg"], input=op_graph_dot(module, options).encode(),
                          capture_output=True, timeout=600, check=False)
    if proc.returncode != 0:
        raise RuntimeError("dot failed: " + proc.stderr.decode(errors="replace").strip()[:300])
    return proc.stdout

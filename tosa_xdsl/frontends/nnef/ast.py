"""The SkriptND syntax tree (draft section 2.16). Every node keeps the location of its first
token. Expressions are small frozen-ish dataclasses; semantics lives in semantics.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from tosa_xdsl.frontends.nnef.errors import Loc

# ------------------------------------------------------------------ expressions

@dataclass(slots=True)
class Expr:
    loc: Loc


@dataclass(slots=True)
class Ident(Expr):
    name: str


@dataclass(slots=True)
class Member(Expr):
    """`x.shape`, `x.rank`, `x.size` (implicitly defined identifiers, 2.4)."""
    name: str
    member: str


@dataclass(slots=True)
class Literal(Expr):
    value: object   # int | float | bool | str
    type: str       # "int" | "real" | "bool" | "str"


@dataclass(slots=True)
class Format(Expr):
    """A string with `{expr}` substitutions (string formatting, 2.4)."""
    parts: list  # of str | Expr


@dataclass(slots=True)
class ListExpr(Expr):
    items: list[Expr]


@dataclass(slots=True)
class Expand(Expr):
    """`item..` or `item..(count)` inside a list / shape / index."""
    item: Expr
    count: Expr | None


@dataclass(slots=True)
class Range(Expr):
    """`first:last[:stride]` inside a list or an index; parts may be omitted in indices."""
    first: Expr | None
    last: Expr | None
    stride: Expr | None


@dataclass(slots=True)
class Zip(Expr):
    items: list[Expr]


@dataclass(slots=True)
class Index(Expr):
    """Pack (or string) indexing `a[i]`, `a[i:j:k]`, `a[mask]`."""
    base: Expr
    index: Expr


@dataclass(slots=True)
class Access(Expr):
    """Tensor access `x[i, j..]` / `x[i,]` / `x[]` (lowering formulas)."""
    base: Expr
    indices: list[Expr]


@dataclass(slots=True)
class Substitute(Expr):
    base: Expr
    index: Expr
    value: Expr


@dataclass(slots=True)
class Unary(Expr):
    op: str   # "+", "-", "!", "?"
    arg: Expr


@dataclass(slots=True)
class Binary(Expr):
    op: str   # arithmetic, comparison, logical, "is", "in", "<?", ">?"
    lhs: Expr
    rhs: Expr


@dataclass(slots=True)
class Select(Expr):
    cond: Expr
    then: Expr
    other: Expr | None


@dataclass(slots=True)
class Coalesce(Expr):
    value: Expr
    fallback: Expr


@dataclass(slots=True)
class Fold(Expr):
    op: str
    arg: Expr
    cumulative: bool


@dataclass(slots=True)
class Call(Expr):
    """`name(arg)`: a built-in function, a cast (`int(x)`, `T(x)`) or a default value `T()`."""
    name: str
    arg: Expr | None


@dataclass(slots=True)
class Bounded(Expr):
    """`|index|` or `|index <> lower : upper|` in a tensor index."""
    index: Expr
    lower: Expr | None
    upper: Expr | None


@dataclass(slots=True)
class Tilde(Expr):
    """`~`: an omitted input/extent."""


# ------------------------------------------------------------------ declarations

@dataclass(slots=True)
class Extent:
    loc: Loc
    expr: Expr | None      # None for "~"
    bound: Expr | None     # "| upper-bound" (dynamic shapes, 2.6.1)
    spread: bool           # ".." prepended: distinct per pack item
    static: bool = False


@dataclass(slots=True)
class TypeSpec:
    loc: Loc
    name: str                      # int, real, bool, str, type, arith, num, or a generic name
    optional: bool = False
    dynamic: bool = False          # Khronos' attribute modifier, accepted and recorded
    rank: Ident | None = None      # "^(r)"
    shape: list[Extent] | None = None
    packed: bool = False
    count: Expr | None = None      # pack length "..(count)"
    count_bound: Expr | None = None


@dataclass(slots=True)
class Param:
    loc: Loc
    name: str
    type: TypeSpec
    default: Expr | None = None
    bounds: list[tuple[str, Expr]] = field(default_factory=list)  # "i < n" for per-element defaults


@dataclass(slots=True)
class DType:
    loc: Loc
    name: str
    base: str
    default: str | None


@dataclass(slots=True)
class Using:
    loc: Loc
    target: Expr            # Ident or ListExpr of Ident / Expand / Zip
    value: Expr
    count: Expr | None      # "..(n)" hint


@dataclass(slots=True)
class Assert:
    loc: Loc
    cond: Expr
    message: Expr | None    # Literal(str) or Format
    prints: list[tuple[str | None, Expr]] = field(default_factory=list)


@dataclass(slots=True)
class Lowering:
    loc: Loc
    target: Access
    op: str
    value: Expr
    bounds: list[tuple[str, Expr]]
    condition: Expr | None = None
    locals: list[tuple[str, Expr]] = field(default_factory=list)
    unroll: tuple[str, Expr] | None = None


# ------------------------------------------------------------------ composition

@dataclass(slots=True)
class Result:
    loc: Loc
    name: str | None              # None for "~"
    type: TypeSpec | None = None
    packed: bool = False
    count: Expr | None = None


@dataclass(slots=True)
class ResultList:
    """`[a, b..(k)]` on the left-hand side."""
    loc: Loc
    items: list[Result]


@dataclass(slots=True)
class Invocation:
    loc: Loc
    label: str | None
    name: str                      # possibly qualified "nn.conv"
    types: list[str]
    attribs: list[tuple[str, Expr]]
    args: list[Expr | None]        # None for "~"


@dataclass(slots=True)
class Region:
    """`[label:] { components; yield exprs; }`, or an expression (an empty region yielding it)."""
    loc: Loc
    label: str | None
    components: list[Component]
    yields: list[Expr]


@dataclass(slots=True)
class Branch:
    loc: Loc
    conditions: list[object]      # Invocation | Region
    consequents: list[object]
    alternative: object


@dataclass(slots=True)
class Loop:
    loc: Loc
    carries: list[tuple[Result, Expr]]
    scans: list[tuple[str, Expr]]
    condition: object | None
    pretest: bool
    unroll: bool
    index: str | None
    count: Expr | None
    body: object


@dataclass(slots=True)
class Component:
    loc: Loc
    results: list  # of Result | ResultList
    value: object  # Invocation | Region | Branch | Loop


@dataclass(slots=True)
class Quantization:
    loc: Loc
    tensor: str
    invocation: Invocation


@dataclass(slots=True)
class Operator:
    loc: Loc
    name: str
    is_graph: bool
    public: bool
    dtypes: list[DType] = field(default_factory=list)
    attribs: list[Param] = field(default_factory=list)
    inputs: list[Param] = field(default_factory=list)
    outputs: list[Param] = field(default_factory=list)
    constants: list[Param] = field(default_factory=list)
    variables: list[Param] = field(default_factory=list)
    usings: list[Using] = field(default_factory=list)
    asserts: list[Assert] = field(default_factory=list)
    lowerings: list[Lowering] = field(default_factory=list)
    compose: list[Component] | None = None
    update: list[Component] | None = None
    quantize: list[Quantization] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)   # block names in source order


@dataclass(slots=True)
class Import:
    loc: Loc
    name: str   # dotted module path "nn" or "custom.ops"


@dataclass(slots=True)
class Document:
    file: str
    version: tuple[int, int] | None
    extensions: list[str]
    imports: list[Import]
    operators: list[Operator]

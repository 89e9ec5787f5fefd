"""Recursive-descent parser for the whole SkriptND grammar (draft section 2.16) into ast.py.

Where the draft's text and Khronos' v2.0 reader differ in spelling, both are read:
`import a; import b;` and `import a, b;` (and the draft's examples without `;`), attribute types
declared `dynamic`, `label: op{a: 1}` as well as `{a = 1}` for attributes.

Operator precedence (loosest first), as the reference reader groups them:
`?:`/`??` < `=>` < `&& || ^` < comparisons, `is`, `in` < `<? >?` < `+ -` < `* / \\ %` < `**`
< unary `+ - !` (`-x ** 2` is `-(x ** 2)`) < postfix `[..]`, `.shape/.rank/.size`.
Folds are a binary operator followed by `..` (`x + ..`) or `...` (cumulative).
"""

from __future__ import annotations

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import Loc, NnefError
from tosa_xdsl.frontends.nnef.lexer import (
    BLOCK,
    EOF,
    IDENT,
    INT,
    KEYWORD,
    REAL,
    STRING,
    SYMBOL,
    Token,
    tokenize,
)

TYPE_NAMES = ("type", "arith", "num", "int", "real", "bool", "str")
ABSTRACT_TYPES = ("type", "arith", "num")

PRECEDENCE = {
    "=>": 1,
    "&&": 2, "||": 2, "^": 2,
    "<": 3, "<=": 3, ">": 3, ">=": 3, "==": 3, "!=": 3, ":=": 3, "is": 3, "in": 3,
    "<?": 4, ">?": 4,
    "+": 5, "-": 5,
    "*": 6, "/": 6, "\\": 6, "%": 6,
    "**": 7,
}
FOLD_OPS = frozenset({"+", "*", "<?", ">?", "&&", "||", "<", "<=", ">", ">=", "==", "!=", ":="})
CUMULATIVE_OPS = frozenset({"+", "*", "<?", ">?", "&&", "||"})
LOWERING_OPS = ("=", "+=", "*=", "&=", "|=", ":=", "<?=", ">?=")
MAX_DEPTH = 80   # nesting of expressions/regions; deeper input is an error, never a RecursionError


class Parser:
    def __init__(self, text: str, file: str = "<input>"):
        self.file = file
        self.toks = tokenize(text, file)
        self.pos = 0
        self.depth = 0

    # ------------------------------------------------------------ token helpers
    @property
    def tok(self) -> Token:
        return self.toks[self.pos]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.pos + k, len(self.toks) - 1)]

    def at(self, text: str) -> bool:
        t = self.tok
        return t.kind in (SYMBOL, KEYWORD) and t.text == text

    def next(self) -> Token:
        t = self.tok
        if t.kind != EOF:
            self.pos += 1
        return t

    def accept(self, text: str) -> bool:
        if text == "..":
            return self.accept_dots()
        if self.at(text):
            self.pos += 1
            return True
        return False

    def accept_dots(self) -> bool:
        """Expansion / pack marker: '..', and '...' which the draft's own text writes in the same
        places (e.g. 'real[s...(r),t...]' in 2.6.2)."""
        if self.at("..") or self.at("..."):
            self.pos += 1
            return True
        return False

    def error(self, message: str, tok: Token | None = None) -> NnefError:
        return NnefError((tok or self.tok).loc, message)

    def expect(self, text: str, what: str = "") -> Token:
        if not self.at(text):
            ctx = f" {what}" if what else ""
            raise self.error(f"expected '{text}'{ctx}, found {self.tok.describe()}")
        return self.next()

    def ident(self, what: str = "identifier") -> Token:
        if self.tok.kind != IDENT:
            extra = " (a reserved keyword)" if self.tok.kind == KEYWORD else ""
            raise self.error(f"expected {what}, found {self.tok.describe()}{extra}")
        return self.next()

    def qualified(self, what: str = "identifier") -> str:
        name = self.ident(what).text
        while self.at(".") and self.peek().kind == IDENT:
            self.next()
            name += "." + self.next().text
        return name

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"nesting too deep (more than {MAX_DEPTH} levels)")

    def leave(self):
        self.depth -= 1

    # ------------------------------------------------------------ document
    def parse_document(self) -> A.Document:
        version = None
        extensions: list[str] = []
        imports: list[A.Import] = []
        if self.at("version"):
            self.next()
            t = self.next()
            if t.kind == REAL and t.text.count(".") == 1 and "e" not in t.text.lower():
                major, minor = t.text.split(".")
                version = (int(major), int(minor or 0))
            elif t.kind == INT:
                version = (int(t.text), 0)
            else:
                raise self.error(f"expected version number 'major.minor', found {t.describe()}", t)
            self.expect(";", "after version")
        while self.at("extension"):
            self.next()
            extensions.append(self.ident("extension name").text)
            while self.tok.kind == IDENT or self.at(","):
                if not self.accept(","):
                    extensions.append(self.next().text)
            self.expect(";", "after extension")
        while self.at("import"):
            self.next()
            while True:
                t = self.tok
                imports.append(A.Import(t.loc, self.qualified("module name")))
                if not self.accept(","):
                    break
            # the draft's own examples write "import nn" without ';'
            self.accept(";")
        operators = []
        while self.tok.kind != EOF:
            operators.append(self.parse_operator())
        return A.Document(self.file, version, extensions, imports, operators)

    def parse_operator(self) -> A.Operator:
        start = self.tok
        public = self.accept("public")
        if self.accept("graph"):
            if public:
                raise self.error("'public' applies to operators, not graphs", start)
            is_graph = True
        elif self.accept("operator"):
            is_graph = False
        else:
            hint = " ('import' must come before definitions)" if self.at("import") else ""
            raise self.error(f"expected 'operator' or 'graph', found {self.tok.describe()}{hint}")
        name = self.ident("operator name").text
        op = A.Operator(start.loc, name, is_graph, public)
        self.expect("{", "to open the operator body")
        while not self.at("}"):
            if self.tok.kind != BLOCK:
                raise self.error(f"expected a block such as '@input' or '}}', found {self.tok.describe()}")
            block = self.next()
            if block.text in op.blocks:
                raise self.error(f"duplicate block '{block.text}'", block)
            op.blocks.append(block.text)
            self.expect("{", f"after '{block.text}'")
            self.parse_block(op, block.text)
        self.expect("}")
        if not op.blocks:
            raise self.error(f"operator '{name}' has no blocks", start)
        # one name per declaration across the blocks (two inputs 'c' reached TOSA as two
        # arguments %c)
        seen = {}
        for p in op.dtypes + op.attribs + op.inputs + op.outputs + op.constants + op.variables:
            if p.name in seen:
                raise NnefError(p.loc, f"'{p.name}' is declared twice in '{name}' (first at {seen[p.name]})")
            seen[p.name] = p.loc
        return op

    def items(self, parse_one):
        out = []
        while not self.at("}"):
            if self.tok.kind == EOF:
                raise self.error("expected '}' to close the block, found end of input")
            out.append(parse_one())
            self.expect(";", "after the item")
        self.next()
        return out

    def parse_block(self, op: A.Operator, name: str):
        if name == "@dtype":
            op.dtypes = self.items(self.parse_dtype)
        elif name in ("@attrib", "@input", "@output", "@constant", "@variable"):
            params = self.items(lambda: self.parse_param(name))
            setattr(op, {"@attrib": "attribs", "@input": "inputs", "@output": "outputs",
                         "@constant": "constants", "@variable": "variables"}[name], params)
        elif name == "@using":
            op.usings = self.items(self.parse_using)
        elif name == "@assert":
            op.asserts = self.items(self.parse_assert)
        elif name == "@lower":
            op.lowerings = self.items(self.parse_lowering)
        elif name in ("@compose", "@update"):
            comps = self.items(self.parse_component)
            if name == "@compose":
                op.compose = comps
            else:
                op.update = comps
        else:
            op.quantize = self.items(self.parse_quantization)

    # ------------------------------------------------------------ declarations
    def parse_dtype(self) -> A.DType:
        t = self.ident("type parameter name")
        self.expect(":", "after the type parameter name")
        base = self.type_name(abstract_ok=True)
        default = None
        if self.accept("="):
            default = self.type_name(abstract_ok=False)
        return A.DType(t.loc, t.text, base, default)

    def type_name(self, abstract_ok: bool = True, generic_ok: bool = False) -> str:
        t = self.tok
        if t.kind == KEYWORD and t.text in TYPE_NAMES:
            if not abstract_ok and t.text in ABSTRACT_TYPES:
                raise self.error(f"expected a concrete type (int, real, bool, str), found '{t.text}'")
            self.next()
            return t.text
        if generic_ok and t.kind == IDENT:
            self.next()
            return t.text
        raise self.error(f"expected a type name ({', '.join(TYPE_NAMES)}), found {t.describe()}")

    def parse_param(self, block: str) -> A.Param:
        t = self.ident("parameter name")
        self.expect(":", f"after '{t.text}'")
        spec = self.type_spec(block)
        default, bounds = None, []
        if self.accept("="):
            if block in ("@output", "@variable"):
                raise self.error(f"{'outputs' if block == '@output' else 'variables'} cannot have a value "
                                 f"(variables are stored in data files)", self.toks[self.pos - 1])
            if spec.optional and block == "@attrib":
                raise self.error("optional attributes cannot have a default value (their default is null)",
                                 self.toks[self.pos - 1])
            default = self.expr()
            if block in ("@constant",):
                while self.accept(","):
                    idx = self.ident("index symbol")
                    self.expect("<", f"after index symbol '{idx.text}'")
                    bounds.append((idx.text, self.expr()))
        return A.Param(t.loc, t.text, spec, default, bounds)

    def type_spec(self, block: str) -> A.TypeSpec:
        loc = self.tok.loc
        dynamic = self.accept("dynamic")
        optional = self.accept("optional")
        dynamic = self.accept("dynamic") or dynamic
        name = self.type_name(abstract_ok=False, generic_ok=True)
        spec = A.TypeSpec(loc, name, optional=optional, dynamic=dynamic)
        if self.accept("^"):
            self.expect("(", "after '^' (rank capture)")
            r = self.ident("rank symbol")
            spec.rank = A.Ident(r.loc, r.text)
            self.expect(")", "after the rank symbol")
        if self.at("["):
            if block == "@attrib":
                raise self.error("attributes cannot have a shape (they are not tensors)")
            spec.shape = self.shape_spec()
        if self.accept(".."):
            spec.packed = True
            if self.accept("("):
                self.accept("static") or self.accept("dynamic")
                if not self.accept("~"):
                    spec.count = self.expr()
                if self.accept("|"):
                    spec.count_bound = self.expr()
                self.expect(")", "to close the pack length")
        return spec

    def shape_spec(self) -> list[A.Extent]:
        self.expect("[")
        extents: list[A.Extent] = []
        if self.accept("]"):
            return extents
        while True:
            loc = self.tok.loc
            static = self.accept("static")
            spread = self.accept("..")
            expr = None
            if not self.accept("~"):
                expr = self.expr()
            bound = self.expr() if self.accept("|") else None
            if self.accept(".."):
                count = None
                if self.at("(") or expr is None:
                    self.expect("(", "after '..' of an omitted extent")
                    count = self.expr()
                    self.expect(")", "to close the pack length")
                expr = A.Expand(loc, expr if expr is not None else A.Tilde(loc), count)
            extents.append(A.Extent(loc, expr, bound, spread, static))
            if self.accept(","):
                continue
            self.expect("]", "to close the shape")
            return extents

    def parse_using(self) -> A.Using:
        loc = self.tok.loc
        if self.at("["):
            target = self.list_expr(using=True)
        else:
            t = self.ident("a name for the intermediate")
            target = A.Ident(t.loc, t.text)
        count = None
        if isinstance(target, A.Ident) and self.accept(".."):
            self.expect("(", "after '..' (pack length hint)")
            count = self.expr()
            self.expect(")", "to close the pack length hint")
        self.expect("=", "in the @using definition")
        return A.Using(loc, target, self.expr(), count)

    def parse_assert(self) -> A.Assert:
        loc = self.tok.loc
        cond = self.expr()
        message, prints = None, []
        if self.accept(":"):
            if self.tok.kind != STRING:
                raise self.error(f"expected the assertion message string, found {self.tok.describe()}")
            message = self.string_expr()
            while self.accept(","):
                label = None
                if self.tok.kind == STRING and self.peek().kind == SYMBOL and self.peek().text == ":":
                    label = self.string_value()
                    self.expect(":")
                elif self.tok.kind == IDENT and self.peek().text == ":" and self.peek().kind == SYMBOL:
                    label = self.next().text
                    self.next()
                prints.append((label, self.expr()))
        return A.Assert(loc, cond, message, prints)

    def parse_lowering(self) -> A.Lowering:
        loc = self.tok.loc
        unroll = None
        if self.accept("unroll"):
            if not self.accept(".."):
                raise self.error(f"expected '..' after 'unroll', found {self.tok.describe()}")
            self.expect("(", "after 'unroll..'")
            idx = self.ident("unrolled index").text
            self.expect("->", "after the unrolled index")
            unroll = (idx, self.expr())
            self.expect(")", "to close 'unroll..('")
        locals_ = []
        if self.accept("with"):
            while True:
                t = self.ident("loop-local name")
                self.expect("=", f"after loop-local '{t.text}'")
                locals_.append((t.text, self.expr()))
                if not self.accept(","):
                    break
            self.expect(":", "after the loop-local values")
        t = self.ident("output tensor name")
        target: A.Expr = A.Ident(t.loc, t.text)
        if not self.at("["):
            raise self.error(f"expected a tensor access '{t.text}[...]' on the left-hand side")
        target = self.index_suffix(target)
        if self.at("["):
            target = self.index_suffix(target)
        if not isinstance(target, A.Access):
            raise self.error("the left-hand side of a formula must be a tensor access such as "
                             "'y[i,]' or 'y[i..]' (a 1-d access needs a trailing ',')", t)
        op = self.tok
        if not (op.kind == SYMBOL and op.text in LOWERING_OPS):
            raise self.error(f"expected an assignment ({' '.join(LOWERING_OPS)}), found {op.describe()}")
        self.next()
        value = self.expr()
        bounds = []
        while self.accept(","):
            idx = self.ident("index symbol")
            self.expect("<", f"after index symbol '{idx.text}'")
            bounds.append((idx.text, self.expr()))
        cond = self.expr() if self.accept("|") else None
        return A.Lowering(loc, target, op.text, value, bounds, cond, locals_, unroll)

    def parse_quantization(self) -> A.Quantization:
        loc = self.tok.loc
        tensor = self.qualified("tensor name")
        self.expect(":", "after the tensor name")
        iloc = self.tok.loc
        name = self.qualified("quantization operator name")
        types = self.generic_types()
        attribs = self.attribs()
        return A.Quantization(loc, tensor, A.Invocation(iloc, None, name, types, attribs, []))

    # ------------------------------------------------------------ composition
    def parse_component(self) -> A.Component:
        loc = self.tok.loc
        results = [self.result()]
        while self.accept(","):
            results.append(self.result())
        self.expect("=", "after the results")
        if self.at("if"):
            value = self.branch()
        elif self.at("with") or self.at("for") or self.at("while") or self.at("do") or self.at("unroll"):
            value = self.loop()
        else:
            value = self.callable()
        return A.Component(loc, results, value)

    def result(self):
        if self.at("["):
            loc = self.next().loc
            items = []
            if not self.at("]"):
                items.append(self.result_item(False))
                while self.accept(","):
                    items.append(self.result_item(False))
            self.expect("]", "to close the result list")
            return A.ResultList(loc, items)
        return self.result_item(True)

    def result_item(self, top: bool) -> A.Result:
        t = self.tok
        if self.accept("~"):
            return A.Result(t.loc, None)
        name = self.ident("result name").text
        res = A.Result(t.loc, name)
        if self.accept(":"):
            tloc = self.tok.loc
            tname = self.type_name(abstract_ok=False, generic_ok=True)
            res.type = A.TypeSpec(tloc, tname, shape=self.shape_spec() if self.at("[") else None)
        if self.accept(".."):
            res.packed = True
            if self.accept("("):
                self.accept("static")
                res.count = self.expr()
                self.expect(")", "to close the pack length")
        return res

    def branch(self) -> A.Branch:
        loc = self.expect("if").loc
        conds, cons = [self.callable()], []
        self.expect("then", "after the condition")
        cons.append(self.callable())
        while self.accept("elif"):
            conds.append(self.callable())
            self.expect("then", "after the condition")
            cons.append(self.callable())
        self.expect("else", "(every 'if' needs an 'else' branch)")
        return A.Branch(loc, conds, cons, self.callable())

    def loop(self) -> A.Loop:
        loc = self.tok.loc
        carries, scans = [], []
        if self.accept("with"):
            while True:
                t = self.ident("loop variable")
                res = A.Result(t.loc, t.text)
                if self.accept(":"):
                    tloc = self.tok.loc
                    tname = self.type_name(abstract_ok=False, generic_ok=True)
                    res.type = A.TypeSpec(tloc, tname, shape=self.shape_spec() if self.at("[") else None)
                self.expect("=", f"to initialize loop variable '{t.text}'")
                carries.append((res, self.expr()))
                if not self.accept(","):
                    break
        if self.accept("for"):
            while True:
                t = self.ident("scan item name")
                self.expect(":", f"after scan item '{t.text}'")
                scans.append((t.text, self.expr()))
                if not self.accept(","):
                    break
        cond, pretest = None, False
        if self.accept("while"):
            cond, pretest = self.callable(), True
        if self.accept("unroll"):
            unroll = True
        else:
            self.expect("do", "(a loop body starts with 'do' or 'unroll')")
            unroll = False
        index = count = None
        if self.accept(".."):
            self.expect("(", "after '..' (iteration count)")
            if self.tok.kind == IDENT and self.peek().text == "->":
                index = self.next().text
                self.next()
                if not self.at(")"):
                    count = self.expr()
            else:
                count = self.expr()
            self.expect(")", "to close the iteration count")
        body = self.callable()
        if cond is None and self.accept("while"):
            cond = self.callable()
        if unroll and cond is not None:
            raise NnefError(loc, "condition-based loops cannot be unrolled")
        if cond is None and not scans and count is None:
            raise NnefError(loc, "a loop needs a 'for' clause, an iteration count or a 'while' condition")
        return A.Loop(loc, carries, scans, cond, pretest, unroll, index, count, body)

    def callable(self):
        loc = self.tok.loc
        if self.at("{"):
            return self.region(None)
        if self.tok.kind != IDENT:
            return A.Region(loc, None, [], [self.expr()])
        # label ':' (region | invocation)
        if self.peek().text == ":" and self.peek().kind == SYMBOL:
            label = self.next().text
            self.next()
            if self.at("{"):
                return self.region(label)
            name = self.qualified("operator name")
            return self.invocation(loc, label, name)
        save = self.pos
        name = self.qualified()
        if self.at("<") or self.at("{") or self.at("("):
            # 'x < y' as an expression vs a generic invocation 'op<real>(...)'
            if self.at("<") and "." not in name and not (self.peek().kind in (KEYWORD, IDENT)
                                                         and self.peek(2).text in (">", ",")):
                self.pos = save
                return A.Region(loc, None, [], [self.expr()])
            return self.invocation(loc, None, name)
        self.pos = save
        return A.Region(loc, None, [], [self.expr()])

    def invocation(self, loc: Loc, label: str | None, name: str) -> A.Invocation:
        types = self.generic_types()
        attribs = self.attribs()
        self.expect("(", f"for the arguments of '{name}'")
        args: list = []
        if not self.at(")"):
            while True:
                args.append(None if self.accept("~") else self.expr())
                if not self.accept(","):
                    break
        self.expect(")", f"to close the arguments of '{name}'")
        return A.Invocation(loc, label, name, types, attribs, args)

    def generic_types(self) -> list[str]:
        types = []
        if self.accept("<"):
            while True:
                types.append(self.type_name(abstract_ok=False, generic_ok=True))
                if not self.accept(","):
                    break
            self.expect(">", "to close the generic types")
        return types

    def attribs(self) -> list[tuple[str, A.Expr]]:
        out = []
        if self.accept("{"):
            seen = set()
            while not self.at("}"):
                t = self.ident("attribute name")
                if t.text in seen:
                    raise self.error(f"attribute '{t.text}' assigned twice", t)
                seen.add(t.text)
                if not (self.accept("=") or self.accept(":")):
                    raise self.error(f"expected '=' after attribute name '{t.text}', found {self.tok.describe()}")
                out.append((t.text, self.expr()))
                if not self.accept(","):
                    break
            self.expect("}", "to close the attributes")
        return out

    def region(self, label: str | None) -> A.Region:
        loc = self.expect("{").loc
        self.enter()
        comps = []
        while not self.at("yield"):
            if self.at("}") or self.tok.kind == EOF:
                raise self.error("a block must end with 'yield' and its results")
            comps.append(self.parse_component())
            self.expect(";", "after the component")
        self.next()
        yields = [self.expr()]
        while self.accept(","):
            yields.append(self.expr())
        self.expect(";", "after 'yield'")
        self.expect("}", "('yield' must be the last statement of a block)")
        self.leave()
        return A.Region(loc, label, comps, yields)

    # ------------------------------------------------------------ expressions
    def expr(self) -> A.Expr:
        self.enter()
        try:
            if self.at("|"):
                return self.bounded()
            return self.expr_tail(self.binary(None, 1))
        finally:
            self.leave()

    def expr_tail(self, e: A.Expr) -> A.Expr:
        if self.at("?"):
            loc = self.next().loc
            then = self.expr()
            other = self.expr() if self.accept(":") else None
            e = A.Select(loc, e, then, other)
        if self.at("??"):
            loc = self.next().loc
            e = A.Coalesce(loc, e, self.expr())
        return e

    def bounded(self) -> A.Bounded:
        loc = self.expect("|").loc
        index = self.expr()
        lower = upper = None
        if self.at(":") and isinstance(index, A.Binary) and index.op == "<":
            # section 2.12 of the draft spells the remapping '|i0 < i1 : i2|'
            index, lower = index.lhs, index.rhs
            self.next()
            upper = self.expr()
        elif self.accept("<>"):
            lower = self.expr()
            self.expect(":", "between the lower and upper replacement indices")
            upper = self.expr()
        self.expect("|", "to close the bounded index")
        return A.Bounded(loc, index, lower, upper)

    def binary_op(self) -> str | None:
        t = self.tok
        if t.kind == SYMBOL and t.text in PRECEDENCE:
            return t.text
        if t.kind == KEYWORD and t.text in ("is", "in"):
            return t.text
        return None

    def binary(self, prim: A.Expr | None, prec: int) -> A.Expr:
        lhs = prim if prim is not None else self.unary()
        while True:
            op = self.binary_op()
            if op is None or PRECEDENCE[op] < prec:
                return lhs
            optok = self.next()
            if op not in ("is", "in") and (self.at("..") or self.at("...")):
                cumulative = self.next().text == "..."
                if cumulative and op not in CUMULATIVE_OPS and op in FOLD_OPS:
                    cumulative = False   # the draft's text writes 'x != ...' for the fold 'x != ..'
                allowed = CUMULATIVE_OPS if cumulative else FOLD_OPS
                if op not in allowed:
                    raise self.error(f"'{op}' cannot be used as a {'cumulative ' if cumulative else ''}fold", optok)
                lhs = A.Fold(optok.loc, op, lhs, cumulative)
                if not self.at(op):       # "x + .. + 42": a fold with an initial value
                    continue
                optok = self.next()
            elif op == ":=":
                raise self.error("':=' is a fold ('x := ..') or a formula assignment, not a binary operator", optok)
            self.enter()
            try:
                rhs = self.binary(None, PRECEDENCE[op] + 1)
            finally:
                self.leave()
            lhs = A.Binary(optok.loc, op, lhs, rhs)

    def unary(self) -> A.Expr:
        t = self.tok
        if t.kind == SYMBOL and t.text in ("+", "-", "!"):
            self.next()
            self.enter()
            try:
                arg = self.postfix(self.primary())
                while self.at("**"):
                    ploc = self.next().loc
                    arg = A.Binary(ploc, "**", arg, self.postfix(self.primary()))
            finally:
                self.leave()
            if t.text == "-" and isinstance(arg, A.Literal) and arg.type in ("int", "real"):
                return A.Literal(t.loc, -arg.value, arg.type)
            return A.Unary(t.loc, t.text, arg)
        if t.kind == SYMBOL and t.text == "?":
            self.next()
            n = self.ident("identifier after '?' (null test)")
            arg: A.Expr = A.Ident(n.loc, n.text)
            if self.at(".") and self.peek().text in ("shape", "rank", "size"):
                self.next()
                arg = A.Member(n.loc, n.text, self.next().text)
            return A.Unary(t.loc, "?", self.postfix(arg))
        return self.postfix(self.primary())

    def postfix(self, e: A.Expr) -> A.Expr:
        while self.at("["):
            e = self.index_suffix(e)
        return e

    def primary(self) -> A.Expr:
        t = self.tok
        if t.kind == INT:
            self.next()
            return A.Literal(t.loc, int(t.text), "int")
        if t.kind == REAL:
            self.next()
            return A.Literal(t.loc, float(t.text), "real")
        if t.kind == STRING:
            return self.string_expr()
        if t.kind == KEYWORD:
            if t.text in ("true", "false"):
                self.next()
                return A.Literal(t.loc, t.text == "true", "bool")
            if t.text == "inf":
                self.next()
                return A.Literal(t.loc, float("inf"), "real")
            if t.text == "pi":
                self.next()
                return A.Literal(t.loc, 3.141592653589793, "real")
            if t.text in TYPE_NAMES:
                self.next()
                return self.call_args(t)
            if t.text in ("is", "in"):
                # the draft's own conv example names an input extent 'is' ("input size")
                self.next()
                return A.Ident(t.loc, t.text)
            raise self.error(f"unexpected keyword '{t.text}' in an expression")
        if t.kind == IDENT:
            self.next()
            if self.at("("):
                return self.call_args(t)
            if self.at(".") and self.peek().kind == IDENT:
                self.next()
                m = self.next()
                if m.text not in ("shape", "rank", "size"):
                    raise self.error(f"expected 'shape', 'rank' or 'size' after '{t.text}.', found '{m.text}' "
                                     "(scoped names are not allowed in expressions)", m)
                return A.Member(t.loc, t.text, m.text)
            return A.Ident(t.loc, t.text)
        if t.kind == SYMBOL:
            if t.text == "[":
                return self.list_expr()
            if t.text == "(":
                self.next()
                e = self.expr()
                self.expect(")", "to close the parenthesis")
                return e
            if t.text == "~":
                self.next()
                return A.Tilde(t.loc)
        raise self.error(f"expected an expression, found {t.describe()}")

    def call_args(self, t: Token) -> A.Call:
        self.expect("(", f"after '{t.text}'")
        arg = None if self.at(")") else self.expr()
        self.expect(")", f"to close '{t.text}('")
        return A.Call(t.loc, t.text, arg)

    def string_value(self) -> str:
        parts = []
        while self.tok.kind == STRING:
            parts.append(self.next().text)
        return "".join(parts)

    def string_expr(self) -> A.Expr:
        """Adjacent strings joined; `{expr}` substitutions parsed with located errors."""
        t = self.tok
        s = self.string_value()
        parts: list = []
        buf = []
        i = 0
        while i < len(s):
            c = s[i]
            if c == "\\" and i + 1 < len(s) and s[i + 1] in "{}":
                buf.append(s[i + 1])
                i += 2
                continue
            if c == "{":
                j = s.find("}", i + 1)
                if j < 0:
                    raise NnefError(t.loc, "expected '}' to end the substitution in the formatted string")
                sub = Parser(s[i + 1:j], t.loc.file)
                # locate tokens of the substitution at the string's position
                sub.toks = [Token(x.kind, x.text, Loc(t.loc.file, t.loc.line, t.loc.col + i + x.loc.col))
                            for x in sub.toks]
                sub.depth = self.depth
                e = sub.expr()
                if sub.tok.kind != EOF:
                    raise sub.error(f"unexpected {sub.tok.describe()} in string substitution")
                if buf:
                    parts.append("".join(buf))
                    buf = []
                parts.append(e)
                i = j + 1
                continue
            buf.append(c)
            i += 1
        if buf or not parts:
            parts.append("".join(buf))
        if len(parts) == 1 and isinstance(parts[0], str):
            return A.Literal(t.loc, parts[0], "str")
        return A.Format(t.loc, parts)

    def list_expr(self, using: bool = False) -> A.ListExpr:
        loc = self.expect("[").loc
        self.enter()
        items = []
        if not self.at("]"):
            while True:
                items.append(self.list_item(index=False, using=using))
                if not self.accept(","):
                    break
        self.expect("]", "to close the list")
        self.leave()
        return A.ListExpr(loc, items)

    def list_item(self, index: bool, using: bool = False) -> A.Expr:
        loc = self.tok.loc
        if index and self.at(":"):
            return self.range_rest(loc, None)
        if self.at("("):
            # a zip "(a, b)..", or a parenthesized expression that continues
            self.next()
            self.enter()
            first = self.expr()
            if self.at(","):
                zitems = [first]
                while self.accept(","):
                    zitems.append(self.expr())
                self.expect(")", "to close the zip")
                self.leave()
                item: A.Expr = A.Zip(loc, zitems)
                if not (self.at("..") or self.at("...")):
                    raise self.error("a zip '(a, b)' must be expanded with '..'")
            else:
                self.expect(")", "to close the parenthesis")
                self.leave()
                item = self.expr_tail(self.binary(self.postfix(first), 1)) if not using else first
        elif using:
            t = self.ident("a name to bind")
            item = A.Ident(t.loc, t.text)
        else:
            item = self.expr()
        if self.accept(".."):
            count = None
            if self.accept("("):
                count = self.expr()
                self.expect(")", "to close the repeat count")
            return A.Expand(loc, item, count)
        if not using and self.at(":"):
            return self.range_rest(loc, item)
        return item

    def range_rest(self, loc: Loc, first: A.Expr | None) -> A.Range:
        self.expect(":")
        last = stride = None
        if not (self.at(":") or self.at("]") or self.at(",")):
            last = self.expr()
        if self.accept(":") and not (self.at("]") or self.at(",")):
            stride = self.expr()
        return A.Range(loc, first, last, stride)

    def index_suffix(self, base: A.Expr) -> A.Expr:
        loc = self.expect("[").loc
        self.enter()
        try:
            if self.accept("]"):
                return A.Access(loc, base, [])
            first = self.list_item(index=True)
            if isinstance(first, A.Expand) or self.at(","):
                indices = [first]
                while self.accept(","):
                    if self.at("]"):
                        break
                    indices.append(self.list_item(index=True))
                self.expect("]", "to close the tensor access")
                return A.Access(loc, base, indices)
            self.expect("]", "to close the index")
            if isinstance(first, A.Bounded):
                raise NnefError(first.loc, "a bounded index '|...|' is only allowed in a tensor access "
                                "(write 'x[|i|,]' for a 1-d tensor)")
            if self.at("<-"):
                self.next()
                return A.Substitute(loc, base, first, self.expr())
            return A.Index(loc, base, first)
        finally:
            self.leave()


def parse(text: str, file: str = "<input>") -> A.Document:
    """Parse a SkriptND document; raises NnefError (`file:line:col: error: ...`)."""
    return Parser(text, file).parse_document()

"""Tests for tosa_xdsl.spec_tables: the extraction, the committed JSON and the loader.

Spot checks were verified by reading the spec (../shared/spec/tosa-1.0.1-spec.md);
the section is cited next to each.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tosa_xdsl import docs_gen
from tosa_xdsl import spec_tables as st
from tosa_xdsl.dialects.tosa.ops import SPEC_OPS
from tosa_xdsl.spec_tables import extract as ex
from tosa_xdsl.spec_tables._document import SpecDocument
from tosa_xdsl.spec_tables.consistency import appendix_b_mismatches

needs_spec = pytest.mark.skipif(not ex.DEFAULT_SPEC.exists(), reason="spec document not available")


@pytest.fixture(scope="module")
def fresh():
    return ex.extract(ex.DEFAULT_SPEC.read_text(encoding="utf-8"), ex.DEFAULT_SPEC.name)


# -- the committed data is exactly what the script extracts -----------------------------


@needs_spec
def test_committed_json_equals_fresh_extraction(fresh):
    for name, data in fresh.items():
        committed = (ex.OUT_DIR / name).read_text(encoding="utf-8")
        assert committed == ex.dumps(data), f"{name} is stale: rerun the extractor"


@needs_spec
def test_extraction_is_deterministic(fresh):
    again = ex.extract(ex.DEFAULT_SPEC.read_text(encoding="utf-8"), ex.DEFAULT_SPEC.name)
    assert {k: ex.dumps(v) for k, v in again.items()} == {k: ex.dumps(v) for k, v in fresh.items()}


def test_generated_docs_are_up_to_date():
    assert docs_gen.main(["--check"]) == 0, "rerun python -m tosa_xdsl.docs_gen"


# -- operators --------------------------------------------------------------------------


def test_operators_in_spec_order():
    ops = st.ops()
    # The extracted operators are exactly the dialect's (hand-written op classes, in the
    # spec's chapter order), once each.
    assert [o.mlir_name for o in ops] == [c.name for c in SPEC_OPS]
    assert ops[0].name == "ARGMAX" and ops[-1].name == "CONST_SHAPE"
    assert len({o.name for o in ops}) == len(ops)
    assert {o.chapter_section for o in ops} == {f"2.{i}" for i in range(3, 19)}
    sections = [tuple(map(int, o.section.split("."))) for o in ops]
    assert sections == sorted(sections)


def test_mlir_names():
    for mlir in ("tosa.cond_if", "tosa.while_loop", "tosa.variable_read",
                 "tosa.variable_write", "tosa.const_shape", "tosa.avg_pool2d"):
        assert st.op_spec(mlir).mlir_name == mlir
    assert st.op_spec("CONV2D") is st.op_spec("tosa.conv2d") is st.op_spec("conv2d")
    with pytest.raises(KeyError):
        st.op_spec("FULLY_CONNECTED")  # removed before 1.0


def test_conv2d():
    # 2.3.3: 8 rows in the first part of the split table + the EXT-INT4 row after it.
    conv = st.op_spec("CONV2D")
    assert conv.section == "2.3.3" and conv.chapter == "Tensor Operators"
    assert conv.type_columns == ("in_t", "weight_t", "out_t", "acc_t")
    assert len(conv.type_rows) == 9
    (int4,) = [r for r in conv.type_rows if "EXT-INT4" in r.names]
    assert int4.requirements == (frozenset({"EXT-INT4"}),)
    assert dict(int4.types) == {"in_t": "i8", "weight_t": "i4", "out_t": "i32", "acc_t": "i32"}
    assert int4.mode == "signed 8x4 with int32 accumulate"
    # "input_z p" in the PDF; the argument table was split across a page too.
    names = [a.name for a in conv.arguments]
    assert names == ["input", "weight", "bias", "input_zp", "weight_zp", "pad", "stride",
                     "dilation", "acc_type", "local_bound", "output"]
    assert conv.argument("input").shape == "[N,IH,IW,IC]"  # "[N,IH,I W,IC]" in the PDF
    assert conv.argument("input_zp").type_variable == "in_t"
    assert conv.argument("weight").type_variable == "weight_t"
    assert [c.argument for c in conv.ctc] == ["input_zp", "weight_zp"]


def test_add():
    # 2.5.1: fp16/fp32 (PRO-FP), i32 in "PRO-INT or PRO-FP", bf16 (EXT-BF16).
    rows = {r.types["in_out_t"]: r for r in st.op_spec("ADD").type_rows}
    assert set(rows) == {"f16", "f32", "i32", "bf16"}
    assert rows["i32"].requirements == (frozenset({"PRO-INT"}), frozenset({"PRO-FP"}))
    assert rows["i32"].is_available({"PRO-INT"}) and rows["i32"].is_available({"PRO-FP"})
    assert rows["f16"].is_available({"PRO-FP"}) and not rows["f16"].is_available({"PRO-INT"})
    assert not rows["bf16"].is_available({"PRO-FP"})
    assert rows["bf16"].is_available({"PRO-FP", "EXT-BF16"}) is True


def test_rescale():
    # 2.13.2: 12 rows, all signless; unsigned data is selected by the input_unsigned /
    # output_unsigned attributes, the 1.0.1 table has no ui8/ui16 rows.
    r = st.op_spec("tosa.rescale")
    assert len(r.type_rows) == 12
    assert {t for row in r.type_rows for t in row.types.values()} == {"i8", "i16", "i32", "i48"}
    assert {row.mode for row in r.type_rows if "EXT-INT16" in row.names} == {
        "48-bit to 8-bit", "48-bit to 16-bit", "48-bit to 32-bit"}
    names = [a.name for a in r.arguments]
    # "rounding_mod_e" and "per_channnel" in the PDF text; the pseudocode's spelling wins.
    assert "rounding_mode" in names and "per_channel" in names
    assert len(r.notes) == 2
    assert {"input_unsigned", "output_unsigned"} <= set(names)
    assert [c.argument for c in r.ctc] == ["multiplier", "shift", "input_zp", "output_zp"]
    assert all(c.enabled_profiles == {"PRO-INT"} for c in r.ctc)
    assert len(r.error_ifs) == 14


def test_matmul_ctc():
    # 2.3.7: A_zp and B_zp are CTC in PRO-INT and PRO-FP unless EXT-DYNAMIC.
    m = st.op_spec("MATMUL")
    assert [(c.argument, c.enabled_profiles, c.disabled_extensions) for c in m.ctc] == [
        ("A_zp", {"PRO-INT", "PRO-FP"}, {"EXT-DYNAMIC"}),
        ("B_zp", {"PRO-INT", "PRO-FP"}, {"EXT-DYNAMIC"}),
    ]
    a_zp = m.ctc_row("A_zp")
    assert a_zp.is_constant({"PRO-INT"}) and a_zp.is_constant({"PRO-FP", "EXT-BF16"})
    assert not a_zp.is_constant({"PRO-INT", "EXT-DYNAMIC"})
    assert m.ctc_row("A") is None
    assert len(m.type_rows) == 8 and len(m.error_ifs) == 1 and not m.level_checks


def test_const_ctc_has_no_disabling_extension():
    c = st.op_spec("CONST").ctc_row("output")
    assert c.disabled_extensions == frozenset() and c.is_constant({"PRO-INT", "EXT-DYNAMIC"})


def test_cast_multi_extension_rows():
    # 2.13.1: "EXT-BF16 and EXT-FP8E4M3" - both are needed.
    cast = st.op_spec("CAST")
    assert len(cast.type_rows) == 46
    (row,) = cast.rows_matching({"in_t": "bf16", "out_t": "f8E4M3FN"})
    assert row.requirements == (frozenset({"EXT-BF16", "EXT-FP8E4M3"}),)
    assert not row.is_available({"PRO-FP", "EXT-BF16"})
    assert row.is_available({"PRO-FP", "EXT-BF16", "EXT-FP8E4M3"})


def test_variable_rows_need_extension_and_profile():
    (row,) = st.op_spec("VARIABLE").rows_matching({"in_t": "i8"})
    assert row.requirements == (frozenset({"EXT-VARIABLE", "PRO-INT"}),)


def test_table_size_is_a_value_column():
    rows = st.op_spec("TABLE").type_rows
    assert [dict(r.values) for r in rows] == [{"TABLE_SIZE": "256"}, {"TABLE_SIZE": "513"}]
    assert dict(rows[1].types) == {"in_t": "i16", "table_t": "i16", "out_t": "i32"}


def test_every_type_maps_to_an_mlir_element_type():
    known = set(st.SPEC_TO_MLIR_ELEMENT_TYPE.values())
    for op in st.ops():
        for row in op.type_rows:
            assert set(row.types) | set(row.values) == set(op.type_columns), op.name
            assert set(row.types.values()) <= known, op.name
            assert row.requirements and all(row.requirements), op.name
    with pytest.raises(KeyError):
        st.mlir_element_type("int8_t")  # a number format, not an element type


def test_every_operator_has_type_rows():
    for op in st.ops():
        assert op.type_rows, op.name
    # These four have a single row with no type variable ("All" / "shape").
    untyped = {op.name for op in st.ops() if not op.type_columns}
    assert untyped == {"CUSTOM", "COND_IF", "WHILE_LOOP", "CONST_SHAPE"}


def test_arguments_are_clean():
    for op in st.ops():
        for a in op.arguments:
            assert " " not in a.name + a.type + a.shape, (op.name, a)
            assert a.kind in ("Input", "Attribute", "Output")
        assert op.arguments_of_kind("Output") or op.name in {"VARIABLE", "VARIABLE_WRITE"}
    assert st.op_spec("CONCAT").argument("input1").is_list
    assert st.op_spec("CONCAT").argument("input1").type_variable == "in_out_t"
    assert st.op_spec("FFT2D").argument("local_bound").type == "bool_t"  # "local_b ound"


# -- pseudocode inventory ---------------------------------------------------------------


def test_condition_counts():
    ops = st.ops()
    assert sum(len(o.error_ifs) for o in ops) == 153
    assert sum(len(o.level_checks) for o in ops) == 118
    assert sum(len(o.requires) for o in ops) == 27  # 26 in the 1.0.1 text + ARGMAX (1.0.2)


def test_conditions_are_joined_and_commented():
    conv = st.op_spec("CONV2D")
    assert conv.error_ifs[0].text == "!is_same<in_t,i8_t>() && input_zp != 0"
    assert conv.error_ifs[0].comment == "Zero point only for int8_t"
    # Wrapped over two lines in the spec.
    assert conv.error_ifs[5].text == (
        "OH != idiv_check(IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y, stride_y) + 1")
    assert conv.level_checks[0].text == "dilation_y * KH <= MAX_KERNEL"
    # Split across two fenced blocks by a page break, in a loop body.
    rescale = st.op_spec("RESCALE").error_ifs
    assert rescale[0].text == ("!is_same<in_t,i8_t>() && (!is_same<in_t,i16_t>() || "
                               "input_unsigned == false) && input_zp != 0")
    assert st.op_spec("COND_IF").error_ifs[0].text == "tosa_nesting_depth >= MAX_NESTING"
    for op in st.ops():
        for c in op.error_ifs + op.level_checks + op.requires:
            assert c.text and "\n" not in c.text and "  " not in c.text
            assert c.text.count("(") == c.text.count(")")


def test_helper_conditions():
    helpers = st.helper_conditions()
    by = {}
    for c in helpers:
        by.setdefault((c.helper, c.kind), []).append(c)
    assert [c.text for c in by["idiv_check", "ERROR_IF"]] == ["input1 % input2 != 0"]
    assert by["idiv_check", "ERROR_IF"][0].section == "4.5.4"
    assert len(by["broadcast_shape", "ERROR_IF"]) == 2
    assert len(by["apply_broadcast", "ERROR_IF"]) == 3
    assert len(by["tensor_offset_to_index", "REQUIRE"]) == 2  # one after a page break
    assert len(by["apply_scale_32", "REQUIRE"]) == 3
    assert len(by["tosa_execute_graph", "ERROR_IF"]) == 6  # 2.2 Operator Graphs
    assert all(c.helper for c in helpers)
    # The definitions of REQUIRE/ERROR_IF/LEVEL_CHECK themselves (4.3) are not uses.
    assert not [c for c in helpers if c.text == "condition"]


# -- levels, profiles, appendix B -------------------------------------------------------


def test_levels():
    lv = st.levels()
    assert list(lv) == ["none", "8K"]
    assert lv["8K"]["MAX_RANK"] == 6 and lv["8K"]["MAX_KERNEL"] == 8192
    assert lv["8K"]["MAX_TENSOR_LIST_SIZE"] == 64 and lv["8K"]["MAX_NESTING"] == 6
    assert lv["none"]["MAX_RANK"] == 32 and lv["none"]["MAX_KERNEL"] == 2**31 - 1
    assert lv["none"]["MAX_LOG2_SIZE"] == 63
    # The 1.0.1 table has no MAX_SHAPE_LEN (upstream MLIR's validation adds one).
    assert "MAX_SHAPE_LEN" not in lv["8K"]


def test_profiles_and_extensions():
    assert [p.name for p in st.profiles()] == ["PRO-INT", "PRO-FP"]
    ext = {e.name: e for e in st.extensions()}
    assert set(ext) == {"EXT-INT16", "EXT-INT4", "EXT-BF16", "EXT-FP8E4M3", "EXT-FP8E5M2",
                        "EXT-FFT", "EXT-VARIABLE", "EXT-CONTROLFLOW", "EXT-DYNAMIC",
                        "EXT-DOUBLEROUND", "EXT-INEXACTROUND"}
    assert ext["EXT-INT16"].allowed_profiles == {"PRO-INT"}
    assert ext["EXT-FFT"].allowed_profiles == {"PRO-FP"}
    assert ext["EXT-VARIABLE"].allowed_profiles == {"PRO-INT", "PRO-FP"}
    assert ext["EXT-BF16"].status == "Experimental"
    used = set().union(*(r.names for o in st.ops() for r in o.type_rows))
    assert used <= set(ext) | {"PRO-INT", "PRO-FP"}


def test_enums():
    rounding = {v.name: v for v in st.enums()["rounding_mode_t"]}
    assert rounding["DOUBLE_ROUND"].required_extension == "EXT-DOUBLEROUND"
    assert rounding["SINGLE_ROUND"].required_extension == ""
    assert [v.name for v in st.enums()["var_t"]][-1] == "FP32"  # split table merged


def test_appendix_b_agrees_with_operator_tables():
    assert appendix_b_mismatches() == []
    tables = {t.name: t for t in st.appendix_b()}
    assert len(tables["EXT-DYNAMIC"].operators) == sum(
        1 for o in st.ops() for c in o.ctc if "EXT-DYNAMIC" in c.disabled_extensions)


# -- the parser fails loudly on what it does not understand -----------------------------

_MINI = """\
# 2. Operators
## 2.3. Tensor Operators
### 2.3.1. FOO
#### Arguments:

Argument\tType\tName\tShape\tRank\tDescription
Input\tT<in_t>\tinput_z p\t[N, H]\t2\tx

Argument\tType\tName\tShape\tRank\tDescription
Output\tT<in_t>\toutput\t[N,H]\t2\ty

#### Supported Data Types:

Profile/Extension\tMode\tin_t
{req}\tsigned 8\ti8_t

Profile/Extens ion\tMode\tin_t
PRO-INT\tsigned 16\ti16_t

#### Operation Function:

```
ERROR_IF(input_zp != 0 &&
```

```
         N > 3); // why
```
"""


def _mini_ops(req="PRO-INT or PRO-FP"):
    doc = SpecDocument(_MINI.format(req=req))
    return ex.extract_operators(doc, {"PRO-INT", "PRO-FP", "EXT-BF16"})["operators"]


def test_parser_merges_split_tables_and_fences():
    (op,) = _mini_ops()
    assert [a["name"] for a in op["arguments"]] == ["input_zp", "output"]
    assert op["arguments"][0]["shape"] == "[N,H]"
    assert [r["mode"] for r in op["type_rows"]] == ["signed 8", "signed 16"]
    assert op["type_rows"][0]["requirements"] == [["PRO-INT"], ["PRO-FP"]]
    assert op["error_ifs"] == [{"text": "input_zp != 0 && N > 3", "comment": "why", "line": 23}]


def test_parser_rejects_unknown_extension():
    with pytest.raises(ex.SpecFormatError, match="EXT-NOPE"):
        _mini_ops("EXT-NOPE and EXT-BF16")


def test_parser_rejects_ragged_rows():
    doc = SpecDocument(_MINI.format(req="PRO-INT").replace("\tsigned 8\ti8_t", "\ti8_t"))
    with pytest.raises(ex.SpecFormatError, match="cells"):
        ex.extract_operators(doc, {"PRO-INT", "PRO-FP"})


def test_docs_page_contains_the_tables():
    page = docs_gen.PAGES["spec-tables.md"]()
    assert "| `MAX_RANK` | 32 | 6 |" in page
    assert "### 2.3.3 CONV2D (`tosa.conv2d`)" in page
    assert "| EXT-INT4 | signed 8x4 with int32 accumulate | `i8` | `i4` | `i32` | `i32` |" in page
    assert Path(docs_gen.DOCS_DIR, "spec-tables.md").exists()

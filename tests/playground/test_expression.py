"""Typed formulas become graph documents; bad ones give an error that points at the problem. No Qt."""

import math
import sys

import pytest

from playground.graph.document import Edge, GraphDocument
from playground.graph.evaluate import evaluate
from playground.graph.expression import ExpressionError, is_parameter_name, parse_expression


def by_label(document: GraphDocument) -> dict:
    return {node.label: node for node in document.nodes if node.label}


def wires(document: GraphDocument) -> set[tuple[str, str, int]]:
    """Edges as (source, target kind or label, port), readable without knowing the ids."""
    def name(node_id):
        node = document.node(node_id)
        return node.label or node.kind
    return {(name(e.source), name(e.target), e.port) for e in document.edges}


def results(document: GraphDocument) -> dict[str, tuple[float, float]]:
    evaluation = evaluate(document)
    return {document.node(k).label: (r.value, r.grad) for k, r in evaluation.results.items() if document.node(k).label}


def test_neuron_kinds_labels_and_wires():
    document = parse_expression("tanh(x1*w1 + x2*w2 + b)")
    kinds = [(node.id, node.kind, node.label) for node in document.nodes]
    assert kinds == [
        ("n1", "input", "x1"), ("n2", "parameter", "w1"), ("n3", "mul", ""),
        ("n4", "input", "x2"), ("n5", "parameter", "w2"), ("n6", "mul", ""),
        ("n7", "add", ""), ("n8", "parameter", "b"), ("n9", "add", ""), ("n10", "tanh", ""),
    ]
    assert document.edges == sorted([
        Edge("n1", "n3", 0), Edge("n2", "n3", 1), Edge("n4", "n6", 0), Edge("n5", "n6", 1),
        Edge("n3", "n7", 0), Edge("n6", "n7", 1), Edge("n7", "n9", 0), Edge("n8", "n9", 1), Edge("n9", "n10", 0),
    ])
    assert document.output == "n10"
    assert all(node.value == 1.0 for node in document.nodes if node.is_leaf)  # never assigned: 1.0


def test_micrograd_neuron_values_and_gradients():
    document = parse_expression("x1 = 2; x2 = 0; w1 = -3; w2 = 1; b = 6.8813735870195432\n"
                                "n = x1*w1 + x2*w2 + b\no = tanh(n)")
    nodes = by_label(document)
    assert nodes["w1"].kind == "parameter" and nodes["w1"].value == -3.0
    assert nodes["b"].kind == "parameter" and nodes["b"].value == 6.8813735870195432
    assert nodes["x2"].kind == "input" and nodes["x2"].value == 0.0
    assert document.output == nodes["o"].id and nodes["o"].kind == "tanh" and nodes["n"].kind == "add"
    got = results(document)
    assert got["o"][0] == pytest.approx(math.sqrt(0.5))
    assert got["x1"][1] == pytest.approx(-1.5) and got["w1"][1] == pytest.approx(1.0)
    assert got["x2"][1] == pytest.approx(0.5) and got["w2"][1] == pytest.approx(0.0)


def test_micrograd_example_value_and_gradients():
    document = parse_expression("a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)")
    nodes = by_label(document)
    assert [nodes[n].kind for n in "abcd"] == ["input", "parameter", "input", "input"]  # b reads as a bias
    assert document.output == nodes["L"].id
    got = results(document)
    assert got["L"] == (70.0, 1.0)
    assert {name: got[name][1] for name in "abcd"} == {"a": 31.0, "b": 14.0, "c": 7.0, "d": 10.0}
    assert len(document.nodes) == 8  # a, b, c, d, mul, add, add, mul: `a` is one node with two wires


def test_assigned_expression_is_one_node_used_twice():
    document = parse_expression("a = 3; e = a*b; L = e + e")
    nodes = by_label(document)
    assert [n.kind for n in document.nodes].count("mul") == 1
    assert {e for e in document.edges if e.source == nodes["e"].id} == {
        Edge(nodes["e"].id, nodes["L"].id, 0), Edge(nodes["e"].id, nodes["L"].id, 1)}
    got = results(document)
    assert got["L"][0] == 6.0 and got["e"][1] == 2.0 and got["a"][1] == 2.0


def test_square_by_multiplication_has_two_wires_from_one_node():
    document = parse_expression("x = 3; y = x*x")
    assert [n.kind for n in document.nodes] == ["input", "mul"]
    assert document.edges == [Edge("n1", "n2", 0), Edge("n1", "n2", 1)]
    assert results(document)["x"] == (3.0, 6.0)


def test_sum_is_one_node_with_a_port_per_argument():
    document = parse_expression("sum(a, b, c*2, d)")
    sums = [n for n in document.nodes if n.kind == "sum"]
    assert len(sums) == 1 and sums[0].inputs == 4 and document.output == sums[0].id
    assert wires(document) >= {("a", "sum", 0), ("b", "sum", 1), ("mul", "sum", 2), ("d", "sum", 3)}
    assert parse_expression("sum(a)").node("n2").inputs == 1


def test_numbers_become_one_constant_per_occurrence():
    document = parse_expression("2*x + 2 + 0.5")
    constants = [n for n in document.nodes if n.kind == "constant"]
    assert [c.value for c in constants] == [2.0, 2.0, 0.5]
    assert all(c.label == "" for c in constants)
    assert results(document)["x"] == (1.0, 2.0)


def test_minus_name_is_neg_but_minus_number_is_a_constant():
    document = parse_expression("-x")
    assert [n.kind for n in document.nodes] == ["input", "neg"]
    document = parse_expression("x * -3")
    assert [(n.kind, n.value) for n in document.nodes] == [("input", 1.0), ("constant", -3.0), ("mul", 0.0)]
    document = parse_expression("x - -(2.5)")
    assert [(n.kind, n.value) for n in document.nodes][1] == ("constant", -2.5)
    assert [n.kind for n in parse_expression("+x * 2").nodes] == ["input", "constant", "mul"]


def test_power_has_the_exponent_on_port_one():
    document = parse_expression("x = 3; y = x**2")
    assert [(n.kind, n.value) for n in document.nodes] == [("input", 3.0), ("constant", 2.0), ("pow", 0.0)]
    assert document.edges == [Edge("n1", "n3", 0), Edge("n2", "n3", 1)]
    assert results(document)["y"] == (9.0, 1.0) and results(document)["x"] == (3.0, 6.0)


def test_python_operator_precedence():
    assert results(parse_expression("x = 3; y = -x**2"))["y"][0] == -9.0
    assert results(parse_expression("x = 3; y = (-x)**2"))["y"][0] == 9.0
    assert results(parse_expression("a = 8; y = a - 2 - 1"))["y"][0] == 5.0  # left to right
    assert results(parse_expression("a = 2; y = a ** 3 ** 2"))["y"][0] == 512.0  # right to left


@pytest.mark.parametrize("function", ["exp", "log", "tanh", "sigmoid", "relu", "sin", "cos", "abs"])
def test_each_function_is_a_node_of_its_kind(function):
    document = parse_expression(f"a = 0.5; y = {function}(a)")
    assert [n.kind for n in document.nodes] == ["input", function]


@pytest.mark.parametrize(("name", "kind"), [
    ("w", "parameter"), ("w1", "parameter"), ("w12", "parameter"), ("b", "parameter"), ("b2", "parameter"),
    ("weight", "parameter"), ("bias", "parameter"), ("x", "input"), ("wx", "input"), ("bb", "input"),
    ("w_1", "input"), ("weights", "input"), ("W1", "input"), ("a1", "input"),
])
def test_parameter_naming_rule(name, kind):
    assert is_parameter_name(name) == (kind == "parameter")
    assert parse_expression(f"{name} * 2").node("n1").kind == kind
    assert parse_expression(f"{name} = -0.25; y = {name} * 2").node("n1").kind == kind


def test_statements_may_be_separated_by_newlines_semicolons_and_carry_comments_and_indents():
    text = "  a = 2   # the input\n\tb = -1; c = a*b\r\n    c + 1\n"
    document = parse_expression(text)
    assert results(document)["c"] == (-2.0, 1.0)
    assert evaluate(document).results[document.output].value == -1.0


def test_output_is_the_last_statement_and_a_bare_name_shares_its_node():
    document = parse_expression("a = 2; e = a; y = e * 3")
    assert [n.label for n in document.nodes] == ["a", "", "y"]  # `e` is another name for `a`'s node
    assert document.output == by_label(document)["y"].id
    document = parse_expression("x = 2; e = x * 3; e")
    assert document.output == by_label(document)["e"].id


def test_unassigned_names_are_made_once_at_first_use():
    document = parse_expression("x*y + x")
    assert [(n.id, n.label) for n in document.nodes if n.is_leaf] == [("n1", "x"), ("n2", "y")]


def test_document_is_laid_out_left_to_right():
    document = parse_expression("tanh(x1*w1 + x2*w2 + b)")
    for edge in document.edges:
        assert document.node(edge.source).x < document.node(edge.target).x
    assert len({(n.x, n.y) for n in document.nodes}) == len(document.nodes)


def test_document_round_trips_through_a_dictionary():
    document = parse_expression("a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)")
    assert GraphDocument.from_dict(document.to_dict()).to_dict() == document.to_dict()


def test_a_long_sum_does_not_recurse_once_per_term():
    # a + b + c + ... nests to the left, one level per term; reading it must not need a frame per term.
    depth, frame = 0, sys._getframe()
    while frame:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 100)
    try:
        document = parse_expression(" + ".join(["x"] * 150))
    finally:
        sys.setrecursionlimit(limit)
    assert len(document.nodes) == 150
    assert evaluate(document).results[document.output].value == 150.0


EXPECTED_ERRORS = [
    # text, words in the message, statement, column
    ("a = 2 +", "invalid syntax at column 8", 1, 7),
    ("tanh(x1*w1 + x2", "'(' was never closed", 1, 4),
    ("x y", "invalid syntax", 1, 2),
    ("x = 1\ny = x +* 2", "at line 2, column 8", 2, 13),
    ("x)", "unmatched ')'", 1, 1),
    ("foo(x)", "unknown function 'foo'; available: exp, log, tanh, sigmoid, relu, sin, cos, abs, sum", 1, 0),
    ("a = 1; sqrt(a)", "unknown function 'sqrt' (write x ** 0.5)", 2, 7),
    ("tanh(x, y)", "tanh takes exactly one argument (2 given)", 1, 8),
    ("exp()", "exp takes exactly one argument (none given)", 1, 0),
    ("sum()", "sum needs at least one argument", 1, 0),
    ("tanh(x=1)", "keyword arguments (x=...) are not supported", 1, 5),
    ("tanh(*x)", "'*' unpacking is not supported", 1, 5),
    ("x < 2", "comparisons such as '<' are not supported", 1, 2),
    ("x and y", "'and' is not supported", 1, 2),
    ("not x", "'not' is not supported", 1, 0),
    ("x.real", "attribute access ('.real') is not supported", 1, 1),
    ("x[0] + 1", "indexing with [...] is not supported", 1, 1),
    ("'text' * 2", "text in quotes is not supported", 1, 0),
    ("x + True", "True is not a number", 1, 4),
    ("x * 2j", "a complex number is not supported", 1, 4),
    ("lambda: 1", "lambda is not supported", 1, 0),
    ("1 if x else 2", "a conditional (a if c else b) is not supported", 1, 2),
    ("[x, y]", "a list holds numbers only (or lists of numbers, one per row)", 1, 1),
    ("x, y", "sum(a, b, c)", 1, 0),
    ("x // 2", "the operator '//' is not supported", 1, 2),
    ("x % 2", "the operator '%' is not supported", 1, 2),
    ("(y := 2) * x", "':=' is not supported", 1, 1),
    ("a = 1; a = 2; a", "'a' is assigned twice", 2, 7),
    ("exp = 2; exp * 3", "'exp' is a function name and cannot be assigned", 1, 0),
    ("sum = 2; sum", "'sum' is a function name and cannot be assigned", 1, 0),
    ("tanh + 1", "'tanh' is a function; call it like tanh(x)", 1, 0),
    ("y = a * 2; a = 3; y", "'a' is used before it is assigned", 1, 4),
    ("a = a + 1; a", "'a' is used before it is assigned", 1, 4),
    ("a = 2; L = 3", "nothing to compute", 2, 11),
    ("L = -3", "nothing to compute", 1, 4),
    ("x * 2; y", "only the last statement can be a bare expression", 1, 0),
    ("a = b = 2 * x", "chained assignment", 1, 4),
    ("a, b = x, y", "assigning several names at once is not supported", 1, 0),
    ("x.y = 2; x", "only a plain name can be assigned", 1, 0),
    ("a = 1; a += 1; a", "'+=' is not supported", 2, 9),
    ("import os", "'import' is not supported", 1, 0),
    ("def f(): pass", "'def' is not supported", 1, 0),
    ("x: float = 2; x", "type annotations are not supported", 1, 3),
    ("é = 2; é * ß[0]", "indexing", 2, 12),  # columns count characters, not UTF-8 bytes
    ("x\0", "null character", None, 1),
    ("1" + "0" * 400 + " * x", "too large", 1, 0),
]


@pytest.mark.parametrize(("text", "words", "line", "column"), EXPECTED_ERRORS,
                         ids=[case[0][:30] for case in EXPECTED_ERRORS])
def test_errors_say_what_and_where(text, words, line, column):
    with pytest.raises(ExpressionError) as caught:
        parse_expression(text)
    error = caught.value
    assert words in error.message
    assert (error.line, error.column) == (line, column)
    assert str(error) == error.message and isinstance(error, ValueError)


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "# only a comment"])
def test_empty_text_asks_for_an_expression(text):
    with pytest.raises(ExpressionError) as caught:
        parse_expression(text)
    assert caught.value.message == "type an expression such as tanh(x1*w1 + x2*w2 + b)"
    assert (caught.value.line, caught.value.column) == (None, None)


def test_too_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(ExpressionError, match="nested too deeply"):
        parse_expression("x" + "**x" * 3000)


@pytest.mark.parametrize("template", [
    "__import__('pathlib').Path({path!r}).touch()",
    "exec(\"open({path!r}, 'w')\")",
    "eval(\"open({path!r}, 'w')\")",
    "open({path!r}, 'w')",
    "a = open({path!r}, 'w'); a",
    "[open({path!r}, 'w') for _ in (1,)]",
])
def test_text_is_never_run(tmp_path, template):
    marker = tmp_path / "ran"
    with pytest.raises(ExpressionError) as caught:
        parse_expression(template.format(path=str(marker)))
    assert "not supported" in caught.value.message or "unknown function" in caught.value.message
    assert not marker.exists()

"""The graph told in sentences for a screen reader (`playground.graph.outline`), without Qt."""

from __future__ import annotations

import numpy as np

from playground.graph import edits
from playground.graph.concealment import Concealment
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression
from playground.graph.outline import node_sentence, outline, spoken_number, wire_sentence

LESSON = "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"


def by_name(document: GraphDocument) -> dict[str, str]:
    return {name: node_id for node_id, name in document.names().items()}


def test_every_node_is_one_sentence_in_the_graphs_order_with_its_value_and_gradient():
    document = parse_expression(LESSON)
    lines = outline(document, evaluate(document))
    assert [line.text for line in lines] == [
        "a, input, value 2, gradient 31",
        "b, parameter, value 3, gradient 14",
        "c, input, value 4, gradient 7",
        "d, input, value 5, gradient 10",
        "t1 = a * b, value 6, gradient 7",
        "t2 = t1 + c, value 10, gradient 7",
        "t3 = a + d, value 7, gradient 10",
        "L = t2 * t3, the output, value 70, gradient 1",
    ]


def test_the_wires_into_a_node_follow_it_with_what_they_join_and_the_gradient_they_carry():
    document = parse_expression(LESSON)
    lines = {line.text.split(",")[0]: line for line in outline(document, evaluate(document))}
    assert [wire.text for wire in lines["t1 = a * b"].wires] == [
        "wire from a into input a of t1, carries gradient 21",
        "wire from b into input b of t1, carries gradient 14",
    ]
    assert lines["a"].wires == ()  # a leaf has no inputs: its two wires out are told at t1 and t3
    names = by_name(document)
    assert lines["t3 = a + d"].wires[0].edge == Edge(names["a"], names["t3"], 0)


def test_an_open_input_says_what_is_missing_and_a_node_off_the_outputs_path_has_no_gradient():
    document = parse_expression("a=2; b=3; L=a*b")
    names = by_name(document)
    spare = Node("spare", "tanh", label="h")
    edits.add_node(document, spare).apply(document)
    evaluation = evaluate(document)
    assert node_sentence(document, evaluation, "spare") == (
        "h = tanh(nothing), no value yet: input x is not connected, no gradient")
    edits.connect(document, Edge(names["a"], "spare", 0)).apply(document)
    evaluation = evaluate(document)
    # The expression made L the output: h is computed, but off the output's path.
    assert node_sentence(document, evaluation, "spare") == (
        "h = tanh(a), value 0.964, no gradient: the output does not depend on it")
    assert node_sentence(document, evaluation, names["L"]) == "L = a * b, the output, value 6, gradient 1"


def test_before_any_evaluation_a_leaf_reads_its_own_value():
    document = parse_expression("a=2; b=3; L=a*b")
    assert node_sentence(document, None, by_name(document)["a"]) == "a, input, value 2, no gradient yet"


def test_what_a_quiz_asks_for_is_hidden_never_said():
    document = parse_expression(LESSON)
    names = by_name(document)
    evaluation = evaluate(document)
    t1_from_a = Edge(names["a"], names["t1"], 0)
    quiz = Concealment(values=frozenset({names["t2"]}), grads=frozenset({names["a"]}), wires=frozenset({t1_from_a}))
    assert node_sentence(document, evaluation, names["a"], quiz) == (
        "a, input, value 2, gradient hidden (a quiz asks for it)")
    assert node_sentence(document, evaluation, names["t2"], quiz) == (
        "t2 = t1 + c, value hidden (a quiz asks for it), gradient 7")
    assert wire_sentence(document, evaluation, t1_from_a, quiz) == (
        "wire from a into input a of t1, carries gradient hidden (a quiz asks for it)")
    assert "31" not in " ".join(line.text for line in outline(document, evaluation, quiz))


def test_a_bad_number_is_said_with_its_reason():
    document = parse_expression("a=-1; L=log(a)")
    text = node_sentence(document, evaluate(document), by_name(document)["L"])
    assert text.startswith("L = log(a), the output, value nan, ")
    assert "log of a negative number" in text


def test_an_array_says_its_shape_and_few_numbers_one_by_one_many_by_their_range():
    document = parse_expression("X = [[1, 2], [3, 4], [5, 6]]; W = [[1, 0, -1, 2], [0, 1, 1, -2]]; "
                                "b = zeros(4); L = sum(X @ W + b)")
    names = by_name(document)
    evaluation = evaluate(document)
    assert node_sentence(document, evaluation, names["X"]) == (
        "X, input, shape (3, 2), value [[1, 2], [3, 4], [5, 6]], gradient [[2, 0], [2, 0], [2, 0]]")
    assert node_sentence(document, evaluation, names["b"]) == (
        "b, parameter, shape (4,), value all 0, gradient all 3")
    # X @ W: [[1, 2, 1, -2], [3, 4, 1, -2], [5, 6, 1, -2]]
    assert node_sentence(document, evaluation, names["t1"]) == (
        "t1 = X @ W, shape (3, 4), value from -2 to 6, mean 1.5, gradient all 1")
    assert node_sentence(document, evaluation, names["L"]).endswith("the output, value 18, gradient 1")


def test_spoken_numbers():
    assert spoken_number(0.70710678) == "0.7071"
    assert spoken_number(np.array([0.5, -0.5])) == "[0.5, -0.5]"
    assert spoken_number(np.array([[np.nan, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]])) == (
        "from 1 to 7, mean 4, 1 not finite")
    assert spoken_number(np.full(10, np.inf)) == "all 10 not finite"

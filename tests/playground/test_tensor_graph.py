"""Tensor graphs in the editor model (issue 19): array leaves, shape rules, refusals, evaluation with engine.Tensor."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from playground.graph.arrays import MAX_ELEMENTS, Generator, ValueProblem, format_array
from playground.graph.catalog import ALL_KINDS, KINDS, PRESETS, SCALAR_KINDS, TENSOR_KINDS, kind
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.graph.shapes import ShapeError
from playground.graph.tensor_evaluate import broadcast_text

X = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
W = [[0.5, -1.0], [2.0, 0.25]]
B = [0.5, -0.5]


def build(nodes, edges, output=None) -> GraphDocument:
    """nodes: (id, kind, value or params); edges: (source, target, port)."""
    doc = GraphDocument()
    for node_id, kind_name, extra in nodes:
        if kind(kind_name).is_leaf:
            doc.add_node(Node(node_id, kind_name, label=node_id, value=extra))
        else:
            doc.add_node(Node(node_id, kind_name, label=node_id, params=extra or {}))
    for source, target, port in edges:
        doc.add_edge(Edge(source, target, port))
    if output is not None:
        doc.set_output(output)
    return doc


def layer(x=X, w=W, b=B) -> GraphDocument:
    """L = sum(tanh(X @ W + b)): the issue's one-layer example."""
    return build(
        [("X", "input", x), ("W", "parameter", w), ("b", "parameter", b), ("XW", "matmul", None),
         ("Z", "add", None), ("H", "tanh", None), ("L", "reduce_sum", None)],
        [("X", "XW", 0), ("W", "XW", 1), ("XW", "Z", 0), ("b", "Z", 1), ("Z", "H", 0), ("H", "L", 0)],
    )


def torch_layer(x=X, w=W, b=B):
    tx, tw, tb = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (x, w, b))
    loss = torch.tanh(tx @ tw + tb).sum()
    loss.backward()
    return loss, tx, tw, tb


# -- values and generators -----------------------------------------------------------------


def test_leaf_values_are_floats_for_scalars_and_read_only_arrays_otherwise():
    scalar, matrix = Node("a", "input", value=2), Node("X", "input", value=X)
    assert scalar.value == 2.0 and isinstance(scalar.value, float) and scalar.shape == ()
    assert matrix.shape == (3, 2) and matrix.array[2, 1] == 6.0 and matrix.is_tensor and not scalar.is_tensor
    with pytest.raises(ValueError, match="read-only"):
        matrix.value[0, 0] = 9.0
    with pytest.raises(ValueProblem, match="4,097 elements; at most 4,096"):
        Node("big", "input", value=np.zeros(MAX_ELEMENTS + 1))
    with pytest.raises(ValueProblem, match="3 dimensions; at most 2"):
        Node("cube", "input", value=np.zeros((2, 2, 2)))
    with pytest.raises(ValueProblem, match="rectangular"):
        Node("ragged", "input", value=[[1, 2], [3]])


def test_generators_make_the_same_values_for_the_same_seed():
    assert np.array_equal(Generator("arange", (2, 3)).values(), [[0, 1, 2], [3, 4, 5]])
    assert np.array_equal(Generator("eye", (2, 3)).values(), [[1, 0, 0], [0, 1, 0]])
    assert np.array_equal(Generator("ones", (2,)).values(), [1.0, 1.0])
    first, again = Generator("randn", (2, 2), seed=7).values(), Generator("randn", (2, 2), seed=7).values()
    assert np.array_equal(first, again) and np.array_equal(first, np.random.default_rng(7).standard_normal((2, 2)))
    uniform = Generator("rand", (50,), seed=1).values()
    assert uniform.min() >= 0 and uniform.max() < 1
    assert Generator("randn", (2, 3), seed=0).call_text() == "randn(2, 3, seed=0)"
    with pytest.raises(ValueProblem, match="zeros is not random"):
        Generator("zeros", (2,), seed=3)
    with pytest.raises(ValueProblem, match="eye makes a matrix"):
        Generator("eye", (3,))


def test_the_palette_offers_the_tensor_kinds_and_version_1_files_only_the_scalar_ones():
    assert set(TENSOR_KINDS) <= set(KINDS) == set(ALL_KINDS) | set(PRESETS)  # and the Data group (issue 28)
    assert not set(TENSOR_KINDS) & set(SCALAR_KINDS) and set(SCALAR_KINDS) | set(TENSOR_KINDS) == set(ALL_KINDS)
    assert {"matmul", "transpose", "reduce_sum", "reduce_mean", "reshape", "softmax", "log_softmax", "mse",
            "cross_entropy"} == set(TENSOR_KINDS)


# -- shapes ------------------------------------------------------------------------------------


def test_every_wire_carries_a_shape_and_scalar_graphs_carry_scalars():
    doc = layer()
    assert doc.shapes() == {"X": (3, 2), "W": (2, 2), "b": (2,), "XW": (3, 2), "Z": (3, 2), "H": (3, 2), "L": ()}
    assert doc.wire_shape(Edge("b", "Z", 1)) == (2,)
    scalar = build([("a", "input", 2.0), ("n", "neg", None)], [])
    assert scalar.shapes() == {"a": (), "n": None} and not scalar.is_tensor_graph


def test_a_matmul_wire_whose_inner_sizes_differ_is_refused_in_shapes():
    doc = build([("A", "input", np.ones((4, 3))), ("B", "input", np.ones((2, 2))), ("m", "matmul", None)],
                [("A", "m", 0)])
    assert doc.connection_problem("B", "m", 1) == "(4, 3) @ (2, 2): the inner sizes 3 and 2 differ"
    with pytest.raises(ValueError, match="inner sizes 3 and 2"):
        doc.add_edge(Edge("B", "m", 1))
    assert doc.edge_at("m", 1) is None


def test_a_wire_that_breaks_a_node_downstream_is_refused_and_names_it():
    # Z = XW + b is wired with b of shape (3,); XW's second input decides the shape Z sees.
    doc = build([("X", "input", X), ("W", "parameter", np.ones((2, 4))), ("b", "parameter", np.ones(3)),
                 ("XW", "matmul", None), ("Z", "add", None)], [("X", "XW", 0), ("XW", "Z", 0), ("b", "Z", 1)])
    problem = doc.connection_problem("W", "XW", 1)
    assert problem == ("at Z, (3, 4) + (3,): sizes 4 and 3 of the last axis differ and neither is 1, "
                       "so they do not broadcast")


def test_changing_a_leaf_shape_is_refused_when_downstream_cannot_combine_and_allowed_otherwise():
    doc = layer()
    assert doc.value_problem("W", np.ones((3, 2))) == (
        "W cannot become shape (3, 2): at XW, (3, 2) @ (3, 2): the inner sizes 2 and 3 differ")
    with pytest.raises(ValueProblem, match="inner sizes 2 and 3"):
        doc.set_value("W", np.ones((3, 2)))
    assert doc.node("W").shape == (2, 2)
    with pytest.raises(ValueProblem, match=r"at Z, \(3, 5\) \+ \(2,\)"):
        doc.set_value("W", np.ones((2, 5)))
    doc.set_value("X", np.ones((7, 2)), Generator("ones", (7, 2)))
    assert doc.shape_of("L") == () and doc.shape_of("H") == (7, 2)
    assert doc.node("X").generator == Generator("ones", (7, 2))
    doc.set_value("b", 0.5)  # a scalar broadcasts too
    assert doc.shape_of("Z") == (7, 2)


def test_parameters_change_shapes_and_are_checked():
    doc = layer()
    doc.set_params("L", {"axis": 0})
    assert doc.shape_of("L") == (2,)
    doc.set_params("L", {"axis": 1, "keepdims": True})
    assert doc.shape_of("L") == (3, 1)
    assert "axis must be a whole number from -2 to 1" in doc.params_problem("L", {"axis": 5})
    with pytest.raises(ShapeError, match="no parameter 'axes'"):
        doc.set_params("L", {"axes": 0})
    shaped = build([("x", "input", np.arange(6.0)), ("r", "reshape", {"shape": (2, 3)})], [("x", "r", 0)])
    assert shaped.shape_of("r") == (2, 3)
    assert shaped.params_problem("r", {"shape": (4, 2)}) == "reshape (6,) into (4, 2): 6 elements cannot fill 8"
    shaped.set_params("r", {"shape": (-1, 2)})
    assert shaped.shape_of("r") == (3, 2)


def test_shape_refusals_never_raise_for_any_pair_of_leaves():
    shapes = [(), (1,), (2,), (3,), (2, 3), (3, 2), (1, 3), (3, 1)]
    refused = 0
    for name in ("add", "matmul", "mse", "cross_entropy", "pow"):
        for a in shapes:
            for b in shapes:
                doc = build([("a", "input", np.ones(a)), ("b", "input", np.zeros(b)), ("n", name, None)], [])
                first = doc.connection_problem("a", "n", 0)
                if first is None:
                    doc.add_edge(Edge("a", "n", 0))
                    second = doc.connection_problem("b", "n", 1)
                    refused += second is not None
                    if second is None:
                        doc.add_edge(Edge("b", "n", 1))
                        assert evaluate(doc).is_complete, (name, a, b)
                else:
                    refused += 1
                    assert str(a) in first or "scalar" in first or "shape" in first
    assert refused > 0


# -- evaluation ------------------------------------------------------------------------------


def test_the_one_layer_example_evaluates_as_torch_does():
    evaluation = evaluate(layer())
    loss, tx, tw, tb = torch_layer()
    r = evaluation.results
    assert evaluation.is_tensor and evaluation.is_complete
    assert float(r["L"].value) == pytest.approx(loss.item(), abs=1e-12)
    np.testing.assert_allclose(r["W"].grad, tw.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(r["b"].grad, tb.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(r["X"].grad, tx.grad.numpy(), atol=1e-12)
    assert r["H"].grad.shape == (3, 2) and np.all(r["H"].grad == 1.0)
    np.testing.assert_allclose(evaluation.edge_grads[Edge("b", "Z", 1)], tb.grad.numpy(), atol=1e-12)
    assert evaluation.summary() == f"Output = {format_array(loss.item())}"


def test_broadcasting_is_described_from_the_engines_backward_steps():
    evaluation = evaluate(layer())
    assert evaluation.broadcasts == {Edge("b", "Z", 1): "b was broadcast over axis 0 of (3, 2): its gradient sums "
                                                        "over that axis, (3, 2) → (2,)"}
    assert broadcast_text("c", (), (3, 2)) == ("c was broadcast over axes 0 and 1 of (3, 2): its gradient sums over "
                                               "those axes, (3, 2) → ()")
    assert broadcast_text("k", (3, 1), (3, 4)) == ("k was broadcast over axis 1 of (3, 4): its gradient sums over "
                                                   "that axis, (3, 4) → (3, 1)")
    assert broadcast_text("same", (3, 4), (3, 4)) is None


def test_a_scalar_leaf_broadcasts_into_a_tensor_graph_and_gets_the_summed_gradient():
    doc = build([("X", "input", X), ("c", "parameter", 2.0), ("m", "mul", None), ("s", "reduce_mean", None)],
                [("X", "m", 0), ("c", "m", 1), ("m", "s", 0)])
    r = evaluate(doc).results
    assert r["c"].grad == pytest.approx(np.mean(X))  # d mean(c X) / dc = mean(X) = 3.5
    np.testing.assert_allclose(r["X"].grad, np.full((3, 2), 2.0 / 6))


def test_softmax_cross_entropy_and_mse_match_torch():
    logits = [[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]]
    doc = build([("z", "input", logits), ("y", "input", [2.0, 0.0]), ("ce", "cross_entropy", None)],
                [("z", "ce", 0), ("y", "ce", 1)])
    evaluation = evaluate(doc)
    tz = torch.tensor(logits, dtype=torch.float64, requires_grad=True)
    expected = torch.nn.functional.cross_entropy(tz, torch.tensor([2, 0]))
    expected.backward()
    assert float(evaluation.results["ce"].value) == pytest.approx(expected.item(), abs=1e-12)
    np.testing.assert_allclose(evaluation.results["z"].grad, tz.grad.numpy(), atol=1e-12)
    assert evaluation.results["y"].grad is None  # labels take no gradient
    np.testing.assert_allclose(evaluation.edge_grads[Edge("z", "ce", 0)], tz.grad.numpy(), atol=1e-12)

    doc = build([("p", "input", [[1.0, 2.0]]), ("t", "input", [[0.0, 4.0]]), ("l", "mse", None)],
                [("p", "l", 0), ("t", "l", 1)])
    r = evaluate(doc).results
    assert float(r["l"].value) == pytest.approx((1 + 4) / 2)
    np.testing.assert_allclose(r["p"].grad, [[1.0, -2.0]])


def test_labels_out_of_range_are_a_problem_not_an_exception():
    doc = build([("z", "input", np.zeros((2, 3))), ("y", "input", [3.0, 0.5]), ("ce", "cross_entropy", None)],
                [("z", "ce", 0), ("y", "ce", 1)])
    evaluation = evaluate(doc)
    assert evaluation.results["ce"].value is None and not evaluation.is_complete
    assert "whole class numbers" in evaluation.results["ce"].problem


def test_a_non_scalar_output_is_seeded_with_ones():
    doc = build([("X", "input", X), ("t", "transpose", None)], [("X", "t", 0)])
    r = evaluate(doc).results
    assert r["t"].value.shape == (2, 3) and np.all(r["X"].grad == 1.0)


def test_nan_in_a_tensor_names_the_op_and_the_first_bad_element():
    doc = build([("x", "input", [1.0, -1.0, 2.0]), ("l", "log", None)], [("x", "l", 0)])
    problem = evaluate(doc).results["l"].problem
    assert problem == "1 of its 3 elements: log of a negative number is undefined (nan) (first at (1,))"


def test_sin_in_a_tensor_graph_is_refused_by_shape_and_reported_on_scalars():
    doc = build([("x", "input", [1.0, 2.0]), ("s", "sin", None)], [])
    assert doc.connection_problem("x", "s", 0) == "sin takes a scalar (engine.Tensor has no sin), not shape (2,)"
    doc = build([("x", "input", [1.0, 2.0]), ("c", "input", 1.0), ("s", "sin", None)], [("c", "s", 0)])
    evaluation = evaluate(doc)
    assert "sin works on scalar graphs only" in evaluation.results["s"].problem


# -- undo and redo of the new edits ------------------------------------------------------------


def test_value_generator_and_parameter_edits_undo_and_redo_exactly():
    from playground.graph import edits

    doc = layer()
    before = doc.to_dict()
    with pytest.raises(ValueError, match=r"at Z, \(3, 3\) \+ \(2,\)"):  # b (2,) cannot follow a width of 3
        edits.generate(doc, "W", Generator("randn", (2, 3), seed=0))
    with pytest.raises(ValueError, match="b cannot become shape"):
        edits.set_value(doc, "b", np.zeros(3))
    assert doc.to_dict() == before  # refused before anything changed
    fill = edits.generate(doc, "W", Generator("randn", (2, 2), seed=3))
    assert fill.text == "Fill W with randn(2, 2, seed=3)"
    fill.apply(doc)
    assert doc.node("W").generator == Generator("randn", (2, 2), seed=3)
    np.testing.assert_array_equal(doc.node("W").value, np.random.default_rng(3).standard_normal((2, 2)))
    typed = edits.set_value(doc, "W", [[1.0, 0.0], [0.0, 1.0]])
    assert typed.text == "Set W = [[1, 0], [0, 1]]"
    typed.apply(doc)
    assert doc.node("W").generator is None
    axis = edits.set_params(doc, "L", {"axis": 0})
    axis.apply(doc)
    assert doc.shape_of("L") == (2,) and axis.text == "Set L axis=0"
    for edit in (axis, typed, fill):
        edit.revert(doc)
    assert doc.to_dict() == before and doc.node("W").generator is None
    for edit in (fill, typed, axis):
        edit.apply(doc)
    assert doc.node("L").params == {"axis": 0, "keepdims": False}
    np.testing.assert_array_equal(evaluate(doc).results["L"].value, np.tanh(np.array(X) @ np.eye(2) + B).sum(axis=0))
    with pytest.raises(ValueError, match="axis must be"):
        edits.set_params(doc, "L", {"axis": "rows"})


# -- gradient check and export ---------------------------------------------------------------


def test_the_gradient_check_compares_every_element_and_catches_a_wrong_rule(monkeypatch):
    from playground.graph.gradient_check import check_gradients

    rows = check_gradients(layer())
    names = [row.name for row in rows]
    assert names == ["X[0, 0]", "X[0, 1]", "X[1, 0]", "X[1, 1]", "X[2, 0]", "X[2, 1]",
                     "W[0, 0]", "W[0, 1]", "W[1, 0]", "W[1, 1]", "b[0]", "b[1]"]
    assert all(row.passed for row in rows)
    _, _, tw, tb = torch_layer()
    assert rows[7].analytic == pytest.approx(tw.grad[0, 1].item(), abs=1e-12)
    assert rows[11].numerical == pytest.approx(tb.grad[1].item(), abs=1e-6)
    # A tanh whose backward forgets the square gives gradients the finite differences refute.
    from engine import ops

    monkeypatch.setattr(ops, "_tanh_rule", lambda node, g: (g * (1 - node.data),))
    import engine.tensor as tensor_module

    monkeypatch.setattr(tensor_module.Tensor, "tanh", lambda self: tensor_module.make_result(
        np.tanh(self.data), "tanh", (self,), ops._tanh_rule))
    wrong = check_gradients(layer())
    assert not all(row.passed for row in wrong) and {row.verdict for row in wrong} == {"differ"}  # none "unchecked"


def test_a_gradient_finite_differences_cannot_see_is_said_unchecked_not_wrong():
    """sum(exp(exp(exp(P)))) at P = [[1], [1.5]] is 2e38: P[0, 0]'s gradient, 1.6e8, moves it by 157 at a step
    of 1e-6, below its rounding (4e22): the differences read 0, and the row says it could not check, not ✗."""
    from playground.graph.gradient_check import check_gradients

    doc = build([("P", "parameter", np.array([[1.0], [1.5]])), ("E1", "exp", None), ("E2", "exp", None),
                 ("E3", "exp", None), ("L", "reduce_sum", None)],
                [("P", "E1", 0), ("E1", "E2", 0), ("E2", "E3", 0), ("E3", "L", 0)])
    first, second = check_gradients(doc)
    assert first.numerical == 0.0 and first.analytic == pytest.approx(np.exp(np.exp(np.exp(1.0)) + np.exp(1.0) + 1))
    assert not first.passed and first.verdict == "unchecked" and first.resolution > 1e28
    assert second.verdict == "agree"  # the large element's own gradient is seen


def test_export_as_python_prints_every_element_and_agrees_with_torch(capsys):
    from playground.graph.export_code import to_python

    script = to_python(layer(), use_torch=True)
    exec(compile(script, "exported.py", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7 and all(line.endswith("torch_agrees=True") for line in lines)
    b_grad = evaluate(layer()).results["b"].grad
    assert f"value=[0.5, -0.5]  grad={b_grad.tolist()}" in next(line for line in lines if line.startswith("b "))
    plain = to_python(layer())
    assert "torch" not in plain and "L.backward()" in plain


# -- an engine Tensor graph as a document (playground.show) ----------------------------------


def test_an_engine_tensor_graph_becomes_a_document_that_computes_the_same():
    from engine import Tensor
    from engine.nn import functional
    from playground.graph.from_engine_tensors import document_from_tensors

    x = Tensor(X, label="X")
    w = Tensor([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]], requires_grad=True, label="W")
    b = Tensor([0.1, 0.2, 0.3], requires_grad=True, label="b")
    h = functional.linear(x, w, b).tanh()
    h.label = "h"
    loss = (h.softmax(axis=1) * 2).sum(axis=0).mean()
    loss.backward()
    doc = document_from_tensors([loss])
    kinds = [node.kind for node in doc.nodes]
    assert kinds.count("transpose") == 1 and "matmul" in kinds and "softmax" in kinds
    nodes = {node.label: node for node in doc.nodes if node.label}
    assert (nodes["X"].kind, nodes["W"].kind, nodes["b"].kind) == ("input", "parameter", "parameter")
    evaluation = evaluate(doc)
    assert float(evaluation.results[doc.output].value) == pytest.approx(loss.item(), abs=1e-12)
    np.testing.assert_allclose(evaluation.results[nodes["W"].id].grad, w.grad, atol=1e-12)
    np.testing.assert_allclose(evaluation.results[nodes["b"].id].grad, b.grad, atol=1e-12)
    assert doc.shape_of(nodes["h"].id) == (3, 3)
    assert GraphDocument.from_dict(doc.to_dict()) == doc


def test_an_engine_op_the_editor_lacks_is_refused_by_name():
    from engine import Tensor
    from playground.graph.from_engine_tensors import document_from_tensors

    x = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(ValueError, match="no node for the tensor op 'max'"):
        document_from_tensors([x.max()])
    with pytest.raises(ValueError, match="past the editor's limits"):
        document_from_tensors([Tensor(np.ones((2, 2, 2)), requires_grad=True).sum()])


@pytest.mark.parametrize("build_loss", [
    lambda x: x.sum(axis=0).sum(), lambda x: x.sum(axis=1, keepdims=True).mean(), lambda x: x.mean(),
    lambda x: x.sum(keepdims=True).sum(), lambda x: x.softmax(axis=0).log().sum(),
    lambda x: x.log_softmax(axis=1).mean(axis=0).sum(),
])
def test_parameters_come_back_after_backward_freed_the_context(build_loss):
    from engine import Tensor
    from playground.graph.from_engine_tensors import document_from_tensors

    for retain in (True, False):
        x = Tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], requires_grad=True, label="x")
        loss = build_loss(x)
        loss.backward(retain_graph=retain)
        evaluation = evaluate(document_from_tensors([loss]))
        assert float(evaluation.results[evaluation.output].value) == pytest.approx(loss.item(), abs=1e-12)
        leaf = next(n for n, r in evaluation.results.items() if r.grad is not None and np.shape(r.grad) == (2, 3))
        np.testing.assert_allclose(evaluation.results[leaf].grad, x.grad, atol=1e-12)


def test_inserting_a_node_whose_shapes_do_not_fit_is_refused_before_anything_changes():
    from playground.graph import edits

    doc = layer()
    before = doc.to_dict()
    with pytest.raises(ValueError, match="cross_entropy: the logits need shape"):
        edits.insert_on_wire(doc, Node("ce", "cross_entropy"), Edge("b", "Z", 1))
    assert doc.to_dict() == before
    edit = edits.insert_on_wire(doc, Node("s", "softmax"), Edge("H", "L", 0))
    edit.apply(doc)
    assert doc.shape_of("s") == (3, 2) and float(evaluate(doc).results["L"].value) == pytest.approx(3.0)
    edit.revert(doc)
    assert doc.to_dict() == before


def test_node_and_wire_texts_give_shape_value_gradient_and_the_sum_back():
    from playground.graph.tensor_text import node_text, wire_text

    doc = build([("X", "input", np.ones((3, 2))), ("b", "parameter", B), ("Z", "add", None), ("L", "reduce_sum", None)],
                [("X", "Z", 0), ("b", "Z", 1), ("Z", "L", 0)])
    evaluation = evaluate(doc)
    assert node_text(doc, evaluation, "b") == "b  shape (2,)  value [0.5, -0.5]  grad [3, 3]"
    assert wire_text(doc, evaluation, Edge("b", "Z", 1)) == (
        "b → Z (input 'b')  shape (2,)  grad [3, 3]\n"
        "b was broadcast over axis 0 of (3, 2): its gradient sums over that axis, (3, 2) → (2,)")
    assert wire_text(doc, evaluation, Edge("X", "Z", 0)) == (
        "X → Z (input 'a')  shape (3, 2)  grad [[1, 1], [1, 1], [1, 1]]")
    big = build([("x", "input", np.arange(100.0))], [])
    text = node_text(big, evaluate(big), "x")
    assert "61, 62, 63, …]" in text and text.endswith("grad [" + "1, " * 64 + "…]")


KIND_CASES = {  # kind: (operand values, params); each graph ends in a sum so the output is one number
    "add": ([[[1.0, 2.0], [3.0, 4.0]], [0.5, -1.0]], {}), "sub": ([[0.5, 2.0], [[1.0], [3.0]]], {}),
    "mul": ([[[1.0, 2.0], [3.0, 4.0]], [0.5, -1.0]], {}), "div": ([[1.0, 2.0], [[4.0], [0.5]]], {}),
    "pow": ([[[1.5, 2.0], [3.0, 0.5]], [2.0, 0.5]], {}), "neg": ([[1.0, -2.0]], {}),
    "exp": ([[0.1, -2.0]], {}), "log": ([[0.5, 2.0]], {}), "tanh": ([[0.3, -1.2]], {}),
    "sigmoid": ([[0.3, -1.2]], {}), "relu": ([[0.3, -1.2]], {}), "abs": ([[0.3, -1.2]], {}),
    "matmul": ([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]]], {}),
    "transpose": ([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], {}),
    "reduce_sum": ([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], {"axis": 1, "keepdims": True}),
    "reduce_mean": ([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], {"axis": 0}),
    "reshape": ([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], {"shape": (3, -1)}),
    "softmax": ([[[1.0, 2.0, 3.0], [4.0, 5.0, 9.0]]], {"axis": 0}),
    "log_softmax": ([[[1.0, 2.0, 3.0], [4.0, 5.0, 9.0]]], {"axis": 1}),
    "mse": ([[[1.0, 2.0], [3.0, 4.0]], [[0.0, 2.5], [3.0, 1.0]]], {}),
    "cross_entropy": ([[[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], [2.0, 0.0]], {}),
}


@pytest.mark.parametrize("kind_name", sorted(KIND_CASES))
def test_every_tensor_op_gives_pytorchs_value_and_gradients_in_float64(kind_name, capsys):
    from playground.graph.export_code import to_python

    operands, params = KIND_CASES[kind_name]
    nodes = [(f"a{i}", "parameter", value) for i, value in enumerate(operands)]
    nodes += [("op", kind_name, params), ("out", "reduce_sum", None)]
    # weight the elements so that every element's gradient differs: out = sum(op * arange)
    doc = build(nodes, [(f"a{i}", "op", i) for i in range(len(operands))])
    doc.add_node(Node("w", "constant", value=np.arange(1.0, 1.0 + np.prod(doc.shape_of("op"))).reshape(
        doc.shape_of("op"))))
    doc.add_node(Node("weighted", "mul"))
    for edge in (Edge("op", "weighted", 0), Edge("w", "weighted", 1), Edge("weighted", "out", 0)):
        doc.add_edge(edge)
    exec(compile(to_python(doc, use_torch=True), "exported.py", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(doc.nodes) and all(line.endswith("torch_agrees=True") for line in lines), lines
    editor = evaluate(doc).results  # the editor's own evaluation prints the same gradients as the script
    assert f"grad={np.asarray(editor['a0'].grad).tolist()}" in next(line for line in lines if line.startswith("a0 "))


def test_a_generator_must_make_the_values_shape():
    with pytest.raises(ValueProblem, match=r"ones\(3\) makes shape \(3,\), not the value's \(2,\)"):
        Node("x", "input", value=[1.0, 2.0], generator=Generator("ones", (3,)))
    with pytest.raises(ValueProblem, match="computed: it has no generator"):
        Node("t", "tanh", generator=Generator("ones", (3,)))
    doc = layer()
    with pytest.raises(ValueProblem, match="makes shape"):
        doc.set_value("b", [1.0, 2.0], Generator("zeros", (1, 2)))
    assert doc.node("b").generator is None and np.array_equal(doc.node("b").value, B)

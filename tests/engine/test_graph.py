"""`engine.graph.to_networkx`: the computation graph as a networkx MultiDiGraph."""

import networkx as nx
import numpy as np

from engine import Tensor, Value
from engine.graph import to_networkx


def _hand_traced():
    a, b, c, d = Value(2.0, label="a"), Value(3.0, label="b"), Value(4.0, label="c"), Value(5.0, label="d")
    ab = a * b
    left = ab + c
    right = a + d
    out = left * right
    out.backward()
    return a, b, c, d, ab, left, right, out


def test_hand_traced_example_nodes_ops_and_grads():
    a, b, c, d, ab, left, right, out = _hand_traced()
    assert out.data == 70.0
    graph = to_networkx(out)
    assert isinstance(graph, nx.MultiDiGraph)
    assert set(graph.nodes) == {a, b, c, d, ab, left, right, out}
    assert graph.number_of_nodes() == 8
    ops = nx.get_node_attributes(graph, "op")
    assert ops == {a: "", b: "", c: "", d: "", ab: "*", left: "+", right: "+", out: "*"}
    data = nx.get_node_attributes(graph, "data")
    assert data == {a: 2.0, b: 3.0, c: 4.0, d: 5.0, ab: 6.0, left: 10.0, right: 7.0, out: 70.0}
    grads = nx.get_node_attributes(graph, "grad")
    # dL/da = b*(a+d) + (ab+c) = 21 + 10, dL/db = a*(a+d), dL/dc = a+d, dL/dd = ab+c
    assert {a: 31.0, b: 14.0, c: 7.0, d: 10.0}.items() <= grads.items()
    assert grads[out] == 1.0 and grads[left] == 7.0 and grads[right] == 10.0 and grads[ab] == 7.0
    labels = nx.get_node_attributes(graph, "label")
    assert [labels[n] for n in (a, b, c, d)] == ["a", "b", "c", "d"]


def test_hand_traced_example_edges_run_from_operand_to_result_keyed_by_position():
    a, b, c, d, ab, left, right, out = _hand_traced()
    graph = to_networkx(out)
    edges = set(graph.edges(keys=True))
    assert edges == {
        (a, ab, 0), (b, ab, 1),
        (ab, left, 0), (c, left, 1),
        (a, right, 0), (d, right, 1),
        (left, out, 0), (right, out, 1),
    }
    assert all(attrs["index"] == key for _, _, key, attrs in graph.edges(keys=True, data=True))
    assert nx.is_directed_acyclic_graph(graph)
    assert [n for n in graph if graph.in_degree(n) == 0] == [n for n in graph if n.op == ""]
    assert [n for n in graph if graph.out_degree(n) == 0] == [out]
    assert graph.out_degree(a) == 2  # a feeds two ops
    # every topological order of the graph puts a value after everything it was computed from
    order = list(nx.topological_sort(graph))
    assert order.index(out) == 7 and order.index(a) < order.index(ab) < order.index(left)


def test_x_times_x_gives_two_parallel_edges():
    x = Value(3.0)
    y = x * x
    y.backward()
    graph = to_networkx(y)
    assert graph.number_of_nodes() == 2
    assert graph.number_of_edges(x, y) == 2
    assert sorted(graph[x][y]) == [0, 1]
    assert graph.nodes[x]["grad"] == 6.0
    assert nx.is_directed_acyclic_graph(graph)


def test_a_leaf_alone_is_one_node():
    x = Value(1.0)
    graph = to_networkx(x)
    assert list(graph.nodes) == [x] and graph.number_of_edges() == 0


def test_before_backward_grads_are_zero():
    a, b = Value(1.0), Value(2.0)
    graph = to_networkx(a * b + a)
    assert all(g == 0.0 for g in nx.get_node_attributes(graph, "grad").values())


def test_tensor_graph():
    x = Tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True, label="x")
    w = Tensor([0.5, -1.0], requires_grad=True, label="w")
    h = (x * w).tanh()
    loss = h.sum()
    loss.backward()
    graph = to_networkx(loss)
    prod = h.parents[0]
    assert set(graph.nodes) == {x, w, prod, h, loss}
    assert nx.get_node_attributes(graph, "op") == {x: "", w: "", prod: "*", h: "tanh", loss: "sum"}
    assert set(graph.edges(keys=True)) == {(x, prod, 0), (w, prod, 1), (prod, h, 0), (h, loss, 0)}
    assert nx.is_directed_acyclic_graph(graph)
    np.testing.assert_array_equal(graph.nodes[x]["data"], x.data)
    t = np.tanh(x.data * w.data)
    np.testing.assert_allclose(graph.nodes[x]["grad"], (1 - t**2) * w.data, rtol=1e-15)
    np.testing.assert_allclose(graph.nodes[w]["grad"], ((1 - t**2) * x.data).sum(axis=0), rtol=1e-15)
    assert graph.nodes[h]["grad"] is None  # as PyTorch, only leaves keep their grad
    assert graph.nodes[x]["label"] == "x"


def test_tensor_graph_with_a_constant_and_a_repeated_operand():
    x = Tensor([1.0, -2.0], requires_grad=True)
    y = (x * x + 3.0).sum()
    graph = to_networkx(y)
    square = y.parents[0].parents[0]
    const = y.parents[0].parents[1]
    assert graph.number_of_edges(x, square) == 2 and sorted(graph[x][square]) == [0, 1]
    assert const in graph and graph.nodes[const]["op"] == "" and float(const.data) == 3.0
    assert graph.number_of_nodes() == 5 and nx.is_directed_acyclic_graph(graph)

"""The exported Python script rebuilds the graph and prints exactly what the editor computes."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.graph.export_code import to_python

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^\s*(?P<name>.*?)  value=(?P<value>\S+)  grad=(?P<grad>\S+)(?:  torch_grad=(?P<torch>\S+))?$")


def build(nodes, edges, output=None) -> GraphDocument:
    """nodes: (id, kind, label, value) or (id, kind, label, value, inputs); edges: (source, target, port)."""
    doc = GraphDocument()
    for i, (node_id, kind, label, value, *inputs) in enumerate(nodes):
        doc.add_node(Node(node_id, kind, 180.0 * i, 0.0, label, value, inputs[0] if inputs else 0))
    for source, target, port in edges:
        doc.add_edge(Edge(source, target, port))
    if output is not None:
        doc.set_output(output)
    return doc


def square():
    return build([("n1", "input", "x", 3.0), ("n2", "mul", "y", 0.0)], [("n1", "n2", 0), ("n1", "n2", 1)])


def diamond():
    # x feeds sin and exp, which meet again in a product; then tanh.
    return build(
        [("n1", "input", "x", 1.5), ("n2", "sin", "a", 0.0), ("n3", "exp", "b", 0.0), ("n4", "mul", "ab", 0.0),
         ("n5", "tanh", "f", 0.0)],
        [("n1", "n2", 0), ("n1", "n3", 0), ("n2", "n4", 0), ("n3", "n4", 1), ("n4", "n5", 0)],
    )


def five_term_sum():
    nodes = [(f"n{i}", "parameter", f"w{i}", 0.1 * i - 0.25) for i in range(1, 5)]
    nodes += [("n5", "cos", "c", 0.0), ("n6", "sum", "s", 0.0, 5), ("n7", "sigmoid", "p", 0.0),
              ("n8", "sum", "single", 0.0, 1), ("n9", "abs", "out", 0.0)]
    edges = [(f"n{i}", "n6", i - 1) for i in range(1, 5)] + [("n1", "n5", 0), ("n5", "n6", 4), ("n6", "n7", 0),
                                                             ("n7", "n8", 0), ("n8", "n9", 0)]
    return build(nodes, edges)


def pow_with_parameter():
    return build(
        [("n1", "input", "base", 1.7), ("n2", "parameter", "p", 2.5), ("n3", "pow", "y", 0.0),
         ("n4", "constant", "one", 1.0), ("n5", "sub", "d", 0.0), ("n6", "relu", "r", 0.0),
         ("n7", "div", "q", 0.0)],
        [("n1", "n3", 0), ("n2", "n3", 1), ("n3", "n5", 0), ("n4", "n5", 1), ("n5", "n6", 0), ("n6", "n7", 0),
         ("n2", "n7", 1)],
    )


def log_neg_chain():
    return build(
        [("n1", "input", "x", 0.3), ("n2", "log", "lx", 0.0), ("n3", "neg", "nlx", 0.0), ("n4", "log", "llx", 0.0),
         ("n5", "neg", "out", 0.0)],
        [("n1", "n2", 0), ("n2", "n3", 0), ("n3", "n4", 0), ("n4", "n5", 0)],
    )


def awkward_names():
    """Labels that are not usable as names, an output chosen in the middle, a node that is not upstream."""
    return build(
        [("n1", "input", "print", 0.1), ("n2", "input", "x 1", 1 / 3), ("n3", "input", "h", -0.0),
         ("n4", "mul", "h", 0.0), ("n5", "add", "for", 0.0), ("n6", "mul", "Value", 0.0),
         ("n7", "mul", "", 0.0), ("n8", "add", "mul_n7", 0.0), ("n9", "tanh", "α", 0.0),
         ("n10", "exp", 'say "hi"', 0.0), ("n11", "parameter", "unused", 2.0)],
        [("n1", "n4", 0), ("n2", "n4", 1), ("n4", "n5", 0), ("n3", "n5", 1), ("n5", "n6", 0), ("n5", "n6", 1),
         ("n6", "n7", 0), ("n2", "n7", 1), ("n7", "n8", 0), ("n6", "n8", 1), ("n8", "n9", 0), ("n9", "n10", 0)],
        output="n9",
    )


def bad_numbers():
    """1/0 = inf, log(-1) = nan and a nan leaf: the script prints the same nan and inf."""
    return build(
        [("n1", "input", "one", 1.0), ("n2", "input", "zero", 0.0), ("n3", "div", "q", 0.0),
         ("n4", "constant", "minus_one", -1.0), ("n5", "log", "l", 0.0), ("n6", "input", "nothing", math.nan),
         ("n7", "constant", "big", -math.inf), ("n8", "sum", "s", 0.0, 3)],
        [("n1", "n3", 0), ("n2", "n3", 1), ("n4", "n5", 0), ("n3", "n8", 0), ("n5", "n8", 1), ("n6", "n8", 2)],
    )


DOCUMENTS = [square, diamond, five_term_sum, pow_with_parameter, log_neg_chain, awkward_names]


def run_script(source: str, tmp_path: Path) -> list[dict]:
    script = tmp_path / "exported.py"
    script.write_text(source, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = [LINE.match(line) for line in done.stdout.splitlines() if line.strip()]
    assert all(rows), done.stdout
    return [row.groupdict() for row in rows]


def same_float(printed: str, expected: float) -> bool:
    x = float(printed)
    return (math.isnan(x) and math.isnan(expected)) or (x == expected and math.copysign(1, x) == math.copysign(
        1, expected))


def check_against_evaluate(document: GraphDocument, rows: list[dict]) -> None:
    evaluation = evaluate(document)
    order = document.topological_order()
    assert [row["name"] for row in rows] == [document.name(n) for n in order]
    for node_id, row in zip(order, rows):
        result = evaluation.results[node_id]
        assert same_float(row["value"], result.value), (node_id, row, result)
        # A node the output does not depend on: the editor shows no gradient, the engine leaves 0.0.
        expected_grad = 0.0 if result.grad is None else result.grad
        assert same_float(row["grad"], expected_grad), (node_id, row, result)


@pytest.mark.parametrize("make", DOCUMENTS + [bad_numbers], ids=lambda f: f.__name__)
def test_exported_script_prints_exactly_what_evaluate_computes(make, tmp_path):
    document = make()
    source = to_python(document)
    assert source.startswith("# Exported by Autograd Playground")
    assert "torch" not in source
    check_against_evaluate(document, run_script(source, tmp_path))


@pytest.mark.parametrize("make", DOCUMENTS, ids=lambda f: f.__name__)
def test_pytorch_part_agrees(make, tmp_path):
    document = make()
    rows = run_script(to_python(document, use_torch=True), tmp_path)
    check_against_evaluate(document, rows)
    evaluation = evaluate(document)
    for node_id, row in zip(document.topological_order(), rows):
        ours = evaluation.results[node_id].grad
        if ours is None:
            assert row["torch"] == "None", (node_id, row)
        else:
            assert math.isclose(float(row["torch"]), ours, rel_tol=1e-12, abs_tol=1e-300), (node_id, row)


def test_script_reads_like_the_graph():
    source = to_python(build(
        [("n1", "input", "x1", 2.0), ("n2", "parameter", "w1", -3.0), ("n3", "mul", "", 0.0),
         ("n4", "sum", "s", 0.0, 3), ("n5", "pow", "p", 0.0), ("n6", "tanh", "o", 0.0)],
        [("n1", "n3", 0), ("n2", "n3", 1), ("n3", "n4", 0), ("n1", "n4", 1), ("n2", "n4", 2),
         ("n4", "n5", 0), ("n1", "n5", 1), ("n5", "n6", 0)],
    ), use_torch=True)
    assert 'x1 = Value(2.0, label="x1")' in source
    assert "t1 = x1 * w1" in source  # an unlabelled result has the name the card shows
    assert "s = Value.sum([t1, x1, w1])" in source
    assert "p = s ** x1" in source
    assert "o = p.tanh()" in source
    assert "o.backward()" in source
    assert "x1_t = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)" in source
    assert "o_t = torch.tanh(p_t)" in source
    assert "s_t = t1_t + x1_t + w1_t" in source
    assert "retain_grad()" in source
    compile(source, "exported.py", "exec")


def test_unusable_labels_are_made_valid_and_unique():
    source = to_python(awkward_names())
    assert "print_2 = Value(0.1, label=\"print\")" in source  # 'print' would shadow the builtin
    assert f"x_1 = Value({1 / 3!r}, label=\"x 1\")" in source
    assert "h = Value(-0.0, label=\"h\")" in source  # 'h' is used twice: the first one keeps it
    assert "h_2 = print_2 * x_1" in source
    assert "for_2 = h_2 + h" in source  # 'for' is a keyword
    assert "Value_2 = for_2 * for_2" in source  # 'Value' is the engine class
    assert "t1 = Value_2 * x_1" in source  # unlabelled: t1, as on its card
    assert "mul_n7 = t1 + Value_2" in source
    assert "α = mul_n7.tanh()" in source
    assert "α.backward()" in source
    assert "say__hi_.label = 'say \"hi\"'" in source  # results' labels are set as micrograd's lecture does
    assert 'show(\'say "hi"\', say__hi_)' in source


def test_exact_literals_for_awkward_numbers():
    source = to_python(bad_numbers())
    assert 'Value(float("nan"), label="nothing")' in source
    assert 'Value(-float("inf"), label="big")' in source
    assert 'Value(-0.0' in to_python(awkward_names())


def test_incomplete_graph_is_refused_with_the_missing_port():
    document = build([("n1", "input", "x", 1.0), ("n2", "pow", "y", 0.0)], [("n1", "n2", 0)])
    with pytest.raises(ValueError, match="input 'exp' of y is not connected"):
        to_python(document)


def test_empty_graph_is_refused():
    with pytest.raises(ValueError, match="empty"):
        to_python(GraphDocument())


def test_single_leaf_exports(tmp_path):
    document = build([("n1", "input", "x", 4.5)], [])
    rows = run_script(to_python(document, use_torch=True), tmp_path)
    assert rows == [{"name": "x", "value": "4.5", "grad": "1.0", "torch": "1.0"}]

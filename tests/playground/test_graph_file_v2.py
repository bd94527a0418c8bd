"""Graph file version 2 (issue 19): arrays, tensor kinds, parameters and generators, checked whole at the door."""

from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

from playground.graph.arrays import Generator
from playground.graph.document import DocumentFormatError, Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.graph.file_io import save_document
from playground.shell.file_kinds import read_any


def tensor_document() -> GraphDocument:
    doc = GraphDocument()
    doc.add_node(Node("n1", "input", 0, 0, "X", [[1.0, 2.0], [3.0, 4.0], [5.0, math.nan]]))
    doc.add_node(Node("n2", "parameter", 0, 110, "W", Generator("randn", (2, 2), 0).values(),
                      generator=Generator("randn", (2, 2), 0)))
    doc.add_node(Node("n3", "matmul", 180, 55))
    doc.add_node(Node("n4", "reduce_sum", 360, 55, params={"axis": 0, "keepdims": True}))
    doc.add_edge(Edge("n1", "n3", 0))
    doc.add_edge(Edge("n2", "n3", 1))
    doc.add_edge(Edge("n3", "n4", 0))
    return doc


def v2() -> dict:
    return json.loads(json.dumps(tensor_document().to_dict()))


def test_a_tensor_graph_is_written_as_version_2_and_reads_back_equal():
    data = v2()
    assert data["version"] == 2
    assert data["nodes"][0]["value"][2][0] == 5.0 and math.isnan(data["nodes"][0]["value"][2][1])
    assert data["nodes"][1]["generator"] == {"name": "randn", "shape": [2, 2], "seed": 0}
    assert data["nodes"][3]["params"] == {"axis": 0, "keepdims": True}
    back = GraphDocument.from_dict(data)
    assert back == tensor_document() and back.shape_of("n4") == (1, 2)
    assert back.node("n2").generator == Generator("randn", (2, 2), 0)


def test_a_scalar_graph_is_still_written_as_version_1():
    doc = GraphDocument()
    doc.add_node(Node("n1", "input", value=2.0))
    assert doc.to_dict()["version"] == 1 and "params" not in doc.to_dict()["nodes"][0]


def test_a_saved_tensor_graph_opens_from_disk_and_evaluates_the_same(tmp_path):
    doc = tensor_document()
    doc.set_value("n1", [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    path = tmp_path / "layer.json"
    save_document(path, doc)
    opened = read_any(path).content
    np.testing.assert_array_equal(evaluate(opened).results["n2"].grad, evaluate(doc).results["n2"].grad)
    np.testing.assert_array_equal(evaluate(opened).results["n2"].grad, [[9.0, 9.0], [12.0, 12.0]])


def _with(path: list, value) -> dict:
    data = v2()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = copy.deepcopy(value)
    return data


_DELETE = object()

BAD = {
    "ragged rows": (["nodes", 0, "value"], [[1, 2], [3]],
                    "nodes[0].value: rows 0 and 1 differ: 2 numbers and 1 number"),
    "text in an array": (["nodes", 0, "value"], [[1, "x"]], "nodes[0].value: expected a number or a list of rows of "
                                                            "numbers, got 'x'"),
    "three dimensions": (["nodes", 0, "value"], [[[1]]], "nodes[0].value: at most 2 dimensions are allowed"),
    "too many elements": (["nodes", 0, "value"], [0.0] * 4097, "nodes[0].value: shape (4097,) holds 4,097 "
                                                               "elements; at most 4,096"),
    "an empty list": (["nodes", 0, "value"], [], "nodes[0].value: an empty list has no values"),
    "unknown parameter": (["nodes", 3, "params"], {"axes": 0}, "nodes[3]: params: reduce_sum has no parameter 'axes'"),
    "axis out of range": (["nodes", 3, "params"], {"axis": 7}, "nodes[3]: params: reduce_sum: axis must be a whole "
                                                               "number from -2 to 1"),
    "generator of another shape": (["nodes", 1, "generator"], {"name": "zeros", "shape": [3]},
                                   "nodes[1]: generator: it makes shape (3,), but the value has shape (2, 2)"),
    "unknown generator": (["nodes", 1, "generator", "name"], "gauss", "nodes[1].generator.name: expected 'zeros'"),
    "seed on zeros": (["nodes", 1, "generator"], {"name": "zeros", "shape": [2, 2], "seed": 1},
                      "nodes[1].generator: zeros is not random: it takes no seed"),
    "a computed node with a value": (["nodes", 2, "value"], [1.0], "nodes[2]: a matmul node has no 'value'"),
    "shapes that do not combine": (["nodes", 1, "value"], [[1.0, 2.0, 3.0]],
                                   "nodes[2]: the shapes of its inputs do not combine: (3, 2) @ (1, 3): the inner "
                                   "sizes 2 and 1 differ"),
    "unknown field": (["nodes", 0, "shape"], [3, 2], "nodes[0].shape: not a field of this file"),
    "a newer version": (["version"], 3, "the file uses format version 3, written by a newer Autograd Playground; "
                                        "this one reads version 2"),
}


@pytest.mark.parametrize("name", BAD)
def test_a_malformed_version_2_file_is_refused_whole_naming_the_field(name):
    path, value, words = BAD[name]
    data = _with(path, value)
    if name == "shapes that do not combine":
        data["nodes"][1].pop("generator")
    with pytest.raises(DocumentFormatError) as refused:
        GraphDocument.from_dict(data)
    assert words in str(refused.value)


def test_version_1_files_hold_scalar_kinds_and_numbers_only():
    data = v2()
    data["version"] = 1
    with pytest.raises(DocumentFormatError, match="nodes\\[0\\].value: expected a number, got a list of 3"):
        GraphDocument.from_dict(data)
    scalar = {"format": "autograd-playground-graph", "version": 1, "output": None, "edges": [],
              "nodes": [{"id": "n1", "kind": "matmul", "x": 0.0, "y": 0.0, "label": ""}]}
    with pytest.raises(DocumentFormatError, match="nodes\\[0\\].kind: expected 'input'"):
        GraphDocument.from_dict(scalar)


def test_the_readme_version_2_example_opens_and_evaluates():
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = next(b for b in re.findall(r"```json\n(.*?)```", readme, re.S) if '"version": 2' in b)
    document = GraphDocument.from_dict(json.loads(block))
    assert document.to_dict()["version"] == 2 and document.shape_of("n6") == ()
    evaluation = evaluate(document)
    # b's gradient sums the ones of L = sum(X @ W + b) over the batch of 3: [3, 3]
    np.testing.assert_array_equal(evaluation.results["n3"].grad, [3.0, 3.0])
    assert document.node("n2").generator == Generator("randn", (2, 2), 0)

"""The backward animator's replay of an editor graph that holds tensors. Qt-free.

The editor evaluates such a graph with engine Tensors (`graph.tensor_evaluate.build_tensors`, then the
output's backward steps). The animator builds the same tensors with the same function (the editor's own
evaluation has already run its backward, which frees the graph as PyTorch does) and replays them at tensor
level with `graph_animation`: each node titled with the document's name for it (X, W, t1, ...), and where
an operand was broadcast the step says over which axes its gradient was summed back.
"""

from __future__ import annotations

from engine import Tensor

from ...graph.document import GraphDocument
from ...graph.tensor_evaluate import build_tensors
from .tensor_timeline import TensorAnimation, graph_animation

# What the editor's leaves are, as the document knows them: data (a batch X) has its gradient computed as well
# (a lesson asks for its shape), but training never changes it.
LEAF_ROLES = {"input": ("input", "an input (data): its gradient is computed, but nothing learns it"),
              "parameter": ("parameter", "a parameter: learned, training changes it")}


def document_animation(document: GraphDocument) -> TensorAnimation:
    """The forward and backward pass of ``document`` (a tensor graph) as the engine computes it; raises
    ``ValueError`` saying why when it cannot be shown (an input not connected, no scalar output)."""
    tensors, output = document_tensors(document)
    roles = {id(tensors[node.id]): LEAF_ROLES[node.kind] for node in document.nodes
             if node.kind in LEAF_ROLES and node.id in tensors}
    return graph_animation(output, roles)


def document_tensors(document: GraphDocument) -> tuple[dict[str, Tensor], Tensor]:
    """A fresh engine Tensor per node of ``document`` (named as the document names them), and its scalar output;
    ``ValueError`` saying why when there is none (an input not connected, no scalar output)."""
    output_id = document.effective_output()
    if output_id is None:
        raise ValueError("the graph is empty")
    tensors, missing, problems = build_tensors(document)
    for node_id, ports in missing.items():
        raise ValueError(f"input '{ports[0]}' of {document.name(node_id)} is not connected")
    for node_id, problem in problems.items():
        raise ValueError(f"{document.name(node_id)}: {problem}")
    output = tensors.get(output_id)
    if output is None:
        raise ValueError(f"{document.name(output_id)} cannot be computed")
    if output.shape != ():
        raise ValueError(f"the output {document.name(output_id)} has shape {output.shape}: reduce it to a "
                         "single number (a loss) first, e.g. with a sum node")
    for node_id, tensor in tensors.items():  # this build's own tensors: name them as the document does
        tensor.label = document.name(node_id)
    return tensors, output

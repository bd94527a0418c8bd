"""The graph, Qt-free: the centre of the house. The editor edits it, the animator replays it, the training
tab trains it, a lesson asks about it; none of them owns it.

One entry point per concern:
- `document`: `GraphDocument`, the nodes, wires and output as plain Python, with subscribers for changes;
  `edits` are its undoable changes (each with its exact inverse), `concealment` what a quiz hides of it.
- `catalog`: every node kind (ports, formula, engine op, palette group); `shapes` how a kind's output shape
  follows from its inputs' (`shape_check` applies it to a document); `arrays` a leaf's number or array.
- `evaluate` (scalar graphs) and `tensor_evaluate` (arrays): forward and backward through the engine;
  `gradient_check` against finite differences; `why_gradient` a gradient as a sum over paths.
- `expression` (with `expression_tensors`): a typed formula read with `ast` into a document.
- `graph_file`: the graph file, checked whole at the door (`check` reads version 1 or 2; `file_format` holds
  what both share, `graph_file_v2` the second); `file_io` loads and saves a document.
- `layout` (with `tensor_layout`): automatic placement; `tensor_labels`, `tensor_text`: what a tensor node
  and wire say in words; `outline`: every node and wire in one sentence each, for a screen reader.
- `from_engine` (and `from_engine_tensors`): an engine result as a document (`playground.show`);
  `export_code` (and `export_tensors`): a document as a Python script.

May import: the engine, `playground.common` and `playground.files`. Never Qt, never a panel or the canvas.
"""

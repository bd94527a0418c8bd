"""The graph editor tab: build a computation graph by drag and drop, by keys or by typing an expression, and
see every value and gradient live. Its model is the graph itself (`playground.graph`): it has no `model/` of
its own, and every edit is one `QUndoCommand` (`commands`) wrapping one of the graph's `edits`.

- `panel`: `EditorPanel`, the tab: palette, canvas, expression box, properties and gradient check around one
  document. `scene`: `GraphScene`, the canvas's scene that follows the document and turns mouse and keys into
  edits, built of parts (`scene_part`): `wire_drag`, `moves`, `value_editor`, `context_menu`, `palette_drops`,
  `canvas_edits`, `new_nodes`.
- `palette`: every node kind, grouped and searchable; `properties` (with `tensor_properties`): the selected
  node's label, value, slider, array and parameters; `outline_room`: the graph outline for a screen reader,
  in step with the canvas.

May import: Qt, `playground.canvas`, `playground.widgets`, `playground.graph`, `playground.common`. Never another
panel, never the shell (it speaks to the window through its signals).
"""

"""The canvas: the Qt drawing of a graph, shared by every panel that shows one (the editor, the animator and,
next, the training tab). It draws the graph's document and holds no state of its own.

- `view`: `GraphView`, zoom and pan, fit (`view_hint` when a fitted graph is too big), its `minimap`, and Tab's
  `quick_search`; `give_way`: the panels beside a view close by themselves when the graph needs the room.
- `card_scene`: a scene of `cards` (`node_card` for a graph node, `array_drawing` for an array's numbers or
  heat map) and `wires`; `style`: the light, dark and high-contrast palettes, fonts and level of detail.
- `follower`: a document's changes as a Qt signal, held weakly; `path_list`: the "Why this gradient?" list;
  `outline_view`: a graph as a tree of sentences a screen reader reads (the editor's and the animator's outlines).

May import: Qt, `playground.graph`, `playground.widgets`, `playground.common`. Never a panel or the shell:
a panel installs what is its own (the editor's gestures and menus live in `playground.editor`).
"""

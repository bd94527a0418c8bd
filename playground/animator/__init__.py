"""The backward-pass animator tab: step through the chain rule node by node, forwards and backwards in time,
replayed from the engine's own steps (backward, forward mode, a tensor graph, the training network).

- `model/`: the Qt-free timelines, pitfall replays, Predict's checking and what a quiz hides; see its docstring.
- `panel`: `AnimatorPanel`, the tab, composed of `arrangement` (the layout), `player` and `playback` (the
  current step, play and pause), `controls`, `step_panel` and `step_text` (the step in words), `step_caption`,
  `scene` and `scene_sync` (the graph on the shared canvas, coloured by the step), `view_fit` and `following`
  (the step kept in view), `forward_view`, `path_view`, `pitfall_view`, `predict_view`, `hiding`, `keys`;
  for a screen reader, `step_reading` (each step as the view's description) and `graph_outline` (every node's
  state at this step).
- `exporting` and `export` (with `frame_image`): an animated GIF or one PNG per step.

May import: Qt, `playground.canvas`, `playground.widgets`, `playground.graph`, `playground.common`. Never another
panel, never the shell.
"""

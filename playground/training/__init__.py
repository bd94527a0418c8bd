"""The training tab: a network learns two moons (and friends, up to eight classes, or a regression) live, on
the engine, off the GUI thread, drawn neuron by neuron.

- `model/`: the Qt-free model (settings, points, network, grid, session, health, setup file, ...); see its
  docstring.
- `worker` runs a session in a QThread (`worker_threads` its plumbing, `worker_link` the panel's end,
  `race_worker` the optimizer race); `painting` paints a frame as it arrives, `picture` turns it into what the
  diagram draws.
- `panel` (`TrainingPanel`) composes the rooms: `toolbar`, `status_line`, `body`, `data_controls`,
  `network_controls`, `settings_form`, `stop_controls`, `network_view` (with `neuron_map`), `boundary_plot`
  (with `boundary_view`), `curves` (with `confusion`, `gradient_plot`); `edits` makes a typed weight undoable,
  `reset_confirmation` asks before a trained network goes, `compare` races optimizers, `exports` saves pictures.

May import: Qt, pyqtgraph, `playground.canvas`, `playground.widgets`, `playground.graph`, `playground.files`,
`playground.common`. Never another panel, never the shell.
"""

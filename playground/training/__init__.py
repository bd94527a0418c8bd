"""The training panel: a network learns two moons (and friends, up to eight classes) live, on the
engine, off the GUI thread, drawn neuron by neuron.

Qt-free model: `settings` (what a person sets), `points` (datasets, split, features), `network`
(model, optimizer, schedule, snapshots), `grid` (one batched pass over the plane: boundary and
every neuron's map), `contour`, `wires` (the diagram's wires drawn with numpy), `colours`,
`session` (one run). `worker` runs a session in a QThread. `panel` (`TrainingPanel`) composes the
rooms: `toolbar`, `status_line`, `data_controls`, `network_controls`, `network_view` (with
`neuron_map`), `boundary_plot` (with `boundary_view`), `curves` (with `confusion`); `picture` turns
a worker's frame into what the diagram draws, `edits` makes a typed weight undoable, and
`compare` races optimizers.
"""

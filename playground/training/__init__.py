"""The training panel: a network learns two moons (and friends, up to eight classes) live, on the
engine, off the GUI thread, drawn neuron by neuron.

The Qt-free model lives in `model` (settings, points, network, grid, session, setup file, ...).
`worker` runs a session in a QThread. `panel` (`TrainingPanel`) composes the rooms: `toolbar`,
`status_line`, `data_controls`, `network_controls`, `network_view` (with `neuron_map`),
`boundary_plot` (with `boundary_view`), `curves` (with `confusion`); `picture` turns a worker's
frame into what the diagram draws, `edits` makes a typed weight undoable, and `compare` races
optimizers.
"""

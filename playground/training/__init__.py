"""The training panel: a network learns two moons (and friends) live, on the engine, off the GUI thread.

`session` is the Qt-free model (settings, data, network, optimizer, boundary); `worker` runs it
in a QThread; `panel` (`TrainingPanel`) composes the rooms: `toolbar`, `status_line`,
`data_controls`, `network_controls`, `boundary_plot` and `curves`; `compare` races optimizers.
"""

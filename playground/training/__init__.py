"""The training panel: a network learns two moons (and friends) live, on the engine, off the GUI thread.

`session` is the Qt-free model (settings, data, network, optimizer, boundary); `worker` runs it
in a QThread; `panel` is the widget (`TrainingPanel`); `compare` races optimizers.
"""

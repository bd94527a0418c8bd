"""The training panel's Qt-free model: `settings` (what a person sets), `points` (datasets, split,
features), `network` (model, optimizer, schedule, snapshots), `grid` (one batched pass over the
plane: boundary and every neuron's map), `plane_process` (that pass in a process of its own while a run
goes on), `contour`, `wires` (the diagram's wires drawn with numpy),
`health` and `learned` (watching a run), `session` (one run), `summary`, `setup_file` and
`setup_schema` (a setup on disk), `export_script` (a run as a plain Python script).

May import: the engine, `playground.graph`, `playground.files`, `playground.common`. Never Qt (a contract in
pyproject.toml holds it)."""

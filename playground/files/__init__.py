"""The plumbing under every file kind, Qt-free: reading with checks at the door and writing atomically
(`disk`), the checks' shared helpers (`validation`: JSON parsed with limits, pydantic's errors in a
person's words), where the app's own files are (`paths`) and the recovery sets' storage, named and locked
by the instance that writes them (`recovery`).

Each kind's format lives with its model: graph files in `playground.graph`, training setups in
`playground.training.model`, lessons in `playground.learn.model`; telling a file's kind by its content is
the shell's (`playground.shell.file_kinds`).

May import: the standard library, pydantic and `playground.common`. Never Qt, never a model above it.
"""

"""Autograd Playground: the Qt desktop app (graph editor, backward-pass animator, training panel).

``playground.show(x)`` opens the app on the graph behind an engine result; importing this package
does not import Qt (``show`` does, when it is called).

The house, from the top floor down (each package's docstring says what lives there and what it may import;
the contracts in pyproject.toml hold it): `shell` (the main window), `learn` (the Learn panel), the three
panels `editor`, `animator`, `training` (each with its Qt-free `model/`, the editor's being the graph), the
shared `canvas` (the Qt drawing of a graph), `widgets`, the Qt-free `graph`, `files` (the plumbing under every
file kind) and `common`; the `engine` below them all.
"""

__version__ = "0.2.0"


def show(*args, **kwargs):
    """Open the app on the graph of an `engine.Value` (or a list of them); see `playground.shell.show_graph.show`."""
    from .shell.show_graph import show as _show

    return _show(*args, **kwargs)


__all__ = ["__version__", "show"]

"""Autograd Playground: the Qt desktop app (graph editor, backward-pass animator, training panel).

``playground.show(x)`` opens the app on the graph behind an engine result; importing this package
does not import Qt (``show`` does, when it is called).
"""

__version__ = "0.2.0"


def show(*args, **kwargs):
    """Open the app on the graph of an `engine.Value` (or a list of them); see `playground.shell.show_graph.show`."""
    from .shell.show_graph import show as _show

    return _show(*args, **kwargs)


__all__ = ["__version__", "show"]

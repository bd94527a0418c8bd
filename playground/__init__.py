"""Autograd Playground: the Qt desktop app (graph editor, backward-pass animator, training panel)."""

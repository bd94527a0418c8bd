"""The graph editor: a Qt-free document model (document, edits, evaluate, expression, layout) and its Qt view."""

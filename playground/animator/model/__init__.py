"""The animator's Qt-free model: the timeline replayed from the engine's steps (scalar and tensor), the
pitfall replays, Predict's checking, and what a quiz hides. Tested without Qt.

May import: the engine, `playground.graph`, `playground.common`. Never Qt (a contract in pyproject.toml holds it).
"""

"""The animator's Qt-free model: the timeline replayed from the engine's steps (scalar and tensor), the
pitfall replays, Predict's checking, and what a quiz hides. Tested without Qt; an import-linter contract
in pyproject keeps Qt out of it."""

"""Lessons: a Qt-free lesson model (format, engine facts, questions, runner) and the Learn panel that shows it."""

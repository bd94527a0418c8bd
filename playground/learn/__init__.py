"""The Learn panel: guided lessons that teach backpropagation inside the app.

- `model/`: the Qt-free lesson model (format, engine facts, questions, runner); see its docstring.
- `panel`: `LearnPanel`, the lesson list, a step's text, questions and feedback; `library`: the shipped lessons
  and the ones a person opened; `nudge_view`: nudge a value and watch the output move; `highlight`: the ring
  round a control a step points at.
- `driver`: `LessonDriver`, what a step does to the app, done through the window's public interface (each
  panel's public methods), never by reaching into another panel's widgets.

May import: Qt, `playground.canvas`, `playground.widgets`, the graph and the panels' Qt-free models. The shell
installs the panel (`playground.shell.learn_dock`) and hands the driver the window.
"""

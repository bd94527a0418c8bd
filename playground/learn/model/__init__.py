"""The lessons' Qt-free model: a lesson is data (a `.lesson` file), run by this model.

- `lesson`: the lesson file read whole, checked at the door (`markup`: its text with numbers from the engine).
- `facts`, `tensor_facts`, `network_graph_facts`, `health_facts`, `trained_facts`: every number a lesson states,
  computed by the engine from the step's graph or training setup (or the step's graph trained with it), never
  typed by hand; `step_numbers` says which gives a name.
- `questions`, `tensor_questions`, `health_questions`, `trained_questions`, `tensor_answers`: what a step asks
  and how an answer is read and checked; `slips`: the usual mistakes a wrong answer matches, named;
  `build_check` (`network_check` for a network the training tab trains): a graph the student built, compared
  with the step's by structure and shape.
- `runner`: `LessonRun`, one student's way through a lesson (the step, the answers, what is revealed).

May import: the engine, `playground.graph`, `playground.files`, `playground.common` and the other panels'
models (`playground.animator.model`, `playground.training.model`). Never Qt, never a panel's widgets.
"""

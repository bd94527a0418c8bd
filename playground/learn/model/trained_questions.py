"""A lesson's questions about its graph trained on the points (`trained_facts`): the test accuracy the run
reaches, read off the training tab, and how many numbers training adjusts, counted from the shapes.

Qt-free. They are `questions.Question`s of kind ``"trained"`` (no animator step: the accuracy is read off the
training tab, the count worked out from the parameters' shapes on the cards). An accuracy is right within half
a percentage point, typed as the tab shows it (``86.67%``, ``86.67``) or as a share (``0.8667``); a count
exactly. The likeliest slips (the training accuracy for the test accuracy; the number of parameters for the
number of their numbers; the weights without the biases) are told what they are.
"""

from __future__ import annotations

import math

import numpy as np

from ...animator.model.predict import read_number
from ...common.numbers import format_number
from ...graph.network import plan_training
from ...training.model.learned import percent
from .questions import Feedback, Question
from .trained_facts import settings_of, trained_graph

TRAINED = "trained"  # the kind of a question about the trained graph (`Question.what`)
HALF_POINT = 0.5  # an accuracy read off the tab is right within half a percentage point


def trained_question(document, training: dict, name: str) -> Question:
    """The question ``ask: <name>`` puts (`trained_facts.ASKABLE`) about ``document`` trained with ``training``."""
    if name == "trained.parameters":
        return _parameters_question(document, training)
    if name == "trained.test_accuracy":
        run = trained_graph(document, training)
        return Question(
            TRAINED, name,
            "When the run pauses by itself, what is the test accuracy? (As the training tab shows it, such as 75.5%.)",
            run.test_accuracy,
            f"Press Play on the training tab and let it run: it pauses by itself after {run.steps} steps. The test "
            "accuracy is in the status bar and on the accuracy plot (the test line).",
            f"the test accuracy after {run.steps} steps: {percent(run.test_accuracy)} (the training points: "
            f"{percent(run.train_accuracy)})", 0,
            slips=((run.train_accuracy, "is the accuracy on the training points: the question asks about the test "
                                        "points, which training never sees."),))
    raise KeyError(f"'ask:' asks about trained.test_accuracy or trained.parameters, not '{name}'")


def _parameters_question(document, training: dict) -> Question:
    plan = plan_training(document, settings_of(training).outputs)
    shapes = {name: plan.shapes[node_id] for node_id, name in plan.parameter_names.items()}
    sizes = {name: int(np.prod(shape, dtype=np.int64)) for name, shape in shapes.items()}
    products = " + ".join(" × ".join(str(n) for n in shape) or "1" for shape in shapes.values())
    weights_only = sum(size for name, size in sizes.items() if len(shapes[name]) >= 2)
    return Question(
        TRAINED, "trained.parameters",
        "How many numbers does training adjust, all parameters together?",
        float(sum(sizes.values())),
        "Each parameter holds as many numbers as its shape says (a (2, 3) array holds 2 × 3): the shapes are on the "
        "cards' headers. Add up every parameter's, the biases too.",
        f"${products} = {sum(sizes.values())}$ ({', '.join(shapes)})", 0,
        slips=tuple(slip for slip in ((float(len(sizes)), "is how many parameters the graph has: the question asks "
                                                           "how many numbers they hold together."),
                                      (float(weights_only), "counts the weight matrices alone: the biases are "
                                                            "trained too."))
                    if slip[0] != sum(sizes.values())))


def check_trained(question: Question, text: str) -> Feedback:
    """Right or not, with a hint; raises `predict.AnswerError` for text that is not a number."""
    text = text.strip()
    percent_sign = text.endswith("%")
    answer = read_number(text.removesuffix("%").strip())
    if question.node == "trained.parameters":
        said = format_number(answer)
        same = lambda number: answer == number  # noqa: E731 - a count is right exactly
    else:
        points = answer if percent_sign or answer > 1 else 100.0 * answer  # 86.67%, 86.67 or 0.8667
        said = f"{format_number(points)}%"
        same = lambda share: math.isfinite(points) and abs(points - 100.0 * share) <= HALF_POINT  # noqa: E731
    if same(question.expected):
        return Feedback(True, f"✓ Right: {question.worked}")
    slip = next((text for number, text in question.slips if same(number)), None)
    if slip is not None:
        return Feedback(False, f"✗ {said} {slip}", question.hint)
    return Feedback(False, f"✗ Not {said}. Hint: {question.hint}")

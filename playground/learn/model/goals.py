"""A lesson's goal for a run the student sets up and trains: checked against the training tab as it stands. Qt-free.

The MLCC worksheets ask for a result, not a number to type: "what is the smallest number of neurons and layers
that gives test loss 0.177 or lower?", "run it four or five times: how much does the converged test loss vary?".
A step says so with ``ask: goal …``::

    ask: goal test_loss <= 0.177 keeping tf_playground dataset noise test_fraction features
    ask: goal repeat_runs >= 4, repeat_epochs >= 500 keeping tf_playground dataset hidden activation

Each condition is a figure of the tab (`FIGURES`), an operator and a number; ``keeping`` names settings that must
stay as the lesson's training lines set them (the exercise's data and inputs: a goal reached on other data is
another exercise). **Check my run** reads the tab (`RunState`, the shell fills it in) and says, condition by
condition, what the run reached, with its network in words ("1 hidden layer of 3 ReLU neurons, inputs x₁, x₂"):
never a number the lesson made up, always the tab's own. A loss the TF Playground setting shows with three decimals
is compared as shown ("0.177 or lower" is what the worksheet's reader sees).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from engine.tf_playground import format_loss

from ...common.numbers import format_number
from ...training.model.learned import percent
from ...training.model.settings import ACTIVATIONS, FEATURES, TrainingSettings
from .questions import Question

GOAL = "goal"  # the kind of a goal question (`Question.what`)
# The figures a goal may set, what they are called, and how they are read off a `RunState`.
FIGURES = {
    "test_loss": "the test loss",
    "train_loss": "the training loss",
    "test_accuracy": "the test accuracy",
    "epochs": "the epochs trained",
    "neurons": "the hidden neurons in all",
    "layers": "the hidden layers",
    "repeat_runs": "Repeat's runs",
    "repeat_epochs": "the epochs of each of Repeat's runs",
}
OPERATORS = {"<=": ("at most", lambda a, b: a <= b), ">=": ("at least", lambda a, b: a >= b),
             "<": ("below", lambda a, b: a < b), ">": ("above", lambda a, b: a > b),
             "=": ("exactly", lambda a, b: a == b)}
_CONDITION = re.compile(r"^\s*([a-z_]+)\s*(<=|>=|<|>|=)\s*([-+0-9.e]+)\s*$")


@dataclass(frozen=True)
class Condition:
    figure: str
    operator: str
    value: float

    def words(self) -> str:
        value = percent(self.value) if self.figure == "test_accuracy" else format_number(self.value)
        return f"{FIGURES[self.figure]} {OPERATORS[self.operator][0]} {value}"


@dataclass(frozen=True)
class Goal:
    conditions: tuple[Condition, ...]
    keeping: tuple[str, ...] = ()  # settings the run must share with the lesson's training lines

    def words(self) -> str:
        return ", ".join(condition.words() for condition in self.conditions)


def parse_goal(text: str) -> Goal:
    """``test_loss <= 0.177, epochs >= 100 keeping dataset noise``; ValueError naming what is wrong."""
    conditions_text, _, keeping_text = text.partition(" keeping ")
    conditions = []
    for part in conditions_text.split(","):
        match = _CONDITION.match(part)
        if match is None:
            raise ValueError(f"a goal's condition is '<figure> <op> <number>' ({', '.join(FIGURES)}; "
                             f"{' '.join(OPERATORS)}), not '{part.strip()}'")
        figure, operator, number = match.groups()
        if figure not in FIGURES:
            raise ValueError(f"unknown figure '{figure}' in a goal (known: {', '.join(FIGURES)})")
        try:
            value = float(number)
        except ValueError:
            raise ValueError(f"'{number}' is not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"a goal's number must be finite, not {number}")
        conditions.append(Condition(figure, operator, value))
    known = {name for name in TrainingSettings.__dataclass_fields__}
    keeping = tuple(keeping_text.split())
    unknown = [name for name in keeping if name not in known]
    if unknown:
        raise ValueError(f"a goal keeps training settings, and '{unknown[0]}' is not one")
    return Goal(tuple(conditions), keeping)


@dataclass(frozen=True)
class RepeatState:
    """What Repeat last did: its runs (of the first setup), their length in epochs, and where their test losses
    ended (lowest, median, highest); its settings."""

    runs: int
    epochs: float
    lowest: float
    median: float
    highest: float
    settings: TrainingSettings


@dataclass(frozen=True)
class RunState:
    """The training tab as a goal reads it: its settings, how far its run is, its figures, and Repeat's last."""

    settings: TrainingSettings
    step: int
    epoch: float
    train_loss: float
    test_loss: float
    test_accuracy: float
    repeat: RepeatState | None = None


def network_words(settings: TrainingSettings) -> str:
    """"1 hidden layer of 3 ReLU neurons, inputs x₁, x₂"; "hidden layers of 3 and 2 (ReLU, Tanh)"."""
    if settings.trains_graph:
        return "the editor's graph"
    hidden, names = settings.hidden, settings.activations or (settings.activation,) * len(settings.hidden)
    inputs = ", ".join(FEATURES[name] for name in settings.features)
    if not hidden:
        return f"no hidden layer, inputs {inputs}"
    kinds = sorted(set(names), key=names.index)
    kind = ACTIVATIONS[kinds[0]] if len(kinds) == 1 else " / ".join(ACTIVATIONS[name] for name in names)
    if len(hidden) == 1:
        layers = f"1 hidden layer of {hidden[0]} {kind} neuron{'s' if hidden[0] != 1 else ''}"
    else:
        layers = (f"{len(hidden)} hidden layers of {', '.join(map(str, hidden[:-1]))} and {hidden[-1]} {kind} neurons "
                  f"({sum(hidden)} in all)")
    return f"{layers}, inputs {inputs}"


def _figure(state: RunState, figure: str) -> float | None:
    s = state.settings
    if figure in ("repeat_runs", "repeat_epochs"):
        if state.repeat is None:
            return None
        return float(state.repeat.runs if figure == "repeat_runs" else state.repeat.epochs)
    if figure == "neurons":
        return float(sum(s.hidden))
    if figure == "layers":
        return float(len(s.hidden))
    if figure == "epochs":
        return float(state.epoch)
    value = {"test_loss": state.test_loss, "train_loss": state.train_loss, "test_accuracy": state.test_accuracy}[figure]
    if figure.endswith("loss") and s.tf_playground and math.isfinite(value):
        return float(format_loss(value))  # as the tab shows it, to three decimals
    return value


def _shown(figure: str, value: float, settings: TrainingSettings) -> str:
    if figure == "test_accuracy":
        return percent(value)
    if figure.endswith("loss"):
        return format_loss(value) if settings.tf_playground else format_number(value)
    return format_number(value)


@dataclass(frozen=True)
class GoalCheck:
    met: bool
    message: str
    reached: str = ""  # what the run reached, in one line (the answers so far list it)


def check_goal(goal: Goal, state: RunState, lesson_training: dict) -> GoalCheck:
    """Whether the tab's run (``state``) meets ``goal``, in words; ``lesson_training``: the step's training lines
    (what ``keeping`` must match)."""
    changed = [name for name in goal.keeping
               if name in lesson_training and getattr(state.settings, name) != _as_setting(name, lesson_training[name])]
    if changed:
        return GoalCheck(False, f"✗ This run has another {', '.join(name.replace('_', ' ') for name in changed)} than "
                                "the exercise's: set it back (the step's setup puts it back), then train again.")
    lines, shown, met = [], [], True
    for condition in goal.conditions:
        value = _figure(state, condition.figure)
        if value is None:
            met = False
            lines.append(f"✗ {FIGURES[condition.figure]}: press Repeat… on the training tab first")
            continue
        ok = OPERATORS[condition.operator][1](value, condition.value)
        met &= ok
        reached = _shown(condition.figure, value, state.settings)
        wanted = _shown(condition.figure, condition.value, state.settings)
        lines.append(f"{'✓' if ok else '✗'} {FIGURES[condition.figure]} is {reached} (the goal: "
                     f"{OPERATORS[condition.operator][0]} {wanted})")
        shown.append(f"{FIGURES[condition.figure]} {reached}")
    about = (f"Repeat's {state.repeat.runs} runs of {network_words(state.repeat.settings)}: their test losses ended "
             f"between {state.repeat.lowest:.3f} and {state.repeat.highest:.3f} (median {state.repeat.median:.3f})"
             if state.repeat is not None and any(c.figure.startswith("repeat") for c in goal.conditions)
             else f"Your run: {network_words(state.settings)}, after {format_number(round(state.epoch, 1))} epochs "
                  f"(step {format_number(state.step)})")
    verdict = "✓ Reached." if met else "✗ Not yet."
    return GoalCheck(met, f"{verdict} {about}.\n" + "\n".join(lines), f"{about}: {'; '.join(shown)}")


def _as_setting(name: str, value):
    """A lesson's training value as `TrainingSettings` holds it (a list as a tuple)."""
    return tuple(value) if isinstance(value, list) else value


def goal_question(text: str) -> Question:
    """The question ``ask: goal <text>`` puts: reach the goal on the training tab, then Check my run."""
    goal = parse_goal(text)
    return Question(GOAL, text, f"Set up and train a run on the training tab that reaches: {goal.words()}. Then "
                                "press **Check my run**.", None,
                    "Train on the training tab (Play), until the run pauses by itself or you pause it; then Check my "
                    "run reads the tab as it stands.", f"the goal: {goal.words()}", 0)

"""Lesson files: a small, versioned text format a teacher can write, read line by line.

Qt-free. A lesson looks like this (README, "Lessons" has the whole list of actions)::

    autograd-playground-lesson 1
    title: The chain rule by hand
    summary: Every value, then every gradient, of one small graph.

    ## The graph
    graph: a=2; b=3; t=a*b; L=t+a
    select: t

    We compute $t = a * b$ and then $L = t + a$: here L = {L}.

    ## Your turn
    exercise: gradients

    Fill in each gradient in the order of the backward pass.

The first line names the format and its version. Header lines (``title``, ``summary``) follow.
Each ``## `` line starts a step: first its actions (``key: value`` lines right under the
heading), then, after a blank line, its text. The text is light Markdown (``**bold**``,
``*italic*``, ```code```, ``- `` lists) with formulas between ``$`` signs and numbers from the
engine in braces: ``{L}`` is L's value, ``{a.grad}`` its gradient (``{{`` for a brace).

`parse_lesson` checks everything it can without a window (every graph parses and evaluates,
every node named exists, every training setting is valid, every number in braces is known) and
raises `LessonFormatError` with the line and the reason.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import NoReturn

from ...animator.model.forward_timeline import inputs_of
from ...files.paths import EXAMPLES
from ...graph.document import DocumentFormatError, GraphDocument
from ...graph.expression import ExpressionError, parse_expression
from ...graph.file_io import load_document
from .facts import Facts, GraphFacts, NetworkFacts, NetworkSpec
from .goals import GOAL, parse_goal
from .health_facts import ASKABLE, health_facts, is_health_name
from .network_graph_facts import NetworkGraphFacts
from .step_numbers import check_number, step_number
from .tensor_facts import TensorGraphFacts, graph_facts
from .trained_facts import ASKABLE as TRAINED_ASKABLE
from .trained_facts import check_trained_name, is_trained_name
from .training_line import TrainingLineRefused, check_training

FORMAT_NAME = "autograd-playground-lesson"
FORMAT_VERSION = 1
MAX_BYTES = 200_000
MAX_LINE_LENGTH = 2_000
MAX_STEPS = 100
MAX_GRAPH_NODES = 120

TABS = ("editor", "animator", "training")
PITFALL_KEYS = ("none", "overwrite", "order", "zero")
ACTIONS = ("graph", "example", "tab", "select", "animator", "pitfall", "predict", "network", "training", "train",
           "highlight", "tick", "exercise", "ask", "nudge", "forward", "build")
_ACTION_LINE = re.compile(r"([a-z]+):(?:\s+(.*)|\s*)$")
_HEADER_LINE = re.compile(r"([a-z]+):\s*(.*)$")
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}\n]*)\}")  # a number in braces lies on one line, as it is checked
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class LessonFormatError(ValueError):
    """A lesson that cannot be used: ``line`` (1-based, None for the whole file) and ``reason``."""

    def __init__(self, reason: str, line: int | None = None, source: str = ""):
        self.reason, self.line, self.source = reason, line, source
        where = ", ".join(part for part in (source, f"line {line}" if line else "") if part)
        super().__init__(f"{where}: {reason}" if where else reason)

    def in_file(self, source: str) -> LessonFormatError:
        return LessonFormatError(self.reason, self.line, source)


@dataclass(frozen=True)
class Action:
    """One thing a step does to the app when it is shown; ``value`` is the checked, parsed argument."""

    kind: str
    argument: str
    line: int
    value: object = None


@dataclass(frozen=True)
class Ask:
    """One question of a step: a node's ``value``, its ``grad``, or its ``tangent`` in forward mode along an input."""

    what: str  # "value", "grad", "tangent", "shape" (of a tensor's gradient), "build" (the step's graph),
    #            "health" (`health_questions`), "trained" (`trained_questions`) or "goal" (`goals`)
    node: str  # node id in the step's graph (a health question: the number's name; a goal: its text)
    line: int
    along: str | None = None  # a tangent's input (node id)


@dataclass
class Step:
    title: str
    line: int
    actions: list[Action] = field(default_factory=list)
    text: str = ""
    text_line: int = 0
    facts: Facts | None = None  # the numbers of the step's graph or network, from the engine
    asks: list[Ask] = field(default_factory=list)
    nudge: str | None = None  # the input (node id) whose nudge the step shows
    source: Action | None = None  # the graph, example or network action (this step's or an earlier one's) of `facts`
    training: dict = field(default_factory=dict)  # every training setting of this and the earlier steps, merged

    @property
    def graph(self) -> GraphDocument | None:
        return self.facts.document if isinstance(self.facts, GraphFacts) else None


@dataclass
class Lesson:
    id: str  # progress is kept under it: a shipped lesson's file name without extension (see `panel`)
    title: str
    summary: str
    steps: list[Step]
    version: int = FORMAT_VERSION
    path: Path | None = None


def load_lesson(path: str | Path) -> Lesson:
    """Read and check a lesson file; raises `LessonFormatError` (its message names the file and line) or OSError."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise LessonFormatError(f"the file is too big for a lesson ({size:,} bytes; at most {MAX_BYTES:,})",
                                source=path.name)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = path.read_bytes()[:error.start].count(b"\n") + 1
        raise LessonFormatError("the file is not UTF-8 text", line, path.name) from None
    try:
        lesson = parse_lesson(text, path.stem)
    except LessonFormatError as error:
        raise error.in_file(path.name) from None
    lesson.path = path
    return lesson


def parse_lesson(text: str, lesson_id: str = "lesson") -> Lesson:
    """A lesson from its text, checked whole; raises `LessonFormatError` naming the line, whatever the text."""
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write is not content
    if len(text) > MAX_BYTES:
        raise LessonFormatError(f"the text is too big for a lesson ({len(text):,} characters; at most {MAX_BYTES:,})")
    if "\0" in text:
        raise LessonFormatError("the file holds a null character: it is not a text file",
                                text[:text.index("\0")].count("\n") + 1)
    try:
        return _Parser(text.splitlines(), lesson_id).parse()
    except (RecursionError, OverflowError, MemoryError) as error:  # e.g. a graph nested past the parser's depth
        raise LessonFormatError(f"the lesson cannot be read: {type(error).__name__} ({error})") from None


def _is_whole_number(word: str) -> bool:
    """ASCII digits only: '²' and '١' pass str.isdigit but not int()."""
    return word.isascii() and word.isdigit()


class _Parser:
    def __init__(self, lines: list[str], lesson_id: str):
        self.lines, self.lesson_id = lines, lesson_id
        self.facts: Facts | None = None  # what the steps so far have put in the app: inherited by the next
        self.source: Action | None = None  # the action that made `facts`
        self.training: dict = {}  # every training setting so far
        self.column = 0  # where the action being checked starts on its line (0-based), for its errors

    def fail(self, reason: str, line: int | None) -> NoReturn:
        raise LessonFormatError(reason, line)

    def parse(self) -> Lesson:
        for number, line in enumerate(self.lines, start=1):
            if len(line) > MAX_LINE_LENGTH:
                self.fail(f"the line is too long ({len(line):,} characters; at most {MAX_LINE_LENGTH:,})", number)
        version, start = self._format_line()
        header, index = self._header(start)
        if "title" not in header:
            self.fail("the lesson has no 'title:' line before its first step", index + 1 if index < len(self.lines)
                      else len(self.lines))
        steps = []
        while index < len(self.lines):
            step, index = self._step(index)
            steps.append(step)
            if len(steps) > MAX_STEPS:
                self.fail(f"too many steps (at most {MAX_STEPS})", step.line)
        if not steps:
            self.fail("the lesson has no steps: each starts with a '## ' line", len(self.lines) or 1)
        return Lesson(self.lesson_id, header["title"], header.get("summary", ""), steps, version)

    def _format_line(self) -> tuple[int, int]:
        index = next((i for i, line in enumerate(self.lines) if line.strip()), None)
        if index is None:
            self.fail("the file is empty", None)
        words = self.lines[index].split()
        if words[0] != FORMAT_NAME:
            self.fail(f"not a lesson file: the first line should be '{FORMAT_NAME} {FORMAT_VERSION}'", index + 1)
        if len(words) != 2 or not _is_whole_number(words[1]):
            self.fail(f"the first line should be '{FORMAT_NAME} <version>' with a whole number, "
                      f"such as '{FORMAT_NAME} {FORMAT_VERSION}'", index + 1)
        version = int(words[1])
        if version > FORMAT_VERSION:
            self.fail(f"this lesson is for a newer version of the app (format {version}; this app reads format "
                      f"{FORMAT_VERSION}): update the app to open it", index + 1)
        if version < 1:
            self.fail(f"unknown format version {version}", index + 1)
        return version, index + 1

    def _header(self, index: int) -> tuple[dict[str, str], int]:
        header: dict[str, str] = {}
        while index < len(self.lines) and not self.lines[index].startswith("## "):
            line = self.lines[index].strip()
            if line:
                match = _HEADER_LINE.match(line)
                if match is None or match.group(1) not in ("title", "summary"):
                    self.fail("before the first step ('## ...') only 'title:' and 'summary:' lines may come",
                              index + 1)
                key, value = match.groups()
                if key in header:
                    self.fail(f"a second '{key}:' line", index + 1)
                if not value.strip():
                    self.fail(f"'{key}:' is empty", index + 1)
                header[key] = value.strip()
            index += 1
        return header, index

    def _step(self, index: int) -> tuple[Step, int]:
        heading = self.lines[index]
        title = heading[3:].strip()
        if not title:
            self.fail("a step heading '## ' needs a title", index + 1)
        step = Step(title, index + 1)
        index += 1
        while index < len(self.lines) and self.lines[index].strip():  # the actions, up to a blank line
            match = _ACTION_LINE.match(self.lines[index].strip())
            if match is None:
                break  # the text starts without a blank line: allowed when it does not look like an action
            kind, argument = match.group(1), (match.group(2) or "").strip()
            self.column = self.lines[index].find(argument) if argument else 0
            if kind not in ACTIONS:
                self.fail(f"unknown action '{kind}:' (known: {', '.join(ACTIONS)}); the step's text starts after "
                          "a blank line", index + 1)
            self._action(step, kind, argument, index + 1)
            index += 1
        start = index
        while index < len(self.lines) and not self.lines[index].startswith("## "):
            index += 1
        body = self.lines[start:index]
        while body and not body[0].strip():
            body, start = body[1:], start + 1
        while body and not body[-1].strip():
            body = body[:-1]
        if not body:
            self.fail(f"the step '{title}' has no text", step.line)
        for number, line in enumerate(body, start=start + 1):
            match = _ACTION_LINE.match(line.strip())
            if match is not None and match.group(1) in ACTIONS:  # a misplaced action would show as text
                self.fail(f"'{match.group(1)}:' is an action, but here it would be read as the step's text: "
                          "actions go right under the step's '## ' heading, before its text", number)
        step.text, step.text_line = "\n".join(body), start + 1
        step.facts, step.source, step.training = self.facts, self.source, dict(self.training)
        self._check_setup_asks(step)
        self._check_placeholders(step)
        return step, index

    # -- actions ---------------------------------------------------------------------------------

    def _action(self, step: Step, kind: str, argument: str, line: int) -> None:
        if not argument and kind != "exercise":
            self.fail(f"'{kind}:' needs a value", line)
        value = getattr(self, f"_check_{kind}")(step, argument, line)
        if kind in ("ask", "exercise"):
            return  # questions, not actions on the app
        if kind == "nudge":
            step.nudge = value
            return
        action = Action(kind, argument, line, value)
        step.actions.append(action)
        if kind in ("graph", "example", "network", "build"):
            self.source = action
        elif kind == "training":
            self.training = {**self.training, **value}

    def _graph_facts(self, line: int, what: str) -> GraphFacts:
        if not isinstance(self.facts, GraphFacts):
            self.fail(f"'{what}' needs a graph: put a 'graph:' line in this step or an earlier one", line)
        return self.facts

    def _scalar_graph(self, line: int, what: str) -> GraphFacts:
        """The graph for an action that works on scalar graphs only (forward mode, pitfalls, Predict, nudges)."""
        facts = self._graph_facts(line, what)
        if facts.document.is_tensor_graph:
            self.fail(f"'{what}' works on scalar graphs only, and this step's graph holds arrays", line)
        return facts

    def _node(self, name: str, line: int, what: str) -> str:
        facts = self._graph_facts(line, what)
        node_id = facts.node_id(name)
        if node_id is None:
            self.fail(f"the graph has no node named '{name}' (it has {', '.join(facts.names())})", line)
        return node_id

    def _set_graph(self, document: GraphDocument, line: int, what: str) -> GraphDocument:
        if len(document.nodes) > MAX_GRAPH_NODES:
            self.fail(f"the {what} is too big for a lesson ({len(document.nodes)} nodes; at most "
                      f"{MAX_GRAPH_NODES})", line)
        try:
            self.facts = graph_facts(document)
        except ValueError as error:
            self.fail(f"the {what} cannot be evaluated: {error}", line)
        return document

    def _check_graph(self, step: Step, argument: str, line: int) -> GraphDocument:
        try:
            document = parse_expression(argument)
        except ExpressionError as error:
            where = f" at column {self.column + error.column + 1}" if error.column is not None else ""
            self.fail(f"the graph does not parse{where}: {error.reason}", line)
        except (RecursionError, MemoryError):
            self.fail("the graph is nested too deeply", line)
        return self._set_graph(document, line, "graph")

    def _check_build(self, step: Step, argument: str, line: int) -> GraphDocument:
        """The graph the student builds in the editor (checked by its parts and shapes, `build_check`); the
        later steps' numbers are about it, as about a 'graph:'."""
        if any(action.kind in ("graph", "example", "network", "build") for action in step.actions):
            self.fail("'build:' asks the student for the step's graph: the step cannot load another one", line)
        document = self._check_graph(step, argument, line)
        if not isinstance(self.facts, (TensorGraphFacts, NetworkGraphFacts)):
            self.fail("'build:' asks for a graph with arrays (a built graph is checked by its parts' shapes)", line)
        step.asks.append(Ask("build", self.facts.output, line))
        return document

    def _check_example(self, step: Step, argument: str, line: int) -> GraphDocument:
        names = sorted(p.name for p in EXAMPLES.glob("*.json") if p.name != "index.json")
        if argument not in names:
            self.fail(f"no example named '{argument}' (there are {', '.join(names)})", line)
        try:
            document = load_document(EXAMPLES / argument)
        except (OSError, DocumentFormatError) as error:
            self.fail(f"the example cannot be read: {error}", line)
        return self._set_graph(document, line, "example")

    def _check_tab(self, step: Step, argument: str, line: int) -> str:
        if argument not in TABS:
            self.fail(f"'tab:' is one of {', '.join(TABS)}, not '{argument}'", line)
        return argument

    def _check_select(self, step: Step, argument: str, line: int) -> str:
        return self._node(argument, line, "select:")

    def _check_animator(self, step: Step, argument: str, line: int) -> int:
        """A position in the animator: start, forward, seed, end, value <node>, grad <node> or step <n> (on a
        network: value <tensor>, such as 'value Linear 1')."""
        facts = self._graph_facts(line, "animator:") if not isinstance(self.facts, NetworkFacts) else self.facts
        words = argument.split()
        fixed = {"start": 0, "forward": facts.forward_frames, "seed": facts.forward_frames + 1,
                 "end": facts.frame_count}
        if len(words) == 1 and words[0] in fixed:
            return fixed[words[0]]
        if len(words) == 2 and words[0] in ("value", "grad") and isinstance(facts, GraphFacts):
            node_id = self._node(words[1], line, "animator:")
            position = facts.value_position(node_id) if words[0] == "value" else facts.grad_position(node_id)
            if position is None:
                self.fail(f"{words[1]} has no {words[0]} step in the animator", line)
            return position
        if len(words) >= 2 and words[0] == "value" and isinstance(facts, NetworkFacts):  # "value Linear 1"
            name = argument.split(None, 1)[1]
            position = facts.value_position(name)
            if position is None:
                self.fail(f"the network has no tensor named '{name}' (it has {', '.join(facts.names())})", line)
            return position
        if len(words) == 2 and words[0] == "step" and _is_whole_number(words[1]):
            position = int(words[1])
            if not 0 <= position <= facts.frame_count:
                self.fail(f"step {position} is past the last step ({facts.frame_count})", line)
            return position
        self.fail("'animator:' is start, forward, seed, end, 'value <node>', 'grad <node>' or 'step <n>', "
                  f"not '{argument}'", line)

    def _check_forward(self, step: Step, argument: str, line: int) -> tuple[str, bool]:
        """Forward mode in the animator along an input: '<input>' (at its start) or '<input> end'."""
        words = argument.split()
        if len(words) not in (1, 2) or len(words) == 2 and words[1] != "end":
            self.fail(f"'forward:' is '<input>' or '<input> end', not '{argument}'", line)
        self._scalar_graph(line, "forward:")
        node_id = self._node(words[0], line, "forward:")
        if node_id not in inputs_of(self.facts.document):
            self.fail(f"'forward:' starts at an input the output depends on, not at {words[0]}", line)
        return words[0], len(words) == 2

    def _check_pitfall(self, step: Step, argument: str, line: int) -> str | None:
        if argument not in PITFALL_KEYS:
            self.fail(f"'pitfall:' is one of {', '.join(PITFALL_KEYS)}, not '{argument}'", line)
        self._scalar_graph(line, "pitfall:")
        return None if argument == "none" else argument

    def _check_predict(self, step: Step, argument: str, line: int) -> bool:
        if argument not in ("on", "off"):
            self.fail(f"'predict:' is on or off, not '{argument}'", line)
        return argument == "on"

    def _check_network(self, step: Step, argument: str, line: int) -> NetworkSpec:
        settings = self._settings(argument, line, "network:")
        try:
            spec = NetworkSpec(**settings)
            self.facts = NetworkFacts(spec)
        except TypeError:
            known = ", ".join(f.name for f in fields(NetworkSpec))
            self.fail(f"'network:' takes {known}, not {', '.join(settings)}", line)
        except ValueError as error:
            self.fail(f"'network:' {error}", line)
        return spec

    def _check_training(self, step: Step, argument: str, line: int) -> dict:
        settings = self._settings(argument, line, "training:")
        try:  # with the earlier steps' settings, as the app will hold them
            check_training(settings, self.training)
        except TrainingLineRefused as refused:
            self.fail(str(refused), line)
        return settings

    def _check_train(self, step: Step, argument: str, line: int) -> str:
        if argument not in ("play", "pause", "reset", "graph"):
            self.fail(f"'train:' is play, pause, reset or graph, not '{argument}'", line)
        if argument == "graph":  # the training tab trains the editor's graph: the step's
            self._graph_facts(line, "train: graph")
        return argument

    def _check_highlight(self, step: Step, argument: str, line: int) -> str:
        if not _NAME.fullmatch(argument):
            self.fail(f"'highlight:' names a control by its object name (letters and digits), not '{argument}'",
                      line)
        return argument  # whether the app has it is checked when the lesson is opened in the app

    def _check_tick(self, step: Step, argument: str, line: int) -> tuple[str, bool]:
        """A tick box by its object name, ticked ('<name>') or not ('<name> off'), as a person clicks it."""
        words = argument.split()
        if len(words) not in (1, 2) or not _NAME.fullmatch(words[0]) or len(words) == 2 and words[1] != "off":
            self.fail(f"'tick:' is '<tick box>' or '<tick box> off' (its object name), not '{argument}'", line)
        return words[0], len(words) == 1  # whether the app has it is checked when the lesson is opened in the app

    def _check_exercise(self, step: Step, argument: str, line: int) -> None:
        facts = self._scalar_graph(line, "exercise:")
        if argument not in ("values", "gradients"):
            self.fail(f"'exercise:' is values or gradients, not '{argument or '(nothing)'}'", line)
        nodes = facts.forward_order() if argument == "values" else facts.backward_order()
        step.asks.extend(Ask("value" if argument == "values" else "grad", node_id, line) for node_id in nodes)

    def _check_ask(self, step: Step, argument: str, line: int) -> None:
        if argument.startswith(GOAL + " "):  # a run the student sets up and trains: checked on the tab (`goals`)
            try:
                parse_goal(argument[len(GOAL) + 1:])
            except ValueError as error:
                self.fail(f"'ask: goal': {error}", line)
            step.asks.append(Ask(GOAL, argument[len(GOAL) + 1:], line))
            return
        if is_health_name(argument):  # about the training network: checked with the step's whole setup
            if argument not in ASKABLE:
                self.fail(f"'ask:' about gradient health is one of {', '.join(ASKABLE)}, not '{argument}'", line)
            step.asks.append(Ask("health", argument, line))
            return
        if is_trained_name(argument):  # about the step's graph trained with the step's setup: checked with it
            if argument not in TRAINED_ASKABLE:
                self.fail(f"'ask:' about the trained graph is one of {', '.join(TRAINED_ASKABLE)}, not '{argument}'",
                          line)
            self._graph_facts(line, "ask:")
            step.asks.append(Ask("trained", argument, line))
            return
        if isinstance(self.facts, NetworkGraphFacts):
            self.fail("on a network trained on the points a lesson asks about its training: "
                      f"{', '.join(TRAINED_ASKABLE)}", line)
        words = argument.split()
        if len(words) == 2 and words[0] == "shape":  # a tensor's gradient: 'shape b.grad'
            self._check_shape_ask(step, words[1], line)
            return
        if len(words) == 3 and words[0] == "tangent":  # forward mode: d(node)/d(input)
            self._scalar_graph(line, "ask: tangent")
            along = self._node(words[2], line, "ask:")
            if along not in inputs_of(self.facts.document):
                self.fail(f"'ask: tangent' is along an input the output depends on, not {words[2]}", line)
            step.asks.append(Ask("tangent", self._node(words[1], line, "ask:"), line, along))
            return
        if len(words) != 2 or words[0] not in ("value", "grad"):
            self.fail(f"'ask:' is 'value <node>', 'grad <node>', 'tangent <node> <input>' or 'shape <node>.grad', "
                      f"not '{argument}'", line)
        node_id = self._node(words[1], line, "ask:")
        if words[0] == "value" and isinstance(self.facts, TensorGraphFacts):
            self.fail("on a tensor graph a lesson asks 'grad <node>' or 'shape <node>.grad' (a value is shown "
                      "on its card)", line)
        if words[0] == "grad" and self.facts.grad(node_id) is None:
            self.fail(f"{words[1]} gets no gradient: the output does not depend on it", line)
        step.asks.append(Ask(words[0], node_id, line))

    def _check_shape_ask(self, step: Step, target: str, line: int) -> None:
        facts = self._graph_facts(line, "ask: shape")
        if not isinstance(facts, TensorGraphFacts):
            self.fail("'ask: shape' asks about a tensor graph's gradient; this step's graph holds single numbers", line)
        if not target.endswith(".grad"):
            self.fail(f"'ask: shape' names a gradient, such as 'shape b.grad', not '{target}'", line)
        node_id = self._node(target[: -len(".grad")], line, "ask: shape")
        if facts.grad(node_id) is None:
            self.fail(f"{target[: -len('.grad')]} gets no gradient: the output does not depend on it", line)
        step.asks.append(Ask("shape", node_id, line))

    def _check_nudge(self, step: Step, argument: str, line: int) -> str:
        self._scalar_graph(line, "nudge:")
        node_id = self._node(argument, line, "nudge:")
        if not self.facts.document.node(node_id).is_leaf:
            self.fail(f"'nudge:' names an input or parameter, and {argument} is computed", line)
        return node_id

    def _settings(self, argument: str, line: int, what: str) -> dict:
        """``key=value, key=value``: each value a Python literal (a number, a tuple) or a bare word."""
        settings = {}
        for part in _split_settings(argument):
            key, equals, text = part.partition("=")
            key, text = key.strip(), text.strip()
            if not equals or not _NAME.fullmatch(key) or not text:
                self.fail(f"'{what}' is a list of key=value separated by commas; '{part.strip()}' is not", line)
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):  # TypeError: {[]: 1}
                value = text  # a bare word: sgd, moons, tanh
            if isinstance(value, list):
                value = tuple(value)
            settings[key] = value
        return settings

    def _check_setup_asks(self, step: Step) -> None:
        """Questions about the training setup's network or the step's graph trained with it: checked with the
        step's whole setup (its 'training:' lines may come after them)."""
        for ask in step.asks:
            try:
                if ask.what == "health":
                    health_facts(step.training).value(ask.node)
                elif ask.what == "trained":
                    check_trained_name(step.graph, step.training, ask.node)
            except KeyError as error:
                self.fail(f"'ask: {ask.node}': {error.args[0]}", ask.line)

    # -- text ------------------------------------------------------------------------------------

    def _check_placeholders(self, step: Step) -> None:
        for offset, line in enumerate(step.text.split("\n")):
            for match in _PLACEHOLDER.finditer(line):
                name = match.group(1)
                if name is None:
                    continue  # {{ or }}
                try:  # the graph's, the setup's network's or the trained graph's (`step_numbers`)
                    check_number(step.facts, step.training, name.strip())
                except KeyError as error:
                    self.fail(f"'{{{name}}}': {error.args[0]}", step.text_line + offset)
            if line.count("$") % 2:
                self.fail("a formula '$...$' is not closed on this line", step.text_line + offset)


def _split_settings(text: str) -> list[str]:
    """Split on the commas outside brackets: ``hidden=(8, 8), learning_rate=0.1`` is two settings."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [part for part in parts if part.strip()]


def placeholder_names(text: str) -> list[str]:
    """The names in braces in ``text`` (``{{`` is a brace, not a name)."""
    return [m.group(1).strip() for m in _PLACEHOLDER.finditer(text) if m.group(1) is not None]


def with_numbers(text: str, facts: Facts | None, training: dict | None = None) -> str:
    """``text`` with every ``{name}`` replaced by the engine's number (``{{`` becomes ``{``); ``training``,
    the step's training setup, gives the ``{health.…}`` numbers (`health_facts`) and, with the step's graph,
    the ``{trained.…}`` ones (`trained_facts`)."""
    def substitute(match: re.Match) -> str:
        if match.group(1) is None:
            return match.group(0)[0]
        return step_number(facts, training, match.group(1).strip())
    return _PLACEHOLDER.sub(substitute, text)

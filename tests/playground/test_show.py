"""playground.show(x): an engine graph opened in the editor from Python, from a script or a notebook,
and the round trip from exported code back to the same graph."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import playground
from engine import Tensor, Value
from playground.graph.document import GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.graph.export_code import to_python
from playground.graph.expression import parse_expression
from playground.graph.file_io import load_document
from playground.graph.from_engine import document_from_values

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "resources" / "examples").glob("*.json") if p.name != "index.json")


def lecture_neuron():
    """micrograd's lecture neuron, built as a student builds it."""
    x1, x2 = Value(2.0, label="x1"), Value(0.0, label="x2")
    w1, w2 = Value(-3.0, label="w1"), Value(1.0, label="w2")
    b = Value(6.8813735870195432, label="b")
    x1w1 = x1 * w1
    x1w1.label = "x1*w1"
    x2w2 = x2 * w2
    x2w2.label = "x2*w2"
    n = x1w1 + x2w2 + b
    n.label = "n"
    o = n.tanh()
    o.label = "o"
    o.backward()
    return o, {"x1": x1, "x2": x2, "w1": w1, "w2": w2, "b": b, "x1*w1": x1w1, "n": n, "o": o}


@pytest.fixture
def shown(qtbot):
    windows = []

    def show(x):
        window = playground.show(x)  # a QApplication runs here already: show returns at once
        windows.append(window)
        window.ask_save_changes = lambda: None
        return window

    yield show
    for window in windows:
        if window is not None:
            window.training.shutdown()
            window.close()


def test_show_opens_the_lecture_neuron_with_the_engines_values_and_gradients(shown, qtbot):
    o, values = lecture_neuron()
    window = shown(o)
    assert window.isVisible() and window.tabs.currentWidget() is window.editor
    document = window.document
    evaluation = window.editor.evaluation
    by_label = {node.label: node for node in document.nodes if node.label}
    assert set(by_label) >= set(values)
    for label, value in values.items():
        result = evaluation.results[by_label[label].id]
        assert result.value == value.data, label
        assert result.grad == pytest.approx(value.grad, rel=1e-15, abs=1e-15), label
    assert {by_label[name].kind for name in ("x1", "x2")} == {"input"}
    assert {by_label[name].kind for name in ("w1", "w2", "b")} == {"parameter"}
    assert document.effective_output() == by_label["o"].id
    cards = {item.node.label: item for item in window.editor.scene.node_items()}
    assert cards["o"].body_lines() == ["value 0.7071", "grad 1"]


def test_constants_and_unlabelled_results_and_a_list_of_outputs():
    a = Value(3.0, label="a")
    y = (a * 2 + 1).exp()  # 2 and 1 are constants; a*2 and the + are t1 and t2
    z = a.relu()
    document = document_from_values([y, z])
    kinds = sorted(node.kind for node in document.nodes)
    assert kinds == ["add", "constant", "constant", "exp", "input", "mul", "relu"]
    names = {document.name(node.id) for node in document.nodes}
    assert {"t1", "t2", "a"} <= names
    assert document.effective_output() == next(n.id for n in document.nodes if n.kind == "exp")  # the first given
    with pytest.raises(TypeError, match="engine.Value"):
        document_from_values([1.0])


def canonical(document: GraphDocument) -> nx.MultiDiGraph:
    """The graph as a person sees it: kinds, the names on the cards, the leaf values and the output."""
    graph = nx.MultiDiGraph()
    output = document.effective_output()
    for node in document.nodes:
        graph.add_node(node.id, kind=node.kind, name=document.name(node.id), inputs=node.port_count,
                       value=node.value if node.is_leaf else None, output=node.id == output)
    for edge in document.edges:
        graph.add_edge(edge.source, edge.target, port=edge.port)
    return graph


def assert_same_graph(original: GraphDocument, shown: GraphDocument) -> None:
    same = nx.is_isomorphic(canonical(original), canonical(shown), node_match=lambda a, b: a == b,
                            edge_match=lambda a, b: sorted(e["port"] for e in a.values())
                            == sorted(e["port"] for e in b.values()))
    assert same, (sorted(original.names().values()), sorted(shown.names().values()))


def with_output(text: str, output: str) -> GraphDocument:
    """The graph of an expression with the node labelled ``output`` chosen as its output."""
    document = parse_expression(text)
    document.set_output(next(node.id for node in document.nodes if node.label == output))
    return document


def interior_output_and_side_results() -> GraphDocument:
    """A user's graph: the output q = exp(a) feeds r = q + k, and p = a * b is a second sink; b and k are
    leaves of kinds their labels do not tell (a parameter b behind p only, a named constant k behind r)."""
    document = with_output("a=2; b=-0.5; p=a*b; q=exp(a); k=1.5; r=q+k", "q")
    for node in document.nodes:
        if node.label == "k":
            node.kind = "constant"
        if node.label == "b":
            node.kind = "input"
    document.add_node(Node("unused", "input", label="spare", value=7.0))  # a leaf nothing uses is a sink too
    return document


ROUND_TRIPS = [
    *EXAMPLES,
    "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)",
    "x=0.5; w=-1.5; y=sigmoid(x*w) ** 2 - abs(w) / 3",
    pytest.param(lambda: with_output("a=2; b=3; m=a*b; L=tanh(m)+a", "m"), id="interior output"),
    pytest.param(lambda: with_output("x=2; w=3; y=x*w; z=exp(x)", "y"), id="an extra sink"),
    pytest.param(interior_output_and_side_results, id="interior output, sinks, named leaves behind them"),
]


@pytest.mark.parametrize("source", ROUND_TRIPS, ids=lambda s: s.name if isinstance(s, Path) else str(s)[:12])
def test_exporting_a_graph_and_showing_the_scripts_result_gives_the_same_graph(source):
    """The script ends with the `playground.show` call that opens its graph again: run as written (with
    `show` giving back the document instead of opening a window), it gives the very same graph, leaf
    kinds included (a named constant, a parameter called c), the chosen output too where it is not the
    last node, and the nodes that do not feed the output."""
    if isinstance(source, Path):
        original = load_document(source)
    else:
        original = source() if callable(source) else parse_expression(source)
    script = to_python(original)
    namespace: dict = {"__name__": "exported"}
    exec(compile(script.replace("\nshow(", "\npass  # show("), "exported.py", "exec"), namespace)  # noqa: S102
    call = next(line for line in script.splitlines() if "import playground; playground.show(" in line)
    call = call.removeprefix("#").strip().removeprefix("import playground;").strip()
    namespace["playground"] = type("Stand-in", (), {"show": staticmethod(
        lambda x, **kinds: document_from_values(x if isinstance(x, list) else [x], **kinds))})
    shown = eval(call, namespace)  # noqa: S307 - our own exported script
    assert_same_graph(original, shown)
    theirs, ours = evaluate(original), evaluate(shown)
    assert ours.results[ours.output].value == theirs.results[theirs.output].value


SCRIPT = textwrap.dedent("""
    import sys
    from engine import Value
    import playground
    a = Value(2.0, label="a")
    L = (a * a + a).tanh()
    L.backward()
    print("showing", flush=True)
    result = playground.show(L)
    print("returned", result, flush=True)
""")


def run_script(tmp_path, code, env_extra=None):
    script = tmp_path / "script.py"
    script.write_text(code)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT), **(env_extra or {}))
    return subprocess.Popen([sys.executable, str(script)], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_until_idle(process, quiet_seconds: float = 1.0, timeout: float = 90.0) -> None:
    """Until the process has used (almost) no CPU for ``quiet_seconds``: its event loop is waiting."""
    def cpu_ticks() -> int:
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime

    deadline = time.monotonic() + timeout
    last, quiet_since = cpu_ticks(), time.monotonic()
    while time.monotonic() - quiet_since < quiet_seconds:
        assert time.monotonic() < deadline, "the app never settled"
        assert process.poll() is None, process.communicate()
        time.sleep(0.2)
        now = cpu_ticks()
        if now - last > 2:  # busy (a tick is 10 ms): starting up
            quiet_since = time.monotonic()
        last = now


def test_from_a_plain_script_show_runs_the_app_until_the_window_closes(tmp_path):
    process = run_script(tmp_path, SCRIPT, {"XDG_CONFIG_HOME": str(tmp_path)})
    try:
        assert process.stdout.readline().strip() == "showing"
        wait_until_idle(process)  # the window is up and the app waits for the person: show() has not returned
        assert process.poll() is None
        process.send_signal(signal.SIGINT)  # as Ctrl+C: the window closes, show() returns
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert out.strip() == "returned None"


def test_in_ipython_show_turns_on_the_qt_event_loop_and_returns_at_once(tmp_path):
    fake_ipython = textwrap.dedent("""
        import sys, types
        calls = []
        class Shell:
            def enable_gui(self, gui):  # what %gui qt does: a QApplication whose loop IPython runs
                from PySide6.QtWidgets import QApplication
                calls.append(gui)
                QApplication.instance() or QApplication([])
        module = types.ModuleType("IPython")
        module.get_ipython = lambda: Shell()
        sys.modules["IPython"] = module
    """)
    code = fake_ipython + SCRIPT + textwrap.dedent("""
        print("gui", calls, flush=True)
        print("visible", result.isVisible(), result.document.names()[result.document.effective_output()])
        result.training.shutdown()
    """)
    process = run_script(tmp_path, code, {"XDG_CONFIG_HOME": str(tmp_path)})
    out, err = process.communicate(timeout=120)
    lines = out.splitlines()
    assert lines[0] == "showing", (out, err)
    assert lines[1].startswith("returned <playground.shell.main_window.MainWindow"), (out, err)
    assert lines[2] == "gui ['qt']" and lines[3] == "visible True t3"


SIMPLE_PROMPT_IPYTHON = textwrap.dedent("""
    import sys, types
    class Shell:  # IPython started with --simple-prompt: enable_gui prints and installs nothing
        active_eventloop = None
        def enable_gui(self, gui):
            print(f'Cannot install event loop hook for "{gui}" when running with `--simple-prompt`.')
    module = types.ModuleType("IPython")
    module.get_ipython = lambda: Shell()
    sys.modules["IPython"] = module
""")


def test_where_ipython_cannot_run_qts_loop_show_runs_the_window_until_it_closes_and_says_so(tmp_path):
    """With --simple-prompt IPython installs no Qt hook: a window left to it would never be drawn, so show()
    runs it as from a script (and a second show() does again), saying so in one line on stderr."""
    code = SIMPLE_PROMPT_IPYTHON + SCRIPT + textwrap.dedent("""
        print("again", flush=True)
        print("returned", playground.show(L), flush=True)
    """)
    process = run_script(tmp_path, code, {"XDG_CONFIG_HOME": str(tmp_path)})
    try:
        assert process.stdout.readline().strip() == "showing"
        assert "Cannot install event loop hook" in process.stdout.readline()
        wait_until_idle(process)  # the window is up and show() has not returned
        assert process.poll() is None
        process.send_signal(signal.SIGINT)  # the window closes, show() returns
        assert [process.stdout.readline().strip() for _ in range(2)] == ["returned None", "again"]
        wait_until_idle(process)  # the second window runs too: it is not left to a loop nobody runs
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert out.strip() == "returned None"
    notes = [line for line in err.splitlines() if line.startswith("playground.show:")]
    assert len(notes) == 1 and "runs until you close it" in notes[0], err


def test_in_a_real_ipython_with_simple_prompt_show_does_not_return_a_window_never_drawn(tmp_path):
    pytest.importorskip("IPython")
    script = tmp_path / "in_ipython.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT), XDG_CONFIG_HOME=str(tmp_path),
               IPYTHONDIR=str(tmp_path / "ipython"))
    process = subprocess.Popen([sys.executable, "-m", "IPython", "--simple-prompt", "--no-banner", "--quick",
                                str(script)], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "showing"
        wait_until_idle(process)
        assert process.poll() is None  # show() runs the window: it has not returned a dead one
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert "returned None" in out, (out, err)
    assert "runs until you close it" in err


def test_show_refuses_what_it_cannot_draw_before_any_window_opens():
    with pytest.raises(TypeError):
        playground.show("not a value")
    with pytest.raises(TypeError, match="requires_grad"):
        playground.show(Tensor(np.array([1.0, 2.0])).sum(), constants=[Value(1.0)])


def test_named_leaf_kinds_win_over_the_labels():
    two, x, c = Value(2.0, label="two"), Value(3.0, label="x"), Value(0.5, label="c")
    y = x * two + c
    by_label = {n.label: n.kind for n in document_from_values([y]).nodes if n.is_leaf}
    assert by_label == {"two": "input", "x": "input", "c": "input"}  # the labels' rule
    by_label = {n.label: n.kind for n in document_from_values([y], constants=[two], parameters=[c]).nodes
                if n.is_leaf}
    assert by_label == {"two": "constant", "x": "input", "c": "parameter"}
    one_leaf = document_from_values([y], constants=two)  # a single Value as well as a list
    assert {n.label: n.kind for n in one_leaf.nodes if n.is_leaf}["two"] == "constant"
    with pytest.raises(ValueError, match="not in this graph"):
        document_from_values([y], constants=[x * two])  # a new op, made after y
    with pytest.raises(ValueError, match="not in this graph"):
        document_from_values([y], parameters=[Value(9.0)])  # not in the graph at all
    with pytest.raises(ValueError, match="both"):
        document_from_values([y], inputs=[x], parameters=[x])
    with pytest.raises(TypeError, match="leaf Values"):
        document_from_values([y], constants=[2.0])


def test_a_value_named_as_a_leaf_that_is_an_ops_result_is_refused_by_its_label():
    x, w = Value(3.0, label="x"), Value(2.0, label="w")
    xw = x * w
    xw.label = "xw"
    y = xw.tanh()
    with pytest.raises(ValueError, match=r"constants= names 'xw' = 6.0, the result of an op \('\*'\)") as caught:
        document_from_values([y], constants=[xw])
    assert "not a leaf of this graph" not in str(caught.value)
    unlabelled = (x + w) * 2
    with pytest.raises(ValueError, match=r"inputs= names value 5.0, the result of an op \('\+'\)"):
        document_from_values([unlabelled], inputs=[unlabelled._prev[0]])


def test_show_says_what_it_was_given_instead_of_a_value():
    with pytest.raises(TypeError, match=r"it was given a float \(3.0\): wrap a number in Value"):
        playground.show(3.0)
    with pytest.raises(ValueError, match="empty list"):
        playground.show([])
    with pytest.raises(TypeError, match="a list whose item 2 is a str"):
        playground.show([Value(1.0), "y"])
    with pytest.raises(TypeError, match="given a str"):
        playground.show("not a value")


def test_a_scalar_mlp_shows_each_neurons_dot_product_as_products_and_a_sum(shown):
    import engine
    from engine.nn import MLP

    engine.manual_seed(0)
    model = MLP(2, [3, 1], activation="tanh")
    x = [Value(0.5, label="x1"), Value(-1.0, label="x2")]
    out = model(x)
    out.backward()
    document = document_from_values([out])
    kinds = [node.kind for node in document.nodes]
    assert kinds.count("sum") == 4 and kinds.count("mul") == 2 * 3 + 3  # a Sum and a product per weight
    window = shown(out)
    evaluation = window.editor.evaluation
    assert evaluation.results[evaluation.output].value == out.data  # the very same number
    for name, leaf in (("x1", x[0]), ("x2", x[1])):
        node = next(n for n in window.document.nodes if n.label == name)
        assert evaluation.results[node.id].grad == pytest.approx(leaf.grad, rel=1e-12)


def tensor_loss():
    import numpy as np

    from engine import Tensor

    X = Tensor(np.array([[1.0, 2.0], [3.0, -1.0]]), label="X")
    W = Tensor(np.array([[0.5], [-0.25]]), requires_grad=True, label="W")
    b = Tensor(np.array([0.1]), requires_grad=True)  # unlabelled, a vector: a bias, b1
    loss = ((X @ W + b).tanh() ** 2).mean()
    return loss, W, b


def test_a_scalar_tensor_opens_in_the_editor_with_the_animator_a_tab_away_and_leaves_its_grads_alone(shown):
    loss, W, b = tensor_loss()
    loss.backward(retain_graph=True)
    before = W.grad.copy()
    window = shown(loss)
    assert window.tabs.currentWidget() is window.editor
    document = window.document
    w_id = next(node.id for node in document.nodes if document.name(node.id) == "W")
    w_card = window.editor.scene.node_item(w_id)
    assert w_card.title() == "W (2, 1)" and w_card.is_array_card
    assert np.allclose(window.editor.evaluation.results[w_id].grad, before)  # the editor's gradient, the engine's
    animator = window.animator
    window.tabs.setCurrentWidget(animator)
    assert animator.source == "python"
    titles = {node.title for node in animator.animation.nodes.values()}
    assert {"X", "W", "b1", "t1"} <= titles
    animator.seek(animator.frame_count)  # the replay ends with the engine's gradients
    w_node = next(n for n in animator.animation.nodes.values() if n.title == "W")
    assert np.allclose(animator.timeline.display[w_node.id].grad, before)
    assert np.array_equal(W.grad, before)  # the person's tensor kept its gradient (not doubled)
    loss.backward()  # and its graph: it can still go backward, as before show()
    assert np.allclose(W.grad, 2 * before)


def test_a_tensor_that_is_not_a_loss_opens_in_the_editor_and_a_freed_loss_is_refused(shown):
    loss, W, _ = tensor_loss()
    window = shown(W * 2)  # not a single number: the editor shows it, the animator needs a loss
    document = window.document
    output = document.effective_output()
    assert window.tabs.currentWidget() is window.editor and document.shape_of(output) == (2, 1)
    assert window.editor.evaluation.results[output].value.tolist() == [[1.0], [-0.5]]
    assert window.animator.source != "python"
    loss.backward()  # frees the graph, as PyTorch does
    with pytest.raises(ValueError, match=r"show the result before calling .backward\(\)"):
        playground.show(loss)


class LectureValue:
    """The Value of micrograd's lecture, as a student types it: labels, tanh and exp, children in a set."""

    def __init__(self, data, _children=(), _op="", label=""):
        self.data, self.grad, self._prev, self._op, self.label = data, 0.0, set(_children), _op, label
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, LectureValue) else LectureValue(other)
        out = LectureValue(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, LectureValue) else LectureValue(other)
        out = LectureValue(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, k):
        out = LectureValue(self.data ** k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        import math

        out = LectureValue(math.tanh(self.data), (self,), "tanh")

        def _backward():
            self.grad += (1 - out.data ** 2) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def test_micrograd_style_values_show_with_their_values_and_gradients():
    import micrograd.engine as micrograd

    a, b = LectureValue(2.0, label="a"), LectureValue(-3.0, label="w")
    x = a * b
    L = (x * x + a ** 2).tanh()  # x*x keeps x once in its set; a**2 carries its exponent in the op
    L.label = "L"
    L.backward()
    document = document_from_values([L])
    evaluation = evaluate(document)
    by_label = {node.label: node.id for node in document.nodes if node.label}
    assert evaluation.results[by_label["L"]].value == pytest.approx(L.data, rel=1e-15)
    for leaf in (a, b):
        assert evaluation.results[by_label[leaf.label]].grad == pytest.approx(leaf.grad, rel=1e-12)
    assert document.node(by_label["w"]).kind == "parameter" and document.node(by_label["a"]).kind == "input"

    m = micrograd.Value(1.5)
    y = (m * m + m * -1).relu() ** 3  # micrograd 0.1.0: no labels, its own relu and pow
    y.backward()
    evaluation = evaluate(document_from_values([y]))
    assert evaluation.results[evaluation.output].value == pytest.approx(y.data, rel=1e-15)
    leaf = next(node for node in document_from_values([y]).nodes if node.kind == "constant" and node.value == 1.5)
    assert evaluation.results[leaf.id].grad == pytest.approx(m.grad, rel=1e-12)


def test_engine_nn_parameters_are_labelled_so_the_picture_tells_them_apart():
    import engine
    from engine.nn import MLP

    engine.manual_seed(0)
    model = MLP(2, [2, 1])
    labels = [p.label for p in model.parameters()]
    assert labels == ["w1.1.1", "w1.1.2", "b1.1", "w1.2.1", "w1.2.2", "b1.2", "w2.1.1", "w2.1.2", "b2.1"]
    document = document_from_values([model([Value(1.0, label="x1"), Value(2.0, label="x2")])])
    assert sum(node.kind == "parameter" for node in document.nodes) == len(labels)
    with pytest.raises(TypeError, match="label must be a string"):
        Value(2.0, (), "", "x")  # micrograd's argument order: refused, not stored as a label


def test_a_graph_too_big_for_a_readable_zoom_opens_on_its_first_inputs(shown, qtbot):
    """Layers are centred on one another, so a graph with one tall layer has an empty top-left corner: the
    view opens on the first layer's top card instead (here the lone input a), with the hint to see it all."""
    a = Value(0.5, label="a")
    e = a.exp().tanh()
    terms = [e * Value(0.01 * i, label=f"w{i}") for i in range(400)]  # 400 weights: a layer 44,000 px tall
    loss = Value.sum(terms)
    loss.backward()
    window = shown(loss)
    window.resize(1280, 820)
    view = window.editor.view
    card = next(item for item in window.editor.scene.node_items() if item.node.label == "a")

    def in_view() -> bool:
        return view.mapToScene(view.viewport().rect()).boundingRect().contains(card.sceneBoundingRect())

    qtbot.waitUntil(in_view, timeout=3000)
    assert view.zoom() == pytest.approx(0.8)
    assert "press F to see it all" in window.statusBar().currentMessage()
    hint = view.too_big_hint  # stays when the status bar's note has faded
    assert hint.isVisible() and "F shows it all, M the minimap" in hint.text()
    assert view.viewport().geometry().contains(hint.geometry())
    assert not view.fit_whole()  # View > Fit on a graph too tall even at the smallest zoom
    assert in_view() and hint.isVisible()  # still starts at the inputs
    view.zoom_in()  # the person takes over: the hint goes
    assert not hint.isVisible()
    small = shown(Value(2.0, label="a") * Value(3.0, label="b"))
    small.resize(1280, 820)
    qtbot.waitUntil(lambda: small.editor.view.is_kept_fitted and not small.editor.view.too_big_hint.isVisible(),
                    timeout=3000)


def test_the_too_big_hint_wraps_on_a_narrow_canvas_and_is_never_cut_off(qtbot):
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QWidget

    from playground.canvas.view_hint import TooBigHint

    parent = QWidget()
    qtbot.addWidget(parent)
    hint = TooBigHint(parent)
    hint.place(QRect(0, 0, 1100, 800))
    one_line = hint.height()
    assert hint.width() < 1100 - 20
    hint.place(QRect(0, 0, 300, 800))
    assert hint.width() <= 300 - 20 and hint.height() > one_line  # wrapped onto more lines, within the canvas
    assert hint.x() == 10 and hint.y() + hint.height() == 800 - 10 - 1

"""A run of the editor's graph kept and shared (issue 28, item 6): a setup of version 2 carries the graph, its
trained weights, the optimizer's state and the step, opens exactly and goes on with the same steps, and is
refused whole with the field named when damaged; Export > Training as Python writes the graph as a module
whose run prints the app's losses, and PyTorch's beside them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from playground.files.disk import FileFormatError
from playground.graph.expression import parse_expression
from playground.shell.file_kinds import read_any
from playground.training.model.export_script import training_script
from playground.training.model.session import TrainingSession, TrainingSettings
from playground.training.model.setup_file import SetupFormatError, capture, from_dict, restore, to_dict
from tests.json_damage import damaged
from tests.playground.test_graph_network import MLP, SKIP

ROOT = Path(__file__).resolve().parents[2]
GOOD = json.loads((ROOT / "tests" / "corpus" / "setup-graph-trained.json").read_text())
NEURON_FROM_ZERO = "x1 = 2; x2 = 0; w1 = -3; w2 = 1; b = 0; o = tanh(x1*w1 + x2*w2 + b)"


def session(expression: str, **changes) -> TrainingSession:
    return TrainingSession(TrainingSettings(network="graph", **changes), graph=parse_expression(expression),
                           resolution=8)


def test_a_setup_of_a_trained_graph_opens_exactly_and_goes_on_with_the_same_steps():
    run = session(SKIP, batch_size=32)
    run.train_steps(40)
    saved = json.loads(json.dumps(to_dict(capture(run))))
    assert saved["version"] == 2 and saved["settings"]["network"] == "graph" and saved["step"] == 40
    assert saved["graph"]["format"] == "autograd-playground-graph"
    opened = restore(from_dict(saved), resolution=8)
    assert opened.step == 40 and opened.settings == run.settings
    run.train_steps(25)
    opened.train_steps(25)
    for name, value in run.state_dict().items():
        assert np.array_equal(opened.state_dict()[name], value), name
    assert to_dict(capture(opened)) == to_dict(capture(run))


def test_a_setup_of_the_layer_form_is_still_version_1():
    layers = TrainingSession(TrainingSettings(), resolution=8)
    saved = to_dict(capture(layers, with_weights=False))
    assert saved["version"] == 1 and "network" not in saved["settings"] and "graph" not in saved


@pytest.mark.parametrize("damage, words", [
    (lambda d: d.update(version=1), "version: 1 has no graph to train"),
    (lambda d: d.pop("graph"), "graph: missing"),
    (lambda d: d["settings"].update(network="layers"), "graph: a graph in a setup whose settings.network"),
    (lambda d: d["graph"]["nodes"][0].update(kind="bogus"), "graph: nodes[0].kind"),
    (lambda d: d["graph"]["nodes"][0].update(feed="none"), "graph: it cannot be trained: Name an input x1 and x2"),
    (lambda d: d["weights"].pop("W1"), "the weights do not fit the network"),
])
def test_a_setup_whose_graph_is_wrong_is_refused_naming_it(damage, words):
    data = json.loads(json.dumps(GOOD))
    damage(data)
    with pytest.raises(SetupFormatError) as refused:
        from_dict(data)
    assert words in str(refused.value)


@settings(max_examples=120, deadline=5000, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=damaged([GOOD]))
def test_a_damaged_setup_of_a_graph_restores_whole_or_is_refused_with_its_message(tmp_path, text):
    path = tmp_path / "damaged.json"
    path.write_text(text, encoding="utf-8")
    try:
        item = read_any(path)
    except FileFormatError as refused:
        assert "\n" not in str(refused) and "Error:" not in str(refused), str(refused)
        return
    setup = item.content
    restored = restore(setup, resolution=8)
    assert restored.step == setup.step
    saved = to_dict(setup)
    assert to_dict(from_dict(json.loads(json.dumps(saved)))) == saved


def exported_losses(run: TrainingSession, steps: int, use_torch: bool, tmp_path) -> tuple[list, str]:
    script = tmp_path / "training.py"
    script.write_text(training_script(run.settings, run.data, use_torch, run.graph))
    done = subprocess.run([sys.executable, str(script), str(steps), "25"], capture_output=True, text=True,
                          check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    losses = [tuple(float(x) for x in re.findall(r"train loss (\S+)  test loss (\S+)", line)[0])
              for line in done.stdout.splitlines() if line.startswith("step")]
    return losses, done.stdout


@pytest.mark.parametrize("expression, changes", [
    (MLP, {"batch_size": 32, "regularization": "l1", "regularization_rate": 0.01}),
    (SKIP, {"optimizer": "momentum", "learning_rate": 0.05, "regularization": "l2", "regularization_rate": 0.01}),
    (NEURON_FROM_ZERO, {"schedule": "cosine", "schedule_steps": 50}),
], ids=["mlp, minibatches, L1", "skip connection, momentum, L2", "neuron, cosine schedule"])
def test_the_exported_script_trains_the_graph_as_the_app_does_and_as_pytorch_does(expression, changes, tmp_path):
    run = session(expression, **changes)
    losses, output = exported_losses(run, 75, True, tmp_path)
    ours = []
    for _ in range(3):
        run.train_steps(25)
        metrics = run.evaluate()
        ours.append((metrics.train_loss, metrics.test_loss))
    assert len(losses) == 3
    for (app_train, app_test), (script_train, script_test) in zip(ours, losses):
        assert script_train == pytest.approx(app_train, abs=1e-9) and script_test == pytest.approx(app_test, abs=1e-9)
    worst = float(re.search(r"largest difference between the engine and PyTorch: (\S+)", output).group(1))
    assert worst < 1e-9

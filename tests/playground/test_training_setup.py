"""Training setups as files and as pasted text: a run saved mid-training opens with the same weights and
takes the same next steps; a bad setup is refused with a message that says what is wrong."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings
from playground.training.model.setup_file import (
    FORMAT_NAME,
    FORMAT_VERSION,
    SetupFormatError,
    TrainingSetup,
    capture,
    from_dict,
    from_text,
    load_setup,
    restore,
    save_setup,
    to_dict,
    to_text,
)


def next_losses(session: TrainingSession, steps: int) -> list[float]:
    losses = []
    for _ in range(steps):
        session.train_steps(1)
        losses.append(session.evaluate().train_loss)
    return losses


@pytest.mark.parametrize("settings", [
    TrainingSettings(),  # full batch, Adam
    TrainingSettings(batch_size=16, optimizer="momentum", learning_rate=0.05, schedule="cosine"),  # minibatches
    TrainingSettings(dataset="spiral", classes=3, loss="cross_entropy", hidden=(8,), init="kaiming"),
])
def test_a_setup_saved_mid_training_opens_with_the_same_weights_and_the_same_next_losses(tmp_path, settings):
    session = TrainingSession(settings, resolution=20)
    session.train_steps(37)
    path = tmp_path / "run.json"
    save_setup(path, capture(session))
    reopened = restore(load_setup(path), resolution=20)
    assert reopened.step == session.step == 37
    for name, weights in session.state_dict().items():
        assert np.array_equal(reopened.state_dict()[name], weights)
    assert next_losses(reopened, 5) == next_losses(session, 5)  # bit for bit: optimizer state, schedule, batches


def test_generated_points_are_kept_as_their_generator_and_added_points_as_points():
    session = TrainingSession(TrainingSettings(), resolution=20)
    assert to_dict(capture(session, with_weights=False))["data"] is None
    session.add_point(0.5, 0.25, 1)
    data = to_dict(capture(session, with_weights=False))["data"]
    assert [0.5, 0.25] in data["x_train"] and len(data["x_train"]) == len(session.data.X_train)
    reopened = restore(from_dict(json.loads(json.dumps(to_dict(capture(session, with_weights=False))))), 20)
    assert np.array_equal(reopened.data.X_train, session.data.X_train) and reopened.step == 0


def test_a_csv_setup_carries_its_points_and_class_names():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.arange(30) % 3
    session = TrainingSession(TrainingSettings(), resolution=20)
    session.set_points(X, y, "flowers.csv", ("iris", "rose", "tulip"))
    setup = from_dict(to_dict(capture(session)))
    assert setup.data.classes == ("iris", "rose", "tulip") and setup.settings.dataset == "csv"
    assert restore(setup, 20).settings.classes == 3


def test_the_text_form_fits_a_chat_message_and_reads_back():
    session = TrainingSession(TrainingSettings(hidden=(4,)), resolution=20)
    session.train_steps(3)
    text = to_text(capture(session))
    assert text.startswith("agp-setup:") and "\n" not in text and len(text) < 3000
    assert from_text(text).step == 3
    assert from_text(json.dumps(to_dict(capture(session)))).step == 3  # the JSON pasted as it is works too


def valid() -> dict:
    session = TrainingSession(TrainingSettings(hidden=(3,), batch_size=8), resolution=20)
    session.add_point(0.0, 0.0, 0)
    session.train_steps(2)
    return to_dict(capture(session))


def mutated(change) -> dict:
    data = valid()
    change(data)
    return data


BAD = {
    "not a setup": ({"format": "autograd-playground-graph", "version": 1},
                    "format: expected 'autograd-playground-training-setup', got 'autograd-playground-graph'"),
    "newer version": (mutated(lambda d: d.update(version=FORMAT_VERSION + 1)), "newer"),
    "version as text": (mutated(lambda d: d.update(version="1")), "version: expected a whole number ≥ 1, got '1'"),
    "version 1.0": (mutated(lambda d: d.update(version=1.0)), "version: expected a whole number ≥ 1, got 1.0"),
    "unknown setting": (mutated(lambda d: d["settings"].update(colour="red")),
                        "settings.colour: not a field of this file"),
    "wrong type": (mutated(lambda d: d["settings"].update(points="many")),
                   "settings.points: expected a whole number, got 'many'"),
    "boolean number": (mutated(lambda d: d["settings"].update(seed=True)),
                       "settings.seed: expected a whole number, got True"),
    "seed as text": (mutated(lambda d: d["settings"].update(seed="x")),
                     "settings.seed: expected a whole number, got 'x'"),
    "seed as a list": (mutated(lambda d: d["settings"].update(seed=[1])), "settings.seed: expected a whole number"),
    "seed null": (mutated(lambda d: d["settings"].update(seed=None)),
                  "settings.seed: expected a whole number, got None"),
    "seed 1.5": (mutated(lambda d: d["settings"].update(seed=1.5)), "settings.seed: expected a whole number, got 1.5"),
    "seed -1": (mutated(lambda d: d["settings"].update(seed=-1)), "settings.seed: expected a number ≥ 0, got -1"),
    "seed huge": (mutated(lambda d: d["settings"].update(seed=10**400)), "settings.seed: expected a number ≤"),
    "lr out of range": (mutated(lambda d: d["settings"].update(learning_rate=1e9)),
                        "settings.learning_rate: expected a number ≤ 10.0, got 1000000000.0"),
    "hidden too big": (mutated(lambda d: d["settings"].update(hidden=[65])),
                       "settings.hidden[0]: expected a number ≤ 64, got 65"),
    "too many layers": (mutated(lambda d: d["settings"].update(hidden=[2] * 7)),
                        "settings.hidden: at most 6 hidden layers are allowed in a setup, got 7"),
    "unknown activation": (mutated(lambda d: d["settings"].update(activation="swish")),
                           "settings.activation: expected 'tanh', 'relu', 'sigmoid', 'leaky_relu' or 'linear', "
                           "got 'swish'"),
    "csv without data": (mutated(lambda d: d["settings"].update(dataset="csv") or d.update(data=None)),
                         "data: missing (a setup on a CSV's points carries the points)"),
    "nan weight": (mutated(lambda d: d["weights"]["0.bias"].__setitem__(0, math.nan)), "not finite"),
    "weight shape": (mutated(lambda d: d["weights"].update({"0.bias": [1.0]})), "shape"),
    "missing weight": (mutated(lambda d: d["weights"].pop("0.bias")), "missing ['0.bias']"),
    "labels out of range": (mutated(lambda d: d["data"]["y_train"].__setitem__(0, 7)), "labels outside"),
    "fractional label": (mutated(lambda d: d["data"]["y_train"].__setitem__(0, 0.5)),
                         "data.y_train[0]: expected a whole number, got 0.5"),
    "points and labels": (mutated(lambda d: d["data"]["y_test"].pop()), "number of points and labels"),
    "huge": (mutated(lambda d: d["data"].update(x_train=[[0.0, 0.0]] * 100_001)),
             "data.x_train: at most 100,000 training points are allowed in a setup, got 100,001"),
    "a point of three": (mutated(lambda d: d["data"]["x_train"].__setitem__(0, [1.0, 2.0, 3.0])),
                         "data.x_train[0]: at most 2 items are allowed, got 3"),
    "negative step": (mutated(lambda d: d.update(step=-1)), "step: expected a number ≥ 0, got -1"),
    "no step with weights": (mutated(lambda d: d.pop("step")), "step: missing"),
    "optimizer shape": (mutated(lambda d: d["optimizer"]["state"]["0"].update(exp_avg=[[1.0]])), "shape"),
    "optimizer entry": (mutated(lambda d: d["optimizer"]["state"]["0"].update(secret=1)), "unknown entry"),
    "optimizer index in other digits": (mutated(lambda d: d["optimizer"]["state"].update({"²": {}})),
                                        "has no parameter '²'"),
    "extent": (mutated(lambda d: d["data"].update(extent=[1, 0, 0, 1])), "x_min < x_max"),
}


@pytest.mark.parametrize("name", BAD)
def test_a_bad_setup_is_refused_with_what_is_wrong(name):
    data, words = BAD[name]
    with pytest.raises(SetupFormatError, match=None) as caught:
        from_dict(data)
    assert words in str(caught.value)


def test_a_truncated_or_empty_file_is_refused_with_its_name(tmp_path):
    text = json.dumps(valid())
    for content, words in ((text[: len(text) // 2], "not valid JSON"), ("", "empty"), ("\x00\xff", "not")):
        path = tmp_path / "broken.json"
        path.write_bytes(content.encode("latin-1"))
        with pytest.raises(SetupFormatError) as caught:
            load_setup(path)
        assert str(caught.value).startswith("broken.json") and words in str(caught.value)


def test_pasted_junk_is_refused():
    for text, words in (("hello", "no training setup"), ("agp-setup:!!!!", "damaged"),
                        ("agp-setup:" + to_text(TrainingSetup(TrainingSettings()))[15:40], "damaged"),
                        ('{"format": "' + FORMAT_NAME + '"', "not valid JSON")):
        with pytest.raises(SetupFormatError, match=words):
            from_text(text)

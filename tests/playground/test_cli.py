"""The autograd-playground command: --help, --version, files opened by their content, bad files refused."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import playground
from playground.shell import cli

ROOT = Path(__file__).resolve().parents[2]
NEURON = ROOT / "resources" / "examples" / "neuron.json"


def command(*args, env_extra=None, **kwargs):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "playground", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, **kwargs)


def test_the_installed_command_is_the_same_as_python_m_playground():
    scripts = {ep.name: ep.value for ep in entry_points(group="console_scripts")}
    assert scripts.get("autograd-playground") == "playground.shell.cli:main"


def test_help_says_what_the_command_takes():
    done = command("--help")
    assert done.returncode == 0
    assert "usage: autograd-playground [-h] [--version] [FILE ...]" in done.stdout
    assert "graph" in done.stdout and "--version" in done.stdout
    text = " ".join(done.stdout.split())  # argparse wraps lines
    for kind, place in (("a graph", "in the editor"), ("a training setup", "on the Training tab"),
                        ("a lesson", "in the Learn panel")):
        assert kind in text and place in text, (kind, text)
    assert "FILE a file to open: a graph, a training setup or a lesson" in text


def test_version():
    done = command("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"autograd-playground {playground.__version__}"


@pytest.mark.parametrize("content, words", [
    ('{"format": "autograd-playground-graph", "version": 1, "nodes": [', "not valid JSON"),
    ("", "is empty"),
    ('{"format": "autograd-playground-graph", "version": 99, "nodes": []}', "newer"),
    ('{"hello": "world"}', "not an Autograd Playground graph"),
])
def test_a_bad_file_stops_the_command_with_one_line_and_no_window(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    done = command(path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"autograd-playground: {path}: ") and words in lines[0]
    assert lines[0].count("bad.json") == 1  # named once, not "bad.json: bad.json is not valid JSON"


def test_a_missing_file_is_named():
    done = command("no-such-graph.json")
    assert done.returncode == 2 and "No such file or directory" in done.stderr


def test_a_graph_file_opens_in_the_editor_and_the_app_exits_cleanly(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    process = subprocess.Popen([sys.executable, "-m", "playground", str(NEURON)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    settings = tmp_path / "Autograd Playground" / "Autograd Playground.conf"
    try:
        deadline = time.monotonic() + 60
        while not (settings.exists() and "neuron.json" in settings.read_text()):  # the file reached the recent list
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the graph was never opened"
            time.sleep(0.2)
        process.send_signal(signal.SIGTERM)  # a polite kill closes the window as its close button would
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err


def test_qt_options_pass_through_and_ours_are_parsed():
    args, qt_args = cli.parse(["-platform", "offscreen", "graph.json", "-style", "fusion"])
    assert [str(p) for p in args.files] == ["graph.json"] and qt_args == ["-platform", "offscreen", "-style", "fusion"]


def test_a_lesson_file_is_told_from_a_graph_by_its_content(tmp_path):
    from playground.shell.file_kinds import read_any

    lesson = ROOT / "resources" / "lessons" / "02-chain-rule.lesson"
    copy = tmp_path / "chain.txt"  # the name says nothing: the content does
    copy.write_text(lesson.read_text())
    item = read_any(copy)
    assert item.kind == "lesson" and item.content.title == "The chain rule by hand"
    assert read_any(NEURON).kind == "graph"


def test_a_broken_lesson_stops_the_command_with_its_line(tmp_path):
    lesson = (ROOT / "resources" / "lessons" / "02-chain-rule.lesson").read_text().splitlines()
    lesson[5] = "graph: a=2; b=3; L=a*"  # an expression that does not parse, on line 6
    path = tmp_path / "broken.lesson"
    path.write_text("\n".join(lesson) + "\n")
    done = command(path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"autograd-playground: {path}: line 6: the graph does not parse at column 22")


def test_a_training_setup_is_told_from_a_graph_by_its_content(tmp_path):
    from playground.shell.file_kinds import read_any
    from playground.training.model.settings import TrainingSettings
    from playground.training.model.setup_file import TrainingSetup, save_setup

    path = tmp_path / "class.json"
    save_setup(path, TrainingSetup(TrainingSettings(hidden=(4, 4))))
    item = read_any(path)
    assert item.kind == "setup" and item.content.settings.hidden == (4, 4)
    path.write_text(path.read_text().replace('"version": 1', '"version": 9'))
    done = command(path)
    assert done.returncode == 2 and "newer" in done.stderr


CORPUS = sorted(path for kind in ("graphs", "setups", "lessons")
                for path in (ROOT / "tests" / "corpus" / kind).iterdir())


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_nasty_file_ends_the_command_with_one_line_and_status_2(path):
    done = command(path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"autograd-playground: {path}: "), done.stderr
    assert "Traceback" not in done.stderr

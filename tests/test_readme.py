"""The README's Python examples run and print what they say they print."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    """The ```python blocks: run here. (The playground.show() example is a ```py block: it opens a window
    and waits for it to close, which tests/playground/test_show.py checks in a subprocess.)"""
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_has_engine_examples():
    assert len(python_blocks()) >= 2


def test_readme_examples_run_and_print_what_they_claim():
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        for block in python_blocks():
            exec(compile(block, str(README), "exec"), {})
    lines = output.getvalue().splitlines()
    assert lines[0] == "31.0 14.0 7.0 10.0"
    assert "* a 7.0 x 3.0 = 21.0" in lines  # a's contribution through a*b
    loss, test_accuracy = map(float, lines[-1].split())
    assert loss < 0.01 and test_accuracy >= 0.97


def test_readme_file_format_example_is_a_valid_graph():
    import json

    from playground.graph.document import GraphDocument

    block = re.search(r"```json\n(.*?)```", README.read_text(), re.S).group(1)
    document = GraphDocument.from_dict(json.loads(block))
    assert document.to_dict()["edges"] == json.loads(block)["edges"]

"""What both versions of the graph file share: its name, versions and limits, the error a file that cannot
be read raises, and the wire entry (unchanged since version 1). Qt-free.

Version 1 (`graph_file`) and version 2 (`graph_file_v2`) each build on this, so neither imports the other;
`graph_file.check` reads either.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

FORMAT_NAME = "autograd-playground-graph"
FORMAT_VERSION = 2  # the newest version this app reads; a scalar graph is still written as version 1
SCALAR_FORMAT_VERSION = 1

MAX_NODES = 2_000
MAX_EDGES = 6_000
MAX_SUM_INPUTS = 1_024
MAX_TEXT = 200  # characters in an id or a label
MAX_FILE_BYTES = 10 * 2**20


class DocumentFormatError(ValueError):
    """A graph file or dictionary that cannot be read; the message says which field and why."""


class StrictEntry(BaseModel):
    """An entry of a graph file: every field of the right type, no field the format does not name."""

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class EdgeEntry(StrictEntry):
    source: Annotated[str, Field(alias="from", min_length=1, max_length=MAX_TEXT)]
    target: Annotated[str, Field(alias="to", min_length=1, max_length=MAX_TEXT)]
    port: Annotated[int, Field(ge=0, le=MAX_SUM_INPUTS - 1)]

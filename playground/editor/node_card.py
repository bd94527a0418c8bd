"""The editor's card for a graph document's node (`NodeItem`), and the height such a card has
(`node_height`), so a new node can be placed before its card exists."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from ..numbers import format_number, full_number
from .cards import BODY_PADDING, HEADER_HEIGHT, ROW_HEIGHT, CardItem
from .catalog import kind
from .concealment import HIDDEN
from .document import Node
from .evaluate import NodeResult, same_numbers


def node_height(node: Node) -> float:
    """The height a `NodeItem` gives this node (two body lines, or one row per input port)."""
    return HEADER_HEIGHT + 2 * BODY_PADDING + max(2, node.port_count) * ROW_HEIGHT


class NodeItem(CardItem):
    """The card of a graph document's node: its op or leaf value, and the value and gradient last shown."""

    def __init__(self, node: Node, name: str = "", parent: QGraphicsItem | None = None):
        super().__init__(node.id, node.x, node.y, parent)
        self._node = replace(node)
        self._name = name or node.label or kind(node.kind).title  # the document's readable name (t1, x1, ...)
        self._result: NodeResult | None = None
        self._concealed = (False, False)  # value, grad: "?" while a quiz asks for them
        self._layout()
        self._refresh_tooltip()

    @property
    def node(self) -> Node:
        return self._node

    @property
    def result(self) -> NodeResult | None:
        return self._result

    def set_node(self, node: Node) -> None:
        """Show ``node`` (label, value or port count changed); the position is the scene's business."""
        self._node = replace(node)
        self._layout()
        self._refresh_tooltip()
        self.update()

    def set_name(self, name: str) -> None:
        """Show the document's readable name for this node (its label, or t1, t2, ... when it has none)."""
        if name != self._name:
            self._name = name
            self._layout()
            self._refresh_tooltip()
            self.update()

    def set_result(self, result: NodeResult | None) -> None:
        if result == self._result and result is not None and same_numbers(result, self._result):
            return  # unchanged: one value edit repaints only what it changed
        self._result = result
        self._refresh_tooltip()
        self.update()

    def group(self) -> str:
        return kind(self._node.kind).group

    def title(self) -> str:
        node_kind = kind(self._node.kind)
        if node_kind.is_leaf:
            value = format_number(self.shown_value())
            return value if self._name == value else f"{self._name} = {value}"  # a bare constant: "3", not "3 = 3"
        return self._name

    def kind_title(self) -> str:
        """The op's name beside the node's name ("mul" beside "ab" or "t1"); leaves show their value instead."""
        node_kind = kind(self._node.kind)
        return node_kind.title if self._name != node_kind.title and not node_kind.is_leaf else ""

    def port_names(self) -> list[str]:
        node_kind = kind(self._node.kind)
        return [node_kind.port_name(index) for index in range(self._node.port_count)]

    def display_name(self) -> str:
        return self._name

    def set_concealed(self, value: bool, grad: bool) -> None:
        """Print "?" for the value and/or the gradient: a quiz asks for them (`concealment`)."""
        if (value, grad) != self._concealed:
            self._concealed = (value, grad)
            self._refresh_tooltip()
            self.update()

    def _shown(self, number: float | None, concealed: bool, full: bool = False) -> str:
        return HIDDEN if concealed else (full_number if full else format_number)(number)

    def shown_value(self) -> float | None:
        if self._result is not None:
            return self._result.value
        return self._node.value if self._node.is_leaf else None

    def shown_grad(self) -> float | None:
        return self._result.grad if self._result is not None else None

    def default_body_lines(self) -> list[str]:
        value, grad = self._concealed
        return [f"value {self._shown(self.shown_value(), value)}", f"grad {self._shown(self.shown_grad(), grad)}"]

    def problem_text(self) -> str | None:
        """Why this node is drawn in red: a nan/inf result or unconnected inputs; None if fine."""
        result = self._result
        if result is None:
            return None
        if result.problem:
            return result.problem
        ports = result.missing_ports
        if len(ports) == 1:
            return f"input '{ports[0]}' is not connected"
        if ports:
            return "inputs " + ", ".join(f"'{p}'" for p in ports) + " are not connected"
        return None

    def tooltip_text(self) -> str:
        value, grad = self._concealed
        text = (f"{self._name} ({self._node.kind}) = {self._shown(self.shown_value(), value, True)}, "
                f"grad = {self._shown(self.shown_grad(), grad, True)}")
        problem = self.problem_text()
        return f"{text}\n{problem}" if problem else text

    def value_rect(self) -> QRectF:
        """Where the value line is, in item coordinates (an inline editor goes there)."""
        return self._row_rect(0)

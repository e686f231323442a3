"""One list of keys for the help screen and the command palette, gathered from the bindings themselves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.dom import DOMNode
    from textual.screen import Screen


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """One binding as the user sees it."""

    id: str
    key: str
    description: str
    tooltip: str
    where: str
    action: str
    node: DOMNode


def _display(node: DOMNode, binding: Binding) -> str:
    return node.app.get_key_display(binding)


def gather_keys(screen: Screen[Any]) -> list[KeyInfo]:
    """Every binding with an id on the app, the screen and its widgets that is available now, once each (by id),
    app keys last."""
    seen: set[str] = set()
    found: list[KeyInfo] = []
    nodes: list[DOMNode] = [screen, *screen.query("*")]
    for node in [*nodes, screen.app]:
        # A widget may name where its keys work (KEYS_WHERE: the call keys act on the highlighted call).
        named = getattr(node, "KEYS_WHERE", None) or type(node).__name__
        where = "everywhere" if node is screen.app else ("this screen" if node is screen else named)
        for binding in node._bindings.key_to_bindings.values():
            for item in binding:
                if item.id is None or item.id in seen or item.system:
                    continue
                if node.check_action(item.action.split("(")[0], ()) is False:
                    continue  # not available here now (e.g. "retry" while connected)
                seen.add(item.id)
                found.append(
                    KeyInfo(item.id, _display(node, item), item.description, item.tooltip, where, item.action, node)
                )
    return found

"""Keys: the one way they are declared (``Key``, ``bindings``), and the one list of them that the help screen and
the command palette show, gathered from the bindings themselves.

Every key has an id and a tooltip (TUI.md): ``bindings`` makes the id from the scope and the action, so a screen or
widget declares each key on one line, with the words the footer shows and the sentence the help shows.

A key that moves the focus or opens a dialog is declared ``priority``: Textual runs a priority key's action as it
reads the key, while an ordinary one is looked up only after the key has gone to the focused widget and come back,
by which time the keys typed after it were handed to the old focus (a Tab typed fast was overtaken by the next
characters, which landed in the field it left). Such a key steps aside while the cursor is in a text field
(``typing``), so the letter is typed there. An action that moves the focus with ``Widget.focus()`` moves it a turn
of the app later: the app holds the keys typed after a priority key for that turn (``inspector.ui.key_hold``), so
``/slow`` typed at once searches for ``slow``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.binding import Binding, BindingType
from textual.widgets import Input, TextArea

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.screen import Screen


@dataclass(frozen=True, slots=True)
class Key:
    """One key as declared: the keys that press it, the action, the footer's word and the help's sentence."""

    keys: str
    action: str
    description: str
    tooltip: str
    show: bool = True
    """Shown in the footer (the help and the palette list every key)."""
    priority: bool = False
    display: str | None = None
    """How the footer and the help write the key (default: Textual's)."""


def bindings(scope: str, *keys: Key) -> list[BindingType]:
    """The Textual bindings of ``keys``, each with the id ``scope.action`` (``export.show-curl`` for an action
    with arguments)."""
    return [
        Binding(
            key.keys,
            key.action,
            key.description,
            show=key.show,
            key_display=key.display,
            priority=key.priority,
            id=f"{scope}.{_name(key.action)}",
            tooltip=key.tooltip,
        )
        for key in keys
    ]


def typing(app: Any) -> bool:
    """The cursor is in a text field: a letter key types, it is no command."""
    return isinstance(app.focused, Input | TextArea)


def wants_tab(widget: Any) -> bool:
    """The widget types a tab itself (a JSON editor indents with it): Tab does not move the focus there."""
    return isinstance(widget, TextArea) and widget.tab_behavior == "indent" and not widget.read_only


def _name(action: str) -> str:
    """``show('curl')`` -> ``show-curl``, ``cursor(-1)`` -> ``cursor--1`` (distinct from ``cursor(1)``)."""
    name, _, arguments = action.partition("(")
    arguments = re.sub(r"[^a-z0-9_-]+", "", arguments.lower())
    return f"{name}-{arguments}" if arguments else name


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """One binding as the user sees it: where it works, and whether it does something now."""

    id: str
    key: str
    description: str
    tooltip: str
    where: str
    action: str
    node: DOMNode
    available: bool = True
    """False: the key does nothing in this state (e.g. cancel on a call that has ended); the help lists it apart."""


def where_name(node: DOMNode, screen: Screen[Any]) -> str:
    """Where a node's keys work, in words a person sees: the widget's ``KEYS_WHERE`` ("timeline", "highlighted
    call"), "this screen", or "everywhere"."""
    if node is screen.app:
        return "everywhere"
    if node is screen:
        return "this screen"
    named = getattr(node, "KEYS_WHERE", None)
    return named if isinstance(named, str) and named else "here"


def gather_keys(screen: Screen[Any], *, unavailable: bool = False) -> list[KeyInfo]:
    """Every binding with an id on the app, the screen and its widgets, once each (by id), app keys last: those
    that do something now, then (``unavailable``) those that do nothing in this state."""
    seen: set[str] = set()
    found: list[KeyInfo] = []
    later: list[KeyInfo] = []
    nodes: list[DOMNode] = [screen, *screen.query("*")]
    for node in [*nodes, screen.app]:
        for binding in node._bindings.key_to_bindings.values():
            for item in binding:
                if item.id is None or item.id in seen or item.system:
                    continue
                seen.add(item.id)
                now = node.check_action(item.action.split("(")[0], ()) is not False
                key = KeyInfo(
                    item.id,
                    node.app.get_key_display(item),
                    item.description,
                    item.tooltip,
                    where_name(node, screen),
                    item.action,
                    node,
                    now,
                )
                (found if now else later).append(key)
    return [*found, *later] if unavailable else found

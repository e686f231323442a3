"""2025-11-25 URL elicitation by error: a request answered -32042 carries the URLs the user must visit first.

Pure helpers shared by the session (which asks the answers source for consent) and the builder (which shows the
URLs as the input requests of the round that got the error), so live and replayed timelines agree.
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.jsonrpc import JsonObject

URL_ELICITATION_REQUIRED = -32042
"""2025-11-25: a request that needs the user to visit URLs first answers this error with ``data.elicitations``."""


def url_elicitations(error_data: Any) -> list[JsonObject]:
    """The URL-mode elicitations a -32042 error carries (``data.elicitations``), as elicitation/create params."""
    found = error_data.get("elicitations") if isinstance(error_data, dict) else None
    return [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []


def elicitation_key(elicitation: JsonObject, index: int) -> str:
    """The key a -32042 elicitation is shown and answered under: its elicitationId, else its position."""
    value = elicitation.get("elicitationId")
    return value if isinstance(value, str) and value else f"url-{index + 1}"

"""What the user chose for logins on the command line: the plain value the options make and the wiring reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.protocol.oauth_dpop import DpopMode


@dataclass(frozen=True, slots=True)
class LoginChoices:
    """How the user allows a login to run (``cli.wiring.login_config`` turns it into the transport's config)."""

    allowed: bool = True
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    client_metadata_url: str | None = None
    browser: bool = True
    timeout: float = 300.0
    callback_port: int | None = None
    accept_risks: bool = False
    """``--accept-login-risks``: the warnings about a login's addresses are accepted without asking."""
    dpop: DpopMode = "auto"
    """``--dpop`` on, ``--no-dpop`` off, neither auto (``protocol.oauth_dpop.choose``)."""
    assertion_file: str | None = None
    """``--jwt-bearer-assertion-file``: log in as a workload with the JWT in this file, read at each token request."""
    assertion: str | None = field(default=None, repr=False)
    """``--jwt-bearer-assertion-env``'s value: log in as a workload with this JWT."""

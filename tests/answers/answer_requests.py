"""Builders for the input requests the answers tests send (shapes as in the 2026-07-28 digest §2.4-2.6)."""

from __future__ import annotations

from typing import Any

NAME_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def form(schema: dict[str, Any] | None = None, message: str = "Please answer") -> dict[str, Any]:
    """A form-mode elicitation/create input request."""
    return {
        "method": "elicitation/create",
        "params": {"mode": "form", "message": message, "requestedSchema": schema or NAME_SCHEMA},
    }


def url(link: str = "https://dashboard.example.com/connect") -> dict[str, Any]:
    """A URL-mode elicitation/create input request."""
    return {"method": "elicitation/create", "params": {"mode": "url", "message": "Connect", "url": link}}


def sampling(text: str = "What is the capital of France?", max_tokens: int = 100, **extra: Any) -> dict[str, Any]:
    """A one-message sampling/createMessage input request."""
    message = {"role": "user", "content": {"type": "text", "text": text}}
    return {"method": "sampling/createMessage", "params": {"messages": [message], "maxTokens": max_tokens, **extra}}


def roots() -> dict[str, Any]:
    """A roots/list input request (it has no params)."""
    return {"method": "roots/list"}

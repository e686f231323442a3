"""The bundled demo MCP server: one tool per MRTR flow of MCP 2026-07-28, dual-era (see `server.py`)."""

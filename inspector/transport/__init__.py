"""Bytes <-> JSON-RPC text: stdio (subprocess) and Streamable HTTP (httpx). Knows nothing about tools or MRTR."""

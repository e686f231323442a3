"""OAuth for the Streamable HTTP transport: the official SDK's client flow (``mcp.client.auth``) driven over our own
httpx client, with the loopback callback, staged storage and the policy the SDK leaves to its callers.

Only ``config`` and ``driver`` are imported by the transport up front; everything that imports the SDK is loaded
the first time a server asks for a login.
"""

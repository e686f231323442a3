"""inspector: a terminal inspector and debugger for MCP servers."""

__version__ = "0.1.0"

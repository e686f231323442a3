"""The detail pane: a call or round as a Document of lines (JSON, content blocks by type, markdown, trees)."""

"""The headless face: rich printing of the timeline and the ``--json`` documents. Never imports textual."""

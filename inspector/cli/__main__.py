"""``python -m inspector.cli``: the ``inspector`` command, as the console script runs it."""

from inspector.cli import main

main()

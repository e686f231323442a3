"""Modals that answer input requests: elicitation (form and URL mode), sampling and roots.

Each is dismissed with its answer, or with ``None`` when the user cancels the whole call (Escape).
``inspector.ui.interactive_answers.InteractiveAnswers`` pushes them and turns their results into ``Answer``s.

Import them from their modules (``inspector.ui.modals.elicitation``...): this package imports nothing, so that
reaching one small helper (``url_check``) does not load every form at startup.
"""

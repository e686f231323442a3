"""Modals that answer input requests: elicitation (form and URL mode), sampling and roots.

Each is dismissed with its answer, or with ``None`` when the user cancels the whole call (Escape).
``inspector.ui.answers.InteractiveAnswers`` pushes them and turns their results into ``Answer``s.
"""

from inspector.ui.modals.base import AnswerModal
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.modals.roots import RootsModal, RootsReply
from inspector.ui.modals.sampling import SamplingModal, SamplingReply
from inspector.ui.modals.url_consent import UrlConsentModal

__all__ = [
    "AnswerModal",
    "ElicitationModal",
    "RootsModal",
    "RootsReply",
    "SamplingModal",
    "SamplingReply",
    "UrlConsentModal",
]
